#!/bin/sh
# What each instruction writes and reads, held to the validator: for
# every form below, a pair of kernels that differ only in the order of
# the instruction and a plain write of one register X, which the
# instruction writes (W) or reads (R) as the PTX ISA says.  The first
# kernel writes X, runs the instruction and then reads X (W), or runs
# the instruction, keeps what it gave and then writes X (R); the second
# swaps the instruction with that read (W) or that write (R), so the
# value read changes, or what the instruction read (for prefetch and
# nanosleep only where or how long).  `validate` must refuse every one:
# a proof would mean the opcode table (src/ops.h) or an operand rule
# (ops.c opdefs) takes a write for a read (W) or misses an operand (R),
# and the schedulers, which share that table, could make the swap.
# Controls (OK): swaps that change nothing, which must be proven, so
# that a validator refusing everything fails too.  With ptxas, each
# first kernel must also assemble for its target (the forms are real).
# Lines: MODE KIND TARGET INSTRUCTION [@@ WHAT KEEPS ITS RESULT]; KIND is
# X's register class: r (%r9), rd (%rd9), f (%f9), p (%p9), rs (%rs9).
# usage: defuse.sh PTXPRESS TOPDIR
set -u
px=$1
. "$2/tests/swapjudge.sh"

while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	set -f
	set -- $line
	set +f
	mode=$1 kind=$2 target=$3
	rest=${line#"$1 $2 $3 "}
	ins=${rest%%@@*}
	after=
	case $rest in *@@*) after=${rest#*@@ } ;; esac
	case $kind in   # w: a write of X; r: a read of X into %r7...
	r) w='	mov.u32 %r9, 5;' r='	add.u32 %r7, %r9, 0;'
	   keep='	st.global.u32 [%rd1+8], %r7;' ;;
	rd) w='	mov.u64 %rd9, 5;' r='	add.u64 %rd7, %rd9, 0;'
	   keep='	st.global.u64 [%rd1+8], %rd7;' ;;
	f) w='	mov.f32 %f9, 0f40000000;' r='	add.f32 %f7, %f9, 0f00000000;'
	   keep='	st.global.f32 [%rd1+8], %f7;' ;;
	rs) w='	mov.u16 %rs9, 5;' r='	add.u16 %rs7, %rs9, 0;'
	   keep='	st.global.u16 [%rd1+8], %rs7;' ;;
	p) w='	setp.eq.s32 %p9, %r3, 7;' r='	selp.u32 %r7, 1, 0, %p9;'
	   keep='	st.global.u32 [%rd1+8], %r7;' ;;
	esac
	i="	$ins"
	[ -n "$after" ] && i="$i
	$after"
	if [ "$mode" = R ]; then        # the instruction's read, then X's write
		a="$i
$w
$r
$keep
" b="$w
$i
$r
$keep
"
	else    # W, OK: X written, then the instruction and a read of X
		a="$w
$i
$r
$keep
" b="$w
$r
$i
$keep
"
	fi
	kernel "$target" "$a" >"$tmp/a.ptx"
	kernel "$target" "$b" >"$tmp/b.ptx"
	judge "$mode" "$target" "$mode $ins"
