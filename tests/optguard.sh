#!/bin/sh
# opt --sass-guard with a stand-in nvdisasm: with -j 1 the search
# assembles its input first, so the stand-in gives the first cubin it
# sees 1000 instructions in a loop, 20 of them local memory, and every
# later one what GUARD_MODE says.  worse: 1100 (more work in the loop),
# so the guard must refuse every variant, keep the input and name the
# best variant it refused (a note, and in --report json); near: 1015
# (within 2 %), so it must pick what the search picks without the
# guard; outside: the input's local memory all outside its loop, which
# the guard weighs too, so a longer loop without it is taken; exposed:
# a shorter loop whose stores spill global loads in flight, refused.
# On a kernel that does not spill the stand-in must not run
# at all (the guard disassembles only variants worth taking).  Then: --sass-guard with no
# nvdisasm is an error (exit 2); `pressure` shows the stand-in's
# figures, and none without it.  The drop-in guards by default when it
# finds an nvdisasm: with the stand-in in worse mode its cubin is
# ptxas's of the input, and with PTXPRESS_SASSGUARD=0 it is not.  Needs
# ptxas (77).
# usage: optguard.sh PTXPRESS PTXPRESS-PTXAS TOPDIR
set -u
px=$1 drop=$2 top=$3
. "$top/tests/needptxas.sh"
fail=0
no() { echo "FAIL $1"; shift; for f; do sed 's/^/  | /' "$f"; done; fail=1; }
in=$top/corpus/fmha_sm90a.ptx k=fmha_fwd_f16_d256_m64_n128
cat >"$tmp/nvdisasm" <<'MOCK'
#!/bin/sh
# the stand-in: $1 is -c, $2 the cubin; each call logged
n=1000 l=20 o=0 e=0
[ "$GUARD_MODE" = outside ] && l=0 o=200
if [ -e "$GUARD_DIR/seen" ]; then
	case $GUARD_MODE in worse) n=1100 ;; near) n=1015 ;;
	outside) n=1050 o=0 ;; exposed) n=900 e=2 ;;
	tie) n=$((1000 - $(wc -l <"$GUARD_DIR/calls"))) l=0 ;;
	moreloc) n=950 l=21 ;; esac
fi
: >"$GUARD_DIR/seen"
echo "$2" >>"$GUARD_DIR/calls"
exec sh "$MOCKSASS" $n $l "$2" $o $e
MOCK
chmod +x "$tmp/nvdisasm"
export MOCKSASS=$top/tests/mocksass.sh
export GUARD_DIR=$tmp
opts="--kernel $k --tries 6 --refine 0 -j 1"

"$px" opt "$in" -o "$tmp/plain.ptx" $opts --report json >"$tmp/plain.log" 2>&1 \
	|| no "opt" "$tmp/plain.log"
cmp -s "$in" "$tmp/plain.ptx" && no "the search found nothing to test with" "$tmp/plain.log"
best=$(sed -n 's/.*"pipeline": "\([^"]*\)".*/\1/p' "$tmp/plain.log" | head -1)

rm -f "$tmp/seen"
GUARD_MODE=worse PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/worse.ptx" \
	$opts --sass-guard --variants >"$tmp/worse.log" 2>&1 || no "opt worse" "$tmp/worse.log"
cmp -s "$in" "$tmp/worse.ptx" || no "worse: a variant was taken" "$tmp/worse.log"
grep -q "$k: --sass-guard refused .* its loops hold 1101 SASS instructions, 20 of them local memory, the input's 1001 and 20" \
	"$tmp/worse.log" || no "worse: no note" "$tmp/worse.log"
grep -q "1001/20  (the input)" "$tmp/worse.log" || no "worse: --variants lacks the figures" "$tmp/worse.log"

rm -f "$tmp/seen"
GUARD_MODE=worse PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/worse2.ptx" \
	$opts --sass-guard --report json >"$tmp/worse.json" 2>&1 || no "opt worse json" "$tmp/worse.json"
grep -q '"sass_guard_refused": {"pipeline": "[^"]*", "spill_bytes": [0-9]*, "loop": 1101, "loop_local": 20, "input_loop": 1001, "input_loop_local": 20, "local_outside": 0, "input_local_outside": 0, "loads_spilled_in_flight": 0, "input_loads_spilled_in_flight": 0}' \
	"$tmp/worse.json" || no "worse: json lacks sass_guard_refused" "$tmp/worse.json"

