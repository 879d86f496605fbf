#!/bin/sh
# ptxpress dump on a fake CuTe DSL dump (<fn>.<arch>.ptx, NUL-terminated)
# and a fake Triton dump (<hash>/<kernel>.ptx), built here from small
# kernels and, when ../shared/corpus is there, from real ones: rows per
# kernel, worst first, JSON, outputs written and originals untouched,
# the TRITON_OVERRIDE_DIR layout, kernel names kept.
# usage: dump.sh BUILD_DIR [CORPUS_DIR]
BIN=$1
corpus=${2:-}
. "$(dirname "$0")/lib.sh"
cd "$tmp"
mkdir cute tri tri/h0a1 tri/h0b2
kernel cute_fn sm_90a >cute/cute_fn.sm_90a.ptx
kernel cute_g sm_80 >cute/cute_g.sm_80.ptx
kernel small sm_80 >tri/h0a1/small.ptx
kernel other sm_90a >tri/h0b2/other.ptx
for f in cute/*.ptx; do printf '\000\000' >>"$f"; done
echo '{"name": "small"}' >tri/h0a1/small.json
if [ -n "$corpus" ] && [ -d "$corpus" ]; then
	# the real thing, read at test time and never kept
	cp "$corpus/cute-dsl/hello_world_sm120a.ptx" cute/hello.sm_120a.ptx
	mkdir tri/h0c3
	cp "$corpus/triton/gated_mlp_11_matmul_kernel_sm_80.ptx" \
		tri/h0c3/matmul_kernel.ptx
fi
find cute tri -type f -exec cksum {} + | sort >sums.before

"$px" dump cute -o cout >ctab 2>cerr; r1=$?
[ $r1 = 0 ] && grep -q "cute_fn (cute_fn.sm_90a.ptx)" ctab &&
	grep -q "sm_80 .*cute_g" ctab && ok "CuTe DSL dump: table" ||
	fail "CuTe DSL dump: rc $r1 $(cat ctab cerr)"
[ -s cout/cute_fn.sm_90a.ptx ] && [ -s cout/cute_fn.sm_90a.cubin ] &&
	[ "$(tr -d '\000' <cout/cute_fn.sm_90a.ptx | wc -c)" = \
		"$(wc -c <cout/cute_fn.sm_90a.ptx)" ] &&
	ok "CuTe DSL dump: PTX and cubin written" || fail "CuTe outputs"

"$px" dump tri --json --triton-override ovr >tjson 2>terr; r1=$?
[ $r1 = 0 ] && [ -s tri.ptxpress/ptxpress-dump.json ] &&
	grep -q '"kernel": "small"' tjson && ok "Triton dump: JSON" ||
	fail "Triton dump: rc $r1 $(cat terr)"
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' tjson &&
		ok "JSON parses" || fail "JSON does not parse"
fi
[ -s tri.ptxpress/h0a1/small.cubin ] && [ -s ovr/h0a1/small.ptx ] &&
	[ -s ovr/h0b2/other.ptx ] && [ ! -e ovr/h0a1/small.json ] &&
	ok "TRITON_OVERRIDE_DIR layout" || fail "override layout"
grep -q '^\.visible \.entry small(' ovr/h0a1/small.ptx &&
	ok "kernel names kept" || fail "kernel name changed"

# worst first: the corpus matmul spills, the small kernels do not
if [ -e tri/h0c3/matmul_kernel.ptx ]; then
	sed -n 2p tri.ptxpress/ptxpress-dump.json | grep -q matmul_kernel &&
		ok "worst first" || fail "order: $(head -3 tri.ptxpress/ptxpress-dump.json)"
fi

find cute tri -type f -exec cksum {} + | sort >sums.after
cmp -s sums.before sums.after && ok "originals untouched" ||
	fail "the dump folder changed"
"$px" dump tri -o tri 2>/dev/null && fail "-o DIR == DIR accepted" ||
	ok "refuses to write into the dump"
mkdir empty
"$px" dump empty -o eout 2>/dev/null; [ $? = 2 ] &&
	ok "empty folder: exit 2" || fail "empty folder"
finish