done <<'CASES'
# writes
W r sm_100a elect.sync %r9|%p1, -1;
W p sm_100a elect.sync %r1|%p9, -1;
W r sm_90a shfl.sync.idx.b32 %r9|%p1, %r2, 0, 31, -1;
W p sm_90a shfl.sync.idx.b32 %r1|%p9, %r2, 0, 31, -1;
W rd sm_90a mbarrier.arrive.shared::cta.b64 %rd9, [%r2];
W p sm_90a mbarrier.try_wait.parity.shared::cta.b64 %p9, [%r2], %r3;
W p sm_90a mbarrier.test_wait.parity.shared::cta.b64 %p9, [%r2], %r3;
W r sm_90a match.all.sync.b32 %r9|%p1, %r2, -1;
W p sm_90a match.all.sync.b32 %r1|%p9, %r2, -1;
W r sm_90a match.any.sync.b32 %r9, %r2, -1;
W r sm_90a vote.sync.ballot.b32 %r9, %p1, -1;
W p sm_90a vote.sync.all.pred %p9, %p1, -1;
W p sm_90a vote.sync.uni.pred %p9, %p1, -1;
W r sm_90a cvt.rn.f16x2.f32 %r9, %f1, %f2;
W r sm_90a mov.b64 {%r9, %r1}, %rd1;
W r sm_90a mov.b64 {%r1, %r9}, %rd1;
W r sm_90a ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r9, %r3, %r4}, [%r5];
W r sm_90a atom.global.add.u32 %r9, [%rd1], 1;
W r sm_90a atom.shared.cas.b32 %r9, [%r2], %r3, %r4;
W p sm_90a setp.eq.s32 %p1|%p9, %r1, 0;
W p sm_90a setp.eq.and.s32 %p9, %r1, 0, %p1;
W r sm_90a prmt.b32 %r9, %r2, %r3, %r4;
W r sm_90a redux.sync.add.u32 %r9, %r2, -1;
W r sm_90a activemask.b32 %r9;
W r sm_90a getctarank.shared::cluster.u32 %r9, %r2;
W p sm_90a isspacep.global %p9, %rd1;
W r sm_90a lop3.b32 %r9, %r2, %r3, %r4, 0xff;
W p sm_90a lop3.or.b32 %r1|%p9, %r2, %r3, %r4, 0xff, %p1;
W rd sm_90a createpolicy.fractional.L2::evict_last.b64 %rd9, 1.0;
W r sm_90a mapa.shared::cluster.u32 %r9, %r2, %r3;
W p sm_90a testp.finite.f32 %p9, %f1;
W r sm_90a cvt.pack.sat.u8.s32.b32 %r9, %r2, %r3, %r4;
W r sm_90a shf.l.wrap.b32 %r9, %r2, %r3, %r4;
W r sm_90a bar.red.popc.u32 %r9, 0, %p1;
W r sm_90a barrier.cta.red.popc.u32 %r9, 0, %p1;
W r sm_90a fns.b32 %r9, %r2, %r3, 1;
W r sm_90a dp4a.u32.u32 %r9, %r2, %r3, %r4;
W r sm_90a szext.clamp.s32 %r9, %r2, %r3;
W r sm_90a bmsk.clamp.b32 %r9, %r2, %r3;
W r sm_90a ld.global.nc.v4.u32 {%r1, %r2, %r9, %r4}, [%rd1];
W r sm_90a ldu.global.u32 %r9, [%rd1];
W r sm_90a multimem.ld_reduce.global.add.u32 %r9, [%rd1];
W rd sm_90a stacksave.u64 %rd9;
W rd sm_90a alloca.u64 %rd9, 16;
W rd sm_90a cvta.to.global.u64 %rd9, %rd1;
W rd sm_90a mul.wide.u32 %rd9, %r2, %r3;
W r sm_90a mov.u32 %r9, %laneid;
W r sm_100a tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1, %r9}, [%r2];
W f sm_90a mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f9}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};
W r sm_90a add.cc.u32 %r9, %r2, %r3;
W r sm_90a set.eq.u32.s32 %r9, %r2, %r3;
W p sm_100a clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p9, %rq1;
W r sm_100a clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r1, %r9, %r3, %r4}, %rq1;
W r sm_90a tex.2d.v4.u32.s32 {%r1, %r2, %r9, %r4}, [%rd1, {%r5, %r6}];
W r sm_90a suld.b.2d.v4.b32.trap {%r1, %r2, %r9, %r4}, [%rd1, {%r5, %r6}];
W r sm_90a txq.width.b32 %r9, [%rd1];
# reads
R r sm_90a add.u32 %r8, %r9, 1; @@ st.global.u32 [%rd1], %r8;
R f sm_90a fma.rn.f32 %f8, %f1, %f2, %f9; @@ st.global.f32 [%rd1], %f8;
R r sm_90a st.global.v4.u32 [%rd1], {%r1, %r2, %r9, %r4};
R r sm_90a mov.b64 %rd8, {%r1, %r9}; @@ st.global.u64 [%rd1], %rd8;
R r sm_90a shfl.sync.idx.b32 %r8|%p2, %r9, 0, 31, -1; @@ st.global.u32 [%rd1], %r8;
R r sm_90a shfl.sync.idx.b32 %r8, %r2, %r9, 31, -1; @@ st.global.u32 [%rd1], %r8;
R r sm_90a shfl.sync.idx.b32 %r8, %r2, 0, 31, %r9; @@ st.global.u32 [%rd1], %r8;
R p sm_90a lop3.or.b32 %r8|%p2, %r2, %r3, %r4, 0xff, %p9; @@ selp.u32 %r8, 1, 0, %p2; st.global.u32 [%rd1], %r8;
R p sm_90a setp.eq.and.s32 %p2, %r1, 0, %p9; @@ selp.u32 %r8, 1, 0, %p2; st.global.u32 [%rd1], %r8;
R p sm_90a @%p9 st.global.u32 [%rd1], %r3;
R p sm_90a selp.u32 %r8, 1, 0, %p9; @@ st.global.u32 [%rd1], %r8;
R p sm_90a bar.red.popc.u32 %r8, 0, %p9; @@ st.global.u32 [%rd1], %r8;
R r sm_90a elect.sync %r8|%p2, %r9; @@ st.global.u32 [%rd1], %r8;
R r sm_90a vote.sync.ballot.b32 %r8, %p1, %r9; @@ st.global.u32 [%rd1], %r8;
R r sm_90a st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r2], %r9, [%r4];
R r sm_90a mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r2], %r9;
R r sm_90a mbarrier.arrive.expect_tx.shared::cta.b64 %rd8, [%r2], %r9; @@ st.global.u64 [%rd1], %rd8;
R r sm_100a tcgen05.st.sync.aligned.32x32b.x2.b32 [%r2], {%r1, %r9};
R r sm_90a stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r2], {%r9};
R f sm_90a cvt.rn.f16x2.f32 %r8, %f1, %f9; @@ st.global.u32 [%rd1], %r8;
R r sm_90a red.global.add.u32 [%rd1], %r9;
R r sm_90a atom.shared.cas.b32 %r8, [%r2], %r3, %r9; @@ st.global.u32 [%rd1], %r8;
R f sm_90a mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f9}; @@ st.global.f32 [%rd1], %f4;
R r sm_90a mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r9}, {%r5, %r6}, {%f1, %f2, %f3, %f5}; @@ st.global.f32 [%rd1], %f1;
R r sm_90a addc.u32 %r8, %r9, 1; @@ st.global.u32 [%rd1], %r8;
R r sm_90a tex.2d.v4.u32.s32 {%r1, %r2, %r8, %r4}, [%rd1, {%r5, %r9}]; @@ st.global.u32 [%rd1], %r8;
R r sm_90a cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], %r9, [%r4];
R rd sm_90a fence.proxy.tensormap::generic.acquire.gpu [%rd9], 128;
R rd sm_90a prefetch.global.L2 [%rd9];
R r sm_90a multimem.st.global.u32 [%rd1], %r9;
R r sm_90a bfi.b32 %r8, %r2, %r3, %r9, 4; @@ st.global.u32 [%rd1], %r8;
R r sm_90a prmt.b32 %r8, %r2, %r3, %r9; @@ st.global.u32 [%rd1], %r8;
R r sm_90a dp2a.lo.u32.u32 %r8, %r2, %r3, %r9; @@ st.global.u32 [%rd1], %r8;
R rd sm_100a tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd2, %rd9, %r3, %p1;
R rd sm_90a wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd2, %rd9, 1, 1, 1, 0, 0; @@ st.global.f32 [%rd1], %f1;
R f sm_90a wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f9}, %rd2, %rd3, 1, 1, 1, 0, 0; @@ st.global.f32 [%rd1], %f1;
R p sm_90a wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd2, %rd3, %p9, 1, 1, 0, 0; @@ st.global.f32 [%rd1], %f1;
R rd sm_90a st.global.L2::cache_hint.u32 [%rd1], %r3, %rd9;
R rd sm_90a ld.global.L2::cache_hint.u32 %r8, [%rd1], %rd9; @@ st.global.u32 [%rd1], %r8;
R rs sm_90a cvt.u32.u16 %r8, %rs9; @@ st.global.u32 [%rd1], %r8;
R r sm_90a mov.b32 {%rs1, %rs2}, %r9; @@ st.global.u16 [%rd1], %rs2;
R r sm_90a slct.u32.s32 %r8, %r2, %r3, %r9; @@ st.global.u32 [%rd1], %r8;
R r sm_90a cp.async.mbarrier.arrive.shared.b64 [%r9];
R r sm_90a redux.sync.add.u32 %r8, %r2, %r9; @@ st.global.u32 [%rd1], %r8;
R r sm_90a nanosleep.u32 %r9;
# controls: swaps of independent work, which must be proven
OK r sm_90a add.u32 %r8, %r3, 1; @@ st.global.u32 [%rd1], %r8;
OK r sm_90a ld.global.u32 %r8, [%rd1+4]; @@ st.global.u32 [%rd1], %r8;
OK p sm_90a selp.u32 %r8, 1, 0, %p1; @@ st.global.u32 [%rd1], %r8;
OK rd sm_90a prefetch.global.L2 [%rd1];
CASES
echo "defuse: $n swaps, $bad wrong"
[ $bad -eq 0 ]
