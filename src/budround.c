/* budround.c: the budget round.  Where a warp-specialized kernel
 * still spills after the search's other rounds, ptxas judges its
 * setmaxnreg counts, the kernel alone in a file of its own (a twenty-
 * sixth of CUTLASS 77's MLA forward file: ptxas takes a second, not
 * half a minute).
 *
 * The pressure model cannot say who needs registers: on that file's
 * kernel #22 it puts an auxiliary load warp at 19, and ptxas spills
 * there at 48; raising it to 64, the correction warps 96 -> 112 and
 * lowering the softmax warps 184 -> 176 took the kernel from 148 bytes
 * of spill to 0 (by hand, bench/RESULTS.md, thirty-ninth session).  So
 * each step asks ptxas: each count alone 8 up, where it could rise with
 * the others lowered to fit the CTA's pool at all (probes: as asked
 * they do not fit, and are never taken); where one spills less, each
 * other count alone 8 down; then a few vectors that raise the counts
 * whose probe spilled less and take what that costs from the counts
 * whose probe hurt least, each proven to fit (budgetneed, the
 * validator's own arithmetic, then budgetcheck).  The best becomes the
 * base of the next step while it spills less: one step for a refining
 * round of 2 or 3, two for 4 or 5, Bsteps from 6 (opt's default); none
 * below 2, where a search is kept short (CI's corpus checks: on CUTLASS
 * 77 at 2 tries, 23 spilling kernels, opt had run 14 minutes on one file
 * of a test allowed 25 when stopped).
 * From 4 the round starts from each kernel's runner-up too (the best
 * variant whose figures are not the pick's): counts that help one order
 * of the kernel need not help another.
 *
 * needs:  the search's picks (k[].best) and figures; vbudget.c's roles
 * breaks: nothing; what it adds is one variant per kernel it improved,
 *         its pick with budget=V1/V2/... after it, figures from the
 *         kernel's own file
 * paper:  none; the CTA's register pool is the PTX ISA's setmaxnreg. */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "opt.h"

enum { Bmax = 16, Bsteps = 3, Bcand = 5, Bdown = 16 };

typedef struct Bk {
	int ki;                 /* the kernel, in k[] */
	int pj;                 /* the variant it starts from, in v[] */
	Fig want;               /* and that variant's figures in the file */
	Module *m;              /* its pick alone in a file, parsed */
	char *text;             /* that file (m's spans point into it) */
	Func *f;
	Stmt *s[Bmax];          /* its setmaxnreg */
	int n;
	Roles R;
	int orig[Bmax];         /* the pick's counts, */
	int base[Bmax];         /* the best counts so far, */
	Fig fb;                 /* their figures */
	int moved;              /* base is not the pick's own */
	Var keep;               /* base's run, when moved */
	int live;
	int pairs;              /* no count alone 8 up helped: try pairs */
	long up[Bmax], down[Bmax];      /* the probes' spill, -1 none */
} Bk;

typedef struct Bv {             /* a vector to ask ptxas about */
	int b, w[Bmax];         /* for B[b] */
} Bv;

/* The kernel's pick alone in a file, parsed (fixed up for ptxas), its
 * setmaxnreg found and its roles followed; -1 where any of it fails. */
