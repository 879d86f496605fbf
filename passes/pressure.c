/* pressure.c: the register pressure model and the caps it is held to.
 *
 * needs: fillcfg, filllive; breaks: nothing.  Pressure is what the
 * live sets weigh in 32-bit registers (Reg.units: b64 two, b16 one,
 * .v4.b32 four); predicates are counted on their own, since they live
 * in a separate file (P0-P6) until ptxas runs out of them.  At each
 * instruction it is the larger of what is live before it and what is
 * live across it with its results (LLVM's RegPressureTracker takes the
 * same max).  The floor is the most that is live across one
 * instruction that may not move (opklass neither Kpure nor Kcoll):
 * reordering the pure arithmetic around it cannot shrink that set.
 *
 * Caps: 255 per thread; .maxnreg; the block size of .maxntid/.reqntid
 * with .minnctapersm, since blocks x warps x 32 x regs must fit the
 * 65536 registers of an SM, allocated per warp in 256s (8 per thread);
 * then setmaxnreg.inc/.dec along the paths (per warp role).  ptxas
 * ignores setmaxnreg when it cannot tell the count at entry (C7508):
 * no .maxntid, .reqntid or .maxnreg. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Smregs = 65536, Maxcap = 255, Gran = 8 };

/* The registers per thread ptxas allocates for regs: whole units. */
int
allocgran(int regs)
{
	return (regs + Gran - 1) / Gran * Gran;
}

static long
threads(const char *args)
{
	int64_t v[3];
	long n = 1;
	int k = ptxints(args, v, 3);

	for (int i = 0; i < k; i++)
		n *= v[i] > 0 && v[i] <= 1 << 20 ? (long)v[i] : 1;
	return n;
}

static int
hasminb(Func *f)
{
	for (uint32_t i = 0; i < f->nperf; i++)
		if (!strcmp(f->perf[i].name, ".minnctapersm"))
			return 1;
	return 0;
}

/* The cap at entry; *known: whether ptxas knows the count there, so
 * that it honours setmaxnreg: 2 with .maxnreg, or a block size and
 * .minnctapersm (CUTLASS and nvFuser pin it so); 1 with a block size
 * alone (ptxas 13.0 honours it in some kernels and drops it, C7508,
 * in others); 0 with neither (always dropped). */
int
launchcap(Func *f, int *known)
{
	long nt = 0, minb = 1;
	int cap = Maxcap;

	*known = 0;
	for (uint32_t i = 0; i < f->nperf; i++) {
		Perf *p = &f->perf[i];
		int64_t v = 0;
		if (!strcmp(p->name, ".maxnreg")) {
			ptxints(p->args, &v, 1);
			if (v > 0 && v < cap)
				cap = (int)v;
			*known = 2;
		} else if (!strcmp(p->name, ".maxntid")
		|| !strcmp(p->name, ".reqntid")) {
			nt = threads(p->args);
		} else if (!strcmp(p->name, ".minnctapersm")) {
			v = 1;
			ptxints(p->args, &v, 1);
			minb = v > 0 && v <= 64 ? (long)v : 1;
		}
	}
	if (nt > 0 && *known < 2)
		*known = minb > 1 || hasminb(f) ? 2 : 1;
	if (nt > 0) {
		long warps = (nt + 31) / 32;
		long v = Smregs / (warps * minb * 32) / Gran * Gran;
		if (v < cap)
			cap = (int)(v < Gran ? Gran : v);
	}
	return cap;
}

/* Forward: the cap each block starts under, the smallest when paths
 * disagree (a merge after the roles: the tightest one must fit). */
static void
fillcaps(Func *f)
{
	Ana *A = f->ana;
	int ch = 1;

	A->launch = launchcap(f, &A->capknown);
	for (uint32_t b = 0; b < A->nblk; b++)
		A->blk[b].cap = 0;
	A->blk[0].cap = A->launch;
	while (ch) {
		ch = 0;
		for (uint32_t b = 0; b < A->nblk; b++) {
			Blk *B = &A->blk[b];
			int c = B->cap;
			if (!c)
				continue;
			for (uint32_t i = B->first; i < B->end; i++) {
				int v = setmaxcount(&f->stmt[i]);
				if (v > 0 && A->capknown)
					c = v > Maxcap ? Maxcap : v;
				A->cap[i] = (uint16_t)c;
			}
			for (uint32_t s = 0; s < B->nsucc; s++) {
				Blk *S = &A->blk[B->succ[s]];
				if (S->cap == c)
					continue;
				if (S->cap)
					S->capmix = 1;
				if (!S->cap || c < S->cap) {
					S->cap = c;
					ch = 1;
				}
			}
		}
	}
	for (uint32_t b = 0; b < A->nblk; b++)   /* unreachable */
		for (uint32_t i = A->blk[b].first; !A->blk[b].cap
		&& i < A->blk[b].end; i++)
			A->cap[i] = (uint16_t)A->launch;
}

