/* tfar.c: tsink=far, a tcgen05.ld moved down past barriers.
 *
 * needs:  resolved registers (regs.c)
 * breaks: nothing the parser built; it only permutes statements
 * paper:  none; what Triton's Blackwell softmax shows in its first
 *         (peeled) iteration.
 *
 * Triton loads O from tensor memory (to scale it by the new max) before
 * it stores P there; in the loop a wait loop stands between, but in the
 * peeled first iteration nothing does, and ptxas issues that load among
 * P's exp2, so 64 or 128 fp32 P values, their packed halves and O are
 * live together.  Moving the load, its wait and the arithmetic on what
 * it loaded down past P's store (and the cp.async.wait_group and
 * bar.sync before it) lets P die first: on the held-out d64_n128 kernel
 * ptxas then spills nothing (bench/RESULTS.md, eleventh session).
 *
 * The group goes down past arithmetic, plain loads and stores,
 * cp.async.wait_*, CTA barriers and, once past the first of those,
 * tcgen05.ld, tcgen05.wait and tcgen05.st to other columns (the same
 * address plus constants, .32x32b), none of them touching its
 * registers or another tcgen05.ld's, up to the first statement that
 * does not pass; only when it crosses a fixed
 * statement or a barrier (else tsink's rules apply), in a kernel of at
 * most 4 warps with no cta_group::2, and when from there to the next
 * barrier the code is straight and issues no tcgen05.mma, cp or shift,
 * and where every thread meets the barriers at the same statements.
 * The validator proves all of it apart (src/vsink.c). */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Maxg = 1024, Maxadd = 8 };

static int
ctabar(const Stmt *s)
{
	return s->kind == Sins && (s->op == Obar || s->op == Obarrier)
		&& !s->guard && s->nop == 1 && hasmod(s, ".sync");
}

static int
kernelok(const Func *f)
{
	long t = ctathreads(f);

	if (!f->entry || t < 1 || t > 128)
		return 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		const Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		if (s->op == Ocall || s->op == Obrx_idx
		|| ((s->op == Obar || s->op == Obarrier) && !ctabar(s)))
			return 0;
		for (uint32_t k = 0; k < s->nmod; k++)
			if (strstr(s->mod[k], "cta_group::2"))
				return 0;
	}
	return 1;
}

/* ---- do all threads meet the barriers at the same statements? ----
 * (The validator asks the same apart, src/vsink.c.)  A register is
 * "varying" when threads may hold different values in it: written
 * from %tid and the like, by a load other than ld.param, a collective,
 * anything not plain arithmetic, or in a block only some threads run;
 * a block only some threads run is one that a branch on a varying
 * predicate reaches before the blocks that post-dominate the branch.
 * Each grows the other; then no barrier may sit in such a block. */

static int
samespecial(Str s)
{
	return !strncmp(s, "%ctaid", 6) || !strncmp(s, "%nctaid", 7)
		|| !strncmp(s, "%ntid", 5) || !strncmp(s, "%nclusterid", 11)
		|| !strncmp(s, "%clusterid", 10)
		|| !strncmp(s, "%cluster_ctaid", 14)
		|| !strncmp(s, "%cluster_nctaid", 15);
}

static int
varies(const Opnd *o, const uint8_t *var)
{
	if (o->kind == Preg)
		return o->reg >= 0 ? var[o->reg] : !samespecial(o->s);
	for (uint32_t k = 0; k < o->nsub; k++)
		if (varies(&o->sub[k], var))
			return 1;
	return 0;
}

/* A bra back to the top of its own block, which only waits on an
 * mbarrier: threads differ in how long they spin, not where they go. */
static int
spinloop(const Func *f, const Blk *b, uint32_t self)
{
	if (b->nsucc > 2 || (b->succ[0] != self && (b->nsucc < 2
	|| b->succ[1] != self)))
		return 0;
	for (uint32_t j = b->first; j < b->end; j++) {
		const Stmt *s = &f->stmt[j];
		if (s->kind == Sins && s->op != Obra
		&& s->op != Ombarrier_try_wait && s->op != Ombarrier_test_wait)
			return 0;
	}
	return 1;
}

