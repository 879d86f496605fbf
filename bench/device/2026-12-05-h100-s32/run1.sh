#!/bin/bash
# thirty-second session: the GPU tests of cmake/verify.cmake by hand
# (verify/gpu, verify/gpu-pin, and the new verify/gpu-pinbase, its
# rewrite made on the CPU machine by 58f4e4c's ptxpress:
# devrun/s32/pinbasechk.pin.ptx), with a ptxverify built here.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
export CUDA_CACHE_PATH=/tmp/cc
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpuinfo.txt 2>&1
/tmp/ptxverify --runs 3 --warmup 1 --ref-rows 16 corpus/fmha_sm90a.ptx corpus/fmha_sm90a.ptx tests/verify/tiny-attn.launch > $OUT/gpu.txt 2>&1
echo "verify/gpu rc=$?"; tail -3 $OUT/gpu.txt
/tmp/ptxverify --runs 3 --warmup 1 tests/opt/pinchk.ptx tests/opt/ok-pin-diverge.ptx tests/opt/pinchk.launch > $OUT/gpupin.txt 2>&1
echo "verify/gpu-pin rc=$?"; tail -3 $OUT/gpupin.txt
/tmp/ptxverify --runs 3 --warmup 1 tests/opt/pinbasechk.ptx devrun/s32/pinbasechk.pin.ptx tests/opt/pinbasechk.launch > $OUT/gpupinbase.txt 2>&1
echo "verify/gpu-pinbase rc=$?"; tail -5 $OUT/gpupinbase.txt
cat $OUT/gpuinfo.txt
