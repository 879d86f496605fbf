#!/bin/bash
# thirtieth session, second device run: ptxverify (30 runs after 5 of
# warm-up, alternating, two rounds) of (a) Triton 3.8.0's sm_80/sm_90a
# picks, the drop-in's (.drop) and opt's 12-try (.opt) where they differ,
# against their inputs; (b) forced variants of two kernels run1's --time
# judged (NAME.N.ptx), to check --time's ratios.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
R=$OUT; export CUDA_CACHE_PATH=/tmp/cc
one() {  # ORIG NEW LAUNCH TAG ROUND
  timeout 100 /tmp/ptxverify $1 $2 $3 --runs 30 --warmup 5 > /tmp/v.txt 2>&1; rc=$?
  echo "$4 | round $5 | rc=$rc | $(grep -m1 '^output' /tmp/v.txt | sed 's/.*; //') | $(grep -m1 '^time new' /tmp/v.txt) | $(grep '^orig\|^new' /tmp/v.txt | awk '{print $4, $5}' | tr '\n' ' ')"
  cp /tmp/v.txt $R/v_$4_$5.txt 2>/dev/null
}
for round in 1 2; do
  for f in devrun/s30/t38/*.drop.ptx devrun/s30/t38/*.opt.ptx devrun/s30/xa/*.[0-9].ptx; do
    n=$(basename $f .ptx); b=${n%.*}; d=$(dirname $f)
    one $d/$b.ptx $f $d/$b.launch $n $round
  done
done 2>&1 | tee /tmp/summary2.txt
cp /tmp/summary2.txt $R/
tar czf $R/v.tgz -C $R --remove-files $(cd $R && ls v_*.txt)
