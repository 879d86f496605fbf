#!/bin/sh
# gen-llvm.sh: PTX from LLVM's NVPTX back end (clang), for the front end
# and opt to meet what clang emits.
#
#   tools/gen-llvm.sh OUTDIR [all]
#
# Writes OUTDIR/llvm_sm80.ptx (-O2, no debug info: the file committed in
# corpus/); with 'all', also OUTDIR/llvm_O{0,2,3}_sm_{75,80,86}{,_g}.ptx
# (-g adds DWARF sections and .loc lines).  CLANG overrides the compiler.
# Exit status 77 when clang is missing or cannot target nvptx64 in CUDA
# mode without CUDA's headers.
set -u
out=${1:?usage: gen-llvm.sh OUTDIR [all]}
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/corpus/kernels/llvm_features.cu
clang=${CLANG:-clang}
command -v "$clang" >/dev/null 2>&1 || { echo "gen-llvm: no clang"; exit 77; }
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
# PTX ISA 7.0 for the *_sync shuffles; clang 14 knows CUDA up to 11.5 and
# warns about the newer one installed, which changes nothing here
cc() { # OUT OPTIONS...
	dst=$1; shift
	(cd "$top/corpus/kernels" && "$clang" -x cuda --cuda-device-only \
		-nocudainc -nocudalib -Wno-unknown-cuda-version \
		-Xclang -target-feature -Xclang +ptx70 "$@" -S \
		llvm_features.cu -o "$dst")
}
cc "$out/llvm_sm80.ptx" --cuda-gpu-arch=sm_80 -O2 2>"$out/.clang.err" || {
	echo "gen-llvm: $clang cannot build $src for nvptx64:"
	sed 's/^/  | /' "$out/.clang.err"; rm -f "$out/.clang.err"; exit 77; }
rm -f "$out/.clang.err"
[ "${2:-}" = all ] || exit 0
for o in O0 O2 O3; do
	for a in sm_75 sm_80 sm_86; do
		cc "$out/llvm_${o}_$a.ptx" --cuda-gpu-arch=$a -$o || exit 1
		cc "$out/llvm_${o}_${a}_g.ptx" --cuda-gpu-arch=$a -$o -g || exit 1
	done
done