static int
isolate(Optreq *o, const char *src, size_t n, const Pipe *p, Str kname,
	int maj, int min, Bk *B)
{
	Diag d = {0};
	Buf b = {0}, why = {0};
	size_t tn;
	int changed;

	d.quiet = 1;
	Module *m = parse(o->in, src, n, &d);
	Scope sc = o->sc;
	sc.explain = 0;         /* said when the pick itself ran */
	runpipe(m, (Pipe *)p, &sc, kname);
	emitkernel(&b, m, kname);
	afree(m->a);
	char *t = ptxfixup(b.p ? b.p : "", b.n, maj, min, &tn, &changed);
	free(b.p);
	Diag d2 = {0};
	d2.quiet = 1;
	B->m = parse(o->in, t, tn, &d2);
	B->text = t;
	Func *f = 0;
	for (uint32_t i = 0; i < B->m->nitem; i++)
		if (B->m->item[i].kind == Ifunc && B->m->item[i].fn->body
		&& !strcmp(B->m->item[i].fn->name, kname))
			f = B->m->item[i].fn;
	B->n = f ? (int)budgetsites(f, B->s, B->base, Bmax) : 0;
	memcpy(B->orig, B->base, sizeof B->orig);
	for (int i = 0; i < B->n; i++)
		if (B->base[i] % 8 || B->base[i] < 24 || B->base[i] > 256)
			f = 0;
	B->f = f;
	int rc = !f || B->m->nerr || B->n < 2
		|| budgetroles(B->m, f, &B->R, &why)
		|| B->R.nsite != B->n || budgetneed(&B->R, B->base) > B->R.cap
		? -1 : 0;
	free(why.p);
	return rc;
}

/* Writes B's kernel with counts w for ptxas into path. */
static void
writecounts(Bk *B, const int *w, const char *path)
{
	Buf b = {0};

	for (int s = 0; s < B->n; s++)
		setcount(B->m->a, B->s[s], w[s]);
	emitlossless(&b, B->m);
	writetmp(path, b.p ? b.p : "", b.n);
	free(b.p);
}

/* ptxas on vectors bv[0..nb), into sv[0..nb) (each kernel's own name
 * is what its figures are read by). */
static void
ask(Optreq *o, Bk *B, Bv *bv, int nb, Var *sv, const char *dir,
	const char *ptxas, int *seq)
{
	for (int j = 0; j < nb; j++) {
		sv[j] = (Var){0};
		snprintf(sv[j].path, sizeof sv[j].path, "%s/b%d.ptx", dir,
			(*seq)++);
		writecounts(&B[bv[j].b], bv[j].w, sv[j].path);
	}
	Pool pool = {sv, nb, 0, ptxas, o->arch, o->args, o->nvdisasm, 0,
		PTHREAD_MUTEX_INITIALIZER};
	runall(&pool, o->jobs);
}

/* From B's base with up[0..nu) raised by by[], the counts lowered
 * where the down probes hurt least (hurt[]: their spill) until they fit
 * the pool: Bdown at most below base each.  0, or -1 where they cannot
 * fit. */
static int
fitted(Bk *B, const int *up, const int *by, int nu, const long *hurt,
	int *w)
{
	uint8_t fixed[Bmax] = {0};

	memcpy(w, B->base, sizeof B->base);
	for (int u = 0; u < nu; u++) {
		w[up[u]] += by[u];
		fixed[up[u]] = 1;
		if (w[up[u]] > 256)
			return -1;
	}
	while (budgetneed(&B->R, w) > B->R.cap) {
		int d = -1;
		for (int s = 0; s < B->n; s++)
			if (!fixed[s] && w[s] - 8 >= 24
			&& B->base[s] - (w[s] - 8) <= Bdown
			&& (d < 0 || hurt[s] < hurt[d]))
				d = s;
		if (d < 0)
			return -1;
		w[d] -= 8;
	}
	return 0;
}

/* The step's candidates for B from its probes (spill up[s], down[s]
 * with each count alone 8 up or down; -1 not asked): every count whose
 * probe spilled less raised by 8, the best alone by 8 and by 16, the
 * best two, the best three; each fitted.  Returns how many, into c. */
