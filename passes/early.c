/* early.c: a long reduction computed as soon as its inputs are written.
 *
 * needs:  resolved registers (regs.c)
 * breaks: register ids (it declares registers and binds every operand
 *         again); the statements' order and count
 * paper:  available expressions (Aho, Sethi & Ullman 10.6) and the
 *         redundancy elimination built on them (Morel & Renvoise 1979),
 *         for one expression at a time.
 *
 * Triton 3.6 pipelines the row sum of P across the loop's back edge:
 * the exp2 of iteration k writes 128 P registers, their fp32 sum is
 * taken at the top of iteration k+1 and again after the loop, so the
 * 128 values are live around the whole loop body where 64 packed ones
 * would do.  The sum is a linear chain (add.f32 a, P0, P1; add.f32 b,
 * a, P2; ...) over registers X that a burst of writes in one block sets
 * all at once.  This pass computes the chain again, into registers of
 * its own (%pxeK_<n>), right after each burst, and replaces each chain
 * over X that finds that value available (the one at the top of the
 * loop, the one after it) by copies of its results.  The additions keep
 * their operands and order, so the sum is bit for bit the same.
 *
 * Triton 3.9 takes the same sum in pairs on Blackwell: 64 packs
 * (mov.b64 %rd, {P0, P1}), a tree of add.f32x2 over them, an unpack
 * and one add.f32.  The packs then lead the chain, and the leaves are
 * the registers they pack.
 *
 * A chain: Minchain or more consecutive instructions (.loc lines
 * between) of one opcode and modifiers, after a run of packs whose
 * results only they read, pure and unguarded, each
 * writing one register that at most one later member reads and nothing
 * else does: a forest of at most Maxroots trees (on Hopper Triton sums
 * two rows at once, interleaved), whose roots are written once.  A
 * burst: a block that writes every register of X, each once, unguarded,
 * by plain arithmetic (not a tcgen05.ld or wgmma, which write at their
 * wait).  The value is available where every path from the entry
 * passed a burst and no write of X since.  The validator (vearly.c)
 * proves it again on the result, sharing nothing with this file. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Minchain = 16, Maxroots = 4, Maxrun = 1024 };

typedef struct Chain {
	uint32_t *at;           /* its instructions, in order */
	uint32_t n;
	Str *key;               /* per instruction: op, modifiers, leaves */
	uint8_t *root;          /* members whose result no member reads */
	int done;               /* replaced, or a template already */
} Chain;

typedef struct Ctx {
	Func *f;
	Rv d, u;
	uint32_t *nw, *nr;      /* statements writing, reading a register */
	Chain *c;
	uint32_t nc;
	uint32_t far;           /* sums replaced away from every burst */
} Ctx;

/* Whether a member of chain c lies inside a { } scope (sc from
 * innerscope()). */
static int
inscope(const int32_t *sc, const Chain *c)
{
	for (uint32_t k = 0; k < c->n; k++)
		if (sc[c->at[k]] >= 0)
			return 1;
	return 0;
}

/* The registers s writes and reads, in x->d and x->u. */
static void
du(Ctx *x, Stmt *s)
{
	x->d.n = x->u.n = 0;
	defuse(s, &x->d, &x->u);
}

static int
plainreg(const Opnd *o)
{
	return o->kind == Preg && o->reg >= 0 && !o->nsub && !hascomp(o)
		&& !o->neg;
}

/* mov.bN R, {a, b, ...}: the registers it reads are plain and in its
 * vector operand. */
static int
ispack(const Stmt *s)
{
	if (s->kind != Sins || s->op != Omov || s->nop != 2
	|| s->opd[1].kind != Pvec || s->opd[1].nsub < 2 || hascomp(&s->opd[1])
	|| s->opd[1].neg)
		return 0;
	for (uint32_t k = 0; k < s->opd[1].nsub; k++)
		if (!plainreg(&s->opd[1].sub[k]))
			return 0;
	return 1;
}

