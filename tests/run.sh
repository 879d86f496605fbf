#!/bin/sh
# Runs PTX test files that carry their expectations inside, QBE style:
#   // cmd: emit --canonical FILE      arguments to ptxpress (default:
#                                       check FILE); FILE is this file,
#                                       DIR its folder, TMP a scratch one
#   // exit: 2                          expected exit status (default 0)
#   // stderr: text                     must appear in stderr, in order
#   // stdout: text                     must appear in stdout, in order
#   // not-stderr: text                 must not appear in stderr
#   // count-stdout: N text             appears on exactly N lines of
#                                       stdout (comment lines aside)
# usage: run.sh PTXPRESS FILE...
set -u
px=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
# in order: each expected line is searched for after the previous match
inorder() { # file-with-expectations output
	[ -s "$1" ] || return 0
	# output lines that are comments are skipped: emitted PTX carries
	# the test's own expectation lines, which must not match themselves
	awk 'BEGIN { k = 0; n = 0 }
	     NR == FNR { want[n++] = $0; next }
	     /^[ \t]*\/\// { next }
	     k < n && index($0, want[k]) { k++ }
	     END { if (k < n) { print "missing: " want[k]; exit 1 } }' "$1" "$2"
}
for f in "$@"; do
	cmd=$(sed -n 's|^// cmd: ||p' "$f" | head -1)
	[ -n "$cmd" ] || cmd="check FILE"
	want=$(sed -n 's|^// exit: ||p' "$f" | head -1)
	[ -n "$want" ] || want=0
	dir=$(dirname "$f")
	args=$(printf '%s' "$cmd" | sed "s|FILE|$f|g; s|DIR|$dir|g; s|TMP|$tmp|g")
	# shellcheck disable=SC2086
	$px $args >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	why=""
	[ "$rc" = "$want" ] || why="exit $rc, expected $want"
	sed -n 's|^// stderr: ||p' "$f" >"$tmp/we"
	sed -n 's|^// stdout: ||p' "$f" >"$tmp/wo"
	[ -z "$why" ] && ! m=$(inorder "$tmp/we" "$tmp/err") && why="stderr $m"
	[ -z "$why" ] && ! m=$(inorder "$tmp/wo" "$tmp/out") && why="stdout $m"
	sed -n 's|^// not-stderr: ||p' "$f" | while IFS= read -r l; do
		grep -qF -- "$l" "$tmp/err" && echo "$l"
	done >"$tmp/bad"
	[ -z "$why" ] && [ -s "$tmp/bad" ] && why="stderr has: $(head -1 "$tmp/bad")"
	sed -n 's|^// count-stdout: ||p' "$f" | while IFS= read -r l; do
		want=${l%% *} text=${l#* }
		got=$(grep -v '^[[:space:]]*//' "$tmp/out" | grep -cF -- "$text")
		[ "$got" = "$want" ] || echo "$got times, not $want: $text"
	done >"$tmp/cnt"
	[ -z "$why" ] && [ -s "$tmp/cnt" ] && why="stdout has $(head -1 "$tmp/cnt")"
	if [ -n "$why" ]; then
		fail=$((fail + 1))
		echo "FAIL $f: $why"
		sed 's/^/  | /' "$tmp/err" | head -8
	else
		pass=$((pass + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
