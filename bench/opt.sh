#!/bin/sh
# opt over the corpus kernels that spill, and our own: the before/after
# table for bench/RESULTS.md.  Each file is searched with --tries N
# (default 32) on all CPUs; the output is validated and re-measured with
# ptxas -v on the file's target.
# $OPTARGS: more options for opt (--sass-guard, say).
# usage: bench/opt.sh [BUILD_DIR] [TRIES] [FILE...] > table.md
set -u
OPTARGS=${OPTARGS:-}
b=${1:-build} tries=${2:-32}
[ $# -gt 2 ] && { shift 2; only="$*"; } || only=""
px=$b/ptxpress pv=$b/ptxasv
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
files="corpus/fmha_sm90a.ptx corpus/fmha_sm100a.ptx"
for f in cute-dsl/fa4_fwd_sm100a cute-dsl/fa4_bwd_sm100a \
	triton/probe_fa_d128_m128_n64_w4_fp16_full_sm90a \
	triton/probe_fa_d128_m128_n128_w4_fp16_full_sm90a \
	triton/probe_fa_d256_m128_n64_w4_fp16_full_sm90a \
	triton/probe_fa_d128_m128_n64_w4_fp16_full_sm100a \
	triton/probe_fa_d128_m128_n128_w4_fp16_full_sm100a \
	triton/probe_fa_d64_m128_n64_w8_fp16_full_sm100a \
	triton/probe_fa_d128_m128_n64_w4_fp16_full_sm120a \
	triton/gated_mlp_11_matmul_kernel_sm_80 \
	nvcc-llvm/tvm_equibench_324_sm80; do
	[ -f "../shared/corpus/$f.ptx" ] && files="$files ../shared/corpus/$f.ptx"
done
[ -n "$only" ] && files=$only
echo "| file | kernel | regs | spill st | spill ld | stack | opt s | pipeline |"
echo "|---|---|--:|--:|--:|--:|--:|---|"
for f in $files; do
	"$pv" "$f" >"$tmp/before" 2>/dev/null || continue
	t0=$(date +%s.%N)
	"$px" opt "$f" -o "$tmp/o.ptx" --tries "$tries" --report json $OPTARGS \
		2>"$tmp/rep" || { echo "| $f | opt failed |"; continue; }
	t1=$(date +%s.%N)
	ok=proven
	"$px" validate "$f" "$tmp/o.ptx" 2>/dev/null || ok="NOT PROVEN"
	"$pv" "$tmp/o.ptx" >"$tmp/after" 2>/dev/null
	awk -F'\t' -v f="$(basename "$f" .ptx)" -v s="$(echo "$t1 - $t0" | bc)" \
	    -v ok="$ok" -v rep="$tmp/rep" '
		BEGIN { while ((getline l < rep) > 0)
			if (match(l, /"name": "[^"]*", "pipeline": "[^"]*"/)) {
				m = substr(l, RSTART, RLENGTH)
				split(m, q, "\"")
				pipe[q[4]] = q[8] } }
		NR == FNR { b[$1] = $0; next }
		{ split(b[$1], x, "\t"); k = $1
		  if (length(k) > 40) k = substr(k, 1, 37) "..."
		  printf "| %s | %s | %s → %s | %s → %s | %s → %s | %s → %s | %.0f | %s (%s) |\n",
			f, k, x[2], $2, x[3], $3, x[4], $4, x[5], $5, s,
			pipe[$1] == "" ? "none" : pipe[$1], ok }
	' "$tmp/before" "$tmp/after"
done