/* The operands a member reads: a pack's vector elements, else operands
 * 1 on. */
static uint32_t
nargs(const Stmt *s)
{
	return ispack(s) ? s->opd[1].nsub : s->nop - 1;
}

static Opnd *
arg(Stmt *s, uint32_t k)
{
	return ispack(s) ? &s->opd[1].sub[k] : &s->opd[k + 1];
}

/* One link of a chain: pure, unguarded, one plain register written
 * (operand 0, not a predicate), every operand plain, or a pack. */
static int
link(Ctx *x, Stmt *s)
{
	if (ispack(s))
		return !s->guard && plainreg(&s->opd[0])
			&& !x->f->reg[s->opd[0].reg].pred;

	if (s->kind != Sins || s->guard || opklass(s) != Kpure
	|| hasmod(s, ".cc") || s->nop < 2 || opdefs(s) != D0
	|| !plainreg(&s->opd[0]) || x->f->reg[s->opd[0].reg].pred)
		return 0;
	/* no component or negation on any operand, a register's or not
	 * (a mutated `!r24`, a symbol: the validator's plain operands,
	 * fo45) */
	for (uint32_t k = 1; k < s->nop; k++)
		if (s->opd[k].nsub || hascomp(&s->opd[k]) || s->opd[k].neg
		|| (s->opd[k].kind == Preg && !plainreg(&s->opd[k])))
			return 0;
	return 1;
}

static int
samekind(Stmt *a, Stmt *b)
{
	if (a->name != b->name || a->nmod != b->nmod || a->nop != b->nop)
		return 0;
	for (uint32_t k = 0; k < a->nmod; k++)
		if (a->mod[k] != b->mod[k])
			return 0;
	return 1;
}

/* The next instruction after i, skipping .loc lines; nstmt if none. */
static uint32_t
nextins(Func *f, uint32_t i)
{
	for (i++; i < f->nstmt && f->stmt[i].kind == Sloc; i++)
		;
	return i;
}

/* Which of the first k members (statements at[]) writes r, or -1. */
static int32_t
member(Func *f, const uint32_t *at, uint32_t k, int32_t r)
{
	for (uint32_t j = 0; j < k; j++)
		if (f->stmt[at[j]].opd[0].reg == r)
			return (int32_t)j;
	return -1;
}

/* The key of member k: its opcode, modifiers and operands, a member's
 * result spelled @j. */
static Str
memberkey(Func *f, const uint32_t *at, uint32_t k)
{
	Stmt *s = &f->stmt[at[k]];
	Buf b = {0};
	char nb[64];
	Str key;

	bputs(&b, s->name);
	for (uint32_t i = 0; i < s->nmod; i++)
		bputs(&b, s->mod[i]);
	bputs(&b, ispack(s) ? " {}" : "");
	for (uint32_t i = 0; i < nargs(s); i++) {
		Opnd *o = arg(s, i);
		int32_t j = o->kind == Preg ? member(f, at, k, o->reg) : -1;
		bputs(&b, " ");
		if (j >= 0)
			bprintf(&b, "@%d", j);
		else if (o->kind == Preg)
			bputs(&b, regname(f, o->reg, nb, sizeof nb));
		else {
			bputs(&b, o->minus ? "-" : "");
			bputs(&b, o->s);
		}
	}
	key = intern(b.p, b.n);
	free(b.p);
	return key;
}

/* Marks in root the first n members whose result none of them reads;
 * returns how many, or 0 when one of them is written more than once
 * (where a copy stands, the result must be the chain's alone, and the
 * validator finds it by that). */
