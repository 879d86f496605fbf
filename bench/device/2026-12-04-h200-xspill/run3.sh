#!/bin/bash
# twenty-seventh session, third H200 run: twelve Triton 3.6 kernels made
# this session (tools/gen-triton.py --configs, head dim 256, BLOCK_M 128,
# 4 warps: bf16, causal, 3 stages, BLOCK_N 32; al and un), none seen
# before; each input against the drop-in-settings pick (opt
# --unserialized --sass-guard --tries 8 --refine 0, made here), under
# verify, 30 runs after 5 of warm-up, two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/x27 R=$OUT/r3; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
for round in 1 2; do
  for f in $H/hx_*_sm90a.ptx; do
    b=$(basename $f .ptx)
    timeout 100 /tmp/ptxverify $f $H/$b.pick.ptx $H/$b.launch --runs 30 --warmup 5 > /tmp/v.txt 2>&1; rc=$?
    echo "$b | round $round | rc=$rc | $(grep -m1 '^output' /tmp/v.txt | sed 's/.*; //') | $(grep -m1 '^time new' /tmp/v.txt) | $(grep '^orig\|^new' /tmp/v.txt | awk '{print $5}' | tr '\n' ' ')"
  done
done 2>&1 | tee $R/summary.txt
