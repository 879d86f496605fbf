#!/bin/sh
# Memcheck over the largest corpus files (or the test files when the
# shared corpus is not there): check and emit, any memory error or leak
# (definite, indirect, possible) fails.  Skips (77) without valgrind.
# usage: valgrind.sh PTXPRESS SRCDIR [COUNT]
set -u
px=$1 top=$2 count=${3:-3}
command -v valgrind >/dev/null 2>&1 || { echo "no valgrind; skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -d "$top/../shared/corpus" ]; then
	files=$(find "$top/../shared/corpus" -name '*.ptx' -exec ls -S {} + |
		head -n "$count")
else
	files="$top/tests/front/ok/forms.ptx $top/tests/malformed/imm-hex.ptx"
fi
n=0 bad=0
for f in $files $top/tests/malformed/section-twice.ptx; do
	for c in "check" "emit --canonical"; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect,possible \
			--show-leak-kinds=definite,indirect,possible \
			"$px" $c "$f" >/dev/null 2>"$tmp/err"
		if [ $? -eq 99 ]; then
			echo "FAIL valgrind $c $f"; head -30 "$tmp/err"
			bad=$((bad + 1))
		fi
	done
done
echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
