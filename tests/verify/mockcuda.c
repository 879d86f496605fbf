/* mockcuda.c: a stand-in for libcuda.so.1 so that CI, which has no GPU,
 * runs ptxpress verify end to end (PTXPRESS_LIBCUDA=libmockcuda.so).
 *
 * Memory is host memory; a "launch" of a kernel named
 * fmha_fwd_<bf16|f16>_d<D>_... computes attention on the CPU with the
 * kernels' contract (q k v o scale seq, heads = grid.y); any other
 * kernel does nothing.  The environment steers it:
 *   MOCKCUDA_NODEV=1    the driver sees no device (skip path)
 *   MOCKCUDA_CORRUPT=1  the second module loaded gets one element wrong
 *   MOCKCUDA_SKIP=1     the second module leaves one element unwritten
 *   MOCKCUDA_CLOBBER=1  the second module flips a bit of its input q
 *   MOCKCUDA_NOOP=1     launches do nothing (to time the host side)
 *   MOCKCUDA_CC=NN      the compute capability (default 90)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long Dptr;

typedef struct Mod {
	const char *ptx;
	int idx;		/* 0: first module loaded, 1: second, ... */
} Mod;

typedef struct Fn {
	Mod *mod;
	char name[256];
} Fn;

static int nmod, nfn;
static Fn fns[64];

int cuInit(unsigned f) { (void)f; return 0; }
int cuDriverGetVersion(int *v) { *v = 13000; return 0; }
int cuDeviceGet(int *d, int i) { *d = i; return 0; }
int cuDevicePrimaryCtxRetain(void **c, int d) { *c = &nmod; return d; }
int cuCtxSetCurrent(void *c) { (void)c; return 0; }
int cuCtxSynchronize(void) { return 0; }
int cuFuncSetAttribute(void *f, int a, int v) { (void)f, (void)a; return !v; }
int cuEventCreate(void **e, unsigned f) { *e = &nmod; (void)f; return 0; }
int cuEventRecord(void *e, void *s) { (void)e, (void)s; return 0; }
int cuEventSynchronize(void *e) { (void)e; return 0; }
int cuModuleUnload(void *m) { free(m); return 0; }

int
cuDeviceGetCount(int *n)
{
	*n = getenv("MOCKCUDA_NODEV") ? 0 : 1;
	return 0;
}

int
cuDeviceGetName(char *s, int n, int d)
{
	(void)d;
	snprintf(s, (size_t)n, "mock device");
	return 0;
}

int
cuDeviceGetAttribute(int *v, int a, int d)
{
	const char *cc = getenv("MOCKCUDA_CC"), *sm = getenv("MOCKCUDA_SMEM");
	int n = cc ? atoi(cc) : 90;

	(void)d;
	*v = a == 75 ? n / 10 : a == 76 ? n % 10 : 0;
	if (a == 97)    /* shared memory per block, opt-in: H200's */
		*v = sm ? atoi(sm) : 232448;
	return 0;
}

int
cuGetErrorName(int r, const char **s)
{
	*s = r == 500 ? "CUDA_ERROR_NOT_FOUND" : "CUDA_ERROR_MOCK";
	return 0;
}

/* Log each entry as a JIT might (ptxas -v's lines, with a prefix on
 * the numbers), with a made-up 8-byte spill. */
int
cuModuleLoadDataEx(void **m, const void *img, unsigned n, int *opt,
	void **val)
{
	Mod *md = malloc(sizeof *md);
	char *info = 0, *p;
	size_t cap = 0, len = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		if (opt[i] == 3)
			info = val[i];
		else if (opt[i] == 4)
			cap = (size_t)(uintptr_t)val[i];
	md->ptx = img;
	md->idx = nmod++;
	*m = md;
	for (p = (char *)img; info && (p = strstr(p, ".entry ")); p++) {
		int k = (int)strcspn(p + 7, "( \n");
		len += (size_t)snprintf(info + len, cap - len,
			"ptxas info    : Function properties for %.*s\n"
			"ptxas         .     8 bytes stack frame, 8 bytes "
			"spill stores, 8 bytes spill loads\n", k, p + 7);
		if (len >= cap)
			break;
	}
	return 0;
}

int
cuModuleGetFunction(void **f, void *m, const char *name)
{
	char key[300];
	Fn *fn;

	snprintf(key, sizeof key, ".entry %s(", name);
	if (!strstr(((Mod *)m)->ptx, key))
		return 500;
	/* a function lives as long as the process, as in the driver */
	if (nfn == sizeof fns / sizeof *fns)
		return 2;
	fn = &fns[nfn++];
	fn->mod = m;
	snprintf(fn->name, sizeof fn->name, "%s", name);
	*f = fn;
	return 0;
}

int
cuFuncGetAttribute(int *v, int a, void *f)
{
	(void)f;
	*v = a == 4 ? 42 : 0;
	return 0;
}

int
cuMemAlloc_v2(Dptr *p, size_t n)
{
	*p = (Dptr)(uintptr_t)malloc(n);
	return *p ? 0 : 2;
}

int cuMemFree_v2(Dptr p) { free((void *)(uintptr_t)p); return 0; }

