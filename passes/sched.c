/* sched.c: list schedulers that reorder each region for register
 * pressure.
 *
 * needs:  eachregion (dag.c)
 * breaks: statement order inside regions (every dependence kept)
 * paper:  list scheduling (Gibbons & Muchnick 1986); the pressure
 *         heuristics of LLVM's GenericScheduler (pressure delta per
 *         candidate, then source order) and of Sethi-Ullman.
 *
 * Two engines.  Bottom-up starts from what is live after the region and
 * picks, among the instructions whose users are all placed, the one
 * that grows the live set least.  Top-down picks, among the ready ones,
 * the one that frees most (last uses) for what it defines.  A strategy
 * is an engine plus a score; a seed adds noise to the score so that
 * ptxas, the real judge, can be shown many legal orders. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

typedef struct Ctx {
	const Sched *how;
	Sched pick;              /* Smix: this region's choice */
	int32_t *frag;           /* Sfrag: fragment of each node, or -1 */
	uint64_t rng;
	uint8_t *live;           /* per register: live now (bottom-up) */
	uint32_t *left;          /* per register: uses not yet placed (td) */
	uint8_t *out;            /* per register: live after the region */
	uint32_t *nuse;          /* per register: reads in the function */
	uint32_t *cnt;           /* liveout's scratch: reads in the region */
	uint8_t *def;            /* liveout's scratch: written in it yet */
	uint32_t *ubeg, *uend;   /* userlists' per register, 0 outside */
	uint32_t moved;
} Ctx;

static uint64_t
rnd(Ctx *c)
{
	c->rng ^= c->rng << 13;
	c->rng ^= c->rng >> 7;
	c->rng ^= c->rng << 17;
	return c->rng;
}

static int
units(Func *f, int32_t r)
{
	return f->reg[r].units ? f->reg[r].units : 1;
}

/* Registers read outside [first, end), or read in it before written
 * (in a loop they come back around): treated as live after it.  Reads
 * outside are the function's reads (c->nuse, counted once) less the
 * region's own, so a region costs its own size, not the function's.
 * Only registers of the region are marked: the scores read no other. */
static void
liveout(Ctx *c, Dag *g, uint8_t *out)
{
	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->nuse; k++) {
			int32_t r = n->use[k];
			c->cnt[r]++;
			if (!c->def[r])
				out[r] = 1;
		}
		for (uint32_t k = 0; k < n->ndef; k++)
			c->def[n->def[k]] = 1;
	}
	/* only the region's own registers matter to the scores */
	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->nuse; k++)
			if (c->cnt[n->use[k]] < c->nuse[n->use[k]])
				out[n->use[k]] = 1;
		for (uint32_t k = 0; k < n->ndef; k++)
			if (c->cnt[n->def[k]] < c->nuse[n->def[k]])
				out[n->def[k]] = 1;
	}
	for (uint32_t i = 0; i < g->nnode; i++) {   /* clean for the next */
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->nuse; k++)
			c->cnt[n->use[k]] = 0;
		for (uint32_t k = 0; k < n->ndef; k++)
			c->def[n->def[k]] = 0;
	}
}

/* Bottom-up: the change in live units if n is placed next (above what
 * is placed): its uses become live, its defs die. */
static long
budelta(Func *f, Ctx *c, Node *n)
{
	long d = 0;

	for (uint32_t k = 0; k < n->nuse; k++)
		if (!c->live[n->use[k]])
			d += units(f, n->use[k]);
	for (uint32_t k = 0; k < n->ndef; k++)
		if (c->live[n->def[k]])
			d -= units(f, n->def[k]);
	return d;
}

/* Top-down: units freed by its last uses minus units it defines. */
static long
tdgain(Func *f, Ctx *c, Node *n)
{
	long d = 0;

	for (uint32_t k = 0; k < n->nuse; k++) {
		int32_t r = n->use[k];
		if (c->left[r] == 1 && !c->out[r])
			d += units(f, r);
	}
	for (uint32_t k = 0; k < n->ndef; k++)
		d -= units(f, n->def[k]);
	return d;
}

