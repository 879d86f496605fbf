/* live.c: which registers hold a value ptxas must keep, block by block.
 *
 * needs: fillcfg; breaks: nothing.  Classic backward dataflow
 * (Kildall; Aho, Sethi, Ullman 10.6) over register bitsets, met with a
 * forward "defined on some path" set: a register is live only where it
 * is also defined, so a value set under @p and @!p, or first set under
 * a guard, does not appear live from the kernel's entry.
 *
 * Exact for PTX's operand forms: every register of a vector {a, b, _}
 * or pair p|q in a written position is written, "_" is nothing, a
 * guarded write (@p mov) and a write of one component (%v.x) do not
 * end the old value, mov.b64 {lo, hi}, %rd and mov.b64 %rd, {lo, hi}
 * write and read whole registers on each side, and registers of inner
 * { } scopes are distinct ids, so they are live only inside.
 * Per-instruction sets would not fit (10k instructions x 5k registers),
 * so only block edges are stored; walkbegin/walkprev recompute the
 * sets inside a block on demand. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

int
bitget(const uint64_t *v, uint32_t i)
{
	return (int)(v[i / 64] >> (i % 64) & 1);
}

static void
bitset(uint64_t *v, uint32_t i)
{
	v[i / 64] |= (uint64_t)1 << (i % 64);
}

static void
bitclr(uint64_t *v, uint32_t i)
{
	v[i / 64] &= ~((uint64_t)1 << (i % 64));
}

static void
visit(const Opnd *o, Regfn *fn, void *arg, int def, int kill)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		visit(&o->sub[i], fn, arg, def && o->kind != Paddr,
			kill);
	if (o->kind == Preg && o->reg >= 0)
		fn(arg, o->reg, def, def && kill && !hascomp(o));
}


/* Calls fn for every register s reads (def 0), then every one it
 * writes (def 1; kill when the write ends the old value). */
void
insregs(const Stmt *s, Regfn *fn, void *arg)
{
	Defs d;
	int kill = !s->guard;

	if (s->kind != Sins)
		return;
	d = opdefs(s);
	if (s->guard)
		visit(s->guard, fn, arg, 0, 0);
	for (uint32_t k = d == DNO ? 0 : 1; k < s->nop; k++)
		visit(&s->opd[k], fn, arg, 0, 0);
	if (d == D0U && s->nop)
		visit(&s->opd[0], fn, arg, 0, 0);
	if (d != DNO && s->nop)
		visit(&s->opd[0], fn, arg, 1, kill);
}

typedef struct Gk { uint64_t *gen, *kill, *defd; } Gk;

static void
gkfn(void *arg, int32_t r, int def, int kill)
{
	Gk *g = arg;

	if (!def) {
		if (!bitget(g->kill, r))
			bitset(g->gen, r);
		return;
	}
	bitset(g->defd, r);
	if (kill)
		bitset(g->kill, r);
}

static int
orinto(uint64_t *d, const uint64_t *s, uint32_t n)
{
	uint64_t ch = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = d[i] | s[i];
		ch |= v ^ d[i];
		d[i] = v;
	}
	return ch != 0;
}

static uint32_t
nregs(const Decl *d, uint32_t n)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < n; i++)
		if (d[i].nattr && !strcmp(d[i].attr[0], ".reg"))
			for (uint32_t j = 0; j < d[i].nname; j++)
				k += d[i].name[j].count < 0 ? 1
					: (uint32_t)d[i].name[j].count;
	return k;
}

/* Registers passed in: .reg parameters of a .func.  resolve() gives
 * ids to the return registers first, then to the parameters. */
static void
params(Func *f, uint64_t *v)
{
	uint32_t r0 = nregs(f->ret, f->nret);
	uint32_t n = nregs(f->par, f->npar);

	for (uint32_t r = r0; r < r0 + n && r < f->nreg; r++)
		bitset(v, r);
}

/* Both fixed points below sweep the blocks in one order, as Kildall's
 * round robin does, but visit only a block whose neighbours' sets
 * changed since its last visit: CUTLASS's warp-specialized kernels have
 * 500 blocks and 10,000 registers (160 words a set), and the sweeps
 * after the first touched mostly blocks with nothing new. */
