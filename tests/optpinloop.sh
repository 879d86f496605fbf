#!/bin/sh
# pin=loop in the search: only with --sass-guard, and taken only where
# its SASS loops hold no more work than those of the pick it extends.
# A stand-in ptxas runs the real one but reports no spill for a
# variant with pin=loop's pins (a %tid.x read, then a pin), so that
# such a variant would win on spill; a stand-in nvdisasm gives the
# input 1000 instructions in a loop, 20 of them local memory, a
# pin=loop variant 950 (GUARD_MODE=gain), 1200 (loss: more than the
# pick it extends, yet under the input's 1320 of cost) or 1010 (more:
# within the 2 % loopier() allows, but pins that add instructions to
# the loops of the pick they extend are refused all the same), every
# other variant 1000.  Without --sass-guard no pin=loop variant is
# tried; with it, gain takes one and loss and more do not, with
# --refine 0 too.  Needs ptxas (77).
# usage: optpinloop.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
real=$(command -v ptxas) || { echo "no ptxas; skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL $1"; shift; for f; do sed 's/^/  | /' "$f"; done; fail=1; }
# our d256 kernel, held to 192 registers so that it still spills
k=fmha_fwd_f16_d256_m64_n128 in=$tmp/in.ptx
sh "$top/tests/d256cap.sh" "$top" "$in" || exit 1
cat >"$tmp/ptxas" <<MOCK
#!/bin/sh
# the stand-in ptxas: the last argument is the PTX
for a; do p=\$a; done
out=\$("$real" "\$@" 2>&1); rc=\$?
if [ -f "\$p" ] && grep -A1 '%tid.x;' "\$p" | grep -q 'mov.u32 %pxp0, %laneid;'; then
	out=\$(printf '%s\n' "\$out" | sed 's/[0-9]* bytes stack frame, [0-9]* bytes spill stores, [0-9]* bytes spill loads/0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads/')
fi
printf '%s\n' "\$out"
exit \$rc
MOCK
cat >"$tmp/nvdisasm" <<'MOCK'
#!/bin/sh
# the stand-in nvdisasm: $1 is -c, $2 the cubin, beside its PTX
p=${2%.cubin}.ptx n=1000 l=0
case $(basename "$2") in v0.cubin) l=20 ;; esac
if grep -A1 '%tid.x;' "$p" | grep -q 'mov.u32 %pxp0, %laneid;'; then
	case $GUARD_MODE in gain) n=950 ;; loss) n=1200 ;; more) n=1010 ;; esac
fi
exec sh "$MOCKSASS" $n $l "$2"
MOCK
chmod +x "$tmp/ptxas" "$tmp/nvdisasm"
export MOCKSASS=$top/tests/mocksass.sh
opts="--kernel $k --tries 6 --refine 2 -j 2 --ptxas $tmp/ptxas --variants --report json"

PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/plain.ptx" $opts \
	>"$tmp/plain.log" 2>&1 || no "opt" "$tmp/plain.log"
grep -q 'pin=loop' "$tmp/plain.log" && no "without --sass-guard: pin=loop tried" "$tmp/plain.log"
grep -q '"pipeline": "remat' "$tmp/plain.log" \
	|| no "the pick has no remat: nothing for pin=loop to extend" "$tmp/plain.log"

for m in gain loss more; do
	GUARD_MODE=$m PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/$m.ptx" \
		$opts --sass-guard >"$tmp/$m.log" 2>&1 || no "opt $m" "$tmp/$m.log"
	grep -q '^ *192 *0 *0 .* [0-9]*/0  .*,pin=loop' "$tmp/$m.log" \
		|| no "$m: no spill-free pin=loop variant listed" "$tmp/$m.log"
	"$px" validate "$in" "$tmp/$m.ptx" >/dev/null 2>&1 || no "$m: output not proven"
done
pick='"name": "[^"]*", "pipeline": "'
grep -q "$pick[^\"]*pin=loop" "$tmp/gain.log" || no "gain: pin=loop not taken" "$tmp/gain.log"
grep -q "$pick[^\"]*pin=loop" "$tmp/loss.log" && no "loss: pin=loop taken" "$tmp/loss.log"
grep -q "$pick"remat "$tmp/loss.log" || no "loss: its pick is not the plain search's kind" "$tmp/loss.log"
grep -q '"sass_guard_refused": {"pipeline": "[^"]*pin=loop", "spill_bytes": 0, "loop": 1201' \
	"$tmp/loss.log" || no "loss: the refusal not named" "$tmp/loss.log"
grep -q "$pick[^\"]*pin=loop" "$tmp/more.log" && no "more: pin=loop taken" "$tmp/more.log"
grep -q '"sass_guard_refused": {"pipeline": "[^"]*pin=loop", "spill_bytes": 0, "loop": 1011.*"sass_guard_parent": {"pipeline": "remat[^"]*", "loop": 1001, "loop_local": 0}' \
	"$tmp/more.log" || no "more: the refusal and the pick it extends not named" "$tmp/more.log"
# the drop-in's default, no refining round: the guard's candidates come
# all the same (before, --refine 0 tried none)
GUARD_MODE=gain PTXPRESS_NVDISASM=$tmp/nvdisasm "$px" opt "$in" -o "$tmp/r0.ptx" \
	$opts --refine 0 --sass-guard >"$tmp/r0.log" 2>&1 || no "opt refine 0" "$tmp/r0.log"
grep -q "$pick[^\"]*pin=loop" "$tmp/r0.log" || no "refine 0: pin=loop not taken" "$tmp/r0.log"
grep -q 'mix\|-rand\|softmax=' "$tmp/r0.log" && no "refine 0: a refinement tried" "$tmp/r0.log"
[ $fail -eq 0 ] && echo "optpinloop: cases passed"
exit $fail
