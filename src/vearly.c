/* vearly.c: proves a value computed early and copied later (the early
 * pass), on its own: it shares nothing with passes/early.c.
 *
 * B may declare registers that A does not (fresh ones).  Then:
 *  - a statement that writes a fresh register is plain arithmetic at
 *    the top level (pure, unguarded, no carry), operand 0 the one
 *    register it writes, every operand plain; it may read anything;
 *  - a fresh register is read only by such statements and by copies
 *    `mov R, g` (R not fresh, unguarded, at the top level);
 *  - at each copy, g holds one expression E on every path from the
 *    entry: a forward data-flow over B's own blocks, values numbered as
 *    trees of (opcode and modifiers, operands) over the registers they
 *    read (leaves, by name); a write of a leaf, or a wait that completes
 *    registers an asynchronous instruction names while the leaf is one
 *    of them, forgets the value;
 *  - A writes R in exactly one statement, whose tree, followed through
 *    registers A writes once and reads once (there), is E, and none of
 *    those inner registers is named anywhere in B.
 * Then B' (B less its fresh declarations and the statements writing
 * fresh registers, each copy replaced by A's statements of its tree,
 * in A's order) computes what B computes: at the copy the tree's
 * statements compute E from the leaves' values there, which is g, and
 * the inner registers they write are read by nothing else.  body()
 * proves B' against A, so the tree's statements must also sit, in B,
 * where A's order allows them.  unearly() builds B'. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* An operand of a value: another value, a register read (a leaf), by
 * its declaration's prefix and index (the same in A and B), or a
 * literal. */
typedef struct Varg {
	int kind;               /* 0 value, 1 leaf, 2 literal */
	int32_t id;             /* value, or the literal's minus */
	Str s;                  /* leaf prefix, literal spelling */
	uint32_t idx;           /* leaf index; named: UINT32_MAX */
} Varg;

typedef struct Vnode {
	Str key;                /* op, modifiers, args: for hash-consing */
	Str op;                 /* opcode and modifiers */
	Varg *arg;
	uint32_t narg;
	int32_t *leaf;          /* B's register ids, sorted, unique */
	uint32_t nleaf;
} Vnode;

typedef struct Ve {
	Func *a, *b;
	Buf *why;
	uint8_t *fresh;         /* per B register */
	int32_t *slot;          /* B register -> index among the fresh */
	uint32_t nf;
	uint8_t *async;         /* per B register: an async op names it */
	uint8_t *isleaf;        /* per B register: some value reads it */
	Vnode *node;
	uint32_t nnode, capnode;
	Dom *dom;               /* B's blocks (dom.c), its own view */
	uint32_t nblk;
	int32_t *in;            /* nblk x nf values; -1 none */
	uint8_t *seen;          /* block reached */
} Ve;

static int
bad(Ve *v, Stmt *s, const char *what)
{
	bprintf(v->why, "%s: line %u: %s\n", v->b->name, s->pos.line, what);
	return -1;
}

/* ---- what B declares that A does not ---- */

static int
declared(Func *f, Str name)
{
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Decl *d = f->stmt[i].kind == Sdecl ? f->stmt[i].decl : 0;
		for (uint32_t k = 0; d && k < d->nname; k++)
			if (d->name[k].name == name)
				return 1;
	}
	for (uint32_t i = 0; i < f->npar; i++)
		for (uint32_t k = 0; k < f->par[i].nname; k++)
			if (f->par[i].name[k].name == name)
				return 1;
	for (uint32_t i = 0; i < f->nret; i++)
		for (uint32_t k = 0; k < f->ret[i].nname; k++)
			if (f->ret[i].name[k].name == name)
				return 1;
	return 0;
}

