# lib.sh: what the drop tests share.  Sourced with BIN (the build
# folder) set; gives $px, $wrap, $real (the real ptxas, or skip),
# a private $tmp, a private cache, and small PTX files.
set -u
BIN=$(cd "$BIN" && pwd)
px=$BIN/ptxpress
wrap=$BIN/ptxpress-ptxas
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxpress-drop-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PTXPRESS_CACHE_DIR=$tmp/cache
unset PTXPRESS_LOG PTXPRESS_STRICT PTXPRESS_PIPELINE
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
finish() {
	[ "$fails" -eq 0 ] && echo "all passed" || echo "$fails failed"
	exit $((fails > 0))
}

# the real ptxas, as ptxpress-ptxas would find it; none: skip
real=${PTXPRESS_PTXAS:-$(command -v ptxas || true)}
[ -n "$real" ] || real=/usr/local/cuda/bin/ptxas
if [ ! -x "$real" ]; then echo "skip: no ptxas"; exit 77; fi
export PTXPRESS_PTXAS=$real

# A small kernel named $1 for target $2, PTX ISA 8.0 (CUDA 12.0 on).
kernel() {
	cat <<PTX
// a test kernel: y[i] = x[i] * x[i] + 1
.version 8.0
.target $2
.address_size 64

.visible .entry $1(.param .u64 px, .param .u64 py)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	.reg .f32 %f<3>;
	ld.param.u64 %rd1, [px];
	ld.param.u64 %rd2, [py];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	ld.global.f32 %f1, [%rd4];
	fma.rn.f32 %f2, %f1, %f1, 0f3F800000;
	add.s64 %rd5, %rd2, %rd3;
	st.global.f32 [%rd5], %f2;
	ret;
}
PTX
}

# Valid PTX that ptxas takes but ptxpress cannot parse (a ?: constant
# expression), or nothing when ptxpress has learnt to parse it.
unparsable() {
	sed 's|^\tfma\.rn|\tmov.u32 %r2, 1 ? 2 : 3;\n&|' "$1"
}

sameout() { # strips the timing line ptxas prints with -v
	grep -v 'Compile time' "$1" >"$1.x"; grep -v 'Compile time' "$2" >"$2.x"
	cmp -s "$1.x" "$2.x"
}
