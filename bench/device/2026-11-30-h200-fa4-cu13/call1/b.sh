#!/bin/bash
# call 2 of 2: the DSL's cu13 libs, then FA4 on the H200: embedded ptxas,
# its hook with CUDA 13.0's ptxas, its hook with ptxpress-ptxas
set -u
cd "$(dirname "$0")/.."
R=/tmp/fa4res3; [ -f $R/run.py ] || { echo "call 1 did not stay"; exit 3; }
cat $R/cu13part.aa devrun4/cu13part.ab devrun4/cu13part.ac | tar xJf - -C /tmp/site || exit 5
rm -f $R/cu13part.aa
export PYTHONPATH=/tmp/site:/tmp/site/nvidia_cutlass_dsl/dsl_packages
export CUTE_DSL_KEEP_PTX=1 PYTHONUNBUFFERED=1 FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=0
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
mkdir -p /tmp/e0 /tmp/e1 /tmp/e2
echo "== embedded"
CUTE_DSL_DUMP_DIR=/tmp/e0 timeout 150 python3 $R/run.py $R/fa4_embedded.json 2>&1 | grep -v Warning | tail -4
echo "== hook, ptxas 13.0"
CUTE_DSL_DUMP_DIR=/tmp/e1 CUTE_DSL_PTXAS_PATH=/usr/local/cuda/bin/ptxas CUTE_DSL_PTXAS_VERBOSE=1 \
  timeout 150 python3 $R/run.py $R/fa4_hook13.json 2>&1 | grep -v Warning | tail -6
echo "== hook, ptxpress-ptxas"
CUTE_DSL_DUMP_DIR=/tmp/e2 CUTE_DSL_PTXAS_PATH=$R/ptxpress-ptxas PTXPRESS_PTXAS=/usr/local/cuda/bin/ptxas \
  PTXPRESS_JOBS=14 PTXPRESS_TRIES=16 PTXPRESS_LOG=$R/wrap.log \
  timeout 200 python3 $R/run.py $R/fa4_hookpx.json 2>&1 | grep -v Warning | tail -6
cut -c1-400 $R/wrap.log 2>/dev/null
rm -f $R/ptxpress-ptxas
tar czf $OUT/fa4res3.tgz -C /tmp fa4res3
