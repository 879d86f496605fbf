/* pin.c: keeps a value's computation where it is, out of ptxas's reach.
 *
 * needs:  pin: early's registers (%pxeK_<n>, passes/early.c); pin=cvt
 *         and pin=ld: nothing
 * breaks: statement count and order (pin=ld moves converts up), register
 *         ids (it declares two registers and binds every operand again)
 * paper:  none; a counter to ptxas's sinking of code towards its use
 *         (Muchnick 1997, 14.x: partial dead-code elimination), which
 *         here runs against the register cap.
 *
 * Triton 3.6 peels the first iteration of its Blackwell loop.  early
 * computes that iteration's row sum of P right after the exp2 burst,
 * but nothing in the peeled code reads the sum: only the loop's header
 * does.  ptxas then sinks the whole chain of adds down to the loop's
 * preheader, past P's store to tensor memory, O's load and the MMA
 * issue, and the 128 fp32 P values it reads live all that way
 * (bench/RESULTS.md, twelfth session: held-out d128_n128 spills 128
 * bytes so, 0 when the sum is read where it is computed).  ptxas does
 * not move a shfl.sync across blocks, so each such sum is read where it
 * is computed by a shuffle of the thread's value to itself:
 *
 *	mov.u32 %pxp0, %laneid;
 *	mov.u32 %pxp1, %lanemask_eq;
 *	shfl.sync.idx.b32 S, S, %pxp0, 31, %pxp1;
 *
 * The member mask is the thread's own lane, so no other thread takes
 * part or is waited for (the PTX ISA asks only that the executing
 * thread and the source lane be in it), and with the lane index its
 * own and c = 31 (no segment) the source lane is the thread itself:
 * S keeps its value.  A 64-bit sum (Triton 3.9's add.f32x2 tree of
 * packed P) is split into two registers of %pxpw<> for the shuffles
 * and joined again:
 *
 *	mov.b64 {%pxpw0, %pxpw1}, S;
 *	shfl.sync.idx.b32 %pxpw0, %pxpw0, %pxp0, 31, %pxp1;
 *	shfl.sync.idx.b32 %pxpw1, %pxpw1, %pxp0, 31, %pxp1;
 *	mov.b64 S, {%pxpw0, %pxpw1};
 *
 * Only sums whose block is on no cycle are pinned
 * (in the loop, the back edge already stops ptxas), and only where no
 * read of the sum follows in the block.
 *
 * pin=cvt does the same for P's packing converts in a block that falls
 * into a wait loop (a block spinning on itself: Triton's mbarrier
 * try_wait): ptxas sinks such a softmax past the wait, whose retry it
 * puts out of line, among the loads after it (the corpus's sm_100a
 * d128_n128: 326 -> 48 bytes).  A register a tcgen05.ld/st or wgmma
 * may still be at is left alone (asyncregs).
 *
 * pin=ld does it for P's packing converts followed in their block by
 * a run of global loads (Triton's element-by-element V loads, K's and
 * V's tiles on sm_80 and sm_120a): ptxas issues the loads early and
 * sinks the converts below them, so the fp32 P values, the loaded
 * values and O are live together (bench/RESULTS.md, thirteenth
 * session: held-out sm_90a d64_n128 misaligned 420 -> 0 bytes, the
 * corpus's sm_120a d128_n64 624 -> 220).  The converts that stand
 * after the first such load move up to the pins, which go after the
 * last statement that writes or reads an f32 (the softmax and O's
 * rescale) before that load.  A register a wgmma names is pinned only
 * where its block completes every wgmma before the pin (a
 * commit_group, then wait_group 0) and fences them after it
 * (wgmma.fence), as the PTX ISA asks of any register write.
 *
 * pin=loop pins, in a block on a cycle, each register written there
 * from %tid, but for one whose value feeds 64-bit math (pin=loopall
 * pins those too).  remat and remat=loop put such reads, and the
 * address arithmetic on them, inside loops, near their uses; ptxas
 * hoists all of it out again (loop-invariant code motion) and, at the
 * register cap, spills what it hoisted: in the corpus's sm_120a
 * d128_n64 pick, eight shared-memory addresses of ldmatrix, stored
 * before the loop and reloaded in every iteration.  A value read by a
 * shuffle in the loop varies, for ptxas, with the iteration, and so
 * does all it feeds (bench/RESULTS.md, fifteenth session: 220 -> 88
 * bytes with pin=loop, 48 with pin=loopall).
 *
 * The validator takes such shuffles out of both files before anything
 * else (vpin.c, from validate()).  A pipeline may pin twice (pin=ld,
 * then pin=loop): the second reuses the first's lane and mask
 * registers; a function that had pins before the pipeline ran is left
 * alone (had). */
#include <stdlib.h>
#include <string.h>
#include "all.h"

static Stmt
ins(Module *m, const Stmt *at, uint16_t op, const char *name,
	const char *mod, uint32_t nop)
{
	Stmt s = *at;
	uint32_t nm = 0;
	char buf[64];

	s.kind = Sins;      /* at may be a label (pin=st) */
	s.op = op;
	s.name = interns(name);
	s.guard = 0;
	s.gneg = 0;
	s.mod = alloc(m->a, 4 * sizeof *s.mod);
	for (const char *p = mod; *p; ) {
		size_t n = strcspn(p + 1, ".") + 1;
		snprintf(buf, sizeof buf, "%.*s", (int)n, p);
		s.mod[nm++] = interns(buf);
		p += n;
	}
	s.nmod = nm;
	s.nop = nop;
	s.opd = alloc(m->a, nop * sizeof *s.opd);
	s.dirty = 1;
	s.lead = (Span){0, 0};
	return s;
}

static Stmt
shuffle(Module *m, Stmt *w, Str reg, Str lane, Str mask)
{
	Stmt x = ins(m, w, Oshfl, "shfl", ".sync.idx.b32", 5);

	x.opd[0] = regopnd(reg);
	x.opd[1] = x.opd[0];
	x.opd[2] = regopnd(lane);
	x.opd[3] = *intopnd(m, "31");
	x.opd[4] = regopnd(mask);
	return x;
}

/* mov.b64 {%pxpw<h>, %pxpw<h+1>}, S (join: the other way round). */
static Stmt
halves(Module *m, Stmt *w, Str S, uint32_t h, int join)
{
	Stmt x = ins(m, w, Omov, "mov", ".b64", 2);
	Opnd *v = alloc(m->a, 2 * sizeof *v);
	char b[32];

	for (uint32_t k = 0; k < 2; k++) {
		snprintf(b, sizeof b, "%%pxpw%u", h + k);
		v[k] = regopnd(interns(b));
	}
	memset(&x.opd[1], 0, sizeof x.opd[1]);
	x.opd[1].kind = Pvec;
	x.opd[1].reg = -1;
	x.opd[1].nsub = 2;
	x.opd[1].sub = v;
	x.opd[0] = regopnd(S);
	if (!join) {
		Opnd t = x.opd[0];
		x.opd[0] = x.opd[1];
		x.opd[1] = t;
	}
	return x;
}

