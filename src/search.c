/* search.c: the search that lets ptxas judge.  The variants of a
 * search (pipelines most likely first, then seeded perturbations), one
 * parse for all of them, ptxas on each in parallel, a refining round
 * around each kernel's pick, and --time's candidates run on the GPU. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "all.h"
#include "verify.h"
#include "opt.h"

/* ---- text out ---- */

/* Emits m, fixed up for ptxas (NULs stripped, .version clamped). */
static char *
forptxas(Module *m, int maj, int min, size_t *n)
{
	Buf b = {0};
	int changed;

	emitlossless(&b, m);
	char *t = ptxfixup(b.p ? b.p : "", b.n, maj, min, n, &changed);
	free(b.p);
	return t;
}

int
writetmp(const char *path, const char *t, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	fwrite(t, 1, n, f);
	return fclose(f);
}

/* Whether one of the first n variants is pipeline t. */
static int
listed(const Pipe *v, int n, const char *t)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].text, t))
			return 1;
	return 0;
}

/* The search's fixed variants.  Most likely first: a short search must
 * reach them (the winners over the corpus, bench/RESULTS.md: remat
 * with a scheduler most often, then none) */
static const char *const vbase[] = {
	"none", "remat,sched=bu", "remat,sched=td",
	"remat=loop,sched=bu", "remat=loop", "sched=bu", "sched=td",
	"remat", "sink",
	"sched=bu,sink", "sched=td,sink", "remat=loop,sched=td",
	"remat,sched=bu,sink", "softmax=4", "softmax=2", "softmax=8",
	"softmax=4,sink",
};

/* warp-specialized kernels (setmaxnreg): the role-aware
 * variants come early, so a short search reaches them (FA4's
 * kernels close with budget or remat=roles) */
static const char *const vearly[] = {"budget", "remat=roles",
	"remat=bcast,sched=bu"};       /* the last: shfls */

/* kernels with wgmma groups: the same early, with wgwait,
 * and with the group of two m64 tiles split (wgsplit).  The
 * split first: of two orders ptxas takes alike (ties go to
 * the earlier variant), the H200 ran the split one 11-15 %
 * faster on Triton's causal d128_n64 kernels, 1-3 % slower
 * on the full ones (bench/RESULTS.md, ninth session) */
static const char *const vwg[] = {
	"wgsplit,wgwait,remat,sched=td", "wgwait,remat,sched=td",
	"wgwait,remat,sched=bu",
	"wgsplit=pv,wgwait,remat,sched=bu", "wgsplit=pv,wgwait"};

/* tensor memory (tcgen05.ld): S loaded after V's copy, and P
 * packed before the wait loop (Triton's Blackwell softmax);
 * and the plain top-down scheduler, which the drop-in's 8
 * tries had not reached: over the 36 sm_100a kernels of the
 * corpus and both Triton releases' held-out sets, 960 -> 702
 * bytes at 8 tries, none worse, in the place of softmax=8,
 * which never won there (twenty-eighth session,
 * bench/RESULTS.md); that one comes after the plain list */
static const char *const vtm[] = {
	"remat,sched=bu,softmax=4,tsink,hoist",
	"remat=loop,sched=bu,tsink,hoist", "sched=td"};

/* and with the packed P pinned before the wait loop, after
 * the early variants (a short search reaches those first);
 * the second with loop values recomputed too: on Triton
 * 3.6's misaligned causal d128_n128 kernel 320 bytes where
 * softmax=8 in its place had left 712, and the softmax=8 one
 * had never won by more than 4 bytes (twenty-third session,
 * bench/RESULTS.md) */
static const char *const vtmpin[] = {
	"remat,sched=bu,softmax=2,tsink,hoist,pin=cvt",
	"remat=loop,sched=bu,softmax=2,tsink,hoist,pin=cvt"};

/* a sum Triton takes an iteration late (early): first with
 * the peeled iteration's sum pinned where it is computed and
 * O's load after P's store (the drop-in's 8 tries reach one
 * of these only: that one took Triton 3.9's Blackwell
 * kernels to 0), then with the tcgen05 pair and the plain
 * schedulers */
static const char *const vea[] = {
	"early,pin,remat=loop,sched=bu,tsink,hoist,tsink=far",
	"early,remat=loop,sched=bu,tsink,hoist",
	"early,remat,sched=bu,hoist", "early,remat=loop,sched=bu",
	"early,remat=loop,sched=bu,tsink,hoist,tsink=far"};

/* P's converts read before a run of global loads (V's,
 * element by element; sm_80 and sm_120a tiles, misaligned
 * sm_90a ones): the first early, before the wgmma variants
 * (behind them the drop-in's 8 tries never reached it: 680
 * bytes for 120 on a misaligned sm_90a kernel, sixteenth
 * session), but for tensor-memory kernels, whose own
 * variants come first (there remat=loop alone does as
 * well); the rest after the plain ones */
static const char *const vld[] = {
	"remat=loop,pin=ld", "remat=loop,softmax=4,pin=ld"};

