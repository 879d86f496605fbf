#!/bin/bash
# Ninth session: kernels opt was not tuned on, on the H200.  The sm_90a
# half of bench/heldout.sh's set (tools/gen-triton.py: Triton 3.6's
# attn_fwd in 12 configurations, each as launched with 16-aligned
# tensors, `al`, and as for misaligned ones, `un`), searched here
# beforehand (`ptxpress opt IN -o IN.opt.ptx -j 2`, ptxas 13.0, the
# default search) into devrun/ho; on the GPU, every pair that opt
# changed is run by `verify` (30 runs after 5 of warm-up, the launch
# description gen-triton.py wrote): outputs bit for bit and the time
# ratio.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; H=$PWD/devrun/ho
R=/tmp/res26; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc26
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for f in $H/*_sm90a.ptx; do
  case $f in *.opt.ptx) continue ;; esac
  n=$(basename $f .ptx) o=${f%.ptx}.opt.ptx
  cmp -s $f $o && { echo "$n | unchanged"; continue; }
  pick=$(awk '$1 == "attn_fwd" && NF == 5 { print $3, $5 }' ${f%.ptx}.opt.txt)
  timeout 150 $B/ptxpress verify $f $o ${f%.ptx}.launch --runs 30 --warmup 5 > $R/v_$n.txt 2>&1; rc=$?
  echo "$n | $pick | rc=$rc | $(grep -m1 '^output' $R/v_$n.txt | sed 's/.*; //') | $(tail -1 $R/v_$n.txt)"
done
} 2>&1 | tee $R/summary.txt
tar czf $OUT/res26.tgz -C /tmp res26
