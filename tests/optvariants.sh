#!/bin/sh
# opt --variants lists every variant ptxas took for a kernel, best first:
# on our spilling d256 kernel the first row is the report's pick, the
# input is listed with the report's 'before' figures, there are as many
# rows as tries, and the rows are in the search's order (spill bytes,
# then stack, then registers); a wgmma kernel with pin=ld's converts
# tries remat=loop,pin=ld early; a tensor-memory kernel whose row sum
# early moves reaches early with pin within the drop-in's 8 tries.
# Needs ptxas (77).
# usage: optvariants.sh PTXPRESS TOPDIR
set -u
px=$1 top=$2
. "$top/tests/needptxas.sh"
k=fmha_fwd_f16_d256_m64_n128
"$px" opt "$top/corpus/fmha_sm90a.ptx" --kernel $k --tries 6 --refine 0 -j 2 \
	--variants -o "$tmp/o.ptx" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
awk -v k=$k '
	$0 == k ": 6 variants ptxas took, best first" { head = 1; next }
	head && $1 == "regs" { rows = 1; next }
	rows && NF >= 6 && $1 ~ /^[0-9]+$/ {
		n++; pipe[n] = $6; sp[n] = $2; st[n] = $3; rg[n] = $1
		if ($6 == "(the") inp = $2 "/" $3; next }
	rows { rows = 0 }
	$1 == k && NF == 5 { split($3, s, "->"); split($4, t, "->"); pick = $5
		before = s[1] "/" t[1] }
	END {
		bad = 0
		if (n != 6) { print "FAIL rows: " n; bad = 1 }
		if (pipe[1] != pick) { print "FAIL first row " pipe[1] " is not the pick " pick; bad = 1 }
		if (inp != before) { print "FAIL input row " inp " is not before " before; bad = 1 }
		for (i = 2; i <= n; i++)
			if (sp[i] < sp[i-1] || (sp[i] == sp[i-1] && (st[i] < st[i-1] ||
			    (st[i] == st[i-1] && rg[i] < rg[i-1])))) {
				print "FAIL order at row " i; bad = 1 }
		exit bad }' "$tmp/log" || { sed 's/^/  | /' "$tmp/log"; exit 1; }
# A wgmma kernel whose P converts stand before a run of global loads
# (pin=ld's case: Triton's misaligned sm_90a kernels) reaches
# remat=loop,pin=ld within 4 tries: behind the five wgmma variants the
# drop-in's 8 tries never reached it (bench/RESULTS.md, sixteenth
# session).
"$px" opt "$top/tests/opt/pldbase.ptx" --tries 4 --refine 0 -j 2 \
	--variants -o "$tmp/p.ptx" >"$tmp/plog" 2>&1 || { cat "$tmp/plog"; exit 1; }
grep -q ' remat=loop,pin=ld$' "$tmp/plog" ||
	{ echo "FAIL pldbase: remat=loop,pin=ld not among 4 tries"; sed 's/^/  | /' "$tmp/plog"; exit 1; }
# A tensor-memory kernel with a late sum (early's case: Triton's
# Blackwell kernels) reaches early,pin,...,tsink=far within the
# drop-in's 8 tries: behind the tcgen05 variants and the other early ones
# it never did, where it alone took Triton 3.6's and 3.9's aligned
# sm_100a d128_n128 kernels to 0 bytes (bench/RESULTS.md, twenty-first
# session).  epbase.ptx with its load from global memory made a tcgen05.ld.
sed 's|ld.global.f32 %r2, \[%rd1\];|tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r2}, [%r1];\
\ttcgen05.wait::ld.sync.aligned;|' "$top/tests/opt/epbase.ptx" >"$tmp/ept.ptx"
grep -q 'tcgen05.wait::ld' "$tmp/ept.ptx" || { echo "FAIL ept: no tcgen05.ld made"; exit 1; }
"$px" opt "$tmp/ept.ptx" --tries 8 --refine 0 -j 2 \
	--variants -o "$tmp/e.ptx" >"$tmp/elog" 2>&1 || { cat "$tmp/elog"; exit 1; }
grep -q ' early,pin,remat=loop,sched=bu,tsink,hoist,tsink=far$' "$tmp/elog" ||
	{ echo "FAIL ept: early,pin,... not among 8 tries"; sed 's/^/  | /' "$tmp/elog"; exit 1; }
# A tensor-memory kernel without a late sum (tsink.ptx) reaches
# remat=loop,sched=bu,softmax=2,tsink,hoist,pin=cvt within the drop-in's
# 8 tries: on Triton 3.6's misaligned causal d128_n128 sm_100a kernel it
# leaves 320 bytes where the search's 8 had left 712 (bench/RESULTS.md,
# twenty-third session).
"$px" opt "$top/tests/opt/tsink.ptx" --tries 8 --refine 0 -j 2 \
	--variants -o "$tmp/t.ptx" >"$tmp/tlog" 2>&1 || { cat "$tmp/tlog"; exit 1; }
grep -q ' remat=loop,sched=bu,softmax=2,tsink,hoist,pin=cvt$' "$tmp/tlog" ||
	{ echo "FAIL tsink: remat=loop,...,pin=cvt not among 8 tries"; sed 's/^/  | /' "$tmp/tlog"; exit 1; }
echo "optvariants: cases passed"
