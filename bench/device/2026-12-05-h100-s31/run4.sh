#!/bin/bash
# thirty-first session (run4.sh of the thirtieth, devrun/s31/bin at commit.txt): the Triton route end to end with
# this tree's drop-in (devrun/s31/bin: ptxpress and ptxpress-ptxas built
# on the CPU machine at the commit in env.txt's note).  run_fa.py (a copy
# of ../shared/triton's) over its seven configurations, fp16: Triton 3.6
# assembling with CUDA 13.0's ptxas, then with ptxpress-ptxas in front of
# it at its defaults (8 tries, no refining round, --unserialized, the
# SASS guard with nvdisasm beside ptxas), then plain again.  run_fa.py
# checks every output against PyTorch's attention and times it.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../.."
B=$PWD/devrun/s31/bin P13=/usr/local/cuda/bin/ptxas R=$OUT dt=${1:-fp16}
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; python3 -c 'import triton, torch; print(triton.__version__, torch.__version__)'; } > $R/env_$dt.txt 2>&1
cat $R/env_$dt.txt
TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 120 \
  python3 devrun/s31/tri/run_fa.py --dtype $dt --json $R/plain_$dt.json > $R/plain_$dt.txt 2>&1
echo "plain rc=$?"; cat $R/plain_$dt.txt
TRITON_PTXAS_PATH=$B/ptxpress-ptxas PTXPRESS_PTXAS=$P13 PTXPRESS_JOBS=15 \
  PTXPRESS_LOG=$R/drop_$dt.log PTXPRESS_CACHE_DIR=/tmp/pxc PYTHONUNBUFFERED=1 \
  timeout 330 python3 devrun/s31/tri/run_fa.py --dtype $dt --json $R/drop_$dt.json > $R/drop_$dt.txt 2>&1
echo "drop-in rc=$?"; cat $R/drop_$dt.txt
TRITON_PTXAS_PATH=$P13 PYTHONUNBUFFERED=1 timeout 120 \
  python3 devrun/s31/tri/run_fa.py --dtype $dt --json $R/again_$dt.json > $R/again_$dt.txt 2>&1
echo "plain again rc=$?"; cat $R/again_$dt.txt
sed 's/.*kernel=attn_fwd//' $R/drop_$dt.log