/* Larger is better.  Source order breaks ties: the latest first going
 * up, the earliest first going down, so an order with nothing to gain
 * stays as it was. */
static double
score(Func *f, Ctx *c, Dag *g, uint32_t i, int up)
{
	Node *n = &g->node[i];
	double s = 0, order = (double)i / (g->nnode + 1);

	switch (c->pick.kind) {
	case Spressure:
		s = up ? -(double)budelta(f, c, n) : (double)tdgain(f, c, n);
		break;
	case Ssink:
		/* going up, loads and their address math are picked first,
		 * so they land just above their users */
		s = up && (n->klass == Kld) ? 1000 : 0;
		break;
	case Ssource:
		break;
	case Sfrag:
		/* the earliest fragment first; outside the chains, source
		 * order */
		s = c->frag[i] >= 0 ? -(double)c->frag[i] * 1e3 : 0;
		break;
	}
	if (c->pick.noise > 0)
		s += c->pick.noise * (double)(rnd(c) % 1000) / 1000.0;
	return s + (up ? order : -order) * 1e-3;
}

static void
place(Func *f, Ctx *c, Node *n, int up)
{
	for (uint32_t k = 0; k < n->ndef; k++)
		if (up)
			c->live[n->def[k]] = 0;
	for (uint32_t k = 0; k < n->nuse; k++) {
		if (up)
			c->live[n->use[k]] = 1;
		else
			c->left[n->use[k]]--;
	}
	UNUSED(f);
}

/* The softmax step comes in bulk: 32-128 ex2.approx, then converts and
 * a row sum far below.  Number the ex2s in F fragments in source order;
 * what they feed (converts, sums, stores of P) belongs to the latest
 * fragment it depends on, what feeds them (the scaling FMAs, the loads
 * of S) to the earliest that needs it.  Scheduling fragment by
 * fragment, top-down, makes each fragment's fp32 values die before the
 * next one's are born: fmha.py's quarters, derived from the PTX. */
static int
fragments(Func *f, Dag *g, int32_t *frag, int F)
{
	uint32_t n = g->nnode, nex = 0, k = 0;

	for (uint32_t i = 0; i < n; i++) {
		frag[i] = -1;
		Node *x = &g->node[i];
		if (!x->marker && f->stmt[x->last].op == Oex2)
			nex++;
	}
	if (nex < 8)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		Node *x = &g->node[i];
		if (!x->marker && f->stmt[x->last].op == Oex2)
			frag[i] = (int32_t)((uint64_t)k++ * F / nex);
	}
	/* forward: consumers take the latest fragment they depend on */
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < g->node[i].nsucc && frag[i] >= 0; j++) {
			uint32_t y = g->node[i].succ[j];
			if (g->node[y].klass != Kpure && g->node[y].klass != Kst
			&& g->node[y].klass != Kord)
				continue;
			if (frag[y] < frag[i])
				frag[y] = frag[i];
		}
	/* backward: pure producers take the earliest fragment needing them */
	for (uint32_t i = n; i-- > 0;) {
		if (frag[i] >= 0 || (g->node[i].klass != Kpure
		&& g->node[i].klass != Kld))
			continue;
		int32_t m = -1;
		for (uint32_t j = 0; j < g->node[i].nsucc; j++) {
			int32_t y = frag[g->node[i].succ[j]];
			if (y >= 0 && (m < 0 || y < m))
				m = y;
		}
		frag[i] = m;
	}
	return 1;
}

/* The k-th register n names: its definitions, then its uses. */
static int32_t
noderg(const Node *n, uint32_t k)
{
	return k < n->ndef ? n->def[k] : n->use[k - n->ndef];
}

/* The nodes that name each register, as lists in one array: register
 * r's are v[ubeg[r] - 1, uend[r]).  For rescoring: placing a node
 * changes the scores of only the nodes that share a register with it. */