rm -f "$tmp/seen"
GUARD_MODE=near PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/near.ptx" \
	$opts --sass-guard --report json >"$tmp/near.log" 2>&1 || no "opt near" "$tmp/near.log"
cmp -s "$tmp/plain.ptx" "$tmp/near.ptx" || no "near: not the unguarded pick ($best)" "$tmp/near.log"
grep -q "refused" "$tmp/near.log" && no "near: a refusal" "$tmp/near.log"

# outside: the input's 200 local accesses all outside its loop (1000
# instructions), every variant's loop 5 % longer and no local memory:
# 1051 against 1001 + 200, so the guard takes the search's pick
rm -f "$tmp/seen"
GUARD_MODE=outside PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/out.ptx" \
	$opts --sass-guard --report json >"$tmp/out.log" 2>&1 || no "opt outside" "$tmp/out.log"
cmp -s "$tmp/plain.ptx" "$tmp/out.ptx" || no "outside: not the unguarded pick ($best)" "$tmp/out.log"
grep -q "refused" "$tmp/out.log" && no "outside: a refusal" "$tmp/out.log"

# exposed: every variant's loop 10 % shorter, with as much local
# memory, but 2 of its stores spill global loads still in flight
# (512 each: 901 + 320 + 1024 against 1001 + 320), so each is refused
rm -f "$tmp/seen"
GUARD_MODE=exposed PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/exp.ptx" \
	$opts --sass-guard >"$tmp/exp.log" 2>&1 || no "opt exposed" "$tmp/exp.log"
cmp -s "$in" "$tmp/exp.ptx" || no "exposed: a variant was taken" "$tmp/exp.log"
grep -q "its loops hold 901 SASS instructions, 20 of them local memory, the input's 1001 and 20 .*loads spilled in flight: 2, the input's 0" \
	"$tmp/exp.log" || no "exposed: no note" "$tmp/exp.log"

# tie: each cubin after the input's one instruction shorter than the
# one before, so variants the search assembles later have cheaper
# loops; among variants with the same spill, stack and registers the
# cheaper loops must rank first (--variants lists them in the search's
# order, the pick first).  The search's own order had put them the
# other way round.
rm -f "$tmp/seen" "$tmp/calls"
GUARD_MODE=tie PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/tie.ptx" \
	$opts --sass-guard --variants >"$tmp/tie.log" 2>&1 || no "opt tie" "$tmp/tie.log"
awk '/^ +[0-9]+ +[0-9]+ +[0-9]+ +[-a-z]+ +[0-9]+\/[0-9]+  [^(]/ {
	split($5, l, "/"); k = $1 " " $2 " " $3
	if (k == pk) { ties++; if (l[1] + 0 < pl) bad++ }
	pk = k; pl = l[1] + 0 }
	END { print ties + 0, bad + 0 }' "$tmp/tie.log" >"$tmp/tie.n"
read ties bad <"$tmp/tie.n"
[ "$ties" -ge 1 ] || no "tie: no two variants tie (nothing tested)" "$tmp/tie.log"
[ "$bad" -eq 0 ] || no "tie: a variant with costlier loops ranks first" "$tmp/tie.log"

# moreloc: every variant's loop 50 instructions shorter but with 21
# local-memory accesses against the input's 20: 950 + 336 against
# 1000 + 320 is cheaper, yet more spill traffic in the loop, so each is
# refused and the input kept
rm -f "$tmp/seen"
GUARD_MODE=moreloc PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/ml.ptx" \
	$opts --sass-guard >"$tmp/ml.log" 2>&1 || no "opt moreloc" "$tmp/ml.log"
cmp -s "$in" "$tmp/ml.ptx" || no "moreloc: a variant was taken" "$tmp/ml.log"
grep -q "its loops hold 951 SASS instructions, 21 of them local memory, the input's 1001 and 20" \
	"$tmp/ml.log" || no "moreloc: no note" "$tmp/ml.log"

# a kernel that does not spill: no variant is worth taking, so the
# guard has nothing to refuse and no cubin is disassembled
rm -f "$tmp/seen" "$tmp/calls"
GUARD_MODE=worse PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/lazy.ptx" \
	--kernel fmha_fwd_f16_d128_m64_n64 --tries 6 --refine 0 -j 2 --sass-guard \
	>"$tmp/lazy.log" 2>&1 || no "opt lazy" "$tmp/lazy.log"
