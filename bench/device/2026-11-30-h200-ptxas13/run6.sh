#!/bin/bash
# Triton FMHA with CUDA 13.0's ptxas on both sides: plain
# (TRITON_PTXAS_PATH=ptxas 13.0) vs ptxpress-ptxas judging with 13.0.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
B=$PWD/devrun/bin; R=/tmp/res6; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; ptxas --version | tail -1; } > $R/env.txt 2>&1
P13=/usr/local/cuda/bin/ptxas
TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 python3 devrun/run_fa.py --dtype fp16 --json $R/plain13_fp16.json 2>&1 | tail -8
TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=24 \
  PTXPRESS_LOG=$R/wrap.log PTXPRESS_CACHE_DIR=/tmp/pxc6 PYTHONUNBUFFERED=1 \
  timeout 330 python3 devrun/run_fa.py --dtype fp16 --json $R/opt13_fp16.json 2>&1 | tail -8
TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py --dtype fp16 --json $R/plain13_again.json 2>&1 | tail -8
sed 's/.*kernel=attn_fwd//' $R/wrap.log
tar czf $OUT/res6.tgz -C /tmp res6
