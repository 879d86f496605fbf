#!/bin/bash
# Sixth session, eighth call: wgsplit=pv as the pass now makes it (P*V's
# first chain in a group of its own, the split's wait wait_group 1).
# ORIG: Triton's d128_n128_w4 as run13 dumped it.
#   default: `opt` default search (12 tries, spill-judged: picks
#            wgsplit=pv,wgwait,remat,sched=bu, 0 bytes of spill)
#   pvwait:  `opt --no-search -p wgsplit=pv,wgwait` (184 bytes, not
#            serialized)
#   time:    `opt --time LAUNCH`
# each run by `verify` against ORIG (50 runs); then run_fa.py over every
# config: plain, through the wrapper's default search, plain again, and
# d128_n128_w4 through the wrapper with PTXPRESS_TIME.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgsplit
P13=/usr/local/cuda/bin/ptxas
R=/tmp/res20; mkdir -p $R/ptx
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
for dt in fp16 bf16; do
  d=$dt; [ $d = fp16 ] && d=f16
  L=$D/triton_attn_fwd_${d}_d128.launch; p=devrun/d128_n128_w4_full_$dt.ptx
  $B/ptxpress opt $p -o $R/ptx/$dt.default --ptxas $P13 -j 15 2> $R/$dt.default.txt
  $B/ptxpress opt $p -o $R/ptx/$dt.pvwait --no-search -p wgsplit=pv,wgwait 2> $R/$dt.pvwait.txt
  $B/ptxpress opt $p -o $R/ptx/$dt.time --ptxas $P13 -j 15 --time $L 2> $R/$dt.time.txt
  cat $R/$dt.default.txt $R/$dt.time.txt
  for v in default pvwait time; do
    echo "$dt $v: $($P13 -arch=sm_90a -v $R/ptx/$dt.$v -o /dev/null 2>&1 | grep -o 'C75..\|[0-9]* bytes spill stores, [0-9]* bytes spill loads' | tr '\n' ' ')"
    $B/ptxpress verify $p $R/ptx/$dt.$v $L --runs 50 --warmup 10 --json > $R/$dt.$v.json 2> $R/$dt.$v.vtxt
    echo "verify rc=$? $(grep -o '"time_ratio": [0-9.]*' $R/$dt.$v.json)"
  done
done
for dt in fp16 bf16; do
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 python3 devrun/run_fa.py --dtype $dt --json $R/all_plain_$dt.json 2>&1 | tail -8
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=12 \
    PTXPRESS_LOG=$R/wrap_all_$dt.log PTXPRESS_CACHE_DIR=/tmp/pxc20$dt PYTHONUNBUFFERED=1 \
    timeout 250 python3 devrun/run_fa.py --dtype $dt --json $R/all_opt_$dt.json 2>&1 | tail -8
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 python3 devrun/run_fa.py --dtype $dt --json $R/all_again_$dt.json 2>&1 | tail -8
  d=$dt; [ $d = fp16 ] && d=f16
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=12 \
    PTXPRESS_TIME=$D/time-$d-d128 PTXPRESS_LOG=$R/wrap_time_$dt.log PTXPRESS_CACHE_DIR=/tmp/pxc20t$dt \
    PYTHONUNBUFFERED=1 timeout 250 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/time_$dt.json 2>&1 | tail -1
done
for f in $R/wrap_*.log; do echo "== $f"; sed 's/.*kernel=attn_fwd//' $f; done
rm -rf $R/ptx
tar czf $OUT/res20.tgz -C /tmp res20
