/* wgsplit.c: splits a wgmma group whose chains fill disjoint
 * accumulators, so the first chain's results are used before the last
 * chain's are born.
 *
 * needs:  resolved registers (regs.c)
 * breaks: statement count (a fence, a commit and a wait are added)
 * paper:  none; what Triton's Hopper attention with BLOCK_M 128 on one
 *         warpgroup shows (two m64 tiles per wgmma step).
 *
 * Such a kernel issues S = Q*K^T as two chains of wgmma.mma_async, one
 * per 64 rows, in one group, waits for it, and only then runs the
 * softmax of both halves.  With O's two halves in registers (128) and
 * S's (128) the peak is 256 values at the wait: ptxas spills.  Split,
 * the last chain goes into a group of its own,
 *
 *     wgmma.fence; <last chain>; wgmma.commit_group; wgmma.wait_group 0
 *
 * placed after the work the first chain's results feed, so S's first
 * half is exponentiated and packed (P, half the registers) before the
 * second half exists.  Only work that can run before the last chain is
 * moved ahead of it: arithmetic and warp collectives that do not touch
 * its registers nor depend on anything that does, collectives keeping
 * their order (a collective after one that must wait stays after it).
 * The moved chain crosses nothing but such statements, the group's
 * commit and the wait 0 that completed it; it reads the same shared
 * memory (nothing it crosses writes memory) and the same descriptors.
 * The tensor core loses the overlap of the second chain with the first
 * half's softmax: ptxas and the GPU judge, so it is a variant of the
 * search.  The validator proves it (validate.c, deferred wgmma). */
#include <stdlib.h>
#include <string.h>
#include "all.h"

typedef struct Grp {
	uint32_t fence, commit, wait, end;  /* wait: the wait 0; end: the
	                                     * region after it ends here */
	uint32_t first;                     /* the last chain's first */
	int32_t key;                        /* its first accumulator */
} Grp;

/* An unguarded .aligned instruction of opcode op (the whole warp runs
 * it together); xspill.c asks it too. */
int
wgaligned(const Stmt *s, int op)
{
	return s->kind == Sins && s->op == op && !s->guard
		&& hasmod(s, ".aligned");
}

int
wgwaitzero(const Stmt *s)
{
	return wgaligned(s, Owgmma_wait_group) && s->nop == 1
		&& s->opd[0].kind == Pint && !strcmp(s->opd[0].s, "0");
}

/* Statements that may run on either side of the moved chain: register
 * arithmetic, warp collectives, .loc lines, labels no branch names. */
static int
plain(const Stmt *s, const uint8_t *tgt, uint32_t i)
{
	if (s->kind == Sloc || (s->kind == Slabel && !tgt[i]))
		return 1;
	if (s->kind != Sins)
		return 0;
	Klass k = opklass(s);
	return k == Kpure || iscoll(k);
}

static int32_t
acc0(Stmt *s, Rv *d, Rv *u)
{
	d->n = u->n = 0;
	defuse(s, d, u);
	return d->n ? d->v[0] : -1;
}

/* The group from fence i: fence, mma_asyncs, commit, plain statements,
 * wait 0; at least two chains of disjoint accumulators.  Returns 0 and
 * fills g, or -1. */
static int
group(Func *f, uint32_t i, const uint8_t *tgt, uint8_t *mark, Grp *g)
{
	Rv d = {0}, u = {0};
	int32_t keys[2] = {-1, -1};
	uint32_t j, nkey = 0;
	int rc = -1;

	g->fence = i;
	g->first = UINT32_MAX;
	for (j = i + 1; j < f->nstmt; j++) {
		Stmt *s = &f->stmt[j];
		if (wgaligned(s, Owgmma_commit_group))
			break;
		/* only what the whole warp runs together: an unguarded
		 * .aligned one (the validator asks the same) */
		if (wgaligned(s, Owgmma_mma_async)) {
			int32_t k = acc0(s, &d, &u);
			if (k < 0)
				goto out;
			if (!nkey || keys[nkey - 1] != k) {
				if (nkey == 2)      /* a third chain: the last
				                     * two are compared */
					keys[0] = keys[1], nkey = 1;
				keys[nkey++] = k;
				g->first = j;
			}
			continue;
		}
		if (!plain(s, tgt, j) || s->kind == Slabel)
			goto out;
	}
	if (j == f->nstmt || nkey < 2)
		goto out;
	g->commit = j;
	g->key = keys[1];
	for (j++; j < f->nstmt && plain(&f->stmt[j], tgt, j); j++)
		;
	if (j == f->nstmt || !wgwaitzero(&f->stmt[j]))
		goto out;
	g->wait = j;
	for (j++; j < f->nstmt && plain(&f->stmt[j], tgt, j); j++)
		;
	g->end = j;
	/* the last chain: every mma_async of its key from g->first on,
	 * none of another key after it, accumulators apart */
	memset(mark, 0, f->nreg + 1);
	for (j = g->first; j < g->commit; j++) {
		Stmt *s = &f->stmt[j];
		if (s->kind != Sins || s->op != Owgmma_mma_async)
			continue;
		if (acc0(s, &d, &u) != g->key)
			goto out;
		for (uint32_t k = 0; k < d.n; k++)
			mark[d.v[k]] = 1;
	}
	for (j = i + 1; j < g->first; j++) {
		Stmt *s = &f->stmt[j];
		if (s->kind != Sins || s->op != Owgmma_mma_async)
			continue;
		acc0(s, &d, &u);
		for (uint32_t k = 0; k < d.n; k++)
			if (mark[d.v[k]])
				goto out;
	}
	rc = 0;
out:
	free(d.v);
	free(u.v);
	return rc;
}

