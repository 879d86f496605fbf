#!/bin/sh
# cubin.sh BUILDDIR SRCDIR: cubincmp and ptxasv against the real ptxas.
# Same PTX assembled twice (with -g, so the debug sections and the
# toolkit note, which names the output file, differ) must compare
# equal; two different PTX files must not; a non-ELF file is an error.
# Exits 77 when there is no ptxas.
set -u
bin=$1; src=$2
ptxas=${PTXPRESS_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
[ -x "$ptxas" ] || { echo "no ptxas: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

cp "$src/call.ptx" "$tmp/a.ptx"
# the same code, with comments and blank lines moved
sed -e 's|//.*||' -e '/^$/d' "$src/call.ptx" > "$tmp/b.ptx"
"$ptxas" -arch sm_80 -g "$tmp/a.ptx" -o "$tmp/a1.cubin" 2>/dev/null
"$ptxas" -arch sm_80 -g "$tmp/a.ptx" -o "$tmp/a22.cubin" 2>/dev/null
"$ptxas" -arch sm_80 "$tmp/a.ptx" -o "$tmp/a3.cubin" 2>/dev/null
"$ptxas" -arch sm_80 "$tmp/b.ptx" -o "$tmp/b3.cubin" 2>/dev/null
sed 's/add.s32 %r2, %r1, 1;/add.s32 %r2, %r1, 2;/' "$src/call.ptx" \
	> "$tmp/c.ptx"
"$ptxas" -arch sm_80 "$tmp/c.ptx" -o "$tmp/c.cubin" 2>/dev/null

"$bin/cubincmp" "$tmp/a1.cubin" "$tmp/a22.cubin" || no "same -g"
"$bin/cubincmp" "$tmp/a3.cubin" "$tmp/b3.cubin" || no "comments only"
out=$("$bin/cubincmp" "$tmp/a3.cubin" "$tmp/c.cubin")
[ $? = 1 ] || no "different code compared equal"
case $out in *section*) ;; *) no "no reason given: $out" ;; esac
"$bin/cubincmp" "$tmp/a3.cubin" "$tmp/a.ptx" 2>/dev/null
[ $? = 2 ] || no "non-ELF not an error"

# ptxasv: the .entry and the .func, tab separated
"$bin/ptxasv" "$tmp/a.ptx" > "$tmp/v.out" || no "ptxasv failed"
grep -q "^k	[0-9][0-9]*	0	0	64$" "$tmp/v.out" \
	|| no "ptxasv k"
grep -q "^foo	-	0	0	0$" "$tmp/v.out" || no "ptxasv foo"
# the NUL-ended 9.3 file assembles once fixed up
"$bin/ptxasv" "$src/nul93.ptx" > "$tmp/n.out" 2>"$tmp/n.err" \
	|| no "ptxasv on nul93.ptx: $(cat "$tmp/n.err")"
grep -q "^k	" "$tmp/n.out" || no "ptxasv nul93 k"
"$bin/ptxasv" "$tmp/a.ptx" --arch sm_30 >/dev/null 2>&1
[ $? = 3 ] || no "unknown target not exit 3"
[ $fail = 0 ] && echo ok
exit $fail
