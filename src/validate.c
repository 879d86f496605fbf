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
 *     order among their kind,
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

/* Walks both bodies fixed statement by fixed statement. */
static int
body(Func *fa, Func *fb, Buf *why)
{
	/* first: every text below (constants' too) knows the scopes */
	uint8_t *sca = vscopedregs(fa), *scb = vscopedregs(fb);
	vscoped[0].f = fa, vscoped[0].sc = sca;
	vscoped[1].f = fb, vscoped[1].sc = scb;
	vparamaddr = !fa->entry && (vtakesparam(fa) || vtakesparam(fb));
	uint8_t *ma = vmovables(fa), *mb = vmovables(fb);
	uint32_t i = 0, j = 0, nk;
	int rc = 0;
	int32_t *kload;
	uint32_t *writes = vwritecount(fa, 0);
	uint8_t *tm = vtmemregs(fa);
	Str *konst = vkonstants(fa, writes, tm, &nk, &kload);
	Dom *adom = 0;
	uint32_t *tally = vtally(fa);
	size_t nr = (size_t)fa->nreg + 1;
	int32_t *lastw = xmalloc(nr * sizeof *lastw);
	uint32_t *maxr = xmalloc(nr * sizeof *maxr);
	uint8_t *seen = xmalloc(nr);
	int32_t *vs = xmalloc(4 * nr * sizeof *vs);
	uint8_t *tb = vbranchtargets(fb), *xb = calloc(fb->nstmt + 1, 1);
	int32_t *amap = xmalloc((fa->nstmt + 1) * sizeof *amap);
	uint32_t nlc;
	Lc *lc = vloopchains(fa, writes, tm, &nlc);
	Pend pend = {0};
	Up up = {0};
	Later later = {0};
	uint8_t *wx = calloc(fb->nstmt + 1, 1);
	uint32_t nseg = 0, *astart = xmalloc((fa->nstmt + fb->nstmt + 2)
		* 4 * sizeof *astart);
	uint32_t *aend = astart + fa->nstmt + fb->nstmt + 2;
	uint32_t *bstart = aend + fa->nstmt + fb->nstmt + 2;
	uint32_t *bend = bstart + fa->nstmt + fb->nstmt + 2;

	for (uint32_t k = 0; k < fa->nstmt; k++)
		amap[k] = -1;
	while (!rc && (i < fa->nstmt || j < fb->nstmt)) {
		Seg g = {fa, fb, i, i, j, j, why, 0, 0, konst, nk, kload, &adom,
			tally, lastw, maxr, seen, vs, xb, amap, lc, nlc, &pend,
			tm, &up, nseg, 0, &later, wx};
		while (g.a1 < fa->nstmt && ma[g.a1])
			g.a1++;
		/* B's segment runs over waits it adds (a wait A has next
		 * pairs with A's, but for the first one after wgmmas the
		 * segment before deferred: theirs) */
		int took = 0;
		for (;;) {
			int def = !took && vlaterpending(&later, nseg);
			while (g.b1 < fb->nstmt && mb[g.b1])
				g.b1++;
			if (g.b1 == fb->nstmt || !vextrawait(fb, tb, g.b1)
			|| (!def && g.a1 < fa->nstmt
			&& vtext(fa, &fa->stmt[g.a1])
			== vtext(fb, &fb->stmt[g.b1])))
				break;
			xb[g.b1++] = 1;
			took = 1;
		}
		astart[nseg] = g.a0, aend[nseg] = g.a1;
		bstart[nseg] = g.b0, bend[nseg] = g.b1;
		nseg++;
		if (g.a1 > g.a0 || g.b1 > g.b0)
			rc = vsegment(&g, ma);
		i = g.a1;
		j = g.b1;
		if (rc)
			break;
		if (i < fa->nstmt && j < fb->nstmt) {
			if (vtext(fa, &fa->stmt[i]) != vtext(fb, &fb->stmt[j]))
				rc = vfail(why, fa, &fa->stmt[i],
					"fixed statement '%s' changed or moved",
					vtext(fa, &fa->stmt[i]));
			amap[i] = (int32_t)j;
			i++;
			j++;
		} else if (i < fa->nstmt || j < fb->nstmt) {
			rc = vfail(why, fa, &fa->stmt[i < fa->nstmt ? i : 0],
				"%s", "the bodies end differently");
		}
	}
	Closed cl = {UINT32_MAX, 0, 0};
	for (uint32_t k = 0; k < up.n && !rc; k++) {
		Cand *c = &up.v[k];
		if (c->a < 0 && c->soft)
			continue;
		if (c->a < 0)
			rc = vfail(why, fb, &fb->stmt[c->b], "'%s' appears in the "
				"rewrite before a fixed statement but not in the "
				"original", c->t);
		else
			rc = vhoisted(fa, fb, c, aend, astart, bend, &cl, tm, why);
	}
	for (uint32_t k = 0; k < later.n && !rc; k++)
		if (later.v[k].b < 0)
			rc = vfail(why, fa, &fa->stmt[later.v[k].a], "'%s' is "
				"missing here and from the next segment",
				later.v[k].t);
	free(later.v);
	free(wx);
	if (!rc && pend.n)
		rc = vloopvalues(fa, fb, amap, writes, &pend, why);
	free(pend.v);
	for (uint32_t k = 0; k < up.n; k++) {
		free(up.v[k].x.def);
		free(up.v[k].x.use);
	}
	free(up.v);
	free(astart);
	free(tm);
	free(lc);
	free(writes);
	free(amap);
	free(ma);
	free(mb);
	free(tb);
	free(xb);
	free(tally);
	free(lastw);
	free(maxr);
	free(seen);
	free(vs);
	domfree(adom);
	free(kload);
	free(konst);
	vscoped[0].f = vscoped[1].f = 0;
	free(sca);
	free(scb);
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
budgets(Func *fa, Func *fb, Str **saved, Buf *why)
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
	if (changed && budgetfit(fb, 0, why)) {
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
		if (!fa->body)
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
		 * part A's group holds, else the whole of B's */
		size_t mark = why->n;
		Func *fs = unsink(b, fa, fb, why, 0);
		if (!fs)
			return -1;
		int rc = budgets(fa, fs, &saved, why) < 0 ? -1
			: body(fa, fs, why);
		unbudget(fa, saved);
		saved = 0;
		if (rc && fs != fb) {
			Buf w = {0};
			Func *fw = unsink(b, fa, fb, &w, 1);
			if (fw && fw != fs && budgets(fa, fw, &saved, &w) >= 0
			&& !body(fa, fw, &w)) {
				rc = 0;         /* the first try's reasons go */
				why->n = mark;
				if (why->p)
					why->p[mark] = 0;
			}
			unbudget(fa, saved);
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