static uint32_t
roots(Ctx *x, const uint32_t *at, uint32_t n, uint8_t *root)
{
	Func *f = x->f;
	uint32_t got = 0;

	memset(root, 1, n);
	for (uint32_t k = 1; k < n; k++) {
		Stmt *s = &f->stmt[at[k]];
		for (uint32_t q = 0; q < nargs(s); q++) {
			int32_t j = arg(s, q)->kind == Preg
				? member(f, at, k, arg(s, q)->reg) : -1;
			if (j >= 0)
				root[j] = 0;
		}
	}
	for (uint32_t j = 0; j < n; j++)
		if (root[j] && (got++, x->nw[f->stmt[at[j]].opd[0].reg] != 1))
			return 0;
	return got;
}

/* The chain (a reduction: a forest of few trees, Triton's two
 * interleaved row sums on Hopper) that starts at instruction i: a run
 * of instructions of one kind, each member's result read by at most
 * one later member and by nothing else. */
static int
chainat(Ctx *x, uint32_t i, const uint32_t *lines, Chain *c)
{
	Func *f = x->f;
	Stmt *s0 = &f->stmt[i], *kind = s0;
	uint32_t n = 0, cap = 64;
	int packs = ispack(s0);         /* still in the leading packs */

	if (!link(x, s0) || !inlines(lines, s0))
		return 0;
	c->at = xmalloc(cap * sizeof *c->at);
	c->at[n++] = i;
	/* a member that reads no member starts a tree: at most Maxroots
	 * of them, so a run of unrelated instructions of one kind ends at
	 * once (and every member but a tree's last is read once: at most
	 * Maxroots roots); Maxrun bounds the quadratic member() scans */
	uint32_t starts = !packs;
	for (uint32_t j = nextins(f, i); j < f->nstmt && n < Maxrun;
		j = nextins(f, j)) {
		Stmt *s = &f->stmt[j];
		int ok = link(x, s) && inlines(lines, s)
			&& f->reg[s->opd[0].reg].type
			== f->reg[s0->opd[0].reg].type;
		if (ok && packs && ispack(s))
			ok = samekind(s0, s)
				&& s->opd[1].nsub == s0->opd[1].nsub;
		else if (ok && packs)   /* the first after the packs */
			kind = s, packs = 0;
		else
			ok = ok && !ispack(s) && samekind(kind, s);
		int reads = 0;
		for (uint32_t q = 0; ok && q < nargs(s); q++) {
			int32_t r = arg(s, q)->kind == Preg ? arg(s, q)->reg
				: -1;
			if (r >= 0 && member(f, c->at, n, r) >= 0) {
				ok = x->nw[r] == 1 && x->nr[r] == 1;
				reads = 1;
			}
		}
		if (ok && !reads && !ispack(s) && ++starts > Maxroots)
			ok = 0;
		if (!ok)
			break;
		if (n == cap)
			c->at = xrealloc(c->at, (cap *= 2) * sizeof *c->at);
		c->at[n++] = j;
	}
	c->root = xmalloc(n + 1);
	for (; n >= Minchain; n--) {
		uint32_t r = roots(x, c->at, n, c->root);
		if (r && r <= Maxroots)
			break;
	}
	c->n = n;
	if (n < Minchain) {
		free(c->at);
		free(c->root);
		return 0;
	}
	c->key = xmalloc(n * sizeof *c->key);
	for (uint32_t k = 0; k < n; k++)
		c->key[k] = memberkey(f, c->at, k);
	c->done = 0;
	return 1;
}

/* An unknown instruction's registers: each counted written and read. */
static void
unkcount(const Opnd *o, uint32_t *nw, uint32_t *nr)
{
	if (o->kind == Preg && o->reg >= 0)
		nw[o->reg]++, nr[o->reg]++;
	for (uint32_t k = 0; k < o->nsub; k++)
		unkcount(&o->sub[k], nw, nr);
}

