#!/bin/sh
# Kernels opt was not tuned on: Triton's FMHA (../shared/triton/
# fa_kernel.py) in 23 configurations, all but one not in the corpus (bf16,
# causal, other tiles, warps and stages; sm_80 to sm_120a), each as
# launched with 16-aligned tensors and as for misaligned ones, compiled here
# without a GPU by Triton 3.6 (tools/gen-triton.py), then bench/opt.sh's
# before/after table over them.  Triton comes from PyPI once, into
# ~/.cache/ptxpress (about 650 MB); the PTX goes to a temporary folder.
# With --fresh, the second set (gen-triton.py --fresh, hf_ files: made
# after the first had served thirteen sessions of tuning).
# With --triton VERSION, that Triton compiles them (3.9.0 writes PTX 9.4,
# which CUDA 13.0's ptxas does not read): its own ptxas-blackwell (13.4
# in 3.9.0) judges and measures them unless $PTXPRESS_PTXAS is set.
# With --configs LIST, those configurations (gen-triton.py's --configs:
# D,BLOCK_M,BLOCK_N,WARPS,STAGES,DTYPE,full|causal,SM;...).
# With --keep DIR, the PTX stays in DIR.
# usage: bench/heldout.sh [--fresh] [--triton VERSION] [--configs LIST]
#        [--keep DIR] [BUILD_DIR] [TRIES] > table.md
set -u
set_= ver=3.6.0 cfg= keep=
while [ $# -gt 0 ]; do
	case $1 in
	--fresh) set_=--fresh; shift ;;
	--triton) ver=$2; shift 2 ;;
	--configs) cfg=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	*) break ;;
	esac
done
b=${1:-build} tries=${2:-12}
top=$(cd "$(dirname "$0")/.." && pwd)
py=$(python3 -c 'import sys; print("%d%d" % sys.version_info[:2])') || exit 1
site=${XDG_CACHE_HOME:-$HOME/.cache}/ptxpress/triton-$ver-py$py
[ -f "$top/../shared/triton/fa_kernel.py" ] ||
	{ echo "heldout: no ../shared/triton/fa_kernel.py" >&2; exit 77; }
if [ ! -d "$site/triton" ]; then
	rm -rf "$site.tmp" &&
	python3 -m pip install -q --target "$site.tmp" "triton==$ver" >&2 &&
	mv "$site.tmp" "$site" || { echo "heldout: no triton" >&2; exit 77; }
fi
if [ -n "$keep" ]; then
	mkdir -p "$keep" && tmp=$(cd "$keep" && pwd) || exit 1
else
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
fi
if [ -n "$cfg" ]; then
	PYTHONPATH=$site python3 "$top/tools/gen-triton.py" --configs "$cfg" \
		"$tmp" >/dev/null || exit 1
else
	PYTHONPATH=$site python3 "$top/tools/gen-triton.py" $set_ "$tmp" \
		>/dev/null || exit 1
fi
bw=$site/triton/backends/nvidia/bin/ptxas-blackwell
[ "$ver" != 3.6.0 ] && [ -z "${PTXPRESS_PTXAS:-}" ] && [ -x "$bw" ] &&
	export PTXPRESS_PTXAS="$bw"
sh "$top/bench/opt.sh" "$b" "$tries" "$tmp"/*.ptx