static uint32_t *
userlists(Ctx *c, Dag *g)
{
	uint32_t total = 0, pos = 0, *v;

	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->ndef + n->nuse; k++) {
			int32_t r = noderg(n, k);
			c->uend[r]++, total++;          /* a count, first */
		}
	}
	v = xmalloc((total + 1) * sizeof *v);
	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->ndef + n->nuse; k++) {
			int32_t r = noderg(n, k);
			if (!c->ubeg[r]) {
				c->ubeg[r] = pos + 1;
				pos += c->uend[r];
				c->uend[r] = c->ubeg[r] - 1;
			}
			v[c->uend[r]++] = i;
		}
	}
	return v;
}

static void
userfree(Ctx *c, Dag *g, uint32_t *v)
{
	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->ndef; k++)
			c->ubeg[n->def[k]] = c->uend[n->def[k]] = 0;
		for (uint32_t k = 0; k < n->nuse; k++)
			c->ubeg[n->use[k]] = c->uend[n->use[k]] = 0;
	}
	free(v);
}

/* The ready nodes by score, best on top: a binary heap that knows
 * where each node sits (pos, -1 when not in it), so that a node whose
 * score changed moves to its new place. */
typedef struct Heap {
	uint32_t *v, n;
	int32_t *pos;
	const double *key;
} Heap;

static int
above(const Heap *h, uint32_t a, uint32_t b)    /* a before b */
{
	return h->key[a] > h->key[b] || (h->key[a] == h->key[b] && a < b);
}

static void
hset(Heap *h, uint32_t i, uint32_t x)
{
	h->v[i] = x;
	h->pos[x] = (int32_t)i;
}

static void
hfix(Heap *h, uint32_t x)       /* x's key changed: up or down */
{
	uint32_t i = (uint32_t)h->pos[x];

	while (i > 0 && above(h, x, h->v[(i - 1) / 2])) {
		hset(h, i, h->v[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && above(h, h->v[c + 1], h->v[c]))
			c++;
		if (!above(h, h->v[c], x))
			break;
		hset(h, i, h->v[c]);
		i = c;
	}
	hset(h, i, x);
}

static void
hpush(Heap *h, uint32_t x)
{
	hset(h, h->n++, x);
	hfix(h, x);
}

static uint32_t
hpop(Heap *h)
{
	uint32_t x = h->v[0], last = h->v[--h->n];

	h->pos[x] = -1;
	if (h->n) {
		hset(h, 0, last);
		hfix(h, last);
	}
	return x;
}

/* What a pressure score reads of register r: live going up, a last
 * use pending going down (tdgain). */
static int
rstate(Ctx *c, int32_t r, int up)
{
	return up ? c->live[r] : c->left[r] == 1;
}

/* Scores anew the ready nodes that name a register whose state placing
 * x changed (was[k]: the state of x's k-th register before), the only
 * ones whose pressure score changed.  A base address read by hundreds
 * of loads stays live once live: placing one of them rescores none. */
static void
rescore(Func *f, Ctx *c, Dag *g, uint32_t x, int up, const uint32_t *v,
	const uint8_t *was, Heap *h, double *sc)
{
	Node *n = &g->node[x];

	for (uint32_t k = 0; k < n->ndef + n->nuse; k++) {
		int32_t r = noderg(n, k);
		if (rstate(c, r, up) == was[k])
			continue;
		for (uint32_t j = c->ubeg[r] - 1; j < c->uend[r]; j++) {
			uint32_t y = v[j];
			if (h->pos[y] >= 0) {
				sc[y] = score(f, c, g, y, up);
				hfix(h, y);
			}
		}
	}
}

/* The predecessor lists: successor lists point down, going up needs
 * the other direction. */
static uint32_t **
preds(Dag *g, uint32_t **npred)
{
	uint32_t n = g->nnode, **pred = xmalloc((n + 1) * sizeof *pred);
	uint32_t total = 0, *v;

	*npred = calloc(n, sizeof **npred);
	for (uint32_t i = 0; i < n; i++)
		total += g->node[i].npred;
	v = xmalloc((total + 1) * sizeof *v);  /* one block, freed by pred[0] */
	for (uint32_t i = 0; i < n; i++) {
		pred[i] = v;
		v += g->node[i].npred;
	}
	if (!n)
		pred[0] = v;
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < g->node[i].nsucc; j++) {
			uint32_t s = g->node[i].succ[j];
			pred[s][(*npred)[s]++] = i;
		}
	return pred;
}

