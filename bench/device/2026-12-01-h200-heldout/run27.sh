#!/bin/bash
# Ninth session, second call: run26 found the spill-free picks of the
# two aligned causal kernels 4-5 % slower than their inputs (the spill
# judge's choice).  Here `opt --time LAUNCH` (the GPU picks among the
# search's best candidates, keeping the input unless one is 1 % faster)
# on the 12 sm_90a kernels run26 ran, then `verify` of its output
# against the input (30 runs after 5 of warm-up).
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; H=$PWD/devrun/ho
P13=/usr/local/cuda/bin/ptxas
R=/tmp/res27; mkdir -p $R/ptx; export CUDA_CACHE_PATH=/tmp/cc27
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for f in $H/*_sm90a.ptx; do
  case $f in *.opt.ptx) continue ;; esac
  n=$(basename $f .ptx) L=${f%.ptx}.launch
  cmp -s $f ${f%.ptx}.opt.ptx && continue
  timeout 240 $B/ptxpress opt $f -o $R/ptx/t.ptx --ptxas $P13 -j 15 --time $L 2> $R/t_$n.txt
  pick=$(awk '$1 == "attn_fwd" && NF == 5 { print $3, $5 }' $R/t_$n.txt)
  timeout 150 $B/ptxpress verify $f $R/ptx/t.ptx $L --runs 30 --warmup 5 > $R/v_$n.txt 2>&1; rc=$?
  echo "$n | $pick | rc=$rc | $(grep -m1 '^output' $R/v_$n.txt | sed 's/.*; //') | $(grep -o 'time new/orig: [0-9.]*' $R/v_$n.txt)"
done
} 2>&1 | tee $R/summary.txt
rm -rf $R/ptx
tar czf $OUT/res27.tgz -C /tmp res27
