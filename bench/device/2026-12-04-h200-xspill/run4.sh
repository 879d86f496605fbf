#!/bin/bash
# twenty-seventh session, fourth H200 run: Triton 3.9.0's sm_90a d256
# BLOCK_M 128 4-warp kernels (aligned, fp16 full and bf16 causal; made
# here by tools/gen-triton.py with Triton 3.9.0, PTX 9.4 lowered to 9.0
# by `ptxpress emit --ptx-version 9.0` for this driver), each against
# `ptxpress opt --no-search -p xspill` of it (proven; lowered alike),
# under verify, 30 runs after 5 of warm-up, two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/x39; export CUDA_CACHE_PATH=/tmp/cc
for round in 1 2; do
  for f in $H/hx_*_sm90a.ptx; do
    case $f in *.xs.ptx) continue;; esac
    b=$(basename $f .ptx)
    timeout 100 /tmp/ptxverify $f $H/$b.xs.ptx $H/$b.launch --runs 30 --warmup 5 > /tmp/v.txt 2>&1; rc=$?
    echo "$b | round $round | rc=$rc | $(grep -m1 '^output' /tmp/v.txt | sed 's/.*; //') | $(grep -m1 '^time new' /tmp/v.txt) | $(grep '^orig\|^new' /tmp/v.txt | awk '{print $2, $4, $5}' | tr '\n' ' ')"
  done
done
