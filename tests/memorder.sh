#!/bin/sh
# Memory order, held to the validator: each line names two statements
# with a memory or ordering effect; the first kernel runs them in that
# order, the second swaps them.  R: the swap may change what the kernel
# computes (the two may touch the same bytes: a wide store and a
# narrower load inside it, a generic address and a shared one, a
# shared::cluster store and a shared::cta load, tensor-memory columns
# of .x4 and .unpack::16b, or one of them orders memory: a barrier, a
# fence, an mbarrier wait, an async copy or its wait, volatile, acquire
# and release accesses, setmaxnreg, exit), so `validate` must refuse
# it.  OK: two accesses that cannot meet (two loads; global and
# shared), which it must prove.  With ptxas, each first kernel must
# assemble for its target.
# usage: memorder.sh PTXPRESS TOPDIR
set -u
px=$1
. "$2/tests/swapjudge.sh"

while IFS='|' read -r want target a b; do
	case $want in ''|'#'*) continue ;; esac
	kernel "$target" "	$a
	$b" >"$tmp/a.ptx"
	kernel "$target" "	$b
	$a" >"$tmp/b.ptx"
	judge "$want" "$target" "$a | $b"
done <<'CASES'
R|sm_90a|st.global.u64 [%rd1], %rd2;|ld.global.u32 %r8, [%rd1+4];
R|sm_90a|st.global.v4.u32 [%rd1], {%r3, %r3, %r3, %r3};|ld.global.u32 %r8, [%rd1+12];
R|sm_90a|st.global.u32 [%rd1], %r3;|ld.u32 %r8, [%rd1];
R|sm_90a|st.shared::cluster.u32 [%r2], %r3;|ld.shared::cta.u32 %r8, [%r2];
R|sm_90a|st.shared.u32 [%r2], %r3;|ld.u32 %r8, [%rd5];
R|sm_90a|st.u32 [%rd5], %r3;|ld.shared.u32 %r8, [%r2];
R|sm_90a|atom.global.add.u32 %r9, [%rd1], 1;|ld.global.u32 %r8, [%rd1];
R|sm_90a|red.global.add.u32 [%rd1], 1;|ld.global.u32 %r8, [%rd1];
R|sm_90a|st.global.u32 [%rd1], %r3;|ld.global.nc.u32 %r8, [%rd1];
R|sm_90a|st.local.u32 [%rd2], %r3;|ld.u32 %r8, [%rd2];
R|sm_90a|bar.sync 0;|ld.shared.u32 %r8, [%r2];
R|sm_90a|st.shared.u32 [%r2], %r3;|bar.sync 0;
R|sm_90a|fence.acq_rel.gpu;|ld.global.u32 %r8, [%rd1];
R|sm_90a|membar.gl;|st.global.u32 [%rd1], %r3;
R|sm_90a|mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], %r3;|ld.shared.u32 %r8, [%r2+8];
R|sm_90a|cp.async.ca.shared.global [%r2], [%rd1], 4;|ld.shared.u32 %r8, [%r2];
R|sm_90a|cp.async.wait_all;|ld.shared.u32 %r8, [%r2];
R|sm_90a|cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 16, [%r2+64];|ld.shared.u32 %r8, [%r2];
R|sm_90a|st.global.u32 [%rd1], %r3;|cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r2], 16;
R|sm_90a|ld.global.u32 %r8, [%rd1];|st.global.u32 [%rd1], %r3;
R|sm_90a|st.global.u32 [%rd1], %r3;|st.global.u32 [%rd1], %r4;
R|sm_90a|ld.volatile.global.u32 %r8, [%rd1];|ld.volatile.global.u32 %r9, [%rd1+4];
R|sm_90a|ld.acquire.gpu.global.u32 %r8, [%rd1];|ld.global.u32 %r9, [%rd1+4];
R|sm_90a|st.global.u32 [%rd1+4], %r3;|st.release.gpu.global.u32 [%rd1], %r4;
R|sm_90a|stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r2], {%r3};|ld.shared.u32 %r8, [%r2];
R|sm_90a|st.shared.u32 [%r2], %r3;|ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r8}, [%r2];
R|sm_90a|st.global.u32 [%rd1], %r3;|prefetch.global.L2::evict_last [%rd1];
R|sm_90a|st.shared.u32 [%r2], %r3;|wgmma.fence.sync.aligned;
R|sm_90a|fence.proxy.async.shared::cta;|ld.shared.u32 %r8, [%r2];
R|sm_90a|st.shared.u32 [%r2], %r3;|fence.proxy.async.shared::cta;
R|sm_90a|fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;|ld.shared.u32 %r8, [%r2];
R|sm_90a|st.shared.u32 [%r2], %r3;|fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
R|sm_90a|setmaxnreg.inc.sync.aligned.u32 232;|ld.global.u32 %r8, [%rd1];
R|sm_90a|st.global.u32 [%rd1], %r3;|trap;
R|sm_90a|st.global.u32 [%rd1], %r3;|exit;
R|sm_90a|st.global.u32 [%rd1], %r3;|ld.global.u32 %r8, [%rd6];
R|sm_100a|tcgen05.st.sync.aligned.32x32b.x4.b32 [%r2], {%r3, %r3, %r3, %r3};|tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r8}, [%r2+3];
R|sm_100a|tcgen05.st.sync.aligned.32x32b.x2.unpack::16b.b32 [%r2], {%r3, %r3};|tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r8}, [%r2+3];
R|sm_100a|tcgen05.st.sync.aligned.32x32b.x1.b32 [%r2+3], {%r3};|tcgen05.ld.sync.aligned.32x32b.x2.pack::16b.b32 {%r8, %r9}, [%r2];
R|sm_100a|tcgen05.st.sync.aligned.16x64b.x1.b32 [%r2], {%r3};|tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r8}, [%r2];
R|sm_100a|tcgen05.wait::st.sync.aligned;|tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r8}, [%r2];
R|sm_100a|tcgen05.mma.cta_group::1.kind::f16 [%r2], %rd2, %rd3, %r3, %p1;|tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r8}, [%r2];
OK|sm_90a|ld.global.u32 %r8, [%rd1];|ld.global.u32 %r9, [%rd1+4];
OK|sm_90a|st.global.u32 [%rd1], %r3;|ld.shared.u32 %r8, [%r2];
OK|sm_90a|ld.global.u32 %r8, [%rd1];|ld.shared.u32 %r9, [%r2];
CASES
echo "memorder: $n swaps, $bad wrong"
[ $bad -eq 0 ]
