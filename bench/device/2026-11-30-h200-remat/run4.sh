#!/bin/bash
# Our sm_90a kernels: original vs opt with the .nc remat (search, 16 tries)
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
B=$PWD/devrun/bin; R=/tmp/res4; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for l in corpus/kernels/fmha_fwd_*_d256_m64_n128.launch corpus/kernels/fmha_fwd_*_d128_m64_n64.launch; do
  k=$(basename $l .launch)
  $B/ptxpress verify corpus/fmha_sm90a.ptx devrun/fmha_sm90a.opt2.ptx $l --runs 30 --warmup 10 --json > $R/v_$k.json 2>$R/v_$k.err
  echo "$k rc=$?"
done
tar czf $OUT/res4.tgz -C /tmp res4
