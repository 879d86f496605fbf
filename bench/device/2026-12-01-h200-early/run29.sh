#!/bin/bash
# Tenth session: the early pass forced (opt --no-search -p P, P one of
# the search's three early pipelines, made here beforehand) on every
# sm_90a Triton kernel we hold a launch description for (held-out al and
# un, the corpus's two probes), each rewrite run by `verify` against its
# input (20 runs after 5 of warm-up): spill (ptxas 13.0 here), output
# and time, one line each.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../.."
B=$PWD/devrun/bin; E=$PWD/devrun/early
R=/tmp/res29; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc29
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
while read v p sp; do
  n=${v%.e*}
  timeout 100 $B/ptxpress verify $E/$n.ptx $E/$v.ptx $E/$n.launch --runs 20 --warmup 5 > $R/v.txt 2>&1; rc=$?
  echo "$v | $p | spill $sp | rc=$rc | $(grep -m1 '^output' $R/v.txt | sed 's/.*; //') | $(grep -o 'time new/orig: [0-9.]*' $R/v.txt)"
done < $E/list
} 2>&1 | tee $R/summary.txt
tar czf $OUT/res29.tgz -C /tmp res29
