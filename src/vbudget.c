/* vbudget.c: proves that setmaxnreg budgets fit the register file.
 *
 * A warp-specialized kernel gives each warp role its own register count
 * with setmaxnreg.inc/.dec.  The counts of all warps of a CTA together
 * must fit what the CTA holds (65536 registers per SM, shared by
 * .minnctapersm CTAs), each a multiple of 8 in [24, 256], or an .inc
 * waits forever for registers that never come back: the kernel hangs.
 *
 * What a CTA holds is what it was launched with, not the SM's 65536:
 * setmaxnreg moves registers through a pool of the CTA's own (the PTX
 * ISA: .inc "blocks ... until enough registers are available in the
 * CTA's register pool"), filled only by its warps' .dec.  ptxas
 * launches a kernel with setmaxnreg at the count it starts with (65536
 * / threads / CTAs per SM, rounded down to 8, and no more than
 * .maxnreg): 384 threads hold 168 x 384 = 64512, and CUTLASS's Hopper
 * FMHA splits exactly that (4 x 24 + 8 x 240 warps of 32).  Budgets
 * that add up to 65536 there wait forever.
 *
 * Which warps reach which setmaxnreg is found here, on its own: the warp
 * index is %tid.x >> 5 (or / 32, or a broadcast or copy of that, or that
 * shifted further for warpgroups); a branch on a comparison of it with a
 * constant splits the set of warps that go each way; sets flow through
 * the branches to a fixed point.  A warp that may reach several sites is
 * counted at the largest; a warp that reaches none keeps the count it
 * starts with.  A register is followed when it is written once, or
 * every time by the same statement from followed registers (CUTLASS
 * reads %tid.x and shifts it anew wherever it asks for the warp index).
 * What this cannot see (no .reqntid/.maxntid, a 2-D block, a branch on
 * something else with a setmaxnreg under it) it cannot prove. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Maxwarp = 64 };

typedef uint64_t Set;

/* What is known of a register: its value in each warp (the warp index
 * and what is computed from it with constants), or that it is the
 * thread index, or zero. */
typedef struct Kn {
	long **val;            /* per register: value per warp, or NULL */
	uint8_t *tid;          /* 1: %tid.x (linear), 2: zero */
	Set *pred;             /* per predicate: warps where it is true */
	Set *pk;               /* per predicate: warps where pred[] is known */
	int nw;
	uint8_t *same;         /* written more than once, each time alike */
} Kn;

enum { Ceq, Cne, Clt, Cle, Cgt, Cge };

static int
perfint(Func *f, const char *name, long *v)
{
	for (uint32_t i = 0; i < f->nperf; i++)
		if (!strcmp(f->perf[i].name, name) && f->perf[i].args) {
			int64_t x[3] = {1, 1, 1};
			int n = ptxints(f->perf[i].args, x, 3);
			/* a number past what a block holds is as unread */
			for (int k = 0; k < n; k++)
				if (x[k] < 0 || x[k] > 1 << 20)
					n = -1;
			if (n < 1)
				return -1;
			v[0] = (long)x[0], v[1] = (long)x[1], v[2] = (long)x[2];
			return 1;
		}
	return 0;
}

static long
imm(Opnd *o, int *ok)
{
	int64_t v = 0;

	*ok = o->kind == Pint && !o->nsub && ptxint(o->s, &v);
	return o->minus ? -(long)v : (long)v;
}

static int
isreg(Opnd *o)
{
	return o->kind == Preg && o->reg >= 0 && !hascomp(o);
}

/* The width of s's type, and whether it is unsigned (.u, .b); 0 for a
 * type this does not follow. */
static int
width(Stmt *s, int *uns)
{
	static const char *const t[] = {".u32", ".b32", ".s32", ".u64",
		".b64", ".s64"};

	for (int j = 0; j < 6; j++)
		if (hasmod(s, t[j])) {
			*uns = j % 3 != 2;
			return j < 3 ? 32 : 64;
		}
	return 0;
}

/* x as the type of s holds it: a 32-bit value wraps, and is then read
 * unsigned or signed. */
static long
typed(long x, int bits, int uns)
{
	if (bits == 32)
		return uns ? (long)(uint32_t)x : (long)(int32_t)x;
	return x;
}

/* Whether d = op(x, k) is followed for s, in the type's width and
 * signedness (add -1 then compare .u32 is a large number, not -1):
 * *kp becomes k as the type holds it.  0 for anything else. */
