#!/bin/bash
# Sixth session: wgsplit on the H200.  Triton's d128_n128_w4 attention
# (BLOCK_M 128 on one warpgroup: two m64 tiles of S per wgmma step),
# dumped here with ptxas 13.0, rewritten three ways and run by `ptxpress
# verify` ORIG vs NEW (outputs bit for bit, CUDA-event times):
#   search: `opt` default search (12 tries, ptxas 13.0)
#   split:  `opt --no-search -p wgsplit,wgwait,remat,sched=td`
#   old:    `opt --no-search -p remat,sched=bu` (the fifth session's pick)
# then `opt --time LAUNCH` (the GPU picks among the search's candidates),
# then the Triton route: run_fa.py plain and through ptxpress-ptxas.
# Carried: devrun/ (binaries built on the CPU machine, run_fa.py).
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgsplit
P13=/usr/local/cuda/bin/ptxas
R=/tmp/res13; mkdir -p $R/ptx
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; ptxas --version | tail -1; } > $R/env.txt 2>&1
for dt in fp16 bf16; do
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 \
    python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --dump $R/ptx 2>&1 | tail -2
done
ls $R/ptx
for p in $R/ptx/*.ptx; do
  n=$(basename $p .ptx); dt=${n##*_}; [ $dt = fp16 ] && dt=f16
  L=$D/triton_attn_fwd_${dt}_d128.launch
  $B/ptxpress opt $p -o $R/ptx/$n.search --ptxas $P13 -j 15 2> $R/$n.search.txt
  $B/ptxpress opt $p -o $R/ptx/$n.split --no-search -p wgsplit,wgwait,remat,sched=td 2> $R/$n.split.txt
  $B/ptxpress opt $p -o $R/ptx/$n.old --no-search -p remat,sched=bu 2> $R/$n.old.txt
  echo "== $n: search: $(tail -1 $R/$n.search.txt)"
  for v in search split old; do
    $P13 -arch=sm_90a -v $R/ptx/$n.$v -o /dev/null 2>&1 | grep -o '[0-9]* bytes spill stores, [0-9]* bytes spill loads' | sed "s/^/$v: /"
    $B/ptxpress verify $p $R/ptx/$n.$v $L --runs 50 --warmup 10 --json > $R/$n.$v.json 2> $R/$n.$v.txt
    echo "verify $v rc=$?"; tail -3 $R/$n.$v.txt
  done
  $B/ptxpress opt $p -o $R/ptx/$n.time --ptxas $P13 -j 15 --time $L 2> $R/$n.time.txt
  echo "time: rc=$?"; tail -4 $R/$n.time.txt
done
for dt in fp16 bf16; do
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/plain_$dt.json 2>&1 | tail -1
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=12 \
    PTXPRESS_LOG=$R/wrap.log PTXPRESS_CACHE_DIR=/tmp/pxc13 PYTHONUNBUFFERED=1 \
    timeout 200 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/opt_$dt.json 2>&1 | tail -1
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 100 python3 devrun/run_fa.py d128_n128_w4_full --dtype $dt --json $R/again_$dt.json 2>&1 | tail -1
done
sed 's/.*kernel=attn_fwd//' $R/wrap.log
tar czf $OUT/res13.tgz -C /tmp res13
