/* sasspeak.c: what ptxas holds at its peak.
 *
 * The pressure model estimates a peak in the PTX; ptxas allocates its
 * own, after its own scheduling, rematerialization and hoisting.  When
 * a rewrite does not move ptxas's spill figures, the question is what
 * ptxas keeps live where it runs out.  `nvdisasm -c -plr -lrm narrow`
 * answers it: after each instruction, the number of general registers
 * live there and a column per register (' ' dead, ':' live, '^'
 * written, 'v' read, 'x' both), then the same for predicates and
 * uniform registers, each section closed by '|'.
 *
 * The instruction with the most live general registers (the first of
 * them) is the peak.  Each register live there is named by what last
 * wrote it before the peak inside the innermost loop around it
 * ("LDSM"), by what writes it later in that loop when nothing before
 * the peak does (its value comes round the back edge: "carried HMMA"),
 * or as "invariant" and what wrote it before the loop; outside
 * loops, by its last writer before the peak.  Each spill store (an
 * STL nvdisasm marks "SpillRefill") is named the same way by what wrote
 * the registers it saves, through copies (MOV, IMAD.MOV).  On Triton's
 * sm_120a d128_n64 kernel that reads "128 carried HMMA, 64 HMMA, 42
 * LDSM, ...": O, S and the fragments ptxas loads ahead, nothing the
 * PTX order holds; its spill stores save "4 FMNMX, 4 MOV": the row
 * maxima, and their -inf before the loop (bench/RESULTS.md,
 * thirty-seventh session). */
#define _GNU_SOURCE             /* memmem */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* One instruction of a function: its text (from the opcode, ending at
 * the ';'), address, live count and register columns. */
/* A loop: a branch back at row hi to the label before row lo. */
typedef struct Ploop { long lo, hi; } Ploop;

typedef struct Prow {
	const char *s, *e;
	long addr, live;
	const char *col;        /* GPR columns, ncol of them */
	int spill;              /* nvdisasm marked it "SpillRefill" */
} Prow;

