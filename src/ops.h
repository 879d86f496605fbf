/* The one table of PTX opcodes.  Expanded into the Op enum, the name
 * lookup, the printer's spelling and the properties passes read.
 *
 *   O(id, "spelling", defs, class, latency, types, typeset)
 *
 * defs: which operands the instruction writes
 *   D0   operand 0 (every register inside a vector or p|q pair)
 *   D0U  operand 0, and it is read too (accumulating async MMA)
 *   DNO  nothing
 *   DCALL the parenthesised return list of a call
 * class: how it orders against other instructions (see Klass in all.h)
 * latency: a coarse class for scheduling heuristics
 * types: what register each operand takes, one letter an operand, by the
 *   instruction's type (T, .u32 in add.u32) as ptxas checks it ("Arguments
 *   mismatch"), or 0 where check says nothing (check.c checktypes):
 *   T    the type's size, the same kind (.b goes with any kind, .u with .s)
 *   w    T, or twice its size when the instruction is .wide
 *   U    as T for .u32 (shift amounts, bit positions, counts)
 *   P    a predicate
 *   R    as T, or wider for a .b/.u/.s type and a .b register (ld, st,
 *        cvt: ld.u8 into a .u32 register); each of a vector as T
 *   S, Q the second type (cvt.f32.s32's .s32) as T, as R
 *   A    an address: its register neither a float nor a predicate
 *   -    anything (a cache policy, lop3's table)
 *   |    the operands after it may be left out (setp's c, ld's policy)
 *   An instruction has as many operands as letters, fewer by those
 *   after a |, as ptxas counts them ("Arguments mismatch").
 * typeset: the instruction types ptxas takes ("Unexpected instruction
 *   types specified"): b32, u32, s32, f32 ..., f16x2, bf16, bf16x2 (the
 *   packed and brain-float types, asked of on sm_90a only: older targets
 *   lack some); i32 is u32 or s32; or 0
 *   where check says nothing.  For an opcode whose modifiers narrow it
 *   (div.rn is a float's, setp.lt takes no .b) the union.
 *
 * Opcode names may contain dots ("tcgen05.ld", "mbarrier.try_wait"); the
 * lookup takes the longest dotted prefix found here, the rest are
 * modifiers.  An opcode that is not here is still read and written back,
 * warned about by check, and treated as Kfull (unknown effects).
 */