/* Marks in late[] what must stay after the moved chain: what touches
 * its registers (dreg: 1 written, 2 read only), what depends on such a
 * statement, and collectives after a late one.  .loc lines go with the
 * statement they precede, labels after the first late statement stay
 * after it (debug labels keep their order).  Returns how many
 * statements may run before the chain that read another chain's
 * accumulators (the point of the split). */
static uint32_t
lateset(Func *f, const Grp *g, const uint8_t *dreg, uint8_t *late,
	uint8_t *kept)
{
	uint8_t *lw = calloc(f->nreg + 1, 1), *lr = calloc(f->nreg + 1, 1);
	Rv d = {0}, u = {0};
	int latecoll = 0, any = 0;
	uint32_t gain = 0;

	for (uint32_t i = g->wait + 1; i < g->end; i++) {
		Stmt *s = &f->stmt[i];
		int x = 0;
		late[i - g->wait - 1] = 0;
		if (s->kind == Slabel) {
			late[i - g->wait - 1] = (uint8_t)any;
			continue;
		}
		if (s->kind != Sins)
			continue;
		int coll = iscoll(opklass(s));
		d.n = u.n = 0;
		defuse(s, &d, &u);
		for (uint32_t k = 0; k < d.n && !x; k++)
			x = dreg[d.v[k]] || lw[d.v[k]] || lr[d.v[k]];
		for (uint32_t k = 0; k < u.n && !x; k++)
			x = dreg[u.v[k]] == 1 || lw[u.v[k]];
		if (coll)
			x |= latecoll;
		if (!x) {
			for (uint32_t k = 0; k < u.n; k++)
				if (kept[u.v[k]]) {
					gain++;
					break;
				}
			continue;
		}
		late[i - g->wait - 1] = 1;
		any = 1;
		if (coll)
			latecoll = 1;
		for (uint32_t k = 0; k < d.n; k++)
			lw[d.v[k]] = 1;
		for (uint32_t k = 0; k < u.n; k++)
			lr[u.v[k]] = 1;
	}
	/* a .loc line goes with the next instruction */
	for (uint32_t i = g->end; i-- > g->wait + 1;)
		if (f->stmt[i].kind == Sloc)
			late[i - g->wait - 1] = i + 1 < g->end
				? late[i - g->wait] : 1;
	free(lw);
	free(lr);
	free(d.v);
	free(u.v);
	return gain;
}

/* Statement i is a wgmma of g's last chain: group() found every
 * mma_async from g->first to the commit to be one. */
static int
inlast(const Func *f, const Grp *g, uint32_t i)
{
	return i >= g->first && i < g->commit && f->stmt[i].kind == Sins
		&& f->stmt[i].op == Owgmma_mma_async;
}

static Stmt
fresh(const Stmt *s)
{
	Stmt t = *s;

	t.dirty = 1;            /* printed from the IR, on a line of its own */
	t.lead = (Span){0, 0};
	return t;
}

/* Rewrites group g; returns the index of the new wait in f, or
 * UINT32_MAX when the split would move nothing worth it. */
