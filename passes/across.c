/* across.c: moves work across the places the schedulers stop at.
 *
 * needs:  resolved registers (regs.c)
 * breaks: nothing the parser built; both passes only permute a
 *         function's statements
 * paper:  none; what the spilling Triton Blackwell softmax shows.
 *
 * The schedulers reorder within regions, and a region ends at every
 * fixed statement: a wait, a branch target, an inline-asm scope.  Two
 * things pin register pressure at such places, and both can move:
 *
 * tsink: tcgen05.ld and its tcgen05.wait::ld, moved down to just before
 *   the first statement that reads what they load.  Triton loads S from
 *   tensor memory and then loads and stores V (global to shared) before
 *   it reads S, so 128 S values sit in registers across 128 V loads.
 *   Loads, stores and arithmetic of other registers may run before the
 *   tcgen05.ld: tensor memory is reached by no load or store, and the
 *   wait completes only the registers tcgen05.ld names.
 *
 * hoist: pure arithmetic right after a run of fixed statements (a
 *   wait loop in an inline-asm scope, say), whose operands the run
 *   neither writes nor needs, moved to before the run when it ends the
 *   life of more registers than it starts: the packing converts
 *   (cvt.rn.f16x2.f32 d, a, b) that Triton places after the wait for
 *   the previous P*V, so that 128 fp32 P values cross the wait where 64
 *   packed ones would do.  Only a run that control enters at its top
 *   and leaves at its bottom: its branches jump inside it, and nothing
 *   outside jumps into it.
 *
 * The validator proves both on the result (validate.c: Ktmem, and
 * hoisted statements); they are variants of the search, not defaults. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

typedef struct Regs { Rv d, u; } Regs;

static void
regsof(Stmt *s, Regs *r)
{
	r->d.n = r->u.n = 0;
	if (s->kind == Sins)
		defuse(s, &r->d, &r->u);
}

static int
inrv(const Rv *v, int32_t x)
{
	for (uint32_t i = 0; i < v->n; i++)
		if (v->v[i] == x)
			return 1;
	return 0;
}

/* ---- tsink ---- */

static void
markregs(const Opnd *o, uint8_t *t, uint8_t bit)
{
	if (o->kind == Preg && o->reg >= 0)
		t[o->reg] |= bit;
	for (uint32_t i = 0; i < o->nsub; i++)
		markregs(&o->sub[i], t, bit);
}

/* Per register: bit 1 when some tcgen05.ld of f names it outside its
 * address (what it loads, and tcgen05.ld.red's second result, redval,
 * which the opcode table counts as read), bit 2 when some tcgen05.st
 * does (what it stores), bit 4 when it is among a wgmma.mma_async's
 * accumulators or A fragments (its vector operands).  The tensor core
 * writes or reads them until the matching wait. */
uint8_t *
tmemnames(Func *f)
{
	uint8_t *t = calloc(f->nreg + 1, 1);

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		for (uint32_t k = 0; k < s->nop; k++)
			if (s->op == Owgmma_mma_async && s->opd[k].kind == Pvec)
				markregs(&s->opd[k], t, 4);
			else if ((s->op == Otcgen05_ld || s->op == Otcgen05_st)
			&& s->opd[k].kind != Paddr)
				markregs(&s->opd[k], t,
					s->op == Otcgen05_ld ? 1 : 2);
	}
	return t;
}

/* May the pair tcgen05.ld (registers ld) and its wait run after s? */
static int
crossable(Func *f, uint32_t i, const uint8_t *tm, const uint8_t *tgt,
	const Regs *ld, Regs *r)
{
	Stmt *s = &f->stmt[i];

	if (s->kind == Sloc || (s->kind == Slabel && !tgt[i]))
		return 1;
	if (s->kind != Sins)
		return 0;
	Klass k = opklass(s);
	if (k != Kpure && k != Kld && k != Kst)
		return 0;
	regsof(s, r);
	for (uint32_t j = 0; j < r->d.n; j++)
		if ((tm[r->d.v[j]] & 1) || inrv(&ld->u, r->d.v[j]))
			return 0;
	for (uint32_t j = 0; j < r->u.n; j++)
		if (tm[r->u.v[j]] & 1)
			return 0;
	return 1;
}

