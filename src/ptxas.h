/* ptxas.h: running NVIDIA's ptxas and reading what it says.
 * To be folded into the main header; types first, then prototypes
 * grouped by file. */
#ifndef PTXAS_H
#define PTXAS_H

#include <stddef.h>

typedef struct Pxopt Pxopt;
typedef struct Pxfn Pxfn;
typedef struct Pxres Pxres;

/* What to run. Only ptx is required. */
struct Pxopt {
	const char *ptxas;      /* NULL: ptxasfind(NULL) */
	const char *ptx;        /* input file */
	const char *arch;       /* "sm_90a"; NULL: the .target of ptx */
	const char *cubin;      /* output; NULL: a temporary, deleted */
	const char *const *args; /* extra args ("-O3", ...), NULL-ended */
};

/* One function of a ptxas -v log; -1 where ptxas printed nothing. */
struct Pxfn {
	char *name;
	int entry;      /* 1 .entry ("Compiling entry function"), 0 .func */
	int regs;
	int barriers;
	long stack;     /* stack frame bytes */
	long spillst;   /* spill stores bytes */
	long spillld;   /* spill loads bytes */
	long cumstack;  /* cumulative stack size */
	long smem;
	long cmem;      /* sum over the cmem[N] banks */
	long lmem;      /* old ptxas: "N+M bytes lmem" */
};

/* The outcome of one run. Owns everything it points to. */
struct Pxres {
	Pxfn *fn;
	int nfn;
	char *log;      /* stdout and stderr, NUL-terminated */
	size_t nlog;
	int status;     /* exit status; -1 if not run or killed */
	char arch[32];  /* the -arch used */
	char *names;    /* storage for fn[].name */
};

/* ptxas.c */
char *ptxasfind(const char *override);
int ptxasisa(const char *ptxas, int *maj, int *min);
int ptxasrun(const Pxopt *o, Pxres *r);
int ptxasparse(const char *log, size_t n, Pxres *r);
void ptxasfree(Pxres *r);
int ptxtarget(const char *text, size_t n, char *arch, size_t cap);
int ptxversion(const char *text, size_t n, int *maj, int *min);
char *ptxfixup(const char *text, size_t n, int maj, int min,
	size_t *outn, int *changed);
char *pxslurp(const char *path, size_t *n);

/* bits of ptxfixup's *changed */
enum {
	Fnul = 1,       /* trailing NUL bytes dropped */
	Fversion = 2,   /* .version lowered */
	Fascii = 4,     /* non-ASCII bytes in comments replaced */
};

/* elfcmp.c */
int cubincmp(const char *patha, const char *pathb,
	char *why, size_t whycap);

#endif