/* a block whose many loads and stores take their addresses from one
 * register live into it: that register pinned at the block's top, so
 * ptxas cannot hoist the address math into the blocks before (CUTLASS's
 * Blackwell FMHA: 2,220 of 9,428 bytes, bench/RESULTS.md, thirty-first
 * session); right after the warp-role variants, alone, and late after
 * remat and a scheduler */
static const char *const vst[] = {"pin=st", "remat,sched=bu,pin=st"};

/* from one register the block computes: the address math below the
 * arrive first (remat=loop), then that register pinned; with the
 * tensor-memory pair between, as the persistent CUTLASS kernels pick
 * without the pin (example 77's 23 spilling kernels: 2,048 -> 176
 * bytes, 8 -> 19 at zero, bench/RESULTS.md, thirty-second session).
 * In a warp-specialized kernel after the wgmma and tensor-memory
 * variants (CUTLASS's 12 tries reach both, and Hopper's backward
 * kernels keep their wgmma picks), elsewhere late (it never won
 * outside CUTLASS's correction warps) */
static const char *const vbp[] = {
	"remat=loop,sched=bu,tsink,hoist,pin=base", "remat=loop,pin=base"};

/* where the file has setmaxnreg, after the plain list */
static const char *const vbud[] = {
	"budget,sched=td", "budget,softmax=4", "budget=16", "budget:1",
};

/* then seeded perturbations: noisy schedulers of several strengths,
 * and a strategy drawn per region */
static const char *const vrnd[] = {
	"sched=td-rand", "sched=bu-rand", "mix", "sched=td-rand,sink",
};
static const double vnoise[] = {1, 2, 4, 0.5, 8};

/* Appends pipelines t[0..nt) to v[0..n) while there is room; returns
 * the new count. */
static int
add(Optreq *o, Pipe *v, int n, int max, const char *const *t, size_t nt)
{
	for (size_t j = 0; j < nt && n < max; j++)
		pipeparse(t[j], o->seed, &v[n++]);
	return n;
}

/* What the input holds for a family of variants (*f), found when the
 * search first asks: a short search that never reaches those variants
 * does without the finding (earlyfinds, dupfinds, ldfinds and stfinds
 * were 11 % of opt's own work on CUTLASS 77's file at --tries 4, which
 * reaches none of them). */
static int
found(Optreq *o, int *f, int (*find)(Module *))
{
	if (*f < 0)
		*f = find(o->input);
	return *f;
}

/* What the kernel's own constructs call for, after vbase[2]. */
static int
kernelwise(Optreq *o, Pipe *v, int n, int max)
{
	static const char *const xs[] = {"xspill", "xspill=all"};

	if (o->budgets)
		n = add(o, v, n, max, vearly, countof(vearly) - !o->bcast);
	if (n < max && found(o, &o->stbase, stfinds))
		n = add(o, v, n, max, vst, 1);
	if (n < max && !o->tmem && found(o, &o->ldcvt, ldfinds))
		n = add(o, v, n, max, vld, 1);
	if (o->xspill)
		n = add(o, v, n, max, xs + (o->xspill == 2), 1);
	if (o->wgmma)
		n = add(o, v, n, max, vwg, countof(vwg));
	if (o->tmem)
		n = add(o, v, n, max, vtm, countof(vtm));
	if (n < max && o->maxnreg && found(o, &o->defbase, basefinds))
		n = add(o, v, n, max, vbp, countof(vbp));
	if (n < max && found(o, &o->early, earlyfinds))
		n = add(o, v, n, max, vea, countof(vea));
	if (o->tmem)
		n = add(o, v, n, max, vtmpin, countof(vtmpin));
	return n;
}

/* The fixed variants, the input first. */
static int
fixed(Optreq *o, Pipe *v, int max)
{
	static const char *const s8[] = {
		"remat,sched=bu,softmax=8,tsink,hoist"};
	int n = 0;

	for (size_t i = 0; i < countof(vbase) && n < max; i++) {
		if (listed(v, n, vbase[i]))
			continue;       /* tm's sched=td */
		pipeparse(vbase[i], o->seed, &v[n++]);
		if (i == 2)
			n = kernelwise(o, v, n, max);
	}
	if (n < max && found(o, &o->ldcvt, ldfinds))
		n = add(o, v, n, max, vld + !o->tmem, countof(vld) - !o->tmem);
	if (o->tmem)
		n = add(o, v, n, max, s8, 1);
	if (n < max && found(o, &o->stbase, stfinds))
		n = add(o, v, n, max, vst + 1, 1);
	if (n < max && !o->maxnreg && found(o, &o->defbase, basefinds))
		n = add(o, v, n, max, vbp, countof(vbp));
	if (o->budgets)
		n = add(o, v, n, max, vbud, countof(vbud));
	return n;
}