/* Whether s comes from input lines lines[0]..lines[1] (opt --lines). */
int
inlines(const uint32_t *lines, const Stmt *s)
{
	return !lines || !lines[1]
		|| (s->pos.line >= lines[0] && s->pos.line <= lines[1]);
}

uint32_t
tsink(Func *f, const uint32_t *lines)
{
	Regs r = {0}, ld = {0};
	uint8_t *tm = tmemnames(f), *tgt = calloc(f->nstmt + 1, 1);

	labeltargets(f, tgt);
	Stmt *tmp = xmalloc((f->nstmt + 1) * sizeof *tmp);
	uint32_t moved = 0, depth = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		depth += s->kind == Sopen;
		depth -= s->kind == Sclose && depth;
		/* what a { } scope holds (inline asm) stays as written: the
		 * validator takes it as fixed (mutated tests) */
		if (s->kind != Sins || s->op != Otcgen05_ld || s->guard
		|| depth || !inlines(lines, s))
			continue;
		regsof(s, &ld);         /* crossable() reads ld, fills r */
		uint32_t w = i + 1, e;
		while (w < f->nstmt && crossable(f, w, tm, tgt, &ld, &r))
			w++;
		/* a wait with operands (mangled: fo80's read and wrote
		 * registers, which the move carried past their writes) is
		 * no wait to carry */
		if (w == f->nstmt || f->stmt[w].kind != Sins
		|| f->stmt[w].op != Otcgen05_wait_ld || f->stmt[w].guard
		|| f->stmt[w].nop)
			continue;
		for (e = w + 1; e < f->nstmt
			&& crossable(f, e, tm, tgt, &ld, &r); e++)
			;
		/* trailing .loc lines and labels belong to what follows */
		while (e > w + 1 && f->stmt[e - 1].kind != Sins)
			e--;
		uint32_t n = 0, crossed = 0;
		for (uint32_t j = i + 1; j < e; j++)
			if (j != w) {
				tmp[n++] = f->stmt[j];
				crossed += f->stmt[j].kind == Sins;
			}
		if (!crossed)
			continue;
		tmp[n++] = f->stmt[i];
		tmp[n++] = f->stmt[w];
		memcpy(&f->stmt[i], tmp, n * sizeof *tmp);
		f->dirty = 1;
		moved += 2;     /* the tcgen05.ld and its wait */
		i = e - 1;
	}
	free(tmp);
	free(tm);
	free(tgt);
	free(r.d.v);
	free(r.u.v);
	free(ld.d.v);
	free(ld.u.v);
	return moved;
}

/* ---- hoist ---- */

/* What stays in place for the validator too: anything but instructions
 * outside scopes that are not waits, branches or unknowns, .loc lines
 * and labels no branch names. */
static uint8_t *
fixedmap(Func *f, const uint8_t *tgt)
{
	uint8_t *fx = calloc(f->nstmt + 1, 1);
	int depth = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		Klass k = s->kind == Sins ? opklass(s) : Kpure;
		depth += s->kind == Sopen;
		fx[i] = depth > 0 || s->kind == Sclose
			|| (s->kind == Sins && (k == Kfull || k == Kctl))
			|| (s->kind == Slabel && tgt[i])
			|| (s->kind != Sins && s->kind != Sloc
			&& s->kind != Slabel);
		depth -= s->kind == Sclose;
	}
	return fx;
}

/* The scope each statement is in: the index of its innermost Sopen, or
 * -1 at the top.  A label is known only in its own scope (inline asm
 * blocks reuse names such as waitLoop), and so is a register a scope
 * declares (remat). */
int32_t *
innerscope(Func *f)
{
	int32_t *sc = xmalloc((f->nstmt + 1) * sizeof *sc);
	int32_t *stack = xmalloc((f->nstmt + 1) * sizeof *stack);
	uint32_t n = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sclose && n)
			n--;
		sc[i] = n ? stack[n - 1] : -1;
		if (s->kind == Sopen)
			stack[n++] = (int32_t)i;
	}
	free(stack);
	return sc;
}