static void
counts(Ctx *x)
{
	Func *f = x->f;

	x->nw = calloc(f->nreg + 1, sizeof *x->nw);
	x->nr = calloc(f->nreg + 1, sizeof *x->nr);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (f->stmt[i].kind != Sins)
			continue;
		if (f->stmt[i].op == Ounknown) {   /* may write any it names */
			for (uint32_t k = 0; k < f->stmt[i].nop; k++)
				unkcount(&f->stmt[i].opd[k], x->nw, x->nr);
			continue;
		}
		du(x, &f->stmt[i]);
		for (uint32_t k = 0; k < x->d.n; k++)
			x->nw[x->d.v[k]]++;
		for (uint32_t k = 0; k < x->u.n; k++)
			x->nr[x->u.v[k]]++;
	}
}

/* ---- where the value is available ---- */

/* Per block: the statement after which it has written all of X (a
 * burst), or UINT32_MAX. */
static uint32_t
burst(Ctx *x, Blk *b, const uint8_t *inx, uint32_t nleaf, uint8_t *seen)
{
	Func *f = x->f;
	uint32_t got = 0, last = UINT32_MAX;

	for (uint32_t i = b->first; i < b->end; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		du(x, s);
		for (uint32_t k = 0; k < x->d.n; k++) {
			int32_t r = x->d.v[k];
			if (!inx[r])
				continue;
			/* a tcgen05.ld or wgmma writes its registers when
			 * a wait says so, not here: only plain arithmetic */
			if (s->guard || seen[r] || opklass(s) != Kpure
			|| hasmod(s, ".cc"))
				got = UINT32_MAX / 2;   /* spoils it */
			seen[r] = 1;
			got++;
			last = i;
		}
	}
	for (uint32_t i = b->first; i < b->end; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		du(x, s);
		for (uint32_t k = 0; k < x->d.n; k++)
			seen[x->d.v[k]] = 0;
	}
	return got == nleaf ? last : UINT32_MAX;
}

static int
writesx(Ctx *x, Stmt *s, const uint8_t *inx)
{
	if (s->kind != Sins)
		return 0;
	/* an unknown instruction may be a wait that completes what some
	 * asynchronous instruction writes into X: the value is gone
	 * after it (the validator forgets every value there too) */
	if (s->op == Ounknown)
		return 1;
	du(x, s);
	for (uint32_t k = 0; k < x->d.n; k++)
		if (inx[x->d.v[k]])
			return 1;
	return 0;
}

/* Forward must-analysis over the blocks: avail[b] whether the value is
 * there on entry to b.  Optimistic start, iterated down.  A block the
 * entry does not reach (code after a ret) gives nothing: its burst
 * runs never, and the validator's data-flow lets no value out of it
 * (mutated tests). */
static void
avail(Ctx *x, Ana *A, const uint32_t *bu, const uint8_t *inx,
	const uint8_t *live, uint8_t *in)
{
	uint8_t *out = xmalloc(A->nblk + 1);
	int changed = 1;

	for (uint32_t b = 0; b < A->nblk; b++)
		in[b] = b != 0, out[b] = live[b];
	while (changed) {
		changed = 0;
		for (uint32_t b = 0; b < A->nblk; b++) {
			Blk *B = &A->blk[b];
			uint8_t v = b != 0 && B->npred > 0 && live[b], o;
			for (uint32_t k = 0; k < B->npred && v; k++)
				v = out[B->pred[k]];
			o = v;
			for (uint32_t i = B->first; live[b] && i < B->end; i++) {
				if (writesx(x, &x->f->stmt[i], inx))
					o = 0;
				if (i == bu[b])
					o = 1;
			}
			if (v != in[b] || o != out[b])
				changed = 1;
			in[b] = v;
			out[b] = o;
		}
	}
	free(out);
}

/* The blocks the entry reaches. */
static uint8_t *
reached(Ana *A)
{
	uint8_t *live = calloc(A->nblk + 1, 1);
	int changed = 1;

	live[0] = 1;
	while (changed) {
		changed = 0;
		for (uint32_t b = 1; b < A->nblk; b++)
			for (uint32_t k = 0; !live[b]
			&& k < A->blk[b].npred; k++)
				if (live[A->blk[b].pred[k]])
					live[b] = 1, changed = 1;
	}
	return live;
}