static int
candidates(Bk *B, const long *up, const long *down, Bv *c, int bi)
{
	int order[Bmax], nn = 0, n = 0;
	long hurt[Bmax];

	for (int s = 0; s < B->n; s++) {
		hurt[s] = down[s] < 0 ? 1L << 40 : down[s];
		if (up[s] >= 0 && up[s] < B->fb.spill) {
			int at = nn++;
			while (at > 0 && up[order[at - 1]] > up[s])
				order[at] = order[at - 1], at--;
			order[at] = s;
		}
	}
	static const int eight[Bmax] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
		8, 8, 8, 8}, sixteen[1] = {16};
	struct { const int *by; int nu; } want[Bcand] = {
		{eight, nn}, {eight, 1}, {sixteen, 1}, {eight, 2}, {eight, 3}};
	for (int q = 0; q < Bcand; q++) {
		if (want[q].nu > nn || !want[q].nu || (q >= 3 && want[q].nu
		== nn))
			continue;
		Bv *x = &c[n];
		x->b = bi;
		Buf why = {0};
		int bad = fitted(B, order, want[q].by, want[q].nu, hurt, x->w)
			|| budgetcheck(B->f, &B->R, x->w, B->orig, &why);
		free(why.p);
		if (bad)
			continue;
		int seen = !memcmp(x->w, B->base, sizeof x->w);
		for (int j = 0; j < n && !seen; j++)
			seen = !memcmp(c[j].w, x->w, sizeof x->w);
		n += !seen;
	}
	return n;
}

/* Whether site s of B can go 8 up with the others fitted to the pool. */
static int
raisable(Bk *B, int s)
{
	static const int eight[1] = {8};
	static const long none[Bmax];
	int w[Bmax];

	return !fitted(B, &s, eight, 1, none, w);
}

/* The probes of one step, each count alone d (8 or -8) off the base,
 * for every kernel still live: up where the count can rise with the
 * others fitted to the pool at all (a full pool's consumers cannot:
 * CUTLASS 88's), down where it did not help to rise.  Their spill into
 * B[].up or B[].down; returns how many ptxas ran. */
static int
probe(Optreq *o, Bk *B, int nb, Kern *k, int d, Bv *bv, Var *sv,
	const char *dir, const char *ptxas, int *seq)
{
	int q = 0;

	for (int b = 0; b < nb; b++)
		for (int s = 0; B[b].live && s < B[b].n; s++) {
			int x = B[b].base[s] + d;
			long *at = d > 0 ? &B[b].up[s] : &B[b].down[s];
			*at = -1;
			if (x < 24 || x > 256 || (d > 0 && !raisable(&B[b], s))
			|| (d < 0 && B[b].up[s] >= 0
			&& B[b].up[s] < B[b].fb.spill))
				continue;
			bv[q].b = b;
			memcpy(bv[q].w, B[b].base, sizeof bv[q].w);
			bv[q++].w[s] = x;
		}
	if (q)
		ask(o, B, bv, q, sv, dir, ptxas, seq);
	for (int j = 0; j < q; j++) {
		Bk *x = &B[bv[j].b];
		Fig g = figure(&sv[j], k[x->ki].name);
		int s = 0;
		while (s < x->n && bv[j].w[s] == x->base[s])
			s++;
		if (g.ok && s < x->n)
			*(d > 0 ? &x->up[s] : &x->down[s]) = g.spill;
		varfree(o->nvdisasm != 0, &sv[j]);
	}
	return q;
}

/* For each kernel with vectors among cv[0..nc) (asked, answers in sv):
 * the one that spills least, where less than its base, becomes its base
 * (the kernel stays live while it spills); a kernel none of whose
 * vectors helps is done. */
static void
takebest(Optreq *o, Bk *B, int nb, Kern *k, Bv *cv, Var *sv, int nc)
{
	for (int b = 0; b < nb; b++) {
		int bj = -1, had = 0;
		Fig bf = B[b].fb;
		for (int j = 0; j < nc; j++) {
			if (cv[j].b != b)
				continue;
			had = 1;
			Fig g = figure(&sv[j], k[B[b].ki].name);
			if (g.ok && g.spill < bf.spill
			&& better(g, bf, o->unserial))
				bj = j, bf = g;
		}
		if (!had)
			continue;
		if (bj < 0) {
			B[b].live = 0;
			continue;
		}
		if (B[b].moved)
			varfree(o->nvdisasm != 0, &B[b].keep);
		B[b].keep = sv[bj];
		sv[bj] = (Var){0};
		B[b].moved = 1;
		B[b].fb = bf;
		memcpy(B[b].base, cv[bj].w, sizeof B[b].base);
		B[b].live = bf.spill > 0;
	}
	for (int j = 0; j < nc; j++)
		if (sv[j].path[0])
			varfree(o->nvdisasm != 0, &sv[j]);
}