/* How many statements pinstmts writes for nr pins, nw of them wide. */
static uint32_t
pinlen(uint32_t nr, uint32_t nw)
{
	return 2 + nr + 3 * nw;
}

/* After statement at: the lane and the mask, then a shuffle of each of
 * the nr registers r names (their spelling), a 64-bit one's halves
 * split into %pxpw<*h>, <*h + 1> (h advanced); pinlen() statements. */
static void
pinstmts(Module *m, Func *f, uint32_t at, const int32_t *r, uint32_t nr,
	Stmt *v, uint32_t *h)
{
	Stmt *w = &f->stmt[at];
	Str lane = interns("%pxp0"), mask = interns("%pxp1");
	uint32_t n = 2;

	v[0] = ins(m, w, Omov, "mov", ".u32", 2);
	v[0].opd[0] = regopnd(lane);
	v[0].opd[1] = regopnd(interns("%laneid"));
	v[1] = ins(m, w, Omov, "mov", ".u32", 2);
	v[1].opd[0] = regopnd(mask);
	v[1].opd[1] = regopnd(interns("%lanemask_eq"));
	for (uint32_t k = 0; k < nr; k++) {
		char name[64], b[32];
		Str S = interns(regname(f, r[k], name, sizeof name));
		if (f->reg[r[k]].units == 1) {
			v[n++] = shuffle(m, w, S, lane, mask);
			continue;
		}
		v[n++] = halves(m, w, S, *h, 0);
		for (uint32_t q = 0; q < 2; q++) {
			snprintf(b, sizeof b, "%%pxpw%u", *h + q);
			v[n++] = shuffle(m, w, interns(b), lane, mask);
		}
		v[n++] = halves(m, w, S, *h, 1);
		*h += 2;
	}
}

/* Whether a walk of A's graph from block from's successors meets block
 * to, each block pushed once. */
static int
reach(Ana *A, uint32_t from, uint32_t to, uint8_t *seen, uint32_t *stack)
{
	uint32_t n = 0;

	memset(seen, 0, A->nblk);
	stack[n++] = from;
	while (n) {
		uint32_t c = stack[--n];
		for (uint32_t k = 0; k < A->blk[c].nsucc; k++) {
			uint32_t e = A->blk[c].succ[k];
			if (e == to)
				return 1;
			if (!seen[e])
				seen[e] = 1, stack[n++] = e;
		}
	}
	return 0;
}

/* Whether block b lies on a cycle of A's graph. */
static int
cyclic(Ana *A, uint32_t b, uint8_t *seen, uint32_t *stack)
{
	return reach(A, b, b, seen, stack);
}

/* Early's marks (earlymarks), or NULL when there is no sum its copies
 * read. */
static uint8_t *
sums(Func *f)
{
	uint8_t *m = earlymarks(f);
	int any = 0;

	for (uint32_t r = 0; m && r < f->nreg; r++)
		any |= m[r] & Ecopied;
	if (m && !any)
		free(m), m = 0;
	return m;
}

/* Whether one of v's n registers is r. */
static int
inrv(const Rv *v, int32_t r)
{
	for (uint32_t k = 0; k < v->n; k++)
		if (v->v[k] == r)
			return 1;
	return 0;
}

/* Whether statement at (writing sum S) is read again before its block
 * ends. */
static int
readinblock(Func *f, Blk *b, uint32_t at, int32_t S, Rv *d, Rv *u)
{
	for (uint32_t i = at + 1; i < b->end; i++) {
		if (f->stmt[i].kind != Sins)
			continue;
		d->n = u->n = 0;
		defuse(&f->stmt[i], d, u);
		if (inrv(u, S))
			return 1;
	}
	return 0;
}

typedef struct Pins {
	uint32_t *at;           /* after statement at[k] */
	int32_t *reg;           /* shuffle reg[k] */
	uint32_t *mv;           /* pin=ld: the convert writing it, moved
	                         * to at[k] first; UINT32_MAX: none */
	uint32_t n, cap;
	Rv d, u;
	int32_t *sc;            /* innerscope(): each statement's scope */
	int wide;               /* 64-bit registers too (%pxpw<> free) */
} Pins;

static void
freepins(Pins *p)
{
	free(p->at);
	free(p->reg);
	free(p->mv);
	free(p->d.v);
	free(p->u.v);
	free(p->sc);
}

static void
add(Pins *p, uint32_t at, int32_t r)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->at = xrealloc(p->at, p->cap * sizeof *p->at);
		p->reg = xrealloc(p->reg, p->cap * sizeof *p->reg);
		p->mv = xrealloc(p->mv, p->cap * sizeof *p->mv);
	}
	p->mv[p->n] = UINT32_MAX;
	p->at[p->n] = at;
	p->reg[p->n++] = r;
}

/* Keeps pin k of p as the n-th (*n advanced): for filters that go
 * through the pins in order. */
static void
keep(Pins *p, uint32_t k, uint32_t *n)
{
	p->at[*n] = p->at[k], p->reg[*n] = p->reg[k], p->mv[*n] = p->mv[k];
	(*n)++;
}

/* Early's sums that only a later block reads, in blocks on no cycle,
 * outside { } scopes (the validator takes no pin there: mutated
 * tests). */
static void
sumpins(Func *f, Ana *A, const uint32_t *lines, const uint8_t *pxe,
	Pins *p)
{
	uint8_t *seen = xmalloc(A->nblk + 1);
	uint32_t *stack = xmalloc((A->nblk + 1) * sizeof *stack);

	for (uint32_t b = 0; b < A->nblk; b++) {
		Blk *B = &A->blk[b];
		int cyc = -1;
		for (uint32_t i = B->first; i < B->end; i++) {
			Stmt *s = &f->stmt[i];
			if (s->kind != Sins || s->nop < 1
			|| s->opd[0].kind != Preg || s->opd[0].reg < 0
			|| !(pxe[s->opd[0].reg] & Ecopied) || !inlines(lines, s)
			|| f->reg[s->opd[0].reg].pred
			|| f->reg[s->opd[0].reg].units > (p->wide ? 2 : 1))
				continue;
			if (cyc < 0)
				cyc = cyclic(A, b, seen, stack);
			if (!cyc && !readinblock(f, B, i, s->opd[0].reg,
				&p->d, &p->u) && p->sc[i] < 0)
				add(p, i, s->opd[0].reg);
		}
	}
	free(seen);
	free(stack);
}