/* The variants a search tries, in order; the first is the input. */
static int
variants(Optreq *o, Pipe *v, int max)
{
	int n = 0;

	if (o->pipe) {
		pipeparse("none", o->seed, &v[n++]);
		if (pipeparse(o->pipe, o->seed, &v[n]))
			return -1;
		n++;
	} else
		n = fixed(o, v, max);
	for (uint64_t k = 0; n < max; k++) {
		if (pipeparse(vrnd[k % countof(vrnd)], o->seed * 1000003u + k,
			&v[n]))
			return -1;
		for (int i = 0; i < v[n].n; i++)
			if (v[n].p[i].s.noise > 0)
				v[n].p[i].s.noise = vnoise[(k / 4) % 5];
		snprintf(v[n].text + strlen(v[n].text),
			sizeof v[n].text - strlen(v[n].text), "@%llu",
			(unsigned long long)(o->seed * 1000003u + k));
		n++;
	}
	return n;
}

/* ---- the input's parse, shared by the variants ----
 * The schedulers, remat and wgwait only permute a function's statement
 * array or build a new one: each variant starts from a module of its
 * own (Module, items, functions) whose statement arrays are copies of
 * the input's, and shares the rest (operands, modifiers, declarations)
 * with the input's parse, which the validator reads later.  That parse
 * must come out of the variants as it went in: opt checks it
 * (sharedok) and, where a pass wrote into it, searches again on parses
 * of its own (o->noshare).  moves changes operands in place, and early
 * and pin bind the registers again, so their variants parse afresh
 * (budget writes its counts into operands of its own).
 * PTXPRESS_SNAPCHECK (tests/optcorpus.sh sets it) parses afresh too and
 * compares, and dies where the input's parse changed.
 * Sharing saves a parse of the input and its memory (62 MB fresh on
 * CUTLASS's 11.5 MB file, thirty-eighth session). */
static Module *
shallow(const Module *orig)
{
	Arena *a = anew();
	Module *m = alloc(a, sizeof *m);

	*m = *orig;
	m->a = a;
	m->item = alloc(a, (orig->nitem + 1) * sizeof *m->item);
	memcpy(m->item, orig->item, orig->nitem * sizeof *m->item);
	for (uint32_t i = 0; i < m->nitem; i++) {
		if (m->item[i].kind != Ifunc)
			continue;
		Func *f = alloc(a, sizeof *f);
		*f = *orig->item[i].fn;
		f->ana = 0;
		m->item[i].fn = f;
	}
	return m;
}

/* m's statement arrays as orig's, copied into m's arena. */
static void
restore(Module *m, const Module *orig)
{
	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].fn;
		const Func *g = orig->item[i].fn;
		if (m->item[i].kind != Ifunc || !g->body)
			continue;
		f->stmt = alloc(m->a, (g->nstmt + 1) * sizeof *f->stmt);
		memcpy(f->stmt, g->stmt, g->nstmt * sizeof *f->stmt);
		f->nstmt = g->nstmt;
		f->dirty = g->dirty;
		m->item[i].dirty = orig->item[i].dirty;
	}
}

/* A module of its own, sharing orig's operands, for pipelines that
 * only reorder and insert (opt's assembly of the picks). */
Module *
sharedcopy(const Module *orig)
{
	Module *m = shallow(orig);

	restore(m, orig);
	return m;
}

/* Does a pipeline change statements in place (needs its own parse)?
 * budget does not: it writes its counts into operands of its own
 * (setcount). */
int
inplace(const Pipe *p)
{
	for (int k = 0; k < p->n; k++)
		if (p->p[k].moves || p->p[k].across == 3
		|| p->p[k].across >= 5)
			return 1;
	return 0;
}

static void
snapcheck(Optreq *o, const char *src, size_t n, Pipe *p, const char *t,
	size_t tn, int maj, int min)
{
	Diag d = {0};
	size_t fn;
	Module *m = parse(o->in, src, n, &d);

	runpipe(m, p, &o->sc, 0);
	char *f = forptxas(m, maj, min, &fn);
	if (fn != tn || memcmp(f, t, tn))
		die("search: variant %s differs from a fresh parse's",
			p->text);
	free(f);
	afree(m->a);
}

/* Variant i of src rewritten by its passes, written for ptxas. */
static void
runone(Optreq *o, const char *src, size_t n, Module *m, const Pipe *v,
	int i, Var *var, const char *dir, int maj, int min, int check)
{
	size_t tn;

	runpipe(m, (Pipe *)&v[i], &o->sc, 0);
	var[i].nxb = 0;
	for (uint32_t q = 0; q < m->nitem && var[i].nxb < 4; q++) {
		Func *f = m->item[q].kind == Ifunc ? m->item[q].fn : 0;
		long b = f && f->body ? xspillbytes(f) : 0;
		if (b > 0)
			var[i].xb[var[i].nxb].fn = f->name,
			var[i].xb[var[i].nxb++].bytes = b;
	}
	char *t = forptxas(m, maj, min, &tn);
	if (check)
		snapcheck(o, src, n, (Pipe *)&v[i], t, tn, maj, min);
	var[i].pipe = v[i];
	snprintf(var[i].path, sizeof var[i].path, "%s/v%d.ptx", dir, i);
	writetmp(var[i].path, t, tn);
	free(t);
}

