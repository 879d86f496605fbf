/* vsink.c: a tcgen05.ld that B runs later than A does, past fixed
 * statements and barriers (across.c's tsink=far), with its
 * tcgen05.wait::ld and the arithmetic on what it loaded.
 *
 * Such a group G (the load, its wait right after, then each unguarded
 * arithmetic statement that reads what the group wrote) goes back, in
 * a copy B' of B, to right before the first anchor (a fixed statement
 * or a CTA barrier) that A runs after it; B' then takes the usual proof
 * against A.  What is proven here is that B' and B compute the same:
 * that G commutes with every statement S it passes going down.
 *   - Registers: S writes nothing G reads, touches nothing G writes,
 *     and touches no register any tcgen05.ld names (G's wait completes
 *     all of this thread's loads, not only G's).
 *   - S is arithmetic, a .loc, a label no branch names, a plain load or
 *     store (tensor memory is reached by none), a tcgen05.ld, a
 *     tcgen05.wait, cp.async.wait_group or _all, a tcgen05.st to
 *     columns G's load does not read (both addresses the same value
 *     plus constants; .32x32b shapes, whose column count the opcode
 *     says), or a CTA barrier (bar.sync/barrier.sync with one operand).
 *   - Past a barrier, what other threads do: a warp reaches only its
 *     own 32 lanes of tensor memory with tcgen05.ld/st, so with at most
 *     4 warps (.reqntid or .maxntid) their loads and stores never meet
 *     G's; tcgen05.mma, cp and shift write every lane, so none may run
 *     from the first barrier G passes to the first one after its new
 *     place.  Every thread meets every barrier at the same statement
 *     (a branch whose condition may differ between threads skips only
 *     code without barriers: uniformity of registers, then the blocks
 *     between such a branch and its post-dominators), so that code,
 *     straight and run by every thread alike, is all they can run in
 *     between.  No cta_group::2 (another CTA's MMA), no call.
 * Triton's Blackwell kernels omit tcgen05.fence::before_thread_sync
 * and order tensor memory by tcgen05.wait and bar.sync alone, so these
 * conditions are what such a kernel relies on, not the memory model's
 * fences. */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "valid.h"

enum { Maxgroup = 1024, Maxterm = 8, Maxdepth = 12 };

typedef struct Vs {
	Func *a, *b;            /* b: the current copy */
	Buf *why;
	uint8_t *mv;            /* vmovables(b) */
	uint8_t *tm;            /* vtmemregs(b) */
	int spmd;               /* -1 not asked yet, 0 no, 1 yes */
	uint8_t *divblk;        /* per block of dom: run by some threads */
	Dom *dom;
	uint32_t *nw, *lastw;   /* per register: its writers, the last of
	                         * them (vwritecount, when first asked) */
	uint8_t *cyc;           /* per block: 0 not asked, 1 in no cycle,
	                         * 2 in one */
	int how;                /* how much of B's group goes back: Part,
	                         * Whole or Bare (samegroup) */
} Vs;

static int
isbar(const Stmt *s)
{
	return s->kind == Sins && (s->op == Obar || s->op == Obarrier)
		&& !s->guard && s->nop == 1 && vhas((Stmt *)s, ".sync");
}

static int
anchor(Vs *v, uint32_t i)
{
	return !v->mv[i] || isbar(&v->b->stmt[i]);
}

static int
hasreg(const Acc *a, int32_t r, int defs)
{
	for (uint32_t k = 0; k < (defs ? a->ndef : a->nuse); k++)
		if ((defs ? a->def : a->use)[k] == r)
			return 1;
	return 0;
}

/* Whether a statement with accesses a shares no register with a group
 * that writes w and reads r: it reads none the group writes and writes
 * none the group touches, so the two may run in either order. */
static int
apartfrom(const Acc *a, const uint8_t *w, const uint8_t *r)
{
	for (uint32_t k = 0; k < a->nuse; k++)
		if (w[a->use[k]])
			return 0;
	for (uint32_t k = 0; k < a->ndef; k++)
		if (w[a->def[k]] || r[a->def[k]])
			return 0;
	return 1;
}