/* integer and float arithmetic: pure */
O(add, "add", D0, Kpure, Lalu, "TTT", "i16 i32 i64 f16 f32 f64 f16x2 bf16 bf16x2")
O(sub, "sub", D0, Kpure, Lalu, "TTT", "i16 i32 i64 f16 f32 f64 f16x2 bf16 bf16x2")
O(mul, "mul", D0, Kpure, Lalu, "wTT", "i16 i32 i64 f16 f32 f64 f16x2 bf16 bf16x2")
O(mad, "mad", D0, Kpure, Lalu, "wTTw", "i16 i32 i64 f32 f64")
O(mul24, "mul24", D0, Kpure, Lalu, "TTT", "i32")
O(mad24, "mad24", D0, Kpure, Lalu, "TTTT", "i32")
O(sad, "sad", D0, Kpure, Lalu, "TTTT", "i16 i32 i64")
O(div, "div", D0, Kpure, Lsfu, "TTT", "i16 i32 i64 f32 f64")
O(rem, "rem", D0, Kpure, Lsfu, "TTT", "i16 i32 i64")
O(abs, "abs", D0, Kpure, Lalu, "TT", "s16 s32 s64 f16 f32 f64 f16x2 bf16 bf16x2")
O(neg, "neg", D0, Kpure, Lalu, "TT", "s16 s32 s64 f16 f32 f64 f16x2 bf16 bf16x2")
O(min, "min", D0, Kpure, Lalu, "TTT|T", "i16 i32 i64 f16 f32 f64 f16x2 bf16 bf16x2")
O(max, "max", D0, Kpure, Lalu, "TTT|T", "i16 i32 i64 f16 f32 f64 f16x2 bf16 bf16x2")
O(popc, "popc", D0, Kpure, Lalu, "UT", "b32 b64")
O(clz, "clz", D0, Kpure, Lalu, "UT", "b32 b64")
O(bfind, "bfind", D0, Kpure, Lalu, "UT", "i32 i64")
O(fns, "fns", D0, Kpure, Lalu, "TTTT", "b32")
O(brev, "brev", D0, Kpure, Lalu, "TT", "b32 b64")
O(bfe, "bfe", D0, Kpure, Lalu, "TTUU", "i32 i64")
O(bfi, "bfi", D0, Kpure, Lalu, "TTTUU", "b32 b64")
O(szext, "szext", D0, Kpure, Lalu, 0, 0)
O(bmsk, "bmsk", D0, Kpure, Lalu, 0, 0)
O(dp4a, "dp4a", D0, Kpure, Lalu, 0, 0)
O(dp2a, "dp2a", D0, Kpure, Lalu, 0, 0)
O(addc, "addc", D0, Kcc, Lalu, "TTT", "i16 i32 i64")
O(subc, "subc", D0, Kcc, Lalu, "TTT", "i16 i32 i64")
O(madc, "madc", D0, Kcc, Lalu, "TTTT", 0)
O(testp, "testp", D0, Kpure, Lalu, "PT", "f32 f64")
O(copysign, "copysign", D0, Kpure, Lalu, "TTT", "f32 f64")
O(fma, "fma", D0, Kpure, Lalu, "TTTT", "f16 f32 f64 f16x2 bf16 bf16x2")
O(rcp, "rcp", D0, Kpure, Lsfu, "TT", "f32 f64")
O(sqrt, "sqrt", D0, Kpure, Lsfu, "TT", "f32 f64")
O(rsqrt, "rsqrt", D0, Kpure, Lsfu, "TT", "f32 f64")
O(sin, "sin", D0, Kpure, Lsfu, "TT", "f32")
O(cos, "cos", D0, Kpure, Lsfu, "TT", "f32")
O(lg2, "lg2", D0, Kpure, Lsfu, "TT", "f32")
O(ex2, "ex2", D0, Kpure, Lsfu, "TT", "f16 f32 f16x2 bf16 bf16x2")
O(tanh, "tanh", D0, Kpure, Lsfu, "TT", "f16 f32 f16x2 bf16 bf16x2")
O(set, "set", D0, Kpure, Lalu, 0, 0)
O(setp, "setp", D0, Kpure, Lalu, "PTT|P", "b16 b32 b64 i16 i32 i64 f16 f32 f64 f16x2 bf16 bf16x2")
O(selp, "selp", D0, Kpure, Lalu, "TTTP", "b16 b32 b64 i16 i32 i64 f32 f64")
O(slct, "slct", D0, Kpure, Lalu, "TTTS", 0)
O(and, "and", D0, Kpure, Lalu, "TTT", "b16 b32 b64 pred")
O(or, "or", D0, Kpure, Lalu, "TTT", "b16 b32 b64 pred")
O(xor, "xor", D0, Kpure, Lalu, "TTT", "b16 b32 b64 pred")
O(not, "not", D0, Kpure, Lalu, "TT", "b16 b32 b64 pred")
O(cnot, "cnot", D0, Kpure, Lalu, "TT", "b16 b32 b64")
O(lop3, "lop3", D0, Kpure, Lalu, "TTTT-|-", "b32")
O(shf, "shf", D0, Kpure, Lalu, "TTTU", "b32")
O(shl, "shl", D0, Kpure, Lalu, "TTU", "b16 b32 b64")
O(shr, "shr", D0, Kpure, Lalu, "TTU", "b16 b32 b64 i16 i32 i64")
O(mov, "mov", D0, Kpure, Lalu, "TT", "b16 b32 b64 i16 i32 i64 f32 f64 pred")
O(prmt, "prmt", D0, Kpure, Lalu, "TTTT", "b32")
O(cvt, "cvt", D0, Kpure, Lalu, "RQ", 0)
O(cvta, "cvta", D0, Kpure, Lalu, "TT", "u32 u64")
O(isspacep, "isspacep", D0, Kpure, Lalu, 0, 0)
O(mapa, "mapa", D0, Kpure, Lalu, 0, 0)
O(getctarank, "getctarank", D0, Kpure, Lalu, 0, 0)
O(istypep, "istypep", D0, Kpure, Lalu, 0, 0)
O(movmatrix, "movmatrix", D0, Kcoll, Lalu, 0, 0)
O(vadd, "vadd", D0, Kpure, Lalu, 0, 0)
O(vsub, "vsub", D0, Kpure, Lalu, 0, 0)
O(vabsdiff, "vabsdiff", D0, Kpure, Lalu, 0, 0)
O(vmin, "vmin", D0, Kpure, Lalu, 0, 0)
O(vmax, "vmax", D0, Kpure, Lalu, 0, 0)
O(vshl, "vshl", D0, Kpure, Lalu, 0, 0)
O(vshr, "vshr", D0, Kpure, Lalu, 0, 0)
O(vmad, "vmad", D0, Kpure, Lalu, 0, 0)
O(vset, "vset", D0, Kpure, Lalu, 0, 0)
O(vadd2, "vadd2", D0, Kpure, Lalu, 0, 0)
O(vsub2, "vsub2", D0, Kpure, Lalu, 0, 0)
O(vavrg2, "vavrg2", D0, Kpure, Lalu, 0, 0)
O(vabsdiff2, "vabsdiff2", D0, Kpure, Lalu, 0, 0)
O(vmin2, "vmin2", D0, Kpure, Lalu, 0, 0)
O(vmax2, "vmax2", D0, Kpure, Lalu, 0, 0)
O(vset2, "vset2", D0, Kpure, Lalu, 0, 0)
O(vadd4, "vadd4", D0, Kpure, Lalu, 0, 0)
O(vsub4, "vsub4", D0, Kpure, Lalu, 0, 0)
O(vavrg4, "vavrg4", D0, Kpure, Lalu, 0, 0)
O(vabsdiff4, "vabsdiff4", D0, Kpure, Lalu, 0, 0)
O(vmin4, "vmin4", D0, Kpure, Lalu, 0, 0)
O(vmax4, "vmax4", D0, Kpure, Lalu, 0, 0)
O(vset4, "vset4", D0, Kpure, Lalu, 0, 0)