/* The label a branch at b names: in b's scope, else in the enclosing
 * ones; -1 when none or more than one answers at the first level that
 * has the name.  lab[0 .. nlab) are the function's labels, in order. */
static int64_t
resolvelabel(Func *f, const int32_t *sc, const uint32_t *lab, uint32_t nlab,
	uint32_t b, Str t)
{
	int32_t want = sc[b];

	for (;;) {
		int64_t hit = -1;
		int many = 0;
		for (uint32_t q = 0; q < nlab; q++) {
			uint32_t j = lab[q];
			if (f->stmt[j].name == t && sc[j] == want) {
				many |= hit >= 0;
				hit = j;
			}
		}
		if (hit >= 0)
			return many ? -1 : hit;
		if (want < 0)
			return -1;
		want = sc[want];
	}
}

/* The statements closed() looks at: control instructions and those
 * that name a symbol (a label, maybe), with each statement's scope.
 * Built once for a sweep and again after statements move: asking the
 * whole function for every run made hoist a quarter of opt's own time
 * on FA4's forward kernel (bench/RESULTS-trust.md, twenty-fifth
 * session). */
typedef struct Refs { uint32_t *at, n, *lab, nlab; int32_t *sc; } Refs;

static void
refsof(Func *f, Refs *x)
{
	free(x->at);
	free(x->lab);
	free(x->sc);
	x->sc = innerscope(f);
	x->at = xmalloc((f->nstmt + 1) * sizeof *x->at);
	x->lab = xmalloc((f->nstmt + 1) * sizeof *x->lab);
	x->n = x->nlab = 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Slabel)
			x->lab[x->nlab++] = i;
		int named = s->kind == Sdir && s->decl->nattr;
		for (uint32_t k = 0; s->kind == Sins && k < s->nop; k++)
			named |= s->opd[k].kind == Psym;
		if (named || (s->kind == Sins && opklass(s) == Kctl))
			x->at[x->n++] = i;
	}
}

/* Whether control enters [lo, hi) only at lo and leaves it only at hi:
 * its only control instructions are bra, each naming a label inside
 * it, and no statement outside names a label of its top level. */
static int
closed(Func *f, const Refs *x, uint32_t lo, uint32_t hi)
{
	const int32_t *sc = x->sc;
	int ok = 1;
	Str top[8];             /* the run's top-level labels, if few */
	uint32_t ntop = 0;
	int many = 0;

	for (uint32_t j = lo; j < hi; j++)
		if (f->stmt[j].kind == Slabel && sc[j] < 0) {
			many |= ntop == countof(top);
			if (!many)
				top[ntop++] = f->stmt[j].name;
		}
	/* with no top-level label in the run, no statement outside it can
	 * enter it: only its own (x->at is in statement order) */
	uint32_t q0 = 0, q1 = x->n;
	if (!ntop && !many) {
		uint32_t a = 0, b = x->n;
		while (a < b) {
			uint32_t mid = a + (b - a) / 2;
			if (x->at[mid] < lo)
				a = mid + 1;
			else
				b = mid;
		}
		for (q0 = q1 = a; q1 < x->n && x->at[q1] < hi; q1++)
			;
	}
	for (uint32_t q = q0; q < q1 && ok; q++) {
		uint32_t i = x->at[q];
		Stmt *s = &f->stmt[i];
		int in = i >= lo && i < hi;
		uint32_t m = s->kind == Sdir ? s->decl->nattr
			: s->kind == Sins ? s->nop : 0;
		if (in && s->kind == Sins && opklass(s) == Kctl
		&& s->op != Obra)
			ok = 0;
		for (uint32_t k = 0; k < m && ok; k++) {
			Str t = s->kind == Sdir ? s->decl->attr[k]
				: s->opd[k].kind == Psym ? s->opd[k].s : 0;
			if (!t)
				continue;
			if (in && s->kind == Sins && s->op == Obra) {
				int64_t l = resolvelabel(f, sc, x->lab, x->nlab,
					i, t);
				ok = l >= (int64_t)lo && l < (int64_t)hi;
				continue;
			}
			/* outside (or a directive inside): it may name no
			 * top-level label of the run */
			for (uint32_t j = 0; j < ntop && ok && !many; j++)
				ok = top[j] != t;
			for (uint32_t j = lo; j < hi && ok && many; j++)
				ok = !(f->stmt[j].kind == Slabel && sc[j] < 0
					&& f->stmt[j].name == t);
		}
	}
	return ok;
}

