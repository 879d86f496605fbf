#!/bin/bash
# One call of the device tool (nvidia-h200), 2026-12-01 23:26 UTC, 74.5 s
# (198 s held); summary2.txt and sanitizer2.txt are what it printed.
# Thirteenth session, second call: pin=ld without wgmma on the H200
# (sm_80 PTX, which the driver compiles for the H200: mma.sync reads
# P).  devrun/ho13s80, prepared here as for run.sh: the four sm_80
# kernels of bench/heldout.sh's set, NAME.forced.ptx `opt --no-search
# -p remat=loop,pin=ld`, NAME.opt.ptx this session's search (d64d2f3),
# NAME.old.ptx the twelfth session's (33e7acc).
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/ho13s80 R=/tmp/res2; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc2
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for f in $H/ho_*_sm80.ptx; do
  case $f in *.forced.ptx|*.opt.ptx|*.old.ptx) continue ;; esac
  n=$(basename $f .ptx)
  for v in forced old opt; do
    o=$H/$n.$v.ptx
    cmp -s $f $o && { echo "$n | $v | unchanged"; continue; }
    timeout 100 /tmp/ptxverify $f $o $H/$n.launch --runs 30 --warmup 5 > $R/v_${n}_$v.txt 2>&1; rc=$?
    echo "$n | $v | rc=$rc | $(grep -m1 'bit-identical\|differ' $R/v_${n}_$v.txt | sed 's/.*; //') | $(grep 'time new/orig' $R/v_${n}_$v.txt) | $(tail -1 $R/v_${n}_$v.txt)"
  done
done
} 2>&1 | tee $R/summary.txt
n=ho_d128_m128_n64_w4_s2_fp16_full_un_sm80
for t in racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $t /tmp/ptxverify $H/$n.ptx $H/$n.forced.ptx \
    $H/$n.launch --runs 1 --warmup 0 2>&1 | tail -4 | sed "s|^|$n $t: |"
done 2>&1 | tee $R/sanitizer.txt
tar czf $OUT/res2.tgz -C /tmp res2
