/* dom.c: which statements a statement dominates.
 *
 * A load may fault where it never ran, so running it again is safe only
 * where every path from the entry has run it already: where it
 * dominates.  Blocks split at labels and after branches, returns and
 * exits; edges are fall-through and branch targets, a bra's label
 * found by scope (a brx.idx goes to every label); dominance comes from
 * the dominator tree (Cooper, Harvey & Kennedy 2001), numbered so that
 * a question costs two comparisons: remat asks thousands of them. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

typedef struct Cfg {
	uint32_t n;              /* blocks */
	uint32_t *blk;           /* statement -> block */
	uint32_t *first;         /* block -> first statement */
	uint32_t **pred;
	uint32_t *npred;
} Cfg;

static int
ends(Stmt *s)
{
	return s->kind == Sins && (s->op == Obra || s->op == Obrx_idx
	|| s->op == Oret || s->op == Oexit || s->op == Otrap);
}

static void
addedge(Cfg *g, uint32_t a, uint32_t b)
{
	g->pred[b] = xrealloc(g->pred[b], (g->npred[b] + 1) * sizeof **g->pred);
	g->pred[b][g->npred[b]++] = a;
}

/* The edges of a bra at b: to its label, found by scope (an inline
 * asm block's waitLoop is its own, and Triton repeats the name in
 * every block); where that finds none or several, to every label of
 * the name, and a brx.idx to every label: more edges only make a
 * value stable or available in fewer places. */
static void
braedges(Func *f, Cfg *g, const int32_t *sc, const uint32_t *lab,
	uint32_t nlab, uint32_t b)
{
	Stmt *s = &f->stmt[b];
	uint32_t from = g->blk[b];
	int64_t to = s->op == Obra && s->nop && s->opd[s->nop - 1].kind == Psym
		? bratargetin(f, sc, lab, nlab, b, s->opd[s->nop - 1].s) : -1;

	if (to >= 0) {
		addedge(g, from, g->blk[to]);
		return;
	}
	for (uint32_t k = 0; k < f->nstmt; k++) {
		Stmt *l = &f->stmt[k];
		int hit = l->kind == Slabel && s->op == Obrx_idx;
		for (uint32_t q = 0; l->kind == Slabel && q < s->nop && !hit; q++)
			hit = s->opd[q].kind == Psym && s->opd[q].s == l->name;
		if (hit)
			addedge(g, from, g->blk[k]);
	}
}

static void
build(Func *f, Cfg *g)
{
	uint32_t b = 0, nlab = 0;
	int32_t *sc = scopeof(f);
	uint32_t *lab = xmalloc((f->nstmt + 1) * sizeof *lab);

	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Slabel)
			lab[nlab++] = i;
	g->blk = xmalloc((f->nstmt + 1) * sizeof *g->blk);
	g->first = xmalloc((f->nstmt + 2) * sizeof *g->first);
	g->first[0] = 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (i > 0 && (f->stmt[i].kind == Slabel || ends(&f->stmt[i - 1])))
			g->first[++b] = i;
		g->blk[i] = b;
	}
	g->n = f->nstmt ? b + 1 : 0;
	g->first[g->n] = f->nstmt;
	g->pred = calloc(g->n + 1, sizeof *g->pred);
	g->npred = calloc(g->n + 1, sizeof *g->npred);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		uint32_t from = g->blk[i];
		int last = i + 1 == f->nstmt || g->blk[i + 1] != from;
		if (!last)
			continue;
		int fall = !ends(s) || s->guard;
		if (s->kind == Sins && (s->op == Obra || s->op == Obrx_idx))
			braedges(f, g, sc, lab, nlab, i);
		if (fall && i + 1 < f->nstmt)
			addedge(g, from, g->blk[i + 1]);
	}
	free(lab);
	free(sc);
}

/* ---- a reusable view: dominance and "no write between" ----
 *
 * remat=loop recomputes a value from a register a loop changes (its
 * counter): right only where that register still holds what it held
 * when the value was computed.  The question, asked of positions from
 * and to: does `from` dominate `to`, and does no write of the register
 * lie on a path from `from` to `to` that does not run `from` again?
 * The validator asks the same of the rewrite on its own. */

struct Dom {
	Func *f;
	Cfg g;
	uint32_t **succ, *nsucc;
	uint32_t *pre, *post;    /* the dominator tree's numbering, or
	                          * none yet (domtree) */
	uint8_t *live;           /* block reached from the entry */
	uint32_t fblk;           /* cached: F is reachable from fblk's exit */
	uint8_t *F;
	uint32_t gblk, gfrom;    /* cached: G reaches gblk avoiding gfrom */
	uint8_t *G;
	uint32_t hblk, hfrom;    /* cached: H reached from hblk avoiding
	                          * hfrom (H[hblk]: hblk on such a cycle) */
	uint8_t *H;
	uint32_t *queue;
	uint64_t work;           /* blocks visited; a bound keeps big
	                          * functions cheap (then: not stable) */
};