static uint32_t
split(Module *m, Func *f, const Grp *g, uint8_t *dreg, uint8_t *kept,
	uint32_t *moved)
{
	Rv d = {0}, u = {0};
	uint32_t nr = g->end - g->wait - 1, k = 0, at = UINT32_MAX, nd = 0;
	uint8_t *late = xmalloc(nr + 1);

	memset(dreg, 0, f->nreg + 1);
	memset(kept, 0, f->nreg + 1);
	for (uint32_t i = g->fence + 1; i < g->commit; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->op != Owgmma_mma_async)
			continue;
		d.n = u.n = 0;
		defuse(s, &d, &u);
		if (!inlast(f, g, i)) {
			for (uint32_t j = 0; j < d.n; j++)
				kept[d.v[j]] = 1;
			continue;
		}
		nd++;
		for (uint32_t j = 0; j < u.n; j++)
			if (!dreg[u.v[j]])
				dreg[u.v[j]] = 2;
		for (uint32_t j = 0; j < d.n; j++)
			dreg[d.v[j]] = 1;
	}
	/* what the chain crosses in its own group must leave its
	 * registers alone (the validator asks the same) */
	for (uint32_t i = g->first; i < g->wait; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || inlast(f, g, i))
			continue;
		d.n = u.n = 0;
		defuse(s, &d, &u);
		for (uint32_t j = 0; j < d.n; j++)
			if (dreg[d.v[j]])
				goto out;
		for (uint32_t j = 0; j < u.n; j++)
			if (dreg[u.v[j]] == 1)
				goto out;
	}
	if (!lateset(f, g, dreg, late, kept))
		goto out;
	Stmt *v = alloc(m->a, (f->nstmt + 3) * sizeof *v);
	for (uint32_t i = 0; i <= g->wait; i++)
		if (!inlast(f, g, i))
			v[k++] = f->stmt[i];
	for (uint32_t i = g->wait + 1; i < g->end; i++)
		if (!late[i - g->wait - 1])
			v[k++] = f->stmt[i];
	v[k++] = fresh(&f->stmt[g->fence]);
	for (uint32_t i = g->first; i < g->commit; i++)
		if (inlast(f, g, i))
			v[k++] = f->stmt[i];
	v[k++] = fresh(&f->stmt[g->commit]);
	at = k;
	v[k++] = fresh(&f->stmt[g->wait]);
	for (uint32_t i = g->wait + 1; i < g->end; i++)
		if (late[i - g->wait - 1])
			v[k++] = f->stmt[i];
	for (uint32_t i = g->end; i < f->nstmt; i++)
		v[k++] = f->stmt[i];
	f->stmt = v;
	f->nstmt = k;
	f->dirty = 1;
	*moved += nd;
out:
	free(late);
	free(d.v);
	free(u.v);
	return at;
}

/* ---- wgsplit=pv: the next group's first chain joins the split ----
 * After the split, the group that follows (P*V) still issues both of
 * its chains after the second half's softmax, and ptxas serializes the
 * tensor core around it (its C7511 note).  Its first chain reads only
 * what the first half's softmax made (P's first tile, O's first tile):
 * it is issued right after the deferred chain, in a group of its own
 * (one more commit), and the split's wait becomes wait_group 1: the
 * second half of S is complete there, P_top*V stays in flight over the
 * second half's softmax, and a later wait 0 retires it (an added commit
 * only makes later waits retire more).  The statements computing its
 * descriptors come along.  On the H200 the split alone ran 2.8 %
 * slower than the input, this shape (with wgwait) 14 % faster
 * (bench/RESULTS.md, sixth session). */

/* May statement s cross the pulled statements (registers marked in r:
 * 1 written, 2 read)?  Nothing it does touches what they write, and it
 * writes nothing they read. */
static int
passes(Stmt *s, const uint8_t *r, Rv *d, Rv *u)
{
	if (s->kind != Sins)
		return 1;
	d->n = u->n = 0;
	defuse(s, d, u);
	for (uint32_t k = 0; k < d->n; k++)
		if (r[d->v[k]])
			return 0;
	for (uint32_t k = 0; k < u->n; k++)
		if (r[u->v[k]] & 1)
			return 0;
	return 1;
}

static void
markrs(Stmt *s, uint8_t *r, Rv *d, Rv *u)
{
	d->n = u->n = 0;
	defuse(s, d, u);
	for (uint32_t k = 0; k < u->n; k++)
		r[u->v[k]] |= 2;
	for (uint32_t k = 0; k < d->n; k++)
		r[d->v[k]] |= 1;
}

/* Marks (8) the registers of s's vector operands: accumulators and A
 * fragments.  The slice brings along descriptor math only: a fragment
 * written after the group's fence (no wgmma.fence between, which the
 * input lacks too) would, pulled, cross the deferred chain's fence,
 * and the validator refuses that (mutated tests). */
