#!/bin/bash
# Seventh session, second call: correctness under forced and seeded
# rewrites, after remat=loop's fix and with wgsplit: eight pipelines
# (random schedulers with their seeds among them, the fuzzer's fo16
# pipeline too), each forced (--no-search) on our ten sm_90a FMHA
# kernels and on six Triton dumps (d128_n64, d128_n128, d256_n64; fp16
# and bf16), every result checked by `verify` against the input on the
# GPU: outputs bit for bit (and ours against the float64 reference).
# RUN (default 22) names the results: run23.sh is this with RUN=23.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-12-01-h200-unserial
N=${RUN:-22}
R=/tmp/res$N; mkdir -p $R/ptx; export CUDA_CACHE_PATH=/tmp/cc$N
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
pipes="wgsplit=pv,wgwait,remat,sched=bu@1 wgsplit,remat=loop,sched=bu-rand@1 wgsplit,remat=loop,sched=bu-rand@2 remat=loop,sched=td-rand,sink@3 mix@4 remat,moves,softmax=4,sched=bu-rand@5 wgwait,remat=loop,hoist,sched=td@1 remat=roles,softmax=2,sched=td-rand@6"
ks=$(sed -n 's/^\.visible \.entry \([a-z0-9_]*\)(.*/\1/p' corpus/fmha_sm90a.ptx)
tris="d128_n64_w4_full_fp16:f16_d128 d128_n64_w4_full_bf16:bf16_d128 d128_n128_w4_full_fp16:f16_d128 d128_n128_w4_full_bf16:bf16_d128 d256_n64_w4_full_fp16:f16_d256 d256_n64_w4_full_bf16:bf16_d256"
i=0
for ps in $pipes; do
  p=${ps%@*}; s=${ps#*@}; i=$((i+1))
  $B/ptxpress opt corpus/fmha_sm90a.ptx --no-search -p $p --seed $s -o $R/ptx/own$i.ptx 2> $R/opt_own$i.txt
  cmp -s corpus/fmha_sm90a.ptx $R/ptx/own$i.ptx && ch=kept || ch=rewritten
  for k in $ks; do
    L=corpus/kernels/$k.launch; [ -f $L ] || continue
    timeout 120 $B/ptxpress verify corpus/fmha_sm90a.ptx $R/ptx/own$i.ptx $L --runs 2 --warmup 1 > $R/v_own${i}_$k.txt 2>&1
    rc=$?; v=$R/v_own${i}_$k.txt
    echo "$p seed $s | $k | $ch | rc=$rc | $(grep -m1 '^output' $v | sed 's/.*; //') | $(grep -m1 '^reference' $v | sed 's/.*: orig/orig/') | $(tail -1 $v)"
  done
  for t in $tris; do
    f=${t%%:*}; l=${t#*:}; L=$D/triton_attn_fwd_$l.launch
    $B/ptxpress opt devrun/tri/$f.ptx --no-search -p $p --seed $s -o $R/ptx/t.ptx 2> $R/opt_${f}_$i.txt
    cmp -s devrun/tri/$f.ptx $R/ptx/t.ptx && ch=kept || ch=rewritten
    timeout 120 $B/ptxpress verify devrun/tri/$f.ptx $R/ptx/t.ptx $L --runs 2 --warmup 1 > $R/v_${f}_$i.txt 2>&1
    rc=$?; v=$R/v_${f}_$i.txt
    echo "$p seed $s | triton $f | $ch | rc=$rc | $(grep -m1 '^output' $v | sed 's/.*; //') | $(tail -1 $v)"
  done
done 2>&1 | tee $R/summary.txt
rm -rf $R/ptx
tar czf $OUT/res$N.tgz -C /tmp res$N
