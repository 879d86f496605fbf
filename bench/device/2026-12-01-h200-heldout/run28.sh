#!/bin/bash
# Ninth session, third call: which of the search's variants are fast?
# run27's GPU picks for the aligned sm_90a held-out kernels were
# wgsplit variants where the spill judge had taken wgwait,remat,sched=td
# at the same 0 bytes.  For those four kernels and the corpus's two
# Triton sm_90a probes (d128_n64, d128_n128), every variant of the first
# round (`opt --variants --refine 0`, 12 tries, here beforehand), forced
# (`opt --no-search -p P --seed S`) into devrun/tie/NAME.vI.ptx, run by
# `verify` against the input (20 runs after 5 of warm-up): spill, output
# and time, one line each.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; T=$PWD/devrun/tie
R=/tmp/res28; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc28
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for l in $T/*.list; do
  n=$(basename $l .list)
  while read v sp ps; do
    timeout 100 $B/ptxpress verify $T/$n.ptx $T/$v.ptx $T/$n.launch --runs 20 --warmup 5 > $R/v.txt 2>&1; rc=$?
    echo "$n | $ps | listed $sp | $(awk '$1=="new"{print $4}' $R/v.txt) | rc=$rc | $(grep -m1 '^output' $R/v.txt | sed 's/.*; //') | $(grep -o 'time new/orig: [0-9.]*' $R/v.txt)"
  done < $l
done
} 2>&1 | tee $R/summary.txt
tar czf $OUT/res28.tgz -C /tmp res28
