#!/bin/bash
# One call of the device tool (nvidia-h200), 2026-12-01 23:09 UTC, 139.5 s
# (233 s held); summary.txt, sanitizer.txt, env.txt and times.txt
# (verify's time new/orig of each run) are what it printed.
# Thirteenth session: pin=ld on the H200.  The sm_90a misaligned half of
# bench/heldout.sh's set (Triton 3.6's attn_fwd, V loaded element by
# element), prepared here into devrun/ho13 (ignored by git, carried):
# NAME.ptx the input, NAME.forced.ptx `opt --no-search -p
# remat=loop,pin=ld` (every such kernel pinned, wgmma's A fragments
# among the pinned registers), NAME.opt.ptx the default search of this
# session's binary, NAME.old.ptx that of the twelfth session's (33e7acc).
# Each changed one is run by `verify` against its input (30 runs after
# 5 of warm-up, the launch description gen-triton.py wrote): outputs bit
# for bit and the time ratio; then compute-sanitizer's racecheck and
# synccheck on two forced ones.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/ho13 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for f in $H/ho_*_un_sm90a.ptx; do
  case $f in *.forced.ptx|*.opt.ptx|*.old.ptx) continue ;; esac
  n=$(basename $f .ptx)
  for v in forced old opt; do
    o=$H/$n.$v.ptx
    cmp -s $f $o && { echo "$n | $v | unchanged"; continue; }
    timeout 100 /tmp/ptxverify $f $o $H/$n.launch --runs 30 --warmup 5 > $R/v_${n}_$v.txt 2>&1; rc=$?
    echo "$n | $v | rc=$rc | $(grep -m1 '^output' $R/v_${n}_$v.txt | sed 's/.*; //') | $(tail -1 $R/v_${n}_$v.txt)"
  done
done
} 2>&1 | tee $R/summary.txt
for n in ho_d64_m128_n128_w4_s2_fp16_full_un_sm90a ho_d128_m128_n64_w4_s2_bf16_full_un_sm90a; do
  for t in racecheck synccheck; do
    timeout 200 compute-sanitizer --tool $t /tmp/ptxverify $H/$n.ptx $H/$n.forced.ptx \
      $H/$n.launch --runs 1 --warmup 0 2>&1 | tail -4 | sed "s|^|$n $t: |"
  done
done 2>&1 | tee $R/sanitizer.txt
tar czf $OUT/res.tgz -C /tmp res
