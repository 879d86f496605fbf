/* verify.c: `ptxpress verify ORIG.ptx NEW.ptx LAUNCH`.
 *
 * Proves a rewrite on the GPU: both PTX files are loaded through the
 * CUDA driver (cudrv.c), their kernel is launched as the launch
 * description says (doc/launch.md) on the same seeded random inputs,
 * outputs are poisoned with a NaN before every run and must be wholly
 * written, the two results must agree bit for bit and be stable from
 * run to run, and, for attention, both must lie within a bound of a
 * float64 CPU reference.  Both are timed with CUDA events; the median
 * of --runs launches after --warmup is reported.
 *
 * Exit: 0 all checks pass, 1 a check failed (or the driver did),
 * 2 bad input (usage, launch description), 77 no CUDA device.
 */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"

/* ---- memory: one arena, freed at once ---- */

typedef struct Blk Blk;
struct Blk {
	Blk *next;
	size_t cap, used;
	max_align_t data[];
};

static Blk *arena;

static void *
alloc(size_t n)
{
	const size_t a = sizeof(max_align_t), big = 1 << 20;
	Blk *b;
	void *p;

	n = (n + a - 1) / a * a;
	if (!arena || arena->cap - arena->used < n) {
		b = malloc(sizeof *b + (n > big ? n : big));
		if (!b) {
			fprintf(stderr, "ptxpress verify: out of memory\n");
			exit(1);
		}
		b->cap = n > big ? n : big;
		b->used = 0;
		/* a block for one big buffer goes behind the current one,
		 * which keeps its free room for small things */
		if (arena && n > big / 4) {
			b->next = arena->next;
			arena->next = b;
		} else {
			b->next = arena;
			arena = b;
		}
		if (b != arena) {
			b->used = n;
			return b->data;
		}
	}
	p = (char *)arena->data + arena->used;
	arena->used += n;
	return p;
}

static void
freeall(void)
{
	Blk *b;

	while ((b = arena)) {
		arena = b->next;
		free(b);
	}
}

static char *
strdupn(const char *s, size_t n)
{
	char *p = alloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

/* ---- element types ---- */

static const struct {
	const char *name;
	size_t size;
	int buf, scalar;	/* allowed as a buffer's / a scalar's type */
} types[NVtype] = {
	[Vf32] = { "f32", 4, 1, 1 },
	[Vf16] = { "f16", 2, 1, 0 },
	[Vbf16] = { "bf16", 2, 1, 0 },
	[Vi32] = { "i32", 4, 1, 1 },
	[Vu8] = { "u8", 1, 1, 0 },
	[Vu32] = { "u32", 4, 0, 1 },
	[Vi64] = { "i64", 8, 0, 1 },
	[Vf64] = { "f64", 8, 0, 1 },
};
static const char *const fills[NVfill] = { "randn", "uniform", "zeros",
	"nan" };
static const char *const roles[NVrole] = { "in", "out", "inout" };

size_t
vtypesize(Vtype t)
{
	return types[t].size;
}

static int
isfloat(Vtype t)
{
	return t == Vf32 || t == Vf16 || t == Vbf16 || t == Vf64;
}

/* Quiet NaNs with a payload arithmetic does not produce (integers: a
 * byte pattern), so an element still equal to it was never written.
 * 64-bit types repeat the word. */
uint32_t
vpoison(Vtype t)
{
	switch (t) {
	case Vf32: return 0x7fcdead5u;
	case Vf16: return 0x7e5a;
	case Vbf16: return 0x7fda;
	case Vu8: return 0x5a;
	case Vi64: case Vf64: return 0x7ffdead5u;
	default: return 0x5a5a5a5au;
	}
}

static float
fbits(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t
bitsf(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* ---- the math verify needs, without linking libm ----
 *
 * Only verify calls into libm, and linking it cost every command 300
 * KB of memory and 0.1 ms of start (its pages and its ifunc resolvers
 * run at load; a tenth of the 10x memory bound on a 1 MB input).  So
 * cos, log and exp2 are bound from libm.so.6 when verify first needs
 * them, as the driver is (cudrv.c), and the rest is done here exactly:
 * rounding to an integer by the 2^52 sum (round to nearest even, as
 * lrint in the default mode), sqrt by the instruction (verify.c is
 * built with -fno-math-errno: no libm call for errno). */
static double (*mcos)(double), (*mlog)(double), (*mexp2)(double);

static void
mathbind(void)
{
	void *lib = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);

	if (lib) {
		*(void **)&mcos = dlsym(lib, "cos");
		*(void **)&mlog = dlsym(lib, "log");
		*(void **)&mexp2 = dlsym(lib, "exp2");
	}
	if (!mcos || !mlog || !mexp2) {
		fprintf(stderr, "ptxpress verify: libm.so.6: %s\n",
			lib ? "no cos, log or exp2" : dlerror());
		exit(1);
	}
}

/* once a process, whichever thread asks first; before mcos, mlog or
 * mexp2 is called */
static void
mathready(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, mathbind);
}

/* x rounded to an integer, ties to even (lrint's answer) */
static double
rne(double x)
{
	double big = __builtin_copysign(0x1p52, x);

	return __builtin_fabs(x) < 0x1p52 ? (x + big) - big : x;
}

/* lrint's and llrint's answer on x86-64: x rounded, or INT64_MIN where
 * it does not fit (NaN too), without a cast C leaves undefined */
static int64_t
rint64(double x)
{
	double r = rne(x);

	return r >= -0x1p63 && r < 0x1p63 ? (int64_t)r : INT64_MIN;
}

/* float to IEEE half, round to nearest even */
uint16_t
vf2h(float f)
{
	uint32_t x = bitsf(f), s = x >> 16 & 0x8000, ax = x & 0x7fffffff;
	uint32_t h, rest;

	if (ax > 0x7f800000)
		return (uint16_t)(s | 0x7e00 | (ax >> 13 & 0x1ff));
	if (ax >= 0x477ff000)	/* 65520 and up round to infinity */
		return (uint16_t)(s | 0x7c00);
	if (ax < 0x38800000)	/* below 2^-14: subnormal, exact scaling */
		return (uint16_t)(s | (uint32_t)rne(fbits(ax) * 0x1p24f));
	h = ((ax >> 23) - 112) << 10 | (ax >> 13 & 0x3ff);
	rest = ax & 0x1fff;
	if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
		h++;
	return (uint16_t)(s | h);
}

float
vh2f(uint16_t h)
{
	uint32_t s = (uint32_t)(h & 0x8000) << 16, e = h >> 10 & 0x1f;
	uint32_t m = h & 0x3ff;

	if (e == 0)
		return s ? -((float)m * 0x1p-24f) : (float)m * 0x1p-24f;
	if (e == 31)
		return fbits(s | 0x7f800000 | m << 13);
	return fbits(s | (e + 112) << 23 | m << 13);
}

uint16_t
vf2bf(float f)
{
	uint32_t x = bitsf(f);

	if ((x & 0x7fffffff) > 0x7f800000)
		return (uint16_t)(x >> 16 | 0x40);
	return (uint16_t)((x + 0x7fff + (x >> 16 & 1)) >> 16);
}

float
vbf2f(uint16_t b)
{
	return fbits((uint32_t)b << 16);
}

double
vload(Vtype t, const void *p, size_t i)
{
	switch (t) {
	case Vf32: return ((const float *)p)[i];
	case Vf16: return vh2f(((const uint16_t *)p)[i]);
	case Vbf16: return vbf2f(((const uint16_t *)p)[i]);
	case Vi32: return ((const int32_t *)p)[i];
	case Vu8: return ((const uint8_t *)p)[i];
	case Vu32: return ((const uint32_t *)p)[i];
	case Vi64: return (double)((const int64_t *)p)[i];
	case Vf64: return ((const double *)p)[i];
	default: return 0;
	}
}

void
vstore(Vtype t, void *p, size_t i, double x)
{
	switch (t) {
	case Vf32: ((float *)p)[i] = (float)x; break;
	case Vf16: ((uint16_t *)p)[i] = vf2h((float)x); break;
	case Vbf16: ((uint16_t *)p)[i] = vf2bf((float)x); break;
	case Vi32: ((int32_t *)p)[i] = (int32_t)rint64(x); break;
	case Vu8:
		((uint8_t *)p)[i] = (uint8_t)(x < 0 ? 0 : x > 255 ? 255 : x);
		break;
	case Vu32: ((uint32_t *)p)[i] = (uint32_t)rint64(x); break;
	case Vi64: ((int64_t *)p)[i] = rint64(x); break;
	case Vf64: ((double *)p)[i] = x; break;
	default: break;
	}
}

/* ---- launch descriptions (doc/launch.md) ----
 * One directive a line, `key arg...`; `#` starts a comment.  A line is
 * split into at most NTOK words, each remembered with its column, so
 * that every error can point at the word it is about. */

enum { NTOK = 12, NPARAM = 64 };

typedef struct Loc {
	const char *file, *line;	/* the line, not 0-terminated */
	size_t len;
	int lno;
} Loc;

typedef struct Lx {
	Loc at;
	int ntok;
	const char *tok[NTOK];
	int tlen[NTOK], col[NTOK];
} Lx;

/* launchok(): a bad description returns here instead of exiting */
static jmp_buf *catcher;

static _Noreturn void
errat(const Loc *at, int col, const char *fmt, ...)
{
	va_list ap;
	int i;

	fprintf(stderr, "%s:%d:%d: error: ", at->file, at->lno, col);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%.*s\n", (int)at->len, at->line);
	/* keep tabs so that the caret lines up under the column */
	for (i = 0; i < col - 1 && (size_t)i < at->len; i++)
		fputc(at->line[i] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
	if (catcher)
		longjmp(*catcher, 1);
	exit(2);
}

/* error about word i; i == ntok: just past the last word */
static _Noreturn void
err(const Lx *x, int i, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int col;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (i < x->ntok)
		col = x->col[i];
	else if (x->ntok)
		col = x->col[x->ntok - 1] + x->tlen[x->ntok - 1] + 1;
	else
		col = 1;
	errat(&x->at, col, "%s", msg);
}

static void
split(Lx *x)
{
	const char *p = x->at.line, *e = p + x->at.len;

	x->ntok = 0;
	for (;;) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == e || *p == '#')
			return;
		if (x->ntok == NTOK)
			errat(&x->at, (int)(p - x->at.line) + 1,
			      "too many words on one line");
		x->tok[x->ntok] = p;
		x->col[x->ntok] = (int)(p - x->at.line) + 1;
		while (p < e && *p != ' ' && *p != '\t' && *p != '\r'
		       && *p != '#')
			p++;
		x->tlen[x->ntok] = (int)(p - x->tok[x->ntok]);
		x->ntok++;
	}
}

