// fmha_sm90a.cu: ptxpress's own FMHA forward kernels for sm_90a.
//
// Plain online-softmax attention (FlashAttention-2 shape) on mma.sync
// m16n8k16 tensor-core instructions, written from the PTX ISA alone.
// One source, many kernels: FMHA_CONFIGS below instantiates each
// (dtype, head dim D, query tile BM, key tile BN) under an extern "C"
// name such as fmha_fwd_bf16_d128_m64_n128.
//
// Contract (all kernels):
//   q, k, v, o  [heads, seq, D] contiguous, element type bf16 or f16;
//   scale       softmax scale ALREADY MULTIPLIED BY log2(e), > 0:
//               o = softmax_2(scale * q k^T) v with softmax_2(x)_j =
//               2^(x_j - max x) / sum 2^(x - max x), i.e. for the usual
//               1/sqrt(D) pass log2(e)/sqrt(D);
//   seq         sequence length, a multiple of BM and of BN; no mask.
//   grid        (seq / BM, heads, 1); block (BM / 16 * 32, 1, 1): one
//               warp per 16 query rows;
//   dynamic shared memory (BN * (D + 8) + D * (BN + 8)) * 2 bytes.
//
// Why it spills where it does: each warp keeps in registers its Q
// fragments (D/4 words), its output accumulator (D/2 floats) and the
// fp32 scores of its 16 rows against a whole key tile (BN/2 floats),
// and all three are live across exp2 -> convert -> P.V.  For D = 256
// and BN = 128 that is 256 words before any address or row statistic:
// ptxas must spill, as production kernels with big tiles do.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

// Packing two fp32 into the 16-bit pair an mma operand register holds;
// the lower column goes in the low half.
__device__ __forceinline__ uint32_t pack2(float lo, float hi, __nv_bfloat16)
{
	__nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
	return *reinterpret_cast<uint32_t *>(&h);
}

__device__ __forceinline__ uint32_t pack2(float lo, float hi, __half)
{
	__half2 h = __floats2half2_rn(lo, hi);
	return *reinterpret_cast<uint32_t *>(&h);
}

__device__ __forceinline__ void unpack2(uint32_t w, float *lo, float *hi,
	__nv_bfloat16)
{
	__nv_bfloat162 h = *reinterpret_cast<__nv_bfloat162 *>(&w);
	*lo = __low2float(h);
	*hi = __high2float(h);
}

