/* validate.c: proves that a rewritten module computes what the original
 * does.  It shares no code with the schedulers: it derives its own
 * fixed points, its own memory effects and its own register accesses,
 * and checks the result, not the steps that made it.
 *
 * The claim proven, per function: the same header and declarations; the
 * same fixed statements (branch targets, branches and calls, waits but
 * tcgen05.wait::ld/st, scopes, unknown instructions) in the same order; between two fixed
 * statements, the same statements, permuted so that
 *   - every pair of accesses to one register, one of them a write, keeps
 *     its order (a guarded write counts as a read too),
 *   - every pair of memory effects that may touch the same state space,
 *     one of them a write, keeps its order; fences, barriers, atomics and
 *     async operations keep their order against every memory effect and
 *     each other; tcgen05.ld/st and tcgen05.wait::ld/st against each
 *     other and those, not against loads and stores (tensor memory,
 *     which no load or store reaches), and such a wait against every
 *     access to a register some tcgen05.ld (tcgen05.st) of the function
 *     names; warp collectives and carry-flag arithmetic keep their
 *     order among their kind,
 *   - debug labels keep their order among themselves;
 * and beyond permutations:
 *   - a copy or pack/unpack pair of the original may be missing when its
 *     reads can read the source instead (vcopy.c replays them);
 *   - a definition whose value cannot change (immediates, launch
 *     constants, kernel parameters; a load of read-only memory where the
 *     original load dominates) may appear again;
 *   - setmaxnreg counts may differ when the new ones fit the register
 *     file over the warp roles (vbudget.c);
 *   - a wgmma.wait_group may be added where the whole warp surely runs
 *     it (see extrawait);
 *   - a wgmma.mma_async may run in the next segment, in a group of its
 *     own that an added wait completes; the commits after its group up
 *     to that wait may be added too (an added commit only makes later
 *     waits complete more) (see deferred);
 *   - a statement may run in an earlier segment (hoist) when it is
 *     plain register arithmetic, control enters the fixed statements
 *     between only at their top and leaves only at their bottom, and
 *     nothing it passes writes what it reads or touches what it writes
 *     (see hoisted).
 *   - B may declare registers A does not, written only by arithmetic
 *     and read only by copies whose value is proven on B's own blocks
 *     to be what A computes into the copy's destination (vearly.c);
 *     B without them, each copy replaced by A's computation, is what
 *     the rest of this file compares.
 * Anything else it cannot prove, and says where. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* What an instruction does to memory and ordering, seen afresh. */
enum {
	Enone,      /* registers only */
	Eread,      /* loads */
	Ewrite,     /* stores and reductions */
	Eall,       /* atomics, fences, barriers, async: order with all */
	Etmem,      /* tcgen05.ld/st and their waits: tensor memory only,
	             * which no load or store reaches */
	Ecoll,      /* warp collectives */
	Ecarry,     /* .cc arithmetic */
	Efixed,     /* must not move at all */
};

typedef struct Acc {
	int32_t *def, *use;
	uint32_t ndef, nuse;
	int eff, space;
	uint32_t pos;           /* index in the rewritten segment */
	Str text;
} Acc;

static int
has(Stmt *s, const char *m)
{
	for (uint32_t i = 0; i < s->nmod; i++)
		if (!strcmp(s->mod[i], m))
			return 1;
	return 0;
}

static int
hasprefix(Stmt *s, const char *m)
{
	for (uint32_t i = 0; i < s->nmod; i++)
		if (!strncmp(s->mod[i], m, strlen(m)))
			return 1;
	return 0;
}

static int
timer(Opnd *o)
{
	if (o->kind == Preg && o->reg < 0 && (!strncmp(o->s, "%clock", 6)
	|| !strncmp(o->s, "%globaltimer", 12) || !strncmp(o->s, "%pm", 3)))
		return 1;
	for (uint32_t i = 0; i < o->nsub; i++)
		if (timer(&o->sub[i]))
			return 1;
	return 0;
}

static int
effect(Stmt *s)
{
	if (s->op == Ounknown)
		return Efixed;
	for (uint32_t i = 0; i < s->nop; i++)
		if (timer(&s->opd[i]))
			return Efixed;
	switch (opinfo[s->op].klass) {
	case Kpure:
		return has(s, ".cc") ? Ecarry : Enone;
	case Kcoll:
		return Ecoll;
	case Kcc:
		return Ecarry;
	case Kld:
	case Kst:
		if (has(s, ".volatile") || has(s, ".acquire")
		|| has(s, ".release") || has(s, ".relaxed") || has(s, ".mmio"))
			return Eall;
		return opinfo[s->op].klass == Kld ? Eread : Ewrite;
	case Krmw:
	case Kord:
		return Eall;
	case Ktmem:
		return Etmem;
	case Kfull:
	case Kctl:
		return Efixed;
	}
	return Efixed;
}

enum { Xgen = 7, Xglob = 1, Xshar = 2, Xloc = 4, Xparm = 8, Xconst = 16 };

/* The .func being proven takes the address of one of its parameters
 * (mov or cvta of its name): the parameter then lives in local memory,
 * where a generic or .local access may reach it, so its ld.param and
 * st.param count as local too.  (A kernel's parameters are read-only:
 * whoever reads them through an address, nothing writes them.)  Set by
 * body(). */
static int paramaddr;

static int
space(Stmt *s)
{
	int m = 0;

	if (has(s, ".global"))
		m |= Xglob;
	if (hasprefix(s, ".shared"))
		m |= Xshar;
	if (has(s, ".local"))
		m |= Xloc;
	if (hasprefix(s, ".param"))
		m |= Xparm;
	if (has(s, ".const"))
		m |= Xconst;
	if ((m & Xparm) && paramaddr)
		m |= Xloc;
	return m ? m : Xgen;
}

static int
namesparam(const Opnd *o, const Func *f)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		if (namesparam(&o->sub[i], f))
			return 1;
	if (o->kind != Psym || !o->s)
		return 0;
	for (uint32_t pass = 0; pass < 2; pass++) {
		const Decl *d = pass ? f->ret : f->par;
		uint32_t n = pass ? f->nret : f->npar;
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t j = 0; j < d[i].nname; j++)
				if (!strcmp(d[i].name[j].name, o->s))
					return 1;
	}
	return 0;
}

/* Whether f names a parameter anywhere but in the address of an
 * ld.param or st.param: its address is taken. */
static int
takesparam(const Func *f)
{
	for (uint32_t i = 0; i < f->nstmt; i++) {
		const Stmt *s = &f->stmt[i];
		int direct = (s->op == Old || s->op == Ost)
			&& hasprefix((Stmt *)s, ".param");
		for (uint32_t k = 0; s->kind == Sins && k < s->nop; k++)
			if (!(direct && s->opd[k].kind == Paddr)
			&& namesparam(&s->opd[k], f))
				return 1;
	}
	return 0;
}

static int
memorder(Acc *a, Acc *b)
{
	int x = a->eff, y = b->eff;

	if (x == Enone || y == Enone)
		return 0;
	if (x == Ecoll || y == Ecoll)
		return (x == Ecoll || x == Eall || x == Etmem)
			&& (y == Ecoll || y == Eall || y == Etmem);
	if (x == Ecarry || y == Ecarry)
		return x == y;
	if (x == Etmem || y == Etmem)
		return x == y || x == Eall || y == Eall;
	if (x == Eall || y == Eall)
		return 1;
	if (x == Eread && y == Eread)
		return 0;
	return (a->space & b->space) != 0;
}

/* ---- register accesses, collected independently ---- */

typedef struct Iv { int32_t *v; uint32_t n, cap; } Iv;

