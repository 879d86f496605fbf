#!/bin/bash
# Eighth session: the refining round (opt --refine, the drop-in's
# PTXPRESS_REFINE) on the H200.  Part A: each search's pick with the
# refining round (default: half the tries) and without it (--refine 0),
# run by `verify` against the input (50 runs after 10 of warm-up):
# outputs bit for bit and the time ratio.  Ours: corpus/fmha_sm90a.ptx,
# the d256_m64_n128 kernels (the ones the round changes on this
# machine's ptxas); Triton: the six dumps of devrun/tri, --unserialized
# as the drop-in ranks.  Part B (PART=B): ../shared/triton/run_fa.py
# plain, through the drop-in with its defaults, plain again.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-12-01-h200-refine
P13=/usr/local/cuda/bin/ptxas
PART=${PART:-A}
R=/tmp/res24$PART; mkdir -p $R/ptx; export CUDA_CACHE_PATH=/tmp/cc24
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
if [ $PART = A ]; then
  for rf in 6 0; do
    $B/ptxpress opt corpus/fmha_sm90a.ptx -o $R/ptx/own$rf.ptx --ptxas $P13 -j 15 --refine $rf 2> $R/opt_own$rf.txt
    for k in fmha_fwd_f16_d256_m64_n128 fmha_fwd_bf16_d256_m64_n128; do
      v=$R/v_own${rf}_$k.txt
      timeout 120 $B/ptxpress verify corpus/fmha_sm90a.ptx $R/ptx/own$rf.ptx corpus/kernels/$k.launch --runs 50 --warmup 10 > $v 2>&1; rc=$?
      echo "own refine=$rf | $k | $(grep "^$k " $R/opt_own$rf.txt | awk '{print $3, $5}') | rc=$rc | $(grep -m1 '^output' $v | sed 's/.*; //') | $(grep -m1 '^reference' $v | sed 's/.*: orig/orig/') | $(tail -1 $v)"
    done
  done
  tris="d128_n64_w4_full_fp16:f16_d128 d128_n64_w4_full_bf16:bf16_d128 d128_n128_w4_full_fp16:f16_d128 d128_n128_w4_full_bf16:bf16_d128 d256_n64_w4_full_fp16:f16_d256 d256_n64_w4_full_bf16:bf16_d256"
  for t in $tris; do
    f=${t%%:*}; l=${t#*:}; L=$D/triton_attn_fwd_$l.launch
    for rf in 6 0; do
      $B/ptxpress opt devrun/tri/$f.ptx -o $R/ptx/t.ptx --ptxas $P13 -j 15 --unserialized --refine $rf 2> $R/opt_${f}_$rf.txt
      v=$R/v_${f}_$rf.txt
      timeout 120 $B/ptxpress verify devrun/tri/$f.ptx $R/ptx/t.ptx $L --runs 50 --warmup 10 > $v 2>&1; rc=$?
      echo "triton $f refine=$rf | $(grep '^attn_fwd' $R/opt_${f}_$rf.txt | awk '{print $3, $5}') | rc=$rc | $(grep -m1 '^output' $v | sed 's/.*; //') | $(tail -1 $v)"
    done
  done 
else
  for dt in fp16 bf16; do
    TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 python3 devrun/run_fa.py --dtype $dt --json $R/all_plain_$dt.json 2>&1 | tail -8
    TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 PTXPRESS_TRIES=12 \
      PTXPRESS_LOG=$R/wrap_$dt.log PTXPRESS_CACHE_DIR=/tmp/pxc24$dt PYTHONUNBUFFERED=1 \
      timeout 250 python3 devrun/run_fa.py --dtype $dt --json $R/all_drop_$dt.json 2>&1 | tail -8
    TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 python3 devrun/run_fa.py --dtype $dt --json $R/all_again_$dt.json 2>&1 | tail -8
  done
  for f in $R/wrap_*.log; do echo "== $f"; sed 's/.*kernel=attn_fwd//' $f; done
fi 2>&1 | tee $R/summary.txt
rm -rf $R/ptx
tar czf $OUT/res24$PART.tgz -C /tmp res24$PART
