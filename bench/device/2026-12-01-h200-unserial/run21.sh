#!/bin/bash
# Seventh session, first call: opt --unserialized and the drop-in's
# PTXPRESS_UNSERIALIZED=1, which choose without a GPU.
# ORIG: Triton's d128_n128_w4 as run13 (sixth session) dumped it.
#   default: `opt` default search (spill-judged, serialized pick)
#   unser:   `opt --unserialized`
# each run by `verify` against ORIG (50 runs); then run_fa.py over every
# config: plain, through the wrapper with PTXPRESS_UNSERIALIZED=1, plain
# again.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-12-01-h200-unserial
P13=/usr/local/cuda/bin/ptxas
R=/tmp/res21; mkdir -p $R/ptx
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
for dt in fp16 bf16; do
  d=$dt; [ $d = fp16 ] && d=f16
  L=$D/triton_attn_fwd_${d}_d128.launch; p=devrun/d128_n128_w4_full_$dt.ptx
  $B/ptxpress opt $p -o $R/ptx/$dt.default --ptxas $P13 -j 15 2> $R/$dt.default.txt
  $B/ptxpress opt $p -o $R/ptx/$dt.unser --ptxas $P13 -j 15 --unserialized 2> $R/$dt.unser.txt
  cat $R/$dt.default.txt $R/$dt.unser.txt
  for v in default unser; do
    echo "$dt $v: $($P13 -arch=sm_90a -v $R/ptx/$dt.$v -o /dev/null 2>&1 | grep -o 'C75..\|[0-9]* bytes spill stores, [0-9]* bytes spill loads' | tr '\n' ' ')"
    $B/ptxpress verify $p $R/ptx/$dt.$v $L --runs 50 --warmup 10 --json > $R/$dt.$v.json 2> $R/$dt.$v.vtxt
    echo "verify rc=$? $(grep -o "\"time_ratio\": [0-9.]*\|\"pass\": [a-z]*" $R/$dt.$v.json | tr "\n" " ")"
  done
done
for dt in fp16 bf16; do
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 python3 devrun/run_fa.py --dtype $dt --json $R/all_plain_$dt.json 2>&1 | tail -8
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=12 \
    PTXPRESS_UNSERIALIZED=1 PTXPRESS_LOG=$R/wrap_un_$dt.log PTXPRESS_CACHE_DIR=/tmp/pxc21$dt PYTHONUNBUFFERED=1 \
    timeout 250 python3 devrun/run_fa.py --dtype $dt --json $R/all_un_$dt.json 2>&1 | tail -8
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 python3 devrun/run_fa.py --dtype $dt --json $R/all_again_$dt.json 2>&1 | tail -8
done
for f in $R/wrap_*.log; do echo "== $f"; sed 's/.*kernel=attn_fwd//' $f; done
rm -rf $R/ptx
tar czf $OUT/res21.tgz -C /tmp res21
