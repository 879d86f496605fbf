/* regs.c: binds every register operand to its declaration.  Inner
 * scopes (inline asm blocks) may declare names that shadow outer ones,
 * so a register is its declaration, not its spelling.  A range %r<100>
 * declares %r0..%r99 at once. */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "all.h"

/* prev: the undo entry of the bind that made it, which holds the
 * binding it hid */
typedef struct Ent { Str key; int32_t id, count, prev; } Ent;

typedef struct Names {
	Ent *tab;              /* open addressing on the Str pointer */
	uint32_t cap, n;
	struct { uint32_t slot; Ent old; } *undo;
	uint32_t nundo, capundo;
	Reg *reg;
	uint32_t nreg, capreg;
	struct Key { Str k; size_t n; } key[16];  /* rangekey's memory */
	uint32_t nkey;
	Regmemo *memo;          /* lookup's memory, kept across functions */
	uint32_t gen;
} Names;

/* lookup's memory: a name's answer holds until a binding changes (gen
 * counts changes); most operands name a register read before.  One
 * parse keeps it for all its functions, the generation going on from
 * one to the next, so no function pays to clear it. */
/* What lookup() found for a name, in this function (id, while gen is
 * the function's) and for good (the range key and number the name
 * spells, which no function changes: every function of a file names
 * %r1, and reading its number and range key again in each was a
 * twentieth of a parse of nvcc's 1 MB matrix_free).  rkey 0 and idx
 * -1: not read yet; idx -2: no range member's spelling. */
enum { Nseen = 4096 };
struct Seen { Str k, rkey; int32_t id; uint32_t gen; int32_t idx; };
struct Regmemo { struct Seen *seen; uint32_t gen; };

void
regmemofree(Regmemo *r)
{
	if (r) {
		free(r->seen);
		free(r);
	}
}

static uint32_t
hptr(Str s)
{
	uintptr_t p = (uintptr_t)s;

	return (uint32_t)((p >> 4) ^ (p >> 20)) * 2654435761u;
}

static Ent *
slot(Names *S, Str k)
{
	uint32_t i = hptr(k) & (S->cap - 1);

	while (S->tab[i].key && S->tab[i].key != k)
		i = (i + 1) & (S->cap - 1);
	return &S->tab[i];
}

static void
rehash(Names *S)
{
	Ent *old = S->tab;
	uint32_t n = S->cap;

	S->cap = n ? 2 * n : 64;   /* most functions bind a few names */
	S->tab = calloc(S->cap, sizeof *S->tab);
	if (!S->tab)
		die("out of memory");
	for (uint32_t i = 0; i < n; i++)
		if (old[i].key)
			*slot(S, old[i].key) = old[i];
	free(old);
}

/* Binds key in the current scope, remembering what it hid. */
static void
bind(Names *S, Str key, int32_t id, int32_t count)
{
	Ent *e;

	S->gen++;
	if (2 * (S->n + 1) > S->cap) {
		/* rehashing moves slots; the undo log stores keys, so it
		 * survives */
		rehash(S);
	}
	e = slot(S, key);
	if (S->nundo == S->capundo) {
		S->capundo = S->capundo ? 2 * S->capundo : 256;
		S->undo = xrealloc(S->undo, S->capundo * sizeof *S->undo);
	}
	S->undo[S->nundo].old = *e;
	S->undo[S->nundo].old.key = key;
	S->undo[S->nundo].slot = e->key ? 1u : 0u;
	S->nundo++;
	if (!e->key)
		S->n++;
	e->key = key;
	e->id = id;
	e->count = count;
	e->prev = (int32_t)(S->nundo - 1);     /* what it hid: find() */
}

static void
unbind(Names *S, uint32_t mark)
{
	S->gen++;
	while (S->nundo > mark) {
		S->nundo--;
		Ent *e = slot(S, S->undo[S->nundo].old.key);
		if (S->undo[S->nundo].slot)
			*e = S->undo[S->nundo].old;
		else
			e->id = -1;   /* keep the key: probing stays intact */
	}
}

/* .b8 .u16 .s32 .f64 .pred ...: see Tkb in all.h */
uint8_t
typecode(Str t)
{
	int k, sz;

	if (!t || t[0] != '.')
		return 0;
	if (!strcmp(t, ".pred"))
		return Tkp << 3;
	k = t[1] == 'b' ? Tkb : t[1] == 'u' || t[1] == 's' ? Tki
		: t[1] == 'f' ? Tkf : 0;
	sz = !strcmp(t + 2, "8") ? 1 : !strcmp(t + 2, "16") ? 2
		: !strcmp(t + 2, "32") ? 3 : !strcmp(t + 2, "64") ? 4 : 0;
	if (!k || !sz || (k == Tkf && sz == 1))
		return 0;
	return (uint8_t)(k << 3 | sz);
}

