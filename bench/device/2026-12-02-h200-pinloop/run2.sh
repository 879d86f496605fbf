#!/bin/bash
# The device tool (nvidia-h200), fifteenth session, second call: a
# selective pin=loop tried by hand.  devrun/p15b (ignored, carried):
# for two of run.sh's kernels, the input, the old pick
# (remat=loop,pin=ld) and NAME.sel.ptx: the pin=loop pick with the pins
# taken out again where the %tid value feeds 64-bit arithmetic or a
# [%rd] address within 60 lines (a script, /tmp/selpin.py, not kept;
# validate proves both), each run by `verify` against its input (30 runs
# after 5 of warm-up), in two rounds; sanitizers on one.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p15b R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
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
n=ho_d128_m128_n64_w4_s2_bf16_causal_un_sm90a
for t in racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $t /tmp/ptxverify $H/$n.ptx $H/$n.sel.ptx \
    $H/$n.launch --runs 1 --warmup 0 2>&1 | tail -3 | sed "s/^/$t: /"
done 2>&1 | tee $R/sanitizer.txt
tar czf $OUT/res.tgz -C /tmp res