static int
is(const Lx *x, int i, const char *s)
{
	return (size_t)x->tlen[i] == strlen(s)
		&& memcmp(x->tok[i], s, strlen(s)) == 0;
}

static void
nargs(const Lx *x, int lo, int hi)
{
	if (x->ntok - 1 < lo)
		err(x, x->ntok, "'%.*s' needs %d argument%s", x->tlen[0],
		    x->tok[0], lo, lo == 1 ? "" : "s");
	if (x->ntok - 1 > hi)
		err(x, hi + 1, "unexpected '%.*s' after the arguments",
		    x->tlen[hi + 1], x->tok[hi + 1]);
}

/* decimal or 0x integer in [lo, hi] filling the whole of s[0..n) */
static int
intin(const char *s, int n, long long lo, long long hi, long long *v)
{
	char buf[64], *end;

	if (n <= 0 || n >= (int)sizeof buf)
		return 0;
	memcpy(buf, s, (size_t)n);
	buf[n] = 0;
	errno = 0;
	*v = strtoll(buf, &end, 0);
	return *end == 0 && errno == 0 && *v >= lo && *v <= hi;
}

static long long
num(const Lx *x, int i, long long lo, long long hi)
{
	long long v;

	if (!intin(x->tok[i], x->tlen[i], lo, hi, &v))
		err(x, i, "expected an integer in [%lld, %lld], not '%.*s'",
		    lo, hi, x->tlen[i], x->tok[i]);
	return v;
}

static int
word(const Lx *x, int i, const char *const *names, int n, const char *what)
{
	int k;

	for (k = 0; k < n; k++)
		if (names[k] && is(x, i, names[k]))
			return k;
	err(x, i, "unknown %s '%.*s'", what, x->tlen[i], x->tok[i]);
}

static Vtype
typeword(const Lx *x, int i, int buf)
{
	int t;

	for (t = 0; t < NVtype; t++)
		if (is(x, i, types[t].name)) {
			if (buf ? !types[t].buf : !types[t].scalar)
				err(x, i, "type '%s' is not allowed for a %s",
				    types[t].name, buf ? "buffer" : "scalar");
			return (Vtype)t;
		}
	err(x, i, "unknown type '%.*s'", x->tlen[i], x->tok[i]);
}