static int
arithok(Stmt *s, long *kp, int *bits, int *uns)
{
	long k = *kp;
	int shift = s->op == Oshr || s->op == Oshl;

	*uns = 0;
	*bits = width(s, uns);
	/* 64-bit unsigned values past a long's range are not followed,
	 * nor a product's wide or high half */
	if (!*bits || hasmod(s, ".wide") || hasmod(s, ".hi")
	|| (*bits == 64 && *uns && (s->op == Oshr || s->op == Odiv || k < 0))
	|| (shift && (k < 0 || k >= *bits)))
		return 0;
	k = shift ? k : typed(k, *bits, *uns);
	if (s->op == Odiv && (k == 0 || (k == -1 && !*uns)))
		return 0;       /* unspecified, or past the type's range */
	switch (s->op) {
	case Oshr: case Oshl: case Oand: case Oor: case Oxor: case Oadd:
	case Osub: case Omul: case Odiv:
		*kp = k;
		return 1;
	default:
		return 0;
	}
}

/* op(x, k) in the type, for k that arithok took. */
static long
arith1(Stmt *s, long x, long k, int bits, int uns)
{
	unsigned long ux, uk = (unsigned long)k;

	x = typed(x, bits, uns);
	ux = (unsigned long)x;
	switch (s->op) {
	case Oshr: x >>= k; break;
	case Oshl: x = (long)(ux << k); break;
	case Oand: x &= k; break;
	case Oor: x |= k; break;
	case Oxor: x ^= k; break;
	case Oadd: x = (long)(ux + uk); break;
	case Osub: x = (long)(ux - uk); break;
	case Omul: x = (long)(ux * uk); break;
	default: x /= k; break;         /* Odiv: arithok allows no other */
	}
	return typed(x, bits, uns);
}

/* d = op(a, k) per warp (a NULL: the warp's index), for the operations
 * warp roles are computed with; 0 where arithok says no. */
static long *
arith(Kn *K, Stmt *s, long *a, long k)
{
	int bits, uns;

	if (!arithok(s, &k, &bits, &uns))
		return 0;
	long *v = malloc(K->nw * sizeof *v);
	for (int w = 0; w < K->nw; w++)
		v[w] = arith1(s, a ? a[w] : w, k, bits, uns);
	return v;
}

/* d = op(a, b) per warp, both followed values; 0 where arith would be
 * for any warp's b. */
static long *
arith2(Kn *K, Stmt *s, long *a, long *b)
{
	long *v = malloc(K->nw * sizeof *v);

	for (int w = 0; w < K->nw; w++) {
		int bits, uns;
		long k = b[w];
		if (!arithok(s, &k, &bits, &uns)) {
			free(v);
			return 0;
		}
		v[w] = arith1(s, a[w], k, bits, uns);
	}
	return v;
}

/* Whether setp s against k is followed: its comparison into *cmp, k
 * as the type holds it into *kp. */
static int
cmpok(Stmt *s, long *kp, int *cmp, int *bits, int *uns)
{
	static const char *const c[] = {".eq", ".ne", ".lt", ".le", ".gt",
		".ge"};

	*cmp = -1, *uns = 0, *bits = width(s, uns);
	for (int j = 0; j < 6; j++)
		if (hasmod(s, c[j]))
			*cmp = j;
	if (*cmp < 0 || !*bits || (*bits == 64 && *uns && *cmp >= Clt))
		return 0;
	*kp = typed(*kp, *bits, *uns);
	return 1;
}

static int
cmp1(int cmp, long x, long k, int bits, int uns)
{
	x = typed(x, bits, uns);
	return cmp == Ceq ? x == k : cmp == Cne ? x != k : cmp == Clt ? x < k
		: cmp == Cle ? x <= k : cmp == Cgt ? x > k : x >= k;
}

/* The warps where setp s of a against k holds, into *out; -1 where its
 * type is not followed. */
static int
compare(Kn *K, Stmt *s, long *a, long k, Set *out)
{
	int cmp, bits, uns;

	if (!cmpok(s, &k, &cmp, &bits, &uns))
		return -1;
	*out = 0;
	for (int w = 0; w < K->nw; w++)
		*out |= (Set)cmp1(cmp, a[w], k, bits, uns) << w;
	return 0;
}

static Set
all(int nw)
{
	return nw == Maxwarp ? ~(Set)0 : (((Set)1 << nw) - 1);
}

/* One statement's contribution.  Only registers written once, or each
 * time alike (same), are tracked: another write, in a loop say, would
 * change them.  Such a register is learnt at its first write. */