/* Registers a pin may not shuffle: those a wgmma names (in flight up
 * to a wgmma.wait_group; unless wgmma is 0), and those a tcgen05.ld or
 * tcgen05.st names with no unguarded tcgen05.wait::ld (::st) after it
 * in its block (the validator, vpin.c, asks whether one may be in
 * flight at the pin). */
static uint8_t *
asyncregs(Func *f, Ana *A, int wgmma)
{
	uint8_t *no = calloc(f->nreg + 1, 1);
	Rv d = {0}, u = {0}, wd = {0}, wu = {0};

	if (!no)
		die("out of memory");
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || !((wgmma && s->op == Owgmma_mma_async)
		|| s->op == Otcgen05_ld || s->op == Otcgen05_st))
			continue;
		uint32_t waited = 0;
		uint16_t w = s->op == Otcgen05_ld ? Otcgen05_wait_ld
			: Otcgen05_wait_st;
		for (uint32_t j = i + 1; s->op != Owgmma_mma_async && !waited
		&& j < A->blk[A->blkof[i]].end; j++)
			if (f->stmt[j].kind == Sins && f->stmt[j].op == w
			&& !f->stmt[j].guard)
				waited = j;
		d.n = u.n = 0;
		defuse(s, &d, &u);
		for (uint32_t k = 0; !waited && k < d.n; k++)
			no[d.v[k]] = 1;
		for (uint32_t k = 0; !waited && k < u.n; k++)
			no[u.v[k]] = 1;
		/* waited for in its block, but a write of one of its
		 * registers before the wait (a racy input) would put the pin
		 * in flight (linemut seed 121) */
		for (uint32_t j = i + 1; waited && j < waited; j++) {
			if (f->stmt[j].kind != Sins)
				continue;
			wd.n = wu.n = 0;
			defuse(&f->stmt[j], &wd, &wu);
			for (uint32_t q = 0; q < wd.n; q++)
				for (uint32_t k = 0; k < d.n + u.n; k++)
					if ((k < d.n ? d.v[k] : u.v[k - d.n])
					== wd.v[q])
						no[wd.v[q]] = 1;
		}
	}
	free(wd.v);
	free(wu.v);
	free(d.v);
	free(u.v);
	return no;
}

static int
packcvt(const Stmt *s)
{
	return s->kind == Sins && s->op == Ocvt && !s->guard && s->nop == 3
		&& hasmod(s, ".rn") && hasmod(s, ".f32")
		&& (hasmod(s, ".f16x2") || hasmod(s, ".bf16x2"))
		&& s->opd[0].kind == Preg && s->opd[0].reg >= 0
		&& !hascomp(&s->opd[0]) && !s->opd[0].nsub;
}

/* A block whose fall-through successor spins on itself (Triton's
 * mbarrier wait loop): the packing converts in it whose results only
 * later blocks read, none of them named by a tensor-memory or wgmma
 * instruction in the block, pinned after the last of them. */
static void
cvtpins(Func *f, Ana *A, const uint32_t *lines, Pins *p)
{
	uint8_t *no = asyncregs(f, A, 1);
	uint8_t *here = calloc(f->nreg + 1, 1);

	if (!here)
		die("out of memory");
	for (uint32_t b = 0; b < A->nblk; b++) {
		Blk *B = &A->blk[b];
		int spin = 0;
		for (uint32_t k = 0; k < B->nsucc; k++) {
			Blk *W = &A->blk[B->succ[k]];
			for (uint32_t j = 0; B->succ[k] != b && j < W->nsucc; j++)
				spin |= W->succ[j] == B->succ[k];
		}
		if (!spin)
			continue;
		for (uint32_t i = B->first; i < B->end; i++) {
			Stmt *s = &f->stmt[i];
			if (s->kind != Sins || !(s->op == Owgmma_mma_async
			|| s->op == Otcgen05_ld || s->op == Otcgen05_st))
				continue;
			p->d.n = p->u.n = 0;
			defuse(s, &p->d, &p->u);
			for (uint32_t k = 0; k < p->d.n; k++)
				here[p->d.v[k]] = 1;
			for (uint32_t k = 0; k < p->u.n; k++)
				here[p->u.v[k]] = 1;
		}
		uint32_t last = 0, n0 = p->n;
		for (uint32_t i = B->first; i < B->end; i++) {
			Stmt *s = &f->stmt[i];
			int32_t r = packcvt(s) ? s->opd[0].reg : -1;
			if (r >= 0 && inlines(lines, s) && !no[r] && !here[r]
			&& !readinblock(f, B, i, r, &p->d, &p->u)
			&& p->sc[i] < 0)        /* as sumpins */
				add(p, i, r), last = i;
		}
		for (uint32_t k = n0; k < p->n; k++)
			p->at[k] = last;
		memset(here, 0, f->nreg + 1);
	}
	free(no);
	free(here);
}

static int
asyncname(const Stmt *s)
{
	return s->kind == Sins && (!strncmp(s->name, "wgmma.", 6)
		|| !strncmp(s->name, "tcgen05.", 8));
}

static int
isgload(const Stmt *s)
{
	return s->kind == Sins && s->op == Old && hasmod(s, ".global");
}

static int
f32work(const Stmt *s)
{
	return s->kind == Sins && (hasmod(s, ".f32") || hasmod(s, ".f32x2"))
		&& !packcvt(s);
}

/* Whether s writes a register convert c reads (d, u: s's writes and
 * reads, filled here). */
static int
writesinput(const Stmt *c, Stmt *s, Rv *d, Rv *u)
{
	d->n = u->n = 0;
	defuse(s, d, u);
	for (uint32_t x = 1; x < 3; x++)
		if (c->opd[x].kind == Preg && inrv(d, c->opd[x].reg))
			return 1;
	return 0;
}

/* Whether wgmma's registers may be pinned after statement at of B:
 * before it in B the last wgmma statement is an unguarded wait_group 0
 * with an unguarded commit_group the last before that, and after it
 * the first is an unguarded wgmma.fence. */
static int
wgmmaclear(Func *f, Blk *B, uint32_t at)
{
	int state = 0, fenced = 0;

	for (uint32_t i = at + 1; i-- > B->first && state < 2; ) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || strncmp(s->name, "wgmma.", 6))
			continue;
		if (s->guard)
			return 0;
		if (state == 0 && s->op == Owgmma_wait_group && s->nop == 1
		&& s->opd[0].kind == Pint && !s->opd[0].minus
		&& !strcmp(s->opd[0].s, "0"))
			state = 1;
		else if (state == 1 && s->op == Owgmma_commit_group)
			state = 2;
		else
			return 0;
	}
	for (uint32_t i = at + 1; i < B->end && !fenced; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || strncmp(s->name, "wgmma.", 6))
			continue;
		if (s->guard || s->op != Owgmma_fence)
			return 0;
		fenced = 1;
	}
	return state == 2 && fenced;
}

