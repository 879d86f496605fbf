#!/bin/bash
# call 1 of 2: install FA4, the DSL (base, core) and friends into /tmp/site;
# the DSL's cu13 libs: the first half of them here, the rest in call 2
set -u
cd "$(dirname "$0")/.."
mkdir -p /tmp/site /tmp/fa4res3
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site devrun3/*.whl > /tmp/fa4res3/pip.log 2>&1 || { tail /tmp/fa4res3/pip.log; exit 4; }
for w in devrun3/nvidia_cutlass_dsl_libs_core*.whl devrun3/nvidia_cutlass_dsl_libs_base*.whl; do python3 -m zipfile -e $w /tmp/site; done
cp devrun/bin/ptxpress-ptxas devrun3/run.py devrun3/cu13part.aa /tmp/fa4res3/
ls /tmp/site | tr '\n' ' '; echo; python3 -c "import torch; print(torch.__version__, torch.version.cuda)"; python3 -c "import cuda.bindings; print('cuda.bindings', cuda.bindings.__version__)" 2>&1 | tail -1
