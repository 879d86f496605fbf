#!/bin/sh
# Installs ptxpress into a private prefix (programs, man pages, CMake
# package, pkg-config file), then builds examples/cuda-cmake against it
# with nvcc.  No GPU is needed: the test checks that every ptxas run
# went through ptxpress-ptxas (its log) and that the program carries
# the kernel for each architecture.
# usage: example.sh BUILD_DIR SOURCE_DIR
BIN=$1 src=$2
. "$(dirname "$0")/lib.sh"
nvcc=${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "skip: no nvcc"; exit 77; }
pre=$tmp/prefix
cmake --install "$BIN" --prefix "$pre" >/dev/null || { fail install; finish; }
for f in bin/ptxpress bin/ptxpress-ptxas share/man/man1/ptxpress.1 \
	share/man/man1/ptxpress-ptxas.1 lib/cmake/ptxpress/ptxpressConfig.cmake \
	share/pkgconfig/ptxpress.pc; do
	[ -s "$pre/$f" ] || fail "not installed: $f"
done
if command -v pkg-config >/dev/null; then
	w=$(PKG_CONFIG_PATH=$pre/share/pkgconfig pkg-config \
		--variable=ptxas_wrapper ptxpress)
	[ -x "$w" ] && ok "pkg-config names the wrapper" ||
		fail "pkg-config: '$w'"
fi
grep -q '^\.SH "COMMAND: dump"' "$pre/share/man/man1/ptxpress.1" &&
	ok "man page has every command" || fail "man page"

export PTXPRESS_LOG=$tmp/log
unset PTXPRESS_PTXAS  # the function names the toolkit's own
cmake -S "$src/examples/cuda-cmake" -B "$tmp/b" -DCMAKE_PREFIX_PATH="$pre" \
	-DCMAKE_CUDA_COMPILER="$nvcc" >"$tmp/cfg" 2>&1 ||
	{ cat "$tmp/cfg"; fail configure; finish; }
cmake --build "$tmp/b" >"$tmp/bld" 2>&1 ||
	{ cat "$tmp/bld"; fail build; finish; }
ok "example built"
for a in sm_80 sm_90; do
	grep -q "arch=$a kernel=_Z14ptxpress_saxpy" "$tmp/log" &&
		ok "$a went through ptxpress-ptxas" || fail "$a not in the log"
done
exe=$tmp/b/saxpy
if command -v cuobjdump >/dev/null; then
	cuobjdump -lelf "$exe" | grep -q sm_90 && ok "cuobjdump: sm_90 cubin" ||
		fail "cuobjdump finds no sm_90 cubin"
else
	grep -c ptxpress_saxpy "$exe" >/dev/null && ok "kernel in the program" ||
		fail "no kernel in the program"
fi
finish
