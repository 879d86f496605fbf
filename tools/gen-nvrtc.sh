#!/bin/sh
# gen-nvrtc.sh: PTX from NVIDIA's own compiler in CUDA 11.7, 11.8, 12.0,
# 12.4 and 12.9, for the front end and opt to meet what those releases
# emit (this machine's nvcc is 13.0).  PyPI's nvidia-cuda-nvrtc wheels
# carry the nvcc front end and NVVM as libnvrtc; tools/nvrtcc.c drives
# it.  The wheels are fetched once with pip into a cache.
#
#   tools/gen-nvrtc.sh NVRTCC OUTDIR
#
# Writes OUTDIR/nvrtc<VERSION>_<ARCH><OPT>.ptx from
# corpus/kernels/nvrtc_features.cu: sm_80 for every release, sm_90 from
# 12.0; plain -O3 (NVRTC's default), -lineinfo, and -G (DWARF sections).
# Cache: $PTXPRESS_NVRTC_CACHE, else ~/.cache/ptxpress/nvrtc.  Exit
# status 77 when no release can be had (no cache and no pip or no
# network).
set -u
nvrtcc=${1:?usage: gen-nvrtc.sh NVRTCC OUTDIR}
out=${2:?usage: gen-nvrtc.sh NVRTCC OUTDIR}
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/corpus/kernels/nvrtc_features.cu
cache=${PTXPRESS_NVRTC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptxpress/nvrtc}
mkdir -p "$out" "$cache" || exit 1

. "$top/tools/wheel.sh"

# the library of release V (wheel nvidia-cuda-nvrtc-cuMAJOR==V), fetched
# into the cache when missing; empty when it cannot be had
lib() {
	d=$cache/$1
	wheel "$d" "nvidia-cuda-nvrtc-cu${1%%.*}==$1" nvidia
	ls "$d"/nvidia/cuda_nvrtc/lib/libnvrtc.so.* 2>/dev/null \
		| grep -v builtins | head -1
}

n=0
for v in 11.7.99 11.8.89 12.0.140 12.4.127 12.9.86; do
	l=$(lib $v)
	[ -n "$l" ] || { echo "gen-nvrtc: no NVRTC $v; skipped"; continue; }
	short=$(echo $v | cut -d. -f1,2)
	archs=sm_80
	case $v in 12.*) archs="sm_80 sm_90" ;; esac
	for a in $archs; do
		for o in "" -lineinfo -G; do
			f=$out/nvrtc${short}_$a${o#-}.ptx
			# libnvrtc opens its builtins library by name
			LD_LIBRARY_PATH=$(dirname "$l")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
			"$nvrtcc" "$l" "$src" "$f" --gpu-architecture=$a $o \
				|| { echo "gen-nvrtc: NVRTC $v failed on $a $o"; exit 1; }
			n=$((n + 1))
		done
	done
done
[ $n -gt 0 ] || { echo "gen-nvrtc: no NVRTC release at hand"; exit 77; }
echo "gen-nvrtc: $n files in $out"
