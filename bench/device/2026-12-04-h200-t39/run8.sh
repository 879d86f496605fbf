#!/bin/bash
# The device tool (nvidia-h200), twenty-third session, eighth run: the
# Triton route end to end with this tree's drop-in (the binaries of
# 326a69e's tree: the loop-local rule, built here: devrun/bin, ignored, carried).
# ../shared/triton/run_fa.py (copied to devrun/tri) over two of its
# configurations (d256_n64_w4, d128_n64_w4), fp16 and bf16: Triton 3.6 assembling with CUDA
# 13.0's ptxas, then with ptxpress-ptxas in front of it at its defaults
# (8 tries, no refining round, --unserialized, the SASS guard when it
# finds nvdisasm beside ptxas).  run_fa.py checks each output against
# PyTorch's attention and times it; then plain again.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
B=$PWD/devrun/bin P13=/usr/local/cuda/bin/ptxas R=/tmp/res
mkdir -p $R
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; ls -l /usr/local/cuda/bin/nvdisasm; } > $R/env.txt 2>&1
cat $R/env.txt
for dt in fp16 bf16; do
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 \
    python3 devrun/tri/run_fa.py d256_n64_w4_full d128_n64_w4_full --dtype $dt --json $R/plain_$dt.json > $R/plain_$dt.txt 2>&1
  echo "plain $dt rc=$?"; tail -9 $R/plain_$dt.txt
  TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 \
    PTXPRESS_LOG=$R/drop_$dt.log PTXPRESS_CACHE_DIR=/tmp/pxc$dt PYTHONUNBUFFERED=1 \
    timeout 200 python3 devrun/tri/run_fa.py d256_n64_w4_full d128_n64_w4_full --dtype $dt --json $R/drop_$dt.json > $R/drop_$dt.txt 2>&1
  echo "drop-in $dt rc=$?"; tail -9 $R/drop_$dt.txt
  TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 150 \
    python3 devrun/tri/run_fa.py d256_n64_w4_full d128_n64_w4_full --dtype $dt --json $R/again_$dt.json > $R/again_$dt.txt 2>&1
  echo "plain again $dt rc=$?"; tail -3 $R/again_$dt.txt
done
for f in $R/drop_*.log; do echo "== $f"; sed 's/.*kernel=attn_fwd//' $f; done
tar czf $OUT/res.tgz -C /tmp res
