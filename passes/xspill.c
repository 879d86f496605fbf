/* xspill.c: keeps a loop's wgmma accumulators in local memory between
 * their uses, one chain at a time, so that ptxas has room to pipeline
 * the wgmmas.
 *
 * needs:  blocks (cfg.c)
 * breaks: statement count (stores, loads, a fence, commits and waits
 *         are added; a local array is declared)
 * paper:  none; what ptxas's C7511/C7512 notes say ("wgmma.mma_async
 *         instructions are serialized due to insufficient register
 *         resources") and the H200 measured (bench/RESULTS.md,
 *         twenty-seventh session).
 *
 * Triton's Hopper attention with head dim 256 and BLOCK_M 128 on one
 * warpgroup carries O as two m64n256 accumulators, 256 registers a
 * thread, around its loop; with S's 64 on top the kernel cannot fit 255
 * registers whatever the order.  ptxas then spills where it must and
 * serializes every wgmma of the kernel (a wait after each): on the
 * H200 that costs more than the spills.  This pass gives each chain of
 * the loop's P*V group a group of its own and keeps every accumulator
 * chain in a local array between its chain and its next use:
 *
 *     ld O0; <O0's rescale>; fence; <chain 0>; commit; wait 0; st O0;
 *     ld O1; <O1's rescale>; fence; <chain 1>; commit; wait 0; st O1;
 *
 * with stores on the edges into the loop and loads after it.  At no
 * point are both halves in registers: ptxas no longer spills much nor
 * serializes, and the explicit traffic is 16-byte accesses at two
 * places a chain (Triton's d256_n64_w4 ran at 0.82 of its input's
 * time, bit-identical).  Each load reads back what the same register
 * held when it was stored, with no write to it between, so it changes
 * nothing; the stores are read only by those loads; the extra waits and
 * the fence only order more.  The validator proves exactly that apart
 * (src/vspill.c) before the usual proof of the rest.
 *
 * Only a loop of one block, a group whose chains accumulate (scale-d
 * not 0) into disjoint 32-bit registers, Xmin of them or more (fewer
 * fit anyway), and whose rescale before the group is plain arithmetic
 * that can move down to its chain past no declaration, directive or
 * wait; inside the group only arithmetic and, between chains, loads,
 * none at a register a wgmma names or writing one an earlier wgmma of
 * the group reads, and after its commit no other wgmma statement
 * before the loop's own wait (between(), ownwait(): each a shape the
 * line mutator found the validator refusing). */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Xmin = 192, Maxchain = 8 };

typedef struct Chain {
	uint32_t first, last;       /* its first and last wgmma */
	const Opnd *acc;            /* its accumulator vector */
	uint32_t touch;             /* first statement of the loop that
	                             * touches it, before the group */
	uint32_t off;               /* its bytes in the array */
} Chain;

typedef struct Grp {
	uint32_t fence, commit;
	uint32_t wait;              /* a wait 0 of the block after the commit
	                             * (Triton 3.9 waits there), or none */
	Chain c[Maxchain];
	int n;
	uint32_t nreg;
} Grp;

/* Whether wgmma s adds to D (its scale-d is not a literal 0). */
static int
adds(const Stmt *s)
{
	uint32_t k = hasmod(s, ".sp") ? 5 : 3;

	return k < s->nop && !(s->opd[k].kind == Pint
		&& !strcmp(s->opd[k].s, "0"));
}

static int
sameacc(const Opnd *a, const Opnd *b)
{
	if (a->nsub != b->nsub)
		return 0;
	for (uint32_t i = 0; i < a->nsub; i++)
		if (a->sub[i].reg != b->sub[i].reg)
			return 0;
	return 1;
}

/* An accumulator of 32-bit registers, every one named once. */
static int
plainacc(Func *f, const Opnd *o, uint8_t *mark)
{
	if (o->kind != Pvec || !o->nsub)
		return 0;
	for (uint32_t i = 0; i < o->nsub; i++) {
		int32_t r = o->sub[i].reg;
		if (o->sub[i].kind != Preg || r < 0 || f->reg[r].units != 1
		|| f->reg[r].pred || mark[r])
			return 0;
		mark[r] = 1;
	}
	return 1;
}

/* A wgmma.wait_group 0 of the block [commit, hi) before any other wgmma
 * statement or branch, or UINT32_MAX; Blocked when another wgmma
 * statement comes first (the line mutator, seed 488: a second commit,
 * past which the wait xspill adds after the group's commit would pair,
 * in the proof, with the loop's own). */
