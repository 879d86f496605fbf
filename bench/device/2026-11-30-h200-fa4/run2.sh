#!/bin/bash
# FA4 without the hook (its embedded ptxas), to see FA4 itself run here
set -u
cd "$(dirname "$0")/.."
R=/tmp/fa4res; mkdir -p $R
export PYTHONPATH=/tmp/site:/tmp/site/nvidia_cutlass_dsl/dsl_packages PYTHONUNBUFFERED=1
timeout 200 python3 devrun2/run.py $R/fa4_embedded.json 2>&1 | grep -v UserWarning | tail -6
export CUTE_DSL_KEEP_PTX=1
mkdir -p /tmp/d3
CUTE_DSL_DUMP_DIR=/tmp/d3 CUTE_DSL_PTXAS_PATH=/usr/local/cuda/bin/ptxas CUTE_DSL_PTXAS_VERBOSE=1 \
  timeout 200 python3 devrun2/run.py $R/fa4_hook13.json 2>&1 | grep -v UserWarning | tail -12
ls /tmp/d3 | head
tar czf $OUT/fa4res2.tgz -C /tmp fa4res d3