// D += A * B on one 16x8x16 tile; fragments as in the PTX ISA section
// "Matrix Fragments for mma.m16n8k16 with floating point type".
__device__ __forceinline__ void mma(float c[4], const uint32_t a[4],
	uint32_t b0, uint32_t b1, __nv_bfloat16)
{
	asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
	    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
	    : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
	    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ void mma(float c[4], const uint32_t a[4],
	uint32_t b0, uint32_t b1, __half)
{
	asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
	    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
	    : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
	    : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// ex2.approx directly, so the PTX does not depend on -use_fast_math.
__device__ __forceinline__ float ex2(float x)
{
	float y;
	asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
	return y;
}

template <typename T>
__device__ __forceinline__ uint32_t ld32(const T *p)
{
	return *reinterpret_cast<const uint32_t *>(p);
}

// The 4 lanes of a quad hold one row's columns; reduce across them.
__device__ __forceinline__ float quadmax(float x)
{
	x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
	return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}

__device__ __forceinline__ float quadsum(float x)
{
	x += __shfl_xor_sync(0xffffffffu, x, 1);
	return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

// Stage one key tile: K as is (row stride D + 8 keeps the 8 rows a
// quad group reads in distinct banks), V transposed so that the P.V
// B operand is two contiguous halves, like K's.
template <typename T, int D, int BN, int NT>
__device__ __forceinline__ void stage(T *ks, T *vt, const T *kh,
	const T *vh, int kb)
{
	constexpr int KS = D + 8, VS = BN + 8, CH = D / 8;

	for (int i = threadIdx.x; i < BN * CH; i += NT) {
		int r = i / CH, c = i % CH * 8;
		size_t gi = (size_t)(kb + r) * D + c;
		*reinterpret_cast<uint4 *>(&ks[r * KS + c]) =
			*reinterpret_cast<const uint4 *>(&kh[gi]);
		uint4 w = *reinterpret_cast<const uint4 *>(&vh[gi]);
		const T *e = reinterpret_cast<const T *>(&w);
#pragma unroll
		for (int j = 0; j < 8; j++)
			vt[(c + j) * VS + r] = e[j];
	}
}

template <typename T, int D, int BM, int BN>
__device__ __forceinline__ void fmha_fwd(const T *__restrict__ q,
	const T *__restrict__ k, const T *__restrict__ v, T *__restrict__ o,
	float scale, int seq)
{
	constexpr int NT = BM / 16 * 32, KS = D + 8, VS = BN + 8;
	extern __shared__ __align__(16) unsigned char smem[];
	T *ks = reinterpret_cast<T *>(smem);
	T *vt = ks + BN * KS;
	const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	const int g = lane >> 2, t = lane & 3;
	const size_t head = (size_t)blockIdx.y * seq * D;
	const int row = blockIdx.x * BM + warp * 16 + g;
	const T *qr = q + head + (size_t)row * D + t * 2;

	uint32_t qf[D / 16][4];
#pragma unroll
	for (int kk = 0; kk < D / 16; kk++) {
		qf[kk][0] = ld32(qr + kk * 16);
		qf[kk][1] = ld32(qr + 8 * D + kk * 16);
		qf[kk][2] = ld32(qr + kk * 16 + 8);
		qf[kk][3] = ld32(qr + 8 * D + kk * 16 + 8);
	}
	float acc[D / 8][4];
#pragma unroll
	for (int n = 0; n < D / 8; n++)
		acc[n][0] = acc[n][1] = acc[n][2] = acc[n][3] = 0.f;
	// running max (already scaled) and partial row sums, rows g and g+8
	float m0 = -INFINITY, m1 = -INFINITY, l0 = 0.f, l1 = 0.f;

	for (int kb = 0; kb < seq; kb += BN) {
		__syncthreads();
		stage<T, D, BN, NT>(ks, vt, k + head, v + head, kb);
		__syncthreads();

		float s[BN / 8][4];
#pragma unroll
		for (int n = 0; n < BN / 8; n++) {
			s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.f;
			const T *kr = ks + (n * 8 + g) * KS + t * 2;
#pragma unroll
			for (int kk = 0; kk < D / 16; kk++)
				mma(s[n], qf[kk], ld32(kr + kk * 16),
				    ld32(kr + kk * 16 + 8), T());
		}
		float x0 = -INFINITY, x1 = -INFINITY;
#pragma unroll
		for (int n = 0; n < BN / 8; n++) {
			x0 = fmaxf(x0, fmaxf(s[n][0], s[n][1]));
			x1 = fmaxf(x1, fmaxf(s[n][2], s[n][3]));
		}
		// scale > 0, so the max of the scaled row is scale * max
		float n0 = fmaxf(m0, quadmax(x0) * scale);
		float n1 = fmaxf(m1, quadmax(x1) * scale);
		float c0 = ex2(m0 - n0), c1 = ex2(m1 - n1);
		m0 = n0;
		m1 = n1;
		l0 *= c0;
		l1 *= c1;
#pragma unroll
		for (int n = 0; n < D / 8; n++) {
			acc[n][0] *= c0;
			acc[n][1] *= c0;
			acc[n][2] *= c1;
			acc[n][3] *= c1;
		}
#pragma unroll
		for (int n = 0; n < BN / 8; n++) {
			s[n][0] = ex2(fmaf(s[n][0], scale, -n0));
			s[n][1] = ex2(fmaf(s[n][1], scale, -n0));
			s[n][2] = ex2(fmaf(s[n][2], scale, -n1));
			s[n][3] = ex2(fmaf(s[n][3], scale, -n1));
			l0 += s[n][0] + s[n][1];
			l1 += s[n][2] + s[n][3];
		}
		// P's C fragments of two adjacent 8-key tiles are exactly
		// the A fragment of one 16-key step.
#pragma unroll
		for (int j = 0; j < BN / 16; j++) {
			uint32_t a[4];
			a[0] = pack2(s[2 * j][0], s[2 * j][1], T());
			a[1] = pack2(s[2 * j][2], s[2 * j][3], T());
			a[2] = pack2(s[2 * j + 1][0], s[2 * j + 1][1], T());
			a[3] = pack2(s[2 * j + 1][2], s[2 * j + 1][3], T());
#pragma unroll
			for (int n = 0; n < D / 8; n++) {
				const T *vr = vt + (n * 8 + g) * VS + j * 16
					+ t * 2;
				mma(acc[n], a, ld32(vr), ld32(vr + 8), T());
			}
		}
	}
	float r0 = 1.f / quadsum(l0), r1 = 1.f / quadsum(l1);
	T *orow = o + head + (size_t)row * D + t * 2;
#pragma unroll
	for (int n = 0; n < D / 8; n++) {
		*reinterpret_cast<uint32_t *>(orow + n * 8) =
			pack2(acc[n][0] * r0, acc[n][1] * r0, T());
		*reinterpret_cast<uint32_t *>(orow + 8 * D + n * 8) =
			pack2(acc[n][2] * r1, acc[n][3] * r1, T());
	}
}

// X(name of dtype, C type, D, BM, BN)
#define FMHA_CONFIGS(X) \
	X(bf16, __nv_bfloat16, 64, 64, 64) \
	X(bf16, __nv_bfloat16, 128, 64, 64) \
	X(bf16, __nv_bfloat16, 128, 64, 128) \
	X(bf16, __nv_bfloat16, 256, 64, 64) \
	X(bf16, __nv_bfloat16, 256, 64, 128) \
	X(f16, __half, 64, 64, 64) \
	X(f16, __half, 128, 64, 64) \
	X(f16, __half, 128, 64, 128) \
	X(f16, __half, 256, 64, 64) \
	X(f16, __half, 256, 64, 128)

#define FMHA_KERNEL(TN, T, D, BM, BN) \
extern "C" __global__ void __launch_bounds__(BM / 16 * 32) \
fmha_fwd_##TN##_d##D##_m##BM##_n##BN(const T *__restrict__ q, \
	const T *__restrict__ k, const T *__restrict__ v, \
	T *__restrict__ o, float scale, int seq) \
{ \
	fmha_fwd<T, D, BM, BN>(q, k, v, o, scale, seq); \
}

FMHA_CONFIGS(FMHA_KERNEL)