/* Whether the value is there at statement i. */
static int
availat(Ctx *x, Ana *A, const uint32_t *bu, const uint8_t *inx,
	const uint8_t *in, uint32_t i)
{
	uint32_t b = A->blkof[i];
	int v = in[b];

	for (uint32_t j = A->blk[b].first; j < i; j++) {
		if (writesx(x, &x->f->stmt[j], inx))
			v = 0;
		if (j == bu[b])
			v = 1;
	}
	return v;
}

/* ---- the rewrite ---- */

Opnd
regopnd(Str name)
{
	Opnd o;

	memset(&o, 0, sizeof o);
	o.kind = Preg;
	o.reg = -1;
	o.s = name;
	return o;
}

static Str
fresh(const char *pre, uint32_t k)
{
	char b[64];

	snprintf(b, sizeof b, "%s%u", pre, k);
	return interns(b);
}

/* Member k of template t, writing pre<k> and reading pre<j> for member
 * j's result. */
static Stmt
copylink(Module *m, Func *f, const Chain *t, uint32_t k, const char *pre)
{
	Stmt s = f->stmt[t->at[k]];

	s.opd = alloc(m->a, s.nop * sizeof *s.opd);
	memcpy(s.opd, f->stmt[t->at[k]].opd, s.nop * sizeof *s.opd);
	if (ispack(&s)) {       /* its own elements: rebind() sets them */
		Opnd *v = alloc(m->a, s.opd[1].nsub * sizeof *v);
		memcpy(v, s.opd[1].sub, s.opd[1].nsub * sizeof *v);
		s.opd[1].sub = v;
	}
	s.opd[0] = regopnd(fresh(pre, k));
	for (uint32_t q = 0; q < nargs(&s); q++) {
		Opnd *o = arg(&s, q);
		int32_t j = o->kind == Preg ? member(f, t->at, k, o->reg) : -1;
		if (j >= 0)
			*o = regopnd(fresh(pre, (uint32_t)j));
	}
	s.dirty = 1;
	s.lead = (Span){0, 0};
	return s;
}

/* mov.T R, g: the copy that replaces a member writing R. */
static Stmt
copyof(Module *m, Func *f, uint32_t at, Str g)
{
	Stmt s = f->stmt[at];
	Reg *r = &f->reg[s.opd[0].reg];

	s.op = Omov;
	s.name = interns("mov");
	s.nmod = 1;
	s.mod = alloc(m->a, sizeof *s.mod);
	s.mod[0] = r->type;
	s.nop = 2;
	s.opd = alloc(m->a, 2 * sizeof *s.opd);
	s.opd[0] = f->stmt[at].opd[0];
	s.opd[1] = regopnd(g);
	s.dirty = 1;
	s.lead = (Span){0, 0};
	return s;
}

Stmt
declstmt(Module *m, Func *f, Str type, const char *pre, uint32_t n)
{
	Stmt s;
	Decl *d = alloc(m->a, sizeof *d);

	memset(&s, 0, sizeof s);
	memset(d, 0, sizeof *d);
	d->nattr = 2;
	d->attr = alloc(m->a, 2 * sizeof *d->attr);
	d->attr[0] = interns(".reg");
	d->attr[1] = type;
	d->nname = 1;
	d->name = alloc(m->a, sizeof *d->name);
	memset(d->name, 0, sizeof *d->name);
	d->name->name = interns(pre);
	d->name->count = (int32_t)n;
	s.kind = Sdecl;
	s.decl = d;
	s.dirty = 1;
	s.pos = f->pos;
	return s;
}

/* Whether register r is one this pass declares (%pxeK_<n>): the
 * passes after it (dag.c, moves.c, pin.c) treat those apart. */
