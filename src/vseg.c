/* vseg.c: one segment of the proof: between two fixed statements, B
 * holds A's statements permuted with every dependence kept, copies
 * replayed, constants repeated, a wgmma deferred to the next segment,
 * statements hoisted to an earlier one (validate.c states the claim). */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "valid.h"

/* An extra statement in B is harmless when it is a copy of a definition
 * in A whose value cannot change (vremat.c, vkonstants): it writes the value
 * the register already holds wherever A defines it at all. */
static int
konstant(Seg *g, Str t)
{
	for (uint32_t i = 0; i < g->nkonst; i++) {
		if (g->konst[i] != t)
			continue;
		if (g->kload[i] < 0)
			return 1;
		/* a load may fault where it never ran: only where it has
		 * surely run already */
		if (!*g->adom)
			*g->adom = domnew(g->fa);
		return domdominates(*g->adom, (uint32_t)g->kload[i], g->a0);
	}
	return 0;
}

int
vlccmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const Lc *)a)->t;
	uintptr_t y = (uintptr_t)((const Lc *)b)->t;

	return x < y ? -1 : x > y;
}

/* An extra statement in B that copies a definition of A reading a
 * register a loop changes (remat=loop): right if, where B runs it,
 * every register it reads holds what it held where A's definition ran.
 * That needs all of B placed, so it is noted here and proven at the
 * end (vremat.c, vloopvalues). */
int
vpending(Seg *g, Str t, uint32_t j)
{
	Lc key = {t, 0};
	const Lc *hit = g->nlc ? bsearch(&key, g->lc, g->nlc, sizeof key,
		vlccmp) : 0;
	Pend *p = g->pend;

	if (!hit)
		return 0;
	if (p->n + 2 > p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->v = xrealloc(p->v, p->cap * sizeof *p->v);
	}
	p->v[p->n++] = j;
	p->v[p->n++] = hit->i;
	return 1;
}

static void
offer(Seg *g, Str t, uint32_t b, int soft)
{
	Up *u = g->up;

	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 64;
		u->v = xrealloc(u->v, u->cap * sizeof *u->v);
	}
	u->v[u->n++] = (Cand){t, b, g->seg, 0, -1, soft, 0, {0}};
}

/* A's i-th statement of the segment, missing from B's: B's first
 * unclaimed statement of the same text in an earlier segment, if any
 * (proven by vhoisted() when the walk is done). */
static int
claim(Seg *g, Str t, uint32_t i)
{
	for (uint32_t k = 0; k < g->up->n; k++) {
		Cand *c = &g->up->v[k];
		if (c->a < 0 && c->t == t && c->seg < g->seg) {
			Stmt *e = &g->eff[i];   /* A's, copies replayed */
			c->a = (int32_t)g->orig[i];
			c->aseg = g->seg;
			c->plain = e->kind == Sins && !e->guard
				&& veffect(e) == Enone;
			if (e->kind == Sins)
				vaccess(e, &c->x);
			/* A lacks it here, so it is no copy of a definition
			 * A keeps: not remat=loop's, whose proof is dropped */
			for (uint32_t j = 0; c->soft && j < g->pend->n; j += 2)
				if (g->pend->v[j] == c->b)
					g->pend->v[j] = UINT32_MAX;
			return 1;
		}
	}
	return 0;
}

/* An unguarded .aligned instruction of opcode op (the whole warp runs
 * it together). */
int
vwarpop(const Stmt *s, int op)
{
	return s->kind == Sins && s->op == op && !s->guard
		&& vhas((Stmt *)s, ".aligned");
}

/* N of an unguarded .aligned wgmma.wait_group N (below 1000, in any
 * form ptxas reads: 010 is 8), or -1. */
static long
waitcount(const Stmt *s)
{
	int64_t n;

	if (!vwarpop(s, Owgmma_wait_group) || s->nop != 1
	|| s->opd[0].kind != Pint || s->opd[0].minus || s->opd[0].nsub
	|| !ptxint(s->opd[0].s, &n) || n > 999)
		return -1;
	return (long)n;
}

