#!/bin/bash
# The device tool (nvidia-h200), twenty-third session, seventh run:
# Triton's d256_n64_w4 (the corpus's probe_fa_d256 sm_90a PTX, the
# configuration run6.sh found 1.2-1.4 % slower through the drop-in) with
# the drop-in's pick and four other variants forced (NAME.1-5, `ptxpress
# opt NAME.ptx --no-search -p P`) and opt's default search (NAME.6, 12
# tries and the refining round); variants-d256.txt has ptxas 13.0's
# spill bytes.  The launch is 2026-12-01-h200-refine's.  devrun/d256
# (ignored, carried).  30 runs after 5 of warm-up, two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/d256 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
one() {  # ORIG NEW LAUNCH TAG ROUND
  timeout 100 /tmp/ptxverify $1 $2 $3 --runs 30 --warmup 5 > $R/v_$4_$5.txt 2>&1; rc=$?
  echo "$4 | round $5 | rc=$rc | $(grep -m1 '^output' $R/v_$4_$5.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_$4_$5.txt) | $(tail -1 $R/v_$4_$5.txt)"
}
for round in 1 2; do
  for f in $H/*.[0-9].ptx; do
    n=$(basename $f .ptx); b=${n%.*}
    one $H/$b.ptx $f $H/$b.launch $n $round
  done
done 2>&1 | tee $R/summary.txt
tar czf $OUT/res.tgz -C /tmp res
