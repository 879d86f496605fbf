#!/bin/sh
# The refining round: for a kernel that still spills after the first
# round, --refine N adds N perturbations of its pick (the pick's
# pipeline with ',mix' after it, or with its scheduler made noisy),
# assembled and ranked with the rest.  On our spilling d256 kernel:
# --variants lists tries + N (+ 2) rows; every extra row's pipeline is
# the first round's pick, perturbed or with softmax after it; the pick is no worse than with
# --refine 0; the output is proven; and a kernel that does not spill
# is not refined (no extra rows).  Needs ptxas (77).
# usage: optrefine.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
k=fmha_fwd_f16_d256_m64_n128
# our d256 kernel, held to 192 registers so that it still spills
in=$tmp/in.ptx
sh "$top/tests/d256cap.sh" "$top" "$in" || exit 1
fail=0
no() { echo "FAIL $1"; shift; for f; do sed 's/^/  | /' "$f"; done; fail=1; }
run() {         # LOG OUT KERNEL REFINE
	"$px" opt "$in" --kernel "$3" --tries 6 --refine "$4" -j 2 --variants \
		-o "$2" >"$1" 2>&1 || no "opt --refine $4" "$1"
}
rows() { awk '/variants ptxas took/ { n = $2 } END { print n }' "$1"; }
pick() { awk -v k="$2" '$1 == k && NF == 5 { print $5 }' "$1"; }
spill() { awk -v k="$2" '$1 == k && NF == 5 { split($3, s, "->"); print s[2] }' "$1"; }

run "$tmp/r0.log" "$tmp/r0.ptx" $k 0
run "$tmp/r4.log" "$tmp/r4.ptx" $k 4
[ "$(rows "$tmp/r0.log")" = 6 ] || no "--refine 0: not 6 rows" "$tmp/r0.log"
p0=$(pick "$tmp/r0.log" $k) s0=$(spill "$tmp/r0.log" $k) s4=$(spill "$tmp/r4.log" $k)
base=${p0%%@*} seed=${p0#"${p0%%@*}"} want=12
case $base in *softmax*) want=10 ;; esac
[ "$(rows "$tmp/r4.log")" = $want ] || no "--refine 4: not $want rows" "$tmp/r4.log"
case $base in *softmax*) ;; *)
	for F in 4 2; do
		awk -v p="$base,softmax=$F$seed" '$6 == p { f = 1 } END { exit !f }' \
			"$tmp/r4.log" || no "no row '$base,softmax=$F$seed'" "$tmp/r4.log"
	done ;;
esac
[ "$s0" -gt 0 ] || no "the kernel no longer spills after the first round" "$tmp/r0.log"
[ "$s4" -le "$s0" ] || no "refined pick spills $s4 > $s0" "$tmp/r4.log"
# the extra rows: the first round's pick, perturbed (seeds 1500003 on;
# the first round's are 1000003 on)
sched=$(echo "$base" | sed -n 's/.*\(sched=[bt][ud]\).*/\1/p')
awk '$1 ~ /^[0-9]+$/ && $6 ~ /@[0-9]+$/ { s = $6; sub(/.*@/, "", s)
	if (s + 0 >= 1500003) print $6 }' "$tmp/r4.log" >"$tmp/extra"
[ "$(wc -l <"$tmp/extra")" = 4 ] || no "not 4 refined rows" "$tmp/r4.log"
while read -r p; do
	q=${p%@*}
	[ "$q" = "$base,mix" ] && continue
	[ -n "$sched" ] && [ "$q" = "$(echo "$base" | sed "s/$sched/$sched-rand/")" ] && continue
	no "refined row '$p' is no perturbation of '$base'" "$tmp/r4.log"
done <"$tmp/extra"
"$px" validate "$in" "$tmp/r4.ptx" >"$tmp/val.log" 2>&1 || no "not proven" "$tmp/val.log"
# a kernel that does not spill: no refining round
run "$tmp/n.log" "$tmp/n.ptx" fmha_fwd_f16_d64_m64_n64 4
[ "$(rows "$tmp/n.log")" = 6 ] || no "a spill-free kernel was refined" "$tmp/n.log"
[ $fail -eq 0 ] && echo "optrefine: cases passed"
exit $fail