static int
waitzero(const Stmt *s)
{
	return waitcount(s) == 0;
}

/* A's i-th statement of the segment, missing from B's: a wgmma that B
 * may run in the next segment (proven by laterorder and deferred). */
static int
defer(Seg *g, Str t, uint32_t i)
{
	Later *l = g->later;

	if (!vwarpop(&g->eff[i], Owgmma_mma_async))
		return 0;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = (Late1){t, g->orig[i], g->seg, -1};
	return 1;
}

/* Before B's segment pairs with A's: its statements that are A's
 * wgmmas deferred from the segment before (the first unclaimed of
 * each text, in B's order), and the fence and commit right around
 * them, the group B gives them (deferred() proves it all). */
static void
claimlater(Seg *g, Str *tb)
{
	uint32_t p0 = UINT32_MAX, p1 = 0, q;

	for (uint32_t j = g->b0; j < g->b1; j++)
		for (uint32_t k = 0; k < g->later->n; k++) {
			Late1 *l = &g->later->v[k];
			if (l->b >= 0 || l->t != tb[j - g->b0]
			|| l->seg + 1 != g->seg)
				continue;
			l->b = (int32_t)j;
			g->amap[l->a] = (int32_t)j;
			g->wx[j] = 1;
			p0 = j < p0 ? j : p0;
			p1 = j > p1 ? j : p1;
			break;
		}
	if (p0 == UINT32_MAX)
		return;
	for (q = p0; q-- > g->b0;)      /* the nearest fence before */
		if (g->fb->stmt[q].kind == Sins
		&& g->fb->stmt[q].op == Owgmma_fence) {
			if (vwarpop(&g->fb->stmt[q], Owgmma_fence))
				g->wx[q] = 2;
			break;
		}
	for (q = p1 + 1; q < g->b1; q++)        /* the nearest commit after */
		if (g->fb->stmt[q].kind == Sins
		&& g->fb->stmt[q].op == Owgmma_commit_group) {
			if (vwarpop(&g->fb->stmt[q], Owgmma_commit_group))
				g->wx[q] = 2;
			break;
		}
	/* commits after it up to the wait B adds (a later group, which
	 * that wait may leave in flight: see deferred) */
	for (q++; q < g->b1 && !g->xb[q]; q++)
		if (vwarpop(&g->fb->stmt[q], Owgmma_commit_group))
			g->wx[q] = 3;
}

/* A .loc right before another describes no instruction: one the
 * rewrite adds (locfix, so that ptxas finds an inlined_at's location
 * on an earlier line) changes neither what runs nor the line table. */
static int
emptyloc(Func *f, uint32_t j)
{
	return f->stmt[j].kind == Sloc && j + 1 < f->nstmt
		&& f->stmt[j + 1].kind == Sloc;
}

/* e: an empty .loc (emptyloc), paired last among its text's, so that
 * what is left over of a text is one the rewrite may have added */
typedef struct Tj { Str t; uint32_t j; uint8_t e; } Tj;