enum { Blocked = UINT32_MAX - 1 };

static uint32_t
ownwait(Func *f, uint32_t commit, uint32_t hi)
{
	for (uint32_t q = commit + 1; q < hi; q++) {
		Stmt *w = &f->stmt[q];
		if (w->kind != Sins)
			continue;
		if (wgwaitzero(w))
			return q;
		if (!strncmp(w->name, "wgmma.", 6))
			return Blocked;
		if (opklass(w) == Kctl)
			break;
	}
	return UINT32_MAX;
}

/* Whether s touches a register some wgmma names (tmemnames() bit 4). */
static int
wgnames(Stmt *s, const uint8_t *tm)
{
	Rv d = {0}, u = {0};
	int hit = 0;

	defuse(s, &d, &u);
	for (uint32_t k = 0; k < d.n && !hit; k++)
		hit = tm[d.v[k]] & 4;
	for (uint32_t k = 0; k < u.n && !hit; k++)
		hit = tm[u.v[k]] & 4;
	free(d.v);
	free(u.v);
	return hit;
}

/* Whether statement j, inside the group whose fence is at i, may stand
 * between its chains: the split puts it after a commit, a wait and a
 * fence, where the validator (and a scheduler after xspill, which may
 * carry it up among the stores and loads) wants it plain: arithmetic or
 * a load (the line mutator, seed 353: a setmaxnreg), on no register a
 * wgmma may still be at (seed 403: a load into an A fragment of a wgmma
 * issued before the loop), writing none a wgmma before it in the group
 * reads (seed 465: a descriptor rewritten between the chains, which a
 * scheduler then raised among the rescale). */
static int conflict(Stmt *, Stmt *, Rv *, Rv *, Rv *, Rv *);

static int
between(Func *f, uint32_t i, uint32_t j, const uint8_t *tm)
{
	Stmt *s = &f->stmt[j];
	Rv d = {0}, u = {0}, d2 = {0}, u2 = {0};
	int ok = (opklass(s) == Kpure || opklass(s) == Kld) && !wgnames(s, tm);

	/* (what such a wgmma writes, its accumulators, wgnames refused) */
	for (uint32_t k = i + 1; k < j && ok; k++)
		if (f->stmt[k].kind == Sins && f->stmt[k].op == Owgmma_mma_async)
			ok = !conflict(s, &f->stmt[k], &d, &u, &d2, &u2);
	free(d.v);
	free(u.v);
	free(d2.v);
	free(u2.v);
	return ok;
}

/* The group in block [lo, hi) whose chains fill Xmin registers or
 * more, with mark[r] = 1 + chain for each of their registers; or 0. */
static int
findgroup(Func *f, uint32_t lo, uint32_t hi, int min, Grp *g, uint8_t *mark,
	const uint8_t *tm)
{
	for (uint32_t i = lo; i < hi; i++) {
		if (!wgaligned(&f->stmt[i], Owgmma_fence))
			continue;
		memset(g, 0, sizeof *g);
		memset(mark, 0, f->nreg + 1);
		g->fence = i;
		uint32_t j;
		/* a load only between two chains, where the split leaves it
		 * after its fence: before the first chain or inside one, the
		 * validator raises it above the group's fence, which orders
		 * memory (the line mutator, seeds 609, 680 and 688: an
		 * ld.param right after the fence) */
		int bad = 0, loaded = 0;
		for (j = i + 1; j < hi && !bad; j++) {
			Stmt *s = &f->stmt[j];
			if (s->kind == Slabel || s->kind == Sopen
			|| s->kind == Sclose)
				bad = 1;
			if (s->kind != Sins)
				continue;
			if (wgaligned(s, Owgmma_commit_group))
				break;
			if (!strncmp(s->name, "wgmma.", 6)
			&& !wgaligned(s, Owgmma_mma_async))
				bad = 1;
			else if (s->op == Owgmma_mma_async) {
				Chain *c = g->n ? &g->c[g->n - 1] : 0;
				if (c && sameacc(c->acc, &s->opd[0])) {
					c->last = j;
					bad |= loaded;
					continue;
				}
				if (g->n == Maxchain || !adds(s)
				|| !plainacc(f, &s->opd[0], mark))
					bad = 1;
				else
					g->c[g->n++] = (Chain){j, j, &s->opd[0],
						UINT32_MAX, 0};
				loaded = 0;
			} else if (!between(f, i, j, tm))
				bad = 1;
			else if (opklass(s) == Kld)
				loaded = 1, bad |= !g->n;
		}
		if (bad || j >= hi || g->n < 2)
			continue;
		g->commit = j;
		g->wait = ownwait(f, j, hi);
		if (g->wait == Blocked)
			continue;
		memset(mark, 0, f->nreg + 1);
		for (int k = 0; k < g->n; k++) {
			g->c[k].off = g->nreg * 4;
			g->nreg += g->c[k].acc->nsub;
			for (uint32_t q = 0; q < g->c[k].acc->nsub; q++)
				mark[g->c[k].acc->sub[q].reg] = (uint8_t)(1 + k);
		}
		if ((int)g->nreg >= min)
			return 1;
	}
	return 0;
}