/* warp collectives: data only, but every lane must take part */
O(shfl, "shfl", D0, Kcoll, Lalu, 0, 0)
O(vote, "vote", D0, Kcoll, Lalu, "TP|U", 0)
O(match, "match", D0, Kcoll, Lalu, 0, 0)
O(redux, "redux", D0, Kcoll, Lalu, 0, 0)
O(activemask, "activemask", D0, Kcoll, Lalu, 0, 0)
O(elect, "elect", D0, Kcoll, Lalu, 0, 0)
O(mma, "mma", D0, Kmma, Lmma, 0, 0)
O(wmma_mma, "wmma.mma", D0, Kcoll, Lmma, 0, 0)

/* memory reads */
O(ld, "ld", D0, Kld, Lmem, "RA|-", "b8 b16 b32 b64 i8 i16 i32 i64 f32 f64")
O(ldu, "ldu", D0, Kld, Lmem, "RA|-", "b8 b16 b32 b64 i8 i16 i32 i64 f32 f64")
O(ldmatrix, "ldmatrix", D0, Kld, Lmem, 0, 0)
O(wmma_load, "wmma.load", D0, Kld, Lmem, 0, 0)
O(tex, "tex", D0, Kld, Lmem, 0, 0)
O(tld4, "tld4", D0, Kld, Lmem, 0, 0)
O(txq, "txq", D0, Kld, Lalu, 0, 0)
O(suld, "suld", D0, Kld, Lmem, 0, 0)
O(suq, "suq", D0, Kld, Lalu, 0, 0)
O(prefetch, "prefetch", DNO, Kld, Lmem, 0, 0)
O(prefetchu, "prefetchu", DNO, Kld, Lmem, 0, 0)
O(multimem_ld_reduce, "multimem.ld_reduce", D0, Kld, Lmem, 0, 0)