static void
ivpush(Iv *v, int32_t x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 8;
		v->v = xrealloc(v->v, v->cap * sizeof *v->v);
	}
	v->v[v->n++] = x;
}

static void
collect(Opnd *o, Iv *v)
{
	if (o->kind == Preg && o->reg >= 0)
		ivpush(v, o->reg);
	for (uint32_t i = 0; i < o->nsub; i++)
		collect(&o->sub[i], v);
}

static void
access(Stmt *s, Acc *a)
{
	Iv d = {0}, u = {0};
	uint32_t first = 0;
	Defs w = opdefs(s);

	if (s->nop && s->opd[0].kind != Paddr && (w == D0 || w == D0U)) {
		collect(&s->opd[0], &d);
		if (w == D0U)
			collect(&s->opd[0], &u);
		first = 1;
	}
	for (uint32_t i = first; i < s->nop; i++)
		collect(&s->opd[i], &u);
	if (s->guard) {
		collect(s->guard, &u);
		for (uint32_t i = 0; i < d.n; i++)
			ivpush(&u, d.v[i]);
	}
	a->def = d.v;
	a->ndef = d.n;
	a->use = u.v;
	a->nuse = u.n;
	a->eff = effect(s);
	a->space = space(s);
}

/* ---- fixed statements ---- */

static int
ptrcmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const Str *)a, y = (uintptr_t)*(const Str *)b;

	return x < y ? -1 : x > y;
}

/* Labels some branch or .branchtargets names: every name such a
 * statement gives, sorted once, and each label looked up in them. */
static uint8_t *
branchtargets(Func *f)
{
	uint8_t *t = calloc(f->nstmt ? f->nstmt : 1, 1);
	Str *name = 0;
	size_t n = 0, cap = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		uint32_t k, m = s->kind == Sdir ? s->decl->nattr
			: s->kind == Sins ? s->nop : 0;
		for (k = 0; k < m; k++) {
			if (s->kind == Sins && s->opd[k].kind != Psym)
				continue;
			if (n == cap)
				name = xrealloc(name, (cap = cap ? 2 * cap : 64)
					* sizeof *name);
			name[n++] = s->kind == Sdir ? s->decl->attr[k]
				: s->opd[k].s;
		}
	}
	if (n)
		qsort(name, n, sizeof *name, ptrcmp);
	for (uint32_t j = 0; j < f->nstmt; j++)
		if (f->stmt[j].kind == Slabel && n
		&& bsearch(&f->stmt[j].name, name, n, sizeof *name, ptrcmp))
			t[j] = 1;
	free(name);
	return t;
}

/* Marks what may move: instructions outside scopes whose effect is not
 * Efixed, .loc lines, labels no branch names. */
static uint8_t *
movables(Func *f)
{
	uint8_t *t = branchtargets(f), *m = calloc(f->nstmt + 1, 1);
	int depth = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sopen)
			depth++;
		if (s->kind == Sclose)
			depth--;
		if (depth || s->kind == Sclose)
			continue;
		if (s->kind == Sins)
			m[i] = effect(s) != Efixed;
		else if (s->kind == Sloc)
			m[i] = 1;
		else if (s->kind == Slabel)
			m[i] = t[i] ? 0 : 2;
	}
	free(t);
	return m;
}

/* Registers that { } scopes declare (nvcc's %temp in inline asm).
 * regs.c gives ids in declaration order, return and parameter
 * registers first, so the body's .reg lines own the last ids, in order. */
static uint8_t *
scopedregs(Func *f)
{
	uint8_t *sc = calloc(f->nreg + 1, 1);
	uint64_t total = 0;

	for (int pass = 0; pass < 2; pass++) {  /* count, then mark */
		uint64_t id = f->nreg - total;
		uint32_t depth = 0;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			Stmt *s = &f->stmt[i];
			depth += s->kind == Sopen;
			depth -= s->kind == Sclose && depth;
			if (s->kind != Sdecl || !s->decl->nattr
			|| strcmp(s->decl->attr[0], ".reg"))
				continue;
			for (uint32_t k = 0; k < s->decl->nname; k++) {
				int32_t c = s->decl->name[k].count;
				uint64_t n = c < 0 ? 1 : (uint64_t)c;
				if (pass && depth)
					memset(sc + id, 1, n);
				id += n;
				total += pass ? 0 : n;
			}
		}
		if (total > f->nreg)    /* not the layout above: mark none */
			break;
	}
	return sc;
}

/* The two functions body() compares, and their scoped registers. */
static struct { const Func *f; const uint8_t *sc; } scoped[2];

static void
marks(Buf *b, Opnd *o, const uint8_t *sc)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		marks(b, &o->sub[i], sc);
	if (o->kind == Preg && o->reg < 0 && !isspecial(o->s))
		bputs(b, " #?");
	else if (o->kind == Preg && o->reg >= 0 && sc[o->reg])
		bprintf(b, " #%d", o->reg);
}

/* A statement's text, the key that pairs A's statements with B's.  A
 * name alone does not say which register it is where a scope declares
 * its own: a copy of `cvt.u64.u32 %temp, %r59` from inside an inline
 * asm scope, put outside it, names another %temp or none (a gemm of
 * the corpus, through remat), so a scope's registers carry their ids
 * (the same in A and B: declarations are fixed statements), and a
 * name that binds to nothing carries '?'. */
static Str
text(Func *f, Stmt *s)
{
	Buf b = {0};
	Str r;

	printstmt(&b, f, s);
	for (int k = 0; k < 2 && s->kind == Sins; k++)
		if (scoped[k].f == f) {
			if (s->guard)
				marks(&b, s->guard, scoped[k].sc);
			for (uint32_t j = 0; j < s->nop; j++)
				marks(&b, &s->opd[j], scoped[k].sc);
			break;          /* A against itself: marked once */
		}
	r = intern(b.p ? b.p : "", b.n);
	free(b.p);
	return r;
}

/* ---- one segment: same statements, dependences kept ---- */

typedef struct Lc { Str t; uint32_t i; } Lc;
typedef struct Pend { uint32_t *v, n, cap; } Pend;   /* (B, A) pairs */

typedef struct Seg {
	Func *fa, *fb;
	uint32_t a0, a1, b0, b1;    /* [a0, a1) in A, [b0, b1) in B */
	Buf *why;
	uint32_t *orig;             /* A's statements as B should hold
	                             * them: where each one came from */
	uint32_t n;
	Str *konst;                 /* A's constant definitions, by text */
	uint32_t nkonst;
	int32_t *kload;             /* for loads among them: the statement,
	                             * else -1 */
	Dom **adom;                 /* fa's dominance, made when first asked */
	const uint32_t *tally;      /* vtally(fa) */
	int32_t *lastw;             /* regorder's, per register of fa */
	uint32_t *maxr;
	uint8_t *seen;
	int32_t *vscratch;          /* vcopies', 4 per register of fa */
	const uint8_t *xb;          /* per statement of fb: an extra wait */
	int32_t *amap;              /* per statement of fa: where B has it */
	const struct Lc *lc;        /* A's definitions remat=loop may copy,
	                             * sorted by text */
	uint32_t nlc;
	struct Pend *pend;          /* B's copies of them, proven at the end */
	const uint8_t *tm;          /* per register of fa: 1 a tcgen05.ld
	                             * writes it, 2 a tcgen05.st reads it */
	struct Up *up;              /* statements B runs in earlier segments */
	uint32_t seg;               /* this segment's number */
	Stmt *eff;                  /* A's statements as B holds them */
	struct Later *later;        /* wgmma A runs here, B in the next
	                             * segment (see deferred) */
	uint8_t *wx;                /* per statement of fb: 1 such a wgmma,
	                             * 2 the fence or commit of its group */
} Seg;

