/* moves.c: removes register copies and pack/unpack pairs.
 *
 * needs:  resolved registers (regs.c), regions (dag.c)
 * breaks: operands of the statements it rewrites (printed from the IR
 *         after), statement count (copies are deleted)
 * paper:  copy propagation; the pack/unpack case is the moves CuTe DSL
 *         emits around .f32x2 arithmetic (mov.b64 %rd, {a, b} ... then
 *         mov.b64 {c, d}, %rd with nothing in between that needs %rd).
 *
 * Only what the validator can check: inside one region (straight-line
 * code), a copy `mov.T %d, %s` of two registers of one declared type,
 * unguarded, where %d is written nowhere else in the function and read
 * only after the copy in the same region, and %s is not written again
 * in the region after the copy.  Each read of %d becomes a read of %s
 * and the copy goes.  An unpack of a packed value in the same region is
 * two such copies; the pack goes too when nothing else reads it.
 *
 * ptxas coalesces copies itself: on the FlashAttention-4 dump removing
 * 192 pack/unpack pairs changes neither registers nor spills.  The pass
 * is for the reader of the PTX and for the count of moves that DSL
 * regressions show. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

typedef struct Mv {
	uint32_t *ndef;          /* per register: writes in the function */
	uint32_t *nuse;          /* per register: reads in the function */
	uint8_t *dead;           /* per statement: delete */
	uint32_t removed;
} Mv;

static int
plainreg(Opnd *o)
{
	return o->kind == Preg && o->reg >= 0 && !opext(o) && !o->neg
		&& !o->nsub;
}

static int
iscopy(Stmt *s)
{
	return s->kind == Sins && s->op == Omov && !s->guard && s->nop == 2
		&& plainreg(&s->opd[0]) && plainreg(&s->opd[1]);
}

static int
samekind(Func *f, int32_t a, int32_t b)
{
	return f->reg[a].type == f->reg[b].type
		&& f->reg[a].units == f->reg[b].units;
}

/* How often s reads (w = 0) or writes (w = 1) register r. */
static int
touches(Stmt *s, int32_t r, int w)
{
	Rv d = {0}, u = {0};
	Rv *v = w ? &d : &u;
	int n = 0;

	defuse(s, &d, &u);
	for (uint32_t k = 0; k < v->n; k++)
		n += v->v[k] == r;
	free(d.v);
	free(u.v);
	return n;
}

#define reads(s, r) touches(s, r, 0)
#define writes(s, r) touches(s, r, 1)

static void
renameop(Opnd *o, int32_t from, Opnd *to)
{
	if (o->kind == Preg && o->reg == from && !hascomp(o)) {
		Str off = opoff(o);
		uint8_t neg = o->neg;
		*o = *to;
		if (!isagg(o->kind))    /* its word is sub, not ext */
			setoff(o, off);
		o->neg = neg;
		return;
	}
	for (uint32_t i = 0; i < o->nsub; i++)
		renameop(&o->sub[i], from, to);
}

/* Every read of d is in (at, end) and s is not written after the copy
 * in the region: then reads of d may read s instead.  Returns the
 * statement of the last read, or 0 when it may not.  Not "before the
 * last read" only: a scheduler may have put a read above a write of s
 * that the original runs first, and the validator, which replays the
 * original's order, would refuse the copy's removal (optsweep, an
 * ocelot kernel: sched=bu-rand, then moves).  A write of s keeps its
 * side of the copy, which reads s, in every order. */
static uint32_t
propagatable(Func *f, Mv *m, uint32_t at, uint32_t end, int32_t d,
	int32_t s)
{
	uint32_t seen = 0, last = 0;

	if (m->ndef[d] != 1)
		return 0;
	for (uint32_t i = at + 1; i < end; i++) {
		Stmt *t = &f->stmt[i];
		if (t->kind != Sins || m->dead[i])
			continue;
		uint32_t n = (uint32_t)reads(t, d);
		if (n) {
			seen += n;
			last = i;
		}
		if (writes(t, s))
			return 0;
	}
	return seen == m->nuse[d] ? last : 0;
}

static void
substitute(Func *f, Mv *m, uint32_t at, uint32_t last, int32_t d, Opnd *s)
{
	for (uint32_t i = at + 1; i <= last; i++) {
		Stmt *t = &f->stmt[i];
		if (t->kind != Sins || m->dead[i] || !reads(t, d))
			continue;
		/* the operand arrays live in the arena: copy before changing
		 * so that no other statement shares them */
		for (uint32_t k = 0; k < t->nop; k++)
			renameop(&t->opd[k], d, s);
		if (t->guard)
			renameop(t->guard, d, s);
		t->dirty = 1;
	}
	m->nuse[s->reg] += m->nuse[d];
	m->nuse[d] = 0;
}

