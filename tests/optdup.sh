#!/bin/sh
# The refining round's pin=dup:K variants (src/search.c, dupvariants):
# each pick that still spills gets pin=dup:K after it for K = 1 to the
# most loops of a function with such pins, and no further; a pick kept
# for its stack frame alone gets none.  Then the combining round
# (combos): where a perturbation of the pick and a pass added after it
# each spill less than the pick, both together are tried, and none
# where no perturbation spills less.  Real kernels that need these are
# CUTLASS's (minutes of ptxas), so a stand-in ptxas runs the real one
# and makes up the spill on tests/opt/pin-dup-loop.ptx (two loops with
# pins): 16 bytes for the input itself, else SPILL, 4 less with a pin
# (a statement naming %pxp), and with PERT set 2 less where the order, pins aside, is not
# that of the first round's pick (PICK).  From a7b09dd to 6a25cce opt
# tried pin=dup:1 alone (bench/RESULTS.md, thirty-third session); this
# catches that.  Needs ptxas (77).
# usage: optdup.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
in=$top/tests/opt/pin-dup-loop.ptx
cat >"$tmp/ptxas" <<'EOS'
#!/bin/sh
# ptxas, with each function's spill (and stack frame) made up
f=$(mktemp) || exit 1
ptxas "$@" 2>"$f"; rc=$?
s=$FAKE_SPILL
for a; do
	case $a in *.ptx) ;; *) continue;; esac
	if cmp -s "$a" "$FAKE_ORIG"; then s=16; continue; fi
	# a pin's lines, not the test's comments that show them
	grep -q '^[[:space:]]*[.a-z].*%pxp' "$a" && s=$((s - 4))
	[ -n "${FAKE_PERT:-}" ] &&
		! grep -v '^[[:space:]]*[.a-z].*%pxp' "$a" | cmp -s - "$FAKE_PICK" &&
		s=$((s - 2))
done
sed "s/ 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads/ 16 bytes stack frame, $s bytes spill stores, $s bytes spill loads/" "$f" >&2
rm -f "$f"; exit $rc
EOS
chmod +x "$tmp/ptxas"
fail=0
no() { echo "FAIL $1"; sed 's/^/  | /' "$2"; fail=1; }
"$px" opt "$in" --no-search -p remat,sched=bu -o "$tmp/pick.ptx" 2>/dev/null ||
	{ echo "FAIL opt -p remat,sched=bu"; exit 1; }
run() {         # LOG SPILL [PERT]
	FAKE_ORIG=$in FAKE_SPILL=$2 FAKE_PICK=$tmp/pick.ptx FAKE_PERT=${3:-} \
		"$px" opt "$in" --ptxas "$tmp/ptxas" \
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
# The pick's perturbations stay at 12 bytes, so nothing to combine.
grep -q ',pin=dup:[0-9]@' "$tmp/s.log" && no "combined with no perturbation better" "$tmp/s.log"
# They spill less (10), pin=dup:K after the pick too (8): each of the
# two best perturbations with pin=dup:1 and :2, the pick one of them.
run "$tmp/c.log" 12 pert
n=$(grep -c '^ *[0-9].*,pin=dup:[12]@[0-9]*$' "$tmp/c.log")
[ "$n" = 4 ] || no "$n combined variants, not 4" "$tmp/c.log"
awk '$1 == "loops" && NF == 5 { print $3, $5 }' "$tmp/c.log" | grep -q '^32->12 .*,pin=dup:[12]@[0-9]*$' ||
	no "the pick is not a combined one at 6 + 6 bytes" "$tmp/c.log"
grep -q 'not proven\|refus' "$tmp/c.log" && no "a combined pick not proven" "$tmp/c.log"
[ $fail -eq 0 ] && echo "optdup: cases passed"
exit $fail
