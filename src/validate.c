/* validate.c: proves that a rewritten module computes what the original
 * does.  It shares no code with the schedulers: it derives its own
 * fixed points, its own memory effects and its own register accesses,
 * and checks the result, not the steps that made it.
 *
 * The claim proven, per function: the same header and declarations; the
 * same fixed statements (branch targets, branches and calls, waits but
 * tcgen05.wait::ld/st, scopes, unknown instructions) in the same order;
 * between two fixed statements, the same statements, permuted so that
 *   - every pair of accesses to one register, one of them a write, keeps
 *     its order (a guarded write counts as a read too),
 *   - every pair of memory effects that may touch the same state space,
 *     one of them a write, keeps its order; fences, barriers, atomics and
 *     async operations keep their order against every memory effect and
 *     each other; tcgen05.ld/st and tcgen05.wait::ld/st against each
 *     other and those, not against loads and stores (tensor memory,
 *     which no load or store reaches), and such a wait against every
 *     access to a register some tcgen05.ld (tcgen05.st) of the function
 *     names; warp collectives and carry-flag arithmetic keep their
 *     order among their kind, but for two mma.sync (valid.h's Emma:
 *     every thread of the warp runs a block in one order),
 *   - debug labels keep their order among themselves;
 * and beyond permutations:
 *   - a copy or pack/unpack pair of the original may be missing when its
 *     reads can read the source instead (vcopy.c replays them);
 *   - a definition whose value cannot change (immediates, launch
 *     constants, kernel parameters; a load of read-only memory where the
 *     original load dominates) may appear again;
 *   - setmaxnreg counts may differ when the new ones fit the register
 *     file over the warp roles (vbudget.c);
 *   - a wgmma.wait_group may be added where the whole warp surely runs
 *     it (vremat.c, vextrawait);
 *   - a wgmma.mma_async may run in the next segment, in a group of its
 *     own that an added wait completes; the commits after its group up
 *     to that wait may be added too (an added commit only makes later
 *     waits complete more) (vseg.c, deferred);
 *   - a statement may run in an earlier segment (hoist) when it is
 *     plain register arithmetic, control enters the fixed statements
 *     between only at their top and leaves only at their bottom, and
 *     nothing it passes writes what it reads or touches what it writes
 *     (vhoist.c).
 *   - B may keep registers in a local array A does not declare, each
 *     load reading back what its register held, and split a wgmma
 *     group around them (vspill.c);
 *   - B may declare registers A does not, written only by arithmetic
 *     and read only by copies whose value is proven on B's own blocks
 *     to be what A computes into the copy's destination (vearly.c);
 *     B without them, each copy replaced by A's computation, is what
 *     the rest of the proof compares.
 * Anything else it cannot prove, and says where.
 *
 * This file walks both bodies fixed statement by fixed statement and
 * checks headers and budgets; vaccess.c sees what each statement does,
 * vseg.c proves one segment, vremat.c and vhoist.c the rewrites beyond
 * permutations named above. */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "valid.h"

/* What body() holds while it walks both bodies: the tables every
 * segment's proof reads, and what the proofs left for the end. */
typedef struct Bodies {
	Func *fa, *fb;
	Buf *why;
	uint8_t *sca, *scb;         /* vscopedregs() */
	uint8_t *ma, *mb;           /* vmovables() */
	uint32_t *writes, nk, nlc, nseg;
	uint8_t *tm;                /* vtmemregs(fa) */
	Str *konst;
	int32_t *kload;
	Dom *adom;
	uint32_t *tally, *maxr;
	int32_t *lastw, *vs, *amap;
	uint8_t *seen, *tb, *xb, *wx;
	Lc *lc;
	Pend pend;
	Up up;
	Later later;
	uint32_t *astart, *aend, *bstart, *bend;    /* each segment's bounds */
} Bodies;