/* What [lo, here) of a run and its segment writes and reads, and what
 * the run [lo, hi) itself touches: a stamp per register, so a segment
 * of thousands costs one pass, not one per statement that might move. */
typedef struct Seen {
	uint32_t *w, *r, *run, *mw, *mr, stamp;
	uint8_t *read;          /* per register: read anywhere */
	uint8_t *pxe;           /* earlymarks(), or 0 */
} Seen;

/* Per statement, the registers it reads for the last time: those not
 * live after it (live.c).  Text order would not do: Triton's peeled
 * first iteration and its loop write the same P registers, so the
 * first iteration's converts never read them last in the text, though
 * the values die there.  Kept per statement as a range of reg[], and
 * permuted with the statements. */
typedef struct Dies {
	uint32_t *lo, *hi;
	int32_t *reg;
	uint8_t *risen;         /* per statement: hoisted in an earlier sweep */
	uint32_t *org;          /* per statement: the run that ended its
	                         * segment in the input (twinabove) */
	uint32_t *th;           /* per statement: a hash of its text */
} Dies;

typedef struct Pair { uint32_t i; int32_t r; } Pair;

static int
paircmp(const void *a, const void *b)
{
	const Pair *x = a, *y = b;

	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return (x->r > y->r) - (x->r < y->r);
}

static void
filldies(Module *m, Func *f, Dies *d, Regs *r)
{
	Pair *p = 0;
	size_t n = 0, cap = 0;
	Walk w;

	fillcfg(f, m);
	filllive(f);
	uint32_t W = f->ana->nword;
	uint64_t *after = xmalloc(W * 8 + 8);
	for (uint32_t b = 0; b < f->ana->nblk; b++) {
		walkbegin(&w, f, b);
		for (;;) {
			memcpy(after, w.live, W * 8);
			if (!walkprev(&w))
				break;
			regsof(&f->stmt[w.i], r);
			for (uint32_t k = 0; k < r->u.n; k++) {
				int32_t reg = r->u.v[k];
				if (bitget(after, (uint32_t)reg)
				|| inrv(&r->d, reg))
					continue;
				if (n == cap) {
					cap = cap ? 2 * cap : 1024;
					p = xrealloc(p, cap * sizeof *p);
				}
				p[n++] = (Pair){w.i, reg};
			}
		}
		walkend(&w);
	}
	freeana(f);
	free(after);
	if (n)
		qsort(p, n, sizeof *p, paircmp);
	d->lo = calloc(f->nstmt + 1, sizeof *d->lo);
	d->risen = calloc(f->nstmt + 1, 1);
	d->hi = calloc(f->nstmt + 1, sizeof *d->hi);
	d->reg = xmalloc((n + 1) * sizeof *d->reg);
	uint32_t k = 0;
	for (size_t j = 0; j < n; j++) {
		if (j && p[j].i == p[j - 1].i && p[j].r == p[j - 1].r)
			continue;       /* read twice: counted once */
		if (d->hi[p[j].i] == 0)
			d->lo[p[j].i] = k;
		d->reg[k++] = p[j].r;
		d->hi[p[j].i] = k;
	}
	free(p);
}

/* Registers whose life x ends, less those it starts: x's reads that
 * are not live after it nor touched by the run [lo, hi) it would pass.
 * A heuristic: the validator does not rely on it. */
static int
gain(Func *f, uint32_t x, const Regs *rx, const Dies *d, const Seen *sn)
{
	int g = 0;

	/* in 32-bit units: a b64 pack of two b32 frees nothing */
	for (uint32_t k = 0; k < rx->d.n; k++)
		g -= f->reg[rx->d.v[k]].units;
	for (uint32_t k = d->lo[x]; k < d->hi[x]; k++)
		if (sn->run[d->reg[k]] != sn->stamp)
			g += f->reg[d->reg[k]].units;
	return g;
}