/* Marks B's fresh declarations in fd; returns how many, or -1. */
static int
freshdecls(Ve *v, uint8_t *fd)
{
	int n = 0, depth = 0;

	for (uint32_t i = 0; i < v->b->nstmt; i++) {
		Stmt *s = &v->b->stmt[i];
		depth += s->kind == Sopen;
		depth -= s->kind == Sclose;
		if (s->kind != Sdecl)
			continue;
		Decl *d = s->decl;
		uint32_t nnew = 0;
		for (uint32_t k = 0; k < d->nname; k++)
			nnew += !declared(v->a, d->name[k].name);
		if (!nnew)
			continue;
		if (nnew != d->nname || depth || !d->nattr
		|| strcmp(d->attr[0], ".reg"))
			return bad(v, s, "a declaration the original does not "
				"have");
		fd[i] = 1;
		n++;
	}
	return n;
}

static void
markfresh(Ve *v, const uint8_t *fd)
{
	Func *b = v->b;

	for (uint32_t i = 0; i < b->nstmt; i++) {
		if (!fd[i])
			continue;
		Decl *d = b->stmt[i].decl;
		for (uint32_t k = 0; k < d->nname; k++)
			for (uint32_t r = 0; r < b->nreg; r++)
				if (b->reg[r].prefix == d->name[k].name)
					v->fresh[r] = 1;
	}
	for (uint32_t r = 0; r < b->nreg; r++)
		v->slot[r] = v->fresh[r] ? (int32_t)v->nf++ : -1;
}

/* ---- operands ---- */

static int
names(const Opnd *o, const uint8_t *set)
{
	if (o->kind == Preg && o->reg >= 0 && set[o->reg])
		return 1;
	for (uint32_t k = 0; k < o->nsub; k++)
		if (names(&o->sub[k], set))
			return 1;
	return 0;
}

static int
touches(const Stmt *s, const uint8_t *set)
{
	if (s->kind != Sins)
		return 0;
	if (s->guard && names(s->guard, set))
		return 1;
	for (uint32_t k = 0; k < s->nop; k++)
		if (names(&s->opd[k], set))
			return 1;
	return 0;
}

static int
plain(const Opnd *o)
{
	return !o->nsub && !hascomp(o) && !o->neg && (o->kind != Preg
		|| o->reg >= 0);
}

/* mov.bN R, {a, b, ...} of plain registers: a value whose arguments
 * are the vector's elements (Triton 3.9 packs P in pairs for
 * add.f32x2 and sums those). */
static int
pack(const Stmt *s)
{
	if (s->kind != Sins || s->op != Omov || s->nop != 2
	|| s->opd[1].kind != Pvec || hascomp(&s->opd[1]) || s->opd[1].neg)
		return 0;
	for (uint32_t k = 0; k < s->opd[1].nsub; k++) {
		const Opnd *e = &s->opd[1].sub[k];
		if (e->kind != Preg || e->reg < 0 || e->nsub || hascomp(e)
		|| e->neg)
			return 0;
	}
	return s->opd[1].nsub > 0;
}

/* A value's arguments: a pack's elements, else operands 1 on. */
static uint32_t
nargs(const Stmt *s)
{
	return pack(s) ? s->opd[1].nsub : s->nop - 1;
}

static const Opnd *
argopnd(const Stmt *s, uint32_t k)
{
	return pack(s) ? &s->opd[1].sub[k] : &s->opd[k + 1];
}

static int
arith(Stmt *s)
{
	if (pack(s))
		return !s->guard && plain(&s->opd[0])
			&& s->opd[0].kind == Preg;
	if (s->kind != Sins || s->guard || s->op == Ounknown
	|| opinfo[s->op].klass != Kpure || opdefs(s) != D0)
		return 0;
	for (uint32_t k = 0; k < s->nmod; k++)
		if (!strcmp(s->mod[k], ".cc"))
			return 0;
	for (uint32_t k = 0; k < s->nop; k++)
		if (!plain(&s->opd[k]))
			return 0;
	return s->nop >= 2 && s->opd[0].kind == Preg;
}

/* ---- values ---- */

