#!/bin/sh
# What CUDA 11.7 to 12.9 emit, fresh from their NVRTC (the nvcc front
# end and NVVM as a library; tools/gen-nvrtc.sh: our
# corpus/kernels/nvrtc_features.cu for sm_80 and sm_90, plain, -lineinfo
# and -G): check reads every file with no error or warning, the round
# trip holds (byte-identical emit, canonical fixed point, same cubin;
# tests/roundtrip.sh), and opt rewrites each no worse and proven
# (tests/optcorpus.sh).  77 without ptxas or any NVRTC release (the
# wheels come from PyPI through pip, once, into a cache).
# usage: nvrtc.sh PTXPRESS CUBINCMP PTXASV NVRTCC TOPDIR
set -u
px=$1 cmpx=$2 pv=$3 nv=$4 top=$5
command -v ptxas >/dev/null 2>&1 || { echo "no ptxas; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh "$top/tools/gen-nvrtc.sh" "$nv" "$tmp/gen" || exit $?
fail=0
for f in "$tmp"/gen/*.ptx; do
	out=$("$px" check "$f" 2>&1) || { echo "FAIL check $f"; echo "$out"; fail=1; }
	case $out in *", 0 errors, 0 warnings"*) ;;
	*) echo "FAIL check $f: $out"; fail=1 ;; esac
done
sh "$top/tests/roundtrip.sh" "$px" "$cmpx" "$tmp/gen" || fail=1
TRIES=2 sh "$top/tests/optcorpus.sh" "$px" "$pv" "$tmp/gen" || fail=1
[ $fail -eq 0 ] && echo "nvrtc: cases passed"
exit $fail