/* A wgmma.mma_async that A runs in one segment and B in the next, in a
 * group of its own (wgsplit.c): kept until that segment claims it. */
typedef struct Late1 { Str t; uint32_t a, seg; int32_t b; } Late1;
typedef struct Later { Late1 *v; uint32_t n, cap; } Later;
enum { Pup = UINT32_MAX, Plater = UINT32_MAX - 1 };  /* pairup's pos[] */

/* A statement of B with no partner in its segment may be one that A
 * runs in a later segment, moved up across the fixed statements
 * between (across.c's hoist): kept here until A's segment claims it. */
typedef struct Cand {
	Str t;
	uint32_t b, seg, aseg;      /* B's statement and segment; A's segment */
	int32_t a;                  /* A's statement, once claimed, else -1 */
	int soft;                   /* a constant's copy or remat=loop's
	                             * (pending) too: may stay unclaimed */
	int plain;                  /* A's statement as B holds it (copies
	                             * replayed): registers only, no guard */
	Acc x;                      /* and its registers */
} Cand;
typedef struct Up { Cand *v; uint32_t n, cap; } Up;

static int
fail(Buf *why, Func *f, Stmt *s, const char *fmt, const char *x)
{
	bprintf(why, "%s: line %u: ", f->name, s->pos.line);
	bprintf(why, fmt, x);
	bputs(why, "\n");
	return -1;
}

/* An extra statement in B is harmless when it is a copy of a definition
 * in A whose value cannot change (see konstants): it writes the value
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

static int
lccmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const Lc *)a)->t;
	uintptr_t y = (uintptr_t)((const Lc *)b)->t;

	return x < y ? -1 : x > y;
}

/* An extra statement in B that copies a definition of A reading a
 * register a loop changes (remat=loop): right if, where B runs it,
 * every register it reads holds what it held where A's definition ran.
 * That needs all of B placed, so it is noted here and proven at the
 * end (loopvalues). */
static int
pending(Seg *g, Str t, uint32_t j)
{
	Lc key = {t, 0};
	const Lc *hit = g->nlc ? bsearch(&key, g->lc, g->nlc, sizeof key,
		lccmp) : 0;
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
 * (proven by hoisted() when the walk is done). */
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
				&& effect(e) == Enone;
			if (e->kind == Sins)
				access(e, &c->x);
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
static int
warpop(const Stmt *s, int op)
{
	return s->kind == Sins && s->op == op && !s->guard
		&& has((Stmt *)s, ".aligned");
}

/* N of an unguarded .aligned wgmma.wait_group N written in decimal, or
 * -1. */
static long
waitcount(const Stmt *s)
{
	const char *p;

	if (!warpop(s, Owgmma_wait_group) || s->nop != 1
	|| s->opd[0].kind != Pint || s->opd[0].minus)
		return -1;
	for (p = s->opd[0].s; *p >= '0' && *p <= '9'; p++)
		;
	return *p || !*s->opd[0].s || p - s->opd[0].s > 3 ? -1
		: strtol(s->opd[0].s, 0, 10);
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

	if (!warpop(&g->eff[i], Owgmma_mma_async))
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
			if (warpop(&g->fb->stmt[q], Owgmma_fence))
				g->wx[q] = 2;
			break;
		}
	for (q = p1 + 1; q < g->b1; q++)        /* the nearest commit after */
		if (g->fb->stmt[q].kind == Sins
		&& g->fb->stmt[q].op == Owgmma_commit_group) {
			if (warpop(&g->fb->stmt[q], Owgmma_commit_group))
				g->wx[q] = 2;
			break;
		}
	/* commits after it up to the wait B adds (a later group, which
	 * that wait may leave in flight: see deferred) */
	for (q++; q < g->b1 && !g->xb[q]; q++)
		if (warpop(&g->fb->stmt[q], Owgmma_commit_group))
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

/* Pairs each statement of A's segment with one of B's equal text, the
 * k-th occurrence with the k-th; pos[i] is its place in B. */
static int
pairup(Seg *g, Str *ta, Str *tb, uint32_t *pos)
{
	uint32_t na = g->n, nb = g->b1 - g->b0;
	uint8_t *used = calloc(nb + 1, 1);
	Str fixed = g->a1 < g->fa->nstmt ? text(g->fa, &g->fa->stmt[g->a1])
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
	for (uint32_t i = 0; i < na; i++) {
		uint32_t lo = 0, hi = ns;
		while (lo < hi) {       /* the run of ta[i]: its first place */
			uint32_t mid = lo + (hi - lo) / 2;
			if ((uintptr_t)sb[mid].t < (uintptr_t)ta[i])
				lo = mid + 1;
			else
				hi = mid;
		}
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
	/* what is left over may be A's, run earlier (hoist): offered to
	 * the later segments; a constant's copy or remat=loop's may stay
	 * unclaimed (soft) */
	for (uint32_t j = 0; j < nb; j++)
		if (!used[j] && !g->xb[g->b0 + j] && !g->wx[g->b0 + j])
			offer(g, tb[j], g->b0 + j, konstant(g, tb[j])
				|| pending(g, tb[j], g->b0 + j)
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
			fail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
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
	if (effect(o) == Ecoll || effect(o) == Eread)
		return 1;
	return warpop(o, Owgmma_fence) ? 2 : 0;
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
	collect(&w->opd[0], &v);
	if (w->nop > 1 && w->opd[1].kind == Pvec)
		collect(&w->opd[1], &v);
	for (uint32_t q = (uint32_t)bj; q-- > g->b0 && rc < 0;) {
		Stmt *s = &fb->stmt[q];
		if (s->kind != Sins)
			continue;
		if (warpop(s, Owgmma_fence)) {
			rc = 0;
			break;
		}
		if (s->op == Owgmma_mma_async || s->op == Owgmma_commit_group
		|| s->op == Owgmma_wait_group)
			continue;
		access(s, &a);
		for (uint32_t k = 0; k < v.n && rc < 0; k++) {
			for (uint32_t j = 0; j < a.ndef; j++)
				if (a.def[j] == v.v[k])
					rc = 1;
			for (uint32_t j = 0; j < a.nuse; j++)
				if (a.use[j] == v.v[k])
					rc = 1;
		}
		free(a.def);
		free(a.use);
	}
	free(v.v);
	return rc ? fail(g->why, fb, w, "'%s' crosses a wgmma.fence, and no "
		"other stands between it and what its registers last saw",
		text(fb, w)) : 0;
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
				return fail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
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
			if (!memorder(&acc[mem[k]], &acc[i])
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
				return fail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
					"'%s' crosses a memory or ordering effect",
					acc[i].text);
			}
		}
		mem[nm++] = i;
	}
	free(mem);
	return 0;
}

/* The registers tcgen05.ld fills and tcgen05.st empties, per function:
 * the tensor core may write (read) them until tcgen05.wait::ld (::st),
 * so such a wait keeps its order against every access to any of them.
 * Per function, not per operation: coarse, and no matching of waits to
 * the operations they complete.  Bit 4: a wgmma.mma_async's
 * accumulators and A fragments (its vector operands), which it may
 * read and write until a wgmma.wait_group completes it. */