static void
learn(Kn *K, Stmt *s, uint32_t *ndef)
{
	if (s->kind != Sins || s->guard || s->nop < 2)
		return;
	Opnd *o = &s->opd[0];
	/* shfl's value with its predicate: the value is what is followed */
	if (o->kind == Ppair && s->op == Oshfl && o->nsub == 2)
		o = &o->sub[0];
	if (!isreg(o))
		return;
	int32_t d = o->reg;
	if ((ndef[d] != 1 && !K->same[d]) || K->val[d] || K->tid[d]
	|| K->pk[d])
		return;         /* a later def alike: learnt at the first */
	Opnd *a = &s->opd[1];
	int ok;
	if (s->op == Omov && a->kind == Preg && a->reg < 0
	&& !strcmp(a->s, "%tid") && hascomp(a)) {
		K->tid[d] = !strcmp(opcomp(a), ".x") ? 1 : 2;
		return;
	}
	if (!isreg(a))
		return;
	int32_t r = a->reg;
	if ((s->op == Omov || (s->op == Oshfl && hasmod(s, ".idx")))
	&& (K->val[r] || K->tid[r])) {
		/* a broadcast of a warp-uniform value is that value */
		K->tid[d] = s->op == Omov ? K->tid[r] : 0;
		if (K->val[r]) {
			K->val[d] = malloc(K->nw * sizeof **K->val);
			memcpy(K->val[d], K->val[r], K->nw * sizeof **K->val);
		}
		return;
	}
	if (s->op == Omad && s->nop == 4 && hasmod(s, ".lo")
	&& isreg(&s->opd[3]) && ((K->tid[r] == 2) || (isreg(&s->opd[2])
	&& K->tid[s->opd[2].reg] == 2))) {
		K->tid[d] = K->tid[s->opd[3].reg];   /* 0*x + c = c */
		return;
	}
	if (s->nop != 3)
		return;
	if (s->op != Osetp && isreg(&s->opd[2]) && K->val[r]
	&& K->val[s->opd[2].reg]) {
		K->val[d] = arith2(K, s, K->val[r], K->val[s->opd[2].reg]);
		return;         /* the signed division nvcc spells out */
	}
	long k = imm(&s->opd[2], &ok);
	if (!ok)
		return;
	if (s->op == Osetp && K->val[r]) {
		K->pk[d] = compare(K, s, K->val[r], k, &K->pred[d]) ? 0
			: all(K->nw);
	} else if (K->tid[r] == 1 && ((s->op == Oshr && k >= 5)
	|| (s->op == Odiv && k >= 32 && k % 32 == 0))) {
		long *w = arith(K, s, 0, s->op == Oshr ? k - 5 : k / 32);
		K->val[d] = w;
	} else if (K->val[r])
		K->val[d] = arith(K, s, K->val[r], k);
}

