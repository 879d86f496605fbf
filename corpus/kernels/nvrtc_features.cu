/* nvrtc_features.cu: small kernels for NVIDIA's own compiler (the
 * nvcc front end and NVVM, reached through NVRTC: tools/gen-nvrtc.sh,
 * tests/nvrtc.sh), so that the front end and opt meet what CUDA 11 and
 * 12 emit, not only this machine's nvcc 13: a device function call
 * with a return parameter, recursion (a stack frame), a switch, atomics,
 * a local array, doubles, warp shuffles and votes, static and dynamic
 * shared memory, vector loads, read-only loads, printf (a call through
 * .extern vprintf), a template, inline asm.  No #include: NVRTC has no
 * C library, and what is used here is built into it. */

__device__ __noinline__ float poly(float x, int k)
{
	float s = 0;

	for (int j = 0; j < k; j++)
		s = s * x + j;
	return s;
}

/* recursion: ptxas gives it a stack frame */
__device__ __noinline__ unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

extern "C" __global__ void calls(float *o, const float *x, int k)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

	o[i] = poly(__ldg(&x[i]), k) + (float)fib(i & 7);
}

extern "C" __global__ void branches(int *o, const int *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = 0;

	if (i >= n)
		return;
	switch (x[i] & 7) {
	case 0: v = 3; break;
	case 1: v = x[i] * 5; break;
	case 2: v = x[i] ^ 0x55; break;
	case 3: v = -x[i]; break;
	case 5: v = x[i] >> 2; break;
	default: v = 1;
	}
	atomicAdd(&o[0], v);
	atomicMax(&o[1], v);
	atomicCAS(&o[2], 0, v);
}

extern "C" __global__ void locals(double *o, const int *idx, int n)
{
	double a[16];
	int t = threadIdx.x;

	for (int j = 0; j < 16; j++)
		a[j] = j * 0.5 + t;
	o[t] = a[idx[t] & 15] * 1.0000001 + (double)n;
}

extern "C" __global__ void warps(float *o, const float *x)
{
	__shared__ float part[32];
	float v = x[blockIdx.x * blockDim.x + threadIdx.x];

	for (int d = 16; d > 0; d >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, d);
	unsigned b = __ballot_sync(0xffffffffu, v > 0.f);
	if ((threadIdx.x & 31) == 0)
		part[threadIdx.x >> 5] = v + (float)__popc(b);
	__syncthreads();
	if (threadIdx.x == 0) {
		float s = 0;
		for (unsigned w = 0; w < blockDim.x / 32; w++)
			s += part[w];
		o[blockIdx.x] = s;
	}
}

extern "C" __global__ void dynshared(float4 *o, const float4 *x, int n)
{
	extern __shared__ float4 buf[];
	int t = threadIdx.x;

	buf[t] = x[blockIdx.x * n + t];
	__syncthreads();
	float4 a = buf[(t + 1) % n];
	a.x += 1.f;
	o[blockIdx.x * n + t] = a;
}

template <int N> __device__ float sum(const float *x)
{
	float s = 0;
#pragma unroll
	for (int j = 0; j < N; j++)
		s += x[j];
	return s;
}

extern "C" __global__ void templ(float *o, const float *x)
{
	o[threadIdx.x] = sum<8>(x + 8 * threadIdx.x);
}

extern "C" __global__ void talk(const int *x)
{
	if (threadIdx.x == 0)
		printf("block %d: %d\n", blockIdx.x, x[blockIdx.x]);
}

extern "C" __global__ void asmk(unsigned *o)
{
	unsigned r;

	asm volatile("{\n\t.reg .u32 t;\n\tmov.u32 t, %%laneid;\n\t"
		"add.u32 %0, t, 1;\n\t}" : "=r"(r));
	o[threadIdx.x] = r;
}
