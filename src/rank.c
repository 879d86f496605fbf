/* rank.c: the search's variants judged: ptxas run on them in parallel,
 * their figures per kernel (spill bytes, stack, registers, and the SASS
 * loops' cost where --sass-guard read it), the search's order, and
 * each kernel's ranking of the variants worth taking. */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include "all.h"
#include "opt.h"

/* Where variant v's cubin is kept for nvdisasm: its path, .cubin for
 * .ptx. */
void
cubinpath(const Var *v, char *c, size_t cap)
{
	size_t n = strlen(v->path);

	snprintf(c, cap, "%.*s.cubin", (int)(n > 4 ? n - 4 : n), v->path);
}

/* Removes variant v's files (its cubin too where cubins were kept)
 * and frees ptxas's answer. */
void
varfree(int cubins, Var *v)
{
	char c[4200];

	cubinpath(v, c, sizeof c);
	unlink(v->path);
	if (cubins)
		unlink(c);
	ptxasfree(&v->res);
}

static void *
worker(void *arg)
{
	Pool *p = arg;

	for (;;) {
		pthread_mutex_lock(&p->mu);
		int i = p->next < p->n ? p->next++ : -1;
		pthread_mutex_unlock(&p->mu);
		if (i < 0)
			return 0;
		Var *v = &p->v[i];
		char c[4200];
		cubinpath(v, c, sizeof c);
		if (p->sass) {
			if (v->sass == 1 && v->res.status == 0)
				sassrun(p->nvdisasm, c, &v->res);
			if (v->sass == 1)
				v->sass = 2;
			continue;
		}
		Pxopt o = {p->ptxas, v->path, p->arch, p->nvdisasm ? c : 0,
			p->args, 0, 0};
		ptxasrun(&o, &v->res);
		v->done = 1;
	}
}

void
runall(Pool *p, int jobs)
{
	pthread_t t[64];
	int n = jobs < 1 ? 1 : jobs > 64 ? 64 : jobs;

	pthread_mutex_init(&p->mu, 0);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], 0, worker, p);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], 0);
	pthread_mutex_destroy(&p->mu);
}

Fig
figure(Var *v, const char *fn)
{
	Fig g = {0, 0, 0, 0, 0, 0, -1, -1, -1, -1, 0};
	Pxres *r = &v->res;

	for (int k = 0; k < v->pipe.n; k++)
		g.pinned |= v->pipe.p[k].across >= 5;
	if (r->status != 0)
		return g;
	for (int i = 0; i < r->nfn; i++)
		if (!strcmp(r->fn[i].name, fn)) {
			g.spill = (r->fn[i].spillst > 0 ? r->fn[i].spillst : 0)
				+ (r->fn[i].spillld > 0 ? r->fn[i].spillld : 0);
			g.stack = r->fn[i].stack > 0 ? r->fn[i].stack : 0;
			g.regs = r->fn[i].regs;
			g.serial = r->fn[i].wgserial;
			g.loop = r->fn[i].sassloop;
			g.local = r->fn[i].sasslocal;
			g.out = r->fn[i].sassout;
			g.exposed = r->fn[i].sassexposed;
			g.ok = 1;
		}
	for (int i = 0; g.ok && i < v->nxb; i++)
		if (!strcmp(v->xb[i].fn, fn)) {
			g.spill += v->xb[i].bytes;
			g.xb = v->xb[i].bytes;
		}
	return g;
}

static long sasscost(Fig);

/* The search's order: fewer spill bytes, then a smaller stack, then
 * no pins, then fewer registers, then, where --sass-guard read the
 * SASS, the cheaper loops by sasscost().  The last settles ties that
 * the search's order used to: on five of Triton 3.9's aligned sm_90a
 * kernels, wgsplit,wgwait,remat,sched=td and wgwait,remat,sched=td
 * both leave no spill at 255 registers.  Timed side by side on the
 * H200 (bench/RESULTS.md, twenty-third session), in four the one with
 * fewer instructions in its loops ran faster: 1.6, 4.6 and 6.1 % (the
 * one without wgsplit, 3 fewer), 1.1 % (the one with, 3 fewer); in the
 * fifth they held as many, the search's order stands, and its pick
 * (with wgsplit) ran 1.1 % faster.  Out of sample, the four picks of
 * 72 Triton 3.6 sm_90a kernels that the rule changes (the same two
 * pipelines, loops 1-7 instructions apart): one 1.6 % faster, three
 * 0.2-1.3 % slower.  So a few instructions do not say which is faster;
 * the rule stays because it errs by less than the order it replaces
 * (wrong on four of the nine pairs, by 1.6-6.1 %).
 * unserial (--unserialized) puts first whether ptxas serializes the
 * kernel's wgmmas (its C7510-C7519 notes): on the H200 Triton's
 * d128_n128 ran 5.5 % slower spill-free and serialized, and 14 %
 * faster at 184 bytes of spill unserialized.  Pins cost a shuffle each
 * and hold ptxas's order: on the H200 a pinned kernel that spilled no
 * less than an unpinned one ran 26 % slower than it (bench/RESULTS.md,
 * thirteenth session). */
