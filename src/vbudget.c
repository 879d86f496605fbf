/* vbudget.c: proves that setmaxnreg budgets fit the register file.
 *
 * A warp-specialized kernel gives each warp role its own register count
 * with setmaxnreg.inc/.dec.  The counts of all warps of a CTA together
 * must fit what the CTA holds (65536 registers per SM, shared by
 * .minnctapersm CTAs), each a multiple of 8 in [24, 256], or an .inc
 * waits forever for registers that never come back: the kernel hangs.
 *
 * Which warps reach which setmaxnreg is found here, on its own: the warp
 * index is %tid.x >> 5 (or / 32, or a broadcast or copy of that, or that
 * shifted further for warpgroups); a branch on a comparison of it with a
 * constant splits the set of warps that go each way; sets flow through
 * the branches to a fixed point.  A warp that may reach several sites is
 * counted at the largest; a warp that reaches none keeps the count it
 * starts with (65536 / threads / CTAs per SM, rounded down to 8).  What
 * this cannot see (no .reqntid/.maxntid, a 2-D block, a branch on
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
	uint8_t *pk;           /* pred[] is known */
	int nw;
} Kn;

enum { Ceq, Cne, Clt, Cle, Cgt, Cge };

static int
perfint(Func *f, const char *name, long *v)
{
	for (uint32_t i = 0; i < f->nperf; i++)
		if (!strcmp(f->perf[i].name, name) && f->perf[i].args) {
			char *e;
			long x = strtol(f->perf[i].args, &e, 10), y = 1, z = 1;
			if (*e == ',')
				y = strtol(e + 1, &e, 10);
			if (*e == ',')
				z = strtol(e + 1, &e, 10);
			v[0] = x, v[1] = y, v[2] = z;
			return 1;
		}
	return 0;
}

static long
imm(Opnd *o, int *ok)
{
	*ok = o->kind == Pint && !o->nsub;
	if (!*ok)
		return 0;
	long v = strtol(o->s, 0, 0);
	return o->minus ? -v : v;
}

static int
isreg(Opnd *o)
{
	return o->kind == Preg && o->reg >= 0 && !o->comp;
}

/* d = op(a, k) per warp, for the operations warp roles are computed
 * with. */
static long *
arith(Kn *K, Stmt *s, long *a, long k)
{
	long *v = malloc(K->nw * sizeof *v);

	for (int w = 0; w < K->nw; w++) {
		long x = a ? a[w] : w;
		switch (s->op) {
		case Oshr: v[w] = x >> k; break;
		case Oshl: v[w] = x << k; break;
		case Oand: v[w] = x & k; break;
		case Oor: v[w] = x | k; break;
		case Oxor: v[w] = x ^ k; break;
		case Oadd: v[w] = x + k; break;
		case Osub: v[w] = x - k; break;
		case Omul: v[w] = x * k; break;
		case Odiv: v[w] = k ? x / k : 0; break;
		default: free(v); return 0;
		}
	}
	return v;
}

static Set
compare(Kn *K, Stmt *s, long *a, long k)
{
	static const char *const c[] = {".eq", ".ne", ".lt", ".le", ".gt",
		".ge"};
	int cmp = -1;
	Set out = 0;

	for (int j = 0; j < 6; j++)
		if (hasmod(s, c[j]))
			cmp = j;
	for (int w = 0; w < K->nw; w++) {
		long x = a[w];
		int t = cmp == Ceq ? x == k : cmp == Cne ? x != k
			: cmp == Clt ? x < k : cmp == Cle ? x <= k
			: cmp == Cgt ? x > k : cmp == Cge ? x >= k : 0;
		out |= (Set)t << w;
	}
	return out;
}

/* One statement's contribution.  Only registers written once are
 * tracked: a loop would change them. */
static void
learn(Kn *K, Stmt *s, uint32_t *ndef)
{
	if (s->kind != Sins || s->guard || s->nop < 2 || !isreg(&s->opd[0])
	|| ndef[s->opd[0].reg] != 1)
		return;
	int32_t d = s->opd[0].reg;
	Opnd *a = &s->opd[1];
	int ok;
	if (s->op == Omov && a->kind == Preg && a->reg < 0
	&& !strcmp(a->s, "%tid") && a->comp) {
		K->tid[d] = !strcmp(a->comp, ".x") ? 1 : 2;
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
	long k = imm(&s->opd[2], &ok);
	if (!ok)
		return;
	if (s->op == Osetp && K->val[r]) {
		K->pred[d] = compare(K, s, K->val[r], k);
		K->pk[d] = 1;
	} else if (K->tid[r] == 1 && ((s->op == Oshr && k >= 5)
	|| (s->op == Odiv && k >= 32 && k % 32 == 0))) {
		long *w = arith(K, s, 0, s->op == Oshr ? k - 5 : k / 32);
		K->val[d] = w;
	} else if (K->val[r])
		K->val[d] = arith(K, s, K->val[r], k);
}

static Set
all(int nw)
{
	return nw == Maxwarp ? ~(Set)0 : (((Set)1 << nw) - 1);
}

static int32_t
label(Func *f, Str name)
{
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Slabel && f->stmt[i].name == name)
			return (int32_t)i;
	return -1;
}

