#!/bin/bash
# Third session: wgwait (a wgmma.wait_group before the loop's back edge)
# and the wgmma liveness fix.  Triton FMHA with CUDA 13.0's ptxas on both
# sides: plain vs ptxpress-ptxas (default search, 8 tries), fp16 and
# bf16, plain again; each kernel's PTX kept.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
B=$PWD/devrun/bin; R=/tmp/res8; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; ptxas --version | tail -1; } > $R/env.txt 2>&1
P13=/usr/local/cuda/bin/ptxas
for dt in fp16 bf16; do
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py --dtype $dt --dump $R/ptx --json $R/plain_$dt.json 2>&1 | tail -8
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 \
    PTXPRESS_LOG=$R/wrap_$dt.log PTXPRESS_CACHE_DIR=/tmp/pxc8 PYTHONUNBUFFERED=1 \
    timeout 200 python3 devrun/run_fa.py --dtype $dt --json $R/opt_$dt.json 2>&1 | tail -8
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py --dtype $dt --json $R/plain_again_$dt.json 2>&1 | tail -8
  sed 's/.*kernel=attn_fwd//' $R/wrap_$dt.log
done
cp -r /tmp/pxc8 $R/cache 2>/dev/null
tar czf $OUT/res8.tgz -C /tmp res8