[ -e "$tmp/calls" ] && no "lazy: nvdisasm ran on a kernel that does not spill" \
	"$tmp/lazy.log" "$tmp/calls"
cmp -s "$in" "$tmp/lazy.ptx" || no "lazy: a rewrite of a kernel that does not spill" "$tmp/lazy.log"
# and on the spilling one (worse mode above), only on cubins of
# variants worth taking, each once
rm -f "$tmp/seen" "$tmp/calls"
GUARD_MODE=worse PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/worse3.ptx" \
	$opts --sass-guard >"$tmp/worse3.log" 2>&1 || no "opt worse 3" "$tmp/worse3.log"
[ "$(sort "$tmp/calls" | uniq -d)" = "" ] || no "a cubin disassembled twice" "$tmp/calls"
[ "$(wc -l <"$tmp/calls")" -ge 2 ] || no "worse: the guard asked nvdisasm of fewer than two cubins" "$tmp/calls"

# no nvdisasm anywhere: not beside this ptxas, not on PATH
mkdir "$tmp/bin" && ln -s "$(command -v ptxas)" "$tmp/bin/ptxas"
PTXPRESS_NVDISASM= PATH=/nonexistent "$px" opt "$in" -o "$tmp/x.ptx" \
	--ptxas "$tmp/bin/ptxas" --sass-guard >"$tmp/none.log" 2>&1
rc=$?
[ $rc -eq 2 ] || no "no nvdisasm: exit $rc, not 2" "$tmp/none.log"
grep -q "needs nvdisasm" "$tmp/none.log" || no "no nvdisasm: no message" "$tmp/none.log"
[ -e "$tmp/x.ptx" ] && no "no nvdisasm: output written"

# pressure shows the loops' figures with an nvdisasm, and not without
rm -f "$tmp/seen"
PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" pressure "$in" >"$tmp/pr.txt" 2>&1
grep -q "SASS (nvdisasm): 1001 instructions in loops, 20 of them local memory; 0 local memory outside loops; 0 loads spilled in flight" \
	"$tmp/pr.txt" || no "pressure: no SASS line" "$tmp/pr.txt"
rm -f "$tmp/seen"
GUARD_MODE=outside PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" pressure "$in" >"$tmp/pro.txt" 2>&1
grep -q "SASS (nvdisasm): 1001 instructions in loops, 0 of them local memory; 200 local memory outside loops" \
	"$tmp/pro.txt" || no "pressure: no outside figure" "$tmp/pro.txt"
rm -f "$tmp/seen"
PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" pressure --json "$in" >"$tmp/pr.json" 2>&1
grep -q '"sass_loop": 1001, "sass_loop_local": 20, "sass_local_outside": 0, "sass_loads_spilled_in_flight": 0}' "$tmp/pr.json" \
	|| no "pressure --json: no sass_loop" "$tmp/pr.json"
PTXPRESS_NVDISASM= PTXPRESS_PTXAS=$tmp/bin/ptxas PATH=/nonexistent "$px" pressure "$in" \
	>"$tmp/pr0.txt" 2>&1
grep -q "SASS (nvdisasm)" "$tmp/pr0.txt" && no "pressure: SASS line without nvdisasm" "$tmp/pr0.txt"
grep -q "^  ptxas: " "$tmp/pr0.txt" || no "pressure without nvdisasm: ptxas did not run" "$tmp/pr0.txt"

# the drop-in
ptxas --gpu-name=sm_90a "$in" -o "$tmp/ref.o" || no "ptxas"
for g in 1 0; do
	rm -f "$tmp/seen"
	env PTXPRESS_SASSGUARD=$g GUARD_MODE=worse PTXPRESS_NVDISASM=$tmp/nvdisasm \
		PTXPRESS_TRIES=4 PTXPRESS_CACHE_DIR=off PTXPRESS_PTXAS="$(command -v ptxas)" \
		"$drop" --gpu-name=sm_90a "$in" -o "$tmp/d$g.o" >"$tmp/d$g.log" 2>&1 \
		|| no "drop-in $g" "$tmp/d$g.log"
done
cmp -s "$tmp/ref.o" "$tmp/d1.o" || no "drop-in: the guard let a rewrite through" "$tmp/d1.log"
cmp -s "$tmp/ref.o" "$tmp/d0.o" && no "drop-in PTXPRESS_SASSGUARD=0: no rewrite" "$tmp/d0.log"
[ $fail -eq 0 ] && echo "optguard: cases passed"
exit $fail
