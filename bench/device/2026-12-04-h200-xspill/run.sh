#!/bin/bash
set -u
export PATH=/usr/local/cuda/bin:$PATH
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/xs R=$OUT/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
one() {  # NEW TAG ROUND
  timeout 100 /tmp/ptxverify $H/orig.ptx $H/$1.ptx $H/d256.launch --runs 30 --warmup 5 > $R/v_$1_$2.txt 2>&1; rc=$?
  echo "$1 | round $2 | rc=$rc | $(grep -m1 '^output' $R/v_$1_$2.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_$1_$2.txt) | $(tail -1 $R/v_$1_$2.txt)"
}
for round in 1 2; do for v in ${VARS:-sp1 pick split1}; do one $v $round; done; done 2>&1 | tee $R/summary.txt