static uint8_t *
tmemregs(Func *f)
{
	uint8_t *t = calloc(f->nreg + 1, 1);

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		Iv v = {0};
		int wg = s->kind == Sins && s->op == Owgmma_mma_async;
		if (s->kind != Sins || (!wg
		&& s->op != Otcgen05_ld && s->op != Otcgen05_st))
			continue;
		/* every register it names outside its address: the loaded
		 * ones, and tcgen05.ld.red's second result (redval), which
		 * the table counts as read */
		for (uint32_t k = 0; k < s->nop; k++)
			if (wg ? s->opd[k].kind == Pvec
			: s->opd[k].kind != Paddr)
				collect(&s->opd[k], &v);
		for (uint32_t k = 0; k < v.n; k++)
			t[v.v[k]] |= wg ? 4 : s->op == Otcgen05_ld ? 1 : 2;
		free(v.v);
	}
	return t;
}

static int
tmemtouch(const Acc *a, const uint8_t *tm, int bit)
{
	for (uint32_t k = 0; k < a->ndef; k++)
		if (tm[a->def[k]] & bit)
			return 1;
	for (uint32_t k = 0; k < a->nuse; k++)
		if (tm[a->use[k]] & bit)
			return 1;
	return 0;
}

/* s writes a register some tcgen05.ld or tcgen05.st or wgmma names */
static int
asyncwrite(Stmt *s, const uint8_t *tm)
{
	Acc a = {0};
	int hit = 0;

	access(s, &a);
	for (uint32_t k = 0; k < a.ndef; k++)
		hit |= tm[a.def[k]] != 0;
	free(a.def);
	free(a.use);
	return hit;
}

static int
waitorder(Seg *g, Stmt *eff, Acc *acc, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int bit = eff[i].kind != Sins ? 0
			: eff[i].op == Otcgen05_wait_ld ? 1
			: eff[i].op == Otcgen05_wait_st ? 2 : 0;
		for (uint32_t j = 0; bit && j < n; j++)
			if (j != i && tmemtouch(&acc[j], g->tm, bit)
			&& (j < i) != (acc[j].pos < acc[i].pos))
				return fail(g->why, g->fa, &g->fa->stmt[g->orig[j]],
					"'%s' crosses a tcgen05 wait for its "
					"registers", acc[j].text);
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
static int
laterpending(const Later *l, uint32_t seg)
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
			return fail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
				"'%s' runs in a later segment, but its own does "
				"not end at a wgmma.wait_group 0",
				text(g->fa, &eff[i]));
		for (uint32_t j = i + 1; j < n; j++) {
			Stmt *s = &eff[j];
			if (s->kind != Sins || s->op == Owgmma_mma_async)
				continue;
			if (warpop(s, Owgmma_commit_group)) {
				commit = 1;
				continue;
			}
			if (effect(s) != Enone && effect(s) != Ecoll
			&& effect(s) != Eread)
				return fail(g->why, g->fa,
					&g->fa->stmt[g->orig[i]], "'%s' runs "
					"in a later segment across a memory or "
					"ordering effect", text(g->fa, &eff[i]));
		}
		if (!commit)
			return fail(g->why, g->fa, &g->fa->stmt[g->orig[i]],
				"'%s' runs in a later segment, but no commit "
				"closes its group", text(g->fa, &eff[i]));
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
	if (effect(s) != Enone && effect(s) != Ecoll && effect(s) != Eread
	&& !warpop(s, Owgmma_mma_async))
		return fail(g->why, g->fb, s, "'%s' runs before a deferred "
			"wgmma but has a memory or ordering effect",
			text(g->fb, s));
	access(s, &a);
	/* a constant's copy (remat) writes what the register holds, and
	 * so does remat=loop's, proven at the end (loopvalues) */
	int same = konstant(g, text(g->fb, s));
	for (uint32_t k = 0; !same && k < g->pend->n; k += 2)
		same = g->pend->v[k] != UINT32_MAX
			&& &g->fb->stmt[g->pend->v[k]] == s;
	for (uint32_t k = 0; k < a.ndef && !rc; k++)
		if (same ? r[a.def[k]] & 1 : r[a.def[k]])
			rc = fail(g->why, g->fb, s, "'%s' writes a register of "
				"a deferred wgmma before it", text(g->fb, s));
	for (uint32_t k = 0; k < a.nuse && !rc; k++)
		if (r[a.use[k]] & 1)
			rc = fail(g->why, g->fb, s, "'%s' reads what a deferred "
				"wgmma writes before it", text(g->fb, s));
	free(a.def);
	free(a.use);
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
			return fail(g->why, g->fa, &g->fa->stmt[l->a], "'%s' "
				"is missing here and from the next segment",
				l->t);
		if ((uint32_t)l->b < last)
			return fail(g->why, fb, &fb->stmt[l->b], "'%s' runs "
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
		return nx ? fail(g->why, fb, &fb->stmt[g->b0], "%s",
			"a wgmma fence or commit the original lacks") : 0;
	if (!g->a0 || !waitzero(&g->fa->stmt[g->a0 - 1]))
		return fail(g->why, fb, &fb->stmt[p0], "%s", "a wgmma runs "
			"after a fixed statement that is no wgmma.wait_group 0");
	if (nx != 2 || fence == UINT32_MAX || commit == UINT32_MAX
	|| wait == UINT32_MAX || fb->stmt[fence].op != Owgmma_fence
	|| fb->stmt[commit].op != Owgmma_commit_group
	|| waitcount(&fb->stmt[wait]) < 0
	|| waitcount(&fb->stmt[wait]) > (long)nc)
		return fail(g->why, fb, &fb->stmt[p0], "%s", "deferred "
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
		access(&fb->stmt[q], &a);
		for (uint32_t k = 0; k < a.nuse; k++)
			r[a.use[k]] |= 2;
		for (uint32_t k = 0; k < a.ndef; k++)
			r[a.def[k]] |= 1;
		free(a.def);
		free(a.use);
	}
	for (q = g->b0; q < wait && !rc; q++)
		if (!g->wx[q])
			rc = beside(g, &fb->stmt[q], r);
	free(r);
	return rc;
}

