#!/bin/bash
# Third session, third call: remat=loop forced (-p remat=loop,sched=bu,
# no search) on our ten sm_90a FMHA kernels and on the six Triton
# 4-warp kernels dumped in the second call, each run by `ptxpress
# verify` against its original: the rewrite exercised on hardware.
# Carried: devrun/ (binaries, devrun/fmha_sm90a.loop.ptx, devrun/tri/).
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgwait
R=/tmp/res10; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for l in corpus/kernels/fmha_fwd_*_m64_*.launch; do
  k=$(basename $l .launch)
  $B/ptxpress verify corpus/fmha_sm90a.ptx devrun/fmha_sm90a.loop.ptx $l --runs 10 --warmup 3 --json > $R/own_$k.json 2>$R/own_$k.txt
  echo "$k rc=$?"
done
for p in devrun/tri/*_full_*.loop.ptx; do
  n=$(basename $p .loop.ptx); dt=${n##*_}; [ $dt = fp16 ] && dt=f16
  d=128; case $n in d256*) d=256;; esac
  $B/ptxpress verify devrun/tri/$n.ptx $p $D/triton_attn_fwd_${dt}_d$d.launch --runs 10 --warmup 3 --json > $R/tri_$n.json 2>$R/tri_$n.txt
  echo "$n rc=$?"
done
tar czf $OUT/res10.tgz -C /tmp res10
