#!/bin/bash
# The device tool (nvidia-h200), seventeenth session: `opt --time` on
# the three kernels of run.sh whose drop-in picks ran slower than their
# inputs.  devrun/p17c (ignored, carried): NAME.ptx, NAME.launch;
# devrun/bin/ptxpress built on the CPU machine (the session's HEAD).
# `opt --time` (12 tries, the candidates timed on the GPU against the
# input, the fastest bit-identical one kept only if 1 % faster), then its
# output `verify`'d against the input, 30 runs after 5 of warm-up.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin H=devrun/p17c R=/tmp/res3; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
for f in $H/h*.launch; do
  n=$(basename $f .launch)
  $B/ptxpress opt $H/$n.ptx -o $R/$n.time.ptx --ptxas /usr/local/cuda/bin/ptxas -j 15 --time $f > $R/$n.time.txt 2>&1
  echo "== $n: opt --time rc=$?"; cat $R/$n.time.txt
  cmp -s $H/$n.ptx $R/$n.time.ptx && { echo "$n: input kept"; continue; }
  $B/ptxpress verify $H/$n.ptx $R/$n.time.ptx $f --runs 30 --warmup 5 > $R/$n.verify.txt 2>&1
  echo "$n: verify rc=$? $(grep -m1 '^output' $R/$n.verify.txt | sed 's/.*; //') | $(grep -m1 '^time new' $R/$n.verify.txt)"
done 2>&1 | tee $R/summary.txt
tar czf $OUT/res3.tgz -C /tmp res3