/* Spellings alike, either absent in both (not every one is interned) */
static int
samestr(Str a, Str b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int
sameopnd(const Opnd *a, const Opnd *b)
{
	if (a->kind != b->kind || a->neg != b->neg || a->minus != b->minus
	|| a->reg != b->reg || a->nsub != b->nsub || !samestr(a->s, b->s)
	|| !samestr(opext(a), opext(b)))
		return 0;
	for (uint32_t k = 0; k < a->nsub; k++)
		if (!sameopnd(&a->sub[k], &b->sub[k]))
			return 0;
	return 1;
}

/* a and b are the same instruction: opcode, modifiers, operands
 * (registers by identity, not by name: an inner scope's %rx is not
 * another's), neither guarded. */
static int
sameins(const Stmt *a, const Stmt *b)
{
	if (a->op != b->op || a->guard || b->guard || a->nmod != b->nmod
	|| a->nop != b->nop || !samestr(a->name, b->name))
		return 0;
	for (uint32_t k = 0; k < a->nmod; k++)
		if (!samestr(a->mod[k], b->mod[k]))
			return 0;
	for (uint32_t k = 0; k < a->nop; k++)
		if (!sameopnd(&a->opd[k], &b->opd[k]))
			return 0;
	return 1;
}

/* Each register's writes, into ndef; same[r] when r is written more
 * than once and every time by the same instruction as the first. */
typedef struct Defc {
	Func *f;
	uint32_t *ndef, *first, i;
	uint8_t *same;
} Defc;

static void
countdef(void *arg, int32_t r)
{
	Defc *c = arg;

	if (!c->ndef[r]++)
		c->first[r] = c->i, c->same[r] = 1;
	else if (c->same[r])
		c->same[r] = sameins(&c->f->stmt[c->first[r]],
			&c->f->stmt[c->i]);
}

/* Every register a statement may write is counted (vwrites). */
static void
defcount(Func *f, uint32_t *ndef, uint8_t *same)
{
	Defc c = {f, ndef, calloc(f->nreg ? f->nreg : 1, sizeof *c.first),
		0, same};

	for (c.i = 0; c.i < f->nstmt; c.i++)
		vwrites(&f->stmt[c.i], countdef, &c);
	for (uint32_t r = 0; r < f->nreg; r++)
		same[r] = same[r] && ndef[r] > 1;
	free(c.first);
}

/* Where each register is written, from defcount's ndef: site[site0[r]
 * .. site0[r + 1]), in statement order. */
typedef struct Sitec {
	uint32_t *site, *fill, i;
	const uint32_t *site0;
} Sitec;

static void
putsite(void *arg, int32_t r)
{
	Sitec *c = arg;

	c->site[c->site0[r] + c->fill[r]++] = c->i;
}

static uint32_t *
defsites(Func *f, const uint32_t *ndef, uint32_t **site)
{
	uint32_t n = f->nreg, *site0 = xmalloc((n + 2) * sizeof *site0);

	site0[0] = 0;
	for (uint32_t r = 0; r < n; r++)
		site0[r + 1] = site0[r] + ndef[r];
	Sitec c = {xmalloc((site0[n] + 1) * sizeof *c.site),
		calloc(n + 1, sizeof *c.fill), 0, site0};
	for (c.i = 0; c.i < f->nstmt; c.i++)
		vwrites(&f->stmt[c.i], putsite, &c);
	free(c.fill);
	*site = c.site;
	return site0;
}

/* The control flow as warps take it: at[i] the warps that may reach
 * statement i, go[i] and fall[i] those that may leave it by its branch
 * (to tgt[i]) and by falling through; into[i] the branches to it. */
typedef struct Flow {
	Set *at, *go, *fall;
	int32_t *tgt;
	uint32_t *into0, *into;         /* branches to i: into[into0[i]..] */
} Flow;

/* Each branch's target, and the branches into each statement; -1 when
 * a branch goes somewhere this cannot follow. */
static int
targets(Func *f, Flow *F)
{
	uint32_t n = f->nstmt, nb = 0, nlab = 0;
	int32_t *sc = scopeof(f);
	uint32_t *lab = xmalloc((n + 1) * sizeof *lab);
	int rc = 0;

	for (uint32_t i = 0; i < n; i++)
		if (f->stmt[i].kind == Slabel)
			lab[nlab++] = i;
	F->tgt = xmalloc((n + 1) * sizeof *F->tgt);
	F->into0 = calloc(n + 2, sizeof *F->into0);
	for (uint32_t i = 0; !rc && i < n; i++) {
		Stmt *s = &f->stmt[i];
		F->tgt[i] = -1;
		rc = s->kind == Sins && s->op == Obrx_idx ? -1 : 0;
		if (rc || s->kind != Sins || s->op != Obra)
			continue;
		/* by scope, as ptxas: inline asm repeats its labels in
		 * scopes of their own */
		Opnd *l = &s->opd[s->nop - 1];
		int64_t t = l->kind == Psym
			? bratargetin(f, sc, lab, nlab, i, l->s) : -1;
		F->tgt[i] = (int32_t)t;
		if (t < 0)
			rc = -1;
		else
			F->into0[t + 1]++, nb++;
	}
	free(sc);
	free(lab);
	if (rc)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		F->into0[i + 1] += F->into0[i];
	F->into = xmalloc((nb + 1) * sizeof *F->into);
	uint32_t *fill = calloc(n + 1, sizeof *fill);
	for (uint32_t i = 0; i < n; i++)
		if (F->tgt[i] >= 0) {
			uint32_t t = (uint32_t)F->tgt[i];
			F->into[F->into0[t] + fill[t]++] = i;
		}
	free(fill);
	return 0;
}

/* Sets of warps reaching each statement and taking each edge, to a
 * fixed point, from what is known of the predicates: a branch on a
 * predicate known in a warp goes one way there, else both. */
static void
flow(Func *f, Kn *K, Flow *F, int nw)
{
	int changed = 1;
	uint32_t n = f->nstmt;

	memset(F->at, 0, (n + 1) * sizeof *F->at);
	F->at[0] = all(nw);
	while (changed) {
		changed = 0;
		for (uint32_t i = 0; i < n; i++) {
			Stmt *s = &f->stmt[i];
			Set in = F->at[i], fall = in, go = 0;
			int32_t t = F->tgt[i];
			if (t >= 0 && !s->guard) {
				go = in, fall = 0;
			} else if (t >= 0) {
				int32_t p = s->guard->reg;
				Set kn = p >= 0 ? K->pk[p] : 0;
				Set tr = p >= 0 ? K->pred[p] : 0;
				if (s->gneg ^ s->guard->neg)
					tr = ~tr;
				go = in & (tr | ~kn);
				fall = in & (~tr | ~kn);
			} else if (s->kind == Sins && (s->op == Oret
			|| s->op == Oexit || s->op == Otrap) && !s->guard)
				fall = 0;
			F->go[i] = go, F->fall[i] = fall;
			if (t >= 0 && (F->at[t] | go) != F->at[t])
				F->at[t] |= go, changed = 1;
			if (i + 1 < n && (F->at[i + 1] | fall) != F->at[i + 1])
				F->at[i + 1] |= fall, changed = 1;
		}
	}
}

/* ---- registers written more than once, followed along the paths a
 * warp takes: CUTLASS's MLA forward numbers its roles with
 * `mov.b32 %r, 1` ... `mov.b32 %r, 6` on the branches of a switch on
 * the warpgroup, then tests that register */

enum { Maxdepth = 4 };  /* values followed through at most 4 walks */

typedef struct Back {
	Func *f;
	Kn *K;
	Flow *F;
	int32_t r;
	uint32_t *site0, *site;         /* r's writes: site[site0[r]..] */
	uint8_t *may;                   /* per register: some write of it
	                                 * evaldef could take (shapes()) */
	/* each depth's walk: a statement was seen when its stamp is the
	 * walk's gen (nothing to clear between walks), and its stack */
	uint32_t *stamp[Maxdepth + 1], gen[Maxdepth + 1];
	uint32_t *stack[Maxdepth + 1];
} Back;

/* Statement q writes W->r: its writes are in statement order. */
static int
writes(Back *W, uint32_t q)
{
	uint32_t lo = W->site0[W->r], hi = W->site0[W->r + 1];

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (W->site[mid] < q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < W->site0[W->r + 1] && W->site[lo] == q;
}

static int valat(Back *, int32_t r, uint32_t i, int w, int depth,
	long *v);

/* The value of a in warp w just before statement i. */
static int
valof(Back *W, int32_t a, uint32_t i, int w, int depth, long *v)
{
	if (W->K->val[a]) {
		*v = W->K->val[a][w];
		return 0;
	}
	return depth < Maxdepth && W->may[a]
		? valat(W, a, i, w, depth + 1, v) : -1;
}

/* s copies its source: a mov, or a broadcast (shfl.idx) */
static int
copyop(const Stmt *s)
{
	return (s->op == Omov && s->nop == 2)
		|| (s->op == Oshfl && hasmod(s, ".idx"));
}

/* The register statement s writes that evaldef could take, with the
 * register it reads into *a (-1: none, an immediate); -1 for none. */
static int32_t
shape(Stmt *s, int32_t *a)
{
	Opnd *o = s->nop ? &s->opd[0] : 0;
	int ok;

	*a = -1;
	if (s->kind != Sins || s->guard || s->nop < 2)
		return -1;
	if (o->kind == Ppair && s->op == Oshfl && o->nsub == 2)
		o = &o->sub[0];
	if (!isreg(o))
		return -1;
	if (s->op == Omov && s->nop == 2 && (imm(&s->opd[1], &ok), ok))
		return o->reg;
	if (!isreg(&s->opd[1]))
		return -1;
	*a = s->opd[1].reg;
	if (copyop(s))
		return o->reg;
	return s->nop == 3 && (imm(&s->opd[2], &ok), ok) ? o->reg : -1;
}

static void
unmay(void *arg, int32_t r)
{
	uint8_t *may = arg;

	may[r] = 0;
}

/* W->may: the registers a walk follows, those every write of which
 * has a shape evaldef takes, reading a known register or another such
 * (to the greatest fixed point).  Any other walk fails where it meets
 * the write evaldef cannot take; one that would not meet it on some
 * warp's paths is not made either, which only leaves a value unknown
 * (a guarded write or a load anywhere: the register is not followed).
 * `opt --no-search -p budget` on CUTLASS 77's forward file walks
 * 218,000 times instead of 1,116,000 (loop counters, loaded values),
 * its output the same. */
static void
shapes(Back *W, const uint32_t *ndef)
{
	Func *f = W->f;
	int32_t a;

	W->may = calloc(f->nreg + 1, 1);
	for (uint32_t r = 0; r < f->nreg; r++)
		W->may[r] = ndef[r] > 0;
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && shape(&f->stmt[i], &a) < 0)
			vwrites(&f->stmt[i], unmay, W->may);
	for (int changed = 1; changed;) {
		changed = 0;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			int32_t d = shape(&f->stmt[i], &a);
			if (d >= 0 && a >= 0 && W->may[d] && !W->may[a]
			&& !W->K->val[a])
				W->may[d] = 0, changed = 1;
		}
	}
}

