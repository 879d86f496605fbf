#!/bin/sh
# ptxpress-ptxas driven exactly as its callers drive ptxas: Triton
# (--version, then -lineinfo -v --gpu-name=sm_90a X.ptx -o X.ptx.o),
# clang (--ptxas-path: -m64 -O3 --gpu-name sm_80 --output-file F.cubin
# F.s, and -c for relocatable code), the CuTe DSL hook (-arch sm_90a
# -O3 F.ptx -o F.cubin); unknown options and several inputs passed
# through; the fallback on PTX it cannot parse; PTXPRESS_PTX_VERSION;
# PTXPRESS_LOG; PTXPRESS_TIME with a broken launch description (said,
# not fatal) and with no GPU (the kernel is rewritten untimed).
# usage: wrapper.sh BUILD_DIR
BIN=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh"
cd "$tmp"
kernel tk sm_90a >X.ptx
kernel tk2 sm_80 >F.s

# Triton
"$wrap" --version >v1 2>&1; r1=$?
"$real" --version >v2 2>&1
[ $r1 = 0 ] && cmp -s v1 v2 && ok "--version is the real ptxas's" ||
	fail "--version differs"
"$wrap" -lineinfo -v --gpu-name=sm_90a X.ptx -o X.ptx.o >o1 2>e1; r1=$?
"$real" -lineinfo -v --gpu-name=sm_90a X.ptx -o X.ref.o >o2 2>e2
[ $r1 = 0 ] && [ -s X.ptx.o ] && ok "Triton shape assembles" ||
	fail "Triton shape: rc $r1"
sameout e1 e2 && sameout o1 o2 && ok "-v log is ptxas's own" ||
	fail "-v log differs"
cmp -s X.ptx.o X.ref.o && ok "same cubin as ptxas alone" ||
	fail "cubin differs"

# clang --ptxas-path, whole-program and relocatable
"$wrap" -m64 -O3 --gpu-name sm_80 --output-file F.cubin F.s &&
	[ -s F.cubin ] &&
	ok "clang shape" || fail "clang shape"
"$wrap" -m64 -O3 -c --gpu-name sm_80 --output-file R.cubin F.s && [ -s R.cubin ] &&
	ok "clang -c shape" || fail "clang -c shape"

# the CuTe DSL hook; a NUL-terminated dump is rewritten into a temporary
# copy (the rewrite drops the NULs ptxas rejects), so this also takes
# the path where ptxas's output is captured and handed back
kernel cute sm_90a >C.ptx
printf '\000' >>C.ptx
"$wrap" -arch sm_90a -O3 -v C.ptx -o C.cubin >o1 2>e1 && [ -s C.cubin ] &&
	grep -q "Compiling entry function 'cute'" e1 o1 &&
	ok "CuTe DSL shape, NUL-terminated input" || fail "CuTe DSL shape"
grep -q "ptxpress-ptxas-" e1 o1 && fail "temporary path leaked: $(cat e1)"

# several inputs, -c, --maxrregcount, long options with =
kernel tk3 sm_90a >Y.ptx
"$wrap" -c --maxrregcount=32 --opt-level 3 -arch=sm_90a X.ptx Y.ptx \
	-o XY.o && [ -s XY.o ] && ok "several inputs" || fail "several inputs"

# arguments reach ptxas untouched, unknown ones included
mkdir fake
cat >fake/ptxas <<'SH'
#!/bin/sh
[ "$1" = --version ] && { echo "fake ptxas, release 99.0"; exit 0; }
for a do printf '%s\n' "$a"; done >"$(dirname "$0")/args"
SH
chmod +x fake/ptxas
PTXPRESS_PTXAS=$tmp/fake/ptxas "$wrap" --frobnicate -Xfoo bar -v \
	--gpu-name sm_90a -Werror X.ptx -o out.o
printf '%s\n' --frobnicate -Xfoo bar -v --gpu-name sm_90a -Werror X.ptx \
	-o out.o >want
cmp -s fake/args want && ok "arguments passed through" ||
	fail "arguments changed: $(tr '\n' ' ' <fake/args)"

# on PATH as 'ptxas' it must not find itself
mkdir shim && ln -s "$wrap" shim/ptxas
( unset PTXPRESS_PTXAS; PATH=$tmp/shim:$(dirname "$real"):$PATH \
	ptxas -arch sm_90a X.ptx -o P.o ) && [ -s P.o ] &&
	ok "as ptxas on PATH" || fail "as ptxas on PATH"

# fallback: garbage is left to ptxas, which says why
printf 'not PTX at all\n' >bad.ptx
"$wrap" -arch sm_90a bad.ptx -o bad.o >o1 2>e1; r1=$?
[ $r1 != 0 ] && grep -q "warning: cannot parse" e1 &&
	grep -q "ptxas" e1 && ok "fallback on garbage: warning, ptxas's error" ||
	fail "fallback on garbage: rc $r1"
