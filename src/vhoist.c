/* vhoist.c: statements B runs in an earlier segment than A, across
 * fixed statements (across.c's hoist), and where a bra goes by scope
 * (also dom.c's). */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "valid.h"

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
 * failing that, in the nearest enclosing scope that has the name.
 * lab[0 .. nlab), if given, lists f's labels in order (a caller that
 * asks for every branch lists them once: dom.c); else every statement
 * is looked at. */
int64_t
bratargetin(Func *f, const int32_t *sc, const uint32_t *lab, uint32_t nlab,
	uint32_t b, Str t)
{
	uint32_t n = lab ? nlab : f->nstmt;

	for (int32_t want = sc[b];; want = sc[want]) {
		int64_t hit = -1;
		for (uint32_t q = 0; q < n; q++) {
			uint32_t j = lab ? lab[q] : q;
			if (f->stmt[j].kind == Slabel && f->stmt[j].name == t
			&& sc[j] == want) {
				if (hit >= 0)
					return -1;
				hit = j;
			}
		}
		if (hit >= 0 || want < 0)
			return hit;
	}
}

int64_t
bratarget(Func *f, const int32_t *sc, uint32_t b, Str t)
{
	return bratargetin(f, sc, 0, 0, b, t);
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
		if (in && s->kind == Sins && veffect(s) == Efixed
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
	vaccess(s, &a);
	for (uint32_t i = 0; i < a.ndef && !hit; i++)
		for (uint32_t k = 0; k < x->nuse + x->ndef && !hit; k++)
			hit = a.def[i] == (k < x->nuse ? x->use[k]
				: x->def[k - x->nuse]);
	for (uint32_t i = 0; i < a.nuse && !hit; i++)
		for (uint32_t k = 0; k < x->ndef && !hit; k++)
			hit = a.use[i] == x->def[k];
	accfree(&a);
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

	return bits && vtmemtouch(x, tm, bits);
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

int
vhoisted(Func *fa, Func *fb, const Cand *c, const uint32_t *aend,
	const uint32_t *astart, const uint32_t *bend, Closed *cl,
	const uint8_t *tm, Buf *why)
{
	Stmt *x = &fa->stmt[c->a];
	int ok = 1;

	if (!c->plain)
		return vfail(why, fa, x, "'%s' moved across fixed statements, "
			"and it is not plain register arithmetic", c->t);
	if (cl->lo != aend[c->seg] || cl->hi != astart[c->aseg])
		*cl = (Closed){aend[c->seg], astart[c->aseg],
			closedrun(fa, aend[c->seg], astart[c->aseg])};
	if (!cl->ok)
		return vfail(why, fa, x, "'%s' moved across fixed statements "
			"that control may enter or leave in between", c->t);
	for (uint32_t j = c->b + 1; j < bend[c->seg] && ok; j++)
		ok = !meets(&fb->stmt[j], &c->x);
	for (uint32_t j = aend[c->seg]; j < astart[c->aseg] && ok; j++)
		ok = !meets(&fa->stmt[j], &c->x);
	if (!ok)
		return vfail(why, fa, x, "'%s' moved across a statement that "
			"shares its registers", c->t);
	for (uint32_t j = aend[c->seg]; j < astart[c->aseg] && ok; j++)
		ok = !completes(&fa->stmt[j], &c->x, tm);
	if (!ok)
		return vfail(why, fa, x, "'%s' moved across a wait that "
			"completes its registers", c->t);
	return 0;
}