static void
fragments(Stmt *s, uint8_t *r)
{
	for (uint32_t k = 0; k < s->nop; k++)
		for (uint32_t j = 0; s->opd[k].kind == Pvec
		&& j < s->opd[k].nsub; j++)
			if (s->opd[k].sub[j].kind == Preg
			&& s->opd[k].sub[j].reg >= 0)
				r[s->opd[k].sub[j].reg] |= 8;
}

/* The chain pull() would move: after the commit and the split's wait,
 * plain statements, the group's fence (*fence), its first wgmma (*p0)
 * and the last of the same accumulators with plain statements between
 * (*p1).  Returns the accumulators' key, or -1 when there is none. */
static int32_t
chainafter(Func *f, uint32_t commit, const uint8_t *tgt, uint32_t *fence,
	uint32_t *p0, uint32_t *p1, Rv *d, Rv *u)
{
	uint32_t i, c2;
	int32_t key;

	for (i = commit + 2; i < f->nstmt && plain(&f->stmt[i], tgt, i); i++)
		;
	if (i == f->nstmt || !wgaligned(&f->stmt[i], Owgmma_fence))
		return -1;
	*fence = i;
	for (i = *fence + 1; i < f->nstmt; i++)
		if ((f->stmt[i].kind == Sins
		&& f->stmt[i].op == Owgmma_mma_async)
		|| !plain(&f->stmt[i], tgt, i))
			break;
	/* the whole warp's wgmmas only (.sync.aligned, unguarded): one
	 * with other modifiers the validator takes for an ordering
	 * statement, not the chain's (opt fuzzer fo85: a mangled
	 * .aligned) */
	if (i == f->nstmt || !wgaligned(&f->stmt[i], Owgmma_mma_async)
	|| (key = acc0(&f->stmt[i], d, u)) < 0)
		return -1;
	*p0 = *p1 = i;
	/* the chain: wgmmas of key, plain statements between */
	for (c2 = *p0 + 1; c2 < f->nstmt; c2++) {
		Stmt *s = &f->stmt[c2];
		if (s->kind == Sins && s->op == Owgmma_mma_async) {
			if (s->guard || acc0(s, d, u) != key)
				break;
			if (!wgaligned(s, Owgmma_mma_async))
				return -1;
			*p1 = c2;
		} else if (!plain(s, tgt, c2))
			break;
	}
	return key;
}

/* Marks in r the deferred chain's accumulators (4) and what it reads
 * (16), and the pulled chain's registers (markrs, fragments), its
 * wgmmas in in[].  Returns how many those are, or 0 where the two
 * chains meet. */
static uint32_t
markchains(Func *f, uint32_t commit, uint32_t p0, uint32_t p1, uint8_t *r,
	uint8_t *in, Rv *d, Rv *u)
{
	uint32_t i, k, n = 0;

	/* the deferred chain's: in flight until the wait, which the pulled
	 * statements precede */
	for (i = commit; i-- > 0 && !wgaligned(&f->stmt[i], Owgmma_fence);)
		if (f->stmt[i].kind == Sins
		&& f->stmt[i].op == Owgmma_mma_async) {
			d->n = u->n = 0;
			defuse(&f->stmt[i], d, u);
			for (k = 0; k < d->n; k++)
				r[d->v[k]] |= 4;
			for (k = 0; k < u->n; k++)
				r[u->v[k]] |= 16;
		}
	for (i = p0; i <= p1; i++)
		if (f->stmt[i].kind == Sins
		&& f->stmt[i].op == Owgmma_mma_async) {
			markrs(&f->stmt[i], r, d, u);
			fragments(&f->stmt[i], r);
			in[i] = 1;
			n++;
		}
	/* issued while the deferred chain is in flight, the pulled chain
	 * may not touch its accumulators nor write what it reads (linemut
	 * seed 37: a mutated P*V group that reuses the deferred chain's
	 * accumulator) */
	for (i = 0; i < f->nreg; i++)
		if ((r[i] & 4 && r[i] & (1 | 2 | 8)) || (r[i] & 16 && r[i] & 1))
			return 0;
	return n;
}

/* The descriptor math: what defines a register the pulled wgmmas read,
 * back to the commit, itself plain arithmetic, into in[].  Returns 0,
 * or -1 where some of it cannot come. */