/* runone() on a parse of its own. */
static void
afresh(Optreq *o, const char *src, size_t n, const Pipe *v, int i,
	Var *var, const char *dir, int maj, int min)
{
	Diag d = {0};
	Module *m = parse(o->in, src, n, &d);

	runone(o, src, n, m, v, i, var, dir, maj, min, 0);
	afree(m->a);
}

/* Did the variants (at "search") or the picks (at "assemble", opt.c)
 * leave the input's parse as it was (sum: asum of it before them)?
 * PTXPRESS_TOUCHSHARED (tests only) writes into it, as a pass that
 * changed a shared operand would: at the assembly where its value is
 * "assemble", else in the search. */
int
sharedok(Module *orig, uint64_t sum, const char *at)
{
	const char *t = getenv("PTXPRESS_TOUCHSHARED");

	if (t && !strcmp(at, strcmp(t, "assemble") ? "search" : "assemble"))
		for (uint32_t i = 0; i < orig->nitem; i++) {
			Func *f = orig->item[i].fn;
			if (orig->item[i].kind == Ifunc && f->nstmt) {
				f->stmt[0].pos.col ^= 1;
				break;
			}
		}
	return asum(orig->a) == sum;
}

/* Writes variants v[i0..i1) of src for ptxas into dir and runs ptxas
 * on them (var[i].res).  The variants whose passes only reorder and
 * insert statements share the input's parse orig (see shallow): what
 * the one before allocated is given back (arelease), so that the
 * variants reuse memory instead of each making fresh pages.  The
 * variants that change statements in place parse afresh, after the
 * others' memory is freed (with --explain, in their order, so that what
 * it says stays in the variants' order).  Returns -1, having run no
 * ptxas, when orig did not come out as it went in. */
static int
runround(Optreq *o, const char *src, size_t n, Module *orig, const Pipe *v,
	int i0, int i1, Var *var, const char *dir, const char *ptxas,
	int maj, int min)
{
	int check = getenv("PTXPRESS_SNAPCHECK") != 0;
	int late = !o->sc.explain;      /* in-place variants after the rest */
	int share = 0;

	for (int i = i0; !o->noshare && !share && i < i1; i++)
		share = !inplace(&v[i]);        /* else nothing to share */
	uint64_t sum = share ? asum(orig->a) : 0;
	Module *base = share ? shallow(orig) : 0;
	Amark mk = base ? amark(base->a) : (Amark){0};

	for (int i = i0; i < i1; i++)
		if (base && !inplace(&v[i])) {
			arelease(base->a, &mk);
			restore(base, orig);
			runone(o, src, n, base, v, i, var, dir, maj, min, check);
		} else if (!base || !late)
			afresh(o, src, n, v, i, var, dir, maj, min);
	if (base)
		afree(base->a);
	for (int i = i0; base && late && i < i1; i++)
		if (inplace(&v[i]))
			afresh(o, src, n, v, i, var, dir, maj, min);
	if (base && !sharedok(orig, sum, "search"))
		return -1;
	Pool pool = {var + i0, i1 - i0, 0, ptxas, o->arch, o->args,
		o->nvdisasm, 0, PTHREAD_MUTEX_INITIALIZER};
	runall(&pool, o->jobs);
	return 0;
}

/* --sass-guard: nvdisasm, in parallel, on the cubins of the variants
 * of var[i0..i1) that the ranking asks loopier() of, and on the
 * input's.  Those are the ones worth taking over the input for some
 * kernel, and, for a kernel some variant of which ptxas serializes,
 * the unserialized ones (the alternative rankall names); --variants
 * shows them all.  A variant the guard has nothing to refuse is not
 * disassembled: on a kernel that does not spill, none is, where
 * disassembling every one added a quarter to ptxas's time (fourteenth
 * session). */
static void
sassround(Optreq *o, Module *orig, Var *var, int i0, int i1)
{
	int want = 0;

	for (uint32_t i = 0; i < orig->nitem; i++) {
		Func *f = orig->item[i].fn;
		int serial = 0;
		if (orig->item[i].kind != Ifunc || !f->body
		|| (o->sc.kernel && strcmp(f->name, o->sc.kernel)))
			continue;
		Fig b = figure(&var[0], f->name);
		for (int j = 0; j < i1; j++)
			serial |= figure(&var[j], f->name).serial;
		for (int j = i0 > 1 ? i0 : 1; j < i1; j++) {
			Fig g = figure(&var[j], f->name);
			if (!var[j].sass && (o->variants || worth(o, g, b)
			|| (serial && g.ok && !g.serial)))
				var[j].sass = want = 1;
		}
	}
	if (!want)
		return;
	if (!var[0].sass)
		var[0].sass = 1;
	Pool pool = {var, i1, 0, 0, o->arch, o->args, o->nvdisasm, 1,
		PTHREAD_MUTEX_INITIALIZER};
	runall(&pool, o->jobs);
}

/* Pick p with the pass word w after it, its seed's suffix (@N) kept
 * last, into *out (parent 0).  Returns 0, or -1 where it does not fit
 * or w does not parse. */
