#!/bin/sh
# What LLVM's NVPTX back end emits, fresh from the clang on this machine
# (tools/gen-llvm.sh: our corpus/kernels/llvm_features.cu at -O0/-O2/-O3,
# sm_75/80/86, with and without -g): check reads every file with no
# error or warning, the round trip holds (byte-identical emit, canonical
# fixed point, same cubin; tests/roundtrip.sh), and opt rewrites each no
# worse and proven (tests/optcorpus.sh).  77 without clang or ptxas.
# usage: llvm.sh PTXPRESS CUBINCMP PTXASV TOPDIR
set -u
px=$1 cmpx=$2 pv=$3 top=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh "$top/tools/gen-llvm.sh" "$tmp/gen" all || exit $?
fail=0
for f in "$tmp"/gen/*.ptx; do
	out=$("$px" check "$f" 2>&1) || { echo "FAIL check $f"; echo "$out"; fail=1; }
	case $out in *", 0 errors, 0 warnings"*) ;;
	*) echo "FAIL check $f: $out"; fail=1 ;; esac
done
sh "$top/tests/roundtrip.sh" "$px" "$cmpx" "$tmp/gen" || fail=1
TRIES=2 sh "$top/tests/optcorpus.sh" "$px" "$pv" "$tmp/gen" || fail=1
[ $fail -eq 0 ] && echo "llvm: cases passed"
exit $fail