/* The value statement j writes into r in warp w: a constant, a copy or
 * broadcast, or arithmetic with a constant on a followed value. */
static int
evaldef(Back *W, uint32_t j, int32_t r, int w, int depth, long *v)
{
	Stmt *s = &W->f->stmt[j];
	int32_t a;
	int ok;

	if (shape(s, &a) != r)
		return -1;
	if (a < 0) {                    /* mov of an immediate */
		long x = imm(&s->opd[1], &ok);
		int uns = 0, bits = width(s, &uns);
		if (!bits)
			return -1;
		*v = typed(x, bits, uns);
		return 0;
	}
	if (copyop(s))                  /* a copy or broadcast */
		return valof(W, a, j, w, depth, v);
	long k = imm(&s->opd[2], &ok), x;
	int bits, uns;
	if (valof(W, a, j, w, depth, &x) || !arithok(s, &k, &bits, &uns))
		return -1;
	*v = arith1(s, x, k, bits, uns);
	return 0;
}

/* One step of valat's walk back: q, a predecessor of the statement
 * being walked from, is a write of W->r (its value joins *have, *val)
 * or is walked from in turn.  -1 when the write is not followed or
 * gives another value. */
static int
back(Back *W, uint32_t q, int w, int depth, uint32_t *sp, int *have,
	long *val)
{
	long x;

	if (W->stamp[depth][q] == W->gen[depth])
		return 0;
	W->stamp[depth][q] = W->gen[depth];
	if (!writes(W, q)) {
		W->stack[depth][(*sp)++] = q;
		return 0;
	}
	if (evaldef(W, q, W->r, w, depth, &x) || (*have && x != *val))
		return -1;
	*have = 1, *val = x;
	return 0;
}

