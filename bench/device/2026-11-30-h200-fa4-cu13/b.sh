#!/bin/bash
# call 2 of 2: the DSL's cu13 libs, then FA4 on the H200: its embedded
# ptxas; its hook (CUTE_DSL_PTXAS_PATH) with ptxpress-ptxas lowering the
# PTX 9.4 that DSL 4.8.1 writes for CUDA 13.0's ptxas, without rewriting
# (PIPELINE=none: ptxas 13.0 as it is) and with opt's search; embedded again
set -u
cd "$(dirname "$0")/.."
R=/tmp/fa4res3; [ -f $R/run.py ] || { echo "call 1 did not stay"; exit 3; }
cat $R/cu13part.aa devrun4/cu13part.ab devrun4/cu13part.ac | tar xJf - -C /tmp/site || exit 5
rm -f $R/cu13part.aa
export PYTHONPATH=/tmp/site:/tmp/site/nvidia_cutlass_dsl/dsl_packages
export CUTE_DSL_KEEP_PTX=1 PYTHONUNBUFFERED=1 FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=0
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv; } > $R/env.txt 2>&1
export PTXPRESS_PTXAS=/usr/local/cuda/bin/ptxas PTXPRESS_PTX_VERSION=auto
mkdir -p /tmp/e0 /tmp/e1 /tmp/e2 /tmp/e3
echo "== embedded"
CUTE_DSL_DUMP_DIR=/tmp/e0 timeout 100 python3 $R/run.py $R/fa4_embedded.json 2>&1 | grep '^{'
echo "== hook, ptxpress-ptxas, no rewrite (ptxas 13.0)"
CUTE_DSL_DUMP_DIR=/tmp/e1 CUTE_DSL_PTXAS_PATH=$R/ptxpress-ptxas CUTE_DSL_PTXAS_VERBOSE=1 \
  PTXPRESS_PIPELINE=none PTXPRESS_LOG=$R/wrap_none.log \
  timeout 100 python3 $R/run.py $R/fa4_hook_none.json 2>&1 | grep -v Warning | grep '^{\|ptxas\]' | cut -c1-200
echo "== hook, ptxpress-ptxas, search"
CUTE_DSL_DUMP_DIR=/tmp/e2 CUTE_DSL_PTXAS_PATH=$R/ptxpress-ptxas CUTE_DSL_PTXAS_VERBOSE=1 \
  PTXPRESS_JOBS=14 PTXPRESS_TRIES=16 PTXPRESS_LOG=$R/wrap_search.log \
  timeout 150 python3 $R/run.py $R/fa4_hook_search.json 2>&1 | grep -v Warning | grep '^{\|ptxas\]' | cut -c1-200
echo "== embedded again"
CUTE_DSL_DUMP_DIR=/tmp/e3 timeout 100 python3 $R/run.py $R/fa4_embedded2.json 2>&1 | grep '^{'
for l in $R/wrap_*.log; do echo "$l:"; sed 's/.*kernel=//' $l | cut -c1-300; done
rm -f $R/ptxpress-ptxas
tar czf $OUT/fa4res3.tgz -C /tmp fa4res3