/* Pairs, one count 8 up and another 8 down, that fit the pool, for the
 * kernels where no count alone 8 up spilled less (B[].pairs): ptxas is
 * not monotone in them.  On CUTLASS 77's MLA forward #21, as this
 * session's remat leaves it (8 bytes at 96/24/184/48/48/48), no count
 * alone 8 up or down spills less, and 104/24/176/48/48/48 spills none
 * (bench/RESULTS.md, fortieth session).  Returns how many ptxas ran. */
static int
pairs(Optreq *o, Bk *B, int nb, Kern *k, const char *dir,
	const char *ptxas, int *seq)
{
	int most = 0, q = 0;

	for (int b = 0; b < nb; b++)
		most += B[b].pairs ? B[b].n * (B[b].n - 1) : 0;
	if (!most)
		return 0;
	Bv *cv = calloc((size_t)most, sizeof *cv);
	Var *sv = calloc((size_t)most, sizeof *sv);
	for (int b = 0; b < nb; b++)
		for (int i = 0; B[b].pairs && i < B[b].n; i++)
			for (int j = 0; j < B[b].n; j++) {
				Bv *x = &cv[q];         /* q < most: i != j */
				Buf why = {0};
				if (i == j)
					continue;
				memcpy(x->w, B[b].base, sizeof x->w);
				x->b = b;
				x->w[i] += 8;
				x->w[j] -= 8;
				if (x->w[i] > 256 || x->w[j] < 24)
					continue;
				int bad = budgetcheck(B[b].f, &B[b].R,
					x->w, B[b].orig, &why);
				free(why.p);
				q += !bad;
			}
	if (q) {
		ask(o, B, cv, q, sv, dir, ptxas, seq);
		takebest(o, B, nb, k, cv, sv, q);
	}
	for (int b = 0; b < nb; b++)
		B[b].pairs = 0;
	free(cv);
	free(sv);
	return q;
}

/* Where in x's ranking the round's second start is: the best variant
 * whose figures are not the pick's, 0 where none.  One with the pick's
 * figures is most often the pick's own text (the refining round's
 * softmax=4 and softmax=2 after the pick, where they change nothing),
 * whose round the pick's repeats. */
static int
runnerup(const Kern *x)
{
	Fig a = x->after;

	for (int r = 1; r < x->nrank; r++) {
		Fig g = x->rankf[r];
		if (x->rank[r] != x->best && (g.spill != a.spill
		|| g.stack != a.stack || g.regs != a.regs))
			return r;
	}
	return 0;
}

/* Appends to v[nv..] and var[nv..] (room at most) each kernel's
 * counts that ptxas answers with less spill than its pick; returns how
 * many. */
