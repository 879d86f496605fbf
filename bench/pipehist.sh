#!/bin/sh
# Spill bytes (stores + loads, ptxas -v on the file's .target) of fixed
# pipelines, forced with `opt --no-search -p`, from two ptxpress binaries
# side by side: a pass change that costs a kernel under one pipeline
# can stay hidden while the search picks another variant (FA4's forward
# kernel under remat,sched=td, 0 -> 268 bytes, went unseen for sixteen
# sessions behind `budget`).  Kernels that do not spill are skipped.
# usage: bench/pipehist.sh OLDBIN NEWBIN FILE...   (PIPES="p1 p2 ..." to
#        choose; default remat,sched=bu remat,sched=td sched=bu remat)
set -u
[ $# -ge 3 ] || { sed -n '2,10s/^# \{0,1\}//p' "$0" >&2; exit 2; }
old=$1 new=$2; shift 2
pipes=${PIPES:-"remat,sched=bu remat,sched=td sched=bu remat"}
ptxas=${PTXAS:-ptxas}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# spill FILE: stores + loads of every function, the version lowered to
# what this ptxas reads and trailing NULs stripped first
spill() {
	"$new" emit --ptx-version auto --strip-nul "$1" -o "$tmp/in.ptx" \
		2>/dev/null || { echo ERR; return; }
	t=$(sed -n 's/^\.target[ \t]*\([a-z0-9_]*\).*/\1/p' "$tmp/in.ptx" | head -1)
	"$ptxas" -arch "$t" -v "$tmp/in.ptx" -o /dev/null 2>&1 |
		awk '/spill stores/ { s += $5 + $9 } END { print s + 0 }'
}
forced() { # BIN PIPE FILE
	"$1" opt --no-search -p "$2" "$3" -o "$tmp/o.ptx" >/dev/null 2>&1 &&
		spill "$tmp/o.ptx" || echo ERR
}
echo "| file | pipeline | input | old | new |"
echo "|---|---|--:|--:|--:|"
for f in "$@"; do
	in=$(spill "$f")
	[ "$in" = 0 ] && continue
	for p in $pipes; do
		echo "| $(basename "$f") | $p | $in | $(forced "$old" "$p" "$f") | $(forced "$new" "$p" "$f") |"
	done
done
