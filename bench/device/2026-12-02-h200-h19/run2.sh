#!/bin/bash
# The device tool (nvidia-h200), nineteenth session: what run.sh's one
# slower pick (hx_d256_m64_n32_w4_s3_fp16_full_un, `remat,sched=bu,
# pin=loopall`) and the one refused variant (hx_d128_m128_n64_w8_s2_
# bf16_causal_un, `remat,sched=td`, refused by --sass-guard) run at.
# devrun/p19: NAME.vK.ptx forced variants (`ptxpress opt NAME.ptx
# --no-search -p PIPELINE`, variants.txt); devrun/bin/ptxpress built on
# the CPU machine (283a22e).  Each variant `verify`'d against its input,
# 30 runs after 5 of warm-up, two rounds; then `opt --time` (12 tries,
# the candidates timed on the GPU) on the slower pick's kernel, and its
# output verify'd.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin H=devrun/p19 R=/tmp/res2; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
for round in 1 2; do
  for v in $H/*.v[0-9].ptx; do
    t=$(basename $v .ptx); n=${t%.v*}
    $B/ptxpress verify $H/$n.ptx $v $H/$n.launch --runs 30 --warmup 5 > $R/$t.$round.txt 2>&1
    echo "$t | round $round | rc=$? | $(grep -m1 '^output' $R/$t.$round.txt | sed 's/.*; //') | $(grep -m1 '^time new' $R/$t.$round.txt)"
  done
done 2>&1 | tee $R/summary.txt
n=hx_d256_m64_n32_w4_s3_fp16_full_un_sm90a
$B/ptxpress opt $H/$n.ptx -o $R/$n.time.ptx --ptxas /usr/local/cuda/bin/ptxas -j 15 --time $H/$n.launch > $R/$n.time.txt 2>&1
echo "== $n: opt --time rc=$?"; cat $R/$n.time.txt
if ! cmp -s $H/$n.ptx $R/$n.time.ptx; then
  $B/ptxpress verify $H/$n.ptx $R/$n.time.ptx $H/$n.launch --runs 30 --warmup 5 > $R/$n.verify.txt 2>&1
  echo "$n: verify rc=$? $(grep -m1 '^output' $R/$n.verify.txt | sed 's/.*; //') | $(grep -m1 '^time new' $R/$n.verify.txt)"
fi 2>&1 | tee -a $R/summary.txt
tar czf $OUT/res2.tgz -C /tmp res2
