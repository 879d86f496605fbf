#!/bin/bash
# The device tool (nvidia-h200), nineteenth session: the drop-in's
# picks on ten more fresh Triton configurations (tools/gen-triton.py
# --configs "$(cat configs19.txt)", none made before), out of sample.
# devrun/p19 (ignored, carried): NAME.ptx the input, NAME.launch, and
# NAME.n.ptx the drop-in's pick (`ptxpress opt NAME.ptx --tries 8
# --refine 0 --unserialized --sass-guard`, the binary of fc58275) for
# the eight spilling kernels it rewrote.  Each `verify`'d against its
# input (30 runs after 5 of warm-up), two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p19 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
one() {  # ORIG NEW LAUNCH TAG ROUND
  timeout 100 /tmp/ptxverify $1 $2 $3 --runs 30 --warmup 5 > $R/v_$4_$5.txt 2>&1; rc=$?
  echo "$4 | round $5 | rc=$rc | $(grep -m1 '^output' $R/v_$4_$5.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_$4_$5.txt) | $(tail -1 $R/v_$4_$5.txt)"
}
for round in 1 2; do
  for f in $H/hx_*.launch; do
    n=$(basename $f .launch)
    one $H/$n.ptx $H/$n.n.ptx $f $n $round
  done
done 2>&1 | tee $R/summary.txt
tar czf $OUT/res.tgz -C /tmp res