static void
defcount(Func *f, uint32_t *ndef)
{
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sins && s->nop && s->opd[0].kind == Preg
		&& s->opd[0].reg >= 0 && opdefs(s) != DNO)
			ndef[s->opd[0].reg]++;
	}
}

/* Sets of warps reaching each statement, to a fixed point.  Returns -1
 * when a branch goes somewhere this cannot follow. */
static int
flow(Func *f, Kn *K, Set *at, int nw)
{
	int changed = 1;

	at[0] = all(nw);
	while (changed) {
		changed = 0;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			Stmt *s = &f->stmt[i];
			Set in = at[i], fall = in, go = 0;
			int32_t t = -1;
			if (!in)
				continue;
			if (s->kind == Sins && (s->op == Obra)) {
				Opnd *l = &s->opd[s->nop - 1];
				if (l->kind != Psym || (t = label(f, l->s)) < 0)
					return -1;
				if (!s->guard) {
					go = in, fall = 0;
				} else {
					int32_t p = s->guard->reg;
					int known = p >= 0 && K->pk[p];
					Set t = known ? K->pred[p] : all(nw);
					if (known && (s->gneg ^ s->guard->neg))
						t = ~t;
					go = known ? in & t : in;
					fall = known ? in & ~t : in;
				}
			} else if (s->kind == Sins && (s->op == Obrx_idx
			|| s->op == Ocall)) {
				if (s->op == Obrx_idx)
					return -1;
			} else if (s->kind == Sins && (s->op == Oret
			|| s->op == Oexit || s->op == Otrap) && !s->guard)
				fall = 0;
			if (t >= 0 && (at[t] | go) != at[t])
				at[t] |= go, changed = 1;
			if (i + 1 < f->nstmt && (at[i + 1] | fall) != at[i + 1])
				at[i + 1] |= fall, changed = 1;
		}
	}
	return 0;
}

/* Budgets of f checked with vals[k] for its k-th setmaxnreg (NULL: as
 * written).  0 when they fit; -1 with the reason in why. */
int
budgetfit(Func *f, const int *vals, Buf *why)
{
	long t[3], k[3] = {1, 1, 1};
	uint32_t n = f->nreg ? f->nreg : 1;
	int rc = 0;

	if (!perfint(f, ".reqntid", t) && !perfint(f, ".maxntid", t)) {
		bprintf(why, "%s: no .reqntid or .maxntid: the warps of a "
			"CTA are not known\n", f->name);
		return -1;
	}
	perfint(f, ".minnctapersm", k);
	long threads = t[0] * t[1] * t[2], nw = (threads + 31) / 32;
	if (t[1] != 1 || t[2] != 1 || nw > Maxwarp || k[0] < 1) {
		bprintf(why, "%s: block %ldx%ldx%ld: warps not tracked\n",
			f->name, t[0], t[1], t[2]);
		return -1;
	}
	uint32_t *ndef = calloc(n, sizeof *ndef);
	Set *at = calloc(f->nstmt + 1, sizeof *at);
	Kn K = {calloc(n, sizeof(long *)), calloc(n, 1),
		calloc(n, sizeof(Set)), calloc(n, 1), (int)nw};
	defcount(f, ndef);
	for (uint32_t i = 0; i < f->nstmt; i++)
		learn(&K, &f->stmt[i], ndef);
	/* not.pred of a known predicate is known too */
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sins && s->op == Onot && s->nop == 2
		&& isreg(&s->opd[0]) && isreg(&s->opd[1])
		&& ndef[s->opd[0].reg] == 1 && K.pk[s->opd[1].reg]) {
			K.pred[s->opd[0].reg] = ~K.pred[s->opd[1].reg];
			K.pk[s->opd[0].reg] = 1;
		}
	}
	long entry = 65536 / (threads * k[0]) / 8 * 8, budget[Maxwarp];
	for (int w = 0; w < nw; w++)
		budget[w] = -1;
	if (entry > 255)
		entry = 255;
	if (flow(f, &K, at, (int)nw)) {
		bprintf(why, "%s: a branch this cannot follow\n", f->name);
		rc = -1;
	}
	for (uint32_t i = 0, site = 0; !rc && i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->op != Osetmaxnreg)
			continue;
		int ok;
		long v = vals ? vals[site] : imm(&s->opd[0], &ok);
		site++;
		if (v % 8 || v < 24 || v > 256) {
			bprintf(why, "%s: line %u: setmaxnreg %ld is not a "
				"multiple of 8 in [24, 256]\n", f->name,
				s->pos.line, v);
			rc = -1;
		}
		for (int w = 0; w < nw; w++)
			if ((at[i] >> w & 1) && v > budget[w])
				budget[w] = v;
	}
	long sum = 0, cap = 65536 / k[0];
	for (int w = 0; w < nw; w++)
		sum += 32 * (budget[w] < 0 ? entry : budget[w]);
	if (!rc && sum > cap) {
		bprintf(why, "%s: budgets need %ld registers, the CTA holds "
			"%ld: setmaxnreg.inc would wait forever\n", f->name, sum,
			cap);
		rc = -1;
	}
	for (uint32_t r = 0; r < n; r++)
		free(K.val[r]);
	free(K.val);
	free(K.tid);
	free(K.pred);
	free(K.pk);
	free(ndef);
	free(at);
	return rc;
}