static int
movable(const Stmt *s)
{
	Klass k = opklass(s);

	return k == Kpure || iscoll(k);
}

void
fillpressure(Func *f)
{
	Ana *A = f->ana;
	size_t n = f->nstmt + 1;
	Walk w;

	A->press = zalloc(A->a, n * sizeof *A->press);
	A->ppred = zalloc(A->a, n * sizeof *A->ppred);
	A->across = zalloc(A->a, n * sizeof *A->across);
	A->cap = zalloc(A->a, n * sizeof *A->cap);
	A->peak = A->ppeak = A->floor = 0;
	A->nsetmax = 0;
	for (uint32_t b = 0; b < A->nblk; b++) {
		walkbegin(&w, f, b);
		while (walkprev(&w)) {
			Stmt *s = &f->stmt[w.i];
			A->press[w.i] = (uint16_t)w.units;
			A->ppred[w.i] = (uint16_t)w.preds;
			A->nsetmax += s->op == Osetmaxnreg;
			if (!movable(s))
				A->across[w.i] = (uint16_t)w.across;
		}
		walkend(&w);
	}
	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (A->press[i] > A->peak || (A->press[i] == A->peak
		&& !A->peakat)) {
			A->peak = A->press[i];
			A->peakat = i;
		}
		if (A->across[i] > A->floor) {
			A->floor = A->across[i];
			A->floorat = i;
		}
		if (A->ppred[i] > A->ppeak)
			A->ppeak = A->ppred[i];
	}
	fillcaps(f);
}

/* The statements around at whose pressure stays within tol of it. */
static Region
grow(Func *f, uint32_t at, int tol, const uint8_t *taken)
{
	Ana *A = f->ana;
	Region r = {at, at, at, A->press[at], 0, A->cap[at]};
	int low = A->press[at] - tol;

	while (r.first > 0 && !taken[r.first - 1]
	&& (f->stmt[r.first - 1].kind != Sins
	|| A->press[r.first - 1] >= low))
		r.first--;
	while (r.last + 1 < f->nstmt && !taken[r.last + 1]
	&& (f->stmt[r.last + 1].kind != Sins
	|| A->press[r.last + 1] >= low))
		r.last++;
	while (r.first < at && f->stmt[r.first].kind != Sins)
		r.first++;
	while (r.last > at && f->stmt[r.last].kind != Sins)
		r.last--;
	for (uint32_t i = r.first; i <= r.last; i++) {
		if (A->across[i] > r.floor)
			r.floor = A->across[i];
		if (f->stmt[i].kind == Sins && A->cap[i] < r.cap)
			r.cap = A->cap[i];
	}
	return r;
}

static int
hotter(Func *f, uint32_t a, uint32_t b)
{
	Ana *A = f->ana;
	int ea = A->press[a] - A->cap[a], eb = A->press[b] - A->cap[b];

	/* LLVM's order: excess over the limit first, then the max */
	if (ea > 0 || eb > 0)
		return ea > eb;
	return A->press[a] > A->press[b];
}

/* The hottest max regions, hottest first: greedily take the hottest
 * statement not yet in a region and grow it while the pressure stays
 * within a tenth of its peak (at least 4 units). */
uint32_t
regions(Func *f, Region *out, uint32_t max)
{
	Ana *A = f->ana;
	uint8_t *taken = calloc(f->nstmt + 1, 1);
	uint32_t n = 0;

	if (!taken)
		die("out of memory");
	while (n < max) {
		int64_t best = -1;
		for (uint32_t i = 0; i < f->nstmt; i++)
			if (!taken[i] && f->stmt[i].kind == Sins
			&& (best < 0 || hotter(f, i, (uint32_t)best)))
				best = i;
		if (best < 0 || !A->press[best])
			break;
		int tol = A->press[best] / 10;
		out[n] = grow(f, (uint32_t)best, tol < 4 ? 4 : tol, taken);
		for (uint32_t i = out[n].first; i <= out[n].last; i++)
			taken[i] = 1;
		/* keep a margin, so the next region is a different place */
		for (uint32_t k = 1; k <= 8; k++) {
			if (out[n].first >= k)
				taken[out[n].first - k] = 1;
			if (out[n].last + k < f->nstmt)
				taken[out[n].last + k] = 1;
		}
		n++;
	}
	free(taken);
	return n;
}