/* memory writes and read-modify-writes */
O(st, "st", DNO, Kst, Lmem, "AR|-", "b8 b16 b32 b64 i8 i16 i32 i64 f32 f64")
O(stmatrix, "stmatrix", DNO, Kst, Lmem, 0, 0)
O(wmma_store, "wmma.store", DNO, Kst, Lmem, 0, 0)
O(sust, "sust", DNO, Kst, Lmem, 0, 0)
O(sured, "sured", DNO, Kst, Lmem, 0, 0)
O(red, "red", DNO, Kst, Lmem, "AT|-", 0)
O(atom, "atom", D0, Krmw, Lmem, "TAT|--", 0)
O(multimem_st, "multimem.st", DNO, Kst, Lmem, 0, 0)
O(multimem_red, "multimem.red", DNO, Kst, Lmem, 0, 0)
O(st_bulk, "st.bulk", DNO, Kst, Lmem, 0, 0)
O(discard, "discard", DNO, Kst, Lmem, 0, 0)
O(applypriority, "applypriority", DNO, Kst, Lmem, 0, 0)
O(createpolicy, "createpolicy", D0, Kpure, Lalu, 0, 0)

/* asynchronous copies, proxies, barriers: ordered among themselves and
 * against every memory access; pure arithmetic may still cross them */
O(st_async, "st.async", DNO, Kord, Lmem, 0, 0)
O(red_async, "red.async", DNO, Kord, Lmem, 0, 0)
O(cp_async, "cp.async", DNO, Kord, Lmem, 0, 0)
O(cp_async_commit_group, "cp.async.commit_group", DNO, Kord, Lalu, 0, 0)
O(cp_async_mbarrier_arrive, "cp.async.mbarrier.arrive", DNO, Kord, Lalu, 0, 0)
O(cp_async_bulk, "cp.async.bulk", DNO, Kord, Lmem, 0, 0)
O(cp_async_bulk_tensor, "cp.async.bulk.tensor", DNO, Kord, Lmem, 0, 0)
O(cp_async_bulk_prefetch, "cp.async.bulk.prefetch", DNO, Kord, Lmem, 0, 0)
O(cp_async_bulk_prefetch_tensor, "cp.async.bulk.prefetch.tensor", DNO,
  Kord, Lmem, 0, 0)
O(cp_async_bulk_commit_group, "cp.async.bulk.commit_group", DNO, Kord,
  Lalu, 0, 0)
O(cp_reduce_async_bulk, "cp.reduce.async.bulk", DNO, Kord, Lmem, 0, 0)
O(cp_reduce_async_bulk_tensor, "cp.reduce.async.bulk.tensor", DNO, Kord,
  Lmem, 0, 0)
O(tensormap_replace, "tensormap.replace", DNO, Kord, Lmem, 0, 0)
O(tensormap_cp_fenceproxy, "tensormap.cp_fenceproxy", DNO, Kord, Lmem, 0, 0)
O(membar, "membar", DNO, Kord, Lalu, 0, 0)
O(fence, "fence", DNO, Kord, Lalu, 0, 0)
O(bar, "bar", DNO, Kord, Lalu, 0, 0)
O(barrier, "barrier", DNO, Kord, Lalu, 0, 0)
O(bar_warp, "bar.warp", DNO, Kord, Lalu, 0, 0)
O(mbarrier_init, "mbarrier.init", DNO, Kord, Lmem, 0, 0)
O(mbarrier_inval, "mbarrier.inval", DNO, Kord, Lmem, 0, 0)
O(mbarrier_arrive, "mbarrier.arrive", D0, Kord, Lmem, 0, 0)
O(mbarrier_arrive_drop, "mbarrier.arrive_drop", D0, Kord, Lmem, 0, 0)
O(mbarrier_expect_tx, "mbarrier.expect_tx", DNO, Kord, Lmem, 0, 0)
O(mbarrier_complete_tx, "mbarrier.complete_tx", DNO, Kord, Lmem, 0, 0)
O(mbarrier_pending_count, "mbarrier.pending_count", D0, Kpure, Lalu, 0, 0)
O(griddepcontrol, "griddepcontrol", DNO, Kord, Lalu, 0, 0)
O(wgmma_fence, "wgmma.fence", DNO, Kord, Lalu, 0, 0)
O(wgmma_commit_group, "wgmma.commit_group", DNO, Kord, Lalu, 0, 0)
O(wgmma_mma_async, "wgmma.mma_async", D0U, Kord, Lmma, 0, 0)
O(tcgen05_alloc, "tcgen05.alloc", DNO, Kord, Lmem, 0, 0)
O(tcgen05_dealloc, "tcgen05.dealloc", DNO, Kord, Lmem, 0, 0)
O(tcgen05_relinquish_alloc_permit, "tcgen05.relinquish_alloc_permit",
  DNO, Kord, Lalu, 0, 0)