int
earlyreg(const Func *f, int32_t r)
{
	return !strncmp(f->reg[r].prefix, "%pxe", 4);
}

/* Per register of f, what early's rewrite made it (Ereg, Ecopied,
 * Eterm: all.h), or NULL when f has none of early's registers. */
uint8_t *
earlymarks(Func *f)
{
	uint8_t *m = 0;
	Rv d = {0}, u = {0};

	for (uint32_t r = 0; r < f->nreg; r++)
		if (earlyreg(f, (int32_t)r)) {
			if (!m && !(m = calloc(f->nreg + 1, 1)))
				die("out of memory");
			m[r] = Ereg;
		}
	for (uint32_t i = 0; m && i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		int w = 0;
		if (s->kind != Sins)
			continue;
		d.n = u.n = 0;
		defuse(s, &d, &u);
		for (uint32_t k = 0; k < d.n; k++)
			w |= m[d.v[k]] & Ereg;
		for (uint32_t k = 0; k < u.n; k++)
			m[u.v[k]] |= !(m[u.v[k]] & Ereg) ? (w ? Eterm : 0)
				: w ? 0 : Ecopied;
	}
	free(d.v);
	free(u.v);
	return m;
}

/* What a statement is to early's sums, by the registers it writes
 * (def) and reads (use), pxe from earlymarks(): Ecopy, one of early's
 * copies (it reads early's registers and writes none); Ewterm, it
 * writes a term.  A copy keeps its side of every write of a term
 * (dag.c, across.c): the validator takes a copy only where the sum
 * over the terms' current values is available. */
int
earlyrole(const uint8_t *pxe, const int32_t *def, uint32_t ndef,
	const int32_t *use, uint32_t nuse)
{
	int copy = 0, term = 0;

	for (uint32_t k = 0; k < nuse; k++)
		copy |= pxe[use[k]] & Ereg;
	for (uint32_t k = 0; k < ndef; k++) {
		copy &= !(pxe[def[k]] & Ereg);
		term |= (pxe[def[k]] & Eterm) != 0;
	}
	return (copy ? Ecopy : 0) | (term ? Ewterm : 0);
}

/* Whether no register of f starts with %pxe: then %pxeK_<n> are free
 * names for the registers the pass declares. */
static int
freeprefix(Func *f)
{
	for (uint32_t r = 0; r < f->nreg; r++)
		if (earlyreg(f, (int32_t)r))
			return 0;
	return 1;
}

/* Where a new declaration goes: after the body's leading ones. */
uint32_t
declat(Func *f)
{
	uint32_t at = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (f->stmt[i].kind == Sins || f->stmt[i].kind == Sopen)
			break;
		if (f->stmt[i].kind == Sdecl)
			at = i + 1;
	}
	return at;
}

typedef struct Edit {
	uint32_t at;            /* before statement at */
	int kind;               /* 0 the template's members, 1 a copy
	                         * of member k replacing statement at,
	                         * 2 drop at, 3 the declaration */
	uint32_t t, k;
} Edit;

static int
editcmp(const void *a, const void *b)
{
	const Edit *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

typedef struct Plan {
	Edit *e;
	uint32_t n, cap;
} Plan;

static void
plan(Plan *p, uint32_t at, int kind, uint32_t t, uint32_t k)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->e = xrealloc(p->e, p->cap * sizeof *p->e);
	}
	p->e[p->n++] = (Edit){at, kind, t, k};
}

/* Whether chain d begins with template t's links. */
static int
prefixof(const Chain *t, const Chain *d)
{
	if (d->n < t->n)
		return 0;
	for (uint32_t k = 0; k < t->n; k++)
		if (d->key[k] != t->key[k])
			return 0;
	return 1;
}

/* Where d begins with t's members, its results at t's roots are
 * written once (t's are: roots()). */
