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
 * or "invariant" when the loop does not write it at all; outside
 * loops, by its last writer before the peak.  On Triton's sm_120a
 * d128_n64 kernel that reads "128 carried HMMA, 64 HMMA, 42 LDSM, ...":
 * O, S and the fragments ptxas loads ahead, nothing the PTX order
 * holds (bench/RESULTS.md, thirty-seventh session). */
#define _GNU_SOURCE             /* memmem */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* One instruction of a function: its text (from the opcode, ending at
 * the ';'), address, live count and register columns. */
typedef struct Prow {
	const char *s, *e;
	long addr, live;
	const char *col;        /* GPR columns, ncol of them */
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

/* An instruction line: its address in a comment (hex), a guard
 * perhaps, "OP ... ; // | 196 :::^ ...", the GPR columns from offset
 * col0 of the line.
 * Returns 0 when the line is not one. */
static int
row(const char *p, const char *q, long col0, long ncol, Prow *r)
{
	const char *s = skipsp(p, q), *t, *bar;
	char *end;

	if (q - s < 4 || s[0] != '/' || s[1] != '*')
		return 0;
	r->addr = strtol(s + 2, &end, 16);
	if (end == s + 2 || q - end < 2 || end[0] != '*' || end[1] != '/')
		return 0;
	s = skipsp(end + 2, q);
	if (s < q && *s == '@')         /* a guard: @!P0, @UP1 */
		while (s < q && *s != ' ' && *s != '\t')
			s++;
	s = skipsp(s, q);
	if (s >= q || !isupper((unsigned char)*s))
		return 0;
	if (!(bar = memmem(s, (size_t)(q - s), "// |", 4)))
		return 0;
	for (t = bar; t > s && t[-1] != ';'; t--)
		;
	r->s = s;
	r->e = t > s ? t - 1 : bar;
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

/* What register k live at row p holds, in [lo, hi] (the loop; the
 * whole function when there is none). */
static void
whatof(const Prow *rw, long p, long lo, long hi, int inloop, long k,
	char *buf, size_t cap)
{
	char op[24];

	for (long i = p; i >= lo; i--)
		if (writes(&rw[i], k)) {
			opname(&rw[i], buf, cap);
			return;
		}
	for (long i = hi; inloop && i > p; i--)
		if (writes(&rw[i], k)) {
			opname(&rw[i], op, sizeof op);
			snprintf(buf, cap, "carried %s", op);
			return;
		}
	snprintf(buf, cap, "%s", inloop ? "invariant" : "entry");
}

static void
hold(Sasspeak *pk, const char *what)
{
	int i;

	for (i = 0; i < pk->nheld; i++)
		if (!strcmp(pk->held[i].what, what))
			break;
	if (i == pk->nheld) {
		if (pk->nheld == Maxheld)
			i = Maxheld - 1, what = "other";
		else
			pk->nheld++;
		snprintf(pk->held[i].what, sizeof pk->held[i].what, "%s",
			what);
	}
	pk->held[i].n++;
}

static int
bycount(const void *a, const void *b)
{
	const struct Held *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->what, y->what);
}

/* The peak of one function's rows. */
static Sasspeak *
peakof(const Prow *rw, long n, const Sline *lab, long nlab, long ncol)
{
	long p = 0, lo = 0, hi = n - 1;
	int inloop = 0;
	Sasspeak *pk;

	for (long i = 1; i < n; i++)
		if (rw[i].live > rw[p].live)
			p = i;
	for (long i = p; i < n; i++) {  /* the smallest loop around p */
		Sline b = {rw[i].s, rw[i].e, 0};
		long j = sasstarget(&b, lab, nlab);
		if (j >= 0 && j <= p && (!inloop || i - j < hi - lo))
			lo = j, hi = i, inloop = 1;
	}
	if (!(pk = calloc(1, sizeof *pk)))
		return 0;
	pk->live = (int)rw[p].live;
	pk->addr = rw[p].addr;
	pk->lo = inloop ? rw[lo].addr : -1;
	pk->hi = inloop ? rw[hi].addr : -1;
	snprintf(pk->ins, sizeof pk->ins, "%.*s", (int)(rw[p].e - rw[p].s),
		rw[p].s);
	if (!inloop)
		lo = 0, hi = n - 1;
	for (long k = 0; k < ncol; k++) {
		char what[32];
		if (rw[p].col[k] == ' ')
			continue;
		whatof(rw, p, lo, hi, inloop, k, what, sizeof what);
		hold(pk, what);
	}
	qsort(pk->held, (size_t)pk->nheld, sizeof pk->held[0], bycount);
	return pk;
}

/* One function's lines [s, e) of nvdisasm -plr's text into f->peak
 * (sasseach() in ptxas.c finds them). */
void
sasspeak(Pxfn *f, const char *s, const char *e)
{
	long nline = 1, n = 0, nlab = 0, ncol = 0, col0 = header(s, e, &ncol);
	Prow *rw;
	Sline *lab;

	if (col0 <= 0 || ncol <= 0)
		return;
	for (const char *p = s; p < e; p++)
		nline += *p == '\n';
	rw = malloc((size_t)nline * sizeof *rw);
	lab = malloc((size_t)nline * sizeof *lab);
	for (const char *p = s, *q; rw && lab && p < e; p = q + 1) {
		if (!(q = memchr(p, '\n', (size_t)(e - p))))
			q = e;
		if (row(p, q, col0, ncol, &rw[n]))
			n++;
		else if (label(p, q, &lab[nlab]))
			lab[nlab++].at = n;
	}
	if (n > 0) {
		free(f->peak);
		f->peak = peakof(rw, n, lab, nlab, ncol);
	}
	free(rw);
	free(lab);
}
