#!/bin/bash
# The device tool (nvidia-h200), twenty-third session, third run: the
# drop-in's pick (NAME.a = run.sh's NAME.n, wgsplit,wgwait,remat,sched=td)
# and the same without wgsplit (NAME.b = run2.sh's NAME.1,
# wgwait,remat,sched=td), both spill-free at 255 registers, side by side
# on one machine, each against its input: run.sh and run2.sh ran on two
# machines.  devrun/r39 (ignored, carried).  30 runs after 5 of
# warm-up, three rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/r39 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
one() {  # ORIG NEW LAUNCH TAG ROUND
  timeout 100 /tmp/ptxverify $1 $2 $3 --runs 30 --warmup 5 > $R/v_$4_$5.txt 2>&1; rc=$?
  echo "$4 | round $5 | rc=$rc | $(grep -m1 '^output' $R/v_$4_$5.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_$4_$5.txt) | $(tail -1 $R/v_$4_$5.txt)"
}
for round in 1 2 3; do
  for f in $H/*.[ab].ptx; do
    n=$(basename $f .ptx); b=${n%.*}
    one $H/$b.ptx $f $H/$b.launch $n $round
  done
done 2>&1 | tee $R/summary.txt
tar czf $OUT/res.tgz -C /tmp res