static void
bodiesopen(Bodies *w, Func *fa, Func *fb, Buf *why)
{
	size_t nr = (size_t)fa->nreg + 1, ns = fa->nstmt + fb->nstmt + 2;

	*w = (Bodies){.fa = fa, .fb = fb, .why = why};
	/* first: every text below (constants' too) knows the scopes */
	w->sca = vscopedregs(fa), w->scb = vscopedregs(fb);
	vscoped[0] = (Vscoped){fa, w->sca, calloc(fa->nstmt + 1, sizeof(Str)),
		fa->nstmt};
	vscoped[1] = (Vscoped){fb, w->scb, fb == fa ? vscoped[0].memo
		: calloc(fb->nstmt + 1, sizeof(Str)), fb->nstmt};
	vparamaddr = !fa->entry && (vtakesparam(fa) || vtakesparam(fb));
	w->ma = vmovables(fa), w->mb = vmovables(fb);
	w->writes = vwritecount(fa, 0);
	w->tm = vtmemregs(fa);
	w->konst = vkonstants(fa, w->writes, w->tm, &w->nk, &w->kload);
	w->tally = vtally(fa);
	w->lastw = xmalloc(nr * sizeof *w->lastw);
	w->maxr = xmalloc(nr * sizeof *w->maxr);
	w->seen = xmalloc(nr);
	w->vs = xmalloc(4 * nr * sizeof *w->vs);
	w->tb = vbranchtargets(fb), w->xb = calloc(fb->nstmt + 1, 1);
	w->amap = xmalloc((fa->nstmt + 1) * sizeof *w->amap);
	for (uint32_t k = 0; k < fa->nstmt; k++)
		w->amap[k] = -1;
	w->lc = vloopchains(fa, w->writes, w->tm, &w->nlc);
	w->wx = calloc(fb->nstmt + 1, 1);
	w->astart = xmalloc(ns * 4 * sizeof *w->astart);
	w->aend = w->astart + ns;
	w->bstart = w->aend + ns;
	w->bend = w->bstart + ns;
}

static void
bodiesclose(Bodies *w)
{
	free(w->later.v);
	free(w->wx);
	free(w->pend.v);
	for (uint32_t k = 0; k < w->up.n; k++) {
		accfree(&w->up.v[k].x);
	}
	free(w->up.v);
	free(w->astart);
	free(w->tm);
	free(w->lc);
	free(w->writes);
	free(w->amap);
	free(w->ma);
	free(w->mb);
	free(w->tb);
	free(w->xb);
	free(w->tally);
	free(w->lastw);
	free(w->maxr);
	free(w->seen);
	free(w->vs);
	domfree(w->adom);
	free(w->kload);
	free(w->konst);
	if (vscoped[1].memo != vscoped[0].memo)
		free(vscoped[1].memo);
	free(vscoped[0].memo);
	vscoped[0] = vscoped[1] = (Vscoped){0};
	free(w->sca);
	free(w->scb);
}

/* B's segment runs over the waits it adds (a wait A has next pairs with
 * A's, but for the first one after wgmmas the segment before deferred:
 * theirs). */
static void
extrawaits(Bodies *w, Seg *g)
{
	Func *fa = w->fa, *fb = w->fb;
	int took = 0;

	for (;;) {
		int def = !took && vlaterpending(&w->later, w->nseg);
		while (g->b1 < fb->nstmt && w->mb[g->b1])
			g->b1++;
		if (g->b1 == fb->nstmt || !vextrawait(fb, w->tb, g->b1)
		|| (!def && g->a1 < fa->nstmt
		&& vtext(fa, &fa->stmt[g->a1])
		== vtext(fb, &fb->stmt[g->b1])))
			return;
		w->xb[g->b1++] = 1;
		took = 1;
	}
}

/* Walks both bodies fixed statement by fixed statement, proving each
 * segment between. */