static int
tjcmp(const void *a, const void *b)
{
	const Tj *x = a, *y = b;

	if (x->t != y->t)
		return (uintptr_t)x->t < (uintptr_t)y->t ? -1 : 1;
	if (x->e != y->e)
		return x->e < y->e ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

/* Where the run of text t starts in sb (sorted by tjcmp), or where it
 * would. */
static uint32_t
runstart(const Tj *sb, uint32_t ns, Str t)
{
	uint32_t lo = 0, hi = ns;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)sb[mid].t < (uintptr_t)t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether an earlier segment of B left a statement over that no one
 * has claimed (claim() could take one). */
static int
offered(const Seg *g)
{
	for (uint32_t k = 0; k < g->up->n; k++)
		if (g->up->v[k].a < 0 && g->up->v[k].seg < g->seg)
			return 1;
	return 0;
}

/* first[i]: A's i-th statement of the segment is among the first of
 * its text there, as many as B's segment lacks of it (A's count less
 * B's, in sb). */
static void
surplus(Str *ta, uint32_t na, const Tj *sb, uint32_t ns, uint8_t *first)
{
	Tj *sa = xmalloc((na + 1) * sizeof *sa);

	for (uint32_t i = 0; i < na; i++)
		sa[i] = (Tj){ta[i], i, 0};
	if (na)
		qsort(sa, na, sizeof *sa, tjcmp);
	for (uint32_t i = 0, r; i < na; i = r) {
		uint32_t lo = runstart(sb, ns, sa[i].t), nb = 0;
		while (lo + nb < ns && sb[lo + nb].t == sa[i].t)
			nb++;
		for (r = i; r < na && sa[r].t == sa[i].t; r++)
			;
		for (uint32_t k = i; k < r; k++)
			first[sa[k].j] = k - i + nb < r - i;
	}
	free(sa);
}

/* A copy of a read-only load (vkonstants) left over in B's segment,
 * pos[] paired and j its place: right where B ran the load itself
 * before it, in an earlier segment or earlier in this one.  A segment
 * is straight-line code (a branch, and a label one names, is fixed),
 * so the load has surely run there.  konstant() asks that the load
 * dominate the segment's start, which a segment spanning a barrier
 * misses (fo79: remat=loop put the copy after a bar.sync that, in a
 * kernel with tcgen05.ld, lies inside the segment). */
static int
ranbefore(Seg *g, Str t, const uint32_t *pos, uint32_t j)
{
	for (uint32_t k = 0; k < g->nkonst; k++) {
		if (g->konst[k] != t || g->kload[k] < 0)
			continue;
		for (uint32_t i = 0; i < g->n; i++)
			if (g->orig[i] == (uint32_t)g->kload[k])
				return pos[i] == Pup
					|| (pos[i] != Plater && pos[i] < j);
		return 0;
	}
	return 0;
}

/* Pairs each statement of A's segment with one of B's equal text, the
 * k-th occurrence with the k-th; pos[i] is its place in B.  Where B's
 * segment has fewer of a text than A's and an earlier segment of B
 * has one left over, the first of A's are the ones B runs earlier: a
 * hoist keeps equal statements in their order (each writes what the
 * other writes), so the ones that rose are the first (fo58: paired
 * from the front, the last of two equal converts was taken for the
 * one that rose, and the first for one that stayed, after a read). */
static int
pairup(Seg *g, Str *ta, Str *tb, uint32_t *pos)
{
	uint32_t na = g->n, nb = g->b1 - g->b0;
	uint8_t *used = calloc(nb + 1, 1);
	Str fixed = g->a1 < g->fa->nstmt ? vtext(g->fa, &g->fa->stmt[g->a1])
		: "the end";
	/* B's statements sorted by text, then place: each text's run is
	 * taken in B's order, so the k-th of A pairs with the k-th of B
	 * without a scan per statement (segments run to thousands) */
	Tj *sb = xmalloc((nb + 1) * sizeof *sb);
	uint32_t *next = xmalloc((nb + 1) * sizeof *next);

	uint32_t ns = 0;

	claimlater(g, tb);      /* they and their group pair with nothing */
	for (uint32_t j = 0; j < nb; j++)
		if (!g->wx[g->b0 + j])
			sb[ns++] = (Tj){tb[j], j, (uint8_t)emptyloc(g->fb,
				g->b0 + j)};
	if (ns)
		qsort(sb, ns, sizeof *sb, tjcmp);
	for (uint32_t j = 0; j < ns; j++)    /* next[run start]: cursor */
		next[j] = j;
	uint8_t *first = calloc(na + 1, 1);
	if (!first)
		die("out of memory");
	if (offered(g))         /* else nothing can be claimed */
		surplus(ta, na, sb, ns, first);
	for (uint32_t i = 0; i < na; i++) {
		if (first[i] && claim(g, ta[i], i)) {
			pos[i] = Pup;
			continue;
		}
		uint32_t lo = runstart(sb, ns, ta[i]); /* ta[i]'s run */
		uint32_t k = lo < ns && sb[lo].t == ta[i] ? next[lo] : ns;
		if ((k == ns || sb[k].t != ta[i]) && claim(g, ta[i], i)) {
			pos[i] = Pup;   /* B runs it before the segment */
			continue;
		}
		if ((k == ns || sb[k].t != ta[i]) && defer(g, ta[i], i)) {
			pos[i] = Plater;        /* B runs it after */
			continue;
		}
		if (k == ns || sb[k].t != ta[i]) {
			free(used);
			free(sb);
			free(next);
			free(first);
			bprintf(g->why, "%s: line %u: '%s' is missing here: "
				"moved across '%s', changed, or removed without "
				"proof\n", g->fa->name,
				g->fa->stmt[g->orig[i]].pos.line, ta[i], fixed);
			return -1;
		}
		next[lo] = k + 1;
		used[sb[k].j] = 1;
		pos[i] = sb[k].j;
	}
	free(sb);
	free(next);
	free(first);
	/* what is left over may be A's, run earlier (hoist): offered to
	 * the later segments; a constant's copy or remat=loop's may stay
	 * unclaimed (soft) */
	for (uint32_t j = 0; j < nb; j++)
		if (!used[j] && !g->xb[g->b0 + j] && !g->wx[g->b0 + j])
			offer(g, tb[j], g->b0 + j, konstant(g, tb[j])
				|| ranbefore(g, tb[j], pos, j)
				|| vpending(g, tb[j], g->b0 + j)
				|| emptyloc(g->fb, g->b0 + j));
	free(used);
	return 0;
}

static int
regorder(Seg *g, Acc *acc, uint32_t n)
{
	/* for each register, in A's order: each write stays after every
	 * access since the previous write, and before every later access
	 * up to the next write */
	int32_t *lastw = g->lastw;  /* per function; only the segment's
	                             * registers are set up and read */
	uint32_t *maxr = g->maxr;
	uint8_t *seen = g->seen;
	int rc = 0;

	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < acc[i].nuse; k++) {
			int32_t r = acc[i].use[k];
			lastw[r] = -1, maxr[r] = 0, seen[r] = 0;
		}
		for (uint32_t k = 0; k < acc[i].ndef; k++) {
			int32_t r = acc[i].def[k];
			lastw[r] = -1, maxr[r] = 0, seen[r] = 0;
		}
	}
	for (uint32_t i = 0; i < n && !rc; i++) {
		Acc *a = &acc[i];
		for (uint32_t k = 0; k < a->nuse && !rc; k++) {
			int32_t r = a->use[k];
			if (lastw[r] >= 0 && acc[lastw[r]].pos > a->pos)
				rc = -1;
			if (!seen[r] || a->pos > maxr[r])
				maxr[r] = a->pos;
			seen[r] = 1;
		}
		for (uint32_t k = 0; k < a->ndef && !rc; k++) {
			int32_t r = a->def[k];
			if (lastw[r] >= 0 && acc[lastw[r]].pos > a->pos)
				rc = -1;
			if (seen[r] && maxr[r] > a->pos)
				rc = -1;
			lastw[r] = (int32_t)i;
			seen[r] = 1;
			maxr[r] = a->pos;
		}
		if (rc)
			vfail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
				"'%s' crosses an access to a register it shares",
				a->text);
	}
	return rc;
}