/* Whether something reads a register r writes.  A statement whose
 * result nothing reads gains nothing by rising; and a dead copy the
 * validator takes for one the moves pass removed, so the copy that
 * rose is one it cannot place (linemut seed 115: an ill-typed pack,
 * whose 32-bit destination made it look like a gain). */
static int
used(const Seen *sn, const Regs *r)
{
	for (uint32_t k = 0; k < r->d.n; k++)
		if (sn->read[r->d.v[k]])
			return 1;
	return 0;
}

/* Stamps what r writes in w and what it reads in rd. */
static void
stampregs(uint32_t *w, uint32_t *rd, uint32_t stamp, const Regs *r)
{
	for (uint32_t k = 0; k < r->d.n; k++)
		w[r->d.v[k]] = stamp;
	for (uint32_t k = 0; k < r->u.n; k++)
		rd[r->u.v[k]] = stamp;
}

/* Whether what w and rd stamp writes what x reads, or touches what x
 * writes. */
static int
stamped(const uint32_t *w, const uint32_t *rd, uint32_t stamp,
	const Regs *x)
{
	for (uint32_t k = 0; k < x->u.n; k++)
		if (w[x->u.v[k]] == stamp)
			return 1;
	for (uint32_t k = 0; k < x->d.n; k++)
		if (w[x->d.v[k]] == stamp || rd[x->d.v[k]] == stamp)
			return 1;
	return 0;
}

static void
see(Seen *sn, const Regs *r)
{
	stampregs(sn->w, sn->r, sn->stamp, r);
}

/* Whether what was seen writes what x reads, or touches what x writes. */
static int
clashes(const Seen *sn, const Regs *x)
{
	return stamped(sn->w, sn->r, sn->stamp, x);
}

/* Whether x shares a register with a statement that rises before it,
 * in this sweep or an earlier one that left it at the end of the
 * segment x would join: x then stays below the run, as the validator
 * proves each risen statement against those after it in its new
 * segment (the opt fuzzer, fo31: a max chain rising link by link). */
static int
follows(const Seen *sn, const Regs *x)
{
	return stamped(sn->mw, sn->mr, sn->stamp, x);
}

/* The registers nothing may rise past [lo, hi) with, as tmemnames()
 * bits: what a wait there completes (wgmma.wait_group a wgmma's,
 * tcgen05.wait::ld/st a tcgen05.ld's/st's; an unknown instruction
 * might be any wait), and a wgmma's after a wgmma.fence, whose side an
 * access to them keeps, as the validator and the schedulers hold it
 * (opt fuzzer fo77: hoist raised a convert writing an A fragment above
 * the fence of an earlier wgmma; the rewrite was refused). */
static int
completed(Func *f, uint32_t lo, uint32_t hi)
{
	int bits = 0;

	for (uint32_t j = lo; j < hi; j++) {
		Stmt *s = &f->stmt[j];
		if (s->kind != Sins)
			continue;
		bits |= s->op == Owgmma_wait_group || s->op == Owgmma_fence ? 4
			: s->op == Otcgen05_wait_ld ? 1
			: s->op == Otcgen05_wait_st ? 2
			: s->op == Ounknown ? 7 : 0;
	}
	return bits;
}

static int
touches(const Regs *r, const uint8_t *tm, int bits)
{
	for (uint32_t k = 0; bits && k < r->d.n; k++)
		if (tm[r->d.v[k]] & bits)
			return 1;
	for (uint32_t k = 0; bits && k < r->u.n; k++)
		if (tm[r->u.v[k]] & bits)
			return 1;
	return 0;
}

/* A run's name: its first statement's place in the source, which no
 * pass changes (two runs that share one only keep more down). */
static uint32_t
runid(const Func *f, uint32_t lo)
{
	return f->stmt[lo].text.off + 1;
}

/* Statements i and j write a register the other writes or reads. */
static int
shared(Func *f, uint32_t i, uint32_t j)
{
	Regs a = {0}, b = {0};
	int hit = 0;

	regsof(&f->stmt[i], &a);
	regsof(&f->stmt[j], &b);
	for (uint32_t k = 0; k < a.d.n && !hit; k++)
		hit = inrv(&b.d, a.d.v[k]) || inrv(&b.u, a.d.v[k]);
	for (uint32_t k = 0; k < b.d.n && !hit; k++)
		hit = inrv(&a.u, b.d.v[k]);
	free(a.d.v);
	free(a.u.v);
	free(b.d.v);
	free(b.u.v);
	return hit;
}

