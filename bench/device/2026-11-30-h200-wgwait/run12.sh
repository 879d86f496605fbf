#!/bin/bash
# Third session, fifth call: the Triton route with PTXPRESS_TIME: the
# wrapper finds time-f16-d128/attn_fwd.launch for Triton's attn_fwd and
# lets the GPU pick among the search's candidates (opt --time).  Per
# config: plain ptxas 13.0, then the wrapper with PTXPRESS_TIME, then
# plain again; run_fa.py checks against PyTorch and times.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgwait
R=/tmp/res12; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
P13=/usr/local/cuda/bin/ptxas
for c in d128_n64_w4_full d128_n128_w4_full; do
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py $c --dtype fp16 --json $R/plain_$c.json 2>&1 | tail -1
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=12 \
    PTXPRESS_TIME=$D/time-f16-d128 PTXPRESS_LOG=$R/wrap.log PTXPRESS_CACHE_DIR=/tmp/pxc12 \
    PYTHONUNBUFFERED=1 timeout 250 python3 devrun/run_fa.py $c --dtype fp16 --json $R/time_$c.json > $R/time_$c.out 2>&1
  tail -1 $R/time_$c.out
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py $c --dtype fp16 --json $R/again_$c.json 2>&1 | tail -1
done
sed 's/.*kernel=attn_fwd//' $R/wrap.log
tar czf $OUT/res12.tgz -C /tmp res12