/* Post-dominators of A's blocks: w words a block, bit y of block b set
 * when every path from b to an end passes y. */
static uint64_t *
postdoms(const Ana *A, uint32_t w)
{
	uint32_t nb = A->nblk;
	uint64_t *pd = xmalloc(((size_t)nb * w + 1) * sizeof *pd);
	int grew = 1;

	for (uint32_t b = 0; b < nb; b++) {
		memset(pd + (size_t)b * w, A->blk[b].nsucc ? 0xff : 0,
			w * sizeof *pd);
		pd[(size_t)b * w + b / 64] |= 1ull << (b % 64);
	}
	while (grew) {
		grew = 0;
		for (uint32_t b = nb; b-- > 0;)
			for (uint32_t q = 0; q < w && A->blk[b].nsucc; q++) {
				uint64_t y = ~0ull;
				for (uint32_t k = 0; k < A->blk[b].nsucc; k++)
					y &= pd[(size_t)A->blk[b].succ[k] * w + q];
				y |= q == b / 64 ? 1ull << (b % 64) : 0;
				grew |= y != pd[(size_t)b * w + q];
				pd[(size_t)b * w + q] = y;
			}
	}
	return pd;
}

/* Whether a path ends from every block: from one that no path leaves
 * the post-dominators say nothing, so nothing is known.  mark and st
 * are scratch (mark left zero). */
static int
allend(const Ana *A, uint8_t *mark, uint32_t *st)
{
	uint32_t n0 = 0;
	int ok = 1;

	for (uint32_t b = 0; b < A->nblk; b++)
		if (!A->blk[b].nsucc)
			mark[b] = 1, st[n0++] = b;
	while (n0) {
		const Blk *B = &A->blk[st[--n0]];
		for (uint32_t k = 0; k < B->npred; k++)
			if (!mark[B->pred[k]])
				mark[B->pred[k]] = 1, st[n0++] = B->pred[k];
	}
	for (uint32_t b = 0; b < A->nblk; b++)
		ok &= mark[b], mark[b] = 0;
	return ok;
}

/* Registers that may differ between threads (var): written by what is
 * not pure, from what varies, under a guard that varies, or in a block
 * some threads skip (odd).  Returns whether var grew. */
static int
varying(Func *f, const Ana *A, uint8_t *var, const uint8_t *odd, Rv *d,
	Rv *u)
{
	int grew = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		int bad = odd[A->blkof[i]] || (s->guard
			&& varies(s->guard, var))
			|| (opklass(s) != Kpure && !(s->op == Old
			&& hasmod(s, ".param")));
		for (uint32_t k = 1; k < s->nop && !bad; k++)
			bad = varies(&s->opd[k], var);
		d->n = u->n = 0;
		defuse(s, d, u);
		for (uint32_t k = 0; k < d->n && bad; k++)
			if (!var[d->v[k]])
				var[d->v[k]] = 1, grew = 1;
	}
	return grew;
}

/* Blocks some threads skip (odd): those a branch whose guard varies
 * reaches before its post-dominators.  Returns whether odd grew; *ok
 * goes 0 at a ret or exit that some threads take. */