/* Which chain's registers statement s touches: its number + 1, 0 for
 * none, -1 for several. */
static int
touches(Stmt *s, const uint8_t *mark, Rv *d, Rv *u)
{
	int k = 0;

	d->n = u->n = 0;
	defuse(s, d, u);
	for (int w = 0; w < 2; w++) {
		Rv *v = w ? u : d;
		for (uint32_t q = 0; q < v->n; q++) {
			int c = mark[v->v[q]];
			if (c && k && c != k)
				return -1;
			if (c)
				k = c;
		}
	}
	return k;
}

/* Whether x and y conflict: one writes what the other reads or
 * writes. */
static int
conflict(Stmt *x, Stmt *y, Rv *d1, Rv *u1, Rv *d2, Rv *u2)
{
	d1->n = u1->n = d2->n = u2->n = 0;
	defuse(x, d1, u1);
	defuse(y, d2, u2);
	for (uint32_t a = 0; a < d1->n; a++) {
		for (uint32_t b = 0; b < d2->n; b++)
			if (d1->v[a] == d2->v[b])
				return 1;
		for (uint32_t b = 0; b < u2->n; b++)
			if (d1->v[a] == u2->v[b])
				return 1;
	}
	for (uint32_t a = 0; a < u1->n; a++)
		for (uint32_t b = 0; b < d2->n; b++)
			if (u1->v[a] == d2->v[b])
				return 1;
	return 0;
}

/* Whether the rescale may not move past s. */
static int
stays(Stmt *s)
{
	if (s->kind == Sins)
		return !strncmp(s->name, "wgmma.", 6) || opklass(s) == Kfull
			|| opklass(s) == Kctl;
	return s->kind != Sloc && s->kind != Slabel;
}

/* Whether s names a register some wgmma names (tm's bit 4) other than
 * chain k's accumulators: moved past a wait, it would meet the tensor
 * core's value instead of the one before (the line mutator, seed 1787:
 * a wgmma after the loop's wait left its result in flight into the
 * next iteration, whose rescale of chain 2 read it). */
static int
otherwg(const Rv *d, const Rv *u, const uint8_t *mark, const uint8_t *tm,
	int k)
{
	for (int w = 0; w < 2; w++) {
		const Rv *v = w ? u : d;
		for (uint32_t q = 0; q < v->n; q++)
			if ((tm[v->v[q]] & 4) && mark[v->v[q]] != k)
				return 1;
	}
	return 0;
}

/* The rescale of chains 1.. (what touches their registers in the loop
 * before the group) moves down to just before its chain: every such
 * statement is plain arithmetic touching one chain's registers and no
 * other register a wgmma names, conflicting with nothing it passes.
 * mv[i] = chain + 1 of a moving statement.  Returns 0, or -1 when the
 * loop is not so. */
