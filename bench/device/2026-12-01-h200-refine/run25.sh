#!/bin/bash
# Eighth session, second call: which perturbations of the refining
# round cost speed?  For Triton's d128_n128_w4 (fp16, searched with
# --unserialized as the drop-in ranks) and our f16 d256_m64_n128: the
# search with --refine 12 lists its variants (--variants); then the
# first round's pick and each refined variant, forced (--no-search -p P
# --seed S), run by `verify` against the input (30 runs after 5 of
# warm-up): spill bytes and NEW/ORIG, per kind (mix or sched-rand).
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-12-01-h200-refine
P13=/usr/local/cuda/bin/ptxas
R=/tmp/res25; mkdir -p $R/ptx; export CUDA_CACHE_PATH=/tmp/cc25
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
one() {  # NAME INPUT KERNEL LAUNCH [opt flags]
  n=$1 in=$2 k=$3 L=$4; shift 4
  $B/ptxpress opt $in -o $R/ptx/s.ptx --ptxas $P13 -j 15 --refine 12 --variants --kernel $k "$@" 2> $R/search_$n.txt
  pick=$(awk -v k=$k '$1 == k && NF == 5 { print $5 }' $R/search_$n.txt)
  first=$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 && $5 !~ /@15000/ && $5 != "(the" { print $5; exit }' $R/search_$n.txt)
  echo "$n: pick $pick; first round's best $first"
  for ps in $first $(awk '$1 ~ /^[0-9]+$/ && $5 ~ /@15000[0-9][0-9]$/ { print $5 }' $R/search_$n.txt); do
    p=${ps%@*}; s=1; case $ps in *@*) s=${ps##*@} ;; esac
    $B/ptxpress opt $in --no-search -p "$p" --seed $s --kernel $k -o $R/ptx/f.ptx "$@" 2> $R/opt.txt
    sp=$($P13 -arch=sm_90a -v $R/ptx/f.ptx -o /dev/null 2>&1 | awk -v k=$k '/Compiling entry/ { on = index($0, k) > 0 } on && /spill stores/ { print $5 + $9; exit }')
    timeout 120 $B/ptxpress verify $in $R/ptx/f.ptx $L --runs 30 --warmup 5 > $R/v.txt 2>&1; rc=$?
    echo "$n | $ps | spill $sp | rc=$rc | $(grep -m1 '^output' $R/v.txt | sed 's/.*; //') | $(grep -o 'time new/orig: [0-9.]*' $R/v.txt)"
  done
}
{
one tri devrun/tri/d128_n128_w4_full_fp16.ptx attn_fwd $D/triton_attn_fwd_f16_d128.launch --unserialized
one own corpus/fmha_sm90a.ptx fmha_fwd_f16_d256_m64_n128 corpus/kernels/fmha_fwd_f16_d256_m64_n128.launch
} 2>&1 | tee $R/summary.txt
rm -rf $R/ptx
tar czf $OUT/res25.tgz -C /tmp res25
