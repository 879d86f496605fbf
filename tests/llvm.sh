#!/bin/sh
# What LLVM's NVPTX back end emits, fresh from the clang on this machine
# (tools/gen-llvm.sh: our corpus/kernels/llvm_features.cu at -O0/-O2/-O3,
# sm_75/80/86, with and without -g), held to tests/fresh.sh's checks
# (clean check, the round trip to the same cubin, opt proven and no
# worse).  77 without clang or ptxas.
# usage: llvm.sh PTXPRESS CUBINCMP PTXASV TOPDIR
set -u
px=$1 cmpx=$2 pv=$3 top=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh "$top/tools/gen-llvm.sh" "$tmp/gen" all || exit $?
sh "$top/tests/fresh.sh" llvm "$px" "$cmpx" "$pv" "$tmp/gen"