static int
icmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* Opcode and modifiers of s, interned. */
static Str
opkey(Stmt *s)
{
	Buf b = {0};
	Str k;

	bputs(&b, s->name);
	for (uint32_t i = 0; i < s->nmod; i++)
		bputs(&b, s->mod[i]);
	bputs(&b, pack(s) ? "{}" : "");
	k = intern(b.p, b.n);
	free(b.p);
	return k;
}

/* Operand o of a statement of f as an argument; kids: B's values of
 * its fresh registers (st), or 0 on A's side (then never a value). */
static int
argof(Ve *v, Func *f, const Opnd *o, const int32_t *st, Varg *a)
{
	memset(a, 0, sizeof *a);
	if (o->kind == Preg && st && v->fresh[o->reg]) {
		a->kind = 0;
		a->id = st[v->slot[o->reg]];
		return a->id >= 0;
	}
	if (o->kind == Preg) {
		Reg *g = &f->reg[o->reg];
		a->kind = 1;
		a->s = g->prefix;
		a->idx = g->named ? UINT32_MAX : g->idx;
		return 1;
	}
	a->kind = 2;
	a->id = o->minus;
	a->s = o->s;
	return 1;
}

static void
argbytes(Buf *b, const Varg *a)
{
	char k = (char)('0' + a->kind);

	bput(b, &k, 1);
	bput(b, (const char *)&a->s, sizeof a->s);
	bput(b, (const char *)&a->id, sizeof a->id);
	bput(b, (const char *)&a->idx, sizeof a->idx);
}

/* The value s computes from st (B's fresh values), or -1. */
static int32_t
value(Ve *v, Stmt *s, const int32_t *st)
{
	Buf b = {0};
	uint32_t na = nargs(s);
	Varg *arg = xmalloc((na + 1) * sizeof *arg);
	Str op = opkey(s);
	int32_t got = -1;

	bput(&b, (const char *)&op, sizeof op);
	for (uint32_t k = 0; k < na; k++) {
		if (!argof(v, v->b, argopnd(s, k), st, &arg[k]))
			goto out;
		argbytes(&b, &arg[k]);
	}
	Str key = intern(b.p, b.n);
	for (uint32_t i = 0; i < v->nnode; i++)
		if (v->node[i].key == key) {
			got = (int32_t)i;
			goto out;
		}
	if (v->nnode == v->capnode) {
		v->capnode = v->capnode ? 2 * v->capnode : 64;
		v->node = xrealloc(v->node, v->capnode * sizeof *v->node);
	}
	/* a new value: the registers it reads, through its operands */
	int32_t *lf = 0;
	uint32_t nl = 0;
	for (uint32_t k = 0; k < na; k++) {
		const Opnd *o = argopnd(s, k);
		if (o->kind != Preg)
			continue;
		if (arg[k].kind == 1) {
			lf = xrealloc(lf, (nl + 1) * sizeof *lf);
			lf[nl++] = o->reg;
			continue;
		}
		Vnode *n = &v->node[arg[k].id];
		lf = xrealloc(lf, (nl + n->nleaf + 1) * sizeof *lf);
		memcpy(lf + nl, n->leaf, n->nleaf * sizeof *lf);
		nl += n->nleaf;
	}
	if (nl)
		qsort(lf, nl, sizeof *lf, icmp);
	uint32_t u = 0;
	for (uint32_t i = 0; i < nl; i++)
		if (!u || lf[u - 1] != lf[i])
			v->isleaf[lf[i]] = 1, lf[u++] = lf[i];
	v->node[v->nnode] = (Vnode){key, op, arg, na, lf, u};
	arg = 0;
	got = (int32_t)v->nnode++;
out:
	free(arg);
	free(b.p);
	return got;
}

