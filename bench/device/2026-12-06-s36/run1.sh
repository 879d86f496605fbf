#!/bin/bash
# thirty-sixth session: our d256_m64_n128 FMHA kernels (corpus/fmha_sm90a.ptx)
# against their rewrite by this session's ptxpress (mma.sync reordered
# among themselves, Kmma): devrun/s36/fmha_sm90a.opt.ptx, made on the CPU
# machine with `ptxpress opt corpus/fmha_sm90a.ptx -o ... --tries 12`.
# ptxverify (src/verify.c) runs both on the same random inputs, wants the
# same bits out, checks against its float reference and times each.
set -u
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")/../../.."
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc \
	-o /tmp/ptxverify tools/ptxverify-main.c src/verify.c src/cudrv.c -ldl -lm || exit 1
export CUDA_CACHE_PATH=/tmp/cc
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/gpuinfo.txt 2>&1
for t in f16 bf16; do
	k=fmha_fwd_${t}_d256_m64_n128
	/tmp/ptxverify --runs 20 --warmup 3 corpus/fmha_sm90a.ptx devrun/s36/fmha_sm90a.opt.ptx \
		corpus/kernels/$k.launch > $OUT/$k.txt 2>&1
	echo "$k rc=$?"; tail -6 $OUT/$k.txt
done
# again, the other order (the rewrite first), for the timing
for t in f16 bf16; do
	k=fmha_fwd_${t}_d256_m64_n128
	/tmp/ptxverify --runs 20 --warmup 3 devrun/s36/fmha_sm90a.opt.ptx corpus/fmha_sm90a.ptx \
		corpus/kernels/$k.launch > $OUT/$k.rev.txt 2>&1
	echo "$k (reversed) rc=$?"; tail -4 $OUT/$k.rev.txt
done
cat $OUT/gpuinfo.txt
