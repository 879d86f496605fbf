#!/bin/bash
# Second session: remat now recomputes predicate chains too.  On the GPU:
# (1) opt's new search output for our spilling sm_90a kernels, (2) a
# forced remat,sched=td on all ten (the predicate chains exercised), and
# (3) Triton's kernels through ptxpress-ptxas with the same forced
# pipeline, checked against PyTorch by run_fa.py.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/.."
B=$PWD/devrun/bin; R=/tmp/res7; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for l in corpus/kernels/fmha_fwd_*_d256_m64_n128.launch; do
  k=$(basename $l .launch)
  $B/ptxpress verify corpus/fmha_sm90a.ptx devrun/fmha_sm90a.opt4.ptx $l --runs 30 --warmup 10 --json > $R/o_$k.json 2>$R/o_$k.err
  echo "opt4 $k rc=$?"
done
for l in corpus/kernels/fmha_fwd_*_m64_*.launch; do
  k=$(basename $l .launch)
  $B/ptxpress verify corpus/fmha_sm90a.ptx devrun/fmha_sm90a.remat.ptx $l --runs 10 --warmup 3 --json > $R/r_$k.json 2>$R/r_$k.err
  echo "remat $k rc=$?"
done
TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=/usr/local/cuda/bin/ptxas \
  PTXPRESS_PIPELINE=remat,sched=td PTXPRESS_LOG=$R/wrap.log PTXPRESS_CACHE_DIR=/tmp/pxc7 \
  PYTHONUNBUFFERED=1 timeout 200 python3 devrun/run_fa.py --dtype fp16 --json $R/triton_remat.json 2>&1 | tail -10
sed 's/.*kernel=attn_fwd//' $R/wrap.log
tar czf $OUT/res7.tgz -C /tmp res7
