#!/bin/bash
# twenty-seventh session, sixth H200 run: `opt --time` (the GPU choosing
# among the search's candidates) on Triton's d256_n64_w4, this tree's
# binary (02186ff), 8 tries, no refining round.
set -u
export PATH=/usr/local/cuda/bin:$PATH CUDA_CACHE_PATH=/tmp/cc
P=devrun/bin/ptxpress
$P opt devrun/xs/orig.ptx -o /tmp/t.ptx --time devrun/xs/d256.launch -j 8 --tries 8 --refine 0 2>&1 | tail -12
$P validate devrun/xs/orig.ptx /tmp/t.ptx
grep -c "st.local" /tmp/t.ptx
