#!/bin/bash
# The device tool (nvidia-h200), eighteenth session: the drop-in's
# search with the guard's new term (loads spilled in flight) on fresh
# Triton configurations (tools/gen-triton.py --configs "$(cat
# configs18.txt)"), and this tree's drop-in on our own kernels.
# devrun/p18 (ignored, carried): NAME.ptx the input, NAME.launch,
# NAME.n.ptx the drop-in's pick with the term (`opt --tries 8 --refine 0
# --unserialized --sass-guard`, 9f8dccf), NAME.o.ptx without it
# (cbe23c5) where that differs; fmha_sm90a.d.ptx the drop-in's output
# of corpus/fmha_sm90a.ptx.  Each `verify`'d against its input (30 runs
# after 5 of warm-up), two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/p18 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
one() {  # ORIG NEW LAUNCH TAG ROUND
  timeout 100 /tmp/ptxverify $1 $2 $3 --runs 30 --warmup 5 > $R/v_$4_$5.txt 2>&1; rc=$?
  echo "$4 | round $5 | rc=$rc | $(grep -m1 '^output' $R/v_$4_$5.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_$4_$5.txt) | $(grep -m1 "^reference" $R/v_$4_$5.txt) | $(tail -1 $R/v_$4_$5.txt)"
}
for round in 1 2; do
  for f in corpus/kernels/fmha_fwd_[bf]*.launch; do
    n=$(basename $f .launch)
    one corpus/fmha_sm90a.ptx $H/fmha_sm90a.d.ptx $f own_$n $round
  done
  for f in $H/hx_*.launch; do
    n=$(basename $f .launch)
    for v in n o; do
      [ -f $H/$n.$v.ptx ] && one $H/$n.ptx $H/$n.$v.ptx $f ${n}_$v $round
    done
  done
done 2>&1 | tee $R/summary.txt
tar czf $OUT/res.tgz -C /tmp res
