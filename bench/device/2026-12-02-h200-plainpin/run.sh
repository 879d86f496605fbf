#!/bin/bash
# The device tool (nvidia-h200), sixteenth session: pin=loop in the
# plain (unguarded) search?  devrun/p16 (ignored, carried): the six
# runnable held-out kernels (sm_90a, sm_80) whose plain 12-try pick
# changes when the search also tries pin=loop after each pick with
# remat: NAME.ptx the input, NAME.old.ptx the plain pick at 6ef0f40,
# NAME.sel.ptx the pick with pin=loop offered.  Each `verify`'d against
# its input (30 runs after 5 of warm-up), two rounds; sanitizers on the
# two kernels not timed before.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p16 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for round in 1 2; do
for f in $H/h*.launch; do
  n=$(basename $f .launch)
  for v in old sel; do
    timeout 100 /tmp/ptxverify $H/$n.ptx $H/$n.$v.ptx $f --runs 30 --warmup 5 > $R/v_${n}_$v.txt 2>&1; rc=$?
    echo "$n | $v | round $round | rc=$rc | $(grep -m1 '^output' $R/v_${n}_$v.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_${n}_$v.txt) | $(tail -1 $R/v_${n}_$v.txt)"
  done
done
done
} 2>&1 | tee $R/summary.txt
for n in hf_d256_m64_n32_w4_s2_bf16_causal_un_sm90a ho_d128_m128_n64_w4_s2_fp16_full_un_sm80; do
for t in racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $t /tmp/ptxverify $H/$n.ptx $H/$n.sel.ptx \
    $H/$n.launch --runs 1 --warmup 0 2>&1 | tail -3 | sed "s/^/$n $t: /"
done
done 2>&1 | tee $R/sanitizer.txt
tar czf $OUT/res.tgz -C /tmp res