static int
skipped(Func *f, const Ana *A, const uint64_t *pd, uint32_t w,
	const uint8_t *var, uint8_t *odd, uint8_t *seen, uint32_t *st, int *ok)
{
	uint32_t nb = A->nblk;
	int grew = 0;

	for (uint32_t b = 0; b < nb; b++) {
		const Blk *B = &A->blk[b];
		const Stmt *t = B->end ? &f->stmt[B->end - 1] : 0;
		uint32_t n = 0;
		if (!t || t->kind != Sins || opklass((Stmt *)t) != Kctl
		|| !t->guard || !varies(t->guard, var)
		|| (t->op == Obra && spinloop(f, B, b)))
			continue;
		if (t->op != Obra) {    /* a ret or exit some take */
			*ok = 0;
			break;
		}
		/* each block once for this branch: another's region may end
		 * where this one goes on */
		memset(seen, 0, nb + 1);
		for (uint32_t c = b;;) {
			for (uint32_t k = 0; k < A->blk[c].nsucc; k++) {
				uint32_t y = A->blk[c].succ[k];
				if (!seen[y] && (y == b
				|| !(pd[(size_t)b * w + y / 64] >> (y % 64) & 1)))
					seen[y] = 1, st[n++] = y;
			}
			if (!n)
				break;
			c = st[--n];
			grew |= !odd[c];
			odd[c] = 1;
		}
	}
	return grew;
}

/* Whether every thread of the CTA meets the barriers at the same
 * statements: no barrier in a block some threads skip, no ret or exit
 * some threads take. */
static int
alike(Func *f, Module *m)
{
	fillcfg(f, m);
	Ana *A = f->ana;
	uint32_t nb = A->nblk, w = (nb + 63) / 64, *st = xmalloc((nb + 1)
		* sizeof *st);
	uint64_t *pd = postdoms(A, w);
	uint8_t *var = calloc(f->nreg + 1, 1), *odd = calloc(nb + 1, 1);
	uint8_t *seen = calloc(nb + 1, 1);
	Rv d = {0}, u = {0};
	int ok = allend(A, odd, st);

	for (int grew = 1; grew && ok;) {
		grew = varying(f, A, var, odd, &d, &u);
		grew |= skipped(f, A, pd, w, var, odd, seen, st, &ok);
	}
	for (uint32_t i = 0; i < f->nstmt && ok; i++)
		ok = !(ctabar(&f->stmt[i]) && odd[A->blkof[i]]);
	freeana(f);     /* the pass reorders: nothing of it may stay */
	free(d.v);
	free(u.v);
	free(st);
	free(pd);
	free(var);
	free(odd);
	free(seen);
	return ok;
}

/* ---- an address: values added, and a constant ----
 * A value is a hash: of its opcode and operands' values when a plain
 * unguarded instruction of one result wrote it in the stretch, of the
 * register and that writer otherwise, of the register alone when
 * nothing in the stretch wrote it.  (Remat copies Triton's address
 * math right before each use, so the same value has several writers.)
 * A collision only makes the validator refuse the rewrite. */

typedef struct Sum { uint64_t v[Maxadd]; uint32_t n; int64_t c; } Sum;

static uint64_t
mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdu;
}

static int sumreg(const Func *, uint32_t lo, uint32_t at, int32_t r, Sum *,
	int depth);
static uint64_t valueof(const Func *, uint32_t lo, uint32_t at,
	const Opnd *, int depth);

static int
sumop(const Func *f, uint32_t lo, uint32_t at, const Opnd *o, Sum *s,
	int depth)
{
	int64_t x;

	if (o->kind == Pint && !o->nsub) {
		if (!ptxint(o->s, &x))
			return 0;
		s->c += o->minus ? -x : x;
		return 1;
	}
	return o->kind == Preg && o->reg >= 0 && !hascomp(o)
		&& sumreg(f, lo, at, o->reg, s, depth);
}

static int64_t
writer(const Func *f, uint32_t lo, uint32_t at, int32_t r)
{
	Rv d = {0}, u = {0};
	int64_t w = -1;

	for (uint32_t j = at; j-- > lo && w < 0;) {
		const Stmt *t = &f->stmt[j];
		if (t->kind != Sins)
			continue;
		d.n = u.n = 0;
		defuse((Stmt *)t, &d, &u);
		for (uint32_t k = 0; k < d.n; k++)
			if (d.v[k] == r)
				w = j;
	}
	free(d.v);
	free(u.v);
	return w;
}