static int
find(const Vlaunch *l, const char *s, int n)
{
	int i;

	for (i = 0; i < l->nparam; i++)
		if ((size_t)n == strlen(l->param[i].name)
		    && memcmp(l->param[i].name, s, (size_t)n) == 0)
			return i;
	return -1;
}

static Vparam *
newparam(Vlaunch *l, const Lx *x)
{
	Vparam *p;
	int k;

	for (k = 0; k < x->tlen[1]; k++) {
		char c = x->tok[1][k];
		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		      || (k > 0 && c >= '0' && c <= '9')))
			err(x, 1, "bad parameter name '%.*s'", x->tlen[1],
			    x->tok[1]);
	}
	if (find(l, x->tok[1], x->tlen[1]) >= 0)
		err(x, 1, "parameter '%.*s' declared twice", x->tlen[1],
		    x->tok[1]);
	if (l->nparam == NPARAM)
		err(x, 0, "more than %d parameters", NPARAM);
	p = &l->param[l->nparam++];
	memset(p, 0, sizeof *p);
	p->name = strdupn(x->tok[1], (size_t)x->tlen[1]);
	p->line = x->at.lno;
	return p;
}

/* SHAPE: dimensions joined by 'x', e.g. 16x4096x128 */
static void
shape(Vparam *p, const Lx *x, int i)
{
	const char *s = x->tok[i], *e = s + x->tlen[i], *q;
	long long v;

	p->rank = 0;
	p->n = 1;
	for (;;) {
		for (q = s; q < e && *q != 'x'; q++)
			;
		if (p->rank == 4)
			errat(&x->at, x->col[i] + (int)(s - x->tok[i]),
			      "more than 4 dimensions");
		if (!intin(s, (int)(q - s), 1, 1ll << 40, &v))
			errat(&x->at, x->col[i] + (int)(s - x->tok[i]),
			      "bad dimension '%.*s' in shape", (int)(q - s),
			      s);
		if (p->n > ((size_t)1 << 40) / (size_t)v)
			err(x, i, "buffer of more than 2^40 elements");
		p->shape[p->rank++] = (size_t)v;
		p->n *= (size_t)v;
		if (q == e)
			return;
		s = q + 1;
	}
}

static void
buffer(Vlaunch *l, const Lx *x)
{
	Vparam *p;

	nargs(x, 5, 5);
	p = newparam(l, x);
	p->kind = VPbuf;
	p->type = typeword(x, 2, 1);
	shape(p, x, 3);
	p->fill = (Vfill)word(x, 4, fills, NVfill, "fill");
	p->role = (Vrole)word(x, 5, roles, NVrole, "role");
	if (p->role == VRout && p->fill != VFnan)
		err(x, 4, "an 'out' buffer is poisoned before every run: "
		    "its fill must be 'nan'");
	if (p->role != VRout && p->fill == VFnan && !isfloat(p->type))
		err(x, 4, "fill 'nan' needs a floating-point type");
}

static void
scalar(Vlaunch *l, const Lx *x)
{
	Vparam *p;
	char buf[64], *end;

	nargs(x, 3, 3);
	p = newparam(l, x);
	p->kind = VPscalar;
	p->type = typeword(x, 2, 0);
	switch (p->type) {
	case Vf32: case Vf64:
		if (x->tlen[3] >= (int)sizeof buf)
			err(x, 3, "number too long");
		memcpy(buf, x->tok[3], (size_t)x->tlen[3]);
		buf[x->tlen[3]] = 0;
		p->val.f = strtod(buf, &end);
		if (*end || end == buf)
			err(x, 3, "expected a number, not '%s'", buf);
		break;
	case Vi32: p->val.i = num(x, 3, INT32_MIN, INT32_MAX); break;
	case Vu32: p->val.i = num(x, 3, 0, UINT32_MAX); break;
	default: p->val.i = num(x, 3, INT64_MIN, INT64_MAX); break;
	}
}

static void
dim3(unsigned *d, const Lx *x)
{
	int i;

	nargs(x, 1, 3);
	for (i = 0; i < 3; i++)
		d[i] = i + 1 < x->ntok ? (unsigned)num(x, i + 1, 1,
			i ? 65535 : 0x7fffffff) : 1;
}

/* where `reference` was, to check its names once all are declared */
typedef struct Ref {
	Lx x;
	int seen;
} Ref;

static void
reference(Vlaunch *l, Ref *r, const Lx *x)
{
	nargs(x, 6, 6);
	if (!is(x, 1, "attention"))
		err(x, 1, "unknown reference '%.*s' (known: attention)",
		    x->tlen[1], x->tok[1]);
	if (r->seen)
		err(x, 0, "second 'reference' line");
	r->seen = 1;
	r->x = *x;
	l->ref = 1;
}

static int
sameshape(const Vparam *a, const Vparam *b)
{
	int d;

	if (a->rank != b->rank)
		return 0;
	for (d = 0; d < a->rank; d++)
		if (a->shape[d] != b->shape[d])
			return 0;
	return 1;
}

/* q, k, v [heads, seq, D] or [seq, D]; o like q; scale a scalar */
static void
refcheck(Vlaunch *l, const Ref *r)
{
	const Lx *x = &r->x;
	int idx[5], i;
	Vparam *p[5];

	for (i = 0; i < 5; i++) {
		idx[i] = find(l, x->tok[i + 2], x->tlen[i + 2]);
		if (idx[i] < 0)
			err(x, i + 2, "no parameter '%.*s'", x->tlen[i + 2],
			    x->tok[i + 2]);
		p[i] = &l->param[idx[i]];
		if ((i < 4) != (p[i]->kind == VPbuf) || !isfloat(p[i]->type))
			err(x, i + 2, "'%s' must be a floating-point %s",
			    p[i]->name, i < 4 ? "buffer" : "scalar");
		if (i < 4 && p[i]->rank != 2 && p[i]->rank != 3)
			err(x, i + 2, "'%s' must have 2 or 3 dimensions",
			    p[i]->name);
		if (i < 3 && p[i]->role == VRout)
			err(x, i + 2, "'%s' is an output", p[i]->name);
	}
	if (p[3]->role == VRin)
		err(x, 5, "'%s' is not an output", p[3]->name);
	if (!sameshape(p[1], p[2]))
		err(x, 4, "'%s' and '%s' differ in shape", p[1]->name,
		    p[2]->name);
	if (!sameshape(p[0], p[3]))
		err(x, 5, "'%s' and '%s' differ in shape", p[0]->name,
		    p[3]->name);
	/* keys may be more or fewer than queries; heads and D must agree */
	if (p[0]->rank != p[1]->rank
	    || p[0]->shape[p[0]->rank - 1] != p[1]->shape[p[1]->rank - 1]
	    || (p[0]->rank == 3 && p[0]->shape[0] != p[1]->shape[0]))
		err(x, 3, "'%s' does not match '%s' in heads or head dim",
		    p[1]->name, p[0]->name);
	l->rq = idx[0], l->rk = idx[1], l->rv = idx[2], l->ro = idx[3];
	l->rscale = idx[4];
}

