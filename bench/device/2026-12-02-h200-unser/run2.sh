#!/bin/bash
# The device tool (nvidia-h200), seventeenth session: what makes the two
# losers of run.sh slow.  devrun/p17b (ignored, carried): for
# hx_d64_m128_n128_w4_s3_fp16_causal_un and
# hx_d128_m128_n128_w4_s3_fp16_causal_al, NAME.ptx the input and
# NAME.X.ptx forced variants (`ptxpress opt NAME.ptx --no-search -p
# PIPELINE`, listed with ptxas's figures in variants.txt).  Each
# `verify`'d against its input (30 runs after 5 of warm-up), two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p17b R=/tmp/res2; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
for round in 1 2; do
for f in $H/h*.launch; do
  n=$(basename $f .launch)
  for v in $H/$n.?.ptx; do
    x=$(basename $v .ptx); x=${x##*.}
    timeout 100 /tmp/ptxverify $H/$n.ptx $v $f --runs 30 --warmup 5 > $R/v_${n}_$x.txt 2>&1; rc=$?
    echo "$n | $x | round $round | rc=$rc | $(grep -m1 '^output' $R/v_${n}_$x.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_${n}_$x.txt)"
  done
done
done 2>&1 | tee $R/summary.txt
tar czf $OUT/res2.tgz -C /tmp res2