static uint64_t
valueof(const Func *f, uint32_t lo, uint32_t at, const Opnd *o, int depth)
{
	Sum s = {{0}, 0, 0};
	uint64_t h = 0x51;

	if (o->kind != Preg || o->reg < 0 || hascomp(o)) {
		for (const char *c = o->s ? o->s : ""; *c; c++)
			h = mix(h, (uint8_t)*c);
		return mix(h, o->kind);
	}
	if (!sumreg(f, lo, at, o->reg, &s, depth))
		return mix(0x77, (uint64_t)o->reg);     /* unknown: its own */
	for (uint32_t k = 0; k < s.n; k++)
		h = mix(h, s.v[k]);
	return mix(h, (uint64_t)s.c);
}

/* Where the code straight before i begins (any label counts). */
static uint32_t
plainstart(const Func *f, uint32_t i)
{
	while (i > 0) {
		const Stmt *s = &f->stmt[i - 1];
		if (s->kind == Sopen || s->kind == Sclose || s->kind == Slabel
		|| (s->kind == Sins && opklass((Stmt *)s) == Kctl))
			break;
		i--;
	}
	return i;
}

/* tsinkfar's view of the function's blocks, made when first asked and
 * dropped when the function changes (passes run one at a time). */
static Dom *view;

/* Whether block b lies on a cycle: b reached again from its
 * successors. */
static int
cyclic(uint32_t b)
{
	uint32_t nb = domnblk(view), n = 0, *st = xmalloc((nb + 1) *
		sizeof *st);
	uint8_t *in = calloc(nb + 1, 1);
	const uint32_t *x;
	int hit = 0;

	for (uint32_t k = domsuccs(view, b, &x); k--;)
		if (!in[x[k]])
			in[x[k]] = 1, st[n++] = x[k];
	while (n && !hit) {
		uint32_t c = st[--n];
		hit = c == b;
		for (uint32_t k = domsuccs(view, c, &x); k--;)
			if (!in[x[k]])
				in[x[k]] = 1, st[n++] = x[k];
	}
	free(in);
	free(st);
	return hit;
}

/* The one writer w of a register surely ran, once, before at: it
 * dominates at and lies on no cycle (a writer after the read, or one a
 * branch may skip, had been taken: mutated tests; the validator asks
 * the same, src/vsink.c). */
static int
surebefore(const Func *f, uint32_t w, uint32_t at)
{
	if (!view)
		view = domnew((Func *)f);
	return domdominates(view, w, at) && !cyclic(domblk(view, w));
}

static int
sumreg(const Func *f, uint32_t lo, uint32_t at, int32_t r, Sum *s, int depth)
{
	int64_t w = writer(f, lo, at, r);

	if (w < 0 && depth < 12) {      /* written once in the function:
	                                 * that writer (the validator asks
	                                 * whether it runs once, before) */
		int64_t one = writer(f, 0, f->nstmt, r);
		if (one >= 0 && writer(f, 0, (uint32_t)one, r) < 0
		&& surebefore(f, (uint32_t)one, at)) {
			w = one;
			lo = plainstart(f, (uint32_t)one);
		}
	}
	const Stmt *t = w >= 0 ? &f->stmt[w] : 0;
	uint64_t h;

	if (t && depth < 12 && !t->guard && opklass((Stmt *)t) == Kpure
	&& t->nop >= 2 && t->opd[0].kind == Preg) {
		if (t->op == Oadd && t->nop == 3)
			return sumop(f, lo, (uint32_t)w, &t->opd[1], s, depth + 1)
				&& sumop(f, lo, (uint32_t)w, &t->opd[2], s,
				depth + 1);
		if (t->op == Omov && t->nop == 2)
			return sumop(f, lo, (uint32_t)w, &t->opd[1], s,
				depth + 1);
		h = mix(0x33, (uint64_t)t->op);
		for (uint32_t k = 0; k < t->nmod; k++)
			for (const char *c = t->mod[k]; *c; c++)
				h = mix(h, (uint8_t)*c);
		for (uint32_t k = 1; k < t->nop; k++)
			h = mix(h, valueof(f, lo, (uint32_t)w, &t->opd[k],
				depth + 1));
	} else
		h = mix(mix(0x99, (uint64_t)r), (uint64_t)(w < 0 ? 0 : w + 1));
	if (s->n == Maxadd)
		return 0;
	s->v[s->n++] = h;
	return 1;
}

