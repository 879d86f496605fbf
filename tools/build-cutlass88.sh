#!/bin/sh
# build-cutlass88.sh: CUTLASS's example 88 (the Hopper FMHA, sm_90a) as
# a program, twice from the same host code: OUTDIR/ex88.orig with the
# PTX nvcc makes, OUTDIR/ex88.new with NEW.ptx (ptxpress's rewrite of
# that PTX; tools/gen-cutlass.sh writes the same file as
# fmha88_fp16_sm90a.ptx) in its place, so that the two can run side by
# side on a Hopper GPU (`ex88.X --bwd --d=64 --verify --verbose`).
#
#   tools/build-cutlass88.sh OUTDIR NEW.ptx [NVCC]
#
# nvcc -keep builds the first and leaves its intermediate files; its
# -dryrun lists the steps from ptxas on (ptxas, fatbinary, the host
# object, nvlink, the link), which run again in a copy with NEW.ptx.
# NEW must name the kernels nvcc's PTX names (a rewrite keeps every
# name).  Ten to fifteen minutes of nvcc and gcc on two cores (the
# forty-first session's run, beside CI: 27 minutes).
# Uses the nvidia-cutlass wheel's sources, as gen-cutlass.sh does.
set -u
out=${1:?usage: build-cutlass88.sh OUTDIR NEW.ptx [NVCC]}
new=${2:?usage: build-cutlass88.sh OUTDIR NEW.ptx [NVCC]}
nvcc=${3:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PTXPRESS_CUTLASS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptxpress/cutlass-4.2.0}
. "$top/tools/wheel.sh"
wheel "$cache" "nvidia-cutlass==4.2.0.0" cutlass_library ||
	{ echo "build-cutlass88: no nvidia-cutlass 4.2.0.0 wheel at hand"; exit 77; }
s=$cache/cutlass_library/source
ex=$s/examples/88_hopper_fmha
new=$(cd "$(dirname "$new")" && pwd)/$(basename "$new")
mkdir -p "$out/a" "$out/b" || exit 1
out=$(cd "$out" && pwd)
bin=$(dirname "$nvcc")
fl="-std=c++17 -gencode arch=compute_90a,code=sm_90a --use_fast_math
	--expt-relaxed-constexpr -DNDEBUG -w -I$s/include -I$s/tools/util/include
	-I$s/examples/common -I$ex"
cd "$out/a" || exit 1
# shellcheck disable=SC2086
"$nvcc" $fl "$ex/88_hopper_fmha.cu" -o ex88 -keep -dryrun 2>&1 |
	sed 's/^#\$ //' | sed -n '/^ptxas /,$p' >"$out/steps.sh"
grep -q '^ptxas .*"88_hopper_fmha.ptx"' "$out/steps.sh" ||
	{ echo "build-cutlass88: nvcc's steps are not the expected ones"; exit 1; }
# shellcheck disable=SC2086
"$nvcc" $fl "$ex/88_hopper_fmha.cu" -o ex88 -keep ||
	{ echo "build-cutlass88: nvcc failed"; exit 1; }
names() { grep -o '\.entry [A-Za-z0-9_$]*' "$1" | sort; }
[ "$(names 88_hopper_fmha.ptx)" = "$(names "$new")" ] ||
	{ echo "build-cutlass88: $new has other kernels than nvcc's PTX"; exit 1; }
cp 88_hopper_fmha.cudafe1.cpp 88_hopper_fmha.cudafe1.c \
	88_hopper_fmha.cudafe1.stub.c 88_hopper_fmha.cudafe1.gpu \
	88_hopper_fmha.module_id "$out/b/" || exit 1
cp "$new" "$out/b/88_hopper_fmha.ptx" || exit 1
cd "$out/b" && PATH=$bin:$PATH sh "$out/steps.sh" ||
	{ echo "build-cutlass88: the rewrite's build failed"; exit 1; }
cp "$out/a/ex88" "$out/ex88.orig" && cp "$out/b/ex88" "$out/ex88.new" &&
	echo "build-cutlass88: $out/ex88.orig $out/ex88.new"