static void
defined(Func *f, uint64_t *defd)
{
	Ana *A = f->ana;
	uint32_t W = A->nword;
	uint64_t *dout = calloc((size_t)A->nblk * W, 8);
	uint8_t *dirty = memset(xmalloc(A->nblk + 1), 1, A->nblk + 1);
	int ch = 1;

	if (!dout)
		die("out of memory");
	params(f, A->blk[0].din);
	while (ch) {
		ch = 0;
		for (uint32_t b = 0; b < A->nblk; b++) {
			Blk *B = &A->blk[b];
			if (!dirty[b])
				continue;
			dirty[b] = 0;
			for (uint32_t p = 0; p < B->npred; p++)
				orinto(B->din, dout + (size_t)B->pred[p] * W, W);
			uint64_t *o = dout + (size_t)b * W;
			int c = orinto(o, B->din, W);
			c |= orinto(o, defd + (size_t)b * W, W);
			for (uint32_t s = 0; c && s < B->nsucc; s++)
				dirty[B->succ[s]] = 1;
			ch |= c;
		}
	}
	free(dirty);
	free(dout);
}

static void
dataflow(Func *f, uint64_t *gen, uint64_t *kill)
{
	Ana *A = f->ana;
	uint32_t W = A->nword;
	uint8_t *dirty = memset(xmalloc(A->nblk + 1), 1, A->nblk + 1);
	int ch = 1;

	while (ch) {
		ch = 0;
		for (uint32_t b = A->nblk; b-- > 0;) {
			Blk *B = &A->blk[b];
			if (!dirty[b])
				continue;
			dirty[b] = 0;
			for (uint32_t s = 0; s < B->nsucc; s++)
				orinto(B->out, A->blk[B->succ[s]].in, W);
			uint64_t *g = gen + (size_t)b * W;
			uint64_t *k = kill + (size_t)b * W;
			uint64_t c = 0;
			for (uint32_t w = 0; w < W; w++) {
				uint64_t v = g[w] | (B->out[w] & ~k[w]);
				c |= v & ~B->in[w];
				B->in[w] |= v;
			}
			for (uint32_t p = 0; c && p < B->npred; p++)
				dirty[B->pred[p]] = 1;
			ch |= c != 0;
		}
	}
	free(dirty);
}

void
filllive(Func *f)
{
	Ana *A = f->ana;
	uint32_t W = A->nword;
	size_t n = (size_t)A->nblk * W;
	Gk g;
	uint64_t *gen = calloc(n, 8), *kill = calloc(n, 8);
	uint64_t *defd = calloc(n, 8);

	if (!gen || !kill || !defd)
		die("out of memory");
	for (uint32_t b = 0; b < A->nblk; b++) {
		Blk *B = &A->blk[b];
		B->in = zalloc(A->a, W * 8);
		B->out = zalloc(A->a, W * 8);
		B->din = zalloc(A->a, W * 8);
		g = (Gk){gen + (size_t)b * W, kill + (size_t)b * W,
			defd + (size_t)b * W};
		for (uint32_t i = B->first; i < B->end; i++)
			insregs(&f->stmt[i], gkfn, &g);
	}
	defined(f, defd);
	dataflow(f, gen, kill);
	filluniform(f);
	for (uint32_t b = 0; b < A->nblk; b++) {
		Blk *B = &A->blk[b];
		uint64_t *d = defd + (size_t)b * W;
		for (uint32_t w = 0; w < W; w++) {
			B->in[w] &= B->din[w];
			B->out[w] &= B->din[w] | d[w];
		}
	}
	free(gen);
	free(kill);
	free(defd);
}

/* ---- the walk inside a block ---- */

static void
add(Walk *w, int32_t r)
{
	if (bitget(w->live, r))
		return;
	bitset(w->live, r);
	if (w->f->ana->free && w->f->ana->free[r])
		return;
	if (w->f->reg[r].pred)
		w->pcur++;
	else
		w->ucur += w->f->reg[r].units;
}

static void
del(Walk *w, int32_t r)
{
	if (!bitget(w->live, r))
		return;
	bitclr(w->live, r);
	if (w->f->ana->free && w->f->ana->free[r])
		return;
	if (w->f->reg[r].pred)
		w->pcur--;
	else
		w->ucur -= w->f->reg[r].units;
}