static void
copies(Func *f, Dag *g, Mv *m)
{
	for (uint32_t i = g->first; i < g->end; i++) {
		Stmt *s = &f->stmt[i];
		if (!iscopy(s) || m->dead[i])
			continue;
		int32_t d = s->opd[0].reg, r = s->opd[1].reg;
		if (d == r || !samekind(f, d, r))
			continue;
		/* early's copies stay copies: the validator (vearly.c)
		 * takes its registers' values only through them */
		if (earlyreg(f, r))
			continue;
		uint32_t last = propagatable(f, m, i, g->end, d, r);
		if (!last)
			continue;
		Opnd src = s->opd[1];
		substitute(f, m, i, last, d, &src);
		m->dead[i] = 1;
		m->removed++;
	}
}

/* mov.b64 {a, b}, %x after mov.b64 %x, {c, e} in the same region. */
static void
pairs(Func *f, Dag *g, Mv *m)
{
	for (uint32_t i = g->first; i < g->end; i++) {
		Stmt *u = &f->stmt[i];
		if (u->kind != Sins || u->op != Omov || u->guard || u->nop != 2
		|| m->dead[i] || u->opd[0].kind != Pvec || u->opd[0].nsub != 2
		|| !plainreg(&u->opd[1]))
			continue;
		int32_t x = u->opd[1].reg;
		uint32_t p;
		for (p = i; p-- > g->first;)
			if (f->stmt[p].kind == Sins && writes(&f->stmt[p], x))
				break;
		if (p < g->first || p >= i || m->dead[p])
			continue;
		Stmt *k = &f->stmt[p];
		if (k->op != Omov || k->guard || k->nop != 2
		|| k->opd[1].kind != Pvec || k->opd[1].nsub != 2
		|| m->ndef[x] != 1)
			continue;
		Opnd *a = u->opd[0].sub, *c = k->opd[1].sub;
		int ok = 1;
		for (int j = 0; j < 2 && ok; j++)
			ok = plainreg(&a[j]) && plainreg(&c[j])
				&& samekind(f, a[j].reg, c[j].reg)
				&& a[j].reg != c[j].reg;
		/* c must survive from the pack to every read of a */
		uint32_t last[2] = {0, 0};
		for (int j = 0; j < 2 && ok; j++) {
			last[j] = propagatable(f, m, i, g->end, a[j].reg,
				c[j].reg);
			for (uint32_t t = p + 1; t < i && ok; t++)
				ok = !writes(&f->stmt[t], c[j].reg);
			ok = ok && last[j];
		}
		if (!ok)
			continue;
		for (int j = 0; j < 2; j++) {
			Opnd src = c[j];
			substitute(f, m, i, last[j], a[j].reg, &src);
		}
		m->dead[i] = 1;
		m->removed++;
		if (--m->nuse[x] == 0) {
			m->dead[p] = 1;
			m->removed++;
		}
	}
}

static void
region(Func *f, Dag *g, void *arg)
{
	pairs(f, g, arg);
	copies(f, g, arg);
}

static void
count(Func *f, Mv *m)
{
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		Rv d = {0}, u = {0};
		defuse(s, &d, &u);
		for (uint32_t k = 0; k < d.n; k++)
			m->ndef[d.v[k]]++;
		for (uint32_t k = 0; k < u.n; k++)
			m->nuse[u.v[k]]++;
		free(d.v);
		free(u.v);
	}
}

/* Operands are shared with nothing: the parser gives each statement its
 * own arrays, and the schedulers move whole statements. */
uint32_t
moves(Func *f)
{
	Mv m = {0};
	size_t n = f->nreg ? f->nreg : 1;
	uint32_t k = 0;

	m.ndef = calloc(n, sizeof *m.ndef);
	m.nuse = calloc(n, sizeof *m.nuse);
	m.dead = calloc(f->nstmt + 1, 1);
	count(f, &m);
	eachregion(f, region, &m);
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (!m.dead[i])
			f->stmt[k++] = f->stmt[i];
	f->nstmt = k;
	if (m.removed)
		f->dirty = 1;
	free(m.ndef);
	free(m.nuse);
	free(m.dead);
	return m.removed;
}
