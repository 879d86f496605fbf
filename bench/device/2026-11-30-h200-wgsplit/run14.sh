#!/bin/bash
# Sixth session, second call: an experiment, not a pass.  The split
# kernel of run13 (wgsplit,wgwait,remat,sched=td) with P*V's first
# chain (O's first m64 tile) and the descriptor math it reads moved by
# hand (pvup.py in this folder, run on the split output) into the split
# group, before its commit: the tensor core runs P_top*V and S's second
# half back to back.  ptxas 13.0: no C7511 serialization note, 176+172
# bytes of spill.  verify ORIG vs this.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin; D=$PWD/bench/device/2026-11-30-h200-wgsplit
R=/tmp/res14; mkdir -p $R
for dt in fp16 bf16; do
  d=$dt; [ $d = fp16 ] && d=f16
  $B/ptxpress verify devrun/d128_n128_w4_full_$dt.ptx devrun/pv_$dt.ptx $D/triton_attn_fwd_${d}_d128.launch --runs 50 --warmup 10 --json > $R/pv_$dt.json 2> $R/pv_$dt.txt
  echo "verify $dt rc=$?"; tail -3 $R/pv_$dt.txt
done
tar czf $OUT/res14.tgz -C /tmp res14