PTXPRESS_STRICT=1 "$wrap" -arch sm_90a bad.ptx -o bad.o >o1 2>e1; r1=$?
[ $r1 = 1 ] && grep -q "error: cannot parse" e1 &&
	! grep -q "Missing .version" e1 && ok "strict: an error, ptxas not run" ||
	fail "strict on garbage: rc $r1"

# fallback: valid PTX the parser does not know assembles as it is
unparsable X.ptx >U.ptx
if "$px" check -q U.ptx 2>/dev/null; then
	echo "note: ptxpress parses U.ptx now; fallback-on-valid not tested"
else
	"$wrap" -arch sm_90a U.ptx -o U.o >o1 2>e1; r1=$?
	[ $r1 = 0 ] && [ -s U.o ] && grep -q "warning: cannot parse" e1 &&
		ok "fallback: warning, original assembled" ||
		fail "fallback on valid PTX: rc $r1"
	PTXPRESS_STRICT=1 "$wrap" -arch sm_90a U.ptx -o U2.o >o1 2>e1
	[ $? = 1 ] && [ ! -e U2.o ] && ok "strict fallback is an error" ||
		fail "strict fallback"
fi

# a .version newer than the real ptxas takes: refused by ptxas, lowered
# with PTXPRESS_PTX_VERSION=auto (CuTe DSL 4.8 writes 9.4)
sed 's/^\.version .*/.version 99.9/' X.ptx >N.ptx
"$wrap" -arch sm_90a N.ptx -o N.o >o1 2>e1; r1=$?
PTXPRESS_PTX_VERSION=auto "$wrap" -arch sm_90a N.ptx -o N2.o >o2 2>e2; r2=$?
[ $r1 != 0 ] && [ $r2 = 0 ] && [ -s N2.o ] &&
	grep -q "\.version 99.9 lowered to" e2 &&
	ok "PTXPRESS_PTX_VERSION=auto lowers .version" ||
	fail "version: rc $r1 $r2: $(cat e2)"
# without it: said at once (no search of variants that all fail, no
# word of a failed rewrite), and ptxas's own refusal follows
grep -q "PTX 99.9 is newer than .* reads" e1 &&
	! grep -q "failed on the rewritten" e1 &&
	grep -q "99.9" e1 && ok "a .version too new for ptxas: said, passed on" ||
	fail "version too new: $(cat e1)"

# PTXPRESS_TIME: a broken description is reported and the build goes on;
# with a good one and no GPU, ptxas's figures decide, as without it
mkdir -p td && printf 'kernel tk\ngrid 1 1 1\nbogus\n' >td/tk.launch
PTXPRESS_TIME=$tmp/td "$wrap" -arch sm_90a X.ptx -o T.o >o1 2>e1; r1=$?
[ $r1 = 0 ] && [ -s T.o ] && grep -q "tk.launch:3:1: error: unknown directive" e1 &&
	ok "PTXPRESS_TIME: a broken launch is said, not fatal" ||
	fail "PTXPRESS_TIME broken: rc $r1: $(cat e1)"
printf 'kernel tk\ngrid 1 1 1\nblock 32 1 1\n' >td/tk.launch
PTXPRESS_TIME=$tmp/td PTXPRESS_LIBCUDA=/nonexistent/libcuda.so.1 \
	"$wrap" -arch sm_90a X.ptx -o T2.o >o1 2>e1; r1=$?
[ $r1 = 0 ] && [ -s T2.o ] && ok "PTXPRESS_TIME without a GPU" ||
	fail "PTXPRESS_TIME no GPU: rc $r1: $(cat e1)"

# the log: one line per kernel, appended
PTXPRESS_LOG=$tmp/log "$wrap" -arch sm_90a X.ptx Y.ptx -c -o L.o
PTXPRESS_LOG=$tmp/log "$wrap" -arch sm_90a C.ptx -o L2.o
[ "$(grep -c '^ptxpress-ptxas file=' log)" = 3 ] &&
	grep -q 'kernel=tk regs=[0-9]*->[0-9]* spill=0->0' log &&
	ok "log" || fail "log: $(cat log)"
# an xspill rewrite: the log says what the local array moves besides
# ptxas's own spill figures
cp "$top/tests/opt/xspill.ptx" XS.ptx
PTXPRESS_LOG=$tmp/xlog PTXPRESS_PIPELINE=xspill=all \
	"$wrap" -arch sm_90a XS.ptx -o XS.o >o1 2>e1; r1=$?
[ $r1 = 0 ] && grep -q 'kernel=xs .* status=rewritten xspill=128$' xlog &&
	ok "log: xspill bytes" || fail "log xspill: rc $r1: $(cat xlog e1)"
finish