/* Fills ord[] with the schedule, top to bottom.  Without noise a score
 * is a function of the placed set, kept per ready node and made anew
 * only where a placement changed it, and the best comes off a heap.
 * The choice is the one a scan of the ready nodes would make: scores
 * never tie, as each carries its node's source position in its last
 * digits.  With noise, every score is drawn anew each step, in the
 * order that defines the seed's sequence. */
static void
listsched(Func *f, Ctx *c, Dag *g, uint32_t *ord, int up)
{
	uint32_t n = g->nnode, nready = 0, k = 0, *npred = 0;
	uint32_t *ready = xmalloc(n * sizeof *ready);
	uint32_t *cnt = xmalloc(n * sizeof *cnt);
	uint32_t **pred = up ? preds(g, &npred) : 0;
	int keep = c->pick.noise <= 0;
	double *sc = xmalloc(n * sizeof *sc);
	/* without noise the ready nodes live in the heap, in ready[] */
	Heap h = {ready, 0, xmalloc(n * sizeof *h.pos), sc};
	uint32_t *users = keep && c->pick.kind == Spressure
		? userlists(c, g) : 0, nwas = 0;
	uint8_t *was = 0;

	/* going up, a node is ready when all its successors are placed */
	for (uint32_t i = 0; i < n; i++) {
		cnt[i] = up ? g->node[i].nsucc : g->node[i].npred;
		h.pos[i] = -1;
	}
	for (uint32_t i = 0; i < n; i++)
		if (!cnt[i] && keep)
			sc[i] = score(f, c, g, i, up), hpush(&h, i);
		else if (!cnt[i])
			ready[nready++] = i;
	while (keep ? h.n : nready) {
		uint32_t x;
		if (keep)
			x = hpop(&h);
		else {
			uint32_t best = 0;
			double bs = score(f, c, g, ready[0], up);
			for (uint32_t r = 1; r < nready; r++) {
				double s = score(f, c, g, ready[r], up);
				if (s > bs)
					bs = s, best = r;
			}
			x = ready[best];
			ready[best] = ready[--nready];
		}
		Node *nx = &g->node[x];
		if (users) {
			if (nx->ndef + nx->nuse > nwas) {
				nwas = nx->ndef + nx->nuse;
				was = xrealloc(was, nwas);
			}
			for (uint32_t j = 0; j < nx->ndef + nx->nuse; j++)
				was[j] = (uint8_t)rstate(c, noderg(nx, j), up);
		}
		place(f, c, nx, up);
		ord[up ? n - 1 - k : k] = x;
		k++;
		if (users)
			rescore(f, c, g, x, up, users, was, &h, sc);
		uint32_t m = up ? npred[x] : g->node[x].nsucc;
		for (uint32_t j = 0; j < m; j++) {
			uint32_t y = up ? pred[x][j] : g->node[x].succ[j];
			if (--cnt[y] != 0)
				continue;
			if (keep)
				sc[y] = score(f, c, g, y, up), hpush(&h, y);
			else
				ready[nready++] = y;
		}
	}
	if (users)
		userfree(c, g, users);
	free(was);
	if (k != n)
		die("scheduler: cycle in region at statement %u", g->first);
	if (pred)
		free(pred[0]);
	free(pred);
	free(npred);
	free(h.pos);
	free(sc);
	free(ready);
	free(cnt);
}

