#!/bin/sh
# Malformed input, generated where it is big, binary or many: every
# prefix of a valid file ending at ';', '}' or a newline, binary junk,
# NULs in the middle, 10 MB single lines, 10,000 nested scopes, empty
# inputs; and emit over the small malformed files.  For each input:
#  - check and emit end within a time limit, with status 0, 1 or 2
#    (never a crash or a sanitizer's 86);
#  - an error is reported as FILE:LINE:COL: error: ..., and stderr stays
#    small;
#  - emit -o OUT that fails leaves nothing in OUT's folder; emit that
#    succeeds gives the input back byte for byte.
# usage: gen.sh PTXPRESS SRCDIR
set -u
px=$1 top=$2
lim=${PTXPRESS_TIMEOUT:-120}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/out"
n=0 bad=0
export LC_ALL=C
fail() { echo "FAIL $name: $*"; sed 's/^/  | /' "$tmp/err" | head -4
	bad=$((bad + 1)); }
run() { # args...: runs ptxpress with a time limit; rc in $rc
	timeout "$lim" "$px" "$@" >"$tmp/stdout" 2>"$tmp/err" </dev/null
	rc=$?
}
located() { # path: stderr has path:line:col: error:
	grep -q "^$1:[0-9][0-9]*:[0-9][0-9]*: error: " "$tmp/err"
}
small() { [ "$(wc -c <"$tmp/err")" -lt 65536 ]; }
# one input: want is ok (0), err (2), cerr (check 1, emit passes it
# through), or any (a truncation: whatever it is, it is consistent)
one() { # name file want
	name=$1 f=$2 want=$3
	n=$((n + 1))
	run check "$f"
	case $want:$rc in
	ok:0|err:2|cerr:1|any:0|any:1|any:2) ;;
	*) fail "check: exit $rc, expected $want"; return ;;
	esac
	[ "$rc" -eq 0 ] || located "$f" || { fail "check: no location"; return; }
	small || { fail "check: stderr is $(wc -c <"$tmp/err") bytes"; return; }
	crc=$rc
	run emit "$f" -o "$tmp/out/x.ptx"
	case $rc in
	0)	[ "$crc" -eq 0 ] || { fail "emit took what check did not"; return; }
		cmp -s "$f" "$tmp/out/x.ptx" || { fail "emit differs"; return; }
		rm -f "$tmp/out/x.ptx" ;;
	2)	[ "$crc" -ne 0 ] || { fail "emit rejects what check took"; return; }
		located "$f" || { fail "emit: no location"; return; }
		small || { fail "emit: stderr too big"; return; }
		[ -z "$(ls -A "$tmp/out")" ] || {
			fail "emit left $(ls -A "$tmp/out")"; rm -f "$tmp/out/"*
			return; } ;;
	*)	fail "emit: exit $rc" ;;
	esac
}
head3() { printf '.version 8.0\n.target sm_90a\n.address_size 64\n'; }

# every prefix ending at ';', '}' or a newline of a file using every form
base=$top/tests/front/ok/forms.ptx
{ grep -bo '[;}]' "$base" | cut -d: -f1
  awk '{ o += length($0) + 1; print o - 1 }' "$base"; } | sort -un |
while read -r o; do
	head -c $((o + 1)) "$base" >"$tmp/cut$o.ptx"
	echo "$tmp/cut$o.ptx"
done >"$tmp/cuts"
while read -r f; do one "prefix $(basename "$f")" "$f" any; done <"$tmp/cuts"

# binary junk, alone and after a valid header
awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++)
	printf "%c", int(rand() * 255) + 1 }' >"$tmp/junk.ptx"
one "binary junk" "$tmp/junk.ptx" err
{ head3; cat "$tmp/junk.ptx"; } >"$tmp/junk2.ptx"
one "junk after a header" "$tmp/junk2.ptx" err

# NUL bytes in the middle of a statement and between statements
{ head3; printf '.visible .entry k()\n{\n\tret\000\000;\n}\n'; } >"$tmp/nul1.ptx"
one "NULs in a statement" "$tmp/nul1.ptx" err
grep -q "nul1.ptx:6:5: error: NUL byte" "$tmp/err" || fail "NUL location"
{ head3; printf '\000\n.visible .entry k()\n{\n\tret;\n}\n'; } >"$tmp/nul2.ptx"
one "NUL between items" "$tmp/nul2.ptx" err

