#!/bin/bash
# Forced pipelines on the GPU: every rewriting pass at once (remat, moves,
# softmax=4, sched=td; no search), our kernels and Triton's, for
# correctness: outputs must be bit-identical / as accurate as plain.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
B=$PWD/devrun/bin; R=/tmp/res3; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for l in corpus/kernels/fmha_fwd_*_d*_m64_*.launch; do
  k=$(basename $l .launch)
  $B/ptxpress verify corpus/fmha_sm90a.ptx devrun/fmha_sm90a.passes.ptx $l --runs 20 --warmup 5 --json > $R/v_$k.json 2>$R/v_$k.err
  echo "$k rc=$?"
done
TP=$(python3 -c 'import triton,os;print(os.path.join(os.path.dirname(triton.__file__),"backends/nvidia/bin/ptxas"))')
TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$TP PTXPRESS_PIPELINE=remat,moves,softmax=4,sched=td \
  PTXPRESS_LOG=$R/wrap.log PTXPRESS_CACHE_DIR=/tmp/pxc3 PYTHONUNBUFFERED=1 \
  timeout 200 python3 devrun/run_fa.py --dtype fp16 --json $R/triton_forced_fp16.json 2>&1 | tail -9
cut -c1-60,200- $R/wrap.log | head -8
tar czf $OUT/res3.tgz -C /tmp res3
