#!/bin/sh
# opt over a corpus: every kernel comes back no worse than it went in
# (registers, spill bytes, stack, by ptxas's own figures on the file's
# target) and every output is proven by the validator.  A few tries per
# file keep it short; the benchmark (bench/opt.sh) searches harder.
# usage: optcorpus.sh PTXPRESS PTXASV DIR...      exit 77 when no DIR/ptxas
set -u
px=$1 pv=$2; shift 2
ptxas=${PTXPRESS_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$ptxas" ] || { echo "optcorpus: no ptxas; skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 bad=0 dirs=0
for d in "$@"; do [ -d "$d" ] && dirs=$((dirs + 1)); done
[ "$dirs" -gt 0 ] || { echo "optcorpus: no corpus folder; skipped"; exit 77; }
for f in $(for d in "$@"; do [ -d "$d" ] && find "$d" -name '*.ptx'; done | sort); do
	"$pv" "$f" >"$tmp/before" 2>/dev/null || continue  # not for this ptxas
	n=$((n + 1))
	if ! PTXPRESS_SNAPCHECK=1 "$px" opt "$f" -o "$tmp/o.ptx" --tries "${TRIES:-3}" \
		2>"$tmp/err"; then
		echo "FAIL $f: opt failed: $(head -1 "$tmp/err")"
		bad=$((bad + 1)); continue
	fi
	if ! "$px" validate "$f" "$tmp/o.ptx" 2>"$tmp/err"; then
		echo "FAIL $f: $(head -1 "$tmp/err")"; bad=$((bad + 1)); continue
	fi
	"$pv" "$tmp/o.ptx" >"$tmp/after" 2>/dev/null
	# name regs spill-stores spill-loads stack: after must not be worse
	if ! awk -F'\t' 'NR == FNR { b[$1] = $0; next }
		{ split(b[$1], x, "\t"); s0 = x[3] + x[4]; s1 = $3 + $4
		  if (s1 > s0 || (s1 == s0 && $5 > x[5]) ||
		      (s1 == s0 && $5 == x[5] && $2 != "-" && $2 > x[2])) {
			print "worse: " $1 ": " b[$1] " -> " $0; bad = 1 } }
		END { exit bad }' "$tmp/before" "$tmp/after"; then
		echo "FAIL $f: a kernel got worse"; bad=$((bad + 1))
	fi
done
echo "optcorpus: $n files rewritten, validated and no worse; $bad short"
echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
