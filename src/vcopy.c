/* vcopy.c: the validator's view of removed copies.  Written apart from
 * the moves pass and sharing nothing with it: it replays the original
 * segment, and where a copy of the original is missing from the rewrite
 * it proves the copy could go, then reads the copied register through
 * the source from there on.
 *
 * A copy `mov.T %d, %s` (two plain registers of one declared type, no
 * guard) may go when %d is written once in the function and every read
 * of it lies after the copy in this segment, and the register it is
 * read through is not written between the copy and the last such read.
 * An unpack `mov.b64 {%a, %b}, %x` of `mov.b64 %x, {%c, %e}` is two
 * copies; the pack may go when nothing still reads %x. */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "valid.h"

typedef struct Vc {
	Func *f;
	Arena *a;
	int32_t *sig;          /* register -> register read instead */
	const uint32_t *nread, *nwrite;  /* in the whole original function */
	int32_t *pk[2];        /* register -> what it packed, or -1 */
	int32_t *lastw;        /* register -> its last write in the
	                        * segment, or -1 */
	uint32_t at;           /* fresh(): the statement being looked at */
} Vc;

static int
plain(Opnd *o)
{
	return o->kind == Preg && o->reg >= 0 && !opext(o) && !o->neg
		&& !o->nsub;
}

static void
regs(Opnd *o, void (*fn)(void *, int32_t, int), void *arg, int w)
{
	if (o->kind == Preg && o->reg >= 0)
		fn(arg, o->reg, w);
	for (uint32_t i = 0; i < o->nsub; i++)
		regs(&o->sub[i], fn, arg, w);
}

/* Reads and writes of s, as the validator counts them: operand 0 is
 * written when opdefs says so (and read too when guarded or D0U). */
static void
each(Stmt *s, void (*fn)(void *, int32_t, int), void *arg)
{
	Defs d = opdefs(s);
	uint32_t k = 0;

	if (s->kind != Sins)
		return;
	if (s->nop && (d == D0 || d == D0U)) {
		regs(&s->opd[0], fn, arg, 1);
		if (d == D0U || s->guard)
			regs(&s->opd[0], fn, arg, 0);
		k = 1;
	}
	for (; k < s->nop; k++)
		regs(&s->opd[k], fn, arg, 0);
	if (s->guard)
		regs(s->guard, fn, arg, 0);
}

typedef struct Cnt { int32_t r; uint32_t reads, writes; } Cnt;

static void
tally(void *arg, int32_t r, int w)
{
	uint32_t **t = arg;

	t[w][r]++;
}

/* Reads (first f->nreg) and writes (next f->nreg) of every register in
 * the whole function: counted once, every segment's vcopies reads it. */
uint32_t *
vtally(Func *f)
{
	uint32_t nr = f->nreg ? f->nreg : 1;
	uint32_t *c = calloc(2 * (size_t)nr, sizeof *c);
	uint32_t *t[2] = {c, c + nr};

	if (!c)
		die("out of memory");
	for (uint32_t i = 0; i < f->nstmt; i++)
		each(&f->stmt[i], tally, t);
	return c;
}

static void
tallyone(void *arg, int32_t r, int w)
{
	Cnt *c = arg;

	if (r != c->r)
		return;
	if (w)
		c->writes++;
	else
		c->reads++;
}

static Cnt
count(Stmt *s, int32_t r)
{
	Cnt c = {r, 0, 0};

	each(s, tallyone, &c);
	return c;
}

/* d's every read is in (at, a1) and w is not written before the last. */
static int
safe(Vc *v, uint32_t at, uint32_t a1, int32_t d, int32_t w)
{
	uint32_t seen = 0;

	if (v->nwrite[d] != 1)
		return 0;
	for (uint32_t i = at + 1; i < a1 && seen < v->nread[d]; i++) {
		seen += count(&v->f->stmt[i], d).reads;
		if (seen < v->nread[d] && count(&v->f->stmt[i], w).writes)
			return 0;
	}
	return seen == v->nread[d];
}

static Opnd
regop(Vc *v, int32_t r)
{
	char buf[128];
	Opnd o = {0};

	o.kind = Preg;
	o.reg = r;
	o.s = interns(regname(v->f, r, buf, sizeof buf));
	return o;
}

static void
subst(Vc *v, Opnd *o)
{
	if (o->kind == Preg && o->reg >= 0 && !hascomp(o)
	&& v->sig[o->reg] != o->reg) {
		Opnd n = regop(v, v->sig[o->reg]);
		n.neg = o->neg;
		n.ext = o->ext; /* no component: its offset, as interned */
		*o = n;
		return;
	}
	if (!o->nsub)
		return;
	Opnd *sub = alloc(v->a, o->nsub * sizeof *sub);
	memcpy(sub, o->sub, o->nsub * sizeof *sub);
	o->sub = sub;
	for (uint32_t i = 0; i < o->nsub; i++)
		subst(v, &o->sub[i]);
}

/* The statement as the rewrite would spell it, copies read through. */
static Stmt
apply(Vc *v, Stmt *s)
{
	Stmt t = *s;

	if (s->kind != Sins)
		return t;
	t.opd = alloc(v->a, (s->nop ? s->nop : 1) * sizeof *t.opd);
	if (s->nop)     /* an operand-less one has no array (fo43) */
		memcpy(t.opd, s->opd, s->nop * sizeof *t.opd);
	for (uint32_t k = 0; k < t.nop; k++)
		subst(v, &t.opd[k]);
	if (s->guard) {
		t.guard = alloc(v->a, sizeof *t.guard);
		*t.guard = *s->guard;
		subst(v, t.guard);
	}
	return t;
}