/* A wgmma.mma_async reads registers and, asynchronously, shared
 * memory, which a generic-proxy access reaches only through a proxy
 * fence (an ordering effect): a collective or a plain load may cross
 * it either way, and so may a wgmma.fence when another fence still
 * stands in B between it and every earlier access to its accumulators
 * and A fragments (fenced).  Statements x and y of the segment: 1 they
 * may cross, 2 they may if that holds for the wgmma, *w; else 0. */
static int
wgcross(Seg *g, uint32_t x, uint32_t y, uint32_t *w)
{
	Stmt *a = &g->eff[x], *b = &g->eff[y], *o;

	if (a->kind != Sins || b->kind != Sins)
		return 0;
	if (a->op == Owgmma_mma_async && b->op != Owgmma_mma_async)
		*w = x, o = b;
	else if (b->op == Owgmma_mma_async && a->op != Owgmma_mma_async)
		*w = y, o = a;
	else
		return 0;
	if (vcoll(veffect(o)) || veffect(o) == Eread)
		return 1;
	return vwarpop(o, Owgmma_fence) ? 2 : 0;
}

static int
fenced(Seg *g, uint32_t i)
{
	int32_t bj = g->amap[g->orig[i]];
	Func *fb = g->fb;
	Iv v = {0};
	Acc a = {0};
	int rc = -1;

	if (bj < 0)
		return -1;
	Stmt *w = &fb->stmt[bj];
	vcollect(&w->opd[0], &v);
	if (w->nop > 1 && w->opd[1].kind == Pvec)
		vcollect(&w->opd[1], &v);
	for (uint32_t q = (uint32_t)bj; q-- > g->b0 && rc < 0;) {
		Stmt *s = &fb->stmt[q];
		if (s->kind != Sins)
			continue;
		if (vwarpop(s, Owgmma_fence)) {
			rc = 0;
			break;
		}
		if (s->op == Owgmma_mma_async || s->op == Owgmma_commit_group
		|| s->op == Owgmma_wait_group)
			continue;
		vaccess(s, &a);
		for (uint32_t k = 0; k < v.n && rc < 0; k++) {
			for (uint32_t j = 0; j < a.ndef; j++)
				if (a.def[j] == v.v[k])
					rc = 1;
			for (uint32_t j = 0; j < a.nuse; j++)
				if (a.use[j] == v.v[k])
					rc = 1;
		}
		accfree(&a);
	}
	free(v.v);
	return rc ? vfail(g->why, fb, w, "'%s' crosses a wgmma.fence, and no "
		"other stands between it and what its registers last saw",
		vtext(fb, w)) : 0;
}

