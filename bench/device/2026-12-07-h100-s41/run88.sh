#!/bin/bash
# forty-first session: CUTLASS example 88 (Hopper FMHA, sm_90a) built
# twice on the CPU machine from the same host code: ex88.orig with the
# PTX nvcc made, ex88.new with ptxpress's rewrite of it
# (`ptxpress opt fmha88_fp16_sm90a.ptx -o OUT --report json`, 550d62a:
# nine kernels rewritten, four of them with re-split setmaxnreg counts
# 232/32 instead of 240/24).  Each runs the backward (d 32, 64, 128) and
# forward (d 32, 64, 128, 256) configurations, masks no, residual,
# causal, with --verify (CUTLASS's reference) and --verbose (time per
# kernel), in both orders.
set -u
cd "$(dirname "$0")"
chmod +x ex88.orig ex88.new
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpuinfo.txt
B="--bwd --d=32,64,128 --mask=no,residual,causal --verify --verbose --iterations=20"
F="--d=32,64,128,256 --mask=no,residual,causal --verify --verbose --iterations=20"
for r in 1 2; do
	for b in orig new; do
		[ $r = 2 ] && b=$([ $b = orig ] && echo new || echo orig)
		timeout 150 ./ex88.$b $B > $OUT/bwd.$b.$r.txt 2>&1
		echo "$b bwd run $r rc=$? ok=$(grep -c '\[OK\]' $OUT/bwd.$b.$r.txt) fail=$(grep -c '\[FAIL\]' $OUT/bwd.$b.$r.txt)"
		timeout 150 ./ex88.$b $F > $OUT/fwd.$b.$r.txt 2>&1
		echo "$b fwd run $r rc=$? ok=$(grep -c '\[OK\]' $OUT/fwd.$b.$r.txt) fail=$(grep -c '\[FAIL\]' $OUT/fwd.$b.$r.txt)"
	done
done