/* The value of register r in warp w just before statement i, when every
 * write of it that reaches i along the edges w may take gives the same;
 * -1 when one does not, or a path from the entry writes none. */
static int
valat(Back *W, int32_t r, uint32_t i, int w, int depth, long *v)
{
	Flow *F = W->F;
	uint32_t n = W->f->nstmt, sp = 0, *stack;
	Set bit = (Set)1 << w;
	int32_t saved = W->r;
	int have = 0, rc = 0;
	long val = 0;

	if (!W->stack[depth]) {
		W->stack[depth] = xmalloc((n + 1) * sizeof *stack);
		W->stamp[depth] = calloc(n + 1, sizeof *W->stamp[depth]);
	}
	if (!++W->gen[depth]) {         /* wrapped: start the stamps again */
		memset(W->stamp[depth], 0, (n + 1) * sizeof *W->stamp[depth]);
		W->gen[depth] = 1;
	}
	stack = W->stack[depth];
	/* i itself is not seen: a walk that comes back round to it has
	 * passed an earlier run of it, whose write counts */
	W->r = r;
	stack[sp++] = i;
	while (sp && !rc) {
		uint32_t c = stack[--sp];
		if (c == 0) {
			rc = -1;        /* from the entry, unwritten */
			break;
		}
		if (F->fall[c - 1] & bit)
			rc = back(W, c - 1, w, depth, &sp, &have, &val);
		for (uint32_t e = F->into0[c]; e < F->into0[c + 1] && !rc; e++)
			if (F->go[F->into[e]] & bit)
				rc = back(W, F->into[e], w, depth, &sp, &have,
					&val);
	}
	W->r = saved;
	if (rc || !have)
		return -1;
	*v = val;
	return 0;
}

/* Predicates set by comparing such a register with a constant, warp by
 * warp where the walk finds its value; not.pred of a known one.
 * Returns whether anything new is known. */
static int
learnpaths(Func *f, Kn *K, Back *W, uint32_t *ndef)
{
	Flow *F = W->F;
	int changed = 0, ok;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->guard || s->nop != 3
		|| !isreg(&s->opd[0]) || ndef[s->opd[0].reg] != 1)
			continue;
		int32_t d = s->opd[0].reg;
		if (s->op != Osetp || !isreg(&s->opd[1])
		|| K->val[s->opd[1].reg])
			continue;
		long k = imm(&s->opd[2], &ok);
		int cmp, bits, uns;
		Set todo = F->at[i] & ~K->pk[d];
		if (!ok || !W->may[s->opd[1].reg]
		|| !cmpok(s, &k, &cmp, &bits, &uns))
			continue;
		for (int w = 0; w < K->nw; w++) {
			long x;
			if (!(todo >> w & 1)
			|| valat(W, s->opd[1].reg, i, w, 0, &x))
				continue;
			K->pk[d] |= (Set)1 << w;
			K->pred[d] |= (Set)cmp1(cmp, x, k, bits, uns) << w;
			changed = 1;
		}
	}
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sins && s->op == Onot && s->nop == 2
		&& !s->guard && isreg(&s->opd[0]) && isreg(&s->opd[1])
		&& ndef[s->opd[0].reg] == 1) {
			int32_t d = s->opd[0].reg, a = s->opd[1].reg;
			Set kn = K->pk[a] & ~K->pk[d];
			if (!kn)
				continue;
			K->pk[d] |= kn;
			K->pred[d] = (K->pred[d] & ~kn) | (~K->pred[a] & kn);
			changed = 1;
		}
	}
	return changed;
}

/* setmaxnreg the count analysis does not see: a call may run one in
 * the callee, and a warp that raises its count there holds more than
 * its role's count says (a .func may hold setmaxnreg; ptxas takes it).
 * So every call must go to a function of m whose body, and what it
 * calls in turn, runs none, or to one of CUDA's system calls, which
 * CUTLASS's kernels call for printf.  An instruction the opcode table
 * does not know may be a branch or a setmaxnreg of a newer PTX.  -1
 * with the reason in why. */
static const char *const syscalls[] = {"vprintf", "malloc", "free",
	"__assertfail"};