/* The group at the tcgen05.ld at i: its statements' indices into g,
 * their registers (written, read) marked in w and r; 0 when there is
 * no unguarded tcgen05.wait::ld right after the load.  loose (f's
 * vmovables(), or 0): pass over arithmetic and plain loads and stores
 * apart from the group (guarded ones too), before the wait too, and
 * labels no branch names (the original's group, which an earlier pass
 * may have closed up before tsink=far moved it: tsink takes the load
 * and its wait down past such statements; the line mutator, seed 289,
 * put a label there).  Which statements pair is a guess; the order of
 * B' is proven by body() once the group is back. */
static uint32_t
group(Func *f, uint32_t i, uint32_t *g, uint8_t *w, uint8_t *r,
	const uint8_t *loose)
{
	uint32_t n = 0;
	int waited = 0;

	memset(w, 0, f->nreg + 1);
	memset(r, 0, f->nreg + 1);
	for (uint32_t j = i; j < f->nstmt && n < Maxgroup; j++) {
		Stmt *s = &f->stmt[j];
		Acc a = {0};
		int take = 0;
		if (s->kind == Sloc)
			continue;
		if (s->kind == Slabel && loose && loose[j] == 2)
			continue;
		/* a guarded statement joins no group, but one apart
		 * from it may stand between (linemut seed 1517: a
		 * guarded store between the load and its wait) */
		if (s->kind != Sins || (s->guard && (j == i || !loose)))
			break;
		vaccess(s, &a);
		if (s->guard)
			take = 0;
		else if (j == i)
			take = 1;
		else if (!waited)
			take = waited = s->op == Otcgen05_wait_ld;
		else if (veffect(s) == Enone)
			for (uint32_t k = 0; k < a.nuse && !take; k++)
				take = w[a.use[k]];
		if (take && s->op != Otcgen05_wait_ld) {
			for (uint32_t k = 0; k < a.ndef; k++)
				w[a.def[k]] = 1;
			for (uint32_t k = 0; k < a.nuse; k++)
				r[a.use[k]] = 1;
		}
		/* tsink closes a group up past arithmetic and plain loads
		 * and stores (passes/across.c) */
		int e = veffect(s);
		int skip = !take && loose && (e == Enone || e == Eread
			|| e == Ewrite) && apartfrom(&a, w, r);
		accfree(&a);
		if (skip)
			continue;
		if (!take || (j == i ? 0 : !waited))
			break;
		g[n++] = j;
	}
	return waited ? n : 0;
}

/* ---- tensor-memory addresses: a sum of terms and a constant ---- */

typedef struct Lin { Str t[Maxterm]; uint32_t n; int64_t c; int ok; } Lin;

static uint32_t
stretchstart(Vs *v, uint32_t i)
{
	while (i > 0) {
		Stmt *s = &v->b->stmt[i - 1];
		if (s->kind == Sopen || s->kind == Sclose
		|| (s->kind == Slabel && !v->mv[i - 1])
		|| (s->kind == Sins && opinfo[s->op].klass == Kctl))
			break;
		i--;
	}
	return i;
}

static void linreg(Vs *, uint32_t lo, uint32_t pos, int32_t r, Lin *,
	int depth);

static void
addterm(Lin *l, Str t)
{
	if (l->n == Maxterm) {
		l->ok = 0;
		return;
	}
	uint32_t k = l->n++;
	while (k > 0 && (uintptr_t)l->t[k - 1] > (uintptr_t)t) {
		l->t[k] = l->t[k - 1];
		k--;
	}
	l->t[k] = t;
}

static void
linopnd(Vs *v, uint32_t lo, uint32_t pos, const Opnd *o, Lin *l, int depth)
{
	int64_t x;

	if (o->kind == Pint && !o->nsub) {
		if (!ptxint(o->s, &x))
			l->ok = 0;
		else
			l->c += o->minus ? -x : x;
	} else if (o->kind == Preg && o->reg >= 0 && !hascomp(o))
		linreg(v, lo, pos, o->reg, l, depth);
	else
		l->ok = 0;
}

/* The key of an operand's value at pos: its sum spelled out. */
static Str
key(Vs *v, uint32_t lo, uint32_t pos, const Opnd *o, int depth)
{
	Lin l = {.ok = 1};
	Buf b = {0};
	Str r;

	if (o->kind == Preg && o->reg < 0)
		return o->s;    /* a special register: its own name */
	linopnd(v, lo, pos, o, &l, depth);
	if (!l.ok)
		return 0;
	for (uint32_t k = 0; k < l.n; k++)
		bprintf(&b, "%s+", l.t[k]);
	bprintf(&b, "%lld", (long long)l.c);
	r = intern(b.p, b.n);
	free(b.p);
	return r;
}

