#!/bin/sh
# The search's variants share the input's parse (search.c: shallow),
# which the validator reads afterwards, and so does the assembly of
# their picks (opt.c: assemble); opt checks that both left it as it
# was.  With PTXPRESS_TOUCHSHARED (a write into it, as a pass that
# changed a shared operand would make; =assemble: during the assembly)
# opt says so and searches again on parses of the variants' own: the
# same output and the same report as without the write.  Under PTXPRESS_SNAPCHECK, as
# tests/optcorpus.sh runs, the write is an internal error and no output
# is written.  Without the write there is no note.  Needs ptxas (77).
# usage: optshare.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
in=$top/corpus/fmha_sm90a.ptx
note="a variant changed the input's parse"
anote="a pick changed the input's parse"
bad=0
"$px" opt "$in" --tries 6 -j 2 -o "$tmp/o1.ptx" >"$tmp/log1" 2>&1 \
	|| { cat "$tmp/log1"; exit 1; }
grep -q "$note" "$tmp/log1" && { echo "FAIL: a note without a write"; bad=1; }
cmp -s "$in" "$tmp/o1.ptx" && { echo "FAIL: nothing rewritten: the case shows nothing"; bad=1; }
PTXPRESS_TOUCHSHARED=1 "$px" opt "$in" --tries 6 -j 2 -o "$tmp/o2.ptx" \
	>"$tmp/log2" 2>&1 || { echo "FAIL: exit $? after the write"; bad=1; }
grep -q "$note" "$tmp/log2" || { echo "FAIL: the write went unseen"; bad=1; }
cmp -s "$tmp/o1.ptx" "$tmp/o2.ptx" || { echo "FAIL: another output after the write"; bad=1; }
grep -v "$note" "$tmp/log2" | cmp -s - "$tmp/log1" || { echo "FAIL: another report after the write"; bad=1; }
PTXPRESS_TOUCHSHARED=assemble "$px" opt "$in" --tries 6 -j 2 -o "$tmp/o4.ptx" \
	>"$tmp/log4" 2>&1 || { echo "FAIL: exit $? after the assembly's write"; bad=1; }
grep -q "$anote" "$tmp/log4" || { echo "FAIL: the assembly's write went unseen"; bad=1; }
cmp -s "$tmp/o1.ptx" "$tmp/o4.ptx" || { echo "FAIL: another output after the assembly's write"; bad=1; }
grep -v "$anote" "$tmp/log4" | cmp -s - "$tmp/log1" || { echo "FAIL: another report after the assembly's write"; bad=1; }
PTXPRESS_SNAPCHECK=1 PTXPRESS_TOUCHSHARED=1 "$px" opt "$in" --tries 6 -j 2 \
	-o "$tmp/o3.ptx" >"$tmp/log3" 2>&1 && { echo "FAIL: exit 0 under SNAPCHECK"; bad=1; }
grep -q "internal error: search: a variant wrote into the input's parse" \
	"$tmp/log3" || { echo "FAIL: no internal error under SNAPCHECK"; bad=1; }
[ -e "$tmp/o3.ptx" ] && { echo "FAIL: an output under SNAPCHECK"; bad=1; }
[ $bad = 0 ] || { for l in 1 2 3 4; do sed "s/^/  $l| /" "$tmp/log$l"; done; exit 1; }
echo "optshare: cases passed"