static int
iscopy(Vc *v, Stmt *s)
{
	return s->kind == Sins && s->op == Omov && !s->guard && s->nop == 2
		&& plain(&s->opd[0]) && plain(&s->opd[1])
		&& v->f->reg[s->opd[0].reg].type == v->f->reg[s->opd[1].reg].type
		&& v->f->reg[s->opd[0].reg].units
			== v->f->reg[s->opd[1].reg].units;
}

static int
ispair(Stmt *s, int vec)
{
	return s->kind == Sins && s->op == Omov && !s->guard && s->nop == 2
		&& s->opd[vec].kind == Pvec && s->opd[vec].nsub == 2
		&& plain(&s->opd[1 - vec]) && plain(&s->opd[vec].sub[0])
		&& plain(&s->opd[vec].sub[1]);
}

/* May the original statement at i be missing from the rewrite? */
static int
removable(Vc *v, uint32_t i, uint32_t a1)
{
	Stmt *s = &v->f->stmt[i];

	if (iscopy(v, s)) {
		int32_t d = s->opd[0].reg, r = v->sig[s->opd[1].reg];
		if (d == r || !safe(v, i, a1, d, r))
			return 0;
		v->sig[d] = r;
		return 1;
	}
	if (ispair(s, 0)) {                     /* unpack */
		int32_t x = s->opd[1].reg;
		for (int j = 0; j < 2; j++) {
			int32_t a = s->opd[0].sub[j].reg, c = v->pk[j][x];
			if (c < 0 || a == c
			|| v->f->reg[a].type != v->f->reg[c].type
			|| !safe(v, i, a1, a, c))
				return 0;
		}
		for (int j = 0; j < 2; j++)
			v->sig[s->opd[0].sub[j].reg] = v->pk[j][x];
		return 1;
	}
	/* a pack: proven unread once the segment is replayed */
	return ispair(s, 1) && v->nwrite[s->opd[0].reg] == 1;
}

/* Records a pack that stays valid: its sources are not written again
 * before the unpack; checked by safe() against the unpack's reads, and
 * here against writes between pack and unpack. */
static void
notepack(Vc *v, Stmt *s, uint32_t i, uint32_t a1)
{
	if (!ispair(s, 1) || v->nwrite[s->opd[0].reg] != 1)
		return;
	int32_t x = s->opd[0].reg;
	for (int j = 0; j < 2; j++)
		v->pk[j][x] = v->sig[s->opd[1].sub[j].reg];
	/* a source written again later in the segment invalidates it */
	(void)a1;
	for (int j = 0; j < 2; j++)
		if (v->pk[j][x] >= 0 && v->lastw[v->pk[j][x]] > (int32_t)i)
			v->pk[0][x] = v->pk[1][x] = -1;
}

static int
has(Str *tb, uint32_t nb, uint8_t *used, Str t)
{
	for (uint32_t j = 0; j < nb; j++)
		if (!used[j] && tb[j] == t) {
			used[j] = 1;
			return 1;
		}
	return 0;
}

/* Replays A's statements [a0, a1) against B's texts: fills eff[] with
 * the statements as B should hold them and orig[] with where each came
 * from; returns how many, or -1 with the reason in why. */
static void
fresh(void *arg, int32_t r, int w)
{
	Vc *v = arg;

	(void)w;
	v->sig[r] = r;
	v->pk[0][r] = v->pk[1][r] = -1;
	v->lastw[r] = -1;
}

static void
lastwrite(void *arg, int32_t r, int w)
{
	Vc *v = arg;

	if (w)
		v->lastw[r] = (int32_t)v->at;
}

/* scratch: 4 per register of fa; only the registers of [a0, a1) are set
 * up, and nothing here reads another. */
int32_t
vcopies(Func *fa, const uint32_t *tl, int32_t *scratch, uint32_t a0,
	uint32_t a1, Str *tb, uint32_t nb, Stmt *eff, uint32_t *orig,
	Arena *ar, Buf *why)
{
	Vc v = {.f = fa, .a = ar};
	uint8_t *used = calloc(nb + 1, 1);
	uint8_t *gone = calloc(a1 - a0 + 1, 1);
	uint32_t n = 0, nr = fa->nreg ? fa->nreg : 1;
	int32_t rc = 0;

	v.sig = scratch;
	v.pk[0] = scratch + nr;
	v.pk[1] = scratch + 2 * nr;
	v.lastw = scratch + 3 * nr;
	v.nread = tl;
	v.nwrite = tl + nr;
	for (uint32_t i = a0; i < a1; i++)
		each(&fa->stmt[i], fresh, &v);
	for (v.at = a0; v.at < a1; v.at++)
		each(&fa->stmt[v.at], lastwrite, &v);
	for (uint32_t i = a0; i < a1; i++) {
		Stmt t = apply(&v, &fa->stmt[i]);
		Str s = vplain(fa, &t);
		notepack(&v, &t, i, a1);
		if (has(tb, nb, used, s) || !removable(&v, i, a1)) {
			eff[n] = t;
			orig[n++] = i;
			continue;
		}
		gone[i - a0] = 1;
	}
	/* a removed pack must be read by nothing but removed unpacks,
	 * here or anywhere else in the function */
	for (uint32_t i = a0; i < a1 && !rc; i++) {
		if (!gone[i - a0] || !ispair(&fa->stmt[i], 1))
			continue;
		int32_t x = fa->stmt[i].opd[0].reg;
		uint32_t r = 0;
		for (uint32_t k = a0; k < a1; k++)
			if (gone[k - a0])
				r += count(&fa->stmt[k], x).reads;
		if (r != v.nread[x]) {
			bprintf(why, "%s: line %u: a removed pack is still "
				"read\n", fa->name, fa->stmt[i].pos.line);
			rc = -1;
		}
	}
	free(used);
	free(gone);
	return rc ? -1 : (int32_t)n;
}
