#!/bin/sh
# Determinism: the same input and options give the same bytes on stdout
# and stderr on every run (address-space randomisation changes pointer
# values, and the register tables hash pointers).  Each command runs
# twice per file: the test files, and the largest corpus files when
# ../shared/corpus is there.
# usage: determinism.sh PTXPRESS SRCDIR
set -u
px=$1 top=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
files=$(ls "$top"/tests/front/ok/*.ptx "$top"/tests/front/*.ptx \
	"$top"/tests/malformed/*.ptx)
if [ -d "$top/../shared/corpus" ]; then
	files="$files $(find "$top/../shared/corpus" -name '*.ptx' \
		-size +200k | sort)"
fi
for f in $files; do
	for c in "check" "emit" "emit --canonical" "emit --strip-nul"; do
		n=$((n + 1))
		for i in 1 2; do
			# shellcheck disable=SC2086
			"$px" $c "$f" >"$tmp/o$i" 2>"$tmp/e$i"
			echo $? >>"$tmp/e$i"
		done
		if ! cmp -s "$tmp/o1" "$tmp/o2" || ! cmp -s "$tmp/e1" "$tmp/e2"
		then
			echo "FAIL $c $f: two runs differ"; bad=$((bad + 1))
		fi
	done
done
echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
