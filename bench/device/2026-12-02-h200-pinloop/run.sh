#!/bin/bash
# The device tool (nvidia-h200), fifteenth session: pin=loop on the
# H200.  The four held-out sm_90a kernels (tools/gen-triton.py, ho_
# files, misaligned d128_n64) whose search pick gained pin=loop,
# prepared into devrun/p15 (ignored by git, carried): NAME.old.ptx
# (`opt --no-search -p remat=loop,pin=ld`, the pick before: 68 or 120
# bytes of spill) and NAME.new.ptx (`-p remat=loop,pin=ld,pin=loop`,
# the pick now: 0), each run by `verify` against its input (30 runs
# after 5 of warm-up), in two rounds; then compute-sanitizer's
# racecheck and synccheck on one new pick.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p15 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for round in 1 2; do
for f in $H/h*.launch; do
  n=$(basename $f .launch)
  for v in old new; do
    timeout 100 /tmp/ptxverify $H/$n.ptx $H/$n.$v.ptx $f --runs 30 --warmup 5 > $R/v_${n}_$v.txt 2>&1; rc=$?
    echo "$n | $v | round $round | rc=$rc | $(grep -m1 '^output' $R/v_${n}_$v.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_${n}_$v.txt) | $(tail -1 $R/v_${n}_$v.txt)"
  done
done
done
} 2>&1 | tee $R/summary.txt
n=ho_d128_m128_n64_w4_s2_bf16_causal_un_sm90a
for t in racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $t /tmp/ptxverify $H/$n.ptx $H/$n.new.ptx \
    $H/$n.launch --runs 1 --warmup 0 2>&1 | tail -3 | sed "s/^/$t: /"
done 2>&1 | tee $R/sanitizer.txt
tar czf $OUT/res.tgz -C /tmp res