static int
plan(Func *f, uint32_t lo, uint32_t hi, Grp *g, const uint8_t *mark,
	const uint8_t *tm, uint8_t *mv)
{
	Rv d = {0}, u = {0}, d2 = {0}, u2 = {0};
	int rc = 0;

	for (uint32_t i = lo; i < hi && !rc; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		int k = touches(s, mark, &d, &u);
		int wg = s->op == Owgmma_mma_async;
		/* inside the group only its wgmmas touch them, and after it
		 * nothing: the store after the last wait holds them.  Nor a
		 * wgmma outside the group (the line mutator: one after the
		 * commit wrote a chain's registers, and the loop's load of
		 * the chain threw its result away) */
		if (k && (k < 0 || (wg ? i > g->commit
			: i > g->fence)))
			rc = -1;
		if (k <= 0 || i > g->fence)
			continue;
		if (g->c[k - 1].touch == UINT32_MAX)
			g->c[k - 1].touch = i;
		if (k == 1)
			continue;
		if (s->guard || opklass(s) != Kpure
		|| otherwg(&d, &u, mark, tm, k))
			rc = -1;
		mv[i] = (uint8_t)k;
	}
	/* what each passes, up to the last wgmma of the chain before its
	 * own, but its own chain's rescale (which keeps its order) */
	for (uint32_t i = lo; i < g->fence && !rc; i++) {
		int k = mv[i];
		for (uint32_t j = i + 1; k && j <= g->c[k - 2].last && !rc; j++)
			if (f->stmt[j].kind == Sins && mv[j] != k
			&& conflict(&f->stmt[i], &f->stmt[j], &d, &u, &d2, &u2))
				rc = -1;
		/* nor any wgmma statement before the group's fence (another
		 * fence would no longer stand between it and its chain), nor
		 * a statement that holds its place: a declaration or other
		 * directive, a barrier (the opt fuzzer's fo82: a mangled
		 * `.address_sizemul.f32`, read as a declaration) */
		for (uint32_t j = i + 1; k && j < g->fence && !rc; j++)
			if (stays(&f->stmt[j]))
				rc = -1;
	}
	free(d.v);
	free(u.v);
	free(d2.v);
	free(u2.v);
	return rc;
}

/* An address [base+off] in m's arena. */
static Opnd
addr(Module *m, Str base, uint32_t off)
{
	Opnd a, *b = alloc(m->a, sizeof *b);
	char n[16];

	memset(&a, 0, sizeof a);
	memset(b, 0, sizeof *b);
	b->kind = Psym;
	b->reg = -1;
	b->s = base;
	if (off) {
		snprintf(n, sizeof n, "+%u", off);
		setoff(b, n);
	}
	a.kind = Paddr;
	a.reg = -1;
	a.nsub = 1;
	a.sub = b;
	return a;
}

/* st.local.vN.b32 [base+off], {regs} or ld.local.vN.b32 {regs},
 * [base+off], for n = 1, 2 or 4 registers of acc from k. */
static Stmt
access(Module *m, const Stmt *at, int load, Str base, uint32_t off,
	const Opnd *acc, uint32_t k, uint32_t n)
{
	Stmt s;
	Opnd v;

	memset(&s, 0, sizeof s);
	memset(&v, 0, sizeof v);
	s.kind = Sins;
	s.op = load ? Old : Ost;
	s.name = interns(load ? "ld" : "st");
	s.nmod = n > 1 ? 3 : 2;
	s.mod = alloc(m->a, s.nmod * sizeof *s.mod);
	s.mod[0] = interns(".local");
	if (n > 1)
		s.mod[1] = interns(n == 4 ? ".v4" : ".v2");
	s.mod[s.nmod - 1] = interns(".b32");
	if (n > 1) {
		v.kind = Pvec;
		v.reg = -1;
		v.nsub = n;
		v.sub = alloc(m->a, n * sizeof *v.sub);
		memcpy(v.sub, &acc->sub[k], n * sizeof *v.sub);
	} else
		v = acc->sub[k];
	s.nop = 2;
	s.opd = alloc(m->a, 2 * sizeof *s.opd);
	s.opd[load ? 0 : 1] = v;
	s.opd[load ? 1 : 0] = addr(m, base, off);
	s.pos = at->pos;
	s.dirty = 1;
	return s;
}

/* Appends to v the accesses that store (load) chain c. */
static uint32_t
accesses(Module *m, Stmt *v, uint32_t k, const Stmt *at, int load,
	Str base, const Chain *c)
{
	const Opnd *a = c->acc;

	for (uint32_t q = 0; q < a->nsub;) {
		uint32_t n = a->nsub - q >= 4 && (c->off + 4 * q) % 16 == 0 ? 4
			: a->nsub - q >= 2 && (c->off + 4 * q) % 8 == 0 ? 2 : 1;
		v[k++] = access(m, at, load, base, c->off + 4 * q, a, q, n);
		q += n;
	}
	return k;
}

