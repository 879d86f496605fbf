#!/bin/sh
# The budget round (src/budround.c): a warp-specialized kernel that
# still spills after the search has its setmaxnreg counts judged by
# ptxas.  On tests/opt/wsbudround.ptx the consumers spill 32 bytes at
# 232 and none at 240; the producer gives 16 (40 -> 24) so that 240
# fits the 64,512 registers of 384 threads.  --tries 2 keeps the
# search's own budget variants out, so what changes is the round's.
# The probe 40/240 spills no more, but does not fit (66,560): it must
# not be what is written.  With --refine 0 there is no round, nor with
# --refine 1 (a short search: one step from 2).  Needs ptxas (77).
# usage: optbudround.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
. "$top/tests/budtook.sh"
in=$top/tests/opt/wsbudround.ptx
bad=0
"$px" opt "$in" --tries 2 --refine 2 -j 2 -o "$tmp/o1.ptx" >"$tmp/log1" 2>&1 \
	|| { cat "$tmp/log1"; exit 1; }
budtook "$tmp/log1" "$tmp/o1.ptx" "$in" "32->0 .*none,budget=24/240$" 24 240
"$px" opt "$in" --tries 2 --refine 2 -j 1 -o "$tmp/o2.ptx" >"$tmp/log2" 2>&1
cmp -s "$tmp/o1.ptx" "$tmp/o2.ptx" || { echo "FAIL: -j 1 writes another output"; bad=1; }
for r in 0 1; do
	"$px" opt "$in" --tries 2 --refine $r -j 2 -o "$tmp/o3.ptx" >"$tmp/log3" 2>&1
	grep -q "budget=" "$tmp/log3" && { echo "FAIL: a budget round with --refine $r"; bad=1; }
	cmp -s "$in" "$tmp/o3.ptx" || { echo "FAIL: --refine $r rewrote the kernel"; bad=1; }
done
[ $bad = 0 ] || { for l in 1 2 3; do sed "s/^/  $l| /" "$tmp/log$l"; done; exit 1; }
echo "optbudround: cases passed"