/* Parse a launch description; on a mistake, print it and exit 2. */
void
launchparse(Vlaunch *l, const char *file, const char *text, size_t len)
{
	const char *p = text, *e = text + len, *nl;
	Lx x = { .at = { .file = file } };
	Loc top = { file, "", 0, 1 };
	Ref r = { .seen = 0 };
	int grid = 0, block = 0, shared = 0;

	memset(l, 0, sizeof *l);
	l->file = strdupn(file, strlen(file));
	l->param = alloc(NPARAM * sizeof *l->param);
	for (; p < e; p = nl + 1) {
		if (!(nl = memchr(p, '\n', (size_t)(e - p))))
			nl = e;
		x.at.line = p;
		x.at.len = (size_t)(nl - p);
		x.at.lno++;
		if (memchr(p, 0, x.at.len))
			errat(&x.at, 1, "NUL byte in a launch description");
		split(&x);
		if (x.ntok == 0)
			continue;
		if (is(&x, 0, "kernel")) {
			nargs(&x, 1, 1);
			if (l->kernel)
				err(&x, 0, "second 'kernel' line");
			l->kernel = strdupn(x.tok[1], (size_t)x.tlen[1]);
		} else if (is(&x, 0, "grid")) {
			if (grid++)
				err(&x, 0, "second 'grid' line");
			dim3(l->grid, &x);
		} else if (is(&x, 0, "block")) {
			if (block++)
				err(&x, 0, "second 'block' line");
			dim3(l->block, &x);
		} else if (is(&x, 0, "shared")) {
			nargs(&x, 1, 1);
			if (shared++)
				err(&x, 0, "second 'shared' line");
			l->shared = (unsigned)num(&x, 1, 0, 1 << 30);
		} else if (is(&x, 0, "buffer")) {
			buffer(l, &x);
		} else if (is(&x, 0, "scalar")) {
			scalar(l, &x);
		} else if (is(&x, 0, "reference")) {
			reference(l, &r, &x);
		} else {
			err(&x, 0, "unknown directive '%.*s' (known: kernel, "
			    "grid, block, shared, buffer, scalar, reference)",
			    x.tlen[0], x.tok[0]);
		}
		if (nl == e)
			break;
	}
	if (!l->kernel)
		errat(&top, 1, "no 'kernel' line");
	if (!grid || !block)
		errat(&top, 1, "no '%s' line", grid ? "block" : "grid");
	if (r.seen)
		refcheck(l, &r);
}

/* Print l in the syntax launchparse reads. */
void
launchprint(FILE *f, const Vlaunch *l)
{
	int i, d;

	fprintf(f, "kernel %s\ngrid %u %u %u\nblock %u %u %u\nshared %u\n",
		l->kernel, l->grid[0], l->grid[1], l->grid[2], l->block[0],
		l->block[1], l->block[2], l->shared);
	for (i = 0; i < l->nparam; i++) {
		const Vparam *p = &l->param[i];
		if (p->kind == VPscalar) {
			fprintf(f, "scalar %s %s ", p->name,
				types[p->type].name);
			if (p->type == Vf32)
				fprintf(f, "%.9g\n", p->val.f);
			else if (p->type == Vf64)
				fprintf(f, "%.17g\n", p->val.f);
			else
				fprintf(f, "%lld\n", (long long)p->val.i);
			continue;
		}
		fprintf(f, "buffer %s %s ", p->name, types[p->type].name);
		for (d = 0; d < p->rank; d++)
			fprintf(f, "%s%zu", d ? "x" : "", p->shape[d]);
		fprintf(f, " %s %s\n", fills[p->fill], roles[p->role]);
	}
	if (l->ref)
		fprintf(f, "reference attention %s %s %s %s %s\n",
			l->param[l->rq].name, l->param[l->rk].name,
			l->param[l->rv].name, l->param[l->ro].name,
			l->param[l->rscale].name);
}

/* ---- inputs: seeded, the same for both PTX files ---- */

static uint64_t
mix(uint64_t *s)	/* splitmix64 */
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ z >> 27) * 0x94d049bb133111ebull;
	return z ^ z >> 31;
}

static double
unit(uint64_t *s)	/* uniform in (0, 1) */
{
	return ((double)(mix(s) >> 11) + 0.5) * 0x1p-53;
}

/* Parameter i's data depends on the seed and i alone, not on the other
 * buffers.  Integer randn is round(64 N(0,1)), uniform [0, 256). */
static void
fill(const Vparam *p, void *h, uint64_t seed, int i)
{
	uint64_t s = seed * 0x2545f4914f6cdd1dull + (uint64_t)i;
	size_t k;
	double a, b;

	if (p->fill == VFrandn)
		mathready();
	for (k = 0; k < p->n; k++) {
		switch (p->fill) {
		case VFrandn:	/* Box-Muller, one of the pair */
			a = unit(&s), b = unit(&s);
			a = sqrt(-2 * mlog(a)) * mcos(6.283185307179586 * b);
			vstore(p->type, h, k, isfloat(p->type) ? a : 64 * a);
			break;
		case VFuniform:
			a = unit(&s);
			vstore(p->type, h, k,
			       isfloat(p->type) ? 2 * a - 1 : floor(256 * a));
			break;
		case VFzeros:
			vstore(p->type, h, k, 0);
			break;
		case VFnan:
			vstore(p->type, h, k, NAN);
			break;
		default:
			break;
		}
	}
}

/* ---- reference attention, float64 ----
 * One query row: o = sum_j 2^(scale q.k_j - m) v_j / sum_j 2^(...),
 * m the row's max; scale is in the log2 domain, as the kernels take
 * it.  s holds seq doubles of scratch. */
void
vrefrow(double *out, double *s, const Vtype t[3], const void *q,
	const void *k, const void *v, size_t seq, size_t d, size_t qrow,
	size_t kvbase, double scale)
{
	double m = -INFINITY, l = 0, dot;
	size_t j, c;

	mathready();
	for (j = 0; j < seq; j++) {
		dot = 0;
		for (c = 0; c < d; c++)
			dot += vload(t[0], q, qrow * d + c)
				* vload(t[1], k, (kvbase + j) * d + c);
		s[j] = scale * dot;
		if (s[j] > m)
			m = s[j];
	}
	for (c = 0; c < d; c++)
		out[c] = 0;
	for (j = 0; j < seq; j++) {
		double p = mexp2(s[j] - m);
		l += p;
		for (c = 0; c < d; c++)
			out[c] += p * vload(t[2], v, (kvbase + j) * d + c);
	}
	for (c = 0; c < d; c++)
		out[c] /= l;
}

