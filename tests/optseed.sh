#!/bin/sh
# The refining round's seeds belong to the pick, not to its place among
# the file's picks: a kernel's perturbations are the same whether opt
# sees the whole file or the kernel alone (--kernel).  Until the
# thirty-fifth session the j-th perturbation of the i-th distinct pick
# took seed 1500003 + j * picks + i, so a new pick of one kernel gave
# every other kernel other seeds (example 88's #6 and #32 went 24 -> 44
# and 80 -> 104 bytes when #5 took a new pick).  A stand-in ptxas runs
# the real one and makes up each function's spill from its registers
# (256 less them where the name has bf16), so that the kernels of
# corpus/fmha_sm90a.ptx take two different picks.  Needs ptxas (77).
# usage: optseed.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
in=$top/corpus/fmha_sm90a.ptx
cat >"$tmp/ptxas" <<'EOS'
#!/bin/sh
# ptxas, with each function's spill made up: its registers, or 256
# less them in a function whose name has bf16 (so that kernels differ
# in what they take)
f=$(mktemp) || exit 1
ptxas "$@" 2>"$f"; rc=$?
awk '/Compiling entry/ { up = index($0, "bf16") > 0 }
     /bytes stack frame/ { hold = $0; next }
     /Used [0-9]+ registers/ {
	for (i = 1; i < NF; i++) if ($(i + 1) ~ /^registers/) r = $i
	if (up) r = 256 - r
	if (hold != "") {
		sub(/[0-9]+ bytes spill stores, [0-9]+ bytes spill loads/,
		    r " bytes spill stores, 0 bytes spill loads", hold)
		print hold; hold = ""
	} }
     { print }' "$f" >&2
rm -f "$f"; exit $rc
EOS
chmod +x "$tmp/ptxas"
run() {         # LOG [--kernel K]
	log=$1; shift
	"$px" opt "$in" --ptxas "$tmp/ptxas" --tries 4 --refine 2 -j 2 \
		--variants "$@" -o "$tmp/o.ptx" >"$log" 2>&1 ||
		{ echo "FAIL opt $*"; sed 's/^/  | /' "$log"; exit 1; }
}
# K's rows with a refining seed (1500003 on), sorted
refined() {     # LOG K
	awk -v k="$2" '/variants ptxas took/ { on = $1 == k ":" }
	     on && $NF ~ /@[0-9]+$/ { s = $NF; sub(/.*@/, "", s)
		if (s + 0 >= 1500003) print $NF }' "$1" | sort
}
run "$tmp/all.log"
# the kernels' final picks, one line each: two distinct at least
picks=$(awk '$1 ~ /^fmha/ && NF == 5 && $5 != "none" { p = $5; sub(/@.*/, "", p); print p }' \
	"$tmp/all.log" | sort -u | wc -l)
[ "$picks" -ge 2 ] || { echo "FAIL: one pick for every kernel; the test needs two"; sed 's/^/  | /' "$tmp/all.log"; exit 1; }
fail=0
for k in fmha_fwd_f16_d128_m64_n128 fmha_fwd_bf16_d64_m64_n64; do
	run "$tmp/one.log" --kernel $k
	refined "$tmp/all.log" $k >"$tmp/a"
	refined "$tmp/one.log" $k >"$tmp/b"
	[ -s "$tmp/a" ] || { echo "FAIL $k: no refined rows"; fail=1; continue; }
	[ -s "$tmp/b" ] || { echo "FAIL $k: no refined rows alone"; fail=1; continue; }
	# the file's variants are every pick's, all tried on each kernel:
	# those of K alone must be among them, seeds and all
	comm -13 "$tmp/a" "$tmp/b" >"$tmp/c"
	[ -s "$tmp/c" ] && {
		echo "FAIL $k: perturbations alone that the file run lacks"
		sed 's/^/  | /' "$tmp/c"; fail=1; }
done
[ $fail -eq 0 ] && echo "optseed: cases passed"
exit $fail
