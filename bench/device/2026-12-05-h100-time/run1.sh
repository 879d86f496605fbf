#!/bin/bash
# thirtieth session, first device run: opt --time (the drop-in's search
# settings: 8 tries, no refining round, --unserialized) on the five
# sm_90a kernels whose wgmmas ptxas serializes and whose wgmma loop lies
# below xspill's floor, so that --time also runs an xspill=all candidate.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../.."
H=devrun/s30/xa R=$OUT; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; ptxas --version | tail -1; } | tee $R/env.txt
for f in $H/*.ptx; do
  b=$(basename $f .ptx)
  s=$(date +%s)
  timeout 115 devrun/s30/bin/ptxpress opt $f -o /tmp/$b.time.ptx --time $H/$b.launch \
    --tries 8 --refine 0 --unserialized -j 15 > $R/t_$b.txt 2>&1
  echo "== $b rc=$? $(( $(date +%s) - s )) s"; cat $R/t_$b.txt
done 2>&1 | tee $R/summary1.txt