static const char *
skipsp(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* The first GPR column of a function's header, "// |   # 0123...",
 * and how many registers it shows; 0 when [s, e) holds no header. */
static long
header(const char *s, const char *e, long *ncol)
{
	for (const char *p = s; p < e; ) {
		const char *q = memchr(p, '\n', (size_t)(e - p)), *h;
		if (!q)
			q = e;
		h = memmem(p, (size_t)(q - p), "// |", 4);
		if (h) {
			const char *t = skipsp(h + 4, q);
			if (q - t > 3 && t[0] == '#' && t[1] == ' '
			&& t[2] == '0') {
				const char *c = t + 2, *b = c;
				while (b < q && *b != '|')
					b++;
				while (b > c && b[-1] == ' ')
					b--;
				*ncol = b - c;
				return (c - p);
			}
		}
		p = q + 1;
	}
	return 0;
}

/* An instruction line (ptxas.c's sassop finds its opcode past the
 * address and the guard), "OP ... ; // | 196 :::^ ...", the GPR
 * columns from offset col0 of the line.  Returns 0 when the line is
 * not one. */
static int
row(const char *p, const char *q, long col0, long ncol, Prow *r)
{
	const char *s = sassop(p, q), *t, *bar;
	char *end;

	if (!s)
		return 0;
	r->addr = strtol(skipsp(p, q) + 2, 0, 16);      /* past the slash-star */
	if (!(bar = memmem(s, (size_t)(q - s), "// |", 4)))
		return 0;
	for (t = bar; t > s && t[-1] != ';'; t--)
		;
	r->s = s;
	r->e = t > s ? t - 1 : bar;
	r->spill = r->e > s && memmem(s, (size_t)(r->e - s), "SpillRefill",
		11);
	for (int pass = 0; pass < 2; pass++) {
		while (r->e > s && (r->e[-1] == ' ' || r->e[-1] == '\t'))
			r->e--;
		/* an annotation: LDL R4, [R1+0x8]  (*"SpillRefill"*) */
		if (pass == 0 && r->e - s > 4 && r->e[-1] == ')'
		&& r->e[-2] == '*')
			for (const char *a = r->e - 2; a > s; a--)
				if (a[-1] == '(' && a[0] == '*') {
					r->e = a - 1;
					break;
				}
	}
	t = skipsp(bar + 4, q);
	r->live = strtol(t, &end, 10);
	if (end == t || q - p < col0 + ncol)
		return 0;
	r->col = p + col0;
	return 1;
}

/* A label line, ".L_x_4:", perhaps followed by the columns. */
static int
label(const char *p, const char *q, Sline *l)
{
	const char *c;

	if (p >= q || *p != '.' || !(c = memchr(p, ':', (size_t)(q - p))))
		return 0;
	l->s = p;
	l->e = c;
	return 1;
}

static int
writes(const Prow *r, long k)
{
	return r->col[k] == '^' || r->col[k] == 'x';
}

/* The opcode of row r without its modifiers: "HMMA". */
static void
opname(const Prow *r, char *buf, size_t cap)
{
	size_t n = 0;

	while (r->s + n < r->e && n + 1 < cap && (isalnum((unsigned char)
	r->s[n]) || r->s[n] == '_'))
		n++;
	memcpy(buf, r->s, n);
	buf[n] = 0;
}

/* The row that last wrote register k before row p (p itself
 * included) in [lo, hi], or, in a loop, the last that writes it after p
 * (*carried: its value comes round the back edge); -1 for none. */
static long
writer(const Prow *rw, long p, long lo, long hi, int inloop, long k,
	int *carried)
{
	*carried = 0;
	for (long i = p; i >= lo; i--)
		if (writes(&rw[i], k))
			return i;
	for (long i = hi; inloop && i > p; i--)
		if (writes(&rw[i], k))
			return *carried = 1, i;
	return -1;
}

/* What register k live at row p holds, in [lo, hi] (the loop; the
 * whole function when there is none). */
static void
whatof(const Prow *rw, long p, long lo, long hi, int inloop, long k,
	char *buf, size_t cap)
{
	char op[20];            /* opcodes are short; what[32] holds both */
	int carried;
	long w = writer(rw, p, lo, hi, inloop, k, &carried);

	if (w < 0 && inloop)    /* written before the loop, if at all */
		for (long i = lo - 1; i >= 0 && w < 0; i--)
			if (writes(&rw[i], k))
				w = i;
	if (w < 0) {
		snprintf(buf, cap, "%s", inloop ? "invariant" : "entry");
		return;
	}
	if (w < lo) {
		opname(&rw[w], op, sizeof op);
		snprintf(buf, cap, "invariant %s", op);
		return;
	}
	opname(&rw[w], op, sizeof op);
	snprintf(buf, cap, "%s%s", carried ? "carried " : "", op);
}

/* Register operand n (0 the first) of row r, or -1 (RZ, not a
 * register, no such operand). */
static long
operand(const Prow *r, int n)
{
	const char *p = r->s;

	while (p < r->e && *p != ' ')   /* past the opcode */
		p++;
	for (int i = 0; i < n && p < r->e; p++)
		i += *p == ',';
	while (p < r->e && (*p == ' ' || *p == '-' || *p == '|'))
		p++;
	if (r->e - p < 2 || p[0] != 'R' || !isdigit((unsigned char)p[1]))
		return -1;
	return strtol(p + 1, 0, 10);
}

/* The register a copy at row r reads: MOV Rd, Rs and ptxas's
 * IMAD.MOV Rd, RZ, RZ, Rs; -1 when r is not one. */
static long
copyof(const Prow *r)
{
	char op[24];

	opname(r, op, sizeof op);
	if (!strcmp(op, "MOV") && !memchr(r->s, '.', 4))
		return operand(r, 1);
	if (!strncmp(r->s, "IMAD.MOV", 8))
		return operand(r, 3);
	return -1;
}

/* What a spill store at row p saves of register k: what last wrote it,
 * through copies. */
static void
spilled(const Prow *rw, long p, long lo, long hi, int inloop, long k,
	long ncol, char *buf, size_t cap)
{
	for (int step = 0; step < 8; step++) {
		int carried;
		long w = writer(rw, p - 1, lo, hi, inloop, k, &carried), c;
		if (w < 0 || carried || (c = copyof(&rw[w])) < 0 || c >= ncol)
			break;
		k = c, p = w;
	}
	whatof(rw, p - 1, lo, hi, inloop, k, buf, cap);
}

static void
hold(struct Held *h, int *nh, const char *what)
{
	int i;

	for (i = 0; i < *nh; i++)
		if (!strcmp(h[i].what, what))
			break;
	if (i == *nh) {
		if (*nh == Maxheld)
			i = Maxheld - 1, what = "other";
		else
			(*nh)++;
		snprintf(h[i].what, sizeof h[i].what, "%s", what);
	}
	h[i].n++;
}

static int
bycount(const void *a, const void *b)
{
	const struct Held *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->what, y->what);
}

