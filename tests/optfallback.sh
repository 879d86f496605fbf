#!/bin/sh
# When the validator refuses the search's pick for a kernel, opt takes
# the next variant of that kernel's ranking, not the input: with
# PTXPRESS_UNPROVEN naming the pick (the hook fails its proof), the
# second row of --variants becomes the pick, the report and the output
# say so, and ptxas's figures for the output are that row's, and
# PTXPRESS_REFUSED's file gets the refused rewrite (the pick alone).  With
# every variant worth taking refused, the input is written unchanged.
# Needs ptxas (77).
# usage: optfallback.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
k=fmha_fwd_f16_d256_m64_n128
in=$top/corpus/fmha_sm90a.ptx
run() {         # run LOG OUT [ENV...]
	log=$1 out=$2; shift 2
	env "$@" "$px" opt "$in" --kernel $k --tries 6 -j 2 --variants \
		-o "$out" >"$log" 2>&1 || { cat "$log"; exit 1; }
}
run "$tmp/log1" "$tmp/o1.ptx"
# the ranking: rows of --variants with less spill than the input
rows=$(awk '$6 == "(the" { exit } $1 ~ /^[0-9]+$/ && NF == 6 { print $6 "/" $2 }' "$tmp/log1")
first=$(echo "$rows" | sed -n 1p) second=$(echo "$rows" | sed -n 2p)
p1=${first%/*} p2=${second%/*} s2=${second#*/}
[ -n "$p1" ] && [ -n "$p2" ] || { echo "FAIL: fewer than two variants spill less"; cat "$tmp/log1"; exit 1; }
grep -q "^$k .* $p1\$" "$tmp/log1" || { echo "FAIL: $p1 is not the pick"; cat "$tmp/log1"; exit 1; }
run "$tmp/log2" "$tmp/o2.ptx" PTXPRESS_UNPROVEN="$p1" \
	PTXPRESS_REFUSED="$tmp/refused.ptx"
bad=0
# the last rewrite refused: the pick alone, what the first run wrote
cmp -s "$tmp/o1.ptx" "$tmp/refused.ptx" || { echo "FAIL: PTXPRESS_REFUSED did not get $p1's rewrite"; bad=1; }
grep -q "note: $k: $p1 is not proven" "$tmp/log2" || { echo "FAIL: no note that $p1 is not proven"; bad=1; }
grep -q "note: $k: taking $p2 instead" "$tmp/log2" || { echo "FAIL: no note taking $p2"; bad=1; }
grep -q "^$k .* $p2\$" "$tmp/log2" || { echo "FAIL: the report does not name $p2"; bad=1; }
cmp -s "$in" "$tmp/o2.ptx" && { echo "FAIL: the input was kept"; bad=1; }
sp=$(ptxas -arch=sm_90a -v "$tmp/o2.ptx" -o /dev/null 2>&1 | awk -v k=$k '
	/Compiling entry function/ { on = index($0, "'"'"'" k "'"'"'") > 0 }
	on && /spill stores/ { print $5 + $9; exit }')
[ "$sp" = "$s2" ] || { echo "FAIL: ptxas says $sp spill bytes, $p2 had $s2"; bad=1; }
[ $bad = 0 ] || { sed 's/^/  | /' "$tmp/log2"; exit 1; }
# every variant that spills less refused: the input, byte for byte
all=$(echo "$rows" | sed 's|/[0-9]*$||' | paste -sd';' -)
run "$tmp/log3" "$tmp/o3.ptx" PTXPRESS_UNPROVEN="$all"
cmp -s "$in" "$tmp/o3.ptx" || { echo "FAIL: all refused, yet the input was not kept"; bad=1; }
grep -q "note: $k: taking the input instead" "$tmp/log3" || { echo "FAIL: no note taking the input"; bad=1; }
b=$(awk -v k=$k '$1 == k && NF == 5 { split($3, s, "->"); print s[1] }' "$tmp/log1")
grep -q "^$k .* $b->$b .* none\$" "$tmp/log3" || { echo "FAIL: the report does not say none"; bad=1; }
[ $bad = 0 ] || { sed 's/^/  | /' "$tmp/log3"; exit 1; }
echo "optfallback: cases passed"
