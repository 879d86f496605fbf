#!/bin/bash
# The device tool (nvidia-h200), seventeenth session: does --unserialized
# pay?  Triton FMHA kernels whose input ptxas serializes (C7511), d128
# n128 w4 (and d64), stages 2-4, full and causal, al and un
# (tools/gen-triton.py --configs, in /tmp/hy).  devrun/p17 (ignored,
# carried): NAME.ptx the input, NAME.u.ptx the drop-in's default search
# (`opt --tries 8 --refine 0 --unserialized --sass-guard`), NAME.s.ptx
# the same without --unserialized.  Each `verify`'d against its input
# (30 runs after 5 of warm-up); an output equal to the input or to the
# other is not run twice.  ROUND names the round in the summary.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
round=${1:-1}
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p17 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env$round.txt 2>&1
cat $R/env$round.txt
{
for f in $H/h*.launch; do
  n=$(basename $f .launch)
  for v in u s; do
    [ -f $H/$n.$v.ptx ] || continue
    cmp -s $H/$n.ptx $H/$n.$v.ptx && { echo "$n | $v | round $round | = input"; continue; }
    [ $v = s ] && cmp -s $H/$n.u.ptx $H/$n.s.ptx && { echo "$n | $v | round $round | = u"; continue; }
    timeout 100 /tmp/ptxverify $H/$n.ptx $H/$n.$v.ptx $f --runs 30 --warmup 5 > $R/v_${n}_$v.txt 2>&1; rc=$?
    echo "$n | $v | round $round | rc=$rc | $(grep -m1 '^output' $R/v_${n}_$v.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_${n}_$v.txt) | $(tail -1 $R/v_${n}_$v.txt)"
  done
done
} 2>&1 | tee $R/summary$round.txt
tar czf $OUT/res$round.tgz -C /tmp res