/* Bound on ||out - ref|| / ||ref|| by the narrowest float among q, k,
 * v, o: bf16 keeps 8 significant bits (P and O are rounded to it, an
 * error of about 2^-9 rms each), f16 11; f32 leaves room for tf32. */
static double
reflimit(const Vlaunch *l)
{
	int i, idx[4] = { l->rq, l->rk, l->rv, l->ro };
	double lim = 1e-3;

	for (i = 0; i < 4; i++) {
		Vtype t = l->param[idx[i]].type;
		if (t == Vbf16)
			lim = 1e-2;
		else if (t == Vf16 && lim < 2e-3)
			lim = 2e-3;
	}
	return lim;
}

typedef struct Err {
	double num, den, maxabs;
} Err;

/* Compare nrow evenly spread query rows (first and last included) of
 * both results with the reference. */
static void
refcompare(const Vlaunch *l, void *const host[], void *const res[2],
	size_t nrow, Err e[2])
{
	const Vparam *q = &l->param[l->rq], *k = &l->param[l->rk];
	const Vparam *o = &l->param[l->ro];
	const Vtype t[3] = { q->type, k->type, l->param[l->rv].type };
	size_t d = q->shape[q->rank - 1], sq = q->shape[q->rank - 2];
	size_t sk = k->shape[k->rank - 2], rows = q->n / d, i, c, r;
	double *ref = alloc(d * sizeof *ref), *s = alloc(sk * sizeof *s);
	double scale = l->param[l->rscale].val.f;
	int m;

	memset(e, 0, 2 * sizeof *e);
	if (nrow > rows)
		nrow = rows;
	for (i = 0; i < nrow; i++) {
		r = nrow > 1 ? i * (rows - 1) / (nrow - 1) : 0;
		vrefrow(ref, s, t, host[l->rq], host[l->rk], host[l->rv], sk,
		       d, r, r / sq * sk, scale);
		for (m = 0; m < 2; m++)
			for (c = 0; c < d; c++) {
				double x = vload(o->type, res[m], r * d + c);
				double a = fabs(x - ref[c]);
				e[m].num += (x - ref[c]) * (x - ref[c]);
				e[m].den += ref[c] * ref[c];
				if (isnan(a) || a > e[m].maxabs)
					e[m].maxabs = a;	/* NaN sticks */
			}
	}
}

/* ---- the command ---- */

typedef struct Opt {
	const char *path[3];	/* ORIG.ptx NEW.ptx LAUNCH */
	int runs, warmup, json, check;
	int quiet;		/* vpair: no table, no JSON */
	uint64_t seed;
	long long refrows;
} Opt;

typedef struct Side {
	const char *path;
	char *ptx;
	Vfn f;
	float *ms;
	double med, min;
} Side;

typedef struct Out {
	int p;			/* parameter index */
	void *res[2];		/* first run's result, orig and new */
	size_t unwritten[2], nonfinite[2], diff, first;
	int stable[2];
} Out;

typedef union Arg {
	uint64_t d;
	float f;
	double g;
	int32_t i;
	uint32_t u;
	int64_t l;
} Arg;

typedef struct Run {
	const Opt *o;
	const Vlaunch *l;
	Side s[2];
	void **host;
	uint64_t *dev;
	void **args;
	Out out[NPARAM];
	int nout;
	char dev_name[128];
	int cc, drv;
	int ref;
	size_t refrows;
	Err err[2];
	double limit;
	int clobbered[2];	/* an `in` buffer changed: its index + 1 */
} Run;

static const char usage[] =
	"usage: ptxpress verify ORIG.ptx NEW.ptx LAUNCH [--runs N] "
	"[--warmup N]\n"
	"                       [--seed S] [--ref-rows N] [--json]\n"
	"       ptxpress verify --check LAUNCH\n"
	"Runs LAUNCH's kernel from both PTX files on the same random inputs"
	";\nchecks that outputs are fully written, bit-identical, stable, "
	"and\nwithin bounds of the CPU reference; times both.  Exit 0 pass, "
	"1 fail,\n2 bad input, 77 no CUDA device.  Format: doc/launch.md\n";

static _Noreturn void
badusage(const char *fmt, const char *arg)
{
	fprintf(stderr, "ptxpress verify: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage);
	exit(2);
}

static long long
optnum(int argc, char **argv, int *i, long long lo, long long hi)
{
	long long v;

	if (*i + 1 >= argc)
		badusage("%s needs a number", argv[*i]);
	++*i;
	if (!intin(argv[*i], (int)strlen(argv[*i]), lo, hi, &v))
		badusage("bad number '%s'", argv[*i]);
	return v;
}

/* argv[0] is the command's own name */
static void
opts(Opt *o, int argc, char **argv)
{
	int i, n = 0;

	*o = (Opt){ .runs = 20, .warmup = 5, .seed = 1, .refrows = 256 };
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		} else if (!strcmp(a, "--runs")) {
			o->runs = (int)optnum(argc, argv, &i, 1, 100000);
		} else if (!strcmp(a, "--warmup")) {
			o->warmup = (int)optnum(argc, argv, &i, 0, 100000);
		} else if (!strcmp(a, "--seed")) {
			o->seed = (uint64_t)optnum(argc, argv, &i, 0,
				INT64_MAX);
		} else if (!strcmp(a, "--ref-rows")) {
			o->refrows = optnum(argc, argv, &i, 1, 1 << 24);
		} else if (!strcmp(a, "--json")) {
			o->json = 1;
		} else if (!strcmp(a, "--check")) {
			o->check = 1;
		} else if (a[0] == '-' && a[1]) {
			badusage("unknown option '%s'", a);
		} else if (n == 3) {
			badusage("unexpected argument '%s'", a);
		} else {
			o->path[n++] = a;
		}
	}
	if (o->check && n == 1) {
		o->path[2] = o->path[0];
		return;
	}
	if (o->check || n != 3)
		badusage("%s", o->check ? "--check takes one LAUNCH file"
			 : "needs ORIG.ptx NEW.ptx LAUNCH");
}