static int
slice(Func *f, uint32_t commit, uint32_t p1, uint8_t *r, uint8_t *in,
	Rv *d, Rv *u)
{
	uint32_t i, k;

	for (i = p1; i-- > commit + 1;) {
		Stmt *s = &f->stmt[i];
		if (in[i] || s->kind != Sins)
			continue;
		d->n = u->n = 0;
		defuse(s, d, u);
		int need = 0;
		for (k = 0; k < d->n; k++)
			need |= r[d->v[k]] & 2 && !(r[d->v[k]] & 1);
		if (!need)
			continue;
		if (opklass(s) != Kpure || s->guard || d->n != 1
		|| (r[d->v[0]] & (4 | 8 | 16)))
			return -1;
		in[i] = 1;
		/* an earlier write of its register is not needed (and, left
		 * where it is, stops the pull below if it must pass); one that
		 * reads the deferred chain's accumulators cannot come (fo52) */
		r[d->v[0]] |= 1;
		for (k = 0; k < u->n; k++)
			if (r[u->v[k]] & 4)
				return -1;
		for (k = 0; k < u->n; k++)
			r[u->v[k]] |= 2;
	}
	return 0;
}

/* What the pulled statements pass (from the commit to p1) leaves their
 * registers alone, their definitions included (a slice statement's
 * register is theirs), and holds no other fence.  r is reused. */
static int
passable(Func *f, uint32_t commit, uint32_t fence, uint32_t p1, uint8_t *r,
	const uint8_t *in, Rv *d, Rv *u)
{
	uint32_t i;

	for (i = 0; i < f->nreg + 1; i++)
		r[i] = 0;
	for (i = commit + 1; i <= p1; i++)
		if (in[i])
			markrs(&f->stmt[i], r, d, u);
	for (i = commit; i <= p1; i++)
		if (!in[i] && (!passes(&f->stmt[i], r, d, u)
		|| (f->stmt[i].kind == Sins && f->stmt[i].op == Owgmma_fence
		&& i != fence)))
			return 0;
	return 1;
}

/* The statements in[] moved to before commit.  The deferred chain's
 * group is closed first, so that the wait can leave the pulled chain's
 * group in flight (wait_group 1) over the second half's softmax. */
static void
rebuild(Module *m, Func *f, uint32_t commit, uint32_t p1, const uint8_t *in)
{
	Stmt *v = alloc(m->a, (f->nstmt + 1) * sizeof *v);
	uint32_t i, k;

	for (i = k = 0; i < commit; i++)
		v[k++] = f->stmt[i];
	v[k++] = fresh(&f->stmt[commit]);
	for (i = commit; i <= p1; i++)
		if (in[i])
			v[k++] = f->stmt[i];
	for (i = commit; i < f->nstmt; i++)
		if (!in[i]) {
			v[k] = f->stmt[i];
			if (i == commit + 1)    /* the split's wait */
				v[k].opd = intopnd(m, "1");
			k++;
		}
	f->stmt = v;
	f->nstmt = k;
}

/* f's statements from commit on: commit, wait, the late ones, then a
 * fence and the P*V group.  Moves that group's first chain (and its
 * descriptor math) to before commit.  Returns how many wgmmas moved. */
static uint32_t
pull(Module *m, Func *f, uint32_t commit, const uint8_t *tgt)
{
	Rv d = {0}, u = {0};
	uint32_t fence, p0, p1, n = 0;

	if (chainafter(f, commit, tgt, &fence, &p0, &p1, &d, &u) >= 0) {
		uint8_t *r = calloc(f->nreg + 1, 1);
		uint8_t *in = calloc(f->nstmt + 1, 1);
		n = markchains(f, commit, p0, p1, r, in, &d, &u);
		if (n && (slice(f, commit, p1, r, in, &d, &u)
		|| !passable(f, commit, fence, p1, r, in, &d, &u)))
			n = 0;
		if (n)
			rebuild(m, f, commit, p1, in);
		free(r);
		free(in);
	}
	free(d.v);
	free(u.v);
	return n;
}

uint32_t
wgsplit(Module *m, Func *f, const uint32_t *lines, int pv)
{
	uint32_t moved = 0;
	uint8_t *tgt = 0, *mark = 0, *kept = 0;
	Grp g;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (!wgaligned(&f->stmt[i], Owgmma_fence)
		|| !inlines(lines, &f->stmt[i]))
			continue;
		if (!tgt) {
			tgt = calloc(f->nstmt + 1, 1);
			mark = xmalloc(f->nreg + 1);
			kept = xmalloc(f->nreg + 1);
			labeltargets(f, tgt);
		}
		if (group(f, i, tgt, mark, &g))
			continue;
		uint32_t at = split(m, f, &g, mark, kept, &moved);
		if (at == UINT32_MAX)
			continue;
		/* statements moved: the targets are found again */
		free(tgt);
		tgt = calloc(f->nstmt + 1, 1);
		labeltargets(f, tgt);
		if (pv)
			moved += pull(m, f, at - 1, tgt);
		i = at;
	}
	free(tgt);
	free(mark);
	free(kept);
	return moved;
}
