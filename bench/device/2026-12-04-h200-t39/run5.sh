#!/bin/bash
# The device tool (nvidia-h200), twenty-third session, fifth run: the
# one pick of 48 more Triton 3.6 sm_90a kernels (the hf_ set of
# gen-triton.py --fresh, and the configurations of 2026-12-02-h200-h19
# and 2026-12-02-h200-fresh) that the tie-break of b826172 changes,
# hx_d128_m128_n64_w4_s4_fp16_full_al (NAME.a before, 1e04570's binary;
# NAME.b after), and run4.sh's three again, on another machine.  Both
# picks `ptxpress opt NAME.ptx --tries 8 --refine 0 --unserialized
# --sass-guard -j 2`, ptxas 13.0, Triton 3.6's nvdisasm.  devrun/u36
# (ignored, carried).  30 runs after 5 of warm-up, three rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/u36 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
one() {  # ORIG NEW LAUNCH TAG ROUND
  timeout 100 /tmp/ptxverify $1 $2 $3 --runs 30 --warmup 5 > $R/v_$4_$5.txt 2>&1; rc=$?
  echo "$4 | round $5 | rc=$rc | $(grep -m1 '^output' $R/v_$4_$5.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_$4_$5.txt) | $(tail -1 $R/v_$4_$5.txt)"
}
for round in 1 2 3; do
  for f in $H/*.[ab].ptx; do
    n=$(basename $f .ptx); b=${n%.*}
    one $H/$b.ptx $f $H/$b.launch $n $round
  done
done 2>&1 | tee $R/summary.txt
tar czf $OUT/res.tgz -C /tmp res
