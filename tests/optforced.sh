#!/bin/sh
# The pipelines the H200 ran forced on our FMHA kernels (bench/RESULTS.md,
# seventh session): before locfix five of them gave PTX that the driver's
# JIT and ptxas rejected (an inlined .loc carried above the .loc of its
# call site).  Each must now be proven and assemble.  Needs ptxas (77).
# usage: optforced.sh PTXPRESS PTXASV TOPDIR
set -u
px=$1 pv=$2 top=$3
. "$top/tests/needptxas.sh"
in=$top/corpus/fmha_sm90a.ptx
fail=0
for ps in mix@4 wgsplit,remat=loop,sched=bu-rand@1 \
	wgsplit,remat=loop,sched=bu-rand@2 remat=loop,sched=td-rand,sink@3 \
	remat,moves,softmax=4,sched=bu-rand@5 remat=roles,softmax=2,sched=td-rand@6; do
	p=${ps%@*} s=${ps#*@}
	"$px" opt "$in" --no-search -p "$p" --seed "$s" -o "$tmp/o.ptx" \
		2>"$tmp/err" || { echo "FAIL $ps: opt"; cat "$tmp/err"; fail=1; continue; }
	if grep -q "not proven" "$tmp/err"; then
		echo "FAIL $ps: $(grep -m1 'not proven' "$tmp/err")"; fail=1
	elif cmp -s "$in" "$tmp/o.ptx"; then
		echo "FAIL $ps: nothing rewritten"; fail=1
	elif ! "$pv" "$tmp/o.ptx" >/dev/null 2>"$tmp/err"; then
		echo "FAIL $ps: ptxas rejects it: $(grep -m1 error "$tmp/err")"; fail=1
	fi
done
[ $fail -eq 0 ] && echo "optforced: cases passed"
exit $fail