static void
needdom(Vs *v)
{
	if (!v->dom)
		v->dom = domnew(v->b);
}

/* r's one writer in the function, or -1. */
static int64_t
onewriter(Vs *v, int32_t r)
{
	if (!v->nw) {
		v->lastw = calloc(v->b->nreg + 1, sizeof *v->lastw);
		v->nw = vwritecount(v->b, v->lastw);
	}
	return v->nw[r] == 1 ? (int64_t)v->lastw[r] : -1;
}

/* Whether block b can run again after it ran: a cycle through it. */
static int
incycle(Vs *v, uint32_t b)
{
	uint32_t nb = domnblk(v->dom);

	if (!v->cyc)
		v->cyc = calloc(nb + 1, 1);
	if (v->cyc[b])
		return v->cyc[b] == 2;
	/* backwards from b's predecessors: do we meet b? */
	uint8_t *seen = calloc(nb + 1, 1);
	uint32_t *st = xmalloc((nb + 1) * sizeof *st), n = 0;
	const uint32_t *p;
	uint32_t np = dompreds(v->dom, b, &p);
	int hit = 0;
	for (uint32_t k = 0; k < np; k++)
		if (!seen[p[k]])
			seen[p[k]] = 1, st[n++] = p[k];
	while (n && !hit) {
		uint32_t c = st[--n];
		hit = c == b;
		np = dompreds(v->dom, c, &p);
		for (uint32_t k = 0; k < np; k++)
			if (!seen[p[k]])
				seen[p[k]] = 1, st[n++] = p[k];
	}
	free(seen);
	free(st);
	v->cyc[b] = hit ? 2 : 1;
	return hit;
}

static void
linreg(Vs *v, uint32_t lo, uint32_t pos, int32_t r, Lin *l, int depth)
{
	Func *f = v->b;
	int64_t d = -1;
	Acc a = {0};
	char leaf[64];

	for (uint32_t j = pos; j-- > lo && d < 0;) {
		Stmt *s = &f->stmt[j];
		if (s->kind != Sins)
			continue;
		vaccess(s, &a);
		if (hasreg(&a, r, 1))
			d = j;
		accfree(&a);
		a = (Acc){0};
	}
	if (d < 0 && depth < Maxdepth) {
		/* written once in the function, where it runs at most once
		 * and before pos on every path: that writer's value */
		int64_t w = onewriter(v, r);
		needdom(v);
		if (w >= 0 && domdominates(v->dom, (uint32_t)w, pos)
		&& !incycle(v, domblk(v->dom, (uint32_t)w))) {
			d = w;
			lo = stretchstart(v, (uint32_t)w);
		}
	}
	if (d < 0) {            /* what it held where the stretch began */
		snprintf(leaf, sizeof leaf, "r%d@%u", r, lo);
		addterm(l, interns(leaf));
		return;
	}
	Stmt *s = &f->stmt[d];
	if (depth >= Maxdepth || s->guard || s->nop < 2
	|| s->opd[0].kind != Preg || veffect(s) != Enone) {
		/* "=": written there; "@": held where a stretch began */
		snprintf(leaf, sizeof leaf, "r%d=%lld", r, (long long)d);
		addterm(l, interns(leaf));
		return;
	}
	if (s->op == Oadd && s->nop == 3) {
		linopnd(v, lo, (uint32_t)d, &s->opd[1], l, depth + 1);
		linopnd(v, lo, (uint32_t)d, &s->opd[2], l, depth + 1);
		return;
	}
	if (s->op == Omov && s->nop == 2) {
		linopnd(v, lo, (uint32_t)d, &s->opd[1], l, depth + 1);
		return;
	}
	/* anything else: the opcode over its operands' keys */
	Buf b = {0};
	bprintf(&b, "(%s", s->name);
	for (uint32_t k = 0; k < s->nmod; k++)
		bprintf(&b, "%s", s->mod[k]);
	for (uint32_t k = 1; k < s->nop && l->ok; k++) {
		const Opnd *o = &s->opd[k];
		Str t = o->kind == Pint || o->kind == Pflt ? o->s
			: key(v, lo, (uint32_t)d, o, depth + 1);
		if (!t)
			l->ok = 0;
		else
			bprintf(&b, " %s", t);
	}
	bprintf(&b, ")");
	if (l->ok)
		addterm(l, intern(b.p, b.n));
	free(b.p);
}

