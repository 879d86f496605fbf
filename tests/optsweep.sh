#!/bin/sh
# Every pass forced over a corpus: opt must finish and the validator
# must prove each output (a rewrite it refused would leave a "not
# proven" note and the input).  The passes and the validator are
# written apart; this is where they meet real code.  With PTXASV (the
# build's ptxasv) and a ptxas, every output whose input ptxas takes
# must assemble too: forced pipelines skip the search's ptxas runs, and
# the H200 found forced outputs ptxas rejected (.loc order, a scope's
# register copied out of its scope; seventh session).
# usage: [PTXASV=ptxasv] optsweep.sh PTXPRESS DIR...   exit 77 when no DIR
set -u
px=$1; shift
# the pin passes of one pipeline add to each other's pins (a file with
# pins of its own gets none): pin=ld gets a pipeline of its own, with
# pin=loop and schedulers after its pins
pipes="wgsplit=pv,wgwait,remat=roles,remat=bcast,remat=loop,remat,moves,softmax=4,sched=td,sink,budget,sched=bu-rand,early,pin,tsink,hoist,tsink=far,pin=cvt,pin=loop,pin=st,pin=base,pin=dup
remat=loop,softmax=4,pin=ld,pin=loop,pin=loopall,sched=bu-rand,moves,sched=td
xspill=all,remat,sched=bu-rand,moves,wgwait"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 bad=0 dirs=0 asm=0
for d in "$@"; do [ -d "$d" ] && dirs=$((dirs + 1)); done
[ "$dirs" -gt 0 ] || { echo "optsweep: no corpus folder; skipped"; exit 77; }
for f in $(for d in "$@"; do [ -d "$d" ] && find "$d" -name '*.ptx'; done | sort); do
	"$px" check -q "$f" 2>/dev/null || continue
	for pipe in $pipes; do
		n=$((n + 1))
		if ! "$px" opt --no-search -p "$pipe" "$f" -o "$tmp/o.ptx" \
			2>"$tmp/err"; then
			echo "FAIL $f: opt: $(head -1 "$tmp/err")"; bad=$((bad + 1))
		elif grep -q "not proven" "$tmp/err"; then
			echo "FAIL $f: $(grep -m1 'not proven' "$tmp/err")"
			bad=$((bad + 1))
		elif [ -n "${PTXASV:-}" ] && "$PTXASV" "$f" >/dev/null 2>&1; then
			asm=$((asm + 1))
			if ! "$PTXASV" "$tmp/o.ptx" >/dev/null 2>"$tmp/err"; then
				echo "FAIL $f: ptxas rejects the output:" \
					"$(grep -m1 error "$tmp/err")"
				bad=$((bad + 1))
			fi
		fi
	done
done
echo "optsweep: $n rewrites of files by" $pipes"; $asm assembled both sides; $bad short"
echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
