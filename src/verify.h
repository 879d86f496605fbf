/* verify.h: `ptxpress verify`, a differential run of two PTX files.
 *
 * Types first, then prototypes grouped by file, so that this header is
 * also the map of verify.c (launch descriptions, host data, reference
 * attention, the command) and cudrv.c (the CUDA driver, opened with
 * dlopen at run time).  The launch description format is in
 * doc/launch.md.
 */
#ifndef VERIFY_H
#define VERIFY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { VSkip = 77 };	/* ctest's SKIP_RETURN_CODE: no CUDA device */

typedef enum { Vf32, Vf16, Vbf16, Vi32, Vu8, Vu32, Vi64, Vf64, NVtype } Vtype;
typedef enum { VFrandn, VFuniform, VFzeros, VFnan, NVfill } Vfill;
typedef enum { VRin, VRout, VRinout, NVrole } Vrole;
typedef enum { VPbuf, VPscalar } Vpkind;

typedef struct Vparam Vparam;
typedef struct Vlaunch Vlaunch;

struct Vparam {
	char *name;
	Vpkind kind;
	Vtype type;
	int line;		/* where it was declared */
	/* buffers */
	int rank;
	size_t shape[4];
	size_t n;		/* elements */
	Vfill fill;
	Vrole role;
	/* scalars */
	union { double f; int64_t i; } val;
};

struct Vlaunch {
	char *file;
	char *kernel;
	unsigned grid[3], block[3], shared;
	Vparam *param;
	int nparam;
	int ref;		/* 1: `reference attention` was given */
	int rq, rk, rv, ro, rscale;	/* its parameters, as indices */
};

typedef struct Vfn {
	void *mod, *fn;
	int regs, local;	/* from cuFuncGetAttribute */
	int spst, spld;		/* spill bytes from the JIT log, -1: unknown */
} Vfn;

/* verify.c */
int cmdverify(int argc, char **argv);
int vpair(const char *launch, const char *orig, const char *rew, int runs,
	int warmup, double *ratio, char *why, size_t nwhy);
char *launchkernel(const char *launch);
int launchok(const char *launch);
void launchparse(Vlaunch *, const char *file, const char *text, size_t len);
void launchprint(FILE *, const Vlaunch *);
size_t vtypesize(Vtype);
uint32_t vpoison(Vtype);
double vload(Vtype, const void *, size_t i);
void vstore(Vtype, void *, size_t i, double);
uint16_t vf2h(float);
float vh2f(uint16_t);
uint16_t vf2bf(float);
float vbf2f(uint16_t);
void vrefrow(double *out, double *scratch, const Vtype t[3], const void *q,
	const void *k, const void *v, size_t seq, size_t d, size_t qrow,
	size_t kvbase, double scale);

/* cudrv.c */
int cuopen(char *why, size_t n);
void cudevice(char *name, size_t n, int *cc, int *drv, int *smem);
int cuload(Vfn *, const char *ptx, const char *kernel, unsigned shared,
	char *log, size_t n);
void cuunload(Vfn *);
uint64_t cualloc(size_t);
void cufree(uint64_t);
void cuput(uint64_t, const void *, size_t);
void cuget(void *, uint64_t, size_t);
void cupoison(uint64_t, Vtype, size_t n);
float culaunch(Vfn *, const Vlaunch *, void **args, int timed);

#endif