static int
bodiessegs(Bodies *w)
{
	Func *fa = w->fa, *fb = w->fb;
	uint32_t i = 0, j = 0;
	int rc = 0;

	while (!rc && (i < fa->nstmt || j < fb->nstmt)) {
		Seg g = {fa, fb, i, i, j, j, w->why, 0, 0, w->konst, w->nk,
			w->kload, &w->adom, w->tally, w->lastw, w->maxr,
			w->seen, w->vs, w->xb, w->amap, w->lc, w->nlc,
			&w->pend, w->tm, &w->up, w->nseg, 0, &w->later, w->wx};
		while (g.a1 < fa->nstmt && w->ma[g.a1])
			g.a1++;
		extrawaits(w, &g);
		w->astart[w->nseg] = g.a0, w->aend[w->nseg] = g.a1;
		w->bstart[w->nseg] = g.b0, w->bend[w->nseg] = g.b1;
		w->nseg++;
		if (g.a1 > g.a0 || g.b1 > g.b0)
			rc = vsegment(&g, w->ma);
		i = g.a1;
		j = g.b1;
		if (rc)
			break;
		if (i < fa->nstmt && j < fb->nstmt) {
			if (vtext(fa, &fa->stmt[i]) != vtext(fb, &fb->stmt[j]))
				rc = vfail(w->why, fa, &fa->stmt[i],
					"fixed statement '%s' changed or moved",
					vtext(fa, &fa->stmt[i]));
			w->amap[i] = (int32_t)j;
			i++;
			j++;
		} else if (i < fa->nstmt || j < fb->nstmt) {
			rc = vfail(w->why, fa, &fa->stmt[i < fa->nstmt ? i : 0],
				"%s", "the bodies end differently");
		}
	}
	return rc;
}

/* What the segments left for the end: statements B runs earlier, wgmmas
 * it runs later, and its copies of loop values. */
static int
bodiesend(Bodies *w)
{
	Func *fa = w->fa, *fb = w->fb;
	Closed cl = {UINT32_MAX, 0, 0};
	int rc = 0;

	for (uint32_t k = 0; k < w->up.n && !rc; k++) {
		Cand *c = &w->up.v[k];
		if (c->a < 0 && c->soft)
			continue;
		if (c->a < 0)
			rc = vfail(w->why, fb, &fb->stmt[c->b], "'%s' appears in "
				"the rewrite before a fixed statement but not in "
				"the original", c->t);
		else
			rc = vhoisted(fa, fb, c, w->aend, w->astart, w->bend,
				&cl, w->tm, w->why);
	}
	for (uint32_t k = 0; k < w->later.n && !rc; k++)
		if (w->later.v[k].b < 0)
			rc = vfail(w->why, fa, &fa->stmt[w->later.v[k].a], "'%s' "
				"is missing here and from the next segment",
				w->later.v[k].t);
	if (!rc && w->pend.n)
		rc = vloopvalues(fa, fb, w->amap, w->writes, &w->pend, w->why);
	return rc;
}

static int
body(Func *fa, Func *fb, Buf *why)
{
	Bodies w;

	bodiesopen(&w, fa, fb, why);
	int rc = bodiessegs(&w);
	if (!rc)
		rc = bodiesend(&w);
	bodiesclose(&w);
	return rc;
}

static Str
header(Item *it)
{
	Func f = *it->fn;
	Item c = *it;
	Buf b = {0};
	Str r;

	f.nstmt = 0;
	c.fn = &f;
	printitem(&b, &c);
	r = intern(b.p, b.n);
	free(b.p);
	return r;
}

static Str
itemtext(Item *it)
{
	Buf b = {0};
	Str r;

	printitem(&b, it);
	r = intern(b.p ? b.p : "", b.n);
	free(b.p);
	return r;
}

/* setmaxnreg counts may differ between the two functions when the new
 * ones are proven to fit (vbudget.c); then a's statements take b's
 * counts for the comparison, and *saved keeps a's to put back.  Returns
 * the number of sites changed, or -1. */