static int
icmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Where a .32x32b tcgen05.ld/st at i reaches, as a sum; *n columns. */
static int
reach(const Func *f, uint32_t lo, uint32_t i, Sum *s, int64_t *n)
{
	const Stmt *t = &f->stmt[i];
	const Opnd *a = 0;
	Str off;

	*n = 0;
	for (uint32_t k = 0; k < t->nop; k++)
		if (t->opd[k].kind == Paddr)
			a = &t->opd[k];
	for (uint32_t k = 0; k < t->nmod; k++)
		if (!strncmp(t->mod[k], ".x", 2))
			*n = strtoll(t->mod[k] + 2, 0, 10);
	if (!a || a->nsub != 1 || !hasmod(t, ".32x32b") || *n <= 0)
		return 0;
	if (hasmod(t, ".pack::16b") || hasmod(t, ".unpack::16b"))
		*n *= 2;
	*s = (Sum){{0}, 0, 0};
	if (!sumop(f, lo, i, &a->sub[0], s, 0))
		return 0;
	if ((off = opoff(&a->sub[0]))) {    /* [base+off]: the base's */
		int64_t c;
		if (!ptxoff(off, &c))
			return 0;
		s->c += c;
	}
	qsort(s->v, s->n, sizeof *s->v, icmp);
	return 1;
}

/* The tcgen05.st at j writes no column the load at i reads (each
 * address as its value where it is read, from lo on). */
static int
othercolumns(const Func *f, uint32_t lo, uint32_t i, uint32_t j)
{
	Sum x, y;
	int64_t nx, ny;

	if (!reach(f, lo, i, &x, &nx) || !reach(f, lo, j, &y, &ny)
	|| x.n != y.n || memcmp(x.v, y.v, x.n * sizeof *x.v))
		return 0;
	return x.c + nx <= y.c || y.c + ny <= x.c;
}

/* ---- the group and how far it goes ---- */

typedef struct Grp {
	uint32_t at[Maxg], n;   /* its instructions */
	uint8_t *w, *r;         /* registers it writes, reads */
} Grp;

static int
regsok(const Stmt *s, const Grp *g, const uint8_t *tm)
{
	Rv d = {0}, u = {0};
	int ok = 1;

	defuse((Stmt *)s, &d, &u);
	for (uint32_t k = 0; k < d.n; k++)
		ok &= !g->w[d.v[k]] && !g->r[d.v[k]] && !(tm[d.v[k]] & 1);
	for (uint32_t k = 0; k < u.n; k++)
		ok &= !g->w[u.v[k]] && !(tm[u.v[k]] & 1);
	if (s->guard && s->guard->kind == Preg && s->guard->reg >= 0)
		ok &= !g->w[s->guard->reg];
	free(d.v);
	free(u.v);
	return ok;
}