/* Whether the convert at q may move up to right after at: nothing
 * between reads or writes its result or writes its inputs, and no
 * scope, declaration, asynchronous (wgmma, tcgen05) or unknown
 * statement stands between. */
static int
canrise(Func *f, uint32_t at, uint32_t q, Rv *d, Rv *u)
{
	Stmt *c = &f->stmt[q];
	int32_t r = c->opd[0].reg;

	for (uint32_t j = at + 1; j < q; j++) {
		Stmt *s = &f->stmt[j];
		if (s->kind == Sopen || s->kind == Sclose || s->kind == Sdecl
		|| asyncname(s) || (s->kind == Sins && s->op == Ounknown))
			return 0;       /* an unknown one may be a wait (fo66) */
		if (s->kind == Sins && (writesinput(c, s, d, u)
		|| inrv(d, r) || inrv(u, r)))
			return 0;
	}
	return 1;
}

/* The last write in B before statement q of any register s reads, or
 * B's first statement less one when there is none. */
static int64_t
ready(Func *f, Blk *B, uint32_t q, Rv *d, Rv *u)
{
	for (uint32_t j = q; j-- > B->first; )
		if (f->stmt[j].kind == Sins
		&& writesinput(&f->stmt[q], &f->stmt[j], d, u))
			return j;
	return (int64_t)B->first - 1;
}

/* One block of pin=ld: its packing converts (8 or more), the first
 * global load after the point where every one's inputs are written
 * and before the last of them, the pins' place and the converts after
 * that load that move up to it. */
static void
ldblock(Func *f, Blk *B, const uint32_t *lines, const uint8_t *no,
	const uint8_t *wg, Pins *p)
{
	uint32_t nc = 0, last = 0, at;
	int64_t start = -1;

	for (uint32_t i = B->first; i < B->end; i++)
		if (packcvt(&f->stmt[i]) && inlines(lines, &f->stmt[i])) {
			int64_t r = ready(f, B, i, &p->d, &p->u);
			start = r > start ? r : start;
			nc++, last = i;
		}
	if (nc < 8)
		return;
	uint32_t ld = start < (int64_t)B->first ? B->first
		: (uint32_t)start + 1;
	while (ld < last && !isgload(&f->stmt[ld]))
		ld++;
	if (ld >= last)
		return;
	at = start < (int64_t)B->first ? B->first : (uint32_t)start;
	for (uint32_t i = at; i < ld; i++)      /* the early converts */
		if (packcvt(&f->stmt[i]) && inlines(lines, &f->stmt[i]))
			at = i;
	for (uint32_t i = at + 1; i < ld; i++)  /* then the f32 math */
		if (f32work(&f->stmt[i]))
			at = i;
	if (f->stmt[at].kind != Sins || p->sc[at] >= 0)
		return;
	int wgok = wgmmaclear(f, B, at);
	uint32_t n0 = p->n;
	for (uint32_t i = B->first; i < B->end; i++) {
		Stmt *s = &f->stmt[i];
		if (!packcvt(s) || !inlines(lines, s))
			continue;
		int32_t r = s->opd[0].reg;
		int dup = 0;
		for (uint32_t k = n0; k < p->n && !dup; k++)
			dup = p->reg[k] == r;
		if (dup || no[r] || (wg[r] && !wgok)
		|| (i > at && !canrise(f, at, i, &p->d, &p->u)))
			continue;
		add(p, at, r);
		if (i > at)
			p->mv[p->n - 1] = i;
	}
}

/* pin=ld over f: every block's plan (ldblock); the tensor-memory
 * registers that may be in flight are left alone, and wgmma's only
 * where ldblock finds its block clear of them. */
static void
ldpins(Func *f, Ana *A, const uint32_t *lines, Pins *p)
{
	uint8_t *no = asyncregs(f, A, 0), *wg = calloc(f->nreg + 1, 1);

	if (!wg)
		die("out of memory");
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins
		&& f->stmt[i].op == Owgmma_mma_async) {
			p->d.n = p->u.n = 0;
			defuse(&f->stmt[i], &p->d, &p->u);
			for (uint32_t k = 0; k < p->d.n; k++)
				wg[p->d.v[k]] = 1;
			for (uint32_t k = 0; k < p->u.n; k++)
				wg[p->u.v[k]] = 1;
		}
	for (uint32_t b = 0; b < A->nblk; b++)
		ldblock(f, &A->blk[b], lines, no, wg, p);
	free(no);
	free(wg);
}

/* Whether f has a register starting with %pxp or a shuffle of a
 * register into itself already: then the pass pins nothing.  The
 * validator takes pins out only all together, so a new pin would be
 * refused with an old one it cannot prove (an earlier pin's lane and
 * mask reused, fo46; a pin-shaped shuffle whose value may be in
 * flight, fo49). */
int
pintaken(Func *f)
{
	for (uint32_t r = 0; r < f->nreg; r++)
		if (!strncmp(f->reg[r].prefix, "%pxp", 4))
			return 1;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sins && s->op == Oshfl && s->nop >= 2
		&& s->opd[0].kind == Preg && s->opd[1].kind == Preg
		&& s->opd[0].reg >= 0 && s->opd[0].reg == s->opd[1].reg)
			return 1;
	}
	return 0;
}

/* A mov of 32 bits into a plain register. */
static int
mov32(const Stmt *s)
{
	if (s->kind != Sins || s->op != Omov || s->guard || s->nop != 2)
		return 0;
	const Opnd *d = &s->opd[0];
	return (hasmod(s, ".u32") || hasmod(s, ".b32") || hasmod(s, ".s32"))
		&& d->kind == Preg && d->reg >= 0 && !hascomp(d) && !d->nsub
		&& !d->neg;
}

/* Whether what statement at writes (a %tid value) feeds, in its block,
 * 64-bit arithmetic: a global address.  Such math kept in the loop
 * costs every iteration more than the spill it saves (on the H200, the
 * held-out sm_90a d128_n64 misaligned kernels: pinned there too, V's
 * element addresses, 0.63 of the input's time against 0.49 unpinned;
 * pinned only where the value feeds no 64-bit math in its block,
 * 0.480 against 0.484 and, causal, 0.696 against 0.709; run3.sh in
 * bench/RESULTS.md, fifteenth session). */
static int
wide(Func *f, Blk *B, uint32_t at, Pins *p)
{
	uint8_t *from = calloc(f->nreg + 1, 1);
	int w = 0;

	if (!from)
		die("out of memory");
	from[f->stmt[at].opd[0].reg] = 1;
	for (uint32_t i = at + 1; i < B->end && !w; i++) {
		Stmt *s = &f->stmt[i];
		int reads = 0;
		if (s->kind != Sins)
			continue;
		p->d.n = p->u.n = 0;
		defuse(s, &p->d, &p->u);
		for (uint32_t k = 0; k < p->u.n; k++)
			reads |= from[p->u.v[k]];
		w = reads && (hasmod(s, ".wide") || hasmod(s, ".u64")
			|| hasmod(s, ".s64") || hasmod(s, ".b64"));
		/* a write from other values ends what the register held */
		for (uint32_t k = 0; k < p->d.n; k++)
			from[p->d.v[k]] = (uint8_t)(reads
				|| (s->guard && from[p->d.v[k]]));
	}
	free(from);
	return w;
}

