#!/bin/bash
# After chain remat: our spilling kernels, and Triton through the wrapper
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
B=$PWD/devrun/bin; R=/tmp/res5; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for l in corpus/kernels/fmha_fwd_*_d256_m64_n128.launch corpus/kernels/fmha_fwd_*_d256_m64_n64.launch; do
  k=$(basename $l .launch)
  $B/ptxpress verify corpus/fmha_sm90a.ptx devrun/fmha_sm90a.opt3.ptx $l --runs 30 --warmup 10 --json > $R/v_$k.json 2>$R/v_$k.err
  echo "$k rc=$?"
done
TP=$(python3 -c 'import triton,os;print(os.path.join(os.path.dirname(triton.__file__),"backends/nvidia/bin/ptxas"))')
PYTHONUNBUFFERED=1 timeout 120 python3 devrun/run_fa.py --dtype fp16 --json $R/triton_plain_fp16.json 2>&1 | tail -8
TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$TP PTXPRESS_JOBS=14 PTXPRESS_TRIES=24 \
  PTXPRESS_LOG=$R/wrap.log PTXPRESS_CACHE_DIR=/tmp/pxc5 PYTHONUNBUFFERED=1 \
  timeout 300 python3 devrun/run_fa.py --dtype fp16 --json $R/triton_opt_fp16.json 2>&1 | tail -8
sed 's/.*kernel=attn_fwd//' $R/wrap.log
tar czf $OUT/res5.tgz -C /tmp res5