static int
budgets(Module *mb, Func *fa, Func *fb, Str **saved, Buf *why)
{
	uint32_t na = 0, nb = 0;
	int changed = 0;

	for (uint32_t i = 0; i < fa->nstmt; i++)
		na += fa->stmt[i].kind == Sins && fa->stmt[i].op == Osetmaxnreg;
	for (uint32_t i = 0; i < fb->nstmt; i++)
		nb += fb->stmt[i].kind == Sins && fb->stmt[i].op == Osetmaxnreg;
	*saved = 0;
	if (!na || na != nb)
		return 0;
	Stmt **sa = xmalloc(na * sizeof *sa), **sb = xmalloc(na * sizeof *sb);
	for (uint32_t i = 0, k = 0; i < fa->nstmt; i++)
		if (fa->stmt[i].kind == Sins && fa->stmt[i].op == Osetmaxnreg)
			sa[k++] = &fa->stmt[i];
	for (uint32_t i = 0, k = 0; i < fb->nstmt; i++)
		if (fb->stmt[i].kind == Sins && fb->stmt[i].op == Osetmaxnreg)
			sb[k++] = &fb->stmt[i];
	/* by spelling: a constant expression's (~36, 8*4) is not
	 * interned, so the same text in two files is two pointers
	 * (fuzzopt.short in CI took that for a changed budget) */
	for (uint32_t k = 0; k < na; k++)
		changed += sa[k]->nop && sb[k]->nop
			&& (sa[k]->opd[0].kind != sb[k]->opd[0].kind
			|| (sa[k]->opd[0].s != sb[k]->opd[0].s
			&& (!sa[k]->opd[0].s || !sb[k]->opd[0].s
			|| strcmp(sa[k]->opd[0].s, sb[k]->opd[0].s))));
	/* A's counts, against which a launch of fewer warps is judged */
	int *ref = xmalloc(na * sizeof *ref), plain = 1;
	for (uint32_t k = 0; k < na; k++) {
		int x = setmaxcount(sa[k]);
		ref[k] = x < 0 ? 0 : x;
		plain &= x >= 0;
	}
	if (changed && !plain)
		bprintf(why, "%s: a setmaxnreg count of the original is not "
			"a plain number\n", fa->name);
	int bad = changed && (!plain || budgetfit(mb, fb, 0, ref, why));
	free(ref);
	if (bad) {
		free(sa);
		free(sb);
		return -1;
	}
	if (changed) {
		*saved = xmalloc(na * sizeof **saved);
		for (uint32_t k = 0; k < na; k++) {
			(*saved)[k] = sa[k]->opd[0].s;
			if (sa[k]->nop && sb[k]->nop)
				sa[k]->opd[0].s = sb[k]->opd[0].s;
		}
	}
	free(sa);
	free(sb);
	return changed;
}

static void
unbudget(Func *fa, Str *saved)
{
	for (uint32_t i = 0, k = 0; saved && i < fa->nstmt; i++)
		if (fa->stmt[i].kind == Sins && fa->stmt[i].op == Osetmaxnreg)
			fa->stmt[i].opd[0].s = saved[k++];
	free(saved);
}

/* Function x of a and y of b spelled alike, byte for byte: nothing to
 * prove.  What a function means beyond its text (module variables,
 * the functions it calls) is held to the input item by item anyway.
 * opt's picks leave most kernels of a large file as they were (CUTLASS
 * example 77: 28 of 44), and their proof was 15 % of opt's own work
 * there (bench/RESULTS-trust.md, forty-fourth session). */
static int
sametext(const Module *a, const Item *x, const Module *b, const Item *y)
{
	return x->text.len == y->text.len && x->text.len
		&& !memcmp(a->src + x->text.off, b->src + y->text.off,
		x->text.len);
}

/* 0 when b is proven to compute what a computes; else -1, with the
 * first reason in why. */