/* pin=loop: in blocks on a cycle, registers written from %tid,
 * pinned after the write.  Not the launch constants the same in every
 * thread of the CTA (%ctaid...): what ptxas computes from those it may
 * keep in uniform registers, outside the cap, and a pin would put them
 * in per-thread ones (the corpus's sm_120a d128_n64: 48 bytes with
 * %tid pinned, 96 with %ctaid.y too).  Nothing in a function with
 * setmaxnreg: there ptxas 13.0 gave up ("Register allocation failed
 * with register count of 232", corpus/fmha_sm100a.ptx after
 * remat=loop) where each pin alone assembled.  Nor a %tid value that
 * feeds 64-bit math in its block (wide), unless all (pin=loopall: the
 * corpus's sm_120a kernel, 88 bytes with pin=loop, 48 with it).  Nor
 * a register a tcgen05.ld/st or wgmma may still be at (asyncregs: a
 * %tid read in a loop can hold a tensor-memory address, fo57). */
static void
looppins(Func *f, Ana *A, const uint32_t *lines, Pins *p, int all)
{
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && f->stmt[i].op == Osetmaxnreg)
			return;
	uint8_t *seen = xmalloc(A->nblk + 1), *no = asyncregs(f, A, 1);
	uint32_t *stack = xmalloc((A->nblk + 1) * sizeof *stack);

	for (uint32_t b = 0; b < A->nblk; b++) {
		Blk *B = &A->blk[b];
		int cyc = -1;
		for (uint32_t i = B->first; i < B->end; i++) {
			Stmt *s = &f->stmt[i];
			if (!mov32(s) || !launchconst(&s->opd[1])
			|| strcmp(s->opd[1].s, "%tid") || p->sc[i] >= 0
			|| !inlines(lines, s) || no[s->opd[0].reg])
				continue;
			if (cyc < 0)
				cyc = cyclic(A, b, seen, stack);
			if (cyc && (all || !wide(f, B, i, p)))
				add(p, i, s->opd[0].reg);
		}
	}
	free(seen);
	free(stack);
	free(no);
}

/* pin=st and pin=base: a register from which Stmin or more of a
 * block's loads and stores take their addresses, through arithmetic in
 * the block, is pinned where its value is born: pin=st, right after the
 * label of a block on no cycle when it is live into the block;
 * pin=base, right after the statement that writes it when the block
 * computes it (outside { } scopes both).
 * ptxas otherwise computes every address at once and holds them all:
 * CUTLASS's Blackwell FMHA (example 77) zero-fills a swizzled shared
 * tile through 64 generic stores from one base after an mbarrier
 * arrive.  With the individual tile scheduler the base is live in, and
 * ptxas hoisted the address math above the branch ahead of the block,
 * spilling 292 bytes in the 96-register correction role; pinned at the
 * label, none.  In the persistent kernels the block, inside the tile
 * loop, computes the base from %tid and the shared window itself, and
 * even with each address computed next to its store (remat=loop puts
 * the math below the arrive) ptxas computed all 64 first: 272 bytes;
 * with the base pinned after its add, none (bench/RESULTS.md,
 * thirty-first and thirty-second sessions).  Two words, since each
 * kind of pin costs where the other wins: pin=base on top of pin=st
 * took one individual-scheduler kernel 0 -> 32 bytes.  A live-in base
 * in a loop is left to pin=loop: there the back edge already keeps the
 * math. */
enum { Stmin = 16 };

/* The register s's address starts from (its base), or -1. */
static int32_t
addrbase(const Stmt *s)
{
	if (s->kind != Sins || (s->op != Old && s->op != Ost))
		return -1;
	for (uint32_t k = 0; k < s->nop; k++)
		if (s->opd[k].kind == Paddr && s->opd[k].nsub
		&& s->opd[k].sub[0].kind == Preg)
			return s->opd[k].sub[0].reg;
	return -1;
}

/* A value's root, for pin=st: reg, a live-in register (at None) or
 * the one statement at of the block wrote; reg -1 when the value
 * derives from no register (immediates, symbols, special registers),
 * -2 when from what an opaque statement wrote. */
typedef struct Root { int32_t reg; uint32_t at; } Root;
enum { None = UINT32_MAX };

typedef struct Stscan {
	uint32_t *in;           /* in[r] == stamp: r written in the block */
	uint32_t *wat;          /* the statement that last wrote it */
	Root *root;             /* and the root of that value */
	uint32_t *cnt;          /* addresses from live-in register r */
	uint32_t *cntat;        /* addresses from what statement i wrote */
	int base;               /* pin=base: the block's own roots too */
	int32_t *touch;         /* the registers whose cnt is not 0 */
	uint32_t ntouch;
} Stscan;

/* The root of register u read in the block stamped stamp.  For
 * pin=base a value the block computed from no register is a root of
 * its own, so that the register where such values meet (the base) is
 * one too, and so is one where two roots meet; for pin=st such values
 * are constants, and two roots meeting make none. */
static Root
rootof(Stscan *t, uint32_t stamp, int32_t u)
{
	if (t->in[u] != stamp)
		return (Root){u, None};
	if (t->root[u].reg == -1 && t->base)
		return (Root){u, t->wat[u]};
	return t->root[u];
}

/* The roots of block B's registers (stamp: written in it when in[r] ==
 * stamp), each address's root counted. */
static void
stblock(Func *f, Blk *B, uint32_t stamp, Stscan *t, Pins *p)
{
	for (uint32_t i = B->first; i < B->end; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		int32_t a = addrbase(s);
		if (a >= 0) {
			Root r = rootof(t, stamp, a);
			if (r.reg >= 0 && r.at == None) {
				if (!t->cnt[r.reg]++)
					t->touch[t->ntouch++] = r.reg;
			} else if (r.reg >= 0)
				t->cntat[r.at]++;
		}
		p->d.n = p->u.n = 0;
		defuse(s, &p->d, &p->u);
		Root r = {-1, None};
		int pure = !s->guard && opklass(s) == Kpure;
		for (uint32_t k = 0; k < p->u.n && pure; k++) {
			Root ru = rootof(t, stamp, p->u.v[k]);
			if (ru.reg == -2 || r.reg == -2)
				r.reg = -2;
			else if (r.reg == -1)
				r = ru;
			else if ((r.reg != ru.reg || r.at != ru.at)
			&& ru.reg != -1)
				r = p->d.n == 1 && t->base ? (Root){p->d.v[0], i}
					: (Root){-2, None};
		}
		for (uint32_t k = 0; k < p->d.n; k++) {
			int32_t d = p->d.v[k];
			t->in[d] = stamp;
			t->wat[d] = i;
			t->root[d] = pure ? r : (Root){-2, None};
		}
	}
}