/* The columns a .32x32b tcgen05.ld/st at i reaches: [*c, *c + *n) past
 * the value of its address's terms; 0 when that is not known. */
static int
columns(Vs *v, uint32_t lo, uint32_t i, Lin *l, int64_t *n)
{
	Stmt *s = &v->b->stmt[i];
	const Opnd *ad = 0;
	int64_t x = 0;
	Str off;

	for (uint32_t k = 0; k < s->nop; k++)
		if (s->opd[k].kind == Paddr)
			ad = &s->opd[k];
	if (!ad || ad->nsub != 1 || !vhas(s, ".32x32b"))
		return 0;
	for (uint32_t k = 0; k < s->nmod; k++)
		if (!strncmp(s->mod[k], ".x", 2) && s->mod[k][2] >= '1'
		&& s->mod[k][2] <= '9')
			x = strtoll(s->mod[k] + 2, 0, 10);
	if (x <= 0)
		return 0;
	if (vhas(s, ".pack::16b") || vhas(s, ".unpack::16b"))
		x *= 2;
	*l = (Lin){.ok = 1};
	linopnd(v, lo, i, &ad->sub[0], l, 0);
	if ((off = opoff(&ad->sub[0]))) {   /* [base+off]: the base's */
		int64_t c;
		if (!ptxoff(off, &c))
			return 0;
		l->c += c;
	}
	*n = x;
	return l->ok;
}

/* The tcgen05.st at j (before the load at i, in one stretch) writes no
 * column the load reads. */
static int
apart(Vs *v, uint32_t j, uint32_t i)
{
	uint32_t lo = stretchstart(v, i);
	Lin x, y;
	int64_t nx, ny;

	if (lo > j || !columns(v, lo, i, &x, &nx) || !columns(v, lo, j, &y,
		&ny) || x.n != y.n)
		return 0;
	for (uint32_t k = 0; k < x.n; k++)
		if (x.t[k] != y.t[k])
			return 0;
	return x.c + nx <= y.c || y.c + ny <= x.c;
}

/* ---- do all threads meet the barriers at the same statements? ---- */

static int
uniformspecial(Str s)
{
	static const char *const ok[] = {"%ctaid", "%nctaid", "%ntid",
		"%nclusterid", "%clusterid", "%cluster_ctaid",
		"%cluster_nctaid", "%gridid", "%total_smem_size",
		"%dynamic_smem_size", "%aggr_smem_size"};
	for (size_t k = 0; k < countof(ok); k++)
		if (!strncmp(s, ok[k], strlen(ok[k])))
			return 1;
	return 0;
}

static int
uniformop(const Opnd *o, const uint8_t *nonuni)
{
	if (o->kind == Preg)
		return o->reg >= 0 ? !nonuni[o->reg] : uniformspecial(o->s);
	for (uint32_t k = 0; k < o->nsub; k++)
		if (!uniformop(&o->sub[k], nonuni))
			return 0;
	return 1;
}

/* Statement s's results are the same in every thread that runs it. */
static int
uniformdef(Stmt *s, const uint8_t *nonuni)
{
	int e = veffect(s);

	if (s->guard && !uniformop(s->guard, nonuni))
		return 0;
	if (e != Enone && !(s->op == Old && vhas(s, ".param")))
		return 0;
	for (uint32_t k = 1; k < s->nop; k++)
		if (!uniformop(&s->opd[k], nonuni))
			return 0;
	return s->nop && s->opd[0].kind == Preg;
}

/* A spin loop: a bra back to a label of its own scope with nothing
 * between but mbarrier waits (threads differ in how often they spin,
 * not in where they go). */
static int
spin(Func *f, uint32_t i, const int32_t *sc)
{
	Stmt *s = &f->stmt[i];
	int64_t l = bratarget(f, sc, i, s->opd[s->nop - 1].s);

	if (l < 0 || (uint32_t)l > i)
		return 0;
	for (uint32_t j = (uint32_t)l + 1; j < i; j++) {
		Stmt *t = &f->stmt[j];
		if (t->kind == Sins && t->op != Ombarrier_try_wait
		&& t->op != Ombarrier_test_wait)
			return 0;
		if (t->kind != Sins && t->kind != Sloc)
			return 0;
	}
	return 1;
}

