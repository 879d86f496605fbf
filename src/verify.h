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

typedef enum { Tf32, Tf16, Tbf16, Ti32, Tu8, Tu32, Ti64, Tf64, NType } Type;
typedef enum { Frandn, Funiform, Fzeros, Fnan, NFill } Fill;
typedef enum { Rin, Rout, Rinout, NRole } Role;
typedef enum { Pbuf, Pscalar } Pkind;

typedef struct Param Param;
typedef struct Launch Launch;

struct Param {
	char *name;
	Pkind kind;
	Type type;
	int line;		/* where it was declared */
	/* buffers */
	int rank;
	size_t shape[4];
	size_t n;		/* elements */
	Fill fill;
	Role role;
	/* scalars */
	union { double f; int64_t i; } val;
};

struct Launch {
	char *file;
	char *kernel;
	unsigned grid[3], block[3], shared;
	Param *param;
	int nparam;
	int ref;		/* 1: `reference attention` was given */
	int rq, rk, rv, ro, rscale;	/* its parameters, as indices */
};

typedef struct Cufn {
	void *mod, *fn;
	int regs, local;	/* from cuFuncGetAttribute */
	int spst, spld;		/* spill bytes from the JIT log, -1: unknown */
} Cufn;

/* verify.c */
int cmdverify(int argc, char **argv);
void launchparse(Launch *, const char *file, const char *text, size_t len);
void launchprint(FILE *, const Launch *);
size_t typesize(Type);
uint32_t poison(Type);
double loadf(Type, const void *, size_t i);
void storef(Type, void *, size_t i, double);
uint16_t f2h(float);
float h2f(uint16_t);
uint16_t f2bf(float);
float bf2f(uint16_t);
void refrow(double *out, double *scratch, const Type t[3], const void *q,
	const void *k, const void *v, size_t seq, size_t d, size_t qrow,
	size_t kvbase, double scale);

/* cudrv.c */
int cuopen(char *why, size_t n);
void cudevice(char *name, size_t n, int *cc, int *drv);
int cuload(Cufn *, const char *ptx, const char *kernel, unsigned shared,
	char *log, size_t n);
void cuunload(Cufn *);
uint64_t cualloc(size_t);
void cufree(uint64_t);
void cuput(uint64_t, const void *, size_t);
void cuget(void *, uint64_t, size_t);
void cupoison(uint64_t, Type, size_t n);
float culaunch(Cufn *, const Launch *, void **args, int timed);

#endif