static int
otherorder(Seg *g, Acc *acc, uint8_t *mv, uint32_t n)
{
	uint32_t *mem = xmalloc((n + 1) * sizeof *mem), nm = 0;
	int32_t lastlab = -1;

	for (uint32_t i = 0; i < n; i++) {
		if (mv[g->orig[i]] == 2) {
			if (lastlab >= 0 && acc[lastlab].pos > acc[i].pos) {
				free(mem);
				return vfail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
					"debug label '%s' moved across another",
					acc[i].text);
			}
			lastlab = (int32_t)i;
		}
		if (acc[i].eff == Enone || mv[g->orig[i]] != 1)
			continue;
		for (uint32_t k = 0; k < nm; k++) {
			uint32_t w = 0;
			int x;
			if (!vmemorder(&acc[mem[k]], &acc[i])
			|| acc[mem[k]].pos < acc[i].pos)
				continue;
			if ((x = wgcross(g, mem[k], i, &w)) == 1)
				continue;
			if (x == 2 && !fenced(g, w))
				continue;
			if (x == 2) {
				free(mem);
				return -1;
			}
			{
				free(mem);
				return vfail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
					"'%s' crosses a memory or ordering effect",
					acc[i].text);
			}
		}
		mem[nm++] = i;
	}
	free(mem);
	return 0;
}

static int
waitorder(Seg *g, Stmt *eff, Acc *acc, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int bit = eff[i].kind != Sins ? 0
			: eff[i].op == Otcgen05_wait_ld ? 1
			: eff[i].op == Otcgen05_wait_st ? 2 : 0;
		for (uint32_t j = 0; bit && j < n; j++)
			if (j != i && vtmemtouch(&acc[j], g->tm, bit)
			&& (j < i) != (acc[j].pos < acc[i].pos))
				return vfail(g->why, g->fa, &g->fa->stmt[g->orig[j]],
					"'%s' crosses a tcgen05 wait for its "
					"registers", acc[j].text);
	}
	return 0;
}

/* A wgmma.fence orders the register accesses before it against the
 * wgmma.mma_async after it; an access to a wgmma's accumulators or A
 * fragments moved across one may race with the wgmma's own (PTX wants
 * a fence between a thread's access to those registers and a wgmma
 * that names them).  So every such access of the segment, the wgmmas'
 * own aside, keeps its side of every fence.  (Before, arithmetic had no
 * ordering effect and crossed fences freely: moving O's rescale below
 * a group's fence, between its chains, was proven.) */
