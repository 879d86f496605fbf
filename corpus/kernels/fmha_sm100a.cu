// fmha_sm100a.cu: ptxpress's own Blackwell (sm_100a) FMHA forward kernel,
// compile only: there is no Blackwell GPU here, so it is checked by
// ptxas -arch=sm_100a and by ptxpress's analyses, never run.
//
// The shape follows what production Blackwell attention does with its
// warps, written from the PTX ISA alone:
//   warpgroup 0   producer: stages K and V tiles in shared memory and,
//                 from one thread, issues tcgen05.mma S = Q K^T into
//                 tensor memory, then O += P V with P read from tensor
//                 memory; setmaxnreg.dec gives its registers away;
//   warpgroups 1, 2   softmax, one per 128-row Q tile: tcgen05.ld a
//                 whole row of S (128 fp32, one row per thread), scale
//                 and subtract the max with packed fma.rn.f32x2,
//                 ex2.approx, cvt.rn.bf16x2.f32, row sum, tcgen05.st P
//                 over S, rescale O in tensor memory; setmaxnreg.inc.
// Synchronisation is by mbarriers: s_full (MMA -> softmax), p_full
// (softmax -> MMA), o_done (P.V finished, O may be read) and kv_free.
//
// Contract: q, k, v, o [heads, seq, 128] bf16; lse [heads, seq] fp32
// (log2 domain); scale already multiplied by log2(e), > 0; seq a
// multiple of 256; grid (seq / 256, heads); block 384; dynamic shared
// memory SMEM_BYTES.  Shared-memory and instruction descriptors are
// plausible (128-byte swizzle, K-major, bf16 in, fp32 accumulate) but
// have never met hardware.

#include <cuda_bf16.h>
#include <stdint.h>

#define D 128
#define BM 128
#define BN 128
#define TILE_BYTES (BM * D * 2)
// Q0, Q1, K, V tiles, then mbarriers and the tensor-memory address
#define SMEM_BYTES (4 * TILE_BYTES + 64)

// Tensor-memory columns: S/P of the two softmax tiles, then their O.
#define TM_S(w) ((w) * BN)
#define TM_O(w) (2 * BN + (w) * D)
#define TM_COLS 512

__device__ __forceinline__ uint32_t smaddr(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbinit(uint32_t bar, uint32_t count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
		     :: "r"(bar), "r"(count));
}

__device__ __forceinline__ void mbarrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
		     :: "r"(bar) : "memory");
}

__device__ __forceinline__ void mbwait(uint32_t bar, uint32_t phase)
{
	asm volatile("{\n\t.reg .pred p;\n"
		     "W:\n\t"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
		     "@!p bra W;\n}"
		     :: "r"(bar), "r"(phase) : "memory");
}

// K-major operand in shared memory, 128-byte swizzle: start address,
// leading and stride byte offsets, descriptor version 1, layout 2.
__device__ __forceinline__ uint64_t sdesc(uint32_t addr)
{
	uint64_t d = (addr & 0x3ffffu) >> 4;
	d |= (uint64_t)(16 >> 4) << 16;
	d |= (uint64_t)(1024 >> 4) << 32;
	d |= 1ull << 46;
	d |= 2ull << 61;
	return d;
}

// kind::f16 instruction descriptor: fp32 accumulate, bf16 A and B,
// both K-major, N and M encoded in units of 8 and 16.
__device__ __forceinline__ uint32_t idesc(int m, int n)
{
	return (1u << 4) | (1u << 7) | (1u << 10) | ((uint32_t)(n >> 3) << 17)
		| ((uint32_t)(m >> 4) << 24);
}

__device__ __forceinline__ void mma_ss(uint32_t tm, uint64_t a, uint64_t b,
	uint32_t id, uint32_t acc)
{
	asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
		     "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;"
		     "\n}" :: "r"(tm), "l"(a), "l"(b), "r"(id), "r"(acc));
}

__device__ __forceinline__ void mma_ts(uint32_t tm, uint32_t a, uint64_t b,
	uint32_t id, uint32_t acc)
{
	asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
		     "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, p;"
		     "\n}" :: "r"(tm), "r"(a), "l"(b), "r"(id), "r"(acc));
}

__device__ __forceinline__ void commit(uint32_t bar)
{
	asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one"
		     ".shared::cluster.b64 [%0];" :: "r"(bar) : "memory");
}

#define R4(x, i) "=r"(x[i]), "=r"(x[i + 1]), "=r"(x[i + 2]), "=r"(x[i + 3])
#define R16(x, i) R4(x, i), R4(x, i + 4), R4(x, i + 8), R4(x, i + 12)
#define W4(x, i) "r"(x[i]), "r"(x[i + 1]), "r"(x[i + 2]), "r"(x[i + 3])
#define W16(x, i) W4(x, i), W4(x, i + 4), W4(x, i + 8), W4(x, i + 12)
#define A32 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15," \
	"%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}"
#define A32B "{%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16," \
	"%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32}"

