#!/bin/bash
# twenty-seventh session, second H200 run: xspill as the pass writes it
# (devrun/xs/x1.ptx = `ptxpress opt --no-search -p xspill` of the
# corpus's probe_fa_d256 sm_90a PTX, proven) under verify, and the
# Triton route with this tree's drop-in (devrun/bin, built here).
set -u
export PATH=/usr/local/cuda/bin:$PATH
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/xs R=$OUT/res2; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
B=$PWD/devrun/bin P13=/usr/local/cuda/bin/ptxas
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; ls -l /usr/local/cuda/bin/nvdisasm; } > $R/env.txt 2>&1
for round in 1 2; do
  timeout 100 /tmp/ptxverify $H/orig.ptx $H/x1.ptx $H/d256.launch --runs 30 --warmup 5 > $R/v_x1_$round.txt 2>&1
  echo "x1 round $round rc=$? | $(grep -m1 '^output' $R/v_x1_$round.txt | sed 's/.*; //') | $(grep -m1 '^time new' $R/v_x1_$round.txt)"
done
C="d256_n64_w4_full d128_n64_w4_full d128_n128_w4_full d256_n64_w8_full"
for dt in fp16 bf16; do
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 120 \
    python3 devrun/tri/run_fa.py $C --dtype $dt --json $R/plain_$dt.json > $R/plain_$dt.txt 2>&1
  echo "plain $dt rc=$?"; tail -6 $R/plain_$dt.txt
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 \
    PTXPRESS_LOG=$R/drop_$dt.log PTXPRESS_CACHE_DIR=/tmp/pxc$dt PYTHONUNBUFFERED=1 \
    timeout 150 python3 devrun/tri/run_fa.py $C --dtype $dt --json $R/drop_$dt.json > $R/drop_$dt.txt 2>&1
  echo "drop-in $dt rc=$?"; tail -6 $R/drop_$dt.txt
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 120 \
    python3 devrun/tri/run_fa.py $C --dtype $dt --json $R/again_$dt.json > $R/again_$dt.txt 2>&1
  echo "plain again $dt rc=$?"; tail -6 $R/again_$dt.txt
done
for f in $R/drop_*.log; do echo "== $f"; sed 's/.*kernel=attn_fwd//' $f | cut -c1-300; done
date -u >> $R/env.txt