static int
fenceorder(Seg *g, Stmt *eff, Acc *acc, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!vwarpop(&eff[i], Owgmma_fence))
			continue;
		for (uint32_t j = 0; j < n; j++) {
			Stmt *s = &eff[j];
			if (j == i || s->kind != Sins
			|| s->op == Owgmma_mma_async
			|| !vtmemtouch(&acc[j], g->tm, 4))
				continue;
			if ((j < i) != (acc[j].pos < acc[i].pos))
				return vfail(g->why, g->fa,
					&g->fa->stmt[g->orig[j]], "'%s' crosses "
					"a wgmma.fence for the wgmma registers "
					"it touches", acc[j].text);
		}
	}
	return 0;
}

/* ---- deferred wgmma (wgsplit.c) ----
 * A wgmma.mma_async W that A runs in segment k, B in segment k + 1 in a
 * group of its own, computes what it did when
 *   - in A, the segment ends at an unguarded wgmma.wait_group 0 (W is
 *     complete there) and after W come only register arithmetic, warp
 *     collectives, plain loads (a read does not order against W's
 *     reads), wgmma.mma_async and a wgmma.commit_group that closes
 *     W's group, none of them touching W's registers (regorder, with W
 *     placed after the whole segment);
 *   - in B, the deferred wgmmas keep A's order, after a wgmma.fence
 *     and before a wgmma.commit_group and an added wgmma.wait_group N,
 *     N at most the commits B adds between the two (so their group is
 *     complete there while N later ones may run on), and every
 *     statement of the
 *     segment up to
 *     that wait is register arithmetic, a warp collective or a plain
 *     load that neither writes a register of theirs nor reads what
 *     they write.
 * So W reads the same registers and the same memory (nothing between
 * writes memory or orders against the async proxy), and what reads its
 * results still runs after it completes. */

/* Whether segment seg - 1 deferred wgmmas (the next wait B adds is
 * their group's). */
int
vlaterpending(const Later *l, uint32_t seg)
{
	for (uint32_t k = 0; k < l->n; k++)
		if (l->v[k].b < 0 && l->v[k].seg + 1 == seg)
			return 1;
	return 0;
}

/* In A's segment: what a deferred wgmma crosses. */
static int
laterorder(Seg *g, Stmt *eff, const uint32_t *pos, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int commit = 0;
		if (pos[i] != Plater)
			continue;
		if (g->a1 >= g->fa->nstmt || !waitzero(&g->fa->stmt[g->a1]))
			return vfail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
				"'%s' runs in a later segment, but its own does "
				"not end at a wgmma.wait_group 0",
				vtext(g->fa, &eff[i]));
		for (uint32_t j = i + 1; j < n; j++) {
			Stmt *s = &eff[j];
			if (s->kind != Sins || s->op == Owgmma_mma_async)
				continue;
			if (vwarpop(s, Owgmma_commit_group)) {
				commit = 1;
				continue;
			}
			if (veffect(s) != Enone && !vcoll(veffect(s))
			&& veffect(s) != Eread)
				return vfail(g->why, g->fa,
					&g->fa->stmt[g->orig[i]], "'%s' runs "
					"in a later segment across a memory or "
					"ordering effect", vtext(g->fa, &eff[i]));
		}
		if (!commit)
			return vfail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
				"'%s' runs in a later segment, but no commit "
				"closes its group", vtext(g->fa, &eff[i]));
	}
	return 0;
}

/* Statement s of B may run before (or among) the deferred wgmmas:
 * registers or collectives only, none of theirs (r: 1 they write it,
 * 2 they read it).  Returns 0, or fails. */