// 32 consecutive columns of this thread's tensor-memory lane
__device__ __forceinline__ void tmld32(uint32_t *x, uint32_t ta)
{
	asm volatile("tcgen05.ld.sync.aligned.32x32b.x32.b32 " A32 ", [%32];"
		     : R16(x, 0), R16(x, 16) : "r"(ta));
}

__device__ __forceinline__ void tmst32(uint32_t ta, const uint32_t *x)
{
	asm volatile("tcgen05.st.sync.aligned.32x32b.x32.b32 [%0], " A32B ";"
		     :: "r"(ta), W16(x, 0), W16(x, 16));
}

__device__ __forceinline__ void tmwaitld(void)
{
	asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ void tmwaitst(void)
{
	asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

// (x0, x1) = (x0, x1) * s2 + c2, one packed instruction for two lanes
// of the row: Blackwell's fp32 pipes take pairs.
__device__ __forceinline__ void fma2(float &x0, float &x1, uint64_t s2,
	uint64_t c2)
{
	asm("{\n\t.reg .b64 t;\n\tmov.b64 t, {%0, %1};\n\t"
	    "fma.rn.f32x2 t, t, %2, %3;\n\tmov.b64 {%0, %1}, t;\n}"
	    : "+f"(x0), "+f"(x1) : "l"(s2), "l"(c2));
}

__device__ __forceinline__ uint64_t pair(float lo, float hi)
{
	return (uint64_t)__float_as_uint(hi) << 32 | __float_as_uint(lo);
}

__device__ __forceinline__ float ex2(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
	return y;
}

__device__ __forceinline__ uint32_t cvtbf2(float lo, float hi)
{
	__nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
	return *reinterpret_cast<uint32_t *>(&h);
}

struct Bars {
	uint64_t s_full[2], p_full[2], o_done[2], kv_free;
	uint32_t tmem;
};

static __device__ void producer(const __nv_bfloat16 *kh,
	const __nv_bfloat16 *vh, unsigned char *sm, Bars *b, int seq)
{
	const uint32_t idS = idesc(BM, BN), idO = idesc(BM, D);
	unsigned char *kt = sm + 2 * TILE_BYTES, *vt = sm + 3 * TILE_BYTES;
	const uint32_t tm = b->tmem;
	const int tid = threadIdx.x;

	for (int j = 0; j < seq / BN; j++) {
		if (j > 0)
			mbwait(smaddr(&b->kv_free), (j - 1) & 1);
		const uint4 *ks = (const uint4 *)(kh + (size_t)j * BN * D);
		const uint4 *vs = (const uint4 *)(vh + (size_t)j * BN * D);
		for (int i = tid; i < TILE_BYTES / 16; i += 128) {
			// 128-byte swizzle: 16-byte chunk c of row r
			int r = i / 16, c = (i % 16) ^ (r % 8);
			((uint4 *)kt)[r * 16 + c] = ks[i];
			((uint4 *)vt)[r * 16 + c] = vs[i];
		}
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
		asm volatile("bar.sync 1, 128;" ::: "memory");
		if (tid != 0)
			continue;
		asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
		for (int w = 0; w < 2; w++) {
			uint32_t q = smaddr(sm + w * TILE_BYTES), k = smaddr(kt);
			for (int kk = 0; kk < D / 16; kk++)
				mma_ss(tm + TM_S(w), sdesc(q + kk * 32),
				       sdesc(k + kk * 32), idS, kk);
			commit(smaddr(&b->s_full[w]));
		}
		for (int w = 0; w < 2; w++) {
			mbwait(smaddr(&b->p_full[w]), j & 1);
			asm volatile("tcgen05.fence::after_thread_sync;"
				     ::: "memory");
			// P is bf16, two to a 32-bit column
			for (int kk = 0; kk < BN / 16; kk++)
				mma_ts(tm + TM_O(w), tm + TM_S(w) + kk * 8,
				       sdesc(smaddr(vt) + kk * 16 * 128), idO,
				       j > 0 || kk > 0);
			commit(smaddr(&b->o_done[w]));
		}
		commit(smaddr(&b->kv_free));
	}
}

// Rescale this thread's row of O in tensor memory by c.
static __device__ void correct(uint32_t ta, float c)
{
	uint32_t x[32];
	for (int ch = 0; ch < D; ch += 32) {
		tmld32(x, ta + ch);
		tmwaitld();
#pragma unroll
		for (int i = 0; i < 32; i += 2) {
			float a = __uint_as_float(x[i]) * c;
			float b = __uint_as_float(x[i + 1]) * c;
			x[i] = __float_as_uint(a);
			x[i + 1] = __float_as_uint(b);
		}
		tmst32(ta + ch, x);
	}
}

static __device__ void softmax(int w, __nv_bfloat16 *orow, float *lse,
	float scale, Bars *b, int seq)
{
	// warp w of a warpgroup may touch tensor-memory lanes 32w..32w+31
	const uint32_t lane = (threadIdx.x % 128) / 32 * 32 << 16;
	const uint32_t ts = b->tmem + lane + TM_S(w);
	const uint32_t to = b->tmem + lane + TM_O(w);
	const uint64_t s2 = pair(scale, scale);
	float m = -INFINITY, l = 0.f;

	for (int j = 0; j < seq / BN; j++) {
		uint32_t s[BN];
		mbwait(smaddr(&b->s_full[w]), j & 1);
		asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
#pragma unroll
		for (int ch = 0; ch < BN; ch += 32)
			tmld32(s + ch, ts + ch);
		tmwaitld();
		float x = m / scale;
#pragma unroll
		for (int i = 0; i < BN; i++)
			x = fmaxf(x, __uint_as_float(s[i]));
		float mn = x * scale, c = ex2(m - mn);
		const uint64_t c2 = pair(-mn, -mn);
		float sum = 0.f;
		uint32_t p[BN / 2];
#pragma unroll
		for (int i = 0; i < BN; i += 2) {
			float a = __uint_as_float(s[i]);
			float e = __uint_as_float(s[i + 1]);
			fma2(a, e, s2, c2);
			a = ex2(a);
			e = ex2(e);
			sum += a + e;
			p[i / 2] = cvtbf2(a, e);
		}
		l = l * c + sum;
		m = mn;
		if (j > 0) {
			// O may be rescaled only once the last P.V is done
			mbwait(smaddr(&b->o_done[w]), (j - 1) & 1);
			asm volatile("tcgen05.fence::after_thread_sync;"
				     ::: "memory");
			correct(to, c);
		}
		tmst32(ts, p);
		tmst32(ts + 32, p + 32);
		tmwaitst();
		asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
		mbarrive(smaddr(&b->p_full[w]));
	}
	mbwait(smaddr(&b->o_done[w]), (seq / BN - 1) & 1);
	asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
	float r = 1.f / l;
	for (int ch = 0; ch < D; ch += 32) {
		uint32_t x[32];
		tmld32(x, to + ch);
		tmwaitld();
		uint4 *dst = (uint4 *)(orow + ch);
#pragma unroll
		for (int i = 0; i < 32; i += 8) {
			uint4 v;
			v.x = cvtbf2(__uint_as_float(x[i]) * r,
				     __uint_as_float(x[i + 1]) * r);
			v.y = cvtbf2(__uint_as_float(x[i + 2]) * r,
				     __uint_as_float(x[i + 3]) * r);
			v.z = cvtbf2(__uint_as_float(x[i + 4]) * r,
				     __uint_as_float(x[i + 5]) * r);
			v.w = cvtbf2(__uint_as_float(x[i + 6]) * r,
				     __uint_as_float(x[i + 7]) * r);
			dst[i / 8] = v;
		}
	}
	*lse = m + __log2f(l);
}

extern "C" __global__ void __launch_bounds__(384, 1)
fmha_fwd_sm100a_bf16_d128_m256_n128(const __nv_bfloat16 *__restrict__ q,
	const __nv_bfloat16 *__restrict__ k,
	const __nv_bfloat16 *__restrict__ v, __nv_bfloat16 *__restrict__ o,
	float *__restrict__ lse, float scale, int seq)
{
	extern __shared__ __align__(1024) unsigned char sm[];
	Bars *b = (Bars *)(sm + 4 * TILE_BYTES);
	const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;
	const size_t head = (size_t)blockIdx.y * seq * D;
	const size_t row0 = (size_t)blockIdx.x * 2 * BM;

	// both Q tiles, swizzled like K
	const uint4 *qs = (const uint4 *)(q + head + row0 * D);
	for (int i = threadIdx.x; i < 2 * TILE_BYTES / 16; i += 384) {
		int r = i / 16, c = (i % 16) ^ (r % 8);
		((uint4 *)sm)[r * 16 + c] = qs[i];
	}
	if (threadIdx.x == 0) {
		for (int w = 0; w < 2; w++) {
			mbinit(smaddr(&b->s_full[w]), 1);
			mbinit(smaddr(&b->p_full[w]), 128);
			mbinit(smaddr(&b->o_done[w]), 1);
		}
		mbinit(smaddr(&b->kv_free), 1);
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	if (threadIdx.x / 32 == 0) {
		asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta"
			     ".b32 [%0], %1;" :: "r"(smaddr(&b->tmem)),
			     "r"(TM_COLS));
		asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1"
			     ".sync.aligned;");
	}
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
	__syncthreads();
	asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");

	if (wg == 0) {
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
		producer(k + head, v + head, sm, b, seq);
	} else {
		asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
		size_t row = row0 + (wg - 1) * BM + tid;
		softmax(wg - 1, o + head + row * D,
			lse + (size_t)blockIdx.y * seq + row, scale, b, seq);
	}
	asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
	__syncthreads();
	if (threadIdx.x / 32 == 0)
		asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 "
			     "%0, %1;" :: "r"(b->tmem), "r"(TM_COLS));
}