static int
cmpreg(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* Whether register r may be pinned: not one an asynchronous operation
 * may still write (no), a scalar of 32 bits (or 64 when wide): the
 * shuffle is .b32, and ptxas rejects a .b16 register there. */
static int
pinnable(Func *f, const uint8_t *no, const Pins *p, int32_t r)
{
	int bits = r >= 0 ? scalarbits(&f->reg[r]) : 0;

	return r >= 0 && !no[r] && (bits == 32 || (bits == 64 && p->wide));
}

static void
stpins(Func *f, Ana *A, const uint32_t *lines, Pins *p, int base)
{
	uint8_t *seen = xmalloc(A->nblk + 1), *no = asyncregs(f, A, 1);
	uint32_t *stack = xmalloc((A->nblk + 1) * sizeof *stack);
	Stscan t = {
		calloc(f->nreg + 1, sizeof *t.in),
		xmalloc((f->nreg + 1) * sizeof *t.wat),
		xmalloc((f->nreg + 1) * sizeof *t.root),
		calloc(f->nreg + 1, sizeof *t.cnt),
		calloc(f->nstmt + 1, sizeof *t.cntat), base,
		xmalloc((f->nreg + 1) * sizeof *t.touch), 0,
	};

	if (!t.in || !t.cnt || !t.cntat)
		die("out of memory");
	for (uint32_t b = 0; b < A->nblk; b++) {
		Blk *B = &A->blk[b];
		if (B->first >= B->end)
			continue;
		Stmt *l = &f->stmt[B->first];
		int top = !base && l->kind == Slabel && p->sc[B->first] < 0
			&& inlines(lines, l) && !cyclic(A, b, seen, stack);
		stblock(f, B, b + 1, &t, p);
		/* in register order, as a walk over all of them would (a
		 * block of a large kernel counts few of its thousands) */
		qsort(t.touch, t.ntouch, sizeof *t.touch, cmpreg);
		for (uint32_t k = 0; k < t.ntouch; k++) {
			int32_t r = t.touch[k];
			if (top && t.cnt[r] >= Stmin && pinnable(f, no, p, r))
				add(p, B->first, r);
			t.cnt[r] = 0;
		}
		t.ntouch = 0;
		for (uint32_t i = B->first; i < B->end; i++) {
			Stmt *s = &f->stmt[i];
			if (base && t.cntat[i] >= Stmin && p->sc[i] < 0
			&& inlines(lines, s)) {
				p->d.n = p->u.n = 0;
				defuse(s, &p->d, &p->u);
				if (p->d.n == 1 && pinnable(f, no, p, p->d.v[0]))
					add(p, i, p->d.v[0]);
			}
			t.cntat[i] = 0;
		}
	}
	free(seen);
	free(stack);
	free(no);
	free(t.in);
	free(t.wat);
	free(t.root);
	free(t.cnt);
	free(t.cntat);
	free(t.touch);
}

/* pin=dup: a value ptxas derives once from what two statements read
 * alike, and holds between them.  An mbarrier wait's parity reaches
 * the wait as a phase bit shifted into place, and mapa's shared::cta
 * address becomes a cluster address; where a later wait reads the
 * same parity, or a later mapa maps the same address for the same CTA
 * rank, ptxas computes the bit or the address once and keeps it live
 * across all between, at the register cap in a spill slot (CUTLASS's
 * persistent Blackwell FMHA: 44 bytes in each of four varlen kernels,
 * the correction warps' phase bits and the address of the peer CTA's
 * barrier, held across the epilogue, bench/RESULTS.md, thirty-third
 * session).  The registers the later statement reads are pinned just
 * before it (before the inline-asm scope it stands in): ptxas then
 * sees values it cannot prove equal and derives each where it is read.
 *
 * "Alike" is a value numbering in statement order that ignores
 * control flow (a pure statement's number is that of the first with
 * the same opcode, modifiers and operand numbers), so it is only a
 * hint: the later statement must be able to run after the earlier
 * (twins in two warp roles never do; ptxas hoists what both compute
 * above a loop one of them is in, so dominance asks too much), and a
 * pin is right wherever it stands.  Only these two kinds are pinned:
 * pinning every pure statement ptxas would merge undoes what remat
 * leaves to it.  ptxas answers pins in one loop alone better than all
 * at once (example 77: the correction loop's three pins give 0 bytes,
 * all 29 of them 112, and any one more pin in another role brings
 * spills back), so pin=dup:K keeps only the K-th loop's, and the search
 * tries K from 1 to 5. */
typedef struct Vtab { uint64_t *k; uint32_t *v; uint32_t mask; } Vtab;

typedef struct Dupscan {
	Ana *A;
	uint8_t *no;            /* asyncregs() */
	uint8_t *seen;          /* reach()'s walk */
	uint32_t *stack;
} Dupscan;

static uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

/* The value slot of key k (0 is no key: taken as 1), UINT32_MAX when
 * new. */
static uint32_t *
vslot(Vtab *t, uint64_t k)
{
	uint32_t i = (uint32_t)(k ^ k >> 32) & t->mask;

	k += !k;
	while (t->k[i] && t->k[i] != k)
		i = (i + 1) & t->mask;
	if (!t->k[i])
		t->k[i] = k, t->v[i] = UINT32_MAX;
	return &t->v[i];
}

/* By the spelling, not the address of the interned string: the same
 * input gives the same numbering on every run. */
static uint64_t
strkey(Str t)
{
	uint64_t h = 1469598103934665603ull;

	for (; t && *t; t++)
		h = (h ^ (unsigned char)*t) * 1099511628211ull;
	return h;
}

static uint64_t
opndkey(const Opnd *o, const uint32_t *vn)
{
	uint64_t h = mix(o->kind, (uint64_t)o->neg << 1 | o->minus);

	h = mix(h, o->kind == Preg && o->reg >= 0 ? vn[o->reg] : strkey(o->s));
	h = mix(mix(h, strkey(opcomp(o))), strkey(opoff(o)));
	for (uint32_t k = 0; k < o->nsub; k++)
		h = mix(h, opndkey(&o->sub[k], vn));
	return h;
}

/* Statement s's opcode, modifiers and operands from the first read. */
static uint64_t
inskey(const Stmt *s, const uint32_t *vn, uint32_t from)
{
	uint64_t h = mix(s->op, strkey(s->name));

	for (uint32_t k = 0; k < s->nmod; k++)
		h = mix(h, strkey(s->mod[k]));
	for (uint32_t k = from; k < s->nop; k++)
		h = mix(h, opndkey(&s->opd[k], vn));
	return h;
}

/* The statement a pin before s (at i) goes after: the one before the
 * outermost scope s stands in, or before s; UINT32_MAX when none. */
static uint32_t
before(const Pins *p, uint32_t i)
{
	int32_t o = (int32_t)i;

	while (p->sc[o] >= 0)
		o = p->sc[o];
	return o > 0 ? (uint32_t)o - 1 : UINT32_MAX;
}

static void
addonce(Pins *p, uint32_t at, int32_t r)
{
	for (uint32_t k = p->n; k-- > 0 && p->at[k] == at; )
		if (p->reg[k] == r)
			return;
	add(p, at, r);
}

/* Whether statement i may run after statement j.  Twins in two warp
 * roles never run one after the other, and ptxas merges nothing
 * across them. */
static int
reaches(Ana *A, uint32_t j, uint32_t i, uint8_t *seen, uint32_t *stack)
{
	uint32_t bj = A->blkof[j], bi = A->blkof[i];

	return (bj == bi && i > j) || reach(A, bj, bi, seen, stack);
}

/* The pins of statement i, whose earlier twin (same key) is at j. */
static void
dupat(Func *f, Dupscan *x, Pins *p, uint32_t j, uint32_t i, uint32_t from,
	uint32_t to)
{
	uint32_t at = before(p, i);

	if (j == UINT32_MAX || at == UINT32_MAX
	|| !reaches(x->A, j, i, x->seen, x->stack))
		return;
	for (uint32_t k = from; k < to && k < f->stmt[i].nop; k++) {
		const Opnd *o = &f->stmt[i].opd[k];
		if (o->kind == Preg && !o->nsub
		&& pinnable(f, x->no, p, o->reg))
			addonce(p, at, o->reg);
	}
}

/* The header block of each block's innermost natural loop (a back
 * edge's target dominates its source; the body is what reaches the
 * source without passing the header), UINT32_MAX for none.  Loops an
 * inline-asm scope holds (an mbarrier wait's retry) do not count: the
 * pins stand outside them. */
static uint32_t *
innerloops(Dom *d, const int32_t *sc)
{
	uint32_t nb = domnblk(d), *in = xmalloc((nb + 1) * sizeof *in);
	uint32_t *size = xmalloc((nb + 1) * sizeof *size);
	uint32_t *stack = xmalloc((nb + 1) * sizeof *stack);
	uint8_t *mark = xmalloc(nb + 1);

	for (uint32_t b = 0; b < nb; b++)
		in[b] = size[b] = UINT32_MAX;
	for (uint32_t b = 0; b < nb; b++) {
		const uint32_t *succ, *pred;
		uint32_t ns = domsuccs(d, b, &succ), fb, fh, e;
		domspan(d, b, &fb, &e);
		for (uint32_t k = 0; k < ns; k++) {
			uint32_t h = succ[k], n = 0, cnt = 1;
			domspan(d, h, &fh, &e);
			if (fh >= e || sc[fh] >= 0
			|| (h != b && !domdominates(d, fh, fb)))
				continue;
			memset(mark, 0, nb);
			mark[h] = 1;
			if (!mark[b])
				mark[b] = 1, stack[n++] = b, cnt++;
			while (n) {
				uint32_t c = stack[--n], np = dompreds(d, c, &pred);
				for (uint32_t q = 0; q < np; q++)
					if (!mark[pred[q]])
						mark[pred[q]] = 1,
						stack[n++] = pred[q], cnt++;
			}
			for (uint32_t c = 0; c < nb; c++)
				if (mark[c] && cnt < size[c])
					in[c] = h, size[c] = cnt;
		}
	}
	free(size);
	free(stack);
	free(mark);
	return in;
}

/* pin=dup:K keeps the pins of one loop: the K-th of the loops (or the
 * code in none) its pins stand in, in order of their first pin; K < 0
 * keeps all.  Returns how many such loops there are.  Loops need
 * dominance, which f's other pins do not: its own view of f. */
static int
oneloop(Func *f, Pins *p, int K)
{
	Dom *d = domnew(f);
	uint32_t *in = innerloops(d, p->sc), seen[64], ns = 0, n = 0;
	uint32_t want = UINT32_MAX - 1;

	for (uint32_t k = 0; k < p->n; k++) {
		uint32_t L = in[domblk(d, p->at[k])], q = 0;
		while (q < ns && seen[q] != L)
			q++;
		if (q == ns && ns < 64)
			seen[ns++] = L;
		if ((int)q + 1 == K)
			want = L;
	}
	for (uint32_t k = 0; k < p->n && K > 0; k++)
		if (in[domblk(d, p->at[k])] == want)
			keep(p, k, &n);
	p->n = K > 0 ? n : p->n;
	free(in);
	domfree(d);
	return (int)ns;
}

static int
parity(const Stmt *s)
{
	if (s->op != Ombarrier_try_wait && s->op != Ombarrier_test_wait)
		return 0;
	for (uint32_t k = 0; k < s->nmod; k++)
		if (!strcmp(s->mod[k], ".parity"))
			return s->nop >= 3;
	return 0;
}

/* pin=dup's pins in p (K > 0: the K-th loop's alone, oneloop); K < 0:
 * all, and returns in how many loops; else 0. */
static int
duppins(Func *f, Ana *A, const uint32_t *lines, Pins *p, int K)
{
	int groups = 0;
	uint32_t *vn = xmalloc((f->nreg + 1) * sizeof *vn), next = f->nreg;
	uint32_t cap = 64;
	Dupscan x = {A, asyncregs(f, A, 1), xmalloc(A->nblk + 1),
		xmalloc((A->nblk + 1) * sizeof *x.stack)};
	Vtab t;

	while (cap < 4 * (f->nstmt + 1))
		cap *= 2;
	t = (Vtab){calloc(cap, sizeof *t.k), xmalloc(cap * sizeof *t.v),
		cap - 1};
	if (!t.k)
		die("out of memory");
	for (uint32_t r = 0; r < f->nreg; r++)
		vn[r] = r;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		int in = inlines(lines, s);
		if (parity(s) && s->opd[2].kind == Preg && s->opd[2].reg >= 0) {
			uint32_t *w = vslot(&t, mix(1, vn[s->opd[2].reg]));
			if (in)
				dupat(f, &x, p, *w, i, 2, 3);
			*w = i;
		}
		if (s->op == Omapa && !s->guard) {
			uint32_t *w = vslot(&t, mix(2, inskey(s, vn, 1)));
			if (in)
				dupat(f, &x, p, *w, i, 1, s->nop);
			*w = i;
		}
		p->d.n = p->u.n = 0;
		defuse(s, &p->d, &p->u);
		int pure = !s->guard && opklass(s) == Kpure && p->d.n == 1
			&& s->nop && s->opd[0].kind == Preg && !s->opd[0].nsub;
		for (uint32_t k = 0; k < p->d.n; k++) {
			uint32_t *w = pure ? vslot(&t, mix(3, inskey(s, vn, 1)))
				: 0;
			if (w && *w == UINT32_MAX)
				*w = next++;
			vn[p->d.v[k]] = w ? *w : next++;
		}
	}
	if (K && p->n)
		groups = oneloop(f, p, K);
	free(t.k);
	free(t.v);
	free(vn);
	free(x.no);
	free(x.seen);
	free(x.stack);
	return K < 0 ? groups : 0;
}

