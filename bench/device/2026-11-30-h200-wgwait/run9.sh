#!/bin/bash
# Third session, second call: Triton's spilling FMHA configs (4 warps)
# dumped on the H200, rewritten there by `ptxpress opt` (default search,
# ptxas 13.0), and run by `ptxpress verify` ORIG vs NEW: outputs bit for
# bit, and CUDA-event times.  Carried: devrun/ (binaries, run_fa.py).
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgwait
R=/tmp/res9; mkdir -p $R/ptx
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; ptxas --version | tail -1; } > $R/env.txt 2>&1
for dt in fp16 bf16; do
  TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas PYTHONUNBUFFERED=1 timeout 100 \
    python3 devrun/run_fa.py d128_n64_w4_full d128_n128_w4_full d256_n64_w4_full \
    --dtype $dt --dump $R/ptx 2>&1 | tail -4
done
for p in $R/ptx/*.ptx; do
  n=$(basename $p .ptx); dt=${n##*_}; [ $dt = fp16 ] && dt=f16
  d=128; case $n in d256*) d=256;; esac
  $B/ptxpress opt $p -o $R/ptx/$n.new --ptxas /usr/local/cuda/bin/ptxas -j 15 2> $R/$n.opt.txt
  echo "== $n: $(tail -1 $R/$n.opt.txt)"
  $B/ptxpress verify $p $R/ptx/$n.new $D/triton_attn_fwd_${dt}_d$d.launch --runs 30 --warmup 10 --json > $R/$n.verify.json 2> $R/$n.verify.txt
  echo "verify rc=$?"; tail -4 $R/$n.verify.txt
done
tar czf $OUT/res9.tgz -C /tmp res9