static Stmt
wgstmt(Module *m, const Stmt *like, int op, const char *name, int wait)
{
	Stmt s = *like;

	s.op = (uint16_t)op;
	s.name = interns(name);
	s.nmod = 2;
	s.mod = alloc(m->a, 2 * sizeof *s.mod);
	s.mod[0] = interns(".sync");
	s.mod[1] = interns(".aligned");
	s.guard = 0;
	s.nop = wait;
	s.opd = wait ? intopnd(m, "0") : 0;
	s.lead = (Span){0, 0};
	s.dirty = 1;
	return s;
}

/* A name for the array that nothing in m spells yet. */
static Str
arrayname(Module *m)
{
	char n[32];

	for (int k = 0;; k++) {
		snprintf(n, sizeof n, k ? "__xspill%d" : "__xspill", k);
		Str s = interns(n);
		int used = 0;
		for (uint32_t i = 0; i < m->nitem && !used; i++) {
			Func *f = m->item[i].kind == Ifunc ? m->item[i].fn : 0;
			for (uint32_t j = 0; f && j < f->nstmt && !used; j++) {
				Stmt *st = &f->stmt[j];
				for (uint32_t q = 0; q < st->nop && !used; q++) {
					Opnd *o = &st->opd[q];
					used = o->s == s || (o->kind == Paddr
						&& o->sub[0].s == s);
				}
				for (uint32_t q = 0; st->kind == Sdecl
				&& q < st->decl->nname; q++)
					used |= st->decl->name[q].name == s;
			}
		}
		if (!used)
			return s;
	}
}

static Stmt
arraydecl(Module *m, Func *f, Str name, uint32_t bytes)
{
	Stmt s;
	Decl *d = alloc(m->a, sizeof *d);
	char n[16];

	memset(&s, 0, sizeof s);
	memset(d, 0, sizeof *d);
	d->nattr = 4;
	d->attr = alloc(m->a, 4 * sizeof *d->attr);
	d->attr[0] = interns(".local");
	d->attr[1] = interns(".align");
	d->attr[2] = interns("16");
	d->attr[3] = interns(".b8");
	d->nname = 1;
	d->name = alloc(m->a, sizeof *d->name);
	memset(d->name, 0, sizeof *d->name);
	d->name->name = name;
	d->name->count = -1;
	d->name->ndim = 1;
	d->name->dim = alloc(m->a, sizeof *d->name->dim);
	snprintf(n, sizeof n, "%u", bytes);
	d->name->dim[0] = interns(n);
	s.kind = Sdecl;
	s.decl = d;
	s.dirty = 1;
	s.pos = f->pos;
	return s;
}

/* Where stores go at the end of block b: before its closing branch. */
static uint32_t
blockend(Func *f, const Blk *b)
{
	uint32_t e = b->end;

	while (e > b->first && f->stmt[e - 1].kind != Sins)
		e--;
	if (e > b->first && opklass(&f->stmt[e - 1]) == Kctl)
		return e - 1;
	return b->end;
}

/* What a wgmma writing a chain's registers leaves running after
 * statements [i, end) from state st: bit 1, such a wgmma not yet
 * committed; bit 2, one committed and not waited for. */
static uint8_t
flight(Func *f, uint32_t i, uint32_t end, uint8_t st, const uint8_t *mark,
	Rv *d, Rv *u)
{
	for (; i < end; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		if (s->op == Owgmma_mma_async && touches(s, mark, d, u))
			st |= 1;
		else if (wgaligned(s, Owgmma_commit_group) && (st & 1))
			st = 2;
		else if (wgwaitzero(s))
			st &= 1;
	}
	return st;
}

/* Whether such a wgmma may still run where the pass stores the chains,
 * at the end of each block entering loop L or its exit E from
 * elsewhere: the store would race with it (the line mutator left one
 * running into the loop; the validator refused the store).  A forward
 * pass over the blocks to a fixed point. */
static int
inflight(Func *f, uint32_t L, uint32_t E, const uint8_t *mark)
{
	Ana *A = f->ana;
	uint8_t *in = calloc(A->nblk + 1, 1), *out = calloc(A->nblk + 1, 1);
	Rv d = {0}, u = {0};
	int bad = 0;

	for (int changed = 1; changed; ) {
		changed = 0;
		for (uint32_t b = 0; b < A->nblk; b++) {
			Blk *k = &A->blk[b];
			uint8_t st = 0;
			for (uint32_t q = 0; q < k->npred; q++)
				st |= out[k->pred[q]];
			uint8_t o = flight(f, k->first, k->end, st, mark, &d, &u);
			changed |= st != in[b] || o != out[b];
			in[b] = st, out[b] = o;
		}
	}
	for (int w = 0; w < 2 && !bad; w++) {
		Blk *t = &A->blk[w ? E : L];
		for (uint32_t q = 0; q < t->npred && !bad; q++) {
			uint32_t p = t->pred[q];
			Blk *k = &A->blk[p];
			bad = p != L && flight(f, k->first, blockend(f, k), in[p],
				mark, &d, &u) != 0;
		}
	}
	free(in);
	free(out);
	free(d.v);
	free(u.v);
	return bad;
}