static int
segment(Seg *g, uint8_t *mv)
{
	uint32_t na = g->a1 - g->a0, nb = g->b1 - g->b0;
	Str *ta = xmalloc((na + 1) * sizeof *ta);
	Str *tb = xmalloc((nb + 1) * sizeof *tb);
	uint32_t *pos = xmalloc((na + 1) * sizeof *pos);
	Acc *acc = calloc(na + 1, sizeof *acc);
	Stmt *eff = xmalloc((na + 1) * sizeof *eff);
	uint32_t *orig = xmalloc((na + 1) * sizeof *orig);
	Arena *ar = anew();
	int rc = 0;

	for (uint32_t j = 0; j < nb; j++)
		tb[j] = text(g->fb, &g->fb->stmt[g->b0 + j]);
	int32_t n = vcopies(g->fa, g->tally, g->vscratch, g->a0, g->a1, tb,
		nb, eff, orig, ar, g->why);
	if (n < 0)
		rc = -1, n = 0;
	g->orig = orig;
	g->eff = eff;
	g->n = (uint32_t)n;
	for (int32_t i = 0; i < n; i++)
		ta[i] = text(g->fa, &eff[i]);
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
			access(&eff[i], &acc[i]);
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
		rc = laterorder(g, eff, pos, (uint32_t)n);
	if (!rc)
		rc = deferred(g);
	for (int32_t i = 0; i < n; i++) {
		free(acc[i].def);
		free(acc[i].use);
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

/* Walks both bodies fixed statement by fixed statement. */
static int
launchvalue(Opnd *o)
{
	static const char *const v[] = {"%tid", "%ntid", "%ctaid", "%nctaid",
		"%cluster_ctaid", "%cluster_nctaid", "%clusterid",
		"%nclusterid", "%cluster_ctarank", "%cluster_nctarank",
		"%gridid", "%nsmid", "%total_smem_size", "%dynamic_smem_size"};

	for (size_t i = 0; o->kind == Preg && o->reg < 0 && i < countof(v); i++)
		if (!strcmp(o->s, v[i]))
			return 1;
	return 0;
}

/* A load of read-only memory (.global.nc) into registers written once,
 * from an address in a register written once: the same value wherever
 * it runs. */
static int
readonly(Stmt *s, uint32_t *writes)
{
	if (s->kind != Sins || s->guard || s->op != Old || s->nop != 2
	|| !has(s, ".global") || !has(s, ".nc") || s->opd[1].kind != Paddr
	|| s->opd[1].nsub != 1)
		return 0;
	Opnd *b = &s->opd[1].sub[0], *d = &s->opd[0];
	if (b->kind != Preg || b->reg < 0 || writes[b->reg] != 1)
		return 0;
	if (d->kind == Preg)
		return d->reg >= 0 && writes[d->reg] == 1;
	if (d->kind != Pvec)
		return 0;
	for (uint32_t i = 0; i < d->nsub; i++)
		if (d->sub[i].kind != Preg || d->sub[i].reg < 0
		|| writes[d->sub[i].reg] != 1)
			return 0;
	return 1;
}

/* Arithmetic on registers of constant value is constant too: pure (no
 * memory, no ordering), cannot fault (no division), unguarded, writing
 * one register nothing else writes, reading only registers whose one
 * definition is constant. */
static int
arith(Stmt *s, uint32_t *writes, uint8_t *kreg, int *uni)
{
	Acc a = {0};
	int ok;

	if (s->guard || s->nop < 2 || s->op == Odiv || s->op == Orem
	|| effect(s) != Enone || s->opd[0].kind != Preg || s->opd[0].reg < 0
	|| writes[s->opd[0].reg] != 1 || opdefs(s) != D0)
		return 0;
	access(s, &a);
	ok = a.nuse > 0 && a.ndef == 1;
	*uni = 1;
	for (uint32_t j = 0; j < a.nuse && ok; j++) {
		ok = kreg[a.use[j]] != 0;
		*uni &= kreg[a.use[j]] == 2;
	}
	free(a.def);
	free(a.use);
	return ok;
}

/* shfl.sync.idx of a register that holds one value in every lane of the
 * warp, all lanes taking part (mask -1): it gives that value.  Its
 * statement cannot run again just anywhere (lanes may have diverged
 * there), but a mov of its source can. */
static int
broadcast(Stmt *s, uint32_t *writes, uint8_t *kreg)
{
	Opnd *m = &s->opd[4];

	return s->op == Oshfl && !s->guard && s->nop == 5 && has(s, ".sync")
		&& has(s, ".idx") && has(s, ".b32") && s->opd[0].kind == Preg
		&& s->opd[0].reg >= 0 && writes[s->opd[0].reg] == 1
		&& s->opd[1].kind == Preg && s->opd[1].reg >= 0
		&& kreg[s->opd[1].reg] == 2 && m->kind == Pint
		&& (m->minus ? !strcmp(m->s, "1")
		: !strcmp(m->s, "0xffffffff") || !strcmp(m->s, "0xFFFFFFFF"));
}

/* The mov that gives what broadcast s gives: its text is the constant
 * definition B may hold. */
static Str
asmov(Func *f, Stmt *s)
{
	static Str b32;
	Stmt t = *s;

	if (!b32)
		b32 = interns(".b32");
	t.op = Omov;
	t.name = interns("mov");
	t.nmod = 1;
	t.mod = &b32;
	t.nop = 2;
	return text(f, &t);
}

/* How many statements of f write each register. */
static uint32_t *
writecount(Func *f)
{
	uint32_t *writes = calloc(f->nreg + 1, sizeof *writes);

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Acc a = {0};
		if (f->stmt[i].kind != Sins)
			continue;
		access(&f->stmt[i], &a);
		for (uint32_t j = 0; j < a.ndef; j++)
			writes[a.def[j]]++;
		free(a.def);
		free(a.use);
	}
	return writes;
}

/* Definitions whose value cannot change while the kernel runs, of a
 * register nothing else writes: an unguarded mov of an immediate, a
 * symbol or a launch constant, or an ld.param of a kernel parameter.
 * Running one again anywhere changes nothing. */
static Str *
konstants(Func *f, uint32_t *writes, const uint8_t *tm, uint32_t *n,
	int32_t **load)
{
	Str *k = xmalloc((f->nstmt + 1) * sizeof *k);
	*load = xmalloc((f->nstmt + 1) * sizeof **load);

	*n = 0;
	/* leaves first, then arithmetic whose every input is such a
	 * register, to a fixed point.  kreg: 1 constant, 2 constant and
	 * the same in every thread (no %tid, no memory) */
	uint8_t *kreg = calloc(f->nreg + 1, 1), *kst = calloc(f->nstmt + 1, 1);
	int32_t *pos = xmalloc((f->nstmt + 1) * sizeof *pos);
	for (int changed = 1, pass = 0; changed && pass < 9; pass++) {
		changed = 0;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			Stmt *s = &f->stmt[i];
			int leaf = 0, ok = 0, uni = 0;
			if (kst[i] || s->kind != Sins)
				continue;
			if (readonly(s, writes))
				ok = leaf = 1;
			else if (!s->guard && s->nop == 2 && s->opd[0].kind == Preg
			&& s->opd[0].reg >= 0 && writes[s->opd[0].reg] == 1
			&& !f->reg[s->opd[0].reg].pred) {
				Opnd *o = &s->opd[1];
				ok = s->op == Omov && (((o->kind == Pint
					|| o->kind == Pflt || o->kind == Psym)
					&& !o->nsub) || launchvalue(o));
				ok |= s->op == Old && f->entry && has(s, ".param")
					&& o->kind == Paddr && o->nsub == 1
					&& o->sub[0].kind == Psym;
				uni = ok && (s->op == Old || o->kind != Preg
					|| strcmp(o->s, "%tid"));
			}
			if (!ok && broadcast(s, writes, kreg))
				ok = uni = 1, kst[i] = 2;
			if (!ok)
				ok = arith(s, writes, kreg, &uni);
			if (!ok)
				continue;
			kst[i] |= 1;
			pos[i] = leaf && s->op == Old && has(s, ".nc")
				? (int32_t)i : -1;
			Acc a = {0};
			access(s, &a);
			for (uint32_t j = 0; j < a.ndef; j++)
				kreg[a.def[j]] = uni ? 2 : 1;
			free(a.def);
			free(a.use);
			changed = 1;
		}
	}
	/* a copy that writes a register a tcgen05.st or a wgmma may still
	 * read (a tcgen05.ld or a wgmma still write) is an access the
	 * tensor core races with, even of the value it holds, and the PTX
	 * ISA leaves it undefined: none is taken (opt fuzzer's fo24) */
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (kst[i] && !asyncwrite(&f->stmt[i], tm)) {
			(*load)[*n] = pos[i];
			k[(*n)++] = kst[i] == 3 ? asmov(f, &f->stmt[i])
				: text(f, &f->stmt[i]);
		}
	free(kreg);
	free(kst);
	free(pos);
	return k;
}

/* Statement j of B may be a wait A does not have: an unguarded
 * wgmma.wait_group waits longer, which changes no value (accumulators
 * are read after a wait either way), provided the whole warp runs it
 * together, as .aligned demands.  That holds when, walking back in its
 * block, an unguarded .aligned wgmma instruction comes before any label
 * a branch names and any branch, call or exit: nothing between let the
 * warp's threads part. */