/* Blocks some threads of a CTA may run and others not: those a branch
 * whose condition may differ reaches before its post-dominators. */
static int
divergent(Vs *v, const uint8_t *nonuni, const int32_t *sc, uint8_t *div)
{
	Func *f = v->b;
	uint32_t nb = domnblk(v->dom), w = (nb + 63) / 64;
	uint64_t *pd = xmalloc((size_t)nb * w * sizeof *pd);
	uint32_t **succ = calloc(nb + 1, sizeof *succ), *ns = calloc(nb + 1,
		sizeof *ns);

	for (uint32_t b = 0; b < nb; b++) {
		const uint32_t *p;
		uint32_t np = dompreds(v->dom, b, &p);
		for (uint32_t k = 0; k < np; k++) {
			succ[p[k]] = xrealloc(succ[p[k]], (ns[p[k]] + 1)
				* sizeof **succ);
			succ[p[k]][ns[p[k]]++] = b;
		}
	}
	for (uint32_t b = 0; b < nb; b++) {     /* post-dominators */
		memset(pd + (size_t)b * w, ns[b] ? 0xff : 0, w * sizeof *pd);
		pd[(size_t)b * w + b / 64] |= 1ull << (b % 64);
	}
	for (int ch = 1; ch;) {
		ch = 0;
		for (uint32_t b = nb; b-- > 0;) {
			uint64_t *x = pd + (size_t)b * w;
			for (uint32_t q = 0; q < w && ns[b]; q++) {
				uint64_t y = ~0ull;
				for (uint32_t k = 0; k < ns[b]; k++)
					y &= pd[(size_t)succ[b][k] * w + q];
				if (q == b / 64)
					y |= 1ull << (b % 64);
				ch |= y != x[q];
				x[q] = y;
			}
		}
	}
	uint32_t *stack = xmalloc((nb + 1) * sizeof *stack);
	uint8_t *seen = calloc(nb + 1, 1);
	/* a block from which no path ends: its post-dominators say
	 * nothing, so nothing is proven */
	uint8_t *out = calloc(nb + 1, 1);
	uint32_t n0 = 0;
	int stuck = 0;
	for (uint32_t b = 0; b < nb; b++)
		if (!ns[b])
			out[b] = 1, stack[n0++] = b;
	while (n0) {
		const uint32_t *p;
		uint32_t c = stack[--n0], np = dompreds(v->dom, c, &p);
		for (uint32_t k = 0; k < np; k++)
			if (!out[p[k]])
				out[p[k]] = 1, stack[n0++] = p[k];
	}
	for (uint32_t b = 0; b < nb; b++)
		stuck |= !out[b];
	free(out);
	for (uint32_t i = 0; i < f->nstmt && !stuck; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || opinfo[s->op].klass != Kctl || !s->guard
		|| uniformop(s->guard, nonuni)
		|| (s->op == Obra && spin(f, i, sc)))
			continue;
		uint32_t b = domblk(v->dom, i), n = 0;
		const uint64_t *x = pd + (size_t)b * w;
		/* from b's successors up to its post-dominators, each block
		 * once for this branch (another branch's region may end at
		 * blocks this one goes through) */
		memset(seen, 0, nb + 1);
		for (uint32_t c = b;;) {
			for (uint32_t k = 0; k < ns[c]; k++) {
				uint32_t y = succ[c][k];
				if (!seen[y] && (y == b
				|| !(x[y / 64] >> (y % 64) & 1)))
					seen[y] = 1, stack[n++] = y;
			}
			if (!n)
				break;
			c = stack[--n];
			div[c] = 1;
		}
		if (s->op != Obra)      /* a ret or exit only some take */
			div[b] = 2;
	}
	for (uint32_t b = 0; b < nb; b++)
		free(succ[b]);
	free(succ);
	free(ns);
	free(pd);
	free(stack);
	free(seen);
	return stuck ? -1 : 0;
}

