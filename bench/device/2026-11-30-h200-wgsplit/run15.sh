#!/bin/bash
# Sixth session, third call: wgsplit=pv (P*V's first chain joins the
# split group), as the pass makes it.  ORIG is the Triton d128_n128_w4
# kernel run13 dumped here (devrun/d128_n128_w4_full_{fp16,bf16}.ptx).
#   pv:        opt --no-search -p wgsplit=pv
#   pvsched:   opt --no-search -p wgsplit=pv,remat,sched=bu
# each run by `ptxpress verify` ORIG vs NEW; then `opt --time LAUNCH`
# (the GPU picks among the default search's candidates); then the
# Triton route with PTXPRESS_TIME (the wrapper runs opt --time): plain,
# through the wrapper, plain again, fp16 and bf16; then run_fa.py over
# every config, plain and through the wrapper's default search (no
# timing), to see that nothing else got slower.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgsplit
P13=/usr/local/cuda/bin/ptxas
R=/tmp/res15; mkdir -p $R/ptx
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for dt in fp16 bf16; do
  d=$dt; [ $d = fp16 ] && d=f16
  L=$D/triton_attn_fwd_${d}_d128.launch; p=devrun/d128_n128_w4_full_$dt.ptx
  $B/ptxpress opt $p -o $R/ptx/$dt.pv --no-search -p wgsplit=pv 2> $R/$dt.pv.txt
  $B/ptxpress opt $p -o $R/ptx/$dt.pvsched --no-search -p wgsplit=pv,remat,sched=bu 2> $R/$dt.pvsched.txt
  for v in pv pvsched; do
    echo "$dt $v: $($P13 -arch=sm_90a -v $R/ptx/$dt.$v -o /dev/null 2>&1 | grep -o 'C75..\|[0-9]* bytes spill stores, [0-9]* bytes spill loads' | tr '\n' ' ')"
    $B/ptxpress verify $p $R/ptx/$dt.$v $L --runs 50 --warmup 10 --json > $R/$dt.$v.json 2> $R/$dt.$v.vtxt
    echo "verify rc=$?"; tail -2 $R/$dt.$v.vtxt
  done
  $B/ptxpress opt $p -o $R/ptx/$dt.time --ptxas $P13 -j 15 --time $L 2> $R/$dt.time.txt
  echo "time rc=$?"; cat $R/$dt.time.txt
done
for dt in fp16 bf16; do
  d=$dt; [ $d = fp16 ] && d=f16
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/plain_$dt.json 2>&1 | tail -1
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=12 \
    PTXPRESS_TIME=$D/time-$d-d128 PTXPRESS_LOG=$R/wrap_time.log PTXPRESS_CACHE_DIR=/tmp/pxc15 \
    PYTHONUNBUFFERED=1 timeout 250 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/time_$dt.json 2>&1 | tail -1
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/again_$dt.json 2>&1 | tail -1
done
sed 's/.*kernel=attn_fwd//' $R/wrap_time.log
TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 python3 devrun/run_fa.py --dtype fp16 --json $R/all_plain.json 2>&1 | tail -9
TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=12 \
  PTXPRESS_LOG=$R/wrap_all.log PTXPRESS_CACHE_DIR=/tmp/pxc15b PYTHONUNBUFFERED=1 \
  timeout 250 python3 devrun/run_fa.py --dtype fp16 --json $R/all_opt.json 2>&1 | tail -9
sed 's/.*kernel=attn_fwd//' $R/wrap_all.log
tar czf $OUT/res15.tgz -C /tmp res15