static int
extrawait(Func *f, const uint8_t *targets, uint32_t j)
{
	Stmt *s = &f->stmt[j];

	if (s->kind != Sins || s->op != Owgmma_wait_group || s->guard
	|| !has(s, ".aligned"))
		return 0;
	while (j-- > 0) {
		s = &f->stmt[j];
		if (s->kind == Slabel && targets[j])
			return 0;
		if (s->kind != Sins)
			continue;
		if (opinfo[s->op].klass == Kctl)
			return 0;
		if (!strncmp(opinfo[s->op].name, "wgmma.", 6))
			return !s->guard && has(s, ".aligned");
	}
	return 0;
}

/* A special register whose value may change while the thread runs
 * (%warpid, %smid, ...): anything but a launch constant or %laneid. */
static int
volatilereg(Opnd *o)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		if (volatilereg(&o->sub[i]))
			return 1;
	return o->kind == Preg && o->reg < 0 && !launchvalue(o)
		&& strcmp(o->s, "%laneid");
}

/* A's definitions remat=loop may copy: pure arithmetic (no memory, no
 * ordering, no division), unguarded, writing one register nothing else
 * writes.  The copy reads what the definition reads, so it is the same
 * value where those registers hold the same (loopvalues). */
static Lc *
loopchains(Func *f, const uint32_t *writes, const uint8_t *tm, uint32_t *n)
{
	Lc *lc = xmalloc((f->nstmt + 1) * sizeof *lc);

	*n = 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->guard || s->nop < 2
		|| s->op == Odiv || s->op == Orem || effect(s) != Enone
		|| opdefs(s) != D0 || s->opd[0].kind != Preg
		|| s->opd[0].reg < 0 || writes[s->opd[0].reg] != 1
		|| asyncwrite(s, tm))
			continue;
		/* special registers other than launch constants (%warpid,
		 * %smid, ...) may read differently when run again */
		int special = 0;
		for (uint32_t k = 1; k < s->nop; k++)
			special |= volatilereg(&s->opd[k]);
		if (!special)
			lc[(*n)++] = (Lc){text(f, s), i};
	}
	if (*n)
		qsort(lc, *n, sizeof *lc, lccmp);
	return lc;
}

/* The copies noted by pending(): each B statement p copies A's
 * statement a, which B runs at amap[a].  Every register the copy reads
 * must hold at p what it held there: amap[a] dominates p, and none of
 * the places where A writes that register (as B places them) lies on a
 * path from amap[a] to p that does not run amap[a] again.  (B's other
 * copies write the values A's definitions write; by induction over the
 * run, they change nothing.) */
static int
loopvalues(Func *fa, Func *fb, const int32_t *amap, const uint32_t *writes,
	Pend *pd, Buf *why)
{
	Dom *d = domnew(fb);
	uint32_t nr = fa->nreg + 1;
	uint32_t *s0 = calloc(nr + 1, sizeof *s0), *fill = calloc(nr, sizeof *fill);
	int rc = 0;

	/* where A writes each register, as B places it (-1: B lacks it) */
	for (uint32_t r = 0; r < nr; r++)
		s0[r + 1] = s0[r] + writes[r];
	uint32_t *site = xmalloc((s0[nr] + 1) * sizeof *site);
	for (uint32_t i = 0; i < fa->nstmt; i++) {
		Acc w = {0};
		if (fa->stmt[i].kind != Sins)
			continue;
		access(&fa->stmt[i], &w);
		for (uint32_t y = 0; y < w.ndef; y++)
			site[s0[w.def[y]] + fill[w.def[y]]++] = (uint32_t)amap[i];
		free(w.def);
		free(w.use);
	}
	for (uint32_t k = 0; k < pd->n && !rc; k += 2) {
		uint32_t p = pd->v[k], a = pd->v[k + 1];
		Acc u = {0};
		if (p == UINT32_MAX)    /* claimed as a hoisted statement */
			continue;
		int ok = amap[a] >= 0;
		access(&fb->stmt[p], &u);
		for (uint32_t x = 0; x < u.nuse && ok; x++) {
			uint32_t r = (uint32_t)u.use[x];
			for (uint32_t i = s0[r]; i < s0[r + 1] && ok; i++)
				ok = site[i] != UINT32_MAX;
			ok = ok && domstable(d, (uint32_t)amap[a], p,
				site + s0[r], s0[r + 1] - s0[r]);
		}
		free(u.def);
		free(u.use);
		if (!ok)
			rc = fail(why, fb, &fb->stmt[p], "'%s' appears in the "
				"rewrite where what it reads may differ from "
				"where the original computes it",
				text(fb, &fb->stmt[p]));
	}
	free(site);
	free(s0);
	free(fill);
	domfree(d);
	return rc;
}

/* ---- statements B runs earlier, across fixed statements ---- */

/* Per statement, its innermost scope's Sopen, or -1 at the top. */
int32_t *
scopeof(Func *f)
{
	int32_t *sc = xmalloc((f->nstmt + 1) * sizeof *sc), top = -1;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (f->stmt[i].kind == Sclose)
			top = top >= 0 ? sc[top] : -1;
		sc[i] = top;
		if (f->stmt[i].kind == Sopen)
			top = (int32_t)i;
	}
	return sc;
}

/* Where a bra at b goes: the one label of its name in b's scope or,
 * failing that, in the nearest enclosing scope that has the name. */
int64_t
bratarget(Func *f, const int32_t *sc, uint32_t b, Str t)
{
	for (int32_t want = sc[b];; want = sc[want]) {
		int64_t hit = -1;
		for (uint32_t j = 0; j < f->nstmt; j++)
			if (f->stmt[j].kind == Slabel && f->stmt[j].name == t
			&& sc[j] == want) {
				if (hit >= 0)
					return -1;
				hit = j;
			}
		if (hit >= 0 || want < 0)
			return hit;
	}
}

/* Control enters A's [lo, hi) only at lo and leaves only at hi: its
 * control instructions are bra alone, each to a label in it, and no
 * statement elsewhere names a label at its top level. */
static int
closedrun(Func *f, uint32_t lo, uint32_t hi)
{
	int32_t *sc = scopeof(f);
	int ok = 1;

	for (uint32_t i = 0; i < f->nstmt && ok; i++) {
		Stmt *s = &f->stmt[i];
		int in = i >= lo && i < hi;
		int bra = s->kind == Sins && !strcmp(s->name, "bra");
		uint32_t m = s->kind == Sdir ? s->decl->nattr
			: s->kind == Sins ? s->nop : 0;
		if (in && s->kind == Sins && effect(s) == Efixed
		&& opinfo[s->op].klass == Kctl && !bra)
			ok = 0;
		for (uint32_t k = 0; k < m && ok; k++) {
			Str t = s->kind == Sdir ? s->decl->attr[k]
				: s->opd[k].kind == Psym ? s->opd[k].s : 0;
			if (!t)
				continue;
			if (in && bra) {
				int64_t l = bratarget(f, sc, i, t);
				ok = l >= (int64_t)lo && l < (int64_t)hi;
			} else
				for (uint32_t j = lo; j < hi && ok; j++)
					ok = !(f->stmt[j].kind == Slabel
						&& sc[j] < 0 && f->stmt[j].name == t);
		}
	}
	free(sc);
	return ok;
}

static int
meets(Stmt *s, const Acc *x)
{
	Acc a;
	int hit = 0;

	if (s->kind != Sins)
		return 0;
	access(s, &a);
	for (uint32_t i = 0; i < a.ndef && !hit; i++)
		for (uint32_t k = 0; k < x->nuse + x->ndef && !hit; k++)
			hit = a.def[i] == (k < x->nuse ? x->use[k]
				: x->def[k - x->nuse]);
	for (uint32_t i = 0; i < a.nuse && !hit; i++)
		for (uint32_t k = 0; k < x->ndef && !hit; k++)
			hit = a.use[i] == x->def[k];
	free(a.def);
	free(a.use);
	return hit;
}