/* The smallest loop around row p, into [*lo, *hi]; 0 when p is in
 * none (then [0, n - 1]). */
static int
loopof(const Ploop *lp, long nlp, long n, long p, long *lo, long *hi)
{
	int inloop = 0;

	*lo = 0, *hi = n - 1;
	for (long i = 0; i < nlp; i++)
		if (lp[i].lo <= p && p <= lp[i].hi
		&& (!inloop || lp[i].hi - lp[i].lo < *hi - *lo))
			*lo = lp[i].lo, *hi = lp[i].hi, inloop = 1;
	return inloop;
}

/* The registers a local store at row r saves: its last operand, one
 * register a 32-bit word (STL.64: two); *k the first, 0 for none. */
static int
stored(const Prow *r, long *k)
{
	const char *c = r->e;
	int n = 1;

	while (c > r->s && c[-1] != ',')
		c--;
	while (c < r->e && *c == ' ')
		c++;
	if (c == r->s || r->e - c < 2 || c[0] != 'R'
	|| !isdigit((unsigned char)c[1]))
		return 0;       /* RZ: nothing of a register's */
	*k = strtol(c + 1, 0, 10);
	if (!strncmp(r->s, "STL.64", 6))
		n = 2;
	else if (!strncmp(r->s, "STL.128", 7))
		n = 4;
	return n;
}

/* What ptxas's spill stores save, by what wrote it (through copies):
 * the stores nvdisasm marks "SpillRefill", or every STL where it marks
 * none (an older nvdisasm; then a local array's stores count too). */
static void
spills(Sasspeak *pk, const Prow *rw, long n, const Ploop *lp, long nlp,
	long ncol)
{
	int marked = 0;

	for (long i = 0; i < n; i++)
		marked |= rw[i].spill;
	for (long i = 0; i < n; i++) {
		long lo, hi, k;
		int w;
		if (strncmp(rw[i].s, "STL", 3) || (marked && !rw[i].spill)
		|| !(w = stored(&rw[i], &k)))
			continue;
		int inloop = loopof(lp, nlp, n, i, &lo, &hi);
		for (int j = 0; j < w && k + j < ncol; j++) {
			char what[32];
			spilled(rw, i, lo, hi, inloop, k + j, ncol, what,
				sizeof what);
			hold(pk->spilled, &pk->nspilled, what);
		}
	}
	qsort(pk->spilled, (size_t)pk->nspilled, sizeof pk->spilled[0],
		bycount);
}

/* The peak among rows [from, to], its registers named by the
 * innermost loop around it. */
