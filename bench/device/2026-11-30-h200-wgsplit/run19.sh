#!/bin/bash
# Sixth session, seventh call: an experiment, not a pass, and not
# proven by the validator (it refuses the extra commit).  wgsplit=pv,
# wgwait's output with the pulled P*V chain in a group of its own
# (a commit after S's second chain) and the added wait made
# wait_group 1: S's second half is retired, P_top*V stays in flight
# over the second half's softmax.  ptxas 13.0: 104+80 bytes of spill,
# not serialized.  verify ORIG vs it, 50 runs.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgsplit
R=/tmp/res19; mkdir -p $R
for dt in fp16 bf16; do
  d=$dt; [ $d = fp16 ] && d=f16
  $B/ptxpress verify devrun/d128_n128_w4_full_$dt.ptx devrun/v19_$dt.ptx $D/triton_attn_fwd_${d}_d128.launch --runs 50 --warmup 10 --json > $R/$dt.json 2> $R/$dt.txt
  echo "$dt rc=$? $(grep -o '"time_ratio": [0-9.]*' $R/$dt.json)"
done
tar czf $OUT/res19.tgz -C /tmp res19
