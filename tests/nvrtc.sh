#!/bin/sh
# What CUDA 11.7 to 12.9 emit, fresh from their NVRTC (the nvcc front
# end and NVVM as a library; tools/gen-nvrtc.sh: our
# corpus/kernels/nvrtc_features.cu for sm_80 and sm_90, plain, -lineinfo
# and -G), held to tests/fresh.sh's checks (clean check, the round trip
# to the same cubin, opt proven and no worse).  77 without ptxas or any
# NVRTC release (the wheels come from PyPI through pip, once, into a
# cache).
# usage: nvrtc.sh PTXPRESS CUBINCMP PTXASV NVRTCC TOPDIR
set -u
px=$1 cmpx=$2 pv=$3 nv=$4 top=$5
command -v ptxas >/dev/null 2>&1 || { echo "no ptxas; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh "$top/tools/gen-nvrtc.sh" "$nv" "$tmp/gen" || exit $?
sh "$top/tests/fresh.sh" nvrtc "$px" "$cmpx" "$pv" "$tmp/gen"
