#!/bin/sh
# The checks for PTX a compiler just wrote (tests/llvm.sh, tests/nvrtc.sh):
# check reads every file with no error or warning, the round trip holds
# (byte-identical emit, canonical fixed point, same cubin;
# tests/roundtrip.sh), and opt rewrites each no worse and proven
# (tests/optcorpus.sh).
# usage: fresh.sh NAME PTXPRESS CUBINCMP PTXASV DIR
set -u
name=$1 px=$2 cmpx=$3 pv=$4 dir=$5
top=$(cd "$(dirname "$0")/.." && pwd)
fail=0
for f in "$dir"/*.ptx; do
	out=$("$px" check "$f" 2>&1) || { echo "FAIL check $f"; echo "$out"; fail=1; }
	case $out in *", 0 errors, 0 warnings"*) ;;
	*) echo "FAIL check $f: $out"; fail=1 ;; esac
done
sh "$top/tests/roundtrip.sh" "$px" "$cmpx" "$dir" || fail=1
TRIES=2 sh "$top/tests/optcorpus.sh" "$px" "$pv" "$dir" || fail=1
[ $fail -eq 0 ] && echo "$name: cases passed"
exit $fail
