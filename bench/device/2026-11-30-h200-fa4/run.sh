#!/bin/bash
# second call: reassemble the DSL libs wheel, install, run FA4 twice
set -u
cd "$(dirname "$0")/.."
R=/tmp/fa4res; mkdir -p $R
if [ ! -d /tmp/site/nvidia_cutlass_dsl/cu12 ]; then
cat /root/w/cu12part.aa devrun2/cu12part.ab > devrun2/nvidia_cutlass_dsl_libs_cu12-4.8.1-cp312-cp312-manylinux_2_28_x86_64.whl || exit 3
rm devrun2/cu12part.ab
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site devrun2/*.whl > $R/pip.log 2>&1 || { tail $R/pip.log; exit 4; }
fi
# pip --target replaces a top-level folder that two wheels share: the
# DSL's base and cu12 wheels both fill nvidia_cutlass_dsl/, so unzip
for w in devrun2/nvidia_cutlass_dsl_libs_core*.whl devrun2/nvidia_cutlass_dsl_libs_base*.whl; do python3 -m zipfile -e $w /tmp/site; done #
ls /tmp/site/nvidia_cutlass_dsl/dsl_packages/cutlass | head -30 | tr '\n' ' '
export PYTHONPATH=/tmp/site:/tmp/site/nvidia_cutlass_dsl/dsl_packages
python3 -c "import torch, triton; print(torch.__version__)" 
export CUTE_DSL_KEEP_PTX=1 PYTHONUNBUFFERED=1
mkdir -p /tmp/d1 /tmp/d2
CUTE_DSL_DUMP_DIR=/tmp/d1 FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=0 CUTE_DSL_PTXAS_PATH=/usr/local/cuda/bin/ptxas \
  timeout 250 python3 devrun2/run.py $R/fa4_plain.json 2>&1 | tail -5
CUTE_DSL_DUMP_DIR=/tmp/d2 FLASH_ATTENTION_CUTE_DSL_CACHE_ENABLED=0 CUTE_DSL_PTXAS_PATH=$PWD/devrun/bin/ptxpress-ptxas \
  PTXPRESS_PTXAS=/usr/local/cuda/bin/ptxas PTXPRESS_JOBS=14 PTXPRESS_TRIES=16 PTXPRESS_LOG=$R/wrap.log \
  timeout 250 python3 devrun2/run.py $R/fa4_opt.json 2>&1 | tail -5
cat $R/wrap.log 2>/dev/null | cut -c1-300
tar czf $OUT/fa4res.tgz -C /tmp fa4res