/* Statement i, rising past the run at lo, has a twin (the same text,
 * by hash) in the segment it would join, or the input held in that
 * segment a twin or a statement sharing a register with i (one writes
 * what the other touches) that rose out of it.  The validator pairs a
 * segment's statements by text: a twin risen out of the segment the
 * other joins pairs wrongly there and is refused (opt fuzzer, fo65 and
 * the mutated tests after it); and it checks a statement risen past
 * several runs against what the input held in the segments passed,
 * though that rose too (the line mutator).  The same statement rising again
 * (Triton's converts past a wait loop, then a cp.async.wait_group), or
 * twins in segments apart (the peeled iteration's converts and the
 * loop's), keep rising. */
static int
twinabove(Func *f, uint32_t lo, uint32_t hi, uint32_t i, const uint8_t *fx,
	const Dies *d)
{
	for (uint32_t j = lo; j > 0 && !fx[j - 1]; j--)
		if (d->th[j - 1] == d->th[i] && f->stmt[j - 1].kind == Sins)
			return 1;
	/* the run may be several of the input's, run together once what
	 * stood between them rose: the twin may have left any of their
	 * segments */
	for (uint32_t j = 0; j < lo; j++) {
		if (!d->risen[j] || !d->org[j])
			continue;
		int left = 0;
		for (uint32_t q = lo; q < hi && !left; q++)
			left = d->org[j] == runid(f, q);
		if (left && (d->th[j] == d->th[i] || shared(f, i, j)))
			return 1;
	}
	return 0;
}

/* Statement i has a copy of itself (the same source statement, which
 * remat copies) below it in the segment it would leave, up to end: the
 * validator pairs the input's statement there with the copy that stays,
 * and takes the one risen for a copy, which then runs before what it
 * copies (the line mutator, seed 848: remat=loop's copy of a compare
 * below the original, which hoist raised).  Two equal statements of the
 * input's own rise as before, the first one (hoist-dup.ptx). */
static int
twinbelow(Func *f, uint32_t i, uint32_t end, const Dies *d)
{
	Span t = f->stmt[i].text;

	for (uint32_t j = i + 1; t.len && j < end; j++)
		if (d->th[j] == d->th[i] && f->stmt[j].kind == Sins
		&& f->stmt[j].text.off == t.off)
			return 1;
	return 0;
}

/* org and th for f as it stands (hoist's first sweep). */
static void
origins(Func *f, Dies *d)
{
	uint8_t *tgt = calloc(f->nstmt + 1, 1);
	Buf b = {0};
	uint32_t id = 0;

	labeltargets(f, tgt);
	uint8_t *fx = fixedmap(f, tgt);
	d->org = calloc(f->nstmt + 1, sizeof *d->org);
	d->th = calloc(f->nstmt + 1, sizeof *d->th);
	for (uint32_t i = f->nstmt; i-- > 0;) {
		if (fx[i] && (i == 0 || !fx[i - 1]))
			id = runid(f, i);
		d->org[i] = fx[i] ? 0 : id;
		if (f->stmt[i].kind == Sins) {
			b.n = 0;
			printstmt(&b, f, &f->stmt[i]);
			d->th[i] = fnv(b.p ? b.p : "", b.n);
		}
	}
	free(b.p);
	free(fx);
	free(tgt);
}

/* Whether the run [lo, hi) keeps everything below it: a register is
 * known from its .reg line on, so a statement moved above one may name
 * what is not declared yet (hand-written PTX declares as it goes; the
 * opt fuzzer's bpf_kernels), and an instruction the table does not know
 * may touch any register (the validator says so too: opt fuzzer).  One
 * inside a { } of the run (an inline asm's own registers) names nothing
 * the moved statements, outside it, can see. */