static const char *
spmdwhy(Vs *v)
{
	Func *f = v->b;
	long t = ctathreads(f);
	uint32_t nb;

	if (!f->entry || t < 1 || t > 128)
		return "more than 4 warps may share tensor-memory lanes";
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		for (uint32_t k = 0; k < s->nmod; k++)
			if (strstr(s->mod[k], "cta_group::2"))
				return "another CTA's MMA (cta_group::2)";
		if (s->op == Ocall || s->op == Obrx_idx)
			return "a call or an indirect branch";
		if ((s->op == Obar || s->op == Obarrier) && !isbar(s))
			return "a barrier that not every thread waits at";
	}
	needdom(v);
	nb = domnblk(v->dom);
	v->divblk = calloc(nb + 1, 1);
	uint8_t *nonuni = calloc(f->nreg + 1, 1);
	int32_t *sc = scopeof(f);
	for (int ch = 1; ch;) {         /* uniform registers, divergent
	                                 * blocks: each grows the other */
		ch = 0;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			Stmt *s = &f->stmt[i];
			Acc a = {0};
			if (s->kind != Sins)
				continue;
			int bad = v->divblk[domblk(v->dom, i)]
				|| !uniformdef(s, nonuni);
			vaccess(s, &a);
			for (uint32_t k = 0; k < a.ndef && bad; k++)
				if (!nonuni[a.def[k]])
					nonuni[a.def[k]] = 1, ch = 1;
			accfree(&a);
		}
		uint8_t *d = calloc(nb + 1, 1);
		if (divergent(v, nonuni, sc, d) < 0) {
			free(d);
			free(nonuni);
			free(sc);
			return "a loop with no way out";
		}
		for (uint32_t b = 0; b < nb; b++)
			if (d[b] && !v->divblk[b])
				v->divblk[b] = d[b], ch = 1;
		free(d);
	}
	free(nonuni);
	free(sc);
	for (uint32_t b = 0; b < nb; b++)
		if (v->divblk[b] == 2)
			return "a return some threads take";
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (isbar(&f->stmt[i]) && v->divblk[domblk(v->dom, i)])
			return "a barrier that only some threads may reach";
	return 0;
}

/* ---- one group, moved back ---- */

static int
fail(Vs *v, uint32_t i, const char *what)
{
	bprintf(v->why, "%s: line %u: a tcgen05.ld run later: %s\n",
		v->b->name, v->b->stmt[i].pos.line, what);
	return -1;
}

/* G (at i, statements g) passes S at j going down. */
static int
passes(Vs *v, uint32_t j, uint32_t i, const uint8_t *gw, const uint8_t *gr,
	int *bar)
{
	Stmt *s = &v->b->stmt[j];
	Acc a = {0};
	int ok;

	if (s->kind == Sloc || (s->kind == Slabel && v->mv[j] == 2))
		return 0;
	if (s->kind != Sins)
		return fail(v, j, "it passes a declaration, scope or label");
	vaccess(s, &a);
	ok = apartfrom(&a, gw, gr);
	for (uint32_t k = 0; k < a.ndef; k++)
		ok &= !(v->tm[a.def[k]] & 1);
	for (uint32_t k = 0; k < a.nuse; k++)
		ok &= !(v->tm[a.use[k]] & 1);
	accfree(&a);
	if (!ok)
		return fail(v, j, "it passes a statement that shares its "
			"registers or another tcgen05.ld's");
	switch (veffect(s)) {
	case Enone: case Ecarry: case Ecoll: case Emma: case Eread:
	case Ewrite:
		return 0;
	case Etmem:
		if (s->op != Otcgen05_st || apart(v, j, i))
			return 0;
		return fail(v, j, "it passes a tcgen05.st to columns it may "
			"read");
	case Efixed:
		if (s->op == Ocp_async_wait_group || s->op == Ocp_async_wait_all)
			return 0;
		return fail(v, j, "it passes a fixed statement other than "
			"cp.async.wait");
	}
	if (isbar(s)) {
		*bar = 1;
		return 0;
	}
	return fail(v, j, "it passes a memory or ordering effect");
}

/* From the first barrier G passed to the next one after its place e:
 * straight code, run by every thread, no tcgen05 write to all lanes. */
