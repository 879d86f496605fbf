#!/bin/bash
# thirty-first session, first device run (run5 of the thirtieth, refused then): the session's last code
# (devrun/s31/bin built on the CPU machine): the GPU tests of
# cmake/verify.cmake (verify/gpu, verify/gpu-pin) by hand, then run4.sh
# fp16 (the Triton route end to end through the drop-in).
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
export CUDA_CACHE_PATH=/tmp/cc
/tmp/ptxverify --runs 3 --warmup 1 --ref-rows 16 corpus/fmha_sm90a.ptx corpus/fmha_sm90a.ptx tests/verify/tiny-attn.launch > $OUT/gpu.txt 2>&1
echo "verify/gpu rc=$?"; tail -4 $OUT/gpu.txt
/tmp/ptxverify --runs 3 --warmup 1 tests/opt/pinchk.ptx tests/opt/ok-pin-diverge.ptx tests/opt/pinchk.launch > $OUT/gpupin.txt 2>&1
echo "verify/gpu-pin rc=$?"; tail -4 $OUT/gpupin.txt
bash devrun/s31/run4.sh fp16