/* A wait that completes registers an asynchronous instruction still
 * reads or writes: wgmma.wait_group (bit 4 of tm, a wgmma's vector
 * operands), tcgen05.wait::ld and ::st (bits 1 and 2); an unknown
 * instruction might be any of them.  No access to those registers may
 * cross it: before it, the tensor core may still be at them. */
static int
completes(Stmt *s, const Acc *x, const uint8_t *tm)
{
	int bits = s->kind != Sins ? 0
		: s->op == Owgmma_wait_group ? 4
		: s->op == Otcgen05_wait_ld ? 1
		: s->op == Otcgen05_wait_st ? 2
		: s->op == Ounknown ? 7 : 0;

	return bits && tmemtouch(x, tm, bits);
}

/* B runs X, A's statement c->a of A's segment c->aseg, in its earlier
 * segment c->seg.  Right when X works on registers alone (no memory,
 * collective, carry or guard); control goes from X's place in B to its
 * place in A only through the fixed statements and segments between,
 * which it enters at their top (closedrun); and nothing on the way
 * (B's statements after X in its segment, A's statements between the
 * two segments) writes a register X reads or touches one it writes.
 * What A ran before X in X's own segment regorder has checked, with X
 * first.  Registers are compared by number: both functions declare
 * the same registers in the same order (the header, and the fixed
 * statements, scopes with their declarations among them). */
/* closedrun's last answer: the statements that move across one run
 * are many (64 converts in Triton's softmax), the run is one */
typedef struct Closed { uint32_t lo, hi; int ok; } Closed;

static int
hoisted(Func *fa, Func *fb, const Cand *c, const uint32_t *aend,
	const uint32_t *astart, const uint32_t *bend, Closed *cl,
	const uint8_t *tm, Buf *why)
{
	Stmt *x = &fa->stmt[c->a];
	int ok = 1;

	if (!c->plain)
		return fail(why, fa, x, "'%s' moved across fixed statements, "
			"and it is not plain register arithmetic", c->t);
	if (cl->lo != aend[c->seg] || cl->hi != astart[c->aseg])
		*cl = (Closed){aend[c->seg], astart[c->aseg],
			closedrun(fa, aend[c->seg], astart[c->aseg])};
	if (!cl->ok)
		return fail(why, fa, x, "'%s' moved across fixed statements "
			"that control may enter or leave in between", c->t);
	for (uint32_t j = c->b + 1; j < bend[c->seg] && ok; j++)
		ok = !meets(&fb->stmt[j], &c->x);
	for (uint32_t j = aend[c->seg]; j < astart[c->aseg] && ok; j++)
		ok = !meets(&fa->stmt[j], &c->x);
	if (!ok)
		return fail(why, fa, x, "'%s' moved across a statement that "
			"shares its registers", c->t);
	for (uint32_t j = aend[c->seg]; j < astart[c->aseg] && ok; j++)
		ok = !completes(&fa->stmt[j], &c->x, tm);
	if (!ok)
		return fail(why, fa, x, "'%s' moved across a wait that "
			"completes its registers", c->t);
	return 0;
}

static int
body(Func *fa, Func *fb, Buf *why)
{
	/* first: every text below (constants' too) knows the scopes */
	uint8_t *sca = scopedregs(fa), *scb = scopedregs(fb);
	scoped[0].f = fa, scoped[0].sc = sca;
	scoped[1].f = fb, scoped[1].sc = scb;
	paramaddr = !fa->entry && (takesparam(fa) || takesparam(fb));
	uint8_t *ma = movables(fa), *mb = movables(fb);
	uint32_t i = 0, j = 0, nk;
	int rc = 0;
	int32_t *kload;
	uint32_t *writes = writecount(fa);
	uint8_t *tm = tmemregs(fa);
	Str *konst = konstants(fa, writes, tm, &nk, &kload);
	Dom *adom = 0;
	uint32_t *tally = vtally(fa);
	size_t nr = (size_t)fa->nreg + 1;
	int32_t *lastw = xmalloc(nr * sizeof *lastw);
	uint32_t *maxr = xmalloc(nr * sizeof *maxr);
	uint8_t *seen = xmalloc(nr);
	int32_t *vs = xmalloc(4 * nr * sizeof *vs);
	uint8_t *tb = branchtargets(fb), *xb = calloc(fb->nstmt + 1, 1);
	int32_t *amap = xmalloc((fa->nstmt + 1) * sizeof *amap);
	uint32_t nlc;
	Lc *lc = loopchains(fa, writes, tm, &nlc);
	Pend pend = {0};
	Up up = {0};
	Later later = {0};
	uint8_t *wx = calloc(fb->nstmt + 1, 1);
	uint32_t nseg = 0, *astart = xmalloc((fa->nstmt + fb->nstmt + 2)
		* 4 * sizeof *astart);
	uint32_t *aend = astart + fa->nstmt + fb->nstmt + 2;
	uint32_t *bstart = aend + fa->nstmt + fb->nstmt + 2;
	uint32_t *bend = bstart + fa->nstmt + fb->nstmt + 2;

	for (uint32_t k = 0; k < fa->nstmt; k++)
		amap[k] = -1;
	while (!rc && (i < fa->nstmt || j < fb->nstmt)) {
		Seg g = {fa, fb, i, i, j, j, why, 0, 0, konst, nk, kload, &adom,
			tally, lastw, maxr, seen, vs, xb, amap, lc, nlc, &pend,
			tm, &up, nseg, 0, &later, wx};
		while (g.a1 < fa->nstmt && ma[g.a1])
			g.a1++;
		/* B's segment runs over waits it adds (a wait A has next
		 * pairs with A's, but for the first one after wgmmas the
		 * segment before deferred: theirs) */
		int took = 0;
		for (;;) {
			int def = !took && laterpending(&later, nseg);
			while (g.b1 < fb->nstmt && mb[g.b1])
				g.b1++;
			if (g.b1 == fb->nstmt || !extrawait(fb, tb, g.b1)
			|| (!def && g.a1 < fa->nstmt
			&& text(fa, &fa->stmt[g.a1])
			== text(fb, &fb->stmt[g.b1])))
				break;
			xb[g.b1++] = 1;
			took = 1;
		}
		astart[nseg] = g.a0, aend[nseg] = g.a1;
		bstart[nseg] = g.b0, bend[nseg] = g.b1;
		nseg++;
		if (g.a1 > g.a0 || g.b1 > g.b0)
			rc = segment(&g, ma);
		i = g.a1;
		j = g.b1;
		if (rc)
			break;
		if (i < fa->nstmt && j < fb->nstmt) {
			if (text(fa, &fa->stmt[i]) != text(fb, &fb->stmt[j]))
				rc = fail(why, fa, &fa->stmt[i],
					"fixed statement '%s' changed or moved",
					text(fa, &fa->stmt[i]));
			amap[i] = (int32_t)j;
			i++;
			j++;
		} else if (i < fa->nstmt || j < fb->nstmt) {
			rc = fail(why, fa, &fa->stmt[i < fa->nstmt ? i : 0],
				"%s", "the bodies end differently");
		}
	}
	Closed cl = {UINT32_MAX, 0, 0};
	for (uint32_t k = 0; k < up.n && !rc; k++) {
		Cand *c = &up.v[k];
		if (c->a < 0 && c->soft)
			continue;
		if (c->a < 0)
			rc = fail(why, fb, &fb->stmt[c->b], "'%s' appears in the "
				"rewrite before a fixed statement but not in the "
				"original", c->t);
		else
			rc = hoisted(fa, fb, c, aend, astart, bend, &cl, tm, why);
	}
	for (uint32_t k = 0; k < later.n && !rc; k++)
		if (later.v[k].b < 0)
			rc = fail(why, fa, &fa->stmt[later.v[k].a], "'%s' is "
				"missing here and from the next segment",
				later.v[k].t);
	free(later.v);
	free(wx);
	if (!rc && pend.n)
		rc = loopvalues(fa, fb, amap, writes, &pend, why);
	free(pend.v);
	for (uint32_t k = 0; k < up.n; k++) {
		free(up.v[k].x.def);
		free(up.v[k].x.use);
	}
	free(up.v);
	free(astart);
	free(tm);
	free(lc);
	free(writes);
	free(amap);
	free(ma);
	free(mb);
	free(tb);
	free(xb);
	free(tally);
	free(lastw);
	free(maxr);
	free(seen);
	free(vs);
	domfree(adom);
	free(kload);
	free(konst);
	scoped[0].f = scoped[1].f = 0;
	free(sca);
	free(scb);
	return rc;
}