enum { Domwork = 1u << 24 };

Dom *
domnew(Func *f)
{
	Dom *d = calloc(1, sizeof *d);

	if (!d)
		die("out of memory");
	d->f = f;
	if (!f->nstmt)
		return d;
	build(f, &d->g);
	uint32_t n = d->g.n;
	d->succ = calloc(n + 1, sizeof *d->succ);
	d->nsucc = calloc(n + 1, sizeof *d->nsucc);
	for (uint32_t b = 0; b < n; b++)
		for (uint32_t k = 0; k < d->g.npred[b]; k++) {
			uint32_t a = d->g.pred[b][k];
			d->succ[a] = xrealloc(d->succ[a], (d->nsucc[a] + 1)
				* sizeof **d->succ);
			d->succ[a][d->nsucc[a]++] = b;
		}
	d->live = calloc(n + 1, 1);
	d->queue = xmalloc((n + 1) * sizeof *d->queue);
	uint32_t nq = 0;
	d->live[0] = 1, d->queue[nq++] = 0;
	while (nq) {
		uint32_t b = d->queue[--nq];
		for (uint32_t k = 0; k < d->nsucc[b]; k++)
			if (!d->live[d->succ[b][k]])
				d->live[d->succ[b][k]] = 1,
				d->queue[nq++] = d->succ[b][k];
	}
	d->F = xmalloc(n + 1);
	d->G = xmalloc(n + 1);
	d->H = xmalloc(n + 1);
	d->fblk = d->gblk = d->hblk = UINT32_MAX;
	return d;
}

void
domfree(Dom *d)
{
	if (!d)
		return;
	for (uint32_t b = 0; d->f->nstmt && b < d->g.n; b++) {
		free(d->g.pred[b]);
		free(d->succ[b]);
	}
	free(d->g.pred);
	free(d->g.npred);
	free(d->g.blk);
	free(d->g.first);
	free(d->succ);
	free(d->nsucc);
	free(d->pre);
	free(d->post);
	free(d->live);
	free(d->F);
	free(d->G);
	free(d->H);
	free(d->queue);
	free(d);
}

/* Block dominance, from the dominator tree built at the first
 * question (Cooper, Harvey & Kennedy's iteration over a reverse
 * postorder), then asked in constant time by the tree's preorder and
 * postorder numbers.  A block the entry does not reach (nvcc -G leaves
 * a label after each bra.uni; code after a ret) dominates nothing and
 * is dominated by nothing, and a reached block one of them falls or
 * branches into is dominated by itself alone: as if a root above the
 * entry had an edge to it too.  Stricter than it need be, but the
 * validator's own data-flow (vremat.c) lets nothing flow out of such a
 * block either, so pass and validator agree (the line mutator:
 * remat=loop had copied a chain to the top of a loop of such blocks).
 * The tree's numbering: R, the root above, is block n. */
static int
poisoned(const Dom *d, uint32_t b)
{
	for (uint32_t k = 0; k < d->g.npred[b]; k++)
		if (!d->live[d->g.pred[b][k]])
			return 1;
	return 0;
}

/* The graph the tree is built on: R's children are the entry and the
 * poisoned blocks, a reached block's are its successors but for the
 * entry and the poisoned, whose one parent is R.  Its postorder (ord)
 * and each block's place in the reverse (rpo; UINT32_MAX: not
 * reached), by an explicit stack; next: the edge to try. */
static uint32_t
postorder(Dom *d, const uint8_t *poison, const uint32_t *rk, uint32_t nrk,
	uint32_t *ord, uint32_t *rpo)
{
	uint32_t n = d->g.n, nord = 0, nst = 0, *stk = d->queue;
	uint32_t *next = calloc(n + 1, sizeof *next);

	if (!next)
		die("out of memory");
	memset(rpo, 0xff, (n + 1) * sizeof *rpo);
	rpo[n] = 0;
	stk[nst++] = n;
	while (nst) {
		uint32_t b = stk[nst - 1], c = UINT32_MAX;
		d->work++;
		if (b == n)
			c = next[b] < nrk ? rk[next[b]++] : UINT32_MAX;
		else
			while (c == UINT32_MAX && next[b] < d->nsucc[b]) {
				c = d->succ[b][next[b]++];
				if (c == 0 || poison[c])
					c = UINT32_MAX;
			}
		if (c == UINT32_MAX)
			ord[nord++] = b, nst--;
		else if (rpo[c] == UINT32_MAX)
			rpo[c] = 0, stk[nst++] = c;   /* on the stack */
	}
	for (uint32_t i = 0; i < nord; i++)
		rpo[ord[i]] = nord - 1 - i;
	free(next);
	return nord;
}