static int
sameroots(Ctx *x, const Chain *t, const Chain *d)
{
	for (uint32_t k = 0; k < t->n; k++)
		if (t->root[k] && x->nw[x->f->stmt[d->at[k]].opd[0].reg] != 1)
			return 0;
	return 1;
}

/* Shortens template t to what it has in common with every chain that
 * shares Minchain members with it: the sum in the loop may go on (the
 * two row sums added) where the one after the loop does not, and one
 * template serves both. */
static void
shorten(Ctx *x, Chain *t)
{
	uint32_t n = t->n;

	for (uint32_t c = 0; c < x->nc; c++) {
		Chain *d = &x->c[c];
		uint32_t k = 0;
		if (d == t || d->done)
			continue;
		while (k < n && k < d->n && d->key[k] == t->key[k])
			k++;
		if (k >= Minchain && k < n)
			n = k;
	}
	if (n < t->n) {
		uint32_t r = roots(x, t->at, n, t->root);
		if (r && r <= Maxroots)
			t->n = n;
		else
			roots(x, t->at, t->n, t->root);
	}
}

/* Plans template t: its links after each burst, a copy for each chain
 * that begins with it where the value is available.  Returns the
 * number of chains replaced. */
static uint32_t
plantemplate(Ctx *x, Ana *A, uint32_t ti, Plan *p)
{
	Func *f = x->f;
	Chain *t = &x->c[ti];
	uint8_t *inx = calloc(f->nreg + 1, 1), *seen = calloc(f->nreg + 1, 1);
	uint32_t *bu = xmalloc((A->nblk + 1) * sizeof *bu), nb = 0, nx = 0;
	uint8_t *in = xmalloc(A->nblk + 1);
	uint32_t got = 0, mark = p->n;

	shorten(x, t);
	for (uint32_t k = 0; k < t->n; k++) {
		Stmt *s = &f->stmt[t->at[k]];
		for (uint32_t q = 0; q < nargs(s); q++) {
			int32_t r = arg(s, q)->kind == Preg ? arg(s, q)->reg
				: -1;
			if (r >= 0 && member(f, t->at, k, r) < 0 && !inx[r])
				nx++, inx[r] = 1;
		}
	}
	uint8_t *live = reached(A);
	int32_t *sc = innerscope(f);
	for (uint32_t b = 0; b < A->nblk; b++) {
		bu[b] = burst(x, &A->blk[b], inx, nx, seen);
		/* the sum goes right after its burst, which must not be
		 * inside a { } scope: the validator takes no new register
		 * there; nor in a block the entry does not reach, where it
		 * runs never (the line mutator) */
		if (bu[b] != UINT32_MAX && (sc[bu[b]] >= 0 || !live[b]))
			bu[b] = UINT32_MAX;
		nb += bu[b] != UINT32_MAX;
	}
	if (nb) {
		avail(x, A, bu, inx, live, in);
		for (uint32_t c = 0; c < x->nc; c++) {
			Chain *d = &x->c[c];
			/* its copies go where it stands, which must not be
			 * in a { } scope either (linemut seed 73 moved a
			 * chain into an mbarrier wait's scope) */
			if (d->done || !prefixof(t, d) || inscope(sc, d)
			|| !availat(x, A, bu, inx, in, d->at[0]))
				continue;
			if (!sameroots(x, t, d))
				continue;
			for (uint32_t k = 0; k < t->n; k++)
				plan(p, d->at[k], t->root[k] ? 1 : 2, ti, k);
			d->done = 1;
			got++;
			/* in a block with no burst: the value crossed an
			 * edge (a back edge, a loop's exit) to get here */
			x->far += bu[A->blkof[d->at[0]]] == UINT32_MAX;
		}
	}
	if (got) {
		for (uint32_t b = 0; b < A->nblk; b++)
			if (bu[b] != UINT32_MAX)
				plan(p, bu[b] + 1, 0, ti, 0);
	} else
		p->n = mark;
	t->done = 1;
	free(inx);
	free(seen);
	free(bu);
	free(live);
	free(sc);
	free(in);
	return got;
}