static uint8_t
units(Decl *d, uint8_t *pred, Str *type, uint8_t *tcode)
{
	int w = 1, v = 1, vec = 0;

	*pred = 0;
	*type = 0;
	for (uint32_t i = 0; i < d->nattr; i++) {
		Str a = d->attr[i];
		vec |= a[0] == '.' && a[1] == 'v';     /* .v2: no scalar */
		if (!strcmp(a, ".v2"))
			v = 2;
		else if (!strcmp(a, ".v4"))
			v = 4;
		else if (!strcmp(a, ".v8"))
			v = 8;
		else if (!strcmp(a, ".pred"))
			*pred = 1, *type = a;
		else if (a[0] == '.' && strchr("bsuf", a[1]) && isdigit(
			(unsigned char)a[2])) {
			int bits = atoi(a + 2);
			*type = a;
			w = bits > 64 ? 4 : bits > 32 ? 2 : 1;
		}
	}
	*tcode = vec ? 0 : *type && !strcmp(*type, ".f16x2") ? Tkh << 3 | 3
		: typecode(*type);
	return *pred ? 0 : (uint8_t)(w * v);
}

/* The type a register declaration names (.b32, .f16x2, .pred, ...),
 * or 0 when it names none this reader knows: its registers then count
 * as 32 bits, check warns, and no pass declares copies of them. */
Str
regdecltype(Decl *d)
{
	uint8_t pred, tc;
	Str t;

	units(d, &pred, &t, &tc);
	return t;
}

/* One register of declaration d; t is what units() found for it. */
static int32_t
newreg(Names *S, int named, Str prefix, uint32_t idx, const Reg *t)
{
	Reg *r;

	if (S->nreg == S->capreg) {
		S->capreg = S->capreg ? 2 * S->capreg : 256;
		S->reg = xrealloc(S->reg, S->capreg * sizeof *S->reg);
	}
	r = &S->reg[S->nreg];
	*r = *t;
	r->named = (uint8_t)named;
	r->prefix = prefix;
	r->idx = idx;
	return (int32_t)S->nreg++;
}

static int
isreg(Decl *d)
{
	return d->nattr && !strcmp(d->attr[0], ".reg");
}

/* "%r<" for prefix "%r".  Every range operand asks, so the few
 * prefixes a function uses are remembered rather than interned again. */
static Str
rangekey(Names *S, const char *prefix, size_t n)
{
	char buf[256];
	uint32_t i;

	if (n + 2 > sizeof buf)
		n = sizeof buf - 2;
	for (i = 0; i < S->nkey; i++) {
		size_t j = 0;   /* by hand: prefixes are a few bytes */
		if (S->key[i].n != n)
			continue;
		while (j < n && S->key[i].k[j] == prefix[j])
			j++;
		if (j == n)
			return S->key[i].k;
	}
	memcpy(buf, prefix, n);
	buf[n] = '<';
	Str k = intern(buf, n + 1);
	if (S->nkey < countof(S->key))
		S->key[S->nkey++] = (struct Key){k, n};
	return k;
}

static void
declare(Names *S, Decl *d)
{
	Reg t = {0};

	/* once: %r<100000> is common */
	t.units = units(d, &t.pred, &t.type, &t.tcode);
	for (uint32_t i = 0; i < d->nname; i++) {
		Dname *n = &d->name[i];
		if (n->count < 0) {
			bind(S, n->name, newreg(S, 1, n->name, 0, &t), -1);
			continue;
		}
		int32_t base = (int32_t)S->nreg;
		for (int32_t k = 0; k < n->count; k++)
			newreg(S, 0, n->name, (uint32_t)k, &t);
		/* ranges live under "prefix<": %r<5> and a plain %r may
		 * both be declared */
		bind(S, rangekey(S, n->name, strlen(n->name)), base, n->count);
	}
}

static int32_t find(Names *, Str, struct Seen *);

static int32_t
lookup(Names *S, Str name)
{
	struct Seen *c = &S->memo->seen[hptr(name) & (Nseen - 1)];

	if (c->k != name || c->gen != S->gen + 1) {
		if (c->k != name)
			c->k = name, c->rkey = 0, c->idx = -1;
		c->id = find(S, name, c);
		c->gen = S->gen + 1;    /* + 1: a zeroed entry is no answer */
	}
	return c->id;
}

/* The number a range member's name ends in (%r57: 57, *prefix 2), or
 * -1 when the name ends in none, is all digits, or the number passes
 * 2^31 - 1.  Leading zeros count for nothing: ptxas takes %r007 for %r7
 * of %r<8> (the same register, tried with ptxas 13.0), though a name
 * declared on its own is its own text (%t7 and %t007 are two
 * registers).  check.c asks it too, of names declared on their own. */
long
regnumber(const char *name, size_t *prefix)
{
	const char *p = name, *d = name;        /* d: the trailing digits */
	long idx = 0;

	/* one pass: a resolve asks this of each name a function uses */
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			d = p + 1, idx = 0;
		else if (idx <= INT32_MAX)
			idx = 10 * idx + (*p - '0');
	if (d == p || d == name)
		return -1;
	*prefix = (size_t)(d - name);
	return idx <= INT32_MAX ? idx : -1;
}