int
withpass(const Optreq *o, const Pipe *p, const char *w, Pipe *out)
{
	const char *at = strchr(p->text, '@');
	int len = at ? (int)(at - p->text) : (int)strlen(p->text);
	char text[512];
	Pipe sm;

	if (p->n == Maxpass || pipeparse(w, o->seed, &sm))
		return -1;
	snprintf(text, sizeof text, "%.*s,%s%s", len, p->text, sm.text,
		at ? at : "");
	if (strlen(text) >= sizeof out->text)
		return -1;
	*out = *p;
	out->p[out->n++] = sm.p[0];
	out->parent = 0;
	out->from = 0;
	if (strlen(w) >= sizeof out->add)
		return -1;
	memcpy(out->add, w, strlen(w) + 1);
	memcpy(out->text, text, strlen(text) + 1);
	return 0;
}

/* With a refining round, each pick that still spills somewhere (not
 * those kept for a stack frame alone: CUTLASS's kernels all keep 16-24
 * bytes of their own local arrays, and 16 variants had not reached K =
 * 3 of the one pick that needed it) with pin=dup:K after it, K from 1
 * to the most loops of a function with such pins (o->dup), Dupk at
 * most, K first (so every pick gets its first loop), Dupmax in all:
 * ptxas answers a pin of the phase bits and cluster addresses in one
 * loop alone, and none elsewhere, with 0 bytes where all of them at
 * once leave more (example 77's varlen persistent kernels: 44 bytes
 * each, 0 with the correction loop's three pins, 108-204 with all of
 * pin=dup's, bench/RESULTS.md, thirty-third session).  Writes into v,
 * max at most; returns how many. */
enum { Dupk = 5, Dupmax = 16 };

static int
dupvariants(Optreq *o, const Pipe *all, const Pipe *const *from, int nf,
	Pipe *v, int max)
{
	int n = 0, dup = found(o, &o->dup, dupfinds);

	for (int K = 1; K <= dup && K <= Dupk; K++)
		for (int i = 0; i < nf && n < max && n < Dupmax; i++) {
			char w[16];
			snprintf(w, sizeof w, "pin=dup:%d", K);
			if (!strstr(from[i]->text, "pin=dup")
			&& !withpass(o, from[i], w, &v[n]))
				v[n++].from = (int)(from[i] - all) + 1;
		}
	return n;
}

/* The refining round: ptxas's answer is two-state and far from smooth
 * (issue 4's first measurement), so next to the best variant of a
 * kernel that still spills lie better ones that no fixed heuristic
 * names.  For each such pick, perturbations of it: its pipeline with a
 * seeded strategy per region after it (mix), and with its schedulers
 * made noisy (sched=X -> sched=X-rand).  On the corpus's sm_120a Triton
 * kernel, remat=loop,sched=td gave 1244 bytes of spill and its
 * perturbations down to 1148 (bench/RESULTS.md).  Writes per distinct
 * pick `per` pipelines into v, Maxvar in all at most; returns how
 * many.  Then, past those, each pick without the softmax pass with it
 * after (F = 4 and 2): on Triton 3.6's sm_90a FMHA, remat=loop gave
 * 384 bytes and remat=loop,softmax=4 304 (bench/heldout.sh); and where
 * the file has tcgen05.ld, each pick with tsink=far after it (Triton
 * 3.6's sm_100a d128_n128: 652 bytes, then 112), and, with
 * --sass-guard, each pick with remat in it with pin=loop and with
 * pin=loopall after it (the corpus's sm_120a d128_n64:
 * remat=loop,pin=ld 220 bytes, then 88 and 48). */