/* Rewrites loop block L with group g.  Returns the accesses added. */
static uint32_t
xrewrite(Module *m, Func *f, const Blk *L, const Blk *E, Grp *g,
	const uint8_t *mv, const uint32_t *stat, uint32_t nstat)
{
	uint32_t nacc = 0, ntot;
	for (int k = 0; k < g->n; k++)
		nacc += g->c[k].acc->nsub;
	/* at most one access per register for each place it is stored or
	 * loaded: entry edges, the loop's two, the exit */
	ntot = f->nstmt + 1 + (nstat + 3) * nacc + 4 * (uint32_t)g->n + 4;
	Stmt *v = alloc(m->a, ntot * sizeof *v);
	Str name = arrayname(m);
	uint32_t k = 0, da = declat(f), e0 = E->first;
	const Stmt *cm = &f->stmt[g->commit];

	while (e0 < E->end && f->stmt[e0].kind == Slabel)
		e0++;
	for (uint32_t i = 0; i <= f->nstmt; i++) {
		if (i == da)
			v[k++] = arraydecl(m, f, name, g->nreg * 4);
		for (uint32_t q = 0; q < nstat; q++)
			for (int c = 0; stat[q] == i && c < g->n; c++)
				k = accesses(m, v, k, &f->stmt[i < f->nstmt ? i
					: f->nstmt - 1], 0, name, &g->c[c]);
		if (i == e0 && i < f->nstmt)
			for (int c = 0; c < g->n; c++)
				k = accesses(m, v, k, &f->stmt[i], 1, name,
					&g->c[c]);
		if (i == f->nstmt)
			break;
		if (i == g->c[0].touch)
			k = accesses(m, v, k, &f->stmt[i], 1, name, &g->c[0]);
		if (!mv[i])
			v[k++] = f->stmt[i];
		int c = -1;
		for (int q = 0; q + 1 < g->n; q++)
			if (i == g->c[q].last)
				c = q;
		if (c >= 0) {   /* chain c ends, chain c + 1 begins */
			v[k++] = wgstmt(m, cm, Owgmma_commit_group,
				"wgmma.commit_group", 0);
			v[k++] = wgstmt(m, cm, Owgmma_wait_group,
				"wgmma.wait_group", 1);
			k = accesses(m, v, k, cm, 0, name, &g->c[c]);
			k = accesses(m, v, k, cm, 1, name, &g->c[c + 1]);
			for (uint32_t j = L->first; j < g->fence; j++)
				if (mv[j] == c + 2)
					v[k++] = f->stmt[j];
			v[k++] = wgstmt(m, cm, Owgmma_fence, "wgmma.fence", 0);
		}
		/* the last chain is stored after the block's own wait 0
		 * when it has one, else after one added to the commit */
		if (i == g->commit && g->wait == UINT32_MAX) {
			v[k++] = wgstmt(m, cm, Owgmma_wait_group,
				"wgmma.wait_group", 1);
			k = accesses(m, v, k, cm, 0, name, &g->c[g->n - 1]);
		}
		if (i == g->wait)
			k = accesses(m, v, k, cm, 0, name, &g->c[g->n - 1]);
	}
	if (k > ntot)
		die("xspill: %u statements for %u", k, ntot);
	uint32_t added = k - f->nstmt;
	f->stmt = v;
	f->nstmt = k;
	f->dirty = 1;
	return added;
}

/* The first one-block loop of f (cfg filled) with a group worth it
 * that can be rewritten: its block and its exit's in *lb, *eb, the
 * group in g, its chains' registers in mark, the moving rescale in mv.
 * all: any group of two chains or more. */
