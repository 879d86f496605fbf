#!/usr/bin/env bash
# mkenv.sh RELEASE [FA4] [QUACK] -- a virtual environment for one CuTe DSL
# release, with FlashAttention-4 and quack-kernels, under the build
# directory (never in git).
#
#   RELEASE  nvidia-cutlass-dsl version, e.g. 4.5.1 or 4.8.0
#   FA4      flash-attn-4 version (default 4.0.0b15)
#   QUACK    quack-kernels version (default 0.4.1)
#
# The defaults hold the FA4 source fixed across DSL releases, as the
# report does: 4.0.0b15 is the newest flash-attn-4 whose Requires-Dist
# (nvidia-cutlass-dsl>=4.4.2) admits 4.5.1, and it still carries the
# 176-register softmax budget for the hd128 non-causal 2-CTA forward
# (4.0.0b31 raised it to 184).  quack-kernels 0.4.1 is likewise the
# newest that admits 4.5.1.  FA4 and quack go in with --no-deps so that
# the same source can be put beside any DSL release; `pip check` output
# is kept in the venv as pip-check.txt so a mismatch is on record.
#
# torch is needed only because flash_attn.cute imports it (and its
# FakeTensorMode is what lets FA4 compile without a GPU).  The PyPI
# wheel is the CUDA build and refuses to import without its nvidia-*
# libraries, so it is installed once, with them, in a shared folder
# ($BUILD/torch-$TORCH) and put on each venv's path by a .pth file.
#
# Environment: PTXPRESS_DSL_BUILD (default <repo>/build/dsl),
# PTXPRESS_TORCH (default 2.9.1).  Prints the venv path on success;
# exits 3 when pip cannot fetch what it needs (no network).
set -euo pipefail

rel=${1:?usage: mkenv.sh RELEASE [FA4] [QUACK]}
fa4=${2:-4.0.0b15}
quack=${3:-0.4.1}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${PTXPRESS_DSL_BUILD:-$root/build/dsl}
torchv=${PTXPRESS_TORCH:-2.9.1}
py=${PYTHON:-python3}

mkdir -p "$build"
build=$(cd "$build" && pwd)
tdir=$build/torch-$torchv
venv=$build/venv-$rel-fa$fa4-q$quack
log=$build/mkenv-$rel-fa$fa4.log
: >"$log"

pipq() { "$@" --disable-pip-version-check -q >>"$log" 2>&1; }
fail() { echo "mkenv: $1 (see $log)" >&2; exit 3; }

if [ ! -f "$tdir/.done" ]; then
	echo "mkenv: installing torch $torchv into $tdir" >&2
	rm -rf "$tdir"
	pipq "$py" -m pip install --target "$tdir" "torch==$torchv" ||
		fail "torch $torchv install failed"
	touch "$tdir/.done"
fi

if [ ! -f "$venv/.done" ]; then
	echo "mkenv: creating $venv" >&2
	rm -rf "$venv"
	"$py" -m venv "$venv"
	site=$("$venv/bin/python" -c \
		'import sysconfig; print(sysconfig.get_paths()["purelib"])')
	echo "$tdir" >"$site/zz-shared-torch.pth"
	vp="$venv/bin/python"
	pipq "$vp" -m pip install "nvidia-cutlass-dsl==$rel" ||
		fail "nvidia-cutlass-dsl $rel install failed"
	pipq "$vp" -m pip install --no-deps --pre \
		"flash-attn-4==$fa4" "quack-kernels==$quack" ||
		fail "flash-attn-4 $fa4 / quack-kernels $quack install failed"
	pipq "$vp" -m pip install einops typing_extensions \
		'apache-tvm-ffi<0.2,>=0.1.5' torch-c-dlpack-ext ||
		fail "FA4 support packages install failed"
	"$vp" -m pip check >"$venv/pip-check.txt" 2>&1 || true
	"$vp" -m pip freeze >"$venv/pip-freeze.txt" 2>&1
	touch "$venv/.done"
fi
echo "$venv"