static int
refinements(Optreq *o, const Kern *k, int nk, const Pipe *all, Pipe *v,
	int per)
{
	const Pipe *from[64], *spilt[64];
	int nf = 0, ns = 0, n = 0, max;

	for (int i = 0; i < nk && nf < 64; i++) {
		int dup = 0, sdup = 0;
		if (!k[i].best || (k[i].after.spill == 0 && k[i].after.stack == 0))
			continue;
		for (int j = 0; j < nf; j++)
			dup |= from[j] == &all[k[i].best];
		for (int j = 0; j < ns; j++)
			sdup |= spilt[j] == &all[k[i].best];
		if (!dup)
			from[nf++] = &all[k[i].best];
		if (!sdup && k[i].after.spill > 0)
			spilt[ns++] = &all[k[i].best];
	}
	max = per * nf > Maxvar ? Maxvar : per * nf;
	for (int r = 0; nf && n < max && r < 4 * max; r++) {
		const Pipe *p = from[r % nf];
		char text[384], base[384];
		/* the seed's suffix (@N) of a perturbed pick is no pass */
		snprintf(base, sizeof base, "%s", p->text);
		base[strcspn(base, "@")] = 0;
		/* the j-th perturbation of a pick takes its seed from the
		 * pick's text and j, not from its place among the picks: a
		 * new pick of another kernel (or --kernel) left the others'
		 * seeds alone only by luck (thirty-fourth session: example
		 * 88's #6 and #32 drew other seeds, 24 -> 44, 80 -> 104) */
		uint64_t seed = o->seed * 1000003u + 500000u
			+ (uint64_t)(strhash(base, strlen(base)) % 1951u) * 512u
			+ (uint64_t)(r / nf);
		if ((r / nf) % 2 == 0)
			snprintf(text, sizeof text, "%s,mix", base);
		else {
			char *b = strstr(base, "sched=bu"), *t = strstr(base,
				"sched=td"), *at = b ? b : t;
			if (!at || !strncmp(at + 8, "-rand", 5))
				snprintf(text, sizeof text, "%s,mix", base);
			else
				snprintf(text, sizeof text, "%.*s-rand%s",
					(int)(at - base + 8), base, at + 8);
		}
		if (strlen(text) + 24 > sizeof v[n].text
		|| pipeparse(text, seed, &v[n]))
			continue;
		snprintf(v[n].text + strlen(v[n].text),
			sizeof v[n].text - strlen(v[n].text), "@%llu",
			(unsigned long long)seed);
		v[n++].from = (int)(p - all) + 1;
	}
	for (int i = 0; i < 5 * nf && n < Maxvar; i++) {
		const Pipe *p = from[i / 5];
		/* the pick exactly (a seeded one's noise is set apart from
		 * its text), then the softmax pass; with tensor memory, the
		 * pick then tsink=far (O's load after P's store); with
		 * --sass-guard, a pick that rematerializes, then pin=loop
		 * and pin=loopall: they trade spills for work in the loop (the
		 * address math on %tid), which only the guard sees, and it
		 * takes them only where their loops hold no more work than
		 * the pick's (rankall).  On the H200, pin=loopall's
		 * spill-free picks of four held-out sm_90a kernels ran at
		 * 0.63-1.03 of the input's time, the picks without it (40-68
		 * bytes of spill) at 0.49-0.71, pin=loop's (spill-free too)
		 * at 0.48-0.70 (bench/RESULTS.md, fifteenth session).
		 * Those two come with --refine 0 too (the drop-in's
		 * default), the others only with a refining round: the
		 * guard judges what it is given, and without them the
		 * drop-in tried neither (sixteenth session) */
		static const char *const adds[] = {"softmax=4", "softmax=2",
			"tsink=far", "pin=loop", "pin=loopall"};
		const char *add = adds[i % 5];
		if (i % 5 >= 3 ? !o->nvdisasm || !strstr(p->text, "remat")
			|| strstr(p->text, "pin=loop")
		: !per ? 1
		: i % 5 == 2 ? !o->tmem || strstr(p->text, "tsink=far")
		: strstr(p->text, "softmax") != 0)
			continue;
		if (withpass(o, p, add, &v[n]))
			continue;
		v[n].parent = i % 5 >= 3 ? (int)(p - all) : 0;
		v[n++].from = (int)(p - all) + 1;
	}
	return n + (per ? dupvariants(o, all, spilt, ns, v + n, Maxvar - n)
		: 0);
}

/* Keeps in t[0..2) the two best variants by better(), t[] holding
 * variant indices (0: empty). */
static void
top2(Optreq *o, Var *var, Str kname, int *t, int j)
{
	Fig g = figure(&var[j], kname);

	for (int a = 0; a < 2; a++) {
		if (t[a] && !better(g, figure(&var[t[a]], kname), o->unserial))
			continue;
		if (a == 0)
			t[1] = t[0];
		t[a] = j;
		return;
	}
}

/* The combining round: ptxas answers two changes that each help a
 * pick no better, and often worse, than either alone, but not always:
 * for each kernel that still spills after the refining round, the two
 * best perturbations of its first-round pick (first[i]) each with the
 * two best pass words added after that pick, where each of those four
 * spills less than the pick.  Example 77's persistent varlen kernel
 * with its head dimension split: 64 bytes with the pick, 44 with a
 * seeded mix, 20 with pin=dup:3 after the pick, 0 with both
 * (bench/RESULTS.md, thirty-fourth session).  Variants var[nv0..nv)
 * are the refining round's; writes into v, max at most, Cmax in all;
 * returns how many. */
enum { Cmax = 16 };

static int
combos(Optreq *o, const Kern *k, int nk, const int *first, Var *var,
	int nv0, int nv, Pipe *v, int max)
{
	int n = 0;

	for (int i = 0; i < nk; i++) {
		int pt[2] = {0, 0}, ad[2] = {0, 0};
		if (!first[i] || k[i].after.spill == 0)
			continue;
		Fig fb = figure(&var[first[i]], k[i].name);
		for (int j = nv0; j < nv; j++) {
			Fig g = figure(&var[j], k[i].name);
			if (var[j].pipe.from == first[i] + 1 && g.ok
			&& g.spill < fb.spill)
				top2(o, var, k[i].name, var[j].pipe.add[0] ? ad
					: pt, j);
		}
		for (int a = 0; a < 2 && pt[a]; a++)
			for (int b = 0; b < 2 && ad[b] && n < max && n < Cmax;
			b++) {
				const Pipe *q = &var[pt[a]].pipe;
				int seen = 0;
				if (withpass(o, q, var[ad[b]].pipe.add, &v[n]))
					continue;
				for (int c = 0; c < n; c++)
					seen |= !strcmp(v[c].text, v[n].text);
				if (seen)
					continue;
				/* pin=loop(all) is judged against what it
				 * extends (rankall) */
				v[n].parent = var[ad[b]].pipe.parent ? pt[a] : 0;
				n++;
			}
	}
	return n;
}

