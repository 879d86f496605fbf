#!/bin/bash
# The device tool (nvidia-h200), sixteenth session: every held-out
# kernel the H200 can run (sm_90a; sm_80, which the driver compiles for
# sm_90) that spills, with this session's binary (4ef7acf's opt).
# devrun/p16c (ignored, carried): NAME.ptx the input (/tmp/ho, /tmp/hf,
# /tmp/hx), NAME.drop.ptx what the drop-in gives by default with
# nvdisasm (`opt --tries 8 --refine 0 --unserialized --sass-guard`),
# NAME.cli.ptx what `opt FILE` gives (12 tries, refine 6).  Each
# `verify`'d against its input (30 runs after 5 of warm-up); an output
# equal to the input or to the other is not run twice.  ROUND names
# the round in the summary.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
round=${1:-1}
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p16c R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env$round.txt 2>&1
cat $R/env$round.txt
{
for f in $H/h*.launch; do
  n=$(basename $f .launch)
  for v in drop cli; do
    cmp -s $H/$n.ptx $H/$n.$v.ptx && { echo "$n | $v | round $round | = input"; continue; }
    [ $v = cli ] && cmp -s $H/$n.drop.ptx $H/$n.cli.ptx && { echo "$n | $v | round $round | = drop"; continue; }
    timeout 100 /tmp/ptxverify $H/$n.ptx $H/$n.$v.ptx $f --runs 30 --warmup 5 > $R/v_${n}_$v.txt 2>&1; rc=$?
    echo "$n | $v | round $round | rc=$rc | $(grep -m1 '^output' $R/v_${n}_$v.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_${n}_$v.txt) | $(tail -1 $R/v_${n}_$v.txt)"
  done
done
} 2>&1 | tee $R/summary$round.txt
tar czf $OUT/res.tgz -C /tmp res