/* Whether pin=ld (st 1: pin=st, 2: pin=base) finds something to pin in
 * some function of m (the search tries it only then); st 3, pin=dup:
 * the most loops of one function that hold its pins (the code in no
 * loop counting as one), the K the search tries it up to. */
static int
finds(Module *m, int st)
{
	int any = 0;

	if (m->vmaj < 6)
		return 0;
	for (uint32_t i = 0; i < m->nitem && (!any || st == 3); i++) {
		Func *f = m->item[i].kind == Ifunc ? m->item[i].fn : 0;
		Pins p = {0};
		int n = 0;
		if (!f || !f->body || pintaken(f))
			continue;
		fillcfg(f, m);
		p.sc = innerscope(f);
		p.wide = 1;
		if (st == 3)
			n = duppins(f, f->ana, 0, &p, -1);
		else if (st)
			stpins(f, f->ana, 0, &p, st == 2);
		else
			ldpins(f, f->ana, 0, &p);
		freeana(f);
		n = st == 3 ? n : p.n > 0;
		any = n > any ? n : any;
		freepins(&p);
	}
	return any;
}

int
ldfinds(Module *m)
{
	return finds(m, 0);
}

int
stfinds(Module *m)
{
	return finds(m, 1);
}

int
basefinds(Module *m)
{
	return finds(m, 2);
}