/* Defined before statement i of the walk's block, on some path? */
static int
defbefore(Walk *w, int32_t r, uint32_t i)
{
	Blk *B = &w->f->ana->blk[w->b];

	return bitget(B->din, r) || (w->first[r] >= 0
		&& (uint32_t)w->first[r] < i);
}

static void
firstfn(void *arg, int32_t r, int def, int kill)
{
	Walk *w = arg;

	UNUSED(kill);
	if (def && w->first[r] < 0) {
		w->first[r] = (int32_t)w->i;
		if (w->nset == w->capset) {
			w->capset = w->capset ? 2 * w->capset : 64;
			w->set = xrealloc(w->set, w->capset * sizeof *w->set);
		}
		w->set[w->nset++] = r;
	}
}

void
walkbegin(Walk *w, Func *f, uint32_t b)
{
	Ana *A = f->ana;
	Blk *B = &A->blk[b];

	memset(w, 0, sizeof *w);
	w->f = f;
	w->b = b;
	w->live = xmalloc(A->nword * 8);
	memset(w->live, 0, A->nword * 8);
	if (!A->first) {
		A->nfirst = f->nreg + 1;
		A->first = alloc(A->a, A->nfirst * sizeof *A->first);
		memset(A->first, 0xff, A->nfirst * sizeof *A->first);
	}
	if (A->firstlent || A->nfirst < f->nreg + 1) {
		/* a second walk at once, or registers added since */
		w->first = xmalloc((f->nreg + 1) * sizeof *w->first);
		memset(w->first, 0xff, (f->nreg + 1) * sizeof *w->first);
		w->ownfirst = 1;
	} else {
		w->first = A->first;
		A->firstlent = 1;
	}
	/* the live-out set by words: a block of a large kernel has few of
	 * its thousands of registers live (hoist walks every block) */
	for (uint32_t k = 0; k < A->nword; k++)
		for (uint64_t m = B->out[k]; m; m &= m - 1)
			add(w, (int32_t)(64 * k + (uint32_t)__builtin_ctzll(m)));
	for (w->i = B->first; w->i < B->end; w->i++)
		insregs(&f->stmt[w->i], firstfn, w);
	w->i = B->end;
}

enum { Wfresh = 1, Wkill = 2 };

/* Writes of the instruction being stepped over: register, then flags
 * (Wfresh: it was not live after; Wkill: the write ends the value). */
static void
stepfn(void *arg, int32_t r, int def, int kill)
{
	Walk *w = arg;

	if (!def)
		return;
	if (w->ntmp + 2 > w->captmp) {
		w->captmp = w->captmp ? 2 * w->captmp : 64;
		w->tmp = xrealloc(w->tmp, w->captmp * sizeof *w->tmp);
	}
	w->tmp[w->ntmp++] = r;
	w->tmp[w->ntmp++] = (bitget(w->live, r) ? 0 : Wfresh)
		| (kill ? Wkill : 0);
	add(w, r);
}

static void
usefn(void *arg, int32_t r, int def, int kill)
{
	Walk *w = arg;

	UNUSED(kill);
	if (!def && defbefore(w, r, w->i))
		add(w, r);
}

/* Steps back over the previous instruction: the figures then describe
 * it.  Returns 0 when the block has no instruction left. */
int
walkprev(Walk *w)
{
	Func *f = w->f;
	Blk *B = &f->ana->blk[w->b];
	int uout, pout;

	do {
		if (w->i == B->first)
			return 0;
		w->i--;
	} while (f->stmt[w->i].kind != Sins);
	w->ntmp = 0;
	insregs(&f->stmt[w->i], stepfn, w);
	uout = w->ucur;
	pout = w->pcur;
	/* back past the writes: a write that ends the value, a write of a
	 * value nobody reads, or the first write on every path here */
	for (uint32_t k = 0; k < w->ntmp; k += 2) {
		int32_t r = w->tmp[k];
		if (w->tmp[k + 1] || !defbefore(w, r, w->i))
			del(w, r);
	}
	w->across = w->ucur;
	insregs(&f->stmt[w->i], usefn, w);
	w->units = uout > w->ucur ? uout : w->ucur;
	w->preds = pout > w->pcur ? pout : w->pcur;
	return 1;
}

