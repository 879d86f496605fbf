#!/bin/sh
# opt --time on the mock driver: the search's candidates for our
# spilling d256 kernel are run against the input.  The mock times every
# NEW side at MOCKCUDA_NEW_MS (ORIG at 1 ms), so: 0.9 keeps the best
# candidate, 1.1 keeps the input (no candidate 1 % faster), and a
# candidate whose output differs (MOCKCUDA_CORRUPT) is never kept.
# Without a driver at all, ptxas's figures decide.  Needs ptxas (77).
# usage: opttime.sh PTXPRESS MOCKLIB TOPDIR
set -u
px=$1 mock=$2 top=$3
command -v ptxas >/dev/null 2>&1 || { echo "no ptxas; skipped"; exit 77; }
in=$top/corpus/fmha_sm90a.ptx l=$top/tests/verify/opttime.launch
k=fmha_fwd_f16_d256_m64_n128
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
run() { # name env... -- expectations
	name=$1; shift
	env PTXPRESS_LIBCUDA="$mock" "$@" "$px" opt "$in" --kernel $k \
		--time "$l" --time-runs 3 --tries 4 -j 2 -o "$tmp/$name.ptx" \
		>"$tmp/$name.log" 2>&1
}
want() { # name text
	grep -qF -- "$2" "$tmp/$1.log" || {
		echo "FAIL $1: missing '$2'"; sed 's/^/  | /' "$tmp/$1.log"
		fail=1; }
}
run fast MOCKCUDA_NEW_MS=0.9
want fast "--time: $k: remat"
want fast "bit-identical, NEW/ORIG 0.9000"
want fast "--time: $k: keeping remat"
cmp -s "$in" "$tmp/fast.ptx" && { echo "FAIL fast: the input was kept"; fail=1; }
run slow MOCKCUDA_NEW_MS=1.1
want slow "NEW/ORIG 1.1000"
want slow "keeping the input (no candidate 1 % faster)"
cmp -s "$in" "$tmp/slow.ptx" || { echo "FAIL slow: the output is not the input"; fail=1; }
run wrong MOCKCUDA_NEW_MS=0.9 MOCKCUDA_CORRUPT=1
want wrong "FAILED"
want wrong "keeping the input"
cmp -s "$in" "$tmp/wrong.ptx" || { echo "FAIL wrong: the output is not the input"; fail=1; }
run nodev PTXPRESS_LIBCUDA=/nonexistent/libcuda.so.1
want nodev "--time: no CUDA device"
want nodev "ptxas's figures decide"
# ptxas serializes the wgmmas of Triton's d128_n128 (its C7511 note):
# the first two candidates timed are the best ones it does not
# serialize (wgsplit=pv's), though they spill more than the input.
tri=$top/../shared/corpus/triton/probe_fa_d128_m128_n128_w4_fp16_full_sm90a.ptx
if [ -f "$tri" ]; then
	env PTXPRESS_LIBCUDA="$mock" MOCKCUDA_NEW_MS=0.9 "$px" opt "$tri" \
		--time "$top/tests/verify/opttime-triton.launch" --time-runs 3 \
		-j 2 -o "$tmp/serial.ptx" >"$tmp/serial.log" 2>&1
	two=$(grep -m2 -- "--time: attn_fwd: " "$tmp/serial.log" \
		| grep -c "attn_fwd: wgsplit=pv")
	[ "$two" = 2 ] || { echo "FAIL serial: the first two candidates"
		sed 's/^/  | /' "$tmp/serial.log"; fail=1; }
	# O there is 128 registers, below xspill's floor: xspill=all is
	# offered under --time alone, and timed whatever its figures.
	want serial "--time: attn_fwd: xspill=all: "
	"$px" opt "$tri" --variants --tries 12 -j 2 -o "$tmp/plain.ptx" \
		>"$tmp/plain.log" 2>&1
	grep -q "xspill" "$tmp/plain.log" && { echo "FAIL plain: xspill=all"
		sed 's/^/  | /' "$tmp/plain.log"; fail=1; }
	# xspill=all comes on top of the tries: at the drop-in's 8 it had
	# taken the place of wgsplit=pv,wgwait, the one unserialized
	# variant, which the H100 ran at 0.855 of the input's time
	env PTXPRESS_LIBCUDA="$mock" MOCKCUDA_NEW_MS=0.9 "$px" opt "$tri" \
		--time "$top/tests/verify/opttime-triton.launch" --time-runs 3 \
		--tries 8 --refine 0 --unserialized -j 2 -o "$tmp/eight.ptx" \
		>"$tmp/eight.log" 2>&1
	first=$(grep -m1 -- "--time: attn_fwd: " "$tmp/eight.log")
	case $first in
	*"attn_fwd: wgsplit=pv,wgwait: "*) ;;
	*) echo "FAIL eight: the first candidate"
		sed 's/^/  | /' "$tmp/eight.log"; fail=1 ;;
	esac
	want eight "--time: attn_fwd: xspill=all: "
fi
[ $fail -eq 0 ] && echo "opttime: cases passed"
exit $fail