static uint32_t
takegroup(Func *f, uint32_t i, Grp *g)
{
	Rv d = {0}, u = {0};
	int waited = 0;

	g->n = 0;
	memset(g->w, 0, f->nreg + 1);
	memset(g->r, 0, f->nreg + 1);
	for (uint32_t j = i; j < f->nstmt && g->n < Maxg; j++) {
		Stmt *s = &f->stmt[j];
		int take = 0;
		if (s->kind == Sloc)
			continue;
		if (s->kind != Sins || s->guard)
			break;
		d.n = u.n = 0;
		defuse(s, &d, &u);
		if (j == i)
			take = 1;
		else if (!waited)
			take = waited = s->op == Otcgen05_wait_ld;
		else if (opklass(s) == Kpure)    /* .cc is Kcc */
			for (uint32_t k = 0; k < u.n && !take; k++)
				take = g->w[u.v[k]];
		if (!take || (j != i && !waited))
			break;
		for (uint32_t k = 0; k < d.n; k++)
			g->w[d.v[k]] = 1;
		for (uint32_t k = 0; k < u.n; k++)
			g->r[u.v[k]] = 1;
		g->at[g->n++] = j;
	}
	free(d.v);
	free(u.v);
	return waited ? g->n : 0;
}

/* Whether the group passes statement j; *anchor when j is a fixed
 * statement or a barrier. */
static int
passable(Func *f, uint32_t lo, uint32_t j, const Grp *g, const uint8_t *tm,
	const uint8_t *tgt, int *anchor)
{
	Stmt *s = &f->stmt[j];

	if (s->kind == Sloc || (s->kind == Slabel && !tgt[j]))
		return 1;
	if (s->kind != Sins || !regsok(s, g, tm))
		return 0;
	switch (opklass(s)) {
	case Kpure: case Kcc:
		return 1;
	case Kcoll: case Kmma:  /* the validator keeps a warp's collectives (a
	                 * shfl.sync) in order with tensor memory, which
	                 * the group's tcgen05.ld is (linemut seed 123) */
		return 0;
	case Kld: case Kst:     /* opklass: volatile and the like are Kord */
		return 1;
	case Ktmem:     /* before the first fixed statement or barrier the
	                 * validator's segment proof orders tensor memory
	                 * with itself (fo62: a tcgen05.wait::st passed) */
		if (!*anchor)
			return 0;
		return s->op != Otcgen05_st
			|| othercolumns(f, lo, g->at[0], j);
	case Kfull:
		*anchor |= s->op == Ocp_async_wait_group
			|| s->op == Ocp_async_wait_all;
		return s->op == Ocp_async_wait_group
			|| s->op == Ocp_async_wait_all;
	case Kord:
		*anchor |= ctabar(s);
		return ctabar(s);
	default:
		return 0;
	}
}

/* From the first barrier crossed, up to the next barrier after p:
 * straight code and no tcgen05 write to every lane. */
static int
windowok(Func *f, uint32_t from, uint32_t p, const uint8_t *tgt)
{
	while (from < p && !ctabar(&f->stmt[from]))
		from++;
	if (from == p)          /* no barrier crossed */
		return 1;
	for (uint32_t j = from + 1; j < f->nstmt; j++) {
		Stmt *s = &f->stmt[j];
		if (j >= p && ctabar(s))
			return 1;
		if (s->kind == Sopen || s->kind == Sclose
		|| (s->kind == Slabel && tgt[j])
		|| (s->kind == Sins && (opklass(s) == Kctl
		|| s->op == Otcgen05_mma || s->op == Otcgen05_cp
		|| s->op == Otcgen05_shift)))
			return 0;
	}
	return 0;
}

/* Where the group ending at e, free to go as far as p, lands: no
 * further than right after the last tcgen05.st it passes (its
 * registers die there, and a later load only keeps what it loads alive
 * longer: d128_n128 spills 112 bytes landing there, 720 at the far
 * end), nor where the code up to the next barrier may issue an MMA
 * (then before the last barrier passed, and again).  0: nowhere that
 * passes a fixed statement or barrier. */