static uint32_t
meet(const uint32_t *idom, const uint32_t *rpo, uint32_t a, uint32_t b)
{
	while (a != b) {
		while (rpo[a] > rpo[b])
			a = idom[a];
		while (rpo[b] > rpo[a])
			b = idom[b];
	}
	return a;
}

/* Each block's immediate dominator (R's children: R), iterated over
 * the reverse postorder until nothing changes. */
static void
idoms(Dom *d, const uint8_t *poison, const uint32_t *ord, uint32_t nord,
	const uint32_t *rpo, uint32_t *idom)
{
	uint32_t n = d->g.n;

	for (uint32_t b = 0; b <= n; b++)
		idom[b] = UINT32_MAX;
	idom[n] = n;
	for (int changed = 1; changed; ) {
		changed = 0;
		for (uint32_t i = nord - 1; i-- > 0; ) {
			uint32_t b = ord[i], m = b == 0 || poison[b] ? n
				: UINT32_MAX;
			d->work++;
			for (uint32_t k = 0; m != n && k < d->g.npred[b]; k++) {
				uint32_t p = d->g.pred[b][k];
				if (idom[p] != UINT32_MAX)
					m = m == UINT32_MAX ? p
						: meet(idom, rpo, m, p);
			}
			if (m != idom[b])
				idom[b] = m, changed = 1;
		}
	}
}

/* The tree's preorder and postorder numbers: a dominates b iff b's
 * interval lies in a's.  kid[kfirst[p] .. kfirst[p + 1]]: p's
 * children. */
static void
number(Dom *d, const uint32_t *idom)
{
	uint32_t n = d->g.n, t = 0, nst = 0, *stk = d->queue;
	uint32_t *kid = xmalloc((n + 1) * sizeof *kid);
	uint32_t *kfirst = calloc(n + 2, sizeof *kfirst);
	uint32_t *next = calloc(n + 1, sizeof *next);

	if (!kfirst || !next)
		die("out of memory");
	for (uint32_t b = 0; b < n; b++)
		if (idom[b] != UINT32_MAX)
			kfirst[idom[b] + 1]++;
	for (uint32_t b = 0; b <= n; b++)
		kfirst[b + 1] += kfirst[b];
	for (uint32_t b = 0; b < n; b++)
		if (idom[b] != UINT32_MAX)
			kid[kfirst[idom[b]] + next[idom[b]]++] = b;
	memset(next, 0, (n + 1) * sizeof *next);
	d->pre = xmalloc((n + 1) * sizeof *d->pre);
	d->post = xmalloc((n + 1) * sizeof *d->post);
	for (uint32_t b = 0; b <= n; b++)
		d->pre[b] = d->post[b] = UINT32_MAX;
	stk[nst++] = n;
	d->pre[n] = t++;
	while (nst) {
		uint32_t b = stk[nst - 1];
		if (kfirst[b] + next[b] < kfirst[b + 1]) {
			uint32_t c = kid[kfirst[b] + next[b]++];
			d->pre[c] = t++;
			stk[nst++] = c;
		} else {
			d->post[b] = t++;
			nst--;
		}
	}
	free(next);
	free(kfirst);
	free(kid);
}

static void
domtree(Dom *d)
{
	uint32_t n = d->g.n, nrk = 0;
	uint8_t *poison = calloc(n + 1, 1);
	uint32_t *rk = xmalloc((n + 1) * sizeof *rk);
	uint32_t *ord = xmalloc((n + 1) * sizeof *ord);
	uint32_t *rpo = xmalloc((n + 1) * sizeof *rpo);
	uint32_t *idom = xmalloc((n + 1) * sizeof *idom);

	if (!poison)
		die("out of memory");
	rk[nrk++] = 0;
	for (uint32_t b = 1; b < n; b++)
		if ((poison[b] = d->live[b] && poisoned(d, b)))
			rk[nrk++] = b;
	uint32_t nord = postorder(d, poison, rk, nrk, ord, rpo);
	idoms(d, poison, ord, nord, rpo, idom);
	number(d, idom);
	free(idom);
	free(rpo);
	free(ord);
	free(rk);
	free(poison);
}

/* Does block a dominate block b?  Blocks the entry does not reach:
 * never, either way. */
static int
blkdom(Dom *d, uint32_t a, uint32_t b)
{
	if (!d->pre)
		domtree(d);
	return d->live[a] && d->live[b] && d->pre[a] <= d->pre[b]
		&& d->post[b] <= d->post[a];
}