/* --time: the kernel the launch names, its candidates (the variants
 * that spill less than the input, best first by ptxas's figures, at
 * most Maxtimed of them; where ptxas serializes the input's wgmmas,
 * first the best two variants whose wgmmas it does not, whatever they
 * spill: on the H200 that is what made Triton's d128_n128 faster; and
 * the xspill=all variant, see below), each assembled, proven and run
 * against the input on the GPU; the fastest bit-identical one stays if
 * it is at least 1 % faster, else the input does. */
enum { Maxtimed = 4 };

/* The variant, assembled, that keeps this kernel's accumulators in
 * xspill=all's array, or 0.  It is offered under --time alone and always timed:
 * ptxas's figures rank it last (the array counts as spill), and on
 * the H200 (twenty-seventh session) it ran 24-54 % slower on three
 * serialized kernels below the floor and 7 % faster on the fourth,
 * where the drop-in's pick ran 4.5 % slower than the input. */
static int
allxspill(Var *var, int nv, Str kname)
{
	for (int j = 1; j < nv; j++)
		for (int k = 0; k < var[j].pipe.n; k++)
			if (var[j].pipe.p[k].xspill == 2) {
				Fig g = figure(&var[j], kname);
				return g.ok && g.xb > 0 ? j : 0;
			}
	return 0;
}

static void
timed(Optreq *o, const char *src, size_t n, Module *orig, Kern *k, int nk,
	Var *var, int nv)
{
	char *kname = launchkernel(o->timel), why[512];
	Kern *x = 0;
	int cand[Maxtimed + 1], nc = 0;

	for (int i = 0; i < nk && kname; i++)
		if (!strcmp(k[i].name, kname))
			x = &k[i];
	if (!x) {
		if (o->log)
			fprintf(o->log, "%s: --time: no kernel '%s' here\n",
				progname, kname ? kname : "?");
		free(kname);
		return;
	}
	/* candidates: less spill than the input, best first */
	uint8_t *taken = calloc((size_t)nv, 1);
	int unasked = x->before.serial ? 2 : 0;
	int xa = allxspill(var, nv, x->name);
	if (xa)
		taken[xa] = 1;  /* timed last, whatever its rank */
	while (nc < Maxtimed) {
		int b = -1, un = unasked;
		Fig bf = {0};
		for (int j = 1; j < nv; j++) {
			Fig g = figure(&var[j], x->name);
			if (!taken[j] && g.ok && (un ? !g.serial
			: g.spill < x->before.spill)
			&& (b < 0 || better(g, bf, 0)))
				b = j, bf = g;
		}
		if (un)
			unasked = b < 0 ? 0 : unasked - 1;
		if (b < 0 && un)
			continue;       /* none left: by figures alone */
		if (b < 0)
			break;
		taken[b] = 1;
		cand[nc++] = b;
	}
	if (xa)
		cand[nc++] = xa;
	free(taken);
	double bestr = 1;
	int best = 0, skipped = 0;
	for (int c = 0; c < nc && !skipped; c++) {
		Diag d = {0};
		Buf text = {0};
		Module *m = parse(o->in, src, n, &d);
		runpipe(m, &var[cand[c]].pipe, &o->sc, x->name);
		double r = 1;
		int rc = proven(o, orig, m, &text) ? -1
			: vpair(o->timel, src, text.p ? text.p : "",
			o->truns > 0 ? o->truns : 20, 5, &r, why, sizeof why);
		free(text.p);
		if (rc == VSkip) {
			skipped = 1;
			if (o->log)
				fprintf(o->log, "%s: --time: no CUDA device "
					"(%s); ptxas's figures decide\n",
					progname, why);
			break;
		}
		if (o->log)
			fprintf(o->log, "%s: --time: %s: %s: %s, NEW/ORIG "
				"%.4f\n", progname, x->name,
				var[cand[c]].pipe.text, rc == 0
				? "bit-identical" : rc < 0 ? "not proven"
				: "FAILED", r);
		if (rc == 0 && r < bestr)
			bestr = r, best = cand[c];
	}
	if (!skipped && nc) {
		if (bestr > 0.99)
			best = 0;
		x->best = best;
		x->after = figure(&var[best], x->name);
		if (o->log)
			fprintf(o->log, "%s: --time: %s: keeping %s\n",
				progname, x->name, best ? var[best].pipe.text
				: "the input (no candidate 1 % faster)");
	}
	free(kname);
}

