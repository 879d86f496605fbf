#!/bin/sh
# The budget round from the runner-up (src/budround.c, from a refining
# round of 4): counts that help one order of a kernel need not help
# another (CUTLASS 77's MLA forward #16: its pick kept 16 bytes at any
# counts, its runner-up reached 0).  A stand-in ptxas plays that on
# tests/opt/wsbudround.ptx (producer 40, consumers 232, a full pool):
# it runs the real one and reports the spill by the kernel's text, its
# instruction lines with the setmaxnreg lines left out: the input 32
# bytes at any counts; remat=roles's order (the pick) 24 at any counts;
# remat,sched=bu's (remat,sched=td and remat=bcast,sched=bu write the
# same: the runner-up) 28, and none at 48/224 (4 x 48 + 8 x 224 of
# 2,016 warp registers); any other text 40, worse than the input, so
# that no other variant is ranked.  The round from the pick finds
# nothing; from the runner-up it finds 48/224, which wins.
# usage: optbudrunner.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
. "$top/tests/budtook.sh"
real=$(command -v ptxas)
in=$top/tests/opt/wsbudround.ptx
key() { grep ';' "$1" | grep -v setmaxnreg | tr -d ' \t' | cksum | cut -d' ' -f1; }
"$px" opt "$in" -p remat=roles --no-search -o "$tmp/pick.ptx" 2>/dev/null
"$px" opt "$in" -p remat,sched=bu --no-search -o "$tmp/second.ptx" 2>/dev/null
kin=$(key "$in") kpick=$(key "$tmp/pick.ptx") ksecond=$(key "$tmp/second.ptx")
[ "$kin" != "$kpick" ] && [ "$kin" != "$ksecond" ] && [ "$kpick" != "$ksecond" ] \
	|| { echo "FAIL: the three orders are not three texts"; exit 1; }
cat >"$tmp/ptxas" <<MOCK
#!/bin/sh
# the stand-in ptxas: the last argument is the PTX
for a; do p=\$a; done
out=\$("$real" "\$@" 2>&1); rc=\$?
w=\$(grep -o 'setmaxnreg[.a-z0-9]*[[:space:]]*[0-9]*' "\$p" 2>/dev/null | grep -o '[0-9]*\$' | tr '\n' '/')
k=\$(grep ';' "\$p" | grep -v setmaxnreg | tr -d ' \t' | cksum | cut -d' ' -f1)
case \$k in
$kin) s=16 ;;
$kpick) s=12 ;;
$ksecond) s=14; [ "\$w" = 48/224/ ] && s=0 ;;
*) s=20 ;;
esac
f="\$((s / 2)) bytes stack frame, \$s bytes spill stores, \$s bytes spill loads"
printf '%s\n' "\$out" | sed "s|[0-9]* bytes stack frame, [0-9]* bytes spill stores, [0-9]* bytes spill loads|\$f|"
exit \$rc
MOCK
chmod +x "$tmp/ptxas"
bad=0
"$px" opt "$in" --tries 6 --refine 4 -j 2 --ptxas "$tmp/ptxas" -o "$tmp/o1.ptx" \
	>"$tmp/log1" 2>&1 || { cat "$tmp/log1"; exit 1; }
budtook "$tmp/log1" "$tmp/o1.ptx" "$in" "32->0 .*budget=48/224$" 48 224
grep -q "32->0 .*remat=roles" "$tmp/log1" \
	&& { echo "FAIL: the counts were put on the pick"; bad=1; }
[ $bad = 0 ] || { sed 's/^/  | /' "$tmp/log1"; exit 1; }
echo "optbudrunner: cases passed"