/* Rewrites the region's statements in the order of ord[]. */
static void
apply(Func *f, Dag *g, uint32_t *ord, Ctx *c)
{
	uint32_t len = g->end - g->first, k = 0;
	Stmt *tmp = xmalloc(len * sizeof *tmp);

	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[ord[i]];
		if (ord[i] != i)
			c->moved++;
		for (uint32_t s = n->first; s <= n->last; s++)
			tmp[k++] = f->stmt[s];
	}
	if (k != len)
		die("scheduler: region covers %u of %u statements", k, len);
	memcpy(&f->stmt[g->first], tmp, len * sizeof *tmp);
	free(tmp);
}

static void
region(Func *f, Dag *g, void *arg)
{
	Ctx *c = arg;
	uint32_t *ord = xmalloc(g->nnode * sizeof *ord);

	if (regionout(f, g, c->how->range)) {
		free(ord);
		return;
	}
	c->pick = *c->how;
	if (c->how->kind == Smix) {
		/* each region its own strategy: the regions that matter to
		 * ptxas are few, and which they are is not known */
		uint64_t r = rnd(c);
		c->pick.kind = (int)(r % 3);
		c->pick.up = (int)((r >> 8) & 1) || c->pick.kind == Ssink;
		c->pick.noise = (double)((r >> 16) % 4);
	}
	if (c->pick.kind == Ssource) {
		free(ord);
		return;
	}
	if (c->pick.kind == Sfrag) {
		c->frag = xrealloc(c->frag, g->nnode * sizeof *c->frag);
		if (!fragments(f, g, c->frag, c->pick.frags)) {
			free(ord);
			return;
		}
	}
	/* out, live and left are zero outside a region; the region reads
	 * and writes only its own registers, and clears them after */
	liveout(c, g, c->out);
	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->nuse; k++) {
			int32_t r = n->use[k];
			if (c->pick.up)
				c->live[r] = c->out[r];
			else
				c->left[r]++;
		}
		for (uint32_t k = 0; c->pick.up && k < n->ndef; k++)
			c->live[n->def[k]] = c->out[n->def[k]];
	}
	listsched(f, c, g, ord, c->pick.up);
	apply(f, g, ord, c);
	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->nuse; k++) {
			int32_t r = n->use[k];
			c->out[r] = c->live[r] = 0, c->left[r] = 0;
		}
		for (uint32_t k = 0; k < n->ndef; k++) {
			int32_t r = n->def[k];
			c->out[r] = c->live[r] = 0, c->left[r] = 0;
		}
	}
	free(ord);
}

/* Reorders every region of f as `how` says; returns how many
 * instructions changed place. */
uint32_t
sched(Func *f, const Sched *how)
{
	Ctx c = {.how = how, .pick = *how,
		.rng = how->seed * 2654435761u + 88172645463325252ull};
	size_t n = f->nreg ? f->nreg : 1;

	Rv d = {0}, u = {0};

	c.live = calloc(n, 1);
	c.out = calloc(n, 1);
	c.left = calloc(n, sizeof *c.left);
	c.nuse = calloc(n, sizeof *c.nuse);
	c.cnt = calloc(n, sizeof *c.cnt);
	c.def = calloc(n, 1);
	c.ubeg = calloc(n, sizeof *c.ubeg);
	c.uend = calloc(n, sizeof *c.uend);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (f->stmt[i].kind != Sins)
			continue;
		d.n = u.n = 0;
		defuse(&f->stmt[i], &d, &u);
		for (uint32_t k = 0; k < u.n; k++)
			c.nuse[u.v[k]]++;
	}
	free(d.v);
	free(u.v);
	eachregion(f, region, &c);
	free(c.live);
	free(c.out);
	free(c.left);
	free(c.nuse);
	free(c.cnt);
	free(c.def);
	free(c.ubeg);
	free(c.uend);
	free(c.frag);
	return c.moved;
}
