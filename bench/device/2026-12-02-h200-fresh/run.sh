#!/bin/bash
# One call of the device tool (nvidia-h200), fourteenth session.
# The second held-out set (tools/gen-triton.py --fresh, made after opt's
# tuning on the first): its sm_90a and sm_80 kernels that opt changes,
# prepared here into devrun/hf14 (ignored by git, carried): NAME.ptx
# the input, NAME.opt.ptx `opt --tries 12` of c110748's binary (the
# pick bench/heldout.sh --fresh reports), NAME.unser.ptx the same with
# --unserialized where ptxas serializes the pick's wgmmas.  Each is run
# by `verify` against its input (30 runs after 5 of warm-up, the launch
# description gen-triton.py wrote): outputs bit for bit and the time
# ratio; then compute-sanitizer's racecheck and synccheck on two.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
H=devrun/hf14 R=/tmp/res; mkdir -p $R; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } > $R/env.txt 2>&1
cat $R/env.txt
{
for f in $H/hf_*.launch; do
  n=$(basename $f .launch)
  for v in opt unser; do
    o=$H/$n.$v.ptx
    [ -f $o ] || continue
    timeout 100 /tmp/ptxverify $H/$n.ptx $o $f --runs 30 --warmup 5 > $R/v_${n}_$v.txt 2>&1; rc=$?
    echo "$n | $v | rc=$rc | $(grep -m1 '^output' $R/v_${n}_$v.txt | sed 's/.*; //') | $(grep -m1 "^time new" $R/v_${n}_$v.txt) | $(tail -1 $R/v_${n}_$v.txt)"
  done
done
} 2>&1 | tee $R/summary.txt
for n in hf_d256_m64_n32_w4_s2_bf16_causal_un_sm90a hf_d128_m128_n128_w4_s2_bf16_causal_al_sm90a; do
  for t in racecheck synccheck; do
    timeout 200 compute-sanitizer --tool $t /tmp/ptxverify $H/$n.ptx $H/$n.opt.ptx \
      $H/$n.launch --runs 1 --warmup 0 2>&1 | tail -4 | sed "s|^|$n $t: |"
  done
done 2>&1 | tee $R/sanitizer.txt
tar czf $OUT/res.tgz -C /tmp res
