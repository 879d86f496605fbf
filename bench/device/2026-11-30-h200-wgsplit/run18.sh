#!/bin/bash
# Sixth session, sixth call: opt --time now tries first the best two
# candidates whose wgmmas ptxas does not serialize (wgsplit=pv,wgwait... on this
# kernel).  ORIG: the Triton d128_n128_w4 kernels run13 dumped.
#   1. `opt --time LAUNCH` (default search, 12 tries), fp16 and bf16,
#      then `verify` ORIG vs what it wrote (50 runs).
#   2. The Triton route with PTXPRESS_TIME: plain, through the wrapper
#      (which runs opt --time), plain again; run_fa.py checks against
#      PyTorch and times.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgsplit
P13=/usr/local/cuda/bin/ptxas
R=/tmp/res18; mkdir -p $R/ptx
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for dt in fp16 bf16; do
  d=$dt; [ $d = fp16 ] && d=f16
  L=$D/triton_attn_fwd_${d}_d128.launch; p=devrun/d128_n128_w4_full_$dt.ptx
  $B/ptxpress opt $p -o $R/ptx/$dt.time --ptxas $P13 -j 15 --time $L 2> $R/$dt.time.txt
  echo "time rc=$?"; cat $R/$dt.time.txt
  $B/ptxpress verify $p $R/ptx/$dt.time $L --runs 50 --warmup 10 --json > $R/$dt.time.json 2> $R/$dt.time.vtxt
  echo "verify rc=$?"; tail -2 $R/$dt.time.vtxt
done
for dt in fp16 bf16; do
  d=$dt; [ $d = fp16 ] && d=f16
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/plain_$dt.json 2>&1 | tail -1
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=12 \
    PTXPRESS_TIME=$D/time-$d-d128 PTXPRESS_LOG=$R/wrap_time.log PTXPRESS_CACHE_DIR=/tmp/pxc18 \
    PYTHONUNBUFFERED=1 timeout 250 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/time_$dt.json 2>&1 | tail -1
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/again_$dt.json 2>&1 | tail -1
done
sed 's/.*kernel=attn_fwd//' $R/wrap_time.log
rm -rf $R/ptx
tar czf $OUT/res18.tgz -C /tmp res18
