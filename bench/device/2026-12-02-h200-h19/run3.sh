#!/bin/bash
# The device tool (nvidia-h200), nineteenth session: the drop-in's picks
# with pinloopier (9ab5593) where they differ from run.sh's (the two
# d256 misaligned kernels, NAME.p.ptx), against their inputs, with
# run.sh's picks (NAME.n.ptx) again beside them; `verify`, 30 runs
# after 5 of warm-up, two rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin H=devrun/p19 R=/tmp/res3; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
for round in 1 2; do
  for n in hx_d256_m64_n32_w4_s3_fp16_full_un_sm90a hx_d256_m64_n64_w4_s2_bf16_causal_un_sm90a; do
    for v in p n; do
      $B/ptxpress verify $H/$n.ptx $H/$n.$v.ptx $H/$n.launch --runs 30 --warmup 5 > $R/$n.$v.$round.txt 2>&1
      echo "$n.$v | round $round | rc=$? | $(grep -m1 '^output' $R/$n.$v.$round.txt | sed 's/.*; //') | $(grep -m1 '^time new' $R/$n.$v.$round.txt)"
    done
  done
done 2>&1 | tee $R/summary.txt
tar czf $OUT/res3.tgz -C /tmp res3