static int
ownsites(Module *m, Func *f, int depth, Buf *why)
{
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || (s->op != Ocall && s->op != Osetmaxnreg
		&& s->op != Ounknown))
			continue;
		if (s->op == Ounknown) {
			if (!depth)
				bprintf(why, "%s: line %u: an instruction this "
					"does not know\n", f->name, s->pos.line);
			return -1;
		}
		if (s->op == Osetmaxnreg) {
			if (depth)
				goto bad;       /* in a callee */
			continue;
		}
		Opnd *t = 0;
		for (uint32_t k = 0; k < s->nop && !t; k++)
			if (s->opd[k].kind != Plist)
				t = &s->opd[k];
		if (!t || t->kind != Psym || depth >= 8)
			goto bad;               /* through a register, or deep */
		Func *g = 0;
		for (uint32_t k = 0; m && k < m->nitem && !g; k++)
			if (m->item[k].kind == Ifunc && m->item[k].fn->body
			&& !strcmp(m->item[k].fn->name, t->s))
				g = m->item[k].fn;
		int sys = 0;
		for (size_t k = 0; k < countof(syscalls) && !g; k++)
			sys |= !strcmp(t->s, syscalls[k]);
		if (sys)
			continue;
		if (!g || ownsites(m, g, depth + 1, why))
			goto bad;
		continue;
bad:
		if (!depth)
			bprintf(why, "%s: line %u: a call this cannot follow "
				"(a callee may run setmaxnreg)\n", f->name,
				s->pos.line);
		return -1;
	}
	return 0;
}

/* Which warps may reach each setmaxnreg of f, and what the CTA holds:
 * the arithmetic of budgetfit apart from the counts, so that the
 * search's budget round weighs many count vectors on one analysis.
 * 0, or -1 with the reason in why. */
int
budgetroles(Module *m, Func *f, Roles *R, Buf *why)
{
	long t[3], k[3] = {1, 1, 1};
	uint32_t n = f->nreg ? f->nreg : 1;
	int rc = 0;

	int req = perfint(f, ".reqntid", t), max = 0;

	R->fewer = !req;
	if (!req && !(max = perfint(f, ".maxntid", t))) {
		bprintf(why, "%s: no .reqntid or .maxntid: the warps of a "
			"CTA are not known\n", f->name);
		return -1;
	}
	long mx[3];
	int mr = perfint(f, ".maxnreg", mx);
	if (req < 0 || max < 0 || perfint(f, ".minnctapersm", k) < 0
	|| mr < 0) {
		bprintf(why, "%s: a block size, .minnctapersm or .maxnreg "
			"that is not numbers this proof reads\n", f->name);
		return -1;
	}
	long threads = t[0] * t[1] * t[2], nw = (threads + 31) / 32;
	if (t[1] != 1 || t[2] != 1 || nw < 1 || nw > Maxwarp || k[0] < 1) {
		bprintf(why, "%s: block %ldx%ldx%ld: warps not tracked\n",
			f->name, t[0], t[1], t[2]);
		return -1;
	}
	uint32_t *ndef = calloc(n, sizeof *ndef);
	uint32_t ns = f->nstmt + 1;
	Flow F = {calloc(ns, sizeof(Set)), calloc(ns, sizeof(Set)),
		calloc(ns, sizeof(Set)), 0, 0, 0};
	Kn K = {calloc(n, sizeof(long *)), calloc(n, 1),
		calloc(n, sizeof(Set)), calloc(n, sizeof(Set)), (int)nw,
		calloc(n, 1)};
	defcount(f, ndef, K.same);
	for (uint32_t i = 0; i < f->nstmt; i++)
		learn(&K, &f->stmt[i], ndef);
	R->nw = (int)nw;
	R->entry = 65536 / (threads * k[0]) / 8 * 8;
	if (R->entry > 255)
		R->entry = 255;
	if (mr > 0 && mx[0] / 8 * 8 < R->entry)
		R->entry = mx[0] / 8 * 8;
	/* the CTA's pool: what its warps were launched with */
	R->pool = R->cap = 65536 / k[0];
	if (32 * nw * R->entry < R->cap)
		R->cap = 32 * nw * R->entry;
	if (targets(f, &F)) {
		bprintf(why, "%s: a branch this cannot follow\n", f->name);
		rc = -1;
	} else if (ownsites(m, f, 0, why))
		rc = -1;
	/* what the paths tell of the predicates narrows the paths: to a
	 * fixed point (each round knows more; what a wider round knew
	 * stays true on a narrower one) */
	Back W = {.f = f, .K = &K, .F = &F, .r = -1};
	W.site0 = defsites(f, ndef, &W.site);
	shapes(&W, ndef);
	for (int round = 0; !rc && round < 64; round++) {
		flow(f, &K, &F, (int)nw);
		if (!learnpaths(f, &K, &W, ndef))
			break;
	}
	free(W.site0);
	free(W.site);
	free(W.may);
	for (int d = 0; d <= Maxdepth; d++) {
		free(W.stack[d]);
		free(W.stamp[d]);
	}
	R->nsite = 0;
	for (uint32_t i = 0; !rc && i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->op != Osetmaxnreg)
			continue;
		if (R->nsite == Maxroles) {
			bprintf(why, "%s: more than %d setmaxnreg\n", f->name,
				Maxroles);
			rc = -1;
			break;
		}
		R->line[R->nsite] = s->pos.line;
		R->reach[R->nsite++] = F.at[i];
	}
	for (uint32_t r = 0; r < n; r++)
		free(K.val[r]);
	free(K.val);
	free(K.tid);
	free(K.pred);
	free(K.pk);
	free(K.same);
	free(ndef);
	free(F.at);
	free(F.go);
	free(F.fall);
	free(F.tgt);
	free(F.into0);
	free(F.into);
	return rc;
}

