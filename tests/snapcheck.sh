#!/bin/sh
# The search parses its input once and starts every variant that only
# reorders or inserts statements from copies of the parsed arrays.
# PTXPRESS_SNAPCHECK makes opt also parse afresh for each such variant
# and die if the two texts differ; here with 16 tries (every pipeline
# family, the seeded ones included) over the test kernels and our own
# corpus, so that a pass that starts changing statements in place is
# caught.  Needs ptxas (77 without).
# usage: snapcheck.sh PTXPRESS DIR...
set -u
px=$1; shift
command -v ptxas >/dev/null 2>&1 || { echo "snapcheck: no ptxas; skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
for f in $(for d in "$@"; do [ -d "$d" ] && find "$d" -maxdepth 1 -name '*.ptx'; done | sort); do
	"$px" check -q "$f" 2>/dev/null || continue
	n=$((n + 1))
	if ! PTXPRESS_SNAPCHECK=1 "$px" opt "$f" -o "$tmp/o.ptx" --tries 16 \
		-j 2 2>"$tmp/err"; then
		echo "FAIL $f: $(grep -m1 -e differs -e error "$tmp/err")"
		bad=$((bad + 1))
	fi
done
echo "snapcheck: $n files, $bad differ"
echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
