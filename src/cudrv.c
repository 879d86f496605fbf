/* cudrv.c: the few CUDA driver API calls ptxpress verify makes.
 *
 * libcuda.so.1 is opened with dlopen at run time, never linked, so that
 * ptxpress builds and runs on machines without a GPU or a driver (CI):
 * there cuopen() fails with a reason and the caller skips.  The types
 * are declared here with the driver's ABI (handles are pointers, device
 * pointers 64-bit, results int) so that no CUDA header is needed.
 * PTXPRESS_LIBCUDA names another library (tests use it to force the
 * skip path on a machine that has a GPU); PTXPRESS_JITLOG=1 prints the
 * JIT's info log.
 *
 * Every call after cuopen() is checked; a failure is fatal (exit 1):
 * once a kernel has faulted the context is gone and nothing after it
 * would mean anything.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"

typedef int Res;
typedef unsigned long long Dptr;

/* cuda.h's values for the enumerators used below */
enum {
	AttrCcMajor = 75,
	AttrCcMinor = 76,
	AttrSmemOptin = 97,     /* shared memory a block may opt in to */
	FnMaxThreads = 0,
	FnLocalBytes = 3,
	FnNumRegs = 4,
	FnMaxDynShared = 8,
	JitInfoBuf = 3,
	JitInfoSize = 4,
	JitErrBuf = 5,
	JitErrSize = 6,
	JitVerbose = 12,
};

/* X(field, symbol tried first, symbol tried next, result, arguments) */
#define CUFNS(X) \
	X(init, "cuInit", 0, (unsigned)) \
	X(drvver, "cuDriverGetVersion", 0, (int *)) \
	X(devcount, "cuDeviceGetCount", 0, (int *)) \
	X(devget, "cuDeviceGet", 0, (int *, int)) \
	X(devname, "cuDeviceGetName", 0, (char *, int, int)) \
	X(devattr, "cuDeviceGetAttribute", 0, (int *, int, int)) \
	X(ctxretain, "cuDevicePrimaryCtxRetain", 0, (void **, int)) \
	X(ctxset, "cuCtxSetCurrent", 0, (void *)) \
	X(ctxsync, "cuCtxSynchronize", 0, (void)) \
	X(modload, "cuModuleLoadDataEx", 0, \
		(void **, const void *, unsigned, int *, void **)) \
	X(modfn, "cuModuleGetFunction", 0, (void **, void *, const char *)) \
	X(modunload, "cuModuleUnload", 0, (void *)) \
	X(fnattr, "cuFuncGetAttribute", 0, (int *, int, void *)) \
	X(fnsetattr, "cuFuncSetAttribute", 0, (void *, int, int)) \
	X(malloc, "cuMemAlloc_v2", 0, (Dptr *, size_t)) \
	X(free, "cuMemFree_v2", 0, (Dptr)) \
	X(htod, "cuMemcpyHtoD_v2", 0, (Dptr, const void *, size_t)) \
	X(dtoh, "cuMemcpyDtoH_v2", 0, (void *, Dptr, size_t)) \
	X(set8, "cuMemsetD8_v2", 0, (Dptr, unsigned char, size_t)) \
	X(set16, "cuMemsetD16_v2", 0, (Dptr, unsigned short, size_t)) \
	X(set32, "cuMemsetD32_v2", 0, (Dptr, unsigned, size_t)) \
	X(launch, "cuLaunchKernel", 0, (void *, unsigned, unsigned, \
		unsigned, unsigned, unsigned, unsigned, unsigned, void *, \
		void **, void **)) \
	X(evcreate, "cuEventCreate", 0, (void **, unsigned)) \
	X(evrecord, "cuEventRecord", 0, (void *, void *)) \
	X(evsync, "cuEventSynchronize", 0, (void *)) \
	X(evtime, "cuEventElapsedTime_v2", "cuEventElapsedTime", \
		(float *, void *, void *)) \
	X(errname, "cuGetErrorName", 0, (Res, const char **))

static struct {
#define FIELD(f, s1, s2, args) Res (*f) args;
	CUFNS(FIELD)
#undef FIELD
	int dev;
	void *ev[2];
} cu;

static void
die(const char *call, Res r)
{
	const char *name = 0;

	if (cu.errname)
		cu.errname(r, &name);
	fprintf(stderr, "ptxpress verify: %s failed: %s (%d)\n", call,
		name ? name : "unknown CUDA error", r);
	exit(1);
}

#define CK(call) do { Res r_ = cu.call; if (r_) die(#call, r_); } while (0)

static void
why(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
}

/* dlsym returns void *; ISO C has no cast from it to a function
 * pointer, so copy the bits, which POSIX guarantees to be right. */
static int
bind(void *lib, void *slot, const char *s1, const char *s2)
{
	void *p = dlsym(lib, s1);

	if (!p && s2)
		p = dlsym(lib, s2);
	memcpy(slot, &p, sizeof p);
	return p != 0;
}

/* Open the driver and make device 0's primary context current.
 * Returns 0, or -1 with the reason in why (no library, no device). */
int
cuopen(char *w, size_t n)
{
	const char *path = getenv("PTXPRESS_LIBCUDA");
	void *lib;
	Res r;
	int count = 0;
	void *ctx;

	if (!path || !*path)
		path = "libcuda.so.1";
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		why(w, n, "%s", dlerror());
		return -1;
	}
#define BIND(f, s1, s2, args) \
	if (!bind(lib, &cu.f, s1, s2)) { \
		why(w, n, "%s: no symbol %s", path, s1); \
		return -1; \
	}
	CUFNS(BIND)
