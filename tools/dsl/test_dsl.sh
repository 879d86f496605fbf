#!/usr/bin/env bash
# test_dsl.sh -- the DSL tooling end to end: make a venv for CuTe DSL 4.5.1
# with FA4 (mkenv.sh), compile FA4's SM100 forward without a GPU
# (compile_fa4.py) and check that PTX for sm_100a comes out.
#
# Downloads several GB (torch with its CUDA libraries, the DSL), so it
# runs only with PTXPRESS_DSL_TESTS=1; otherwise, and whenever the
# packages cannot be installed (no network, pip failure), it skips with
# exit 77.  Reuses $PTXPRESS_DSL_BUILD (default <repo>/build/dsl).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rel=${PTXPRESS_DSL_RELEASE:-4.5.1}

skip() { echo "SKIP: $1"; exit 77; }
[ "${PTXPRESS_DSL_TESTS:-0}" = 1 ] || skip "set PTXPRESS_DSL_TESTS=1 to run"
python3 -c 'import venv, ensurepip' 2>/dev/null || skip "python3 venv missing"

venv=$("$here/mkenv.sh" "$rel") || skip "cannot install DSL $rel packages"
out=$(mktemp -d "${TMPDIR:-/tmp}/dsl-test.XXXXXX")
trap 'rm -rf "$out"' EXIT

"$venv/bin/python" "$here/compile_fa4.py" --out "$out" --case fwd-hd128 ||
	{ echo "FAIL: compile_fa4.py"; cat "$out"/fwd-hd128/compile.log; exit 1; }
n=0
for f in "$out"/*/*.ptx; do
	[ -f "$f" ] || continue
	tr -d '\0' <"$f" | grep -q '^\.target sm_100a' && n=$((n + 1))
done
if [ "$n" -ge 1 ]; then
	echo "1 passed, 0 failed ($n PTX file(s) with .target sm_100a)"
	exit 0
fi
echo "FAIL: no PTX with .target sm_100a in $out"
echo "0 passed, 1 failed"
exit 1