int
dupfinds(Module *m)
{
	return finds(m, 3);
}

/* Drops the pins of registers the .b32 shuffle cannot take: only a
 * scalar of 32 bits, or of 64 where wide (in halves).  A register of a
 * type the reader does not know (`.reg .xb32`, the opt fuzzer's fo76)
 * counts as one 32-bit unit, but ptxas would refuse the shuffle and
 * the validator refuses the pin (linemut seeds 1911 and 1941). */
static void
typed(Func *f, Pins *p)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < p->n; k++) {
		int bits = scalarbits(&f->reg[p->reg[k]]);
		if (bits == 32 || (bits == 64 && p->wide))
			keep(p, k, &n);
	}
	p->n = n;
}

/* mode 0: early's sums (pin), 1: converts before a wait loop
 * (pin=cvt), 2: converts before a run of loads (pin=ld), 3: %tid
 * read in loops, where it feeds only 32-bit math (pin=loop), 4: all
 * such reads (pin=loopall), 5: the live-in base of a block's many
 * addresses (pin=st), 6: such a base the block computes (pin=base),
 * 7: what a later wait or mapa reads as an earlier one did (pin=dup;
 * sel K > 0: only in the K-th loop that has such reads, pin=dup:K).
 * had: f had pins before the
 * pipeline (pintaken), so none is added; pins an earlier pass of the
 * pipeline added are kept, their registers reused. */
uint32_t
pin(Module *m, Func *f, const uint32_t *lines, int mode, int sel, int had)
{
	uint8_t *pxe = 0, *moved = 0;
	Pins p = {0};
	uint32_t declpos, wdecl = UINT32_MAX, groups = 0, nw = 0, h = 0;

	if (m->vmaj < 6 || had || (!mode && !(pxe = sums(f))))
		return 0;
	fillcfg(f, m);
	p.sc = innerscope(f);   /* the validator takes no pin in { } */
	p.wide = !mode || mode >= 5;
	for (uint32_t r = 0; r < f->nreg && p.wide; r++)
		p.wide = strncmp(f->reg[r].prefix, "%pxpw", 5) != 0;
	if (mode == 1)
		cvtpins(f, f->ana, lines, &p);
	else if (mode == 2)
		ldpins(f, f->ana, lines, &p);
	else if (mode == 7)
		duppins(f, f->ana, lines, &p, sel);
	else if (mode >= 5)
		stpins(f, f->ana, lines, &p, mode == 6);
	else if (mode >= 3)
		looppins(f, f->ana, lines, &p, mode == 4);
	else
		sumpins(f, f->ana, lines, pxe, &p);
	freeana(f);
	typed(f, &p);
	declpos = pintaken(f) ? UINT32_MAX : declat(f);
	for (uint32_t k = 0; k < p.n; k++) {
		groups += !k || p.at[k] != p.at[k - 1];
		nw += f->reg[p.reg[k]].units == 2;
	}
	if (nw)
		wdecl = declat(f);
	if (p.n) {
		Stmt *v = alloc(m->a, (f->nstmt + p.n + 2 * groups + 3 * nw
			+ 3) * sizeof *v);
		uint32_t k = 0, q = 0;
		moved = calloc(f->nstmt + 1, 1);
		if (!moved)
			die("out of memory");
		for (uint32_t j = 0; j < p.n; j++)
			if (p.mv[j] != UINT32_MAX)
				moved[p.mv[j]] = 1;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			if (i == declpos)
				v[k++] = declstmt(m, f, interns(".b32"), "%pxp", 2);
			if (i == wdecl)
				v[k++] = declstmt(m, f, interns(".b32"), "%pxpw",
					2 * nw);
			if (!moved[i])
				v[k++] = f->stmt[i];
			uint32_t q0 = q;
			while (q < p.n && p.at[q] == i)
				q++;
			for (uint32_t j = q0; j < q; j++)
				if (p.mv[j] != UINT32_MAX)
					v[k++] = f->stmt[p.mv[j]];
			uint32_t w = 0;
			for (uint32_t j = q0; j < q; j++)
				w += f->reg[p.reg[j]].units == 2;
			if (q > q0)
				pinstmts(m, f, i, p.reg + q0, q - q0, &v[k], &h),
				k += pinlen(q - q0, w);
		}
		if (declpos == f->nstmt)
			v[k++] = declstmt(m, f, interns(".b32"), "%pxp", 2);
		if (wdecl == f->nstmt)
			v[k++] = declstmt(m, f, interns(".b32"), "%pxpw", 2 * nw);
		f->stmt = v;
		f->nstmt = k;
		f->dirty = 1;
		rebind(m, f);
	}
	free(moved);
	free(pxe);
	freepins(&p);
	return p.n;
}