static int
runholds(Func *f, uint32_t lo, uint32_t hi)
{
	for (uint32_t j = lo, depth = 0; j < hi; j++) {
		depth -= f->stmt[j].kind == Sclose && depth;
		if (f->stmt[j].kind == Sdecl && !depth)
			return 1;
		if (f->stmt[j].kind == Sins && f->stmt[j].op == Ounknown)
			return 1;
		depth += f->stmt[j].kind == Sopen;
	}
	return 0;
}

/* Stamps what the run [lo, hi) and what rose above it in an earlier
 * sweep touch: what rose stays before what rises now, as for one sweep
 * (follows). */
static void
stamprun(Func *f, uint32_t lo, uint32_t hi, const uint8_t *fx, Dies *d,
	Seen *sn, Regs *r)
{
	sn->stamp++;
	for (uint32_t j = lo; j > 0 && !fx[j - 1]; j--)
		if (d->risen[j - 1]) {
			regsof(&f->stmt[j - 1], r);
			stampregs(sn->mw, sn->mr, sn->stamp, r);
		}
	for (uint32_t j = lo; j < hi; j++) {
		regsof(&f->stmt[j], r);
		see(sn, r);
		for (uint32_t q = 0; q < r->d.n; q++)
			sn->run[r->d.v[q]] = sn->stamp;
		for (uint32_t q = 0; q < r->u.n; q++)
			sn->run[r->u.v[q]] = sn->stamp;
	}
}

/* [those up marks][lo..hi)[the rest of the segment, to end], and each
 * statement's dying reads go with it. */
static void
lift(Func *f, uint32_t lo, uint32_t hi, uint32_t end, const uint8_t *up,
	Dies *d)
{
	Stmt *tmp = xmalloc((end - lo) * sizeof *tmp);
	uint32_t *tl = xmalloc(5 * (end - lo) * sizeof *tl), k = 0;

	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = pass ? lo : hi; i < end; i++) {
			if (pass ? i >= hi && up[i - hi] : !up[i - hi])
				continue;
			tl[5 * k] = d->lo[i];
			tl[5 * k + 1] = d->hi[i];
			tl[5 * k + 2] = !pass || d->risen[i];
			tl[5 * k + 3] = d->org[i];
			tl[5 * k + 4] = d->th[i];
			tmp[k++] = f->stmt[i];
		}
	memcpy(&f->stmt[lo], tmp, k * sizeof *tmp);
	for (uint32_t j = 0; j < k; j++) {
		d->lo[lo + j] = tl[5 * j];
		d->hi[lo + j] = tl[5 * j + 1];
		d->risen[lo + j] = (uint8_t)tl[5 * j + 2];
		d->org[lo + j] = tl[5 * j + 3];
		d->th[lo + j] = tl[5 * j + 4];
	}
	free(tmp);
	free(tl);
	f->dirty = 1;
}

/* Raises above the run of fixed statements [lo, hi) the statements of
 * the segment below it that may rise and lower the peak; returns how
 * many. */
static uint32_t
hoistinto(Func *f, uint32_t lo, uint32_t hi, const uint8_t *fx,
	Dies *d, const uint32_t *lines, const uint8_t *tm,
	Seen *sn, Regs *r)
{
	uint32_t end = hi, n = 0;
	/* before a wait, the tensor core may still be at the registers it
	 * completes: nothing that touches them goes above it */
	int done = completed(f, lo, hi);

	while (end < f->nstmt && !fx[end])
		end++;
	if (runholds(f, lo, hi))
		return 0;
	uint8_t *up = calloc(end - hi + 1, 1);
	stamprun(f, lo, hi, fx, d, sn, r);
	int passed = 0;         /* early's roles of what stays (earlyrole) */
	for (uint32_t i = hi; i < end; i++) {
		Stmt *s = &f->stmt[i];
		regsof(s, r);
		/* early's copies keep their side of every write of a
		 * term of their sum (earlyrole; the line mutator, seed
		 * 265: hoist raised a convert writing a term above the
		 * wait loop, past early's copy below it) */
		int role = s->kind == Sins && sn->pxe ? earlyrole(sn->pxe,
			r->d.v, r->d.n, r->u.v, r->u.n) : 0;
		/* checked against all before it in the run and segment,
		 * moved or not: the moved ones keep their order; and
		 * against the waits it passes in the segment too (a
		 * tcgen05.wait is no fixed statement: fo47) */
		if (s->kind == Sins && !s->guard && opklass(s) == Kpure
		&& inlines(lines, s) && !clashes(sn, r)
		&& !touches(r, tm, done | 1) && !follows(sn, r)
		&& !(role & Ecopy && passed & Ewterm)
		&& !(role & Ewterm && passed & Ecopy)
		&& gain(f, i, r, d, sn) > 0 && used(sn, r)
		&& !twinabove(f, lo, hi, i, fx, d)
		&& !twinbelow(f, i, end, d)) {
			up[i - hi] = 1;
			n++;
			stampregs(sn->mw, sn->mr, sn->stamp, r);
		}
		see(sn, r);
		if (!up[i - hi]) {
			done |= completed(f, i, i + 1);
			passed |= role;
		}
	}
	if (n)
		lift(f, lo, hi, end, up, d);
	free(up);
	return n;
}

