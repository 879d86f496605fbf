#!/bin/bash
# Third session, fourth call: opt --time on the H200.  The search (12
# tries, ptxas 13.0) for the Triton 4-warp kernels dumped in the second
# call and for our spilling d256 kernel, then up to 4 candidates per
# kernel run against the input by the verify machinery; the fastest
# bit-identical one is kept only if 1 % faster.  Carried: devrun/.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgwait
R=/tmp/res11; mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for n in d128_n64_w4_full_fp16 d128_n128_w4_full_fp16 d256_n64_w4_full_fp16 \
         d128_n64_w4_full_bf16 d128_n128_w4_full_bf16; do
  dt=${n##*_}; [ $dt = fp16 ] && dt=f16
  d=128; case $n in d256*) d=256;; esac
  $B/ptxpress opt devrun/tri/$n.ptx -o $R/$n.timed.ptx --ptxas /usr/local/cuda/bin/ptxas \
    -j 15 --time $D/triton_attn_fwd_${dt}_d$d.launch --time-runs 20 2> $R/$n.log
  echo "== $n rc=$?"; grep -E "time|attn_fwd" $R/$n.log
done
for k in fmha_fwd_f16_d256_m64_n128 fmha_fwd_bf16_d256_m64_n128; do
  $B/ptxpress opt corpus/fmha_sm90a.ptx --kernel $k -o $R/$k.timed.ptx --ptxas /usr/local/cuda/bin/ptxas \
    -j 15 --time corpus/kernels/$k.launch --time-runs 20 2> $R/$k.log
  echo "== $k rc=$?"; grep -E "time|$k" $R/$k.log
done
rm -f $R/*.timed.ptx
tar czf $OUT/res11.tgz -C /tmp res11
