#!/bin/sh
# gen-corpus.sh: regenerate ptxpress's own FMHA PTX and launch files.
#
#   tools/gen-corpus.sh [OUTDIR]      (default OUTDIR: corpus)
#
# Writes OUTDIR/fmha_sm90a.ptx, OUTDIR/fmha_sm100a.ptx and one launch
# description per kernel, OUTDIR/kernels/NAME.launch (format:
# doc/launch.md).  The kernel list is read back from the PTX's .entry
# lines, so the configurations live in one place, the .cu's
# FMHA_CONFIGS.  NVCC overrides the compiler (default
# /usr/local/cuda/bin/nvcc).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/corpus}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
# problem size of the shipped launch descriptions
heads=16
seq=4096

mkdir -p "$out/kernels"
out=$(cd "$out" && pwd)
cd "$top/corpus/kernels"
"$nvcc" -ptx -lineinfo -O3 -arch=sm_90a -o "$out/fmha_sm90a.ptx" \
	fmha_sm90a.cu
"$nvcc" -ptx -lineinfo -O3 -arch=sm_100a -o "$out/fmha_sm100a.ptx" \
	fmha_sm100a.cu
# nvcc writes absolute .file names: make ours relative to the checkout
# so that the output is the same wherever it is generated
for f in "$out/fmha_sm90a.ptx" "$out/fmha_sm100a.ptx"; do
	sed "s|^\(\s*\.file\s.*\"\)$top/|\1|" "$f" >"$f.tmp"
	mv "$f.tmp" "$f"
done

# launch NAME DTYPE D BM BN THREADS SHARED [EXTRA-BUFFER-LINE]
launch() {
	scale=$(awk -v d="$3" 'BEGIN { printf "%.9g", 1.4426950408889634 / sqrt(d) }')
	shape=${heads}x${seq}x$3
	f=$out/kernels/$1.launch
	{
		echo "# $1: from tools/gen-corpus.sh, see doc/launch.md"
		echo "# scale is log2(e)/sqrt(D): the kernels exponentiate with exp2"
		echo "kernel $1"
		echo "grid $((seq / $4)) $heads 1"
		echo "block $6 1 1"
		echo "shared $7"
		echo "buffer q $2 $shape randn in"
		echo "buffer k $2 $shape randn in"
		echo "buffer v $2 $shape randn in"
		echo "buffer o $2 $shape nan out"
		if [ -n "${8:-}" ]; then echo "$8"; fi
		echo "scalar scale f32 $scale"
		echo "scalar seq i32 $seq"
		echo "reference attention q k v o scale"
	} >"$f"
}

# fmha_fwd_<dtype>_d<D>_m<BM>_n<BN>: one warp per 16 rows; shared memory
# holds K (BN x (D+8)) and V transposed (D x (BN+8)), 2 bytes each.
entry='^\.visible \.entry \(fmha_fwd_[a-z0-9]*_d[0-9_mn]*\)(.*'
sed -n "s/$entry/\\1/p" "$out/fmha_sm90a.ptx" | while read -r name; do
	# fmha_fwd_bf16_d128_m64_n128 -> bf16 128 64 128
	set -- $(echo "$name" | sed 's/^fmha_fwd_//; s/_[dmn]/ /g')
	launch "$name" "$1" "$2" "$3" "$4" $(($3 / 16 * 32)) \
		$(((($4 * ($2 + 8)) + ($2 * ($4 + 8))) * 2))
done

# Blackwell: compile only here, but described so it runs where it can.
launch fmha_fwd_sm100a_bf16_d128_m256_n128 bf16 128 256 128 384 \
	$((4 * 128 * 128 * 2 + 64)) "buffer lse f32 ${heads}x$seq nan out"