O(tcgen05_ld, "tcgen05.ld", D0, Ktmem, Lmem, 0, 0)
O(tcgen05_st, "tcgen05.st", DNO, Ktmem, Lmem, 0, 0)
O(tcgen05_cp, "tcgen05.cp", DNO, Kord, Lmem, 0, 0)
O(tcgen05_shift, "tcgen05.shift", DNO, Kord, Lmem, 0, 0)
O(tcgen05_mma, "tcgen05.mma", DNO, Kord, Lmma, 0, 0)
O(tcgen05_commit, "tcgen05.commit", DNO, Kord, Lmem, 0, 0)
O(tcgen05_fence, "tcgen05.fence", DNO, Kord, Lalu, 0, 0)
O(tcgen05_fence_before, "tcgen05.fence::before_thread_sync", DNO, Kord,
  Lalu, 0, 0)
O(tcgen05_fence_after, "tcgen05.fence::after_thread_sync", DNO, Kord,
  Lalu, 0, 0)
/* tensor memory to and from registers, and their waits (Ktmem) */
O(tcgen05_wait_ld, "tcgen05.wait::ld", DNO, Ktmem, Lmem, 0, 0)
O(tcgen05_wait_st, "tcgen05.wait::st", DNO, Ktmem, Lmem, 0, 0)
O(clusterlaunchcontrol_try_cancel, "clusterlaunchcontrol.try_cancel", DNO,
  Kord, Lmem, 0, 0)
O(clusterlaunchcontrol_query_cancel, "clusterlaunchcontrol.query_cancel",
  D0, Kpure, Lalu, 0, 0)

/* waits: results of earlier asynchronous work become visible here, so
 * nothing may cross them */
O(cp_async_wait_group, "cp.async.wait_group", DNO, Kfull, Lmem, 0, 0)
O(cp_async_wait_all, "cp.async.wait_all", DNO, Kfull, Lmem, 0, 0)
O(cp_async_bulk_wait_group, "cp.async.bulk.wait_group", DNO, Kfull, Lmem, 0, 0)
O(mbarrier_test_wait, "mbarrier.test_wait", D0, Kfull, Lmem, 0, 0)
O(mbarrier_try_wait, "mbarrier.try_wait", D0, Kfull, Lmem, 0, 0)
O(wgmma_wait_group, "wgmma.wait_group", DNO, Kfull, Lmma, 0, 0)
O(tcgen05_wait, "tcgen05.wait", DNO, Kfull, Lmem, 0, 0)
O(setmaxnreg, "setmaxnreg", DNO, Kfull, Lalu, 0, 0)
O(nanosleep, "nanosleep", DNO, Kfull, Lalu, 0, 0)
O(pmevent, "pmevent", DNO, Kfull, Lalu, 0, 0)
O(alloca, "alloca", D0, Kfull, Lalu, 0, 0)
O(stacksave, "stacksave", D0, Kfull, Lalu, 0, 0)
O(stackrestore, "stackrestore", DNO, Kfull, Lalu, 0, 0)

/* control flow: ends or leaves a block */
O(bra, "bra", DNO, Kctl, Lalu, 0, 0)
O(brx_idx, "brx.idx", DNO, Kctl, Lalu, 0, 0)
O(call, "call", DCALL, Kctl, Lalu, 0, 0)
O(ret, "ret", DNO, Kctl, Lalu, 0, 0)
O(exit, "exit", DNO, Kctl, Lalu, 0, 0)
O(trap, "trap", DNO, Kctl, Lalu, 0, 0)
O(brkpt, "brkpt", DNO, Kctl, Lalu, 0, 0)
