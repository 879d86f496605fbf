/* dom.c: which statements a statement dominates.
 *
 * A load may fault where it never ran, so running it again is safe only
 * where every path from the entry has run it already: where it
 * dominates.  Blocks split at labels and after branches, returns and
 * exits; edges are fall-through and branch targets (a .branchtargets
 * list counts all its labels); the dominator sets are the usual
 * iterative data-flow fixed point (Cooper, Harvey & Kennedy 2001 give
 * the faster algorithm; this size does not need it). */
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

static int32_t
blockof(Func *f, Cfg *g, Str label)
{
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Slabel && f->stmt[i].name == label)
			return (int32_t)g->blk[i];
	return -1;
}

static void
build(Func *f, Cfg *g)
{
	uint32_t b = 0;

	g->blk = xmalloc((f->nstmt + 1) * sizeof *g->blk);
	g->first = xmalloc((f->nstmt + 1) * sizeof *g->first);
	g->first[0] = 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (i > 0 && (f->stmt[i].kind == Slabel || ends(&f->stmt[i - 1])))
			g->first[++b] = i;
		g->blk[i] = b;
	}
	g->n = f->nstmt ? b + 1 : 0;
	g->pred = calloc(g->n + 1, sizeof *g->pred);
	g->npred = calloc(g->n + 1, sizeof *g->npred);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		uint32_t from = g->blk[i];
		int last = i + 1 == f->nstmt || g->blk[i + 1] != from;
		if (!last)
			continue;
		int fall = !ends(s) || s->guard;
		if (s->kind == Sins && s->op == Obra && s->nop) {
			int32_t t = blockof(f, g, s->opd[s->nop - 1].s);
			if (t >= 0)
				addedge(g, from, (uint32_t)t);
		}
		if (s->kind == Sins && s->op == Obrx_idx)
			for (uint32_t k = 0; k < f->nstmt; k++)
				if (f->stmt[k].kind == Slabel)
					addedge(g, from, g->blk[k]);
		if (fall && i + 1 < f->nstmt)
			addedge(g, from, g->blk[i + 1]);
	}
}

/* dom[i] = 1 when statement `at` runs before statement i on every path
 * from the entry.  NULL if f has no statements. */
uint8_t *
dominated(Func *f, uint32_t at)
{
	Cfg g = {0};
	uint8_t *out;

	if (!f->nstmt)
		return 0;
	build(f, &g);
	/* by block: does block `a` (at's) dominate it */
	uint32_t a = g.blk[at], n = g.n;
	uint8_t *d = malloc(n), changed = 1;
	for (uint32_t b = 0; b < n; b++)
		d[b] = b != 0 || a == 0;
	d[0] = a == 0;
	/* d[b]: a dominates b.  a dominates b iff b == a, or b != entry and
	 * a dominates every predecessor of b (unreached blocks: yes) */
	while (changed) {
		changed = 0;
		for (uint32_t b = 1; b < n; b++) {
			uint8_t v = 1;
			if (b != a) {
				v = g.npred[b] > 0;
				for (uint32_t k = 0; k < g.npred[b] && v; k++)
					v = d[g.pred[b][k]];
			}
			if (v != d[b])
				d[b] = v, changed = 1;
		}
	}
	out = calloc(f->nstmt, 1);
	for (uint32_t i = 0; i < f->nstmt; i++)
		out[i] = g.blk[i] == a ? i > at : d[g.blk[i]];
	free(d);
	for (uint32_t b = 0; b < n; b++)
		free(g.pred[b]);
	free(g.pred);
	free(g.npred);
	free(g.blk);
	free(g.first);
	return out;
}
