#!/bin/sh
# Output safety: emit writes a temporary file beside OUT and renames it,
# so a failure leaves no OUT and no temporary, and an OUT that was there
# is left as it was; -o naming the input (however spelled) is refused
# without --in-place; - is standard input and standard output.
# usage: output.sh PTXPRESS SRCDIR
set -u
px=$1 top=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok=$top/tests/front/ok/forms.ptx
bad=$top/tests/malformed/operand-missing.ptx
n=0 nbad=0
t() { # name: the previous commands' verdict is in $why
	n=$((n + 1))
	if [ -n "$why" ]; then echo "FAIL $1: $why"; nbad=$((nbad + 1)); fi
}
listing() { ls -A "$tmp/d"; }
mkdir "$tmp/d"

# a failed emit creates nothing and leaves no temporary
why=""
"$px" emit "$bad" -o "$tmp/d/out.ptx" 2>/dev/null && why="exit 0"
[ -z "$(listing)" ] || why="left: $(listing)"
t "failed emit leaves nothing"

# a failed emit over an existing OUT keeps it as it was
why=""
echo keep >"$tmp/d/out.ptx"
"$px" emit "$bad" -o "$tmp/d/out.ptx" 2>/dev/null && why="exit 0"
[ "$(cat "$tmp/d/out.ptx")" = keep ] || why="OUT changed"
[ "$(listing)" = out.ptx ] || why="left: $(listing)"
t "failed emit keeps the old OUT"

# a successful emit replaces it whole, and leaves no temporary
why=""
"$px" emit "$ok" -o "$tmp/d/out.ptx" || why="exit $?"
cmp -s "$ok" "$tmp/d/out.ptx" || why="OUT differs"
[ "$(listing)" = out.ptx ] || why="left: $(listing)"
t "emit replaces OUT"

# a folder that does not exist: an error, exit 2
why=""
"$px" emit "$ok" -o "$tmp/none/out.ptx" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || why="exit $rc"
grep -q "error: writing" "$tmp/err" || why="no message"
t "unwritable OUT"

# a pipe or a device (-o /dev/null) is written to, not replaced by a
# regular file
why=""
mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" >"$tmp/fromfifo" &
"$px" emit "$ok" -o "$tmp/fifo" || why="exit $?"
wait
[ -p "$tmp/fifo" ] || why="the pipe was replaced"
cmp -s "$ok" "$tmp/fromfifo" || why="wrong bytes through the pipe"
rm -f "$tmp/fifo" "$tmp/fromfifo"
t "-o a pipe"

# -o the input: refused however it is spelled, the input untouched
cp "$ok" "$tmp/d/in.ptx"
ln -s in.ptx "$tmp/d/link.ptx"
ln "$tmp/d/in.ptx" "$tmp/d/hard.ptx"
for o in "$tmp/d/in.ptx" "$tmp/d/../d/in.ptx" "$tmp/d/link.ptx" \
	"$tmp/d/hard.ptx"; do
	why=""
	"$px" emit --canonical "$tmp/d/in.ptx" -o "$o" 2>"$tmp/err"; rc=$?
	[ $rc -eq 2 ] || why="exit $rc"
	grep -q "refusing to overwrite the input" "$tmp/err" || why="no message"
	cmp -s "$ok" "$tmp/d/in.ptx" || why="input changed"
	[ "$(ls -A "$tmp/d" | wc -l)" -eq 4 ] || why="left: $(listing)"
	t "-o $o refused"
done
rm "$tmp/d/link.ptx" "$tmp/d/hard.ptx"

# --in-place allows it
why=""
"$px" emit --canonical --in-place "$tmp/d/in.ptx" -o "$tmp/d/in.ptx" ||
	why="exit $?"
"$px" emit --canonical "$ok" | cmp -s - "$tmp/d/in.ptx" ||
	why="not the canonical text"
t "--in-place"

# standard input and output
why=""
"$px" emit - <"$ok" | cmp -s - "$ok" || why="emit - differs"
"$px" emit "$ok" -o - | cmp -s - "$ok" || why="-o - differs"
"$px" emit - -o "$tmp/d/s.ptx" <"$ok" && cmp -s "$ok" "$tmp/d/s.ptx" ||
	why="emit - -o OUT differs"
"$px" check - <"$ok" 2>"$tmp/err" || why="check - exit $?"
grep -q "^<stdin>: PTX" "$tmp/err" || why="check - not named <stdin>"
"$px" emit - <"$bad" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] || why="bad stdin: exit $rc"
[ -s "$tmp/out" ] && why="bad stdin: wrote stdout"
grep -q "^<stdin>:[0-9]*:[0-9]*: error: " "$tmp/err" || why="no location"
t "standard input and output"

echo "$((n - nbad)) passed, $nbad failed"
[ "$nbad" -eq 0 ]