/* One sweep: each run of fixed statements takes what may rise above it
 * from the segment below. */
static uint32_t
hoistround(Func *f, Dies *d, const uint32_t *lines, const uint8_t *tm,
	Seen *sn, Regs *r)
{
	uint8_t *tgt = calloc(f->nstmt + 1, 1);
	uint32_t moved = 0;
	Refs x = {0};

	labeltargets(f, tgt);
	uint8_t *fx = fixedmap(f, tgt);
	refsof(f, &x);
	for (uint32_t i = 1; i < f->nstmt; i++) {
		if (!fx[i] || fx[i - 1])
			continue;
		uint32_t lo = i, hi = i;
		while (hi < f->nstmt && fx[hi])
			hi++;
		if (hi == f->nstmt || !closed(f, &x, lo, hi))
			continue;
		uint32_t n = hoistinto(f, lo, hi, fx, d, lines, tm, sn, r);
		if (n) {
			refsof(f, &x);  /* statements moved */
			/* what moved sits before lo now; the run moved down
			 * by n statements, and so did the fixed map */
			memmove(&fx[lo + n], &fx[lo], hi - lo);
			memset(&fx[lo], 0, n);
			memmove(&tgt[lo + n], &tgt[lo], hi - lo);
			memset(&tgt[lo], 0, n);
			moved += n;
			i = hi + n - 1;
		} else
			i = hi - 1;
	}
	free(x.at);
	free(x.lab);
	free(x.sc);
	free(fx);
	free(tgt);
	return moved;
}

/* Sweeps until nothing rises, so a convert can pass several runs in
 * turn (Triton's wait loop, tcgen05.ld of O and cp.async.wait_group all
 * stand between P's exp2 and its packing); a bound, as each sweep moves
 * a statement past one run at most. */
uint32_t
hoist(Module *m, Func *f, const uint32_t *lines)
{
	Regs r = {0};
	Dies d;
	uint32_t moved = 0, n = 1;
	Seen sn = {calloc(f->nreg + 1, sizeof *sn.w),
		calloc(f->nreg + 1, sizeof *sn.r),
		calloc(f->nreg + 1, sizeof *sn.run),
		calloc(f->nreg + 1, sizeof *sn.mw),
		calloc(f->nreg + 1, sizeof *sn.mr), 0,
		calloc(f->nreg + 1, 1), earlymarks(f)};
	uint8_t *tm = tmemnames(f);

	for (uint32_t i = 0; i < f->nstmt; i++) {
		regsof(&f->stmt[i], &r);
		for (uint32_t k = 0; k < r.u.n; k++)
			sn.read[r.u.v[k]] = 1;
	}
	filldies(m, f, &d, &r);
	origins(f, &d);
	for (int round = 0; round < 8 && n; round++)
		moved += n = hoistround(f, &d, lines, tm, &sn, &r);
	free(tm);
	free(d.lo);
	free(d.risen);
	free(d.org);
	free(d.th);
	free(d.hi);
	free(d.reg);
	free(sn.w);
	free(sn.r);
	free(sn.run);
	free(sn.mw);
	free(sn.mr);
	free(sn.read);
	free(sn.pxe);
	free(r.d.v);
	free(r.u.v);
	return moved;
}