static int
beside(Seg *g, Stmt *s, const uint8_t *r)
{
	Acc a = {0};
	int rc = 0;

	if (s->kind != Sins)
		return 0;
	/* a plain load reads, as the wgmma does: no order between them;
	 * nor with another wgmma (wgsplit=pv's, which joins the group) */
	if (veffect(s) != Enone && !vcoll(veffect(s)) && veffect(s) != Eread
	&& !vwarpop(s, Owgmma_mma_async))
		return vfail(g->why, g->fb, s, "'%s' runs before a deferred "
			"wgmma but has a memory or ordering effect",
			vtext(g->fb, s));
	vaccess(s, &a);
	/* a constant's copy (remat) writes what the register holds, and
	 * so does remat=loop's, proven at the end (vloopvalues) */
	int same = konstant(g, vtext(g->fb, s));
	for (uint32_t k = 0; !same && k < g->pend->n; k += 2)
		same = g->pend->v[k] != UINT32_MAX
			&& &g->fb->stmt[g->pend->v[k]] == s;
	for (uint32_t k = 0; k < a.ndef && !rc; k++)
		if (same ? r[a.def[k]] & 1 : r[a.def[k]])
			rc = vfail(g->why, g->fb, s, "'%s' writes a register of "
				"a deferred wgmma before it", vtext(g->fb, s));
	for (uint32_t k = 0; k < a.nuse && !rc; k++)
		if (r[a.use[k]] & 1)
			rc = vfail(g->why, g->fb, s, "'%s' reads what a deferred "
				"wgmma writes before it", vtext(g->fb, s));
	accfree(&a);
	return rc;
}

/* In B's segment: the group it gives the deferred wgmmas. */
static int
deferred(Seg *g)
{
	Func *fb = g->fb;
	uint32_t p0 = UINT32_MAX, p1 = 0, nx = 0, nc = 0, last = 0, q;
	uint32_t fence = UINT32_MAX, commit = UINT32_MAX, wait = UINT32_MAX;
	int rc = 0;

	for (uint32_t k = 0; k < g->later->n; k++) {
		Late1 *l = &g->later->v[k];
		if (l->seg + 1 != g->seg)
			continue;
		if (l->b < 0)
			return vfail(g->why, g->fa, &g->fa->stmt[l->a], "'%s' "
				"is missing here and from the next segment",
				l->t);
		if ((uint32_t)l->b < last)
			return vfail(g->why, fb, &fb->stmt[l->b], "'%s' runs "
				"later, out of its order", l->t);
		last = (uint32_t)l->b;
		p0 = (uint32_t)l->b < p0 ? (uint32_t)l->b : p0;
		p1 = (uint32_t)l->b > p1 ? (uint32_t)l->b : p1;
	}
	for (q = g->b0; q < g->b1; q++) {
		nx += g->wx[q] == 2;
		nc += g->wx[q] == 3;
		if (g->wx[q] == 2 && q < p0)
			fence = q;
		if (g->wx[q] == 2 && q > p1 && commit == UINT32_MAX)
			commit = q;
		if (commit != UINT32_MAX && q > commit && g->xb[q]
		&& wait == UINT32_MAX)
			wait = q;
	}
	if (p0 == UINT32_MAX)
		return nx ? vfail(g->why, fb, &fb->stmt[g->b0], "%s",
			"a wgmma fence or commit the original lacks") : 0;
	if (!g->a0 || !waitzero(&g->fa->stmt[g->a0 - 1]))
		return vfail(g->why, fb, &fb->stmt[p0], "%s", "a wgmma runs "
			"after a fixed statement that is no wgmma.wait_group 0");
	if (nx != 2 || fence == UINT32_MAX || commit == UINT32_MAX
	|| wait == UINT32_MAX || fb->stmt[fence].op != Owgmma_fence
	|| fb->stmt[commit].op != Owgmma_commit_group
	|| waitcount(&fb->stmt[wait]) < 0
	|| waitcount(&fb->stmt[wait]) > (long)nc)
		return vfail(g->why, fb, &fb->stmt[p0], "%s", "deferred "
			"wgmmas need a fence before them, and a commit and a "
			"wait after them that completes their group, added");
	/* up to their wait: registers and collectives only, none of
	 * theirs (1 they write it, 2 they read it); so the fence is
	 * between every other access to their registers and them */
	uint8_t *r = calloc(fb->nreg + 1, 1);
	Acc a = {0};
	for (q = p0; q <= p1; q++) {
		if (g->wx[q] != 1)
			continue;
		vaccess(&fb->stmt[q], &a);
		for (uint32_t k = 0; k < a.nuse; k++)
			r[a.use[k]] |= 2;
		for (uint32_t k = 0; k < a.ndef; k++)
			r[a.def[k]] |= 1;
		accfree(&a);
	}
	for (q = g->b0; q < wait && !rc; q++)
		if (!g->wx[q])
			rc = beside(g, &fb->stmt[q], r);
	free(r);
	return rc;
}