static void
apply(Module *m, Ctx *x, Plan *p, const char (*pre)[32], const Str *type)
{
	Func *f = x->f;
	Stmt *v;
	uint32_t k = 0, e = 0, extra = 0;

	qsort(p->e, p->n, sizeof *p->e, editcmp);
	for (uint32_t i = 0; i < p->n; i++)
		extra += p->e[i].kind == 0 ? x->c[p->e[i].t].n : 1;
	v = alloc(m->a, (f->nstmt + extra + 1) * sizeof *v);
	for (uint32_t i = 0; i <= f->nstmt; i++) {
		int drop = 0;
		for (; e < p->n && p->e[e].at == i; e++) {
			Edit *d = &p->e[e];
			Chain *t = &x->c[d->t];
			if (d->kind == 0)
				for (uint32_t q = 0; q < t->n; q++)
					v[k++] = copylink(m, f, t, q, pre[d->t]);
			else if (d->kind == 3)
				v[k++] = declstmt(m, f, type[d->t], pre[d->t],
					t->n);
			else if (d->kind == 1)
				v[k++] = copyof(m, f, i, fresh(pre[d->t],
					d->k)), drop = 1;
			else
				drop = 1;
		}
		if (i < f->nstmt && !drop)
			v[k++] = f->stmt[i];
	}
	f->stmt = v;
	f->nstmt = k;
	f->dirty = 1;
}

static uint32_t
run(Module *m, Func *f, const uint32_t *lines, int write)
{
	Ctx x = {f, {0}, {0}, 0, 0, 0, 0, 0};
	Plan p = {0};
	uint32_t got = 0, nt = 0;
	char (*pre)[32] = 0;
	Str *type = 0;

	counts(&x);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Chain c;
		if (!chainat(&x, i, lines, &c))
			continue;
		x.c = xrealloc(x.c, (x.nc + 1) * sizeof *x.c);
		x.c[x.nc++] = c;
		i = c.at[c.n - 1];
	}
	if (x.nc && freeprefix(f)) {
		/* names and types per chain; only templates use theirs */
		pre = xmalloc(x.nc * sizeof *pre);
		type = xmalloc(x.nc * sizeof *type);
		fillcfg(f, m);
		for (uint32_t t = 0; t < x.nc; t++) {
			type[t] = f->reg[f->stmt[x.c[t].at[0]].opd[0].reg].type;
			if (x.c[t].done || !type[t])  /* no type to declare */
				continue;
			uint32_t g = plantemplate(&x, f->ana, t, &p);
			if (!g)
				continue;
			snprintf(pre[t], sizeof *pre, "%%pxe%u_", nt);
			plan(&p, declat(f), 3, t, 0);
			got += g;
			nt++;
		}
		freeana(f);
	}
	if (got && write) {
		apply(m, &x, &p, pre, type);
		rebind(m, f);
	}
	for (uint32_t c = 0; c < x.nc; c++) {
		free(x.c[c].at);
		free(x.c[c].key);
		free(x.c[c].root);
	}
	free(x.c);
	free(x.nw);
	free(x.nr);
	free(x.d.v);
	free(x.u.v);
	free(p.e);
	free(pre);
	free(type);
	return write ? got : x.far;
}

uint32_t
early(Module *m, Func *f, const uint32_t *lines)
{
	return run(m, f, lines, 1);
}

/* Whether early would replace a sum in some function of m where the
 * value crossed a block edge: the search tries its variants only then
 * (next to its burst, a sum is what the schedulers can move anyway, and
 * each variant costs a ptxas run). */
int
earlyfinds(Module *m)
{
	for (uint32_t i = 0; i < m->nitem; i++)
		if (m->item[i].kind == Ifunc && m->item[i].fn->body
		&& run(m, m->item[i].fn, 0, 0))
			return 1;
	return 0;
}