int
validate(Module *a, Module *b, Buf *why)
{
	if (a->nitem != b->nitem) {
		bputs(why, "the modules have different numbers of items\n");
		return -1;
	}
	for (uint32_t i = 0; i < a->nitem; i++) {
		Item *x = &a->item[i], *y = &b->item[i];
		if (x->kind != y->kind) {
			bprintf(why, "item %u differs in kind\n", i);
			return -1;
		}
		if (x->kind != Ifunc) {
			if (itemtext(x) != itemtext(y)) {
				bprintf(why, "line %u: module-level statement "
					"changed\n", x->pos.line);
				return -1;
			}
			continue;
		}
		if (header(x) != header(y)) {
			bprintf(why, "%s: the function header changed "
				"(name, parameters or directives)\n", x->fn->name);
			return -1;
		}
		Str *saved = 0;
		Func *fa = x->fn, *fb = y->fn;
		if (!fa->body || sametext(a, x, b, y))
			continue;
		/* shuffles of a value to itself (pin.c), on both sides:
		 * they compute nothing, and they write early's registers,
		 * which unearly takes only from arithmetic (vpin.c).  One
		 * not proven so: when A has such a one too, the usual
		 * proof holds them to each other; else B is refused. */
		Func *ua = unpin(a, fa, 0), *ub = unpin(b, fb, ua ? why : 0);
		if (ua && !ub)
			return -1;
		if (ua && ub)
			fa = ua, fb = ub;
		/* round trips through a local array B declares, and the
		 * group splits around them (vspill.c); before unearly, which
		 * takes a fresh declaration for its own */
		if (!(fb = unspill(b, fa, fb, why)))
			return -1;
		/* registers B declares and A does not: the early pass's
		 * values, proven on their own and taken out (vearly.c) */
		if (!(fb = unearly(b, fa, fb, why)))
			return -1;
		/* tcgen05.ld groups B runs past barriers: moved back where
		 * A has them once proven harmless there (vsink.c); the
		 * part A's group holds, else the whole of B's, else its load
		 * and wait alone */
		size_t mark = why->n;
		Func *fs = unsink(b, fa, fb, why, Part);
		int rc = !fs ? -1 : budgets(b, fa, fs, &saved, why) < 0 ? -1
			: body(fa, fs, why);
		unbudget(fa, saved);
		saved = 0;
		/* then with more of the group, or less, moved back (a B
		 * without such groups needs no second try) */
		for (int how = Whole; rc && fs != fb && how <= Bare; how++) {
			Buf w = {0};
			Func *fw = unsink(b, fa, fb, &w, how);
			if (fw && fw != fs && budgets(b, fa, fw, &saved, &w) >= 0
			&& !body(fa, fw, &w)) {
				rc = 0;         /* the first try's reasons go */
				why->n = mark;
				if (why->p)
					why->p[mark] = 0;
			}
			unbudget(fa, saved);
			saved = 0;
			free(w.p);
		}
		if (rc)
			return -1;
	}
	return 0;
}

static int
helpvalidate(FILE *f)
{
	fprintf(f,
"usage: ptxpress validate ORIG NEW\n"
"\n"
"Proves, function by function, that NEW computes what ORIG computes: the\n"
"same headers and declarations, the same fixed statements (branch\n"
"targets, branches, calls, waits, inline asm scopes) in the same order,\n"
"and between them the same instructions, reordered only where no\n"
"register, memory, barrier, fence, async, collective or carry-flag\n"
"dependence forbids it.  It shares no code with the schedulers.\n"
"Beyond reordering it proves the rewrites opt makes: copies removed,\n"
"constants and address math computed again, wgmma waits added and\n"
"groups split, arithmetic run before a wait loop, setmaxnreg budgets\n"
"re-split where they fit the register file, and registers NEW declares\n"
"that ORIG does not (the early pass): written only by arithmetic, read\n"
"only by copies, each copy's value the same on every path and the one\n"
"ORIG computes into the copy's destination; and a tcgen05.ld, its wait\n"
"and the math on what it loaded run past barriers and tcgen05.st to\n"
"other columns (tsink=far), in kernels of at most 4 warps whose threads\n"
"meet the barriers alike, with no MMA before the next barrier; and a\n"
"value shuffled to its own thread (the pin pass: shfl.sync.idx with the\n"
"lane from %%laneid and the member mask from %%lanemask_eq, both set\n"
"before it in its block), which computes nothing and is taken out of\n"
"both files.\n"
"\n"
"Exit status: 0 proven, 1 not proven (the first reason is printed),\n"
"2 a file cannot be read or parsed.\n");
	return f == stdout ? 0 : 2;
}

int
cmdvalidate(int argc, char **argv)
{
	Diag da, db;
	char *sa, *sb;
	Buf why = {0};
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help")
	|| !strcmp(argv[1], "-h")))
		return helpvalidate(stdout);
	if (argc != 3)
		return helpvalidate(stderr);
	Module *a = load(argv[1], &da, &sa);
	Module *b = load(argv[2], &db, &sb);
	if (!a || !b || a->nerr || b->nerr) {
		unload(a, sa);
		unload(b, sb);
		return 2;
	}
	rc = validate(a, b, &why);
	if (rc)
		fprintf(stderr, "%s: not proven: %s", argv[2], why.p);
	else
		fprintf(stderr, "%s: proven equivalent to %s\n", argv[2],
			argv[1]);
	free(why.p);
	unload(a, sa);
	unload(b, sb);
	return rc ? 1 : 0;
}
