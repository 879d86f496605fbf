#!/bin/sh
# The refining round's pin=dup:K variants (src/search.c, dupvariants):
# each pick that still spills gets pin=dup:K after it for K = 1 to the
# most loops of a function with such pins, and no further; a pick kept
# for its stack frame alone gets none.  Real kernels that need K >= 2
# are CUTLASS's (minutes of ptxas), so a stand-in ptxas runs the real
# one and reports the spill the case needs: tests/opt/pin-dup-loop.ptx
# (two loops with pins) at 16 bytes for the input itself, SPILL for
# every rewrite.  From a7b09dd to 6a25cce opt tried pin=dup:1 alone
# (bench/RESULTS.md, thirty-third session); this catches that.
# Needs ptxas (77).
# usage: optdup.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
command -v ptxas >/dev/null 2>&1 || { echo "no ptxas; skipped"; exit 77; }
in=$top/tests/opt/pin-dup-loop.ptx
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/ptxas" <<'EOS'
#!/bin/sh
# ptxas, with each function's spill (and stack frame) made up: 16 bytes
# for the file $FAKE_ORIG, $FAKE_SPILL bytes for any other
f=$(mktemp) || exit 1
ptxas "$@" 2>"$f"; rc=$?
s=$FAKE_SPILL
for a; do case $a in *.ptx) cmp -s "$a" "$FAKE_ORIG" && s=16;; esac; done
sed "s/ 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads/ 16 bytes stack frame, $s bytes spill stores, $s bytes spill loads/" "$f" >&2
rm -f "$f"; exit $rc
EOS
chmod +x "$tmp/ptxas"
fail=0
no() { echo "FAIL $1"; sed 's/^/  | /' "$2"; fail=1; }
run() {         # LOG SPILL
	FAKE_ORIG=$in FAKE_SPILL=$2 "$px" opt "$in" --ptxas "$tmp/ptxas" \
		--tries 2 --refine 2 -j 2 --variants -o "$tmp/o.ptx" >"$1" 2>&1 ||
		no "opt (spill $2)" "$1"
}
run "$tmp/s.log" 8
grep -q ',pin=dup:1$' "$tmp/s.log" || no "pin=dup:1 not tried" "$tmp/s.log"
grep -q ',pin=dup:2$' "$tmp/s.log" || no "pin=dup:2 not tried" "$tmp/s.log"
grep -q 'pin=dup:3' "$tmp/s.log" && no "pin=dup:3 tried: the file has two such loops" "$tmp/s.log"
grep -q 'mix@\|-rand@' "$tmp/s.log" || no "no refining round" "$tmp/s.log"
run "$tmp/z.log" 0
grep -q 'mix@\|-rand@' "$tmp/z.log" || no "no refining round for a stack frame" "$tmp/z.log"
grep -q 'pin=dup' "$tmp/z.log" && no "pin=dup tried on a pick that does not spill" "$tmp/z.log"
[ $fail -eq 0 ] && echo "optdup: cases passed"
exit $fail
