#!/bin/sh
# CUTLASS's own C++ attention kernels as nvcc 13 compiles them here
# (tools/gen-cutlass.sh: the Blackwell FMHA forward, example 77, for
# sm_100a, and the Hopper FMHA, example 88, for sm_90a; 11.5 and 7.7 MB
# of PTX, 99 functions), held to tests/fresh.sh's checks (clean check,
# the round trip to the same cubin, opt proven and no worse).  The PTX
# is kept beside the wheel in the cache, so a second run (CI's
# sanitized pass, a developer's rerun) does not compile again.  77
# without ptxas or nvcc, or when the nvidia-cutlass wheel cannot be had.
# usage: cutlass.sh PTXPRESS CUBINCMP PTXASV TOPDIR
set -u
px=$1 cmpx=$2 pv=$3 top=$4
command -v ptxas >/dev/null 2>&1 || { echo "no ptxas; skipped"; exit 77; }
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "no nvcc; skipped"; exit 77; }
cache=${PTXPRESS_CUTLASS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptxpress/cutlass-4.2.0}
sh "$top/tools/gen-cutlass.sh" "$cache/ptx" "$nvcc" || exit $?
sh "$top/tests/fresh.sh" cutlass "$px" "$cmpx" "$pv" "$cache/ptx"