static int
window(Vs *v, uint32_t q, uint32_t e)
{
	Func *f = v->b;
	const char *why;

	if (v->spmd < 0) {
		why = spmdwhy(v);
		v->spmd = !why;
		if (why)
			return fail(v, q, why);
	}
	if (!v->spmd)
		return fail(v, q, "the barriers are not met alike");
	while (q < e && !isbar(&f->stmt[q]))
		q++;
	for (uint32_t j = q; j < f->nstmt; j++) {
		Stmt *s = &f->stmt[j];
		if (j > e && isbar(s))
			return 0;
		if (v->divblk[domblk(v->dom, j)] || s->kind == Sopen
		|| s->kind == Sclose || (s->kind == Slabel && !v->mv[j])
		|| (s->kind == Sins && opinfo[s->op].klass == Kctl))
			return fail(v, j, "control flow before the next barrier");
		if (s->kind == Sins && (s->op == Otcgen05_mma
		|| s->op == Otcgen05_cp || s->op == Otcgen05_shift))
			return fail(v, j, "a tcgen05 write to every lane before "
				"the next barrier");
	}
	return fail(v, e, "no barrier after it");
}

/* A's tcgen05.ld of the same text as B's at i (one each), and q, the
 * anchor of B that A runs it before, when B runs it after q: 1, else 0. */
static int
counterpart(Vs *v, const uint8_t *mva, uint32_t i, uint32_t *k, uint32_t *q)
{
	Func *fa = v->a, *fb = v->b;
	Str t = vplain(fb, &fb->stmt[i]);
	int64_t hit = -1;
	uint32_t na = 0, nb = 0;

	for (uint32_t j = 0; j < fa->nstmt && hit != -2; j++)
		if (fa->stmt[j].kind == Sins && fa->stmt[j].op == Otcgen05_ld
		&& vplain(fa, &fa->stmt[j]) == t)
			hit = hit < 0 ? (int64_t)j : -2;
	if (hit < 0)
		return 0;
	for (uint32_t j = 0; j < (uint32_t)hit; j++)
		na += !mva[j] || isbar(&fa->stmt[j]);
	for (*q = 0; *q < i; ++*q)
		if (anchor(v, *q) && nb++ == na)
			break;
	*k = (uint32_t)hit;
	return *q < i;
}

/* B's group at i, statements of A's at k (mva: vmovables(A)): how many
 * of it go back, or 0.  Part: what A's group holds.  Whole: all of B's
 * group (its load and wait A's): the arithmetic past A's group then goes
 * back with it, and body() proves it where A has it, as a statement
 * hoist raised (hoist, then tsink=far, carry a multiply up past a wait
 * and back down: the line mutator).  Bare: see below. */
static uint32_t
samegroup(Vs *v, const uint8_t *mva, uint32_t i, uint32_t k, uint32_t *g,
	uint8_t *gw, uint8_t *gr)
{
	Func *fa = v->a, *fb = v->b;
	uint32_t n = group(fb, i, g, gw, gr, 0), m = 0;
	uint32_t *ga = xmalloc(Maxgroup * sizeof *ga);
	uint8_t *aw = calloc(fa->nreg + 1, 1), *ar = calloc(fa->nreg + 1, 1);
	uint32_t na = n ? group(fa, k, ga, aw, ar, mva) : 0;
	Str *ta = xmalloc((na + 1) * sizeof *ta);

	/* A's statements, in any order: a scheduler may have reordered
	 * the arithmetic before the group moved, and body() proves that
	 * order once the group is back (moveback).  The part of B's group
	 * that A's holds goes back, from the load on: B's may stop short
	 * (a scheduler moved some of A's arithmetic past a barrier first)
	 * or run on (arithmetic A ran after the anchor: tsink=far's group
	 * closed up on it); what stays is proven where B has it (body()),
	 * and what goes back commutes with all it passes (passes(), its
	 * own registers).  Both hold the load and its wait (group()). */
	for (uint32_t x = 0; x < na; x++)
		ta[x] = vplain(fa, &fa->stmt[ga[x]]);
	for (; m < n; m++) {
		Str t = vplain(fb, &fb->stmt[g[m]]);
		uint32_t x = 0;
		while (x < na && ta[x] != t)
			x++;
		if (x == na)
			break;
		ta[x] = 0;      /* each of A's pairs once */
	}
	/* how much goes back: what A's group holds, B's whole group, or
	 * (Bare) the load and its wait alone, the arithmetic after them
	 * proven where B has it (the line mutator, seed 528: tsink=far
	 * closed its group up to a multiply that reads what a statement
	 * it passed writes; moved back with the load, the multiply would
	 * pass that statement) */
	uint32_t back = v->how == Whole ? n : v->how == Bare ? 2 : m;
	if (m >= 2 && back < n) {       /* the registers of what goes
	                                 * back, only */
		memset(gw, 0, fb->nreg + 1);
		memset(gr, 0, fb->nreg + 1);
		for (uint32_t x = 0; x < back; x++) {
			Stmt *s = &fb->stmt[g[x]];
			Acc a = {0};
			if (s->op == Otcgen05_wait_ld)
				continue;
			vaccess(s, &a);
			for (uint32_t q = 0; q < a.ndef; q++)
				gw[a.def[q]] = 1;
			for (uint32_t q = 0; q < a.nuse; q++)
				gr[a.use[q]] = 1;
			accfree(&a);
		}
	}
	free(ta);
	free(ga);
	free(aw);
	free(ar);
	return m < 2 ? 0 : back;
}

