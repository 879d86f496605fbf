#!/bin/bash
# The device tool (nvidia-h200), twenty-third session: Triton 3.9.0's
# PTX on the H200.  The held-out set compiled by Triton 3.9.0
# (`tools/gen-triton.py` with its site on PYTHONPATH; PTX 9.4), lowered
# to 9.0 (`ptxpress emit --ptx-version 9.0`, which the driver's JIT and
# CUDA 13.0's ptxas read; all 24 sm_90a kernels assemble).
# devrun/p39 (ignored, carried): NAME.ptx the lowered input, NAME.launch,
# NAME.n.ptx the drop-in's pick (`ptxpress opt NAME.ptx --tries 8
# --refine 0 --unserialized --sass-guard -j 2 --ptxas
# /usr/local/cuda/bin/ptxas`, the binary of 6b94e18, Triton 3.6's
# nvdisasm) for the 11 kernels that spill under ptxas 13.0 and the one
# whose serialized wgmmas it took out; NAME.v.ptx, for the three where
# the SASS guard refused `remat=loop,pin=ld,pin=loop`, that pipeline
# forced.  Each `verify`'d against its input (30 runs after 5 of
# warm-up), two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p39 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
one() {  # ORIG NEW LAUNCH TAG ROUND
  timeout 100 /tmp/ptxverify $1 $2 $3 --runs 30 --warmup 5 > $R/v_$4_$5.txt 2>&1; rc=$?
  echo "$4 | round $5 | rc=$rc | $(grep -m1 '^output' $R/v_$4_$5.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_$4_$5.txt) | $(tail -1 $R/v_$4_$5.txt)"
}
for round in 1 2; do
  for f in $H/*.n.ptx $H/*.v.ptx; do
    n=$(basename $f .ptx); b=${n%.*}
    one $H/$b.ptx $f $H/$b.launch $n $round
  done
done 2>&1 | tee $R/summary.txt
tar czf $OUT/res.tgz -C /tmp res
