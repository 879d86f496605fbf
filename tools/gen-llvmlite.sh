#!/bin/sh
# gen-llvmlite.sh: PTX from LLVM 15, 20 and 22's NVPTX back ends, for the
# front end and opt to meet what newer LLVM emits (this machine's clang
# is LLVM 14; tools/gen-llvm.sh covers it).  PyPI's llvmlite wheels each
# bundle one LLVM release with its NVPTX target; tools/llvmptx.py drives
# it.  clang 14 makes bitcode of corpus/kernels/llvm_features.cu, which
# each newer LLVM upgrades on load.  The wheels are fetched once with pip
# into a cache.
#
#   tools/gen-llvmlite.sh OUTDIR
#
# Writes OUTDIR/llvm<MAJOR>_<ARCH>_<O0|O3>[_g].ptx: sm_75 and sm_86 for
# LLVM 15 (it knows no sm_90), sm_80 and sm_90a for 20, and sm_100a too
# for 22; clang -O0 (code generator level 0) and -O3 (level 2), with and
# without -g (DWARF sections, .loc lines).  Cache:
# $PTXPRESS_LLVMLITE_CACHE, else ~/.cache/ptxpress/llvmlite.  CLANG
# overrides the compiler.  Exit status 77 when clang cannot make the
# bitcode or no llvmlite can be had (no cache and no pip or network).
set -u
out=${1:?usage: gen-llvmlite.sh OUTDIR}
top=$(cd "$(dirname "$0")/.." && pwd)
clang=${CLANG:-clang}
cache=${PTXPRESS_LLVMLITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ptxpress/llvmlite}
command -v "$clang" >/dev/null 2>&1 || { echo "gen-llvmlite: no clang"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "gen-llvmlite: no python3"; exit 77; }
mkdir -p "$out" "$cache" && out=$(cd "$out" && pwd) || exit 1

. "$top/tools/wheel.sh"

# the folder holding llvmlite release V, fetched into the cache when
# missing (the wheel is for this python); empty when it cannot be had
lib() {
	d=$cache/$1-$(python3 -c 'import sys; print("%d%d" % sys.version_info[:2])')
	wheel "$d" "llvmlite==$1" llvmlite && echo "$d"
}

# bitcode: -O0 and -O3, with and without -g (as tools/gen-llvm.sh, -c
# -emit-llvm instead of -S)
for o in O0 O3; do
	for g in "" _g; do
		(cd "$top/corpus/kernels" && "$clang" -x cuda --cuda-device-only \
			-nocudainc -nocudalib -Wno-unknown-cuda-version \
			-Xclang -target-feature -Xclang +ptx70 \
			--cuda-gpu-arch=sm_80 -$o ${g:+-g} -c -emit-llvm \
			llvm_features.cu -o "$out/.$o$g.bc") 2>"$out/.clang.err" || {
			echo "gen-llvmlite: $clang cannot make bitcode:"
			sed 's/^/  | /' "$out/.clang.err"; exit 77; }
	done
done
rm -f "$out/.clang.err"

n=0
for v in 0.44.0:15 0.46.0:20 0.50.0:22; do
	rel=${v%%:*} major=${v#*:}
	d=$(lib "$rel")
	[ -n "$d" ] || { echo "gen-llvmlite: no llvmlite $rel; skipped"; continue; }
	case $major in
	15) archs="sm_75 sm_86" ;;
	20) archs="sm_80 sm_90a" ;;
	*) archs="sm_80 sm_90a sm_100a" ;;
	esac
	for a in $archs; do
		for o in O0 O3; do
			lvl=2; [ $o = O0 ] && lvl=0
			for g in "" _g; do
				f=$out/llvm${major}_${a}_$o$g.ptx
				PYTHONPATH=$d python3 "$top/tools/llvmptx.py" \
					"$out/.$o$g.bc" "$f" $a $lvl || {
					echo "gen-llvmlite: LLVM $major failed on $a $o$g"
					exit 1; }
				n=$((n + 1))
			done
		done
	done
done
rm -f "$out"/.*.bc
[ $n -gt 0 ] || { echo "gen-llvmlite: no llvmlite release at hand"; exit 77; }
echo "gen-llvmlite: $n files in $out"