static Sasspeak *
peakin(const Prow *rw, long n, const Ploop *lp, long nlp, long ncol,
	long from, long to)
{
	long p = from, lo, hi;
	Sasspeak *pk;

	for (long i = from + 1; i <= to; i++)
		if (rw[i].live > rw[p].live)
			p = i;
	int inloop = loopof(lp, nlp, n, p, &lo, &hi);
	if (!(pk = calloc(1, sizeof *pk)))
		return 0;
	pk->live = (int)rw[p].live;
	pk->addr = rw[p].addr;
	pk->lo = inloop ? rw[lo].addr : -1;
	pk->hi = inloop ? rw[hi].addr : -1;
	snprintf(pk->ins, sizeof pk->ins, "%.*s", (int)(rw[p].e - rw[p].s),
		rw[p].s);
	for (long k = 0; k < ncol; k++) {
		char what[32];
		if (rw[p].col[k] == ' ')
			continue;
		whatof(rw, p, lo, hi, inloop, k, what, sizeof what);
		hold(pk->held, &pk->nheld, what);
	}
	qsort(pk->held, (size_t)pk->nheld, sizeof pk->held[0], bycount);
	return pk;
}

/* The smallest loop that holds the most spill instructions (marked
 * STL and LDL; a spill in an inner loop counts for the loops around it
 * too), into [*lo, *hi]; 0 when no loop holds one.  In a kernel whose
 * warp roles run under setmaxnreg budgets of their own, the function's
 * peak is often in a role with room, and the spills in another's. */
static int
spilloop(const Prow *rw, const Ploop *lp, long nlp, long *lo, long *hi)
{
	long best = 0;

	*lo = *hi = 0;
	for (long i = 0; i < nlp; i++) {
		long c = 0, w = lp[i].hi - lp[i].lo;
		for (long k = lp[i].lo; k <= lp[i].hi; k++)
			c += rw[k].spill;
		if (c > best || (c == best && c && w < *hi - *lo))
			best = c, *lo = lp[i].lo, *hi = lp[i].hi;
	}
	return best > 0;
}

/* The peak of one function's rows, what its spills save and, when they
 * are in a loop the peak is not in, that loop's peak. */
static Sasspeak *
peakof(const Prow *rw, long n, const Ploop *lp, long nlp, long ncol)
{
	Sasspeak *pk = peakin(rw, n, lp, nlp, ncol, 0, n - 1);
	long lo, hi;

	if (!pk)
		return 0;
	spills(pk, rw, n, lp, nlp, ncol);
	if (spilloop(rw, lp, nlp, &lo, &hi)
	&& (pk->addr < rw[lo].addr || pk->addr > rw[hi].addr))
		pk->near = peakin(rw, n, lp, nlp, ncol, lo, hi);
	return pk;
}

void
peakfree(Sasspeak *pk)
{
	if (pk)
		free(pk->near);
	free(pk);
}

/* One function's lines [s, e) of nvdisasm -plr's text into f->peak
 * (sasseach() in ptxas.c finds them). */
void
sasspeak(Pxfn *f, const char *s, const char *e)
{
	long nline = 1, n = 0, nlab = 0, nlp = 0, ncol = 0;
	long col0 = header(s, e, &ncol);
	Prow *rw;
	Sline *lab;
	Ploop *lp;

	if (col0 <= 0 || ncol <= 0)
		return;
	for (const char *p = s; p < e; p++)
		nline += *p == '\n';
	rw = malloc((size_t)nline * sizeof *rw);
	lab = malloc((size_t)nline * sizeof *lab);
	lp = malloc((size_t)nline * sizeof *lp);
	for (const char *p = s, *q; rw && lab && lp && p < e; p = q + 1) {
		if (!(q = memchr(p, '\n', (size_t)(e - p))))
			q = e;
		if (row(p, q, col0, ncol, &rw[n]))
			n++;
		else if (label(p, q, &lab[nlab]))
			lab[nlab++].at = n;
	}
	for (long i = 0; lp && i < n; i++) {    /* the branches back */
		Sline b = {rw[i].s, rw[i].e, 0};
		long j = sasstarget(&b, lab, nlab);
		if (j >= 0 && j <= i)
			lp[nlp++] = (Ploop){j, i};
	}
	if (n > 0 && lp) {
		peakfree(f->peak);
		f->peak = peakof(rw, n, lp, nlp, ncol);
	}
	free(rw);
	free(lab);
	free(lp);
}