int
better(Fig a, Fig b, int unserial)
{
	if (!b.ok)
		return a.ok;
	if (!a.ok)
		return 0;
	if (unserial && a.serial != b.serial)
		return !a.serial;
	if (a.spill != b.spill)
		return a.spill < b.spill;
	if (a.stack != b.stack)
		return a.stack < b.stack;
	if (a.pinned != b.pinned)
		return !a.pinned;
	if (a.regs != b.regs)
		return a.regs < b.regs;
	return a.loop >= 0 && b.loop >= 0 && sasscost(a) < sasscost(b);
}

/* --sass-guard: the SASS of g costs more than b's by more than 2 %,
 * the cost being the instructions in the kernel's loops, a
 * local-memory access there counted as 16, plus the local-memory
 * accesses outside loops, each as one.  A search by spill bytes alone
 * does not see where the spill runs, nor what a rewrite adds to a
 * loop.  The loop terms were chosen on 27 rewrites of 18 Triton sm_90a
 * kernels timed on the H200 (thirteenth and fourteenth sessions,
 * bench/RESULTS.md).  Without the last term the guard kept the input
 * of kernels whose spills all lie outside the loops (1348-1856 bytes)
 * where a spill-free pick with 4-11 % more in its loops ran 4-7 %
 * faster; with it, weighed anywhere from 0.25 to 2, the rule sides
 * with the H200 on 28 of 28 timed pairs of the thirteenth session
 * (26 without), 16 of 18 of the fourteenth's (13) and 41 of 44 of the
 * sixteenth's (38; the sets share kernels).  Its worst misses: a pick
 * 4.5 % slower whose loops cost 10 % less (serialized wgmmas in the
 * input), and a pick 4 % faster whose loops hold 9 % more.  So opt
 * leaves it to the user (--sass-guard), the drop-in turns it on.
 * A spill of a load still in flight (ptxas.c, spillsload) costs
 * Expcost more: the warp waits there for the load, about as long as
 * it takes to issue a few hundred instructions when, as in these
 * kernels, one warp per scheduler runs.  Each rewrite of Triton's d64
 * s3 causal misaligned kernel that did it to 6-16 of V's loads ran
 * 13-23 % slower on the H200 with fewer instructions and spills in its
 * loop.  Of the other timed rewrites only one kernel's had more than
 * its input (1 against 0), and they ran 28 % faster: 512 is past what
 * refuses the d64 picks (about 160 for the one the drop-in took, 285
 * for the fastest of them) and far below what would refuse those
 * (4500; bench/RESULTS.md, eighteenth session).
 * And g may not hold more local-memory accesses in its loops than b,
 * whatever it saves elsewhere: every timed rewrite that did (Triton's
 * d256_n64_w4, 264 and 260 against 257, twenty-third session; two
 * causal misaligned d128_n128 kernels, 508 against 477, sixteenth) ran
 * at 0.997-1.024 of its input's time, the d256 pick 1.8 % slower where
 * the weights above called it 1.1 % cheaper, and its variants that kept
 * 256 ran 2.3-3.9 % faster. */
enum { Expcost = 512 };

static long
sasscost(Fig g)
{
	return g.loop + 16 * g.local + g.out    /* known with g.loop */
		+ Expcost * g.exposed;
}

static int
loopier(Fig g, Fig b)
{
	if (g.loop < 0 || b.loop < 0)
		return 0;
	return g.local > b.local || 50 * sasscost(g) > 51 * sasscost(b);
}

/* A variant that adds pin=loop or pin=loopall to a pick p: the pins
 * must take spills away without adding instructions to p's loops, a
 * local access counted as one.  Of twelve such pairs timed on the H200
 * (bench/RESULTS.md, fifteenth, sixteenth and nineteenth sessions), the
 * four whose loops held as many instructions as their parents' ran
 * 0.2-2.8 % faster; the eight that added 20-1,657 ran 4.7-58 % slower,
 * three of them cheaper by loopier()'s weights (an sm_80 kernel,
 * 4605/12 against 4303/37; a d256 n32 one, 1213/0 against 1193/4; a
 * d256 n64 one, by 29 fewer loads spilled in flight): a pin is
 * a shuffle with a non-constant member mask, which ptxas wraps in
 * WARPSYNC and collective code, on the address math of the loop's
 * loads. */
static int
pinloopier(Fig g, Fig p)
{
	return loopier(g, p) || (g.loop >= 0 && p.loop >= 0 && g.loop > p.loop);
}

/* Variant figures g are worth a rewrite of a kernel with figures b:
 * better, and by more than registers.  Fewer registers alone is no
 * reason: measured on the H200, a Triton kernel that did not spill ran
 * 4 % slower at 114 registers than at its own 127.  Only less spilling
 * counts (or wgmmas ptxas no longer serializes), unless --regs asks
 * for registers too. */
int
worth(Optreq *o, Fig g, Fig b)
{
	if (!better(g, b, o->unserial))
		return 0;
	return o->regs || g.spill != b.spill || g.stack != b.stack
		|| (!g.serial && b.serial);
}

