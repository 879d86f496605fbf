#!/bin/sh
# Corpus round trip: for every .ptx under the given folders,
#  1. emit is the input byte for byte;
#  2. emit --canonical is a fixed point (printing the IR it parses to gives
#     the same text, so it parses back to the same IR);
#  3. where ptxas takes the file's target, the canonical text assembles to
#     the same cubin as the input (debug sections aside), both sides with
#     trailing NULs stripped and .version clamped to what ptxas accepts.
# Prints one line per file that falls short, names it, and exits 1 if any
# did; 77 (skip) when no folder exists.
# usage: roundtrip.sh PTXPRESS CUBINCMP DIR...
set -u
px=$1 cmpx=$2; shift 2
ptxas=${PTXPRESS_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 bad=0 asm=0 skip=0 dirs=0
for d in "$@"; do [ -d "$d" ] && dirs=$((dirs + 1)); done
[ "$dirs" -gt 0 ] || { echo "roundtrip: no corpus folder; skipped"; exit 77; }
# ptxas 13.0 is not deterministic on every input (some Triton sm_100a
# kernels give one of two cubins run to run, more often under load), so
# a difference is retried: the sides match if any run of one agrees
# with any run of the other.  Up to 12 runs a side, stopping at the
# first agreement; a side that only ever gives one cubin stops early.
nondet() {
	i=1
	while [ $i -le 12 ]; do
		"$ptxas" -arch="$1" "$tmp/a.ptx" -o "$tmp/a$i.cubin" >/dev/null 2>&1
		"$ptxas" -arch="$1" "$tmp/b.ptx" -o "$tmp/b$i.cubin" >/dev/null 2>&1
		j=1
		while [ $j -le $i ]; do
			if "$cmpx" "$tmp/a$i.cubin" "$tmp/b$j.cubin" \
				>/dev/null 2>&1 || "$cmpx" "$tmp/a$j.cubin" \
				"$tmp/b$i.cubin" >/dev/null 2>&1; then
				echo "note: $f: ptxas is not deterministic" \
					"here; matched on retry $i"
				return 0
			fi
			j=$((j + 1))
		done
		# both sides steady after 4 runs: a real difference
		if [ $i -ge 4 ] && cmp -s "$tmp/a1.cubin" "$tmp/a$i.cubin" &&
			cmp -s "$tmp/b1.cubin" "$tmp/b$i.cubin"; then
			return 1
		fi
		i=$((i + 1))
	done
	return 1
}
files=$(for d in "$@"; do [ -d "$d" ] && find "$d" -name '*.ptx'; done | sort)
for f in $files; do
	n=$((n + 1))
	fail() { echo "FAIL $f: $*"; bad=$((bad + 1)); }
	if ! "$px" emit "$f" -o "$tmp/l.ptx" 2>"$tmp/err"; then
		fail "emit: $(head -1 "$tmp/err")"; continue
	fi
	cmp -s "$f" "$tmp/l.ptx" || { fail "emit is not byte-identical"; continue; }
	"$px" emit --canonical "$f" -o "$tmp/c1.ptx" 2>"$tmp/err" ||
		{ fail "canonical: $(head -1 "$tmp/err")"; continue; }
	"$px" emit --canonical "$tmp/c1.ptx" -o "$tmp/c2.ptx" 2>"$tmp/err" ||
		{ fail "canonical does not parse: $(head -1 "$tmp/err")"; continue; }
	cmp -s "$tmp/c1.ptx" "$tmp/c2.ptx" ||
		{ fail "canonical is not a fixed point"; continue; }
	[ -x "$ptxas" ] || continue
	t=$(sed -n 's/^[[:space:]]*\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' \
		"$f" | head -1)
	"$px" emit --strip-nul --ptx-version auto "$f" -o "$tmp/a.ptx" \
		2>/dev/null || { fail "clamp failed"; continue; }
	"$px" emit --canonical --ptx-version auto "$f" -o "$tmp/b.ptx" \
		2>/dev/null || { fail "canonical clamp failed"; continue; }
	if ! "$ptxas" -arch="$t" "$tmp/a.ptx" -o "$tmp/a.cubin" \
		>/dev/null 2>&1; then
		# a target this ptxas dropped (sm_20, sm_30...): PTX is
		# forward compatible, so the oldest one it has still checks
		# the canonical text
		t=sm_75
		"$ptxas" -arch="$t" "$tmp/a.ptx" -o "$tmp/a.cubin" \
			>/dev/null 2>&1 || { skip=$((skip + 1)); continue; }
	fi
	if ! "$ptxas" -arch="$t" "$tmp/b.ptx" -o "$tmp/b.cubin" \
		>"$tmp/err" 2>&1; then
		fail "ptxas rejects the canonical text: $(grep -m1 rror "$tmp/err")"
		continue
	fi
	if ! "$cmpx" "$tmp/a.cubin" "$tmp/b.cubin" >"$tmp/err" 2>&1 &&
	   ! nondet "$t"; then
		fail "cubin differs: $(head -1 "$tmp/err")"; continue
	fi
	asm=$((asm + 1))
done
echo "roundtrip: $n files, $asm assembled to identical cubins," \
	"$skip not taken by this ptxas, $bad short"
echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
