/* llvm_features.cu: small kernels for LLVM's NVPTX back end, so that the
 * front end and opt meet what clang emits (tools/gen-llvm.sh, tests/
 * llvm.sh): a device function call with a return parameter, a switch
 * (a jump table or a compare chain), atomics, a local array, doubles,
 * warp shuffles and shared memory, vector loads, inline asm.  Built
 * with clang -x cuda --cuda-device-only and no CUDA headers, so only
 * clang's builtins are used. */
#define D __attribute__((device))
#define K __attribute__((global))
#define S __attribute__((shared))

D static unsigned tid(void) { return __nvvm_read_ptx_sreg_tid_x(); }

K void saxpy(float *y, const float *x, float a, int n)
{
	int i = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x()
		+ tid();

	if (i < n)
		y[i] = a * x[i] + y[i];
}

/* noinline: a .func with a .param return value, called from a kernel */
D __attribute__((noinline)) float poly(float x, int k)
{
	float s = 0;

	for (int j = 0; j < k; j++)
		s = s * x + j;
	return s;
}

K void calls(float *y, int k) { y[tid()] = poly(y[tid()], k); }

K void sw(int *o, int v)
{
	int r;

	switch (v) {
	case 0: r = 3; break;
	case 1: r = 9; break;
	case 2: r = 27; break;
	case 3: r = 1; break;
	case 4: r = 77; break;
	case 5: r = 5; break;
	default: r = -1;
	}
	o[tid()] = r;
}

K void atom(int *o, float *f)
{
	__nvvm_atom_add_gen_i(o, 1);
	__nvvm_atom_add_gen_f(f, 1.5f);
}

/* indexed by a loaded value: the array lives in local memory */
K void local(int *o, int k)
{
	int a[32];

	for (int i = 0; i < 32; i++)
		a[i] = i * k;
	o[tid()] = a[o[0] & 31];
}

K void dbl(double *o, double x) { o[tid()] = x * 0.1 + 1e300; }

K void reduce(float *o, const float *x)
{
	S static float buf[8];
	float v = x[tid()];

	for (int d = 16; d; d >>= 1)
		v += __nvvm_shfl_sync_bfly_f32(0xffffffff, v, d, 31);
	if ((tid() & 31) == 0)
		buf[tid() >> 5] = v;
	__syncthreads();
	if (tid() == 0) {
		float s = 0;
		for (int w = 0; w < 8; w++)
			s += buf[w];
		o[__nvvm_read_ptx_sreg_ctaid_x()] = s;
	}
}

typedef float f4 __attribute__((ext_vector_type(4)));

K void vec(f4 *o, const f4 *x)
{
	f4 v = x[tid()];

	o[tid()] = v * v + 1.0f;
}

K void asmk(unsigned *o)
{
	unsigned lane;

	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	o[tid()] = lane;
}