/* Room for every function of m and their rankings, in one block that
 * one free() releases. */
Kern *
kerns(Module *m)
{
	size_t nf = 0, cap = 2 * Maxvar;

	for (uint32_t i = 0; i < m->nitem; i++)
		nf += m->item[i].kind == Ifunc && m->item[i].fn->body;
	Kern *k = calloc(1, (nf + 1) * (sizeof *k + cap * (sizeof *k->rankf
		+ sizeof *k->rank)));
	Fig *f = (Fig *)(k + nf + 1);
	int *r = (int *)(f + (nf + 1) * cap);
	for (size_t i = 0; i <= nf; i++)
		k[i].rankf = f + i * cap, k[i].rank = r + i * cap;
	return k;
}

/* Puts variant j (figures g) into x's ranking, after every variant at
 * least as good: the search's order, earlier variants first on ties. */
static void
rankin(Optreq *o, Kern *x, int j, Fig g)
{
	int at = x->nrank;

	while (at > 0 && better(g, x->rankf[at - 1], o->unserial)) {
		x->rank[at] = x->rank[at - 1];
		x->rankf[at] = x->rankf[at - 1];
		at--;
	}
	x->rank[at] = j;
	x->rankf[at] = g;
	x->nrank++;
}

/* Each kernel's figures over variants var[0..nv): the input's, the
 * ranking of those worth taking, the best unserialized one.  With
 * --sass-guard, a variant loopier than the input is refused, and one
 * that adds pin=loop(all) to a pick (parent) loopier than that pick:
 * the pins trade spills for loop work, and only a trade the SASS shows
 * as a gain is taken.  Returns how many kernels. */
int
rankall(Optreq *o, Module *orig, Var *var, int nv, Kern *k)
{
	int nk = 0;

	for (uint32_t i = 0; i < orig->nitem; i++) {
		Func *f = orig->item[i].fn;
		if (orig->item[i].kind != Ifunc || !f->body)
			continue;
		if (o->sc.kernel && strcmp(f->name, o->sc.kernel))
			continue;
		Kern *x = &k[nk++];
		*x = (Kern){.rank = x->rank, .rankf = x->rankf};
		x->name = f->name;
		x->before = x->after = figure(&var[0], f->name);
		for (int j = 1; j < nv; j++) {
			Fig g = figure(&var[j], f->name), pf = {0};
			int par = var[j].pipe.parent;
			if (par)
				pf = figure(&var[par], f->name);
			/* loopier than the input, or (only) than its parent */
			int vsin = o->nvdisasm && loopier(g, x->before);
			int vspar = o->nvdisasm && !vsin && par
				&& pinloopier(g, pf);
			int loopy = vsin || vspar;
			if (!worth(o, g, x->before))
				;
			else if (!loopy)
				rankin(o, x, j, g);
			else if (!x->veto || better(g, x->vetof, o->unserial)) {
				x->veto = j, x->vetof = g;
				x->vetopar = vspar ? par : 0;
				x->vetoparf = pf;
			}
			if (g.ok && !g.serial && !loopy         /* one it takes */
			&& (!x->alt || better(g, x->altf, 0)))
				x->alt = j, x->altf = g;
		}
		if (x->nrank)
			x->best = x->rank[0], x->after = x->rankf[0];
	}
	return nk;
}

/* --variants: for one kernel, every variant ptxas took, best first
 * (the search's order), with its figures: what a user trying passes on
 * one region (--lines) wants to see, not only the winner. */
void
listvariants(Optreq *o, Str kname, Var *var, int nv)
{
	int *ix = malloc((size_t)nv * sizeof *ix), m = 0;
	Fig *fg = malloc((size_t)nv * sizeof *fg);

	for (int j = 0; j < nv; j++) {
		fg[j] = figure(&var[j], kname);
		if (fg[j].ok)
			ix[m++] = j;
	}
	for (int a = 1; a < m; a++)     /* insertion sort: stable, few */
		for (int b = a; b > 0 && better(fg[ix[b]], fg[ix[b - 1]],
			o->unserial); b--) {
			int t = ix[b];
			ix[b] = ix[b - 1];
			ix[b - 1] = t;
		}
	fprintf(o->log, "%s: %d variants ptxas took, best first\n", kname, m);
	fprintf(o->log, "  %5s %8s %8s %6s %11s  %s\n", "regs", "spill B",
		"stack B", "wgmma", "loop/local", "pipeline");
	for (int a = 0; a < m; a++) {
		Fig g = fg[ix[a]];
		char lp[48] = "-";
		if (g.loop >= 0)        /* --sass-guard's figures */
			snprintf(lp, sizeof lp, "%ld/%ld", g.loop, g.local);
		fprintf(o->log, "  %5d %8ld %8ld %6s %11s  %s\n", g.regs,
			g.spill, g.stack, g.serial ? "serial" : "-", lp, ix[a]
			? var[ix[a]].pipe.text : "(the input)");
	}
	free(ix);
	free(fg);
}