static uint32_t
land(Func *f, uint32_t e, uint32_t p, const uint8_t *tgt)
{
	for (;;) {
		uint32_t lastbar = 0;
		int anchor = 0;
		while (p > e + 1 && f->stmt[p - 1].kind != Sins)
			p--;    /* .loc lines belong to what follows */
		for (uint32_t j = p; j-- > e + 1;)
			if (f->stmt[j].kind == Sins
			&& f->stmt[j].op == Otcgen05_st) {
				p = j + 1;
				break;
			}
		for (uint32_t j = e + 1; j < p; j++) {
			Stmt *t = &f->stmt[j];
			anchor |= ctabar(t) || (t->kind == Sins
				&& opklass(t) == Kfull);
			lastbar = ctabar(t) ? j : lastbar;
		}
		if (!anchor)
			return 0;
		if (windowok(f, e + 1, p, tgt))
			return p;
		if (!lastbar)
			return 0;
		p = lastbar;
	}
}

/* Where the stretch that holds i begins: after the last label a
 * branch names, control instruction or scope edge. */
static uint32_t
stretch(const Func *f, uint32_t i, const uint8_t *tgt)
{
	while (i > 0) {
		const Stmt *s = &f->stmt[i - 1];
		if (s->kind == Sopen || s->kind == Sclose
		|| (s->kind == Slabel && tgt[i - 1])
		|| (s->kind == Sins && opklass((Stmt *)s) == Kctl))
			break;
		i--;
	}
	return i;
}

/* Whether the tcgen05.ld at i is the only one of its text: the
 * validator finds the original's by text (src/vsink.c). */
static int
onlyone(Func *f, uint32_t i)
{
	Buf a = {0}, b = {0};
	int n = 0;

	printstmt(&a, f, &f->stmt[i]);
	for (uint32_t j = 0; j < f->nstmt && n < 2; j++) {
		if (f->stmt[j].kind != Sins || f->stmt[j].op != Otcgen05_ld)
			continue;
		b.n = 0;
		printstmt(&b, f, &f->stmt[j]);
		n += b.n == a.n && !memcmp(a.p, b.p, a.n);
	}
	free(a.p);
	free(b.p);
	return n == 1;
}

uint32_t
tsinkfar(Module *m, Func *f, const uint32_t *lines)
{
	if (!kernelok(f) || !alike(f, m))
		return 0;
	uint8_t *tm = tmemnames(f), *tgt = calloc(f->nstmt + 1, 1);
	Grp g = {.w = calloc(f->nreg + 1, 1), .r = calloc(f->nreg + 1, 1)};
	Stmt *tmp = xmalloc((f->nstmt + 1) * sizeof *tmp);
	uint8_t *in = calloc(f->nstmt + 1, 1);
	uint32_t moved = 0;

	labeltargets(f, tgt);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->op != Otcgen05_ld || s->guard
		|| !inlines(lines, s) || !takegroup(f, i, &g)
		|| !onlyone(f, i))
			continue;
		uint32_t e = g.at[g.n - 1], lo = stretch(f, i, tgt), p;
		int anchor = 0;
		for (p = e + 1; p < f->nstmt
			&& passable(f, lo, p, &g, tm, tgt, &anchor); p++)
			;
		if (!(p = land(f, e, p, tgt)))
			continue;
		/* the group and the .loc lines among it, then the rest */
		uint32_t n = 0;
		memset(in + i, 0, e - i + 1);
		for (uint32_t k = 0; k < g.n; k++)
			in[g.at[k]] = 1;
		for (uint32_t j = i; j < e; j++)
			in[j] |= f->stmt[j].kind == Sloc;
		for (uint32_t j = i; j < p; j++)
			if (!in[j])
				tmp[n++] = f->stmt[j];
		for (uint32_t j = i; j <= e; j++)
			if (in[j])
				tmp[n++] = f->stmt[j];
		memcpy(&f->stmt[i], tmp, n * sizeof *tmp);
		memset(in + i, 0, e - i + 1);
		f->dirty = 1;
		domfree(view);
		view = 0;
		moved += g.n;
		i = p - 1;
	}
	free(in);
	free(tmp);
	free(g.w);
	free(g.r);
	free(tm);
	free(tgt);
	domfree(view);
	view = 0;
	return moved;
}
