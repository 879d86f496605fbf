#!/bin/bash
# The device tool (nvidia-h200), sixteenth session, after b114037
# (--sass-guard weighs local memory outside loops).  devrun/p16d
# (ignored, carried): the held-out kernels of table.sh whose drop-in
# pick the change moved: NAME.ptx the input, NAME.drop.ptx the pick
# before (4ef7acf), NAME.g2.ptx the pick after (`opt --tries 8
# --refine 0 --unserialized --sass-guard`, b114037).  Each `verify`'d
# against its input (30 runs after 5 of warm-up), two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p16d R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for round in 1 2; do
for f in $H/h*.launch; do
  n=$(basename $f .launch)
  for v in drop g2; do
    cmp -s $H/$n.ptx $H/$n.$v.ptx && { echo "$n | $v | round $round | = input"; continue; }
    timeout 100 /tmp/ptxverify $H/$n.ptx $H/$n.$v.ptx $f --runs 30 --warmup 5 > $R/v_${n}_$v.txt 2>&1; rc=$?
    echo "$n | $v | round $round | rc=$rc | $(grep -m1 '^output' $R/v_${n}_$v.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_${n}_$v.txt) | $(tail -1 $R/v_${n}_$v.txt)"
  done
done
done
} 2>&1 | tee $R/summary.txt
tar czf $OUT/res.tgz -C /tmp res