static int
findloop(Func *f, const uint32_t *lines, int all, Grp *g, uint8_t *mark,
	uint8_t *mv, uint32_t *lb, uint32_t *eb)
{
	Ana *A = f->ana;

	/* an instruction the table does not know may write registers when
	 * it likes: the array's words would not be sure (nor proven) */
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && f->stmt[i].op == Ounknown)
			return 0;
	uint8_t *tm = tmemnames(f);
	int found = 0;
	for (uint32_t b = 0; b < A->nblk && !found; b++) {
		Blk *L = &A->blk[b];
		int self = 0;
		uint32_t ex = UINT32_MAX;
		for (uint32_t q = 0; q < L->nsucc; q++)
			if (L->succ[q] == b)
				self = 1;
			else
				ex = L->succ[q];
		if (!self || L->nsucc != 2 || ex == UINT32_MAX
		|| !findgroup(f, L->first, L->end, all ? 0 : Xmin, g, mark, tm)
		|| !inlines(lines, &f->stmt[g->fence]))
			continue;
		memset(mv, 0, f->nstmt + 1);
		if (plan(f, L->first, L->end, g, mark, tm, mv) < 0
		|| inflight(f, b, ex, mark))
			continue;
		if (g->c[0].touch == UINT32_MAX)
			g->c[0].touch = g->fence;
		*lb = b, *eb = ex;
		found = 1;
	}
	free(tm);
	return found;
}

/* The loop of f with a group worth it, rewritten; at most one a
 * function (the array is one).  Returns the statements added. */
uint32_t
xspill(Module *m, Func *f, const uint32_t *lines, int all)
{
	uint8_t *mark = calloc(f->nreg + 1, 1), *mv = calloc(f->nstmt + 1, 1);
	uint32_t n = 0, b, ex;
	Grp g;

	if (!mark || !mv)
		die("out of memory");
	fillcfg(f, m);
	Ana *A = f->ana;
	if (findloop(f, lines, all, &g, mark, mv, &b, &ex)) {
		/* stores at the end of every block entering the loop or its
		 * exit from elsewhere */
		Blk *L = &A->blk[b], *E = &A->blk[ex];
		uint32_t *stat = xmalloc((L->npred + E->npred + 1) * sizeof *stat);
		uint32_t nstat = 0;
		for (int w = 0; w < 2; w++) {
			Blk *t = w ? E : L;
			for (uint32_t q = 0; q < t->npred; q++) {
				uint32_t p = t->pred[q], at;
				if (p == b)
					continue;
				at = blockend(f, &A->blk[p]);
				int dup = 0;
				for (uint32_t r = 0; r < nstat; r++)
					dup |= stat[r] == at;
				if (!dup)
					stat[nstat++] = at;
			}
		}
		Blk Lc = *L, Ec = *E;
		freeana(f);
		n = xrewrite(m, f, &Lc, &Ec, &g, mv, stat, nstat);
		free(stat);
	} else
		freeana(f);
	free(mark);
	free(mv);
	return n;
}

/* Whether some function of m has a loop xspill would rewrite, with
 * all as xspill=all (the search offers it only then). */
int
xspillfinds(Module *m, int all)
{
	int hit = 0;

	for (uint32_t i = 0; i < m->nitem && !hit; i++) {
		Func *f = m->item[i].kind == Ifunc ? m->item[i].fn : 0;
		if (!f || !f->body)
			continue;
		uint8_t *mark = calloc(f->nreg + 1, 1);
		uint8_t *mv = calloc(f->nstmt + 1, 1);
		uint32_t b, ex;
		Grp g;
		if (!mark || !mv)
			die("out of memory");
		fillcfg(f, m);
		hit = findloop(f, 0, all, &g, mark, mv, &b, &ex);
		freeana(f);
		free(mark);
		free(mv);
	}
	return hit;
}

/* The bytes f moves through xspill's arrays, as written in its text
 * (the search counts them with ptxas's spill bytes: they are spill
 * traffic, only placed by hand). */
long
xspillbytes(const Func *f)
{
	long n = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		const Stmt *s = &f->stmt[i];
		if (s->kind != Sins || (s->op != Old && s->op != Ost))
			continue;
		for (uint32_t k = 0; k < s->nop; k++) {
			const Opnd *o = &s->opd[k];
			if (o->kind != Paddr || !o->nsub
			|| !o->sub[0].s || strncmp(o->sub[0].s, "__xspill", 8))
				continue;
			const Opnd *v = &s->opd[k ? 0 : 1];
			n += 4L * (v->kind == Pvec ? v->nsub : 1);
		}
	}
	return n;
}
