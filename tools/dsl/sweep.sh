#!/usr/bin/env bash
# sweep.sh [-c CASE]... RELEASE:FA4:QUACK ... -- for each triple, make the
# venv (mkenv.sh), compile FA4's kernels (compile_fa4.py) into
# $BUILD/ptx/RELEASE-faFA4, then tabulate all of them (measure.py) into
# $BUILD/sweep.md and $BUILD/sweep.tsv.
#
#   tools/dsl/sweep.sh -c fwd-hd128 4.5.1:4.0.0b15:0.4.1 4.8.0:4.0.0b30:0.6.5
#
# Without -c every case is compiled.  A triple whose venv or compile
# fails is reported and skipped; the sweep goes on.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${PTXPRESS_DSL_BUILD:-$root/build/dsl}
cases=()
while getopts c: o; do
	case $o in
	c) cases+=(--case "$OPTARG") ;;
	*) echo "usage: sweep.sh [-c CASE]... REL:FA4:QUACK..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

dirs=()
for t in "$@"; do
	IFS=: read -r rel fa4 quack <<<"$t"
	venv=$("$here/mkenv.sh" "$rel" "$fa4" "$quack") || {
		echo "sweep: $t: no venv" >&2; continue; }
	out=$build/ptx/$rel-fa$fa4
	"$venv/bin/python" "$here/compile_fa4.py" --out "$out" \
		"${cases[@]}" || echo "sweep: $t: compile failed" >&2
	dirs+=("$out")
done
[ ${#dirs[@]} -gt 0 ] || exit 1
python3 "$here/measure.py" --tsv "$build/sweep.tsv" "${dirs[@]}" \
	>"$build/sweep.md"
cat "$build/sweep.md"