/* The registers warps 0 .. nw - 1 of R hold with counts vals: each
 * at the largest count it may reach (a warp that reaches none keeps
 * what it was launched with). */
static long
needto(const Roles *R, const int *vals, int nw)
{
	long sum = 0;

	for (int w = 0; w < nw; w++) {
		long b = -1;
		for (int s = 0; s < R->nsite; s++)
			if ((R->reach[s] >> w & 1) && vals[s] > b)
				b = vals[s];
		sum += 32 * (b < 0 ? R->entry : b);
	}
	return sum;
}

/* The registers all the warps of R hold with counts vals. */
long
budgetneed(const Roles *R, const int *vals)
{
	return needto(R, vals, R->nw);
}

/* Some warp of [lo, hi) of R may run a setmaxnreg. */
static int
anysite(const Roles *R, int lo, int hi)
{
	for (int s = 0; s < R->nsite; s++)
		for (int w = lo; w < hi; w++)
			if (R->reach[s] >> w & 1)
				return 1;
	return 0;
}

/* A launch of fewer warps than .maxntid allows: where the counts ref
 * (as the input has them) fit the first nw warps, vals must too, or the
 * rewrite hangs a launch the input ran.  (Where ref does not fit, the
 * input itself waits forever there: CUTLASS's kernels at most sizes.)
 * A launch that cuts a warpgroup some warp of which runs setmaxnreg is
 * none the input runs: the PTX ISA wants every warp of the warpgroup to
 * run it.  -1 with the reason in why. */
static int
fewerfit(Func *f, const Roles *R, const int *vals, const int *ref,
	Buf *why)
{
	for (int nw = 1; R->fewer && ref && nw < R->nw; nw++) {
		long cap = 32L * nw * R->entry < R->pool
			? 32L * nw * R->entry : R->pool;
		if (nw % 4 && anysite(R, nw / 4 * 4, nw))
			continue;
		long need = needto(R, vals, nw);
		if (needto(R, ref, nw) <= cap && need > cap) {
			bprintf(why, "%s: launched with %d threads (.maxntid "
				"allows it), budgets need %ld registers, the "
				"CTA holds %ld, where as written they fit\n",
				f->name, 32 * nw, need, cap);
			return -1;
		}
	}
	return 0;
}

/* Budgets of f, whose roles are R, checked with vals[k] for its k-th
 * setmaxnreg (NULL: as written), against ref, the counts of the input
 * (NULL: none to compare with, for launches of fewer warps).  0 when
 * they fit; -1 with the reason in why. */
int
budgetcheck(Func *f, const Roles *R, const int *vals, const int *ref,
	Buf *why)
{
	int v[Maxroles], rc = 0;

	for (uint32_t i = 0, k = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->op != Osetmaxnreg)
			continue;
		long x = vals ? vals[k] : setmaxcount(s);
		if (x < 0) {
			bprintf(why, "%s: line %u: a setmaxnreg count that is "
				"not one plain number\n", f->name, s->pos.line);
			rc = -1;
		} else if (x % 8 || x < 24 || x > 256) {
			bprintf(why, "%s: line %u: setmaxnreg %ld is not a "
				"multiple of 8 in [24, 256]\n", f->name,
				s->pos.line, x);
			rc = -1;
		}
		v[k++] = (int)x;
	}
	long sum = rc ? 0 : budgetneed(R, v);
	if (!rc && sum > R->cap) {
		bprintf(why, "%s: budgets need %ld registers, the CTA holds "
			"%ld: setmaxnreg.inc would wait forever\n", f->name, sum,
			R->cap);
		rc = -1;
	}
	return rc ? rc : fewerfit(f, R, v, ref, why);
}

/* budgetcheck on f's roles, found here. */
int
budgetfit(Module *m, Func *f, const int *vals, const int *ref, Buf *why)
{
	Roles R;

	return budgetroles(m, f, &R, why) ? -1
		: budgetcheck(f, &R, vals, ref, why);
}
