#!/bin/bash
# twenty-seventh session, fifth H200 run: xspill=all (no 192-register
# floor) on the four sm_90a kernels whose wgmmas ptxas serializes besides
# d256 (the corpus's probe_fa_d128_n128; held-out d64_n128 aligned and
# the s3 causal d128_n128 pair), against the drop-in-settings pick
# (opt --unserialized --sass-guard --tries 8 --refine 0), each under
# verify against its input, 30 runs after 5 of warm-up, two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/xa; export CUDA_CACHE_PATH=/tmp/cc
for round in 1 2; do
  for l in $H/*.launch; do
    b=$(basename $l .launch)
    for v in pick xa; do
      timeout 100 /tmp/ptxverify $H/$b.ptx $H/$b.$v.ptx $l --runs 30 --warmup 5 > /tmp/v.txt 2>&1; rc=$?
      echo "$b $v | round $round | rc=$rc | $(grep -m1 '^output' /tmp/v.txt | sed 's/.*; //') | $(grep -m1 '^time new' /tmp/v.txt) | $(grep '^orig\|^new' /tmp/v.txt | awk '{print $4, $5}' | tr '\n' ' ')"
    done
  done
done