static int
hasleaf(const Vnode *n, int32_t r)
{
	uint32_t lo = 0, hi = n->nleaf;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (n->leaf[mid] == r)
			return 1;
		if (n->leaf[mid] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int32_t *curst;

/* A write of r forgets every value that reads r. */
static void
forget(void *arg, int32_t r)
{
	Ve *v = arg;

	if (v->fresh[r] || !v->isleaf[r])
		return;
	for (uint32_t h = 0; h < v->nf; h++)
		if (curst[h] >= 0 && hasleaf(&v->node[curst[h]], r))
			curst[h] = -1;
}

static int
waits(Stmt *s)
{
	return s->kind == Sins && (s->op == Owgmma_wait_group
		|| s->op == Otcgen05_wait_ld || s->op == Otcgen05_wait_st
		|| s->op == Otcgen05_wait || s->op == Ounknown);
}

/* st: the values before s; after it on return. */
static void
step(Ve *v, Stmt *s, int32_t *st)
{
	if (s->kind != Sins)
		return;
	curst = st;
	if (waits(s))
		for (uint32_t h = 0; h < v->nf; h++)
			for (uint32_t k = 0; st[h] >= 0
			&& k < v->node[st[h]].nleaf; k++)
				if (v->async[v->node[st[h]].leaf[k]]
				|| s->op == Ounknown)
					st[h] = -1;
	if (s->nop && s->opd[0].kind == Preg && s->opd[0].reg >= 0
	&& v->fresh[s->opd[0].reg]) {
		st[v->slot[s->opd[0].reg]] = value(v, s, st);
		return;
	}
	vwrites(s, forget, v);
}

/* In-values of every block, to the fixed point: the values all reached
 * predecessors agree on. */
static void
flow(Ve *v)
{
	uint32_t nf = v->nf;
	int32_t *st = xmalloc((nf + 1) * sizeof *st);
	int32_t *out = xmalloc(((size_t)v->nblk * nf + 1) * sizeof *out);
	uint8_t *done = calloc(v->nblk + 1, 1);
	int changed = 1;

	v->in = xmalloc(((size_t)v->nblk * nf + 1) * sizeof *v->in);
	v->seen = calloc(v->nblk + 1, 1);
	for (size_t i = 0; i < (size_t)v->nblk * nf; i++)
		v->in[i] = -1;
	while (changed) {
		changed = 0;
		for (uint32_t b = 0; b < v->nblk; b++) {
			int any = b == 0;
			for (uint32_t h = 0; h < nf; h++)
				st[h] = -2;             /* no path yet */
			if (b == 0)
				for (uint32_t h = 0; h < nf; h++)
					st[h] = -1;
			const uint32_t *pred;
			uint32_t np = dompreds(v->dom, b, &pred);
			for (uint32_t k = 0; k < np; k++) {
				uint32_t p = pred[k];
				if (!done[p])
					continue;
				any = 1;
				for (uint32_t h = 0; h < nf; h++) {
					int32_t x = out[(size_t)p * nf + h];
					st[h] = st[h] == -2 || st[h] == x ? x : -1;
				}
			}
			if (!any)
				continue;
			int32_t *in = &v->in[(size_t)b * nf];
			if (!v->seen[b] || memcmp(in, st, nf * sizeof *st))
				changed = 1;
			memcpy(in, st, nf * sizeof *st);
			v->seen[b] = 1;
			uint32_t first, end;
			domspan(v->dom, b, &first, &end);
			for (uint32_t i = first; i < end; i++)
				step(v, &v->b->stmt[i], st);
			memcpy(&out[(size_t)b * nf], st, nf * sizeof *st);
			done[b] = 1;
		}
	}
	free(st);
	free(out);
	free(done);
}

/* The fresh values before statement i. */
static void
before(Ve *v, uint32_t i, int32_t *st)
{
	uint32_t b = domblk(v->dom, i), first, end;

	memcpy(st, &v->in[(size_t)b * v->nf], v->nf * sizeof *st);
	domspan(v->dom, b, &first, &end);
	for (uint32_t j = first; j < i; j++)
		step(v, &v->b->stmt[j], st);
}

/* ---- A's side ---- */

/* f's register declared as r of g is (prefix and index), or -1 when
 * none is or more than one is (a scope's own). */
static int32_t
regfind(Func *f, const Func *g, int32_t r)
{
	const Reg *w = &g->reg[r];
	int32_t hit = -1;

	for (uint32_t q = 0; q < f->nreg; q++) {
		Reg *x = &f->reg[q];
		if (x->prefix != w->prefix || x->named != w->named
		|| (!x->named && x->idx != w->idx))
			continue;
		if (hit >= 0)
			return -1;
		hit = (int32_t)q;
	}
	return hit;
}

typedef struct Tree {
	uint32_t *at;           /* A's statements */
	uint32_t n;
} Tree;

/* Per A register: statements writing it, and reads. */
typedef struct Cnt { uint32_t *w, *r, *at; int32_t *sc; } Cnt;

static Cnt *cnta;
static uint32_t cnti;

static void
countw(void *arg, int32_t r)
{
	(void)arg;
	cnta->w[r]++;
	cnta->at[r] = cnti;
}

static void
countr(const Opnd *o, Cnt *c)
{
	if (o->kind == Preg && o->reg >= 0)
		c->r[o->reg]++;
	for (uint32_t k = 0; k < o->nsub; k++)
		countr(&o->sub[k], c);
}

static void
counta(Ve *v, Cnt *c)
{
	Func *a = v->a;

	c->w = calloc(a->nreg + 1, sizeof *c->w);
	c->r = calloc(a->nreg + 1, sizeof *c->r);
	c->at = calloc(a->nreg + 1, sizeof *c->at);
	c->sc = scopeof(a);
	cnta = c;
	for (uint32_t i = 0; i < a->nstmt; i++) {
		Stmt *s = &a->stmt[i];
		if (s->kind != Sins)
			continue;
		cnti = i;
		vwrites(s, countw, v);
		/* reads: every operand past a written operand 0, and the
		 * guard (an operand the table says is read and written
		 * counts as read too) */
		Defs df = opdefs(s);
		uint32_t k0 = s->nop && s->opd[0].kind != Paddr
			&& (df == D0 || df == D0U) && s->op != Ounknown
			&& s->op != Ocall ? 1 : 0;
		if (k0 && df == D0U)
			countr(&s->opd[0], c);
		for (uint32_t k = k0; k < s->nop; k++)
			countr(&s->opd[k], c);
		if (s->guard)
			countr(s->guard, c);
	}
}

/* Whether A's statement q computes value x, by the tree x describes;
 * its statements go to t. */
static int
matcha(Ve *v, Cnt *c, uint32_t q, int32_t x, Tree *t)
{
	Stmt *s = &v->a->stmt[q];
	Vnode *n = &v->node[x];
	Varg a;

	/* names bind at the top level in both */
	if (!arith(s) || c->sc[q] >= 0 || opkey(s) != n->op
	|| nargs(s) != n->narg)
		return 0;
	for (uint32_t k = 0; k < nargs(s); k++) {
		const Opnd *o = argopnd(s, k);
		Varg *w = &n->arg[k];
		if (w->kind == 0) {
			int32_t r = o->kind == Preg ? o->reg : -1;
			if (r < 0 || c->w[r] != 1 || c->r[r] != 1 || c->at[r] >= q
			|| !matcha(v, c, c->at[r], w->id, t))
				return 0;
			continue;
		}
		argof(v, v->a, o, 0, &a);
		if (a.kind != w->kind || a.s != w->s || a.idx != w->idx
		|| a.id != w->id)
			return 0;
	}
	t->at = xrealloc(t->at, (t->n + 1) * sizeof *t->at);
	t->at[t->n++] = q;
	return 1;
}

/* ---- B' ---- */

static Opnd *
copyopnds(Arena *ar, const Opnd *o, uint32_t n)
{
	Opnd *c;

	if (!n)
		return 0;
	c = alloc(ar, n * sizeof *c);
	memcpy(c, o, n * sizeof *c);
	for (uint32_t k = 0; k < n; k++)
		if (isagg(c[k].kind))    /* a leaf's word is its ext */
			c[k].sub = copyopnds(ar, o[k].sub, o[k].nsub);
	return c;
}

Stmt
stmtcopy(Arena *ar, const Stmt *s)
{
	Stmt c = *s;

	if (s->kind == Sins) {
		c.opd = copyopnds(ar, s->opd, s->nop);
		c.guard = s->guard ? copyopnds(ar, s->guard, 1) : 0;
	}
	return c;
}

/* Checks B's statements that touch fresh registers; marks the writes
 * (1) and copies (2) in kind. */
static int
classify(Ve *v, uint8_t *kind)
{
	Func *b = v->b;
	int depth = 0;

	for (uint32_t i = 0; i < b->nstmt; i++) {
		Stmt *s = &b->stmt[i];
		depth += s->kind == Sopen;
		depth -= s->kind == Sclose;
		if (!touches(s, v->fresh))
			continue;
		if (!depth && arith(s) && v->fresh[s->opd[0].reg])
			kind[i] = 1;
		else if (!depth && s->op == Omov && !s->guard && s->nop == 2
		&& s->nmod == 1 && plain(&s->opd[0]) && plain(&s->opd[1])
		&& s->opd[0].kind == Preg && s->opd[1].kind == Preg
		&& !v->fresh[s->opd[0].reg] && v->fresh[s->opd[1].reg])
			kind[i] = 2;
		else
			return bad(v, s, "a new register used other than by "
				"arithmetic writing it or a copy from it");
	}
	return 0;
}

/* A's tree for copy i of B, into t. */
static int
treefor(Ve *v, Cnt *c, uint32_t i, int32_t *st, Tree *t)
{
	Stmt *s = &v->b->stmt[i];

	before(v, i, st);
	int32_t x = st[v->slot[s->opd[1].reg]];
	if (x < 0)
		return bad(v, s, "the new register's value is not the same "
			"on every path here");
	int32_t r = regfind(v->a, v->b, s->opd[0].reg);
	if (r < 0 || c->w[r] != 1)
		return bad(v, s, "the original writes the copy's destination "
			"other than once");
	t->n = 0;
	if (!matcha(v, c, c->at[r], x, t))
		return bad(v, s, "the original does not compute the new "
			"register's value into the copy's destination");
	qsort(t->at, t->n, sizeof *t->at, u32cmp);
	return 0;
}

/* No register of A's tree but its root is named in B. */
static int
unseen(Ve *v, const Tree *t, uint8_t *inner)
{
	int ok = 1;

	memset(inner, 0, v->b->nreg + 1);
	for (uint32_t k = 0; k + 1 < t->n; k++) {
		Stmt *s = &v->a->stmt[t->at[k]];
		int32_t r = regfind(v->b, v->a, s->opd[0].reg);
		if (r < 0)
			return 0;       /* not one register of B: unknown */
		inner[r] = 1;
	}
	for (uint32_t i = 0; i < v->b->nstmt && ok; i++)
		ok = !touches(&v->b->stmt[i], inner);
	return ok;
}

static Func *
rebuild(Module *mb, Ve *v, const uint8_t *fd, const uint8_t *kind,
	Tree *tr)
{
	Func *b = v->b, *nb = alloc(mb->a, sizeof *nb);
	uint32_t n = 0, extra = 0, q = 0;

	for (uint32_t i = 0; i < b->nstmt; i++)
		if (kind[i] == 2)
			extra += tr[q++].n;
	*nb = *b;
	nb->stmt = alloc(mb->a, (b->nstmt + extra + 1) * sizeof *nb->stmt);
	q = 0;
	for (uint32_t i = 0; i < b->nstmt; i++) {
		if (fd[i] || kind[i] == 1)
			continue;
		if (kind[i] == 2) {
			Tree *t = &tr[q++];
			for (uint32_t k = 0; k < t->n; k++)
				nb->stmt[n++] = stmtcopy(mb->a,
					&v->a->stmt[t->at[k]]);
			continue;
		}
		nb->stmt[n++] = stmtcopy(mb->a, &b->stmt[i]);
	}
	nb->nstmt = n;
	nb->ana = 0;
	rebind(mb, nb);
	return nb;
}

static void
veclear(Ve *v)
{
	for (uint32_t i = 0; i < v->nnode; i++) {
		free(v->node[i].leaf);
		free(v->node[i].arg);
	}
	free(v->node);
	free(v->fresh);
	free(v->slot);
	free(v->async);
	free(v->isleaf);
	free(v->in);
	domfree(v->dom);
	free(v->seen);
}

static void
asyncregs(Ve *v)
{
	Func *b = v->b;

	for (uint32_t i = 0; i < b->nstmt; i++) {
		Stmt *s = &b->stmt[i];
		if (s->kind != Sins || !(s->op == Otcgen05_ld
		|| s->op == Otcgen05_st || s->op == Owgmma_mma_async))
			continue;
		for (uint32_t k = 0; k < s->nop; k++) {
			Opnd *o = &s->opd[k];
			if (o->kind == Preg && o->reg >= 0)
				v->async[o->reg] = 1;
			for (uint32_t z = 0; z < o->nsub; z++)
				if (o->sub[z].kind == Preg && o->sub[z].reg >= 0)
					v->async[o->sub[z].reg] = 1;
		}
	}
}

/* B itself when it declares nothing A does not; else B', or 0 with
 * why said when the rewrite is not proven. */
Func *
unearly(Module *mb, Func *fa, Func *fb, Buf *why)
{
	Ve v;
	uint8_t *fd = calloc(fb->nstmt + 1, 1);
	int nd;

	memset(&v, 0, sizeof v);
	v.a = fa, v.b = fb, v.why = why;
	nd = freshdecls(&v, fd);
	if (nd <= 0) {
		free(fd);
		return nd < 0 ? 0 : fb;
	}
	v.fresh = calloc(fb->nreg + 1, 1);
	v.slot = xmalloc((fb->nreg + 1) * sizeof *v.slot);
	v.async = calloc(fb->nreg + 1, 1);
	v.isleaf = calloc(fb->nreg + 1, 1);
	markfresh(&v, fd);
	asyncregs(&v);
	uint8_t *kind = calloc(fb->nstmt + 1, 1);
	uint8_t *inner = calloc(fb->nreg + 1, 1);
	Func *out = 0;
	Tree *tr = 0;
	uint32_t nt = 0;
	Cnt c = {0};
	int32_t *st = xmalloc((v.nf + 1) * sizeof *st);
	if (classify(&v, kind))
		goto done;
	/* blocks: split at every label and after every branch, return
	 * and exit; a bra to its label in its scope (dom.c) */
	v.dom = domnew(fb);
	v.nblk = domnblk(v.dom);
	flow(&v);
	counta(&v, &c);
	for (uint32_t i = 0; i < fb->nstmt; i++) {
		if (kind[i] != 2)
			continue;
		tr = xrealloc(tr, (nt + 1) * sizeof *tr);
		tr[nt] = (Tree){0, 0};
		if (treefor(&v, &c, i, st, &tr[nt++]))
			goto done;
		if (!unseen(&v, &tr[nt - 1], inner)) {
			bad(&v, &fb->stmt[i], "a register of the original's "
				"computation is named in the rewrite");
			goto done;
		}
	}
	out = rebuild(mb, &v, fd, kind, tr);
done:
	for (uint32_t k = 0; k < nt; k++)
		free(tr[k].at);
	free(tr);
	free(c.w);
	free(c.r);
	free(c.at);
	free(c.sc);
	free(st);
	free(kind);
	free(inner);
	free(fd);
	veclear(&v);
	return out;
}