#undef BIND
	if ((r = cu.init(0)) != 0 || (r = cu.devcount(&count)) != 0) {
		const char *name = 0;
		cu.errname(r, &name);
		why(w, n, "cuInit: %s", name ? name : "error");
		return -1;
	}
	if (count == 0) {
		why(w, n, "the driver sees no device");
		return -1;
	}
	CK(devget(&cu.dev, 0));
	CK(ctxretain(&ctx, cu.dev));
	CK(ctxset(ctx));
	CK(evcreate(&cu.ev[0], 0));
	CK(evcreate(&cu.ev[1], 0));
	return 0;
}

/* smem: the most shared memory a block may have (0: the driver does
 * not say) */
void
cudevice(char *name, size_t n, int *cc, int *drv, int *smem)
{
	int maj, min;

	CK(devname(name, (int)n, cu.dev));
	CK(devattr(&maj, AttrCcMajor, cu.dev));
	CK(devattr(&min, AttrCcMinor, cu.dev));
	CK(drvver(drv));
	if (cu.devattr(smem, AttrSmemOptin, cu.dev) != 0)
		*smem = 0;
	*cc = maj * 10 + min;
}

/* The JIT's verbose log names each function's spills as ptxas -v does:
 * "Function properties for K" then "N bytes spill stores, M bytes
 * spill loads".  A cached JIT result comes with no log: -1. */
static void
spills(Vfn *f, const char *log, const char *kernel)
{
	char key[512];
	const char *p;

	f->spst = f->spld = -1;
	snprintf(key, sizeof key, "Function properties for %s\n", kernel);
	if (!(p = strstr(log, key)))
		return;
	/* the numbers' line may begin with blanks (ptxas -v) or with a
	 * "ptxas  ." prefix: start at its first digit */
	for (p += strlen(key); *p && *p != '\n' && (*p < '0' || *p > '9');)
		p++;
	if (sscanf(p, "%*d bytes stack frame, %d bytes spill stores, "
		   "%d bytes spill loads", &f->spst, &f->spld) != 2)
		f->spst = f->spld = -1;
}

/* Load PTX text and find kernel in it.  Returns 0, or -1 with the JIT's
 * error log in log. */
int
cuload(Vfn *f, const char *ptx, const char *kernel, unsigned shared,
	char *log, size_t n)
{
	static char info[1 << 16];
	int opt[] = { JitErrBuf, JitErrSize, JitInfoBuf, JitInfoSize,
		JitVerbose };
	void *val[] = { log, (void *)(uintptr_t)n, info,
		(void *)(uintptr_t)sizeof info, (void *)(uintptr_t)1 };
	Res r;

	log[0] = info[0] = 0;
	memset(f, 0, sizeof *f);
	if ((r = cu.modload(&f->mod, ptx, 5, opt, val)) != 0) {
		if (!log[0]) {
			const char *name = 0;
			cu.errname(r, &name);
			snprintf(log, n, "%s", name ? name : "load failed");
		}
		return -1;
	}
	if (cu.modfn(&f->fn, f->mod, kernel) != 0) {
		snprintf(log, n, "no kernel '%s' in the module", kernel);
		return -1;
	}
	CK(fnattr(&f->regs, FnNumRegs, f->fn));
	CK(fnattr(&f->local, FnLocalBytes, f->fn));
	/* past 48 KiB dynamic shared memory must be asked for */
	if (shared > 48 * 1024)
		CK(fnsetattr(f->fn, FnMaxDynShared, (int)shared));
	spills(f, info, kernel);
	if (getenv("PTXPRESS_JITLOG"))
		fprintf(stderr, "--- JIT log for %s:\n%s\n---\n", kernel, info);
	return 0;
}

void
cuunload(Vfn *f)
{
	if (f->mod)
		CK(modunload(f->mod));
	f->mod = f->fn = 0;
}

uint64_t
cualloc(size_t n)
{
	Dptr p;

	CK(malloc(&p, n ? n : 1));
	return p;
}

void
cufree(uint64_t p)
{
	CK(free(p));
}

void
cuput(uint64_t d, const void *h, size_t n)
{
	CK(htod(d, h, n));
}

void
cuget(void *h, uint64_t d, size_t n)
{
	CK(dtoh(h, d, n));
}

/* Vfill with the poison word of type t (verify.c's vpoison()). */
void
cupoison(uint64_t d, Vtype t, size_t n)
{
	uint32_t w = vpoison(t);

	switch (vtypesize(t)) {
	case 1: CK(set8(d, (unsigned char)w, n)); break;
	case 2: CK(set16(d, (unsigned short)w, n)); break;
	case 4: CK(set32(d, w, n)); break;
	default: CK(set32(d, w, n * (vtypesize(t) / 4))); break;
	}
}

/* One launch, waited for.  Returns its time in milliseconds from CUDA
 * events when timed, else 0. */
float
culaunch(Vfn *f, const Vlaunch *l, void **args, int timed)
{
	float ms = 0;

	if (timed)
		CK(evrecord(cu.ev[0], 0));
	CK(launch(f->fn, l->grid[0], l->grid[1], l->grid[2], l->block[0],
		l->block[1], l->block[2], l->shared, 0, args, 0));
	if (timed) {
		CK(evrecord(cu.ev[1], 0));
		CK(evsync(cu.ev[1]));
		CK(evtime(&ms, cu.ev[0], cu.ev[1]));
	}
	CK(ctxsync());
	return ms;
}