/* Marks in m the blocks reached from `start`'s edges (forward: its
 * successors; backward: start itself and its predecessors), never
 * entering `avoid`. */
static void
reach(Dom *d, uint8_t *m, uint32_t start, uint32_t avoid, int fwd)
{
	uint32_t nq = 0;

	memset(m, 0, d->g.n);
	if (fwd) {
		for (uint32_t k = 0; k < d->nsucc[start]; k++) {
			uint32_t b = d->succ[start][k];
			if (b != avoid && !m[b])
				m[b] = 1, d->queue[nq++] = b;
		}
	} else if (start != avoid) {
		m[start] = 1;
		d->queue[nq++] = start;
	}
	while (nq) {
		uint32_t b = d->queue[--nq];
		uint32_t nn = fwd ? d->nsucc[b] : d->g.npred[b];
		uint32_t *e = fwd ? d->succ[b] : d->g.pred[b];
		d->work++;
		for (uint32_t k = 0; k < nn; k++)
			if (e[k] != avoid && !m[e[k]])
				m[e[k]] = 1, d->queue[nq++] = e[k];
	}
}

int
domstable(Dom *d, uint32_t from, uint32_t to, const uint32_t *site,
	uint32_t nsite)
{
	if (!d->f->nstmt || from >= d->f->nstmt || to >= d->f->nstmt)
		return 0;
	uint32_t bd = d->g.blk[from], ba = d->g.blk[to];
	if (bd == ba) {
		/* from first, then to; around the loop would pass from */
		if (to <= from)
			return 0;
		for (uint32_t k = 0; k < nsite; k++)
			if (site[k] >= from && site[k] < to)
				return 0;
		return 1;
	}
	if (d->work > Domwork)
		return 0;
	if (!blkdom(d, bd, ba))
		return 0;
	if (d->fblk != bd) {
		reach(d, d->F, bd, bd, 1);
		d->fblk = bd;
	}
	if (!d->F[ba])
		return 1;       /* to is never reached from from's block */
	if (d->gblk != ba || d->gfrom != bd) {
		reach(d, d->G, ba, bd, 0);
		d->gblk = ba;
		d->gfrom = bd;
	}
	/* from's own write of what it reads counts too (>= from): the
	 * copy would read the value from wrote, not the one it read.
	 * A write at or after to in to's block reaches to again when that
	 * block lies on a cycle that does not pass from's: the loop's
	 * next iteration (fo51: a copy of `shl %r1310, %r14` at the top of
	 * a loop that writes %r14 lower down had been taken, by remat=loop
	 * and by the validator alike; fo61: the write was the statement
	 * at to itself, an ldmatrix the copy was put before) */
	int cyc = -1;
	for (uint32_t k = 0; k < nsite; k++) {
		uint32_t s = site[k], bs = d->g.blk[s];
		if (bs == ba && s >= to && cyc < 0) {
			if (d->hblk != ba || d->hfrom != bd) {
				reach(d, d->H, ba, bd, 1);
				d->hblk = ba;
				d->hfrom = bd;
			}
			cyc = d->H[ba];
		}
		if (bs == bd ? s >= from : bs == ba ? s < to || cyc > 0
		: d->F[bs] && d->G[bs])
			return 0;
	}
	return 1;
}

/* Does any path from the entry reach statement a? */
int
domreached(const Dom *d, uint32_t a)
{
	return a < d->f->nstmt && d->live[d->g.blk[a]];
}

/* Does statement a run before statement b on every path from the
 * entry?  Built once per function (domnew), asked many times. */
int
domdominates(Dom *d, uint32_t a, uint32_t b)
{
	if (!d->f->nstmt || a >= d->f->nstmt || b >= d->f->nstmt)
		return 0;
	uint32_t ba = d->g.blk[a], bb = d->g.blk[b];
	if (ba == bb)
		return b > a;
	return blkdom(d, ba, bb);
}

/* The blocks the view is built on, for a data-flow of its own
 * (vearly.c): how many, a statement's, a block's statements
 * [first, end), its predecessors. */
uint32_t
domnblk(const Dom *d)
{
	return d->f->nstmt ? d->g.n : 0;
}

uint32_t
domblk(const Dom *d, uint32_t i)
{
	return d->g.blk[i];
}

void
domspan(const Dom *d, uint32_t b, uint32_t *first, uint32_t *end)
{
	*first = d->g.first[b];
	*end = d->g.first[b + 1];
}

uint32_t
dompreds(const Dom *d, uint32_t b, const uint32_t **pred)
{
	*pred = d->g.pred[b];
	return d->g.npred[b];
}

uint32_t
domsuccs(const Dom *d, uint32_t b, const uint32_t **succ)
{
	*succ = d->succ[b];
	return d->nsucc[b];
}
