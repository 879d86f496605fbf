#!/bin/sh
# What LLVM 15, 20 and 22's NVPTX back ends emit (tools/gen-llvmlite.sh:
# llvmlite's bundled LLVM from PyPI, cached, compiling clang's bitcode of
# our corpus/kernels/llvm_features.cu for sm_75 to sm_100a, -O0 and -O3,
# with and without -g), held to tests/fresh.sh's checks (clean check, the
# round trip to the same cubin, opt proven and no worse).  77 without
# clang, ptxas or any llvmlite release.
# usage: llvmlite.sh PTXPRESS CUBINCMP PTXASV TOPDIR
set -u
px=$1 cmpx=$2 pv=$3 top=$4
command -v ptxas >/dev/null 2>&1 || { echo "no ptxas; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh "$top/tools/gen-llvmlite.sh" "$tmp/gen" || exit $?
sh "$top/tests/fresh.sh" llvmlite "$px" "$cmpx" "$pv" "$tmp/gen"