void
walkend(Walk *w)
{
	free(w->live);
	if (w->ownfirst)
		free(w->first);
	else if (w->first) {
		/* back to all -1 for the next walk: what this one set */
		for (uint32_t k = 0; k < w->nset; k++)
			w->first[w->set[k]] = -1;
		w->f->ana->firstlent = 0;
	}
	free(w->set);
	free(w->tmp);
	memset(w, 0, sizeof *w);
}

/* ---- registers that cost no R register ----
 * Since sm_75 a warp-uniform value (from parameters, constants, the
 * block and grid indices) lives in the uniform file (UR0-UR63), which
 * ptxas does not count in "Used N registers".  Optimistic: every
 * register starts uniform and loses it when some write of it is not. */

static int
unispecial(Str s)
{
	static const char *const v[] = {
		"%ntid", "%nctaid", "%ctaid", "%nclusterid", "%clusterid",
		"%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank",
		"%cluster_nctarank", "%gridid", "%dynamic_smem_size",
		"%total_smem_size", "%aggr_smem_size", "%is_explicit_cluster",
	};
	for (size_t i = 0; i < countof(v); i++)
		if (!strncmp(s, v[i], strlen(v[i])))
			return 1;
	return 0;
}

typedef struct Uni { Func *f; uint8_t *u; int src, ch, left; } Uni;

static void
unisrc(const Opnd *o, Uni *U)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		unisrc(&o->sub[i], U);
	if (o->kind == Preg && o->reg >= 0 && !U->u[o->reg])
		U->src = 0;
	if (o->kind == Preg && o->reg < 0 && !unispecial(o->s))
		U->src = 0;
}

static void
unidst(void *arg, int32_t r, int def, int kill)
{
	Uni *U = arg;

	UNUSED(kill);
	if (def && !U->src && U->u[r]) {
		U->u[r] = 0;
		U->ch = 1;
	}
	U->left |= def && U->u[r];
}

static int
unisource(const Stmt *s)
{
	Klass k = opklass(s);

	if (k == Kpure)
		return 1;
	if (s->op != Old && s->op != Oldu)
		return 0;
	for (uint32_t i = 0; i < s->nmod; i++)
		if (!strcmp(s->mod[i], ".param") || !strcmp(s->mod[i], ".const"))
			return 1;
	return 0;
}

void
filluniform(Func *f)
{
	Ana *A = f->ana;
	Uni U = {f, 0, 0, 1, 0};
	uint64_t *par = calloc(A->nword, 8);

	A->free = zalloc(A->a, f->nreg + 1);
	if (!par)
		die("out of memory");
	U.u = A->free;
	params(f, par);
	for (uint32_t r = 0; r < f->nreg; r++)
		U.u[r] = !bitget(par, r);
	free(par);
	/* the writes still to look at: one whose registers have all lost
	 * it can change nothing more, and later sweeps pass it by */
	uint32_t *at = xmalloc((f->nstmt + 1) * sizeof *at), n = 0;
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && opdefs(&f->stmt[i]) != DNO)
			at[n++] = i;
	while (U.ch) {
		uint32_t keep = 0;
		U.ch = 0;
		for (uint32_t j = 0; j < n; j++) {
			const Stmt *s = &f->stmt[at[j]];
			Defs d = opdefs(s);
			U.src = unisource(s);
			if (s->guard)
				unisrc(s->guard, &U);
			for (uint32_t k = 1; k < s->nop; k++)
				unisrc(&s->opd[k], &U);
			if (d == D0U)
				U.src = 0;
			U.left = 0;
			insregs(s, unidst, &U);
			if (U.left)
				at[keep++] = at[j];
		}
		n = keep;
	}
	free(at);
	if (A->sm >= 75)
		return;
	/* before the uniform file: only .param values, read from c[] */
	for (uint32_t r = 0; r < f->nreg; r++)
		U.u[r] = 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		const Stmt *s = &f->stmt[i];
		if (s->kind == Sins && s->op == Old && s->nop
		&& s->opd[0].kind == Preg && s->opd[0].reg >= 0)
			for (uint32_t k = 0; k < s->nmod; k++)
				if (!strcmp(s->mod[k], ".param"))
					U.u[s->opd[0].reg] = 1;
	}
}
