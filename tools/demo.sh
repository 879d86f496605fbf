#!/bin/sh
# The main job on a bundled kernel: build ptxpress (installing flex and
# bison if missing), read our own FMHA kernel for sm_90a, and rewrite the
# configuration that spills so that ptxas spills less, proven equivalent.
# usage: tools/demo.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
b=${1:-build}
tools/setup.sh "$b"
px=$b/ptxpress
k=fmha_fwd_bf16_d256_m64_n128
echo "== check: what was read"
$px check corpus/fmha_sm90a.ptx
if [ -x "$b/ptxpress" ] && $px pressure --help >/dev/null 2>&1; then
	echo "== pressure: where the registers are"
	$px pressure corpus/fmha_sm90a.ptx --kernel $k --top 3 || true
fi
echo "== opt: rewrite $k, let ptxas judge, prove the result"
$px opt corpus/fmha_sm90a.ptx --kernel $k -o "$b/fmha_sm90a.opt.ptx"
$px validate corpus/fmha_sm90a.ptx "$b/fmha_sm90a.opt.ptx"
echo "rewritten PTX: $b/fmha_sm90a.opt.ptx"