static char *
readfile(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, k;
	char *buf, *nb;

	if (!f) {
		fprintf(stderr, "ptxpress verify: cannot read %s: %s\n", path,
			strerror(errno));
		exit(2);
	}
	buf = alloc(cap + 1);
	while ((k = fread(buf + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			nb = alloc(2 * cap + 1);
			memcpy(nb, buf, n);
			buf = nb, cap *= 2;
		}
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* device buffers, host inputs and the argument array */
static void
setup(Run *r)
{
	const Vlaunch *l = r->l;
	Arg *store = alloc((size_t)(l->nparam + 1) * sizeof *store);
	int i;

	r->host = alloc((size_t)(l->nparam + 1) * sizeof *r->host);
	r->dev = alloc((size_t)(l->nparam + 1) * sizeof *r->dev);
	r->args = alloc((size_t)(l->nparam + 1) * sizeof *r->args);
	for (i = 0; i < l->nparam; i++) {
		const Vparam *p = &l->param[i];
		r->host[i] = 0;
		r->args[i] = &store[i];
		if (p->kind == VPscalar) {
			switch (p->type) {
			case Vf32: store[i].f = (float)p->val.f; break;
			case Vf64: store[i].g = p->val.f; break;
			case Vi32: store[i].i = (int32_t)p->val.i; break;
			case Vu32: store[i].u = (uint32_t)p->val.i; break;
			default: store[i].l = p->val.i; break;
			}
			continue;
		}
		r->dev[i] = store[i].d = cualloc(p->n * vtypesize(p->type));
		if (p->role != VRout) {
			r->host[i] = alloc(p->n * vtypesize(p->type));
			fill(p, r->host[i], r->o->seed, i);
		}
		if (p->role != VRin) {
			Out *o = &r->out[r->nout++];
			memset(o, 0, sizeof *o);
			o->p = i;
		}
	}
}

/* inputs afresh (a kernel may write what it should only read), outputs
 * poisoned */
static void
prepare(Run *r, int inputs)
{
	int i;

	for (i = 0; i < r->l->nparam; i++) {
		const Vparam *p = &r->l->param[i];
		if (p->kind != VPbuf)
			continue;
		if (p->role == VRout)
			cupoison(r->dev[i], p->type, p->n);
		else if (inputs || p->role == VRinout)
			cuput(r->dev[i], r->host[i], p->n * vtypesize(p->type));
	}
}

static void *
fetch(Run *r, const Out *o)
{
	const Vparam *p = &r->l->param[o->p];
	void *h = alloc(p->n * vtypesize(p->type));

	cuget(h, r->dev[o->p], p->n * vtypesize(p->type));
	return h;
}

static void
load(Run *r, Side *s)
{
	static char log[1 << 14];

	if (cuload(&s->f, s->ptx, r->l->kernel, r->l->shared, log,
		   sizeof log)) {
		fprintf(stderr, "ptxpress verify: %s: kernel '%s' does not "
			"load:\n%s\n", s->path, r->l->kernel, log);
		exit(1);
	}
}

static int
cmpf(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* Warm-up and timed runs alternate between the two sides, so that a
 * change of clock or temperature falls on both alike. */
static void
timeboth(Run *r)
{
	int k, m, n = r->o->warmup + r->o->runs;
	float *tmp = alloc((size_t)r->o->runs * sizeof *tmp);

	for (m = 0; m < 2; m++)
		r->s[m].ms = alloc((size_t)r->o->runs * sizeof(float));
	for (k = 0; k < n; k++)
		for (m = 0; m < 2; m++) {
			float ms;
			int j;
			/* inputs afresh only if a side is known to spoil them */
			prepare(r, r->clobbered[0] || r->clobbered[1]);
			ms = culaunch(&r->s[m].f, r->l, r->args, 1);
			if (k >= r->o->warmup)
				r->s[m].ms[k - r->o->warmup] = ms;
			if (k < n - 1)
				continue;
			/* the last run must repeat the first bit for bit */
			for (j = 0; j < r->nout; j++) {
				Out *o = &r->out[j];
				const Vparam *p = &r->l->param[o->p];
				o->stable[m] = !memcmp(fetch(r, o), o->res[m],
					p->n * vtypesize(p->type));
			}
		}
	for (m = 0; m < 2; m++) {
		memcpy(tmp, r->s[m].ms, (size_t)r->o->runs * sizeof *tmp);
		qsort(tmp, (size_t)r->o->runs, sizeof *tmp, cmpf);
		r->s[m].min = tmp[0];
		r->s[m].med = r->o->runs % 2 ? tmp[r->o->runs / 2]
			: (tmp[r->o->runs / 2 - 1] + tmp[r->o->runs / 2]) / 2;
	}
}

static void
inspect(Run *r, Out *o)
{
	const Vparam *p = &r->l->param[o->p];
	size_t w = vtypesize(p->type), i;
	uint32_t pw = vpoison(p->type);
	unsigned char pat[8];
	int m;

	/* little-endian, as both host and GPU are */
	memcpy(pat, &pw, 4);
	memcpy(pat + 4, &pw, 4);
	o->first = (size_t)-1;
	for (i = 0; i < p->n; i++) {
		const unsigned char *a = (unsigned char *)o->res[0] + i * w;
		const unsigned char *b = (unsigned char *)o->res[1] + i * w;
		for (m = 0; m < 2; m++) {
			const unsigned char *e = m ? b : a;
			/* inout buffers start from their fill, unpoisoned */
			if (p->role == VRout && !memcmp(e, pat, w))
				o->unwritten[m]++;
			else if (isfloat(p->type)
				 && !isfinite(vload(p->type, e, 0)))
				o->nonfinite[m]++;
		}
		if (memcmp(a, b, w) && o->diff++ == 0)
			o->first = i;
	}
}

static int
outok(const Out *o, int m)
{
	return !o->unwritten[m] && o->stable[m];
}

static double
relerr(const Err *e)
{
	return e->den > 0 ? sqrt(e->num / e->den) : e->num == 0 ? 0 : NAN;
}

static int
refok(const Run *r, int m)
{
	return !r->ref || relerr(&r->err[m]) <= r->limit;
}

static int
passed(const Run *r)
{
	int j;

	for (j = 0; j < r->nout; j++)
		if (!outok(&r->out[j], 0) || !outok(&r->out[j], 1)
		    || r->out[j].diff)
			return 0;
	return refok(r, 0) && refok(r, 1) && !r->clobbered[0]
		&& !r->clobbered[1];
}

static void
spill(char *buf, size_t n, const Vfn *f)
{
	if (f->spst < 0)
		snprintf(buf, n, "?/?");
	else
		snprintf(buf, n, "%d/%d", f->spst, f->spld);
}

static void
table(const Run *r)
{
	const Vlaunch *l = r->l;
	static const char *const side[2] = { "orig", "new" };
	char sp[32];
	int m, j, d;

	printf("ptxpress verify: %s on %s (sm_%d, driver %d.%d)\n",
	       l->kernel, r->dev_name, r->cc, r->drv / 1000,
	       r->drv % 1000 / 10);
	printf("grid %ux%ux%u  block %ux%ux%u  shared %u B  runs %d "
	       "(warm-up %d)  seed %llu\n\n", l->grid[0], l->grid[1],
	       l->grid[2], l->block[0], l->block[1], l->block[2], l->shared,
	       r->o->runs, r->o->warmup, (unsigned long long)r->o->seed);
	printf("        regs  local  spill st/ld  median ms     min ms"
	       "  ref rel-l2  file\n");
	for (m = 0; m < 2; m++) {
		const Side *s = &r->s[m];
		spill(sp, sizeof sp, &s->f);
		printf("%-6s %5d %6d %12s %10.4f %10.4f", side[m], s->f.regs,
		       s->f.local, sp, s->med, s->min);
		if (r->ref)
			printf("  %10.3e", relerr(&r->err[m]));
		else
			printf("  %10s", "-");
		printf("  %s\n", s->path);
	}
	printf("\n");
	for (j = 0; j < r->nout; j++) {
		const Out *o = &r->out[j];
		const Vparam *p = &l->param[o->p];
		printf("output %s %s ", p->name, types[p->type].name);
		for (d = 0; d < p->rank; d++)
			printf("%s%zu", d ? "x" : "", p->shape[d]);
		printf(": unwritten %zu/%zu, non-finite %zu/%zu, stable %s/%s;"
		       " ", o->unwritten[0], o->unwritten[1], o->nonfinite[0],
		       o->nonfinite[1], o->stable[0] ? "yes" : "NO",
		       o->stable[1] ? "yes" : "NO");
		if (o->diff)
			printf("%zu of %zu elements DIFFER (first at %zu)\n",
			       o->diff, p->n, o->first);
		else
			printf("bit-identical\n");
	}
	if (r->ref)
		printf("reference attention: %zu rows, limit %.1e: orig %s "
		       "(max abs %.3g), new %s (max abs %.3g)\n", r->refrows,
		       r->limit, refok(r, 0) ? "ok" : "FAIL",
		       r->err[0].maxabs, refok(r, 1) ? "ok" : "FAIL",
		       r->err[1].maxabs);
	for (m = 0; m < 2; m++)
		if (r->clobbered[m])
			printf("%s wrote to input '%s'\n", side[m],
			       l->param[r->clobbered[m] - 1].name);
	printf("time new/orig: %.4f\n%s\n", r->s[1].med / r->s[0].med,
	       passed(r) ? "PASS" : "FAIL");
}

static void
jstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* JSON has no NaN: a non-finite number is written as null */
static void
jnum(double x)
{
	if (isfinite(x))
		printf("%.6g", x);
	else
		printf("null");
}

static void
jside(const Run *r, int m)
{
	const Side *s = &r->s[m];
	int k;

	printf("{\"ptx\": ");
	jstr(s->path);
	printf(", \"regs\": %d, \"local_bytes\": %d, ", s->f.regs,
	       s->f.local);
	if (s->f.spst < 0)
		printf("\"spill_stores\": null, \"spill_loads\": null, ");
	else
		printf("\"spill_stores\": %d, \"spill_loads\": %d, ",
		       s->f.spst, s->f.spld);
	printf("\"median_ms\": ");
	jnum(s->med);
	printf(", \"min_ms\": ");
	jnum(s->min);
	if (r->ref) {
		printf(", \"ref_rel_l2\": ");
		jnum(relerr(&r->err[m]));
		printf(", \"ref_max_abs\": ");
		jnum(r->err[m].maxabs);
		printf(", \"ref_ok\": %s", refok(r, m) ? "true" : "false");
	}
	printf(", \"times_ms\": [");
	for (k = 0; k < r->o->runs; k++)
		printf("%s%.5g", k ? ", " : "", s->ms[k]);
	printf("]}");
}

static void
json(const Run *r)
{
	const Vlaunch *l = r->l;
	int j;

	printf("{\"kernel\": ");
	jstr(l->kernel);
	printf(", \"launch\": ");
	jstr(l->file);
	printf(", \"device\": ");
	jstr(r->dev_name);
	printf(", \"sm\": %d, \"driver\": %d, \"runs\": %d, \"warmup\": %d, "
	       "\"seed\": %llu,\n \"orig\": ", r->cc, r->drv, r->o->runs,
	       r->o->warmup, (unsigned long long)r->o->seed);
	jside(r, 0);
	printf(",\n \"new\": ");
	jside(r, 1);
	printf(",\n \"outputs\": [");
	for (j = 0; j < r->nout; j++) {
		const Out *o = &r->out[j];
		printf("%s{\"name\": ", j ? ", " : "");
		jstr(l->param[o->p].name);
		printf(", \"elements\": %zu, \"unwritten\": [%zu, %zu], "
		       "\"nonfinite\": [%zu, %zu], \"stable\": [%s, %s], "
		       "\"differ\": %zu}", l->param[o->p].n, o->unwritten[0],
		       o->unwritten[1], o->nonfinite[0], o->nonfinite[1],
		       o->stable[0] ? "true" : "false",
		       o->stable[1] ? "true" : "false", o->diff);
	}
	printf("],\n \"reference\": ");
	if (r->ref)
		printf("{\"rows\": %zu, \"limit\": %g}", r->refrows, r->limit);
	else
		printf("null");
	printf(", \"inputs_clobbered\": [");
	for (j = 0; j < 2; j++) {
		printf("%s", j ? ", " : "");
		if (r->clobbered[j])
			jstr(l->param[r->clobbered[j] - 1].name);
		else
			printf("null");
	}
	printf("]");
	printf(", \"time_ratio\": ");
	jnum(r->s[1].med / r->s[0].med);
	printf(", \"pass\": %s}\n", passed(r) ? "true" : "false");
}

/* Whether the device can run PTX for `.target sm_NN[a|f]`: an 'a'
 * (architecture-specific) target runs on exactly that compute
 * capability, others on it and later ones.  No .target: assume yes. */
/* A kernel that writes what it should only read: a stray store of a
 * rewrite can land there.  Returns the first such parameter + 1. */
static int
clobbered(Run *r)
{
	const Vlaunch *l = r->l;
	int i;

	for (i = 0; i < l->nparam; i++) {
		const Vparam *p = &l->param[i];
		size_t n = p->n * vtypesize(p->type);
		Out o = { .p = i };
		if (p->kind == VPbuf && p->role == VRin
		    && memcmp(fetch(r, &o), r->host[i], n))
			return i + 1;
	}
	return 0;
}

static int
runnable(const char *ptx, int cc, char *why, size_t n)
{
	const char *p = strstr(ptx, ".target");
	int sm = 0, k = 0;
	char suf = 0;

	if (!p || sscanf(p, ".target sm_%d%n", &sm, &k) != 1)
		return 1;
	if (p[k] >= 'a' && p[k] <= 'z')
		suf = p[k];
	if (suf == 'a' ? sm == cc : sm <= cc)
		return 1;
	snprintf(why, n, "the PTX targets sm_%d%.*s, the device is sm_%d",
		 sm, suf != 0, &suf, cc);
	return 0;
}

/* Whether the device can run r at all; if not, why says what stops it
 * (no driver, no device, a target it does not take, more shared
 * memory than a block may have: Triton compiles configurations no
 * Hopper can launch, and the driver's answer to those is a bare
 * CUDA_ERROR_INVALID_VALUE). */
static int
device(Run *r, char *why, size_t n)
{
	int smem;

	why[0] = 0;
	if (cuopen(why, n))
		return 0;
	cudevice(r->dev_name, sizeof r->dev_name, &r->cc, &r->drv, &smem);
	if (!runnable(r->s[0].ptx, r->cc, why, n)
	    || !runnable(r->s[1].ptx, r->cc, why, n))
		return 0;
	if (smem > 0 && r->l->shared > (unsigned)smem) {
		snprintf(why, n, "the launch asks for %u bytes of shared "
			 "memory, the device gives a block at most %d",
			 r->l->shared, smem);
		return 0;
	}
	return 1;
}

static int
run(Run *r)
{
	int m, j;

	setup(r);
	for (m = 0; m < 2; m++)
		load(r, &r->s[m]);
	for (m = 0; m < 2; m++) {
		prepare(r, 1);
		culaunch(&r->s[m].f, r->l, r->args, 0);
		for (j = 0; j < r->nout; j++)
			r->out[j].res[m] = fetch(r, &r->out[j]);
		r->clobbered[m] = clobbered(r);
	}
	timeboth(r);
	for (j = 0; j < r->nout; j++)
		inspect(r, &r->out[j]);
	if ((r->ref = r->l->ref)) {
		r->refrows = (size_t)r->o->refrows;
		r->limit = reflimit(r->l);
		for (j = 0; j < r->nout; j++)
			if (r->out[j].p == r->l->ro)
				break;
		/* launchparse made sure o is an out or inout buffer */
		refcompare(r->l, r->host, r->out[j].res, r->refrows, r->err);
	}
	if (r->o->quiet)
		;
	else if (r->o->json)
		json(r);
	else
		table(r);
	for (m = 0; m < 2; m++)
		cuunload(&r->s[m].f);
	for (j = 0; j < r->l->nparam; j++)
		if (r->l->param[j].kind == VPbuf)
			cufree(r->dev[j]);
	return passed(r) ? 0 : 1;
}

int
cmdverify(int argc, char **argv)
{
	Opt o;
	Vlaunch l;
	Run *r;
	char *text, why[512];
	size_t n;
	int m, rc;

	opts(&o, argc, argv);
	text = readfile(o.path[2], &n);
	launchparse(&l, o.path[2], text, n);
	if (o.check) {
		launchprint(stdout, &l);
		freeall();
		return 0;
	}
	r = alloc(sizeof *r);
	memset(r, 0, sizeof *r);
	r->o = &o;
	r->l = &l;
	for (m = 0; m < 2; m++) {
		r->s[m].path = o.path[m];
		r->s[m].ptx = readfile(o.path[m], &n);
	}
	if (!device(r, why, sizeof why)) {
		fprintf(stderr, "ptxpress verify: no CUDA device (%s); "
			"skipped\n", why);
		freeall();
		return VSkip;
	}
	rc = run(r);
	freeall();
	return rc;
}

/* For opt --time: runs LAUNCH from two PTX texts as `verify` does, with
 * nothing printed.  *ratio is NEW's median over ORIG's.  Returns 0 pass
 * (outputs bit-identical, fully written, stable, within the reference),
 * 1 fail, VSkip no device (why says so).  A bad launch file exits 2, as
 * verify does; opt reads it with launchread first. */
int
vpair(const char *lpath, const char *orig, const char *rew, int runs,
	int warmup, double *ratio, char *why, size_t nwhy)
{
	Opt o = {.runs = runs, .warmup = warmup, .seed = 1, .refrows = 64,
		.quiet = 1};
	Vlaunch l;
	Run *r;
	size_t n;
	char *text = readfile(lpath, &n);
	int rc;

	o.path[0] = "ORIG", o.path[1] = "NEW", o.path[2] = lpath;
	launchparse(&l, lpath, text, n);
	r = alloc(sizeof *r);
	memset(r, 0, sizeof *r);
	r->o = &o;
	r->l = &l;
	r->s[0].path = "ORIG", r->s[1].path = "NEW";
	r->s[0].ptx = strdupn(orig, strlen(orig));
	r->s[1].ptx = strdupn(rew, strlen(rew));
	if (!device(r, why, nwhy)) {
		freeall();
		return VSkip;
	}
	rc = run(r);
	*ratio = r->s[0].med > 0 ? r->s[1].med / r->s[0].med : 1;
	freeall();
	return rc;
}

/* The kernel a launch file names (opt --time checks the file up front:
 * a bad one exits 2 here, before any work).  The name is malloc'd. */
char *
launchkernel(const char *lpath)
{
	Vlaunch l;
	size_t n;
	char *text = readfile(lpath, &n), *k;

	launchparse(&l, lpath, text, n);
	k = malloc(strlen(l.kernel) + 1);
	if (k)
		strcpy(k, l.kernel);
	freeall();
	return k;
}

/* Whether a launch description reads clean, its errors printed but not
 * fatal: the drop-in must not stop a build over a bad one (it then
 * leaves the kernel untimed). */
int
launchok(const char *lpath)
{
	jmp_buf jb;
	Vlaunch l;
	size_t n;
	char *text;
	volatile int ok = 0;

	catcher = &jb;
	if (!setjmp(jb)) {
		text = readfile(lpath, &n);
		launchparse(&l, lpath, text, n);
		ok = 1;
	}
	catcher = 0;
	freeall();
	return ok;
}
