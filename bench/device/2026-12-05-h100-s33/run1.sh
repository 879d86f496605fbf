#!/bin/bash
# thirty-third session: the GPU tests of cmake/verify.cmake by hand
# (verify/gpu-pin, verify/gpu-pinbase and the new verify/gpu-pindup,
# whose rewrite was made on the CPU machine by this session's
# ptxpress: devrun/s33/pindupchk.pin.ptx), with a ptxverify built here.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
export CUDA_CACHE_PATH=/tmp/cc
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpuinfo.txt 2>&1
/tmp/ptxverify --runs 3 --warmup 1 tests/opt/pinchk.ptx tests/opt/ok-pin-diverge.ptx tests/opt/pinchk.launch > $OUT/gpupin.txt 2>&1
echo "verify/gpu-pin rc=$?"; tail -3 $OUT/gpupin.txt
/tmp/ptxverify --runs 3 --warmup 1 tests/opt/pindupchk.ptx devrun/s33/pindupchk.pin.ptx tests/opt/pindupchk.launch > $OUT/gpupindup.txt 2>&1
echo "verify/gpu-pindup rc=$?"; tail -5 $OUT/gpupindup.txt
/tmp/ptxverify --runs 3 --warmup 1 tests/opt/pindupchk.ptx tests/opt/pindupchk.ptx tests/opt/pindupchk.launch > $OUT/gpupindup-self.txt 2>&1
echo "self rc=$?"; tail -2 $OUT/gpupindup-self.txt
cat $OUT/gpuinfo.txt
