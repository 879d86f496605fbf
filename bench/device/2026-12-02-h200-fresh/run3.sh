#!/bin/bash
# The third call of the device tool (nvidia-h200), fourteenth session:
# --sass-guard on kernels made after it was written.  Eight more sm_90a
# configurations (tools/gen-triton.py --configs "$(cat configs3.txt)",
# hx_ files), each aligned and misaligned; of the six that spill, opt
# --tries 12 with and without --sass-guard (Triton 3.6's nvdisasm)
# differ on four, prepared into devrun/hx14 (ignored by git, carried):
# NAME.guard.ptx and NAME.opt.ptx, each run by `verify` against its
# input (30 runs after 5 of warm-up), in two rounds.  A guarded pick
# equal to its input (the guard refused every variant) is not run: its
# time is the input's.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/hx14 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for round in 1 2; do
for f in $H/h*.launch; do
  n=$(basename $f .launch)
  for v in guard opt; do
    o=$H/$n.$v.ptx
    [ -f $o ] || continue
    cmp -s $o $H/$n.ptx && { echo "$n | $v | round $round | the input"; continue; }
    timeout 100 /tmp/ptxverify $H/$n.ptx $o $f --runs 30 --warmup 5 > $R/v_${n}_$v.txt 2>&1; rc=$?
    echo "$n | $v | round $round | rc=$rc | $(grep -m1 '^output' $R/v_${n}_$v.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_${n}_$v.txt) | $(tail -1 $R/v_${n}_$v.txt)"
  done
done
done
} 2>&1 | tee $R/summary.txt
tar czf $OUT/res.tgz -C /tmp res
