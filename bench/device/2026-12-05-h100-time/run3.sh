#!/bin/bash
# thirtieth session, third device run: opt --time (8 tries, no refining
# round, --unserialized) with the fix that puts xspill=all on top of the
# tries (devrun/s30/bin: this tree at that commit, built on the CPU
# machine), over run1's five kernels and the eight Triton 3.8.0
# kernels run2 timed.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../.."
R=$OUT; export CUDA_CACHE_PATH=/tmp/cc
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; } | tee $R/env.txt
for f in devrun/s30/xa/hx_*_sm90a.ptx devrun/s30/xa/probe_fa_*_sm90a.ptx devrun/s30/t38/hx_*_sm90a.ptx devrun/s30/t38/hx_*_sm80.ptx; do
  b=$(basename $f .ptx); d=$(dirname $f)
  s=$(date +%s)
  timeout 100 devrun/s30/bin/ptxpress opt $f -o /tmp/$b.time.ptx --time $d/$b.launch \
    --tries 8 --refine 0 --unserialized -j 15 > $R/t_$b.txt 2>&1
  echo "== $b rc=$? $(( $(date +%s) - s )) s"; grep -v "^kernel" $R/t_$b.txt
done 2>&1 | tee /tmp/summary3.txt
cp /tmp/summary3.txt $R/; tar czf $R/t.tgz -C $R --remove-files $(cd $R && ls t_*.txt)