/* B': the group at i (statements g, with the .loc lines among them)
 * right before q, the rest in B's order. */
static void
moveback(Vs *v, Module *mb, uint32_t i, uint32_t q, const uint32_t *g,
	uint32_t n)
{
	Func *fb = v->b, *nf = alloc(mb->a, sizeof *nf);
	Stmt *st = alloc(mb->a, (fb->nstmt + 1) * sizeof *st);
	uint8_t *in = calloc(fb->nstmt + 1, 1);
	uint32_t m = 0, e = g[n - 1];

	for (uint32_t j = 0; j < n; j++)
		in[g[j]] = 1;
	for (uint32_t j = i; j < e; j++)
		in[j] |= fb->stmt[j].kind == Sloc;
	for (uint32_t j = 0; j < fb->nstmt; j++) {
		for (uint32_t x = i; j == q && x <= e; x++)
			if (in[x])
				st[m++] = fb->stmt[x];
		if (!in[j])
			st[m++] = fb->stmt[j];
	}
	free(in);
	*nf = *fb;
	nf->stmt = st;
	nf->ana = 0;
	v->b = nf;
}

/* The first group of B run past an anchor that A runs it before: moved
 * back into a new copy of B.  1 moved, 0 none, -1 not proven. */
static int
unsinkone(Vs *v, Module *mb, uint32_t *g, uint8_t *gw, uint8_t *gr)
{
	Func *fb = v->b;
	uint8_t *mva = vmovables(v->a);
	int rc = 0;

	for (uint32_t i = 0; i < fb->nstmt && !rc; i++) {
		Stmt *s = &fb->stmt[i];
		uint32_t k, q, n;
		int bar = 0;
		if (s->kind != Sins || s->op != Otcgen05_ld || s->guard
		|| !counterpart(v, mva, i, &k, &q))
			continue;
		if (!(n = samegroup(v, mva, i, k, g, gw, gr))) {
			rc = fail(v, i, "not with the same wait and arithmetic");
			break;
		}
		for (uint32_t j = q; j < i && !rc; j++)
			rc = passes(v, j, i, gw, gr, &bar);
		if (!rc && bar)
			rc = window(v, q, g[n - 1]);
		if (!rc) {
			moveback(v, mb, i, q, g, n);
			rc = 1;
		}
	}
	free(mva);
	return rc;
}

Func *
unsink(Module *mb, Func *fa, Func *fb, Buf *why, int how)
{
	Vs v = {fa, fb, why, 0, 0, -1, 0, 0, 0, 0, 0, how};
	uint32_t *g = xmalloc(Maxgroup * sizeof *g);
	uint8_t *gw = calloc(fb->nreg + 1, 1), *gr = calloc(fb->nreg + 1, 1);
	int rc;

	do {
		v.mv = vmovables(v.b);
		v.tm = vtmemregs(v.b);
		rc = unsinkone(&v, mb, g, gw, gr);
		free(v.mv);
		free(v.tm);
		if (rc > 0) {   /* all of it was B's before the move */
			if (v.dom)
				domfree(v.dom);
			v.dom = 0;
			free(v.divblk);
			free(v.nw);
			free(v.lastw);
			free(v.cyc);
			v.divblk = v.cyc = 0;
			v.nw = v.lastw = 0;
			v.spmd = -1;
		}
	} while (rc > 0);
	if (v.dom)
		domfree(v.dom);
	free(v.divblk);
	free(v.nw);
	free(v.lastw);
	free(v.cyc);
	free(g);
	free(gw);
	free(gr);
	return rc < 0 ? 0 : v.b;
}