static Str
header(Item *it)
{
	Func f = *it->fn;
	Item c = *it;
	Buf b = {0};
	Str r;

	f.nstmt = 0;
	c.fn = &f;
	printitem(&b, &c);
	r = intern(b.p, b.n);
	free(b.p);
	return r;
}

static Str
itemtext(Item *it)
{
	Buf b = {0};
	Str r;

	printitem(&b, it);
	r = intern(b.p ? b.p : "", b.n);
	free(b.p);
	return r;
}

/* setmaxnreg counts may differ between the two functions when the new
 * ones are proven to fit (vbudget.c); then a's statements take b's
 * counts for the comparison, and *saved keeps a's to put back.  Returns
 * the number of sites changed, or -1. */
static int
budgets(Func *fa, Func *fb, Str **saved, Buf *why)
{
	uint32_t na = 0, nb = 0;
	int changed = 0;

	for (uint32_t i = 0; i < fa->nstmt; i++)
		na += fa->stmt[i].kind == Sins && fa->stmt[i].op == Osetmaxnreg;
	for (uint32_t i = 0; i < fb->nstmt; i++)
		nb += fb->stmt[i].kind == Sins && fb->stmt[i].op == Osetmaxnreg;
	*saved = 0;
	if (!na || na != nb)
		return 0;
	Stmt **sa = xmalloc(na * sizeof *sa), **sb = xmalloc(na * sizeof *sb);
	for (uint32_t i = 0, k = 0; i < fa->nstmt; i++)
		if (fa->stmt[i].kind == Sins && fa->stmt[i].op == Osetmaxnreg)
			sa[k++] = &fa->stmt[i];
	for (uint32_t i = 0, k = 0; i < fb->nstmt; i++)
		if (fb->stmt[i].kind == Sins && fb->stmt[i].op == Osetmaxnreg)
			sb[k++] = &fb->stmt[i];
	for (uint32_t k = 0; k < na; k++)
		changed += sa[k]->nop && sb[k]->nop
			&& sa[k]->opd[0].s != sb[k]->opd[0].s;
	if (changed && budgetfit(fb, 0, why)) {
		free(sa);
		free(sb);
		return -1;
	}
	if (changed) {
		*saved = xmalloc(na * sizeof **saved);
		for (uint32_t k = 0; k < na; k++) {
			(*saved)[k] = sa[k]->opd[0].s;
			if (sa[k]->nop && sb[k]->nop)
				sa[k]->opd[0].s = sb[k]->opd[0].s;
		}
	}
	free(sa);
	free(sb);
	return changed;
}

static void
unbudget(Func *fa, Str *saved)
{
	for (uint32_t i = 0, k = 0; saved && i < fa->nstmt; i++)
		if (fa->stmt[i].kind == Sins && fa->stmt[i].op == Osetmaxnreg)
			fa->stmt[i].opd[0].s = saved[k++];
	free(saved);
}

/* 0 when b is proven to compute what a computes; else -1, with the
 * first reason in why. */
int
validate(Module *a, Module *b, Buf *why)
{
	if (a->nitem != b->nitem) {
		bputs(why, "the modules have different numbers of items\n");
		return -1;
	}
	for (uint32_t i = 0; i < a->nitem; i++) {
		Item *x = &a->item[i], *y = &b->item[i];
		if (x->kind != y->kind) {
			bprintf(why, "item %u differs in kind\n", i);
			return -1;
		}
		if (x->kind != Ifunc) {
			if (itemtext(x) != itemtext(y)) {
				bprintf(why, "line %u: module-level statement "
					"changed\n", x->pos.line);
				return -1;
			}
			continue;
		}
		if (header(x) != header(y)) {
			bprintf(why, "%s: the function header changed "
				"(name, parameters or directives)\n", x->fn->name);
			return -1;
		}
		Str *saved = 0;
		Func *fb = y->fn;
		/* registers B declares and A does not: the early pass's
		 * values, proven on their own and taken out (vearly.c) */
		if (x->fn->body && !(fb = unearly(b, x->fn, y->fn, why)))
			return -1;
		if (x->fn->body && budgets(x->fn, fb, &saved, why) < 0)
			return -1;
		int rc = x->fn->body ? body(x->fn, fb, why) : 0;
		unbudget(x->fn, saved);
		if (rc)
			return -1;
	}
	return 0;
}

static int
helpvalidate(FILE *f)
{
	fprintf(f,
"usage: ptxpress validate ORIG NEW\n"
"\n"
"Proves, function by function, that NEW computes what ORIG computes: the\n"
"same headers and declarations, the same fixed statements (branch\n"
"targets, branches, calls, waits, inline asm scopes) in the same order,\n"
"and between them the same instructions, reordered only where no\n"
"register, memory, barrier, fence, async, collective or carry-flag\n"
"dependence forbids it.  It shares no code with the schedulers.\n"
"Beyond reordering it proves the rewrites opt makes: copies removed,\n"
"constants and address math computed again, wgmma waits added and\n"
"groups split, arithmetic run before a wait loop, setmaxnreg budgets\n"
"re-split where they fit the register file, and registers NEW declares\n"
"that ORIG does not (the early pass): written only by arithmetic, read\n"
"only by copies, each copy's value the same on every path and the one\n"
"ORIG computes into the copy's destination.\n"
"\n"
"Exit status: 0 proven, 1 not proven (the first reason is printed),\n"
"2 a file cannot be read or parsed.\n");
	return f == stdout ? 0 : 2;
}

int
cmdvalidate(int argc, char **argv)
{
	Diag da, db;
	char *sa, *sb;
	Buf why = {0};
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help")
	|| !strcmp(argv[1], "-h")))
		return helpvalidate(stdout);
	if (argc != 3)
		return helpvalidate(stderr);
	Module *a = load(argv[1], &da, &sa);
	Module *b = load(argv[2], &db, &sb);
	if (!a || !b || a->nerr || b->nerr) {
		unload(a, sa);
		unload(b, sb);
		return 2;
	}
	rc = validate(a, b, &why);
	if (rc)
		fprintf(stderr, "%s: not proven: %s", argv[2], why.p);
	else
		fprintf(stderr, "%s: proven equivalent to %s\n", argv[2],
			argv[1]);
	free(why.p);
	unload(a, sa);
	unload(b, sb);
	return rc ? 1 : 0;
}