# 10 MB on one line: valid, broken at the end, and one 10 MB word
body='add.s32 %r1, %r1, 1; '
rep() { # n text: prints text n times
	awk -v n="$1" -v s="$2" 'BEGIN { while (n--) printf "%s", s }'; }
{ printf '.version 8.0 .target sm_90a .address_size 64 '
  printf '.visible .entry k() { .reg .b32 %%r<2>; '
  rep 500000 "$body"; printf 'ret; }\n'; } >"$tmp/line.ptx"
one "10 MB line" "$tmp/line.ptx" ok
{ printf '.version 8.0 .target sm_90a .address_size 64 '
  printf '.visible .entry k() { .reg .b32 %%r<2>; '
  rep 500000 "$body"; printf 'add.s32 %%r1, %%r1 1; }\n'; } >"$tmp/line2.ptx"
one "10 MB line, error at the end" "$tmp/line2.ptx" err
grep -q "line2.ptx:1:10500102: error" "$tmp/err" || fail "long line column"
{ head3; rep 10000000 a; } >"$tmp/word.ptx"
one "10 MB word" "$tmp/word.ptx" err

# lists past what the IR counts (16 bits, all.h's Maxsub): a vector of
# 65,535 elements and an opcode of 65,535 modifiers are errors at the
# element and the word; 65,534 elements are not
vec() { # n: an instruction whose vector has n elements
	head3; printf '.visible .entry k()\n{\n.reg .b32 %%r<2>;\n'
	printf 'mov.b32 %%r1, {'; rep $(($1 - 1)) '%r1,'; printf '%%r1};\n'
	printf 'ret;\n}\n'; }
vec 65535 >"$tmp/vec1.ptx"
one "65,535 vector elements" "$tmp/vec1.ptx" err
grep -q "vec1.ptx:7:262151: error: too many operands" "$tmp/err" ||
	fail "too many operands: message or place"
vec 65534 >"$tmp/vec2.ptx"
one "65,534 vector elements" "$tmp/vec2.ptx" any
! grep -q "too many" "$tmp/err" || fail "65,534 elements are too many"
{ head3; printf '.visible .entry k()\n{\n\tadd'; rep 65535 .u32
  printf ' %%r1;\n\tret;\n}\n'; } >"$tmp/mods.ptx"
one "65,535 modifiers" "$tmp/mods.ptx" err
grep -q "mods.ptx:6:2: error: too many modifiers" "$tmp/err" ||
	fail "too many modifiers: message or place"

# 10,000 nested scopes parse; 100,000 are an error, not a crash
nest() { # depth
	head3; printf '.visible .entry k()\n{\n.reg .b32 %%r<2>;\n'
	rep "$1" '{'; printf '\nadd.s32 %%r1, %%r1, 1;\n'; rep "$1" '}'
	printf '\nret;\n}\n'; }
nest 10000 >"$tmp/nest.ptx"
one "10,000 nested scopes" "$tmp/nest.ptx" ok
nest 100000 >"$tmp/nest2.ptx"
one "100,000 nested scopes" "$tmp/nest2.ptx" err

# empty inputs: nothing, blanks, a byte-order mark, NULs, a comment
: >"$tmp/e0.ptx"
printf ' \n\t\r\n' >"$tmp/e1.ptx"
printf '\357\273\277' >"$tmp/e2.ptx"
printf '\000\000\000' >"$tmp/e3.ptx"
printf '/* nothing */\n' >"$tmp/e4.ptx"
for i in 0 1 2 3 4; do
	one "empty $i" "$tmp/e$i.ptx" err
	grep -q "e$i.ptx:1:1: error: empty input" "$tmp/err" ||
		fail "empty input message"
done

# standard input is named <stdin>
name="stdin"; n=$((n + 1))
timeout "$lim" "$px" check - <"$tmp/nul1.ptx" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && located "<stdin>" || fail "check - : no <stdin> location"

# the small malformed files: emit agrees with their expected status
for f in "$top"/tests/malformed/*.ptx; do
	w=$(sed -n 's|^// exit: ||p' "$f" | head -1)
	case $w in 2) one "$(basename "$f")" "$f" err ;;
	1) one "$(basename "$f")" "$f" cerr ;; *) one "$(basename "$f")" "$f" ok ;;
	esac
done

echo "$((n - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