int
vsegment(Seg *g, uint8_t *mv)
{
	uint32_t na = g->a1 - g->a0, nb = g->b1 - g->b0;
	Str *ta = xmalloc((na + 1) * sizeof *ta);
	Str *tb = xmalloc((nb + g->up->n + 1) * sizeof *tb);
	uint32_t *pos = xmalloc((na + 1) * sizeof *pos);
	Acc *acc = calloc(na + 1, sizeof *acc);
	Stmt *eff = xmalloc((na + 1) * sizeof *eff);
	uint32_t *orig = xmalloc((na + 1) * sizeof *orig);
	Arena *ar = anew();
	int rc = 0;

	for (uint32_t j = 0; j < nb; j++)
		tb[j] = vtext(g->fb, &g->fb->stmt[g->b0 + j]);
	/* and what B runs earlier, unclaimed: a statement that rose is no
	 * removed copy (hoist raised a pack across a bar.sync; vcopies took
	 * it for a removed pack still read: hoist-pack.ptx) */
	uint32_t nt = nb;
	for (uint32_t k = 0; k < g->up->n; k++)
		if (g->up->v[k].a < 0 && g->up->v[k].seg < g->seg)
			tb[nt++] = g->up->v[k].t;
	int32_t n = vcopies(g->fa, g->tally, g->vscratch, g->a0, g->a1, tb,
		nt, eff, orig, ar, g->why);
	if (n < 0)
		rc = -1, n = 0;
	g->orig = orig;
	g->eff = eff;
	g->n = (uint32_t)n;
	for (int32_t i = 0; i < n; i++)
		ta[i] = vtext(g->fa, &eff[i]);
	if (!rc)
		rc = pairup(g, ta, tb, pos);
	for (int32_t i = 0; !rc && i < n; i++) {
		int up = pos[i] == Pup, late = pos[i] == Plater;
		if (late)
			;       /* amap: set where B's segment claims it */
		else if (up) {       /* where B runs it: its claimed candidate */
			for (uint32_t k = 0; k < g->up->n; k++)
				if (g->up->v[k].a == (int32_t)orig[i])
					g->amap[orig[i]] = (int32_t)g->up->v[k].b;
		} else
			g->amap[orig[i]] = (int32_t)(g->b0 + pos[i]);
		if (eff[i].kind == Sins)
			vaccess(&eff[i], &acc[i]);
		/* a statement B runs before the segment comes before all of
		 * it: regorder then checks what A ran before it here */
		acc[i].pos = up ? 0 : pos[i] + 1;
		acc[i].text = ta[i];
		/* one B runs after the segment comes after all of it; what
		 * it crosses laterorder checks, not the ordering rules */
		if (late) {
			acc[i].pos = nb + 1;
			acc[i].eff = Enone;
		}
	}
	if (!rc)
		rc = regorder(g, acc, (uint32_t)n);
	if (!rc)
		rc = otherorder(g, acc, mv, (uint32_t)n);
	if (!rc)
		rc = waitorder(g, eff, acc, (uint32_t)n);
	if (!rc)
		rc = fenceorder(g, eff, acc, (uint32_t)n);
	if (!rc)
		rc = laterorder(g, eff, pos, (uint32_t)n);
	if (!rc)
		rc = deferred(g);
	for (int32_t i = 0; i < n; i++) {
		accfree(&acc[i]);
	}
	afree(ar);
	free(eff);
	free(orig);
	free(acc);
	free(pos);
	free(ta);
	free(tb);
	return rc;
}