/* %r57: an exact binding, else a range of prefix %r holding 57. */
static int32_t
find(Names *S, Str name, struct Seen *c)
{
	Ent *e = S->cap ? slot(S, name) : 0;
	long idx;

	if (e && e->key && e->id >= 0 && e->count < 0)
		return e->id;
	if (c->idx == -1) {     /* read once a process */
		size_t k;
		idx = regnumber(name, &k);
		c->idx = idx < 0 ? -2 : (int32_t)idx;
		c->rkey = idx < 0 ? 0 : rangekey(S, name, k);
	}
	if ((idx = c->idx) < 0 || !S->cap)
		return -1;
	e = slot(S, c->rkey);
	if (!e->key || e->id < 0 || e->count < 0)
		return -1;
	if (idx < e->count)
		return e->id + (int32_t)idx;
	/* An inner scope's %r<4> does not hide an outer %r<100>'s %r50:
	 * ptxas 13.0 takes a number the innermost range lacks from the
	 * next enclosing range that holds it (an inline asm block may
	 * declare a range of its own in { } around operands the asm
	 * statement was given from the function's).  A live binding
	 * leads to the one it hid (one with id -1, left by a scope's
	 * end, hid nothing still open). */
	for (const Ent *o = e; o->id >= 0 && (uint32_t)o->prev < S->nundo
	&& S->undo[o->prev].slot;) {
		o = &S->undo[o->prev].old;
		if (o->id >= 0 && o->count >= 0 && idx < o->count)
			return o->id + (int32_t)idx;
	}
	return -1;
}

static void
bindop(Names *S, Opnd *o)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		bindop(S, &o->sub[i]);
	if (o->kind != Preg && o->kind != Psym)
		return;
	o->reg = lookup(S, o->s);
	if (o->reg >= 0)
		o->kind = Preg;
}

/* memo: lookup's memory from an earlier call (*memo null at first;
 * regmemofree frees it) */
void
resolve(Module *m, Func *f, Regmemo **memo)
{
	Names S = {0};
	uint32_t marks[256], nmark = 0;

	if (!*memo) {
		*memo = xmalloc(sizeof **memo);
		(*memo)->gen = 0;
		if (!((*memo)->seen = calloc(Nseen, sizeof *(*memo)->seen)))
			die("out of memory");
	}
	S.memo = *memo;
	if (S.memo->gen > UINT32_MAX / 2) {     /* long before it wraps */
		memset(S.memo->seen, 0, Nseen * sizeof *S.memo->seen);
		S.memo->gen = 0;
	}
	S.gen = S.memo->gen + 1;        /* nothing from before answers */
	for (uint32_t i = 0; i < f->nret; i++)
		if (isreg(&f->ret[i]))
			declare(&S, &f->ret[i]);
	for (uint32_t i = 0; i < f->npar; i++)
		if (isreg(&f->par[i]))
			declare(&S, &f->par[i]);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		switch (s->kind) {
		case Sopen:
			if (nmark < countof(marks))
				marks[nmark] = S.nundo;
			nmark++;
			break;
		case Sclose:
			if (nmark && --nmark < countof(marks))
				unbind(&S, marks[nmark]);
			break;
		case Sdecl:
			if (isreg(s->decl))
				declare(&S, s->decl);
			break;
		case Sins:
			if (s->guard)
				bindop(&S, s->guard);
			for (uint32_t k = 0; k < s->nop; k++)
				bindop(&S, &s->opd[k]);
			break;
		}
	}
	f->nreg = S.nreg;
	f->reg = alloc(m->a, (S.nreg ? S.nreg : 1) * sizeof *f->reg);
	if (S.nreg)
		memcpy(f->reg, S.reg, S.nreg * sizeof *f->reg);
	free(S.reg);
	free(S.tab);
	free(S.undo);
	S.memo->gen = S.gen + 1;
}

/* Binds f's operands again, on their own, after statements were added
 * or rebuilt (a pass's new registers, the validator's copies). */
void
rebind(Module *m, Func *f)
{
	Regmemo *memo = 0;

	resolve(m, f, &memo);
	regmemofree(memo);
}

/* A register's spelling: its own name, or prefix and index. */
/* A scalar register's width in bits from its type (.b16, .f32, .u64),
 * 0 for a predicate or a vector: units() rounds a .b16 up to one
 * 32-bit unit and counts a .v2 .b16 as two, so units alone cannot tell
 * the 32-bit registers a .b32 instruction may name (shfl, the pins). */
int
scalarbits(const Reg *r)
{
	if (r->pred || !r->type || !strchr("bsuf", r->type[1])
	|| !isdigit((unsigned char)r->type[2]))
		return 0;
	int bits = atoi(r->type + 2);
	int u = bits > 64 ? 4 : bits > 32 ? 2 : 1;
	return r->units == u ? bits : 0;
}

Str
regname(Func *f, int32_t r, char *buf, size_t n)
{
	Reg *g = &f->reg[r];

	if (g->named)
		return g->prefix;
	snprintf(buf, n, "%s%u", g->prefix, g->idx);
	return buf;
}
