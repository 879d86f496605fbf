#!/bin/bash
# Sixth session, fifth call: which wgsplit=pv pipelines run fastest.
# ORIG: Triton's d128_n128_w4 as run13 dumped it; NEW: each
# devrun/v17/DT.PIPE.ptx, made on the CPU machine by
#   ptxpress opt --no-search -p PIPE devrun/d128_n128_w4_full_DT.ptx -o ...
# (every one proven; none serialized by ptxas 13.0).  verify, 50 runs.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgsplit
R=/tmp/res17; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for f in devrun/v17/*.ptx; do
  n=$(basename $f .ptx); dt=${n%%.*}; d=$dt; [ $d = fp16 ] && d=f16
  $B/ptxpress verify devrun/d128_n128_w4_full_$dt.ptx $f $D/triton_attn_fwd_${d}_d128.launch --runs 50 --warmup 10 --json > $R/$n.json 2> $R/$n.txt
  echo "$n rc=$? $(grep -o '"time_ratio": [0-9.]*' $R/$n.json)"
done
tar czf $OUT/res17.tgz -C /tmp res17