int
cuMemcpyHtoD_v2(Dptr d, const void *h, size_t n)
{
	memcpy((void *)(uintptr_t)d, h, n);
	return 0;
}

int
cuMemcpyDtoH_v2(void *h, Dptr d, size_t n)
{
	memcpy(h, (void *)(uintptr_t)d, n);
	return 0;
}

int
cuMemsetD8_v2(Dptr d, unsigned char v, size_t n)
{
	memset((void *)(uintptr_t)d, v, n);
	return 0;
}

int
cuMemsetD16_v2(Dptr d, unsigned short v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		((unsigned short *)(uintptr_t)d)[i] = v;
	return 0;
}

int
cuMemsetD32_v2(Dptr d, unsigned v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		((unsigned *)(uintptr_t)d)[i] = v;
	return 0;
}

static int lastidx;	/* module of the last launch */

/* 1 ms a launch; MOCKCUDA_NEW_MS for the second module of each pair
 * (verify and opt --time load ORIG, then NEW) */
int
cuEventElapsedTime_v2(float *ms, void *a, void *b)
{
	const char *e = getenv("MOCKCUDA_NEW_MS");

	(void)a, (void)b;
	*ms = e && lastidx % 2 ? (float)atof(e) : 1.0f;
	return 0;
}

static float
ld(const uint16_t *p, size_t i, int bf)
{
	uint32_t u;
	float f;

	if (bf) {
		u = (uint32_t)p[i] << 16;
		memcpy(&f, &u, 4);
		return f;
	}
	/* normal halves only: the tests' inputs are N(0,1) */
	u = p[i];
	if ((u & 0x7fff) == 0)
		return 0;
	u = (u & 0x8000) << 16 | (((u >> 10 & 0x1f) + 112) << 23)
		| (u & 0x3ff) << 13;
	memcpy(&f, &u, 4);
	return f;
}

/* truncating stores are good enough for a stand-in */
static void
st(uint16_t *p, size_t i, float f, int bf)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	if (bf)
		p[i] = (uint16_t)(u >> 16);
	else if (fabsf(f) < 0x1p-14f)
		p[i] = (uint16_t)(u >> 16 & 0x8000);
	else
		p[i] = (uint16_t)((u >> 16 & 0x8000)
			| (((u >> 23 & 0xff) - 112) << 10) | (u >> 13 & 0x3ff));
}

static void
attention(const Fn *f, unsigned heads, void **args)
{
	const uint16_t *q = *(uint16_t **)args[0], *k = *(uint16_t **)args[1];
	const uint16_t *v = *(uint16_t **)args[2];
	uint16_t *o = *(uint16_t **)args[3];
	float scale = *(float *)args[4];
	int seq = *(int *)args[5], bf = strstr(f->name, "_bf16_") != 0, d;
	size_t r, j, c, base;
	double *s = malloc((size_t)seq * sizeof *s), *acc, m, l;

	if (sscanf(strstr(f->name, "16_d") + 4, "%d", &d) != 1)
		return;
	acc = malloc((size_t)d * sizeof *acc);
	for (r = 0; r < (size_t)heads * (size_t)seq; r++) {
		base = r / (size_t)seq * (size_t)seq;
		m = -INFINITY;
		for (j = 0; j < (size_t)seq; j++) {
			s[j] = 0;
			for (c = 0; c < (size_t)d; c++)
				s[j] += ld(q, r * d + c, bf)
					* ld(k, (base + j) * d + c, bf);
			s[j] *= scale;
			m = s[j] > m ? s[j] : m;
		}
		for (c = 0; c < (size_t)d; c++)
			acc[c] = 0;
		for (l = 0, j = 0; j < (size_t)seq; j++) {
			double p = exp2(s[j] - m);
			l += p;
			for (c = 0; c < (size_t)d; c++)
				acc[c] += p * ld(v, (base + j) * d + c, bf);
		}
		for (c = 0; c < (size_t)d; c++)
			st(o, r * d + c, (float)(acc[c] / l), bf);
	}
	r = (size_t)heads * (size_t)seq * (size_t)d - 1;
	if (f->mod->idx % 2 && getenv("MOCKCUDA_CORRUPT"))
		o[r] ^= 1;
	if (f->mod->idx == 1 && getenv("MOCKCUDA_CLOBBER"))
		((uint16_t *)q)[0] ^= 1;
	if (f->mod->idx == 1 && getenv("MOCKCUDA_SKIP"))
		o[r] = bf ? 0x7fda : 0x7e5a;	/* verify.c's poison */
	free(s);
	free(acc);
}

int
cuLaunchKernel(void *fn, unsigned gx, unsigned gy, unsigned gz,
	unsigned bx, unsigned by, unsigned bz, unsigned shared, void *stream,
	void **args, void **extra)
{
	Fn *f = fn;

	lastidx = f->mod->idx;
	(void)gx, (void)gz, (void)bx, (void)by, (void)bz, (void)shared;
	(void)stream, (void)extra;
	if (!strncmp(f->name, "fmha_fwd_", 9) && strstr(f->name, "16_d")
	    && !getenv("MOCKCUDA_NOOP"))
		attention(f, gy, args);
	return 0;
}