/* The variants' files, cubins and results var[0..nv) gone, with what
 * the search held. */
static void
discard(Optreq *o, Var *var, int nv, const char *dir, char *ptxas, char *nd)
{
	for (int i = 0; i < nv; i++)
		varfree(nd != 0, &var[i]);
	rmdir(dir);
	free(var);
	free(ptxas);
	o->nvdisasm = 0;
	free(nd);
}

/* A variant wrote into the input's parse: the search stops, and opt
 * searches again on parses of the variants' own (o->noshare). */
static int
unshared(Optreq *o, Var *var, int nv, const char *dir, char *ptxas, char *nd,
	Kern *k)
{
	discard(o, var, nv, dir, ptxas, nd);
	free(k);
	o->noshare = 1;
	return -2;
}

/* The search: variants v[0..*nvp) (the caller's room for 2 * Maxvar),
 * assembled by ptxas and ranked per kernel into *kp.  Returns how many
 * kernels, -1 (no ptxas, no variants), or -2 when the input's parse
 * orig, which the variants share, did not come out of them as it went
 * in (o->noshare is then set, and orig is not to be trusted). */
int
search(Optreq *o, const char *src, size_t n, Module *orig, Kern **kp,
	Pipe *v, int *nvp)
{
	/* xspill=all, a candidate of --time's alone, comes on top of the
	 * tries: in their place it had pushed the last wgmma variant
	 * (wgsplit=pv,wgwait) out of an 8-try search, which on the H100
	 * ran Triton's d128_n128 at 0.855 of the input's time while
	 * --time kept the input (thirtieth session) */
	int xa = o->xspill == 2, t = o->tries < 2 ? 2 : o->tries;
	int nv = variants(o, v, (t > Maxvar - xa ? Maxvar - xa : t) + xa),
		maj, min, nk;
	char dir[] = "/tmp/ptxpress.XXXXXX";
	char *ptxas = ptxasfind(o->ptxas);
	Var *var;
	Kern *k;

	if (nv < 0 || !ptxas || ptxasisa(ptxas, &maj, &min) || !mkdtemp(dir)) {
		free(ptxas);
		return -1;
	}
	char *nd = o->sass && !o->timel ? nvdisasmfind(ptxas) : 0;
	o->nvdisasm = nd;       /* --time: the GPU judges, not the SASS */
	var = calloc(2 * Maxvar, sizeof *var);
	k = kerns(orig);
	if (runround(o, src, n, orig, v, 0, nv, var, dir, ptxas, maj, min))
		return unshared(o, var, nv, dir, ptxas, nd, k);
	if (nd)
		sassround(o, orig, var, 0, nv);
	nk = rankall(o, orig, var, nv, k);
	int rf = o->refine < 0 ? (o->tries > 0 ? o->tries / 2 : 0) : o->refine;
	int more = o->pipe ? 0 : refinements(o, k, nk, v, v + nv,
		rf > Maxvar ? Maxvar : rf);     /* per pick */
	if (more) {
		int *first = malloc((size_t)(nk ? nk : 1) * sizeof *first);
		for (int i = 0; first && i < nk; i++)
			first[i] = k[i].best;
		if (runround(o, src, n, orig, v, nv, nv + more, var, dir,
		ptxas, maj, min)) {
			free(first);
			return unshared(o, var, nv + more, dir, ptxas, nd, k);
		}
		if (nd)
			sassround(o, orig, var, nv, nv + more);
		nv += more;
		nk = rankall(o, orig, var, nv, k);
		int c = first ? combos(o, k, nk, first, var, nv - more, nv,
			v + nv, 2 * Maxvar - nv) : 0;
		free(first);
		if (c) {
			if (runround(o, src, n, orig, v, nv, nv + c, var, dir,
			ptxas, maj, min))
				return unshared(o, var, nv + c, dir, ptxas, nd,
					k);
			if (nd)
				sassround(o, orig, var, nv, nv + c);
			nv += c;
			nk = rankall(o, orig, var, nv, k);
		}
	}
	/* with a refining round, the budget round: each warp-specialized
	 * kernel that still spills, its setmaxnreg counts judged by ptxas
	 * (budround.c) */
	if (o->budgets && rf > 0 && !o->pipe) {
		int b = budgetround(o, src, n, k, nk, var, v, nv,
			2 * Maxvar - nv, dir, ptxas, maj, min, rf);
		if (b && nd)
			sassround(o, orig, var, nv, nv + b);
		nv += b;
		if (b)
			nk = rankall(o, orig, var, nv, k);
	}
	for (int i = 0; o->variants && o->log && i < nk; i++)
		listvariants(o, k[i].name, var, nv);
	if (o->timel)
		timed(o, src, n, orig, k, nk, var, nv);
	if (var[0].res.status != 0 && var[0].res.log && o->log)
		fprintf(o->log, "%s: ptxas rejects the input:\n%s", progname,
			var[0].res.log);
	discard(o, var, nv, dir, ptxas, nd);
	*kp = k;
	*nvp = nv;
	return nk;
}