int
budgetround(Optreq *o, const char *src, size_t n, Kern *k, int nk,
	Var *var, Pipe *v, int nv, int room, const char *dir,
	const char *ptxas, int maj, int min, int rf)
{
	int steps = rf / 2 < Bsteps ? rf / 2 : Bsteps, from = rf >= 4 ? 2 : 1;

	if (steps < 1)
		return 0;
	Bk *B = calloc((size_t)(nk ? 2 * nk : 1), sizeof *B);
	int nb = 0, seq = 0, added = 0;

	/* from the pick and from the runner-up: on CUTLASS 77's MLA
	 * forward #16 the pick (pin=dup:1 on top, 32 bytes) keeps 16 at
	 * any count, while the runner-up without the pins (44) reaches 0
	 * with 112/24/176/48/48/48 (bench/RESULTS.md, thirty-ninth
	 * session) */
	for (int i = 0; i < nk; i++)
		for (int r = 0; r < from; r++) {
			int u = runnerup(&k[i]);
			int j = r == 0 ? k[i].best : u ? k[i].rank[u] : 0;
			Fig want = r == 0 ? k[i].after : k[i].rankf[u];
			if ((r && !j) || want.spill <= 0 || !want.ok)
				continue;
			B[nb].ki = i, B[nb].pj = j, B[nb].want = want;
			if (isolate(o, src, n, &v[j], k[i].name, maj, min,
			&B[nb])) {
				if (B[nb].m)
					afree(B[nb].m->a);
				free(B[nb].text);
				B[nb] = (Bk){0};
				continue;
			}
			B[nb].live = 1;
			nb++;
		}
	/* the picks alone first: a kernel whose figures alone are not its
	 * figures in the file is left as it is */
	Bv *bv = calloc((size_t)(nb ? nb : 1) * (2 * Bmax + Bcand), sizeof *bv);
	Var *sv = calloc((size_t)(nb ? nb : 1) * (2 * Bmax + Bcand), sizeof *sv);
	for (int b = 0; b < nb; b++) {
		bv[b].b = b;
		memcpy(bv[b].w, B[b].base, sizeof bv[b].w);
	}
	ask(o, B, bv, nb, sv, dir, ptxas, &seq);
	for (int b = 0; b < nb; b++) {
		Fig g = figure(&sv[b], k[B[b].ki].name), a = B[b].want;
		B[b].fb = g;
		B[b].live = g.ok && g.spill == a.spill && g.stack == a.stack
			&& g.regs == a.regs;
		varfree(o->nvdisasm != 0, &sv[b]);
	}
	for (int step = 0; step < steps; step++) {
		int q = probe(o, B, nb, k, 8, bv, sv, dir, ptxas, &seq);
		for (int b = 0; b < nb; b++) {
			int needy = 0;
			for (int s = 0; B[b].live && s < B[b].n; s++)
				needy |= B[b].up[s] >= 0
					&& B[b].up[s] < B[b].fb.spill;
			B[b].pairs = B[b].live && !needy;
			B[b].live = B[b].live && needy;
		}
		if (!q)
			break;
		q = probe(o, B, nb, k, -8, bv, sv, dir, ptxas, &seq);
		int nc = 0;
		for (int b = 0; b < nb; b++)
			if (B[b].live) {
				int c = candidates(&B[b], B[b].up, B[b].down,
					bv + nc, b);
				B[b].live = c > 0;
				nc += c;
			}
		if (nc) {
			ask(o, B, bv, nc, sv, dir, ptxas, &seq);
			takebest(o, B, nb, k, bv, sv, nc);
		}
		/* after the step's own vectors, whose probes were of the
		 * base these move */
		int np = pairs(o, B, nb, k, dir, ptxas, &seq);
		if (!nc && !np)
			break;
	}
	for (int b = 0; b < nb; b++) {
		char w[96];
		int at = 0;
		at += snprintf(w, sizeof w, "budget=");
		for (int s = 0; s < B[b].n && at < (int)sizeof w; s++)
			at += snprintf(w + at, sizeof w - at, "%s%d", s ? "/"
				: "", B[b].base[s]);
		if (B[b].moved && added < room && at < (int)sizeof w
		&& !withpass(o, &v[B[b].pj], w, &v[nv + added])) {
			var[nv + added] = B[b].keep;
			var[nv + added].pipe = v[nv + added];
			added++;
		} else if (B[b].moved)
			varfree(o->nvdisasm != 0, &B[b].keep);
		afree(B[b].m->a);
		free(B[b].text);
	}
	free(bv);
	free(sv);
	free(B);
	return added;
}
