/* opt.c: the rewriting pipeline and the search that lets ptxas judge.
 *
 * A pipeline is a list of passes ("sched=bu,sink").  With ptxas at
 * hand, opt assembles many legal variants of each kernel (pipelines and
 * seeded perturbations of them) in parallel, keeps per kernel the one
 * with the fewest spill bytes, then the smallest stack, then the fewest
 * registers (then, with --sass-guard, the cheapest loops), and never
 * anything worse than the input.  Every result is
 * proven by the validator before it is written; what cannot be proven
 * is not written (the input is). */
#define _GNU_SOURCE             /* memmem */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/resource.h>
#include "all.h"
#include "verify.h"

/* ---- pipelines ---- */

enum { Maxpass = 24 };

typedef struct Pass {
	char name[24];
	int moves;          /* the moves pass, not a scheduler */
	int budget;         /* the budget pass: its step, 0 if not */
	int rank;           /* budget: grow the rank-th neediest role */
	int remat;          /* the remat pass: 1 + its mode (Rplain...),
	                     * 0 if not */
	int wgwait;         /* the wgwait pass; 2 wgsplit */
	int xspill;         /* the xspill pass; 2 xspill=all */
	int across;         /* 1 tsink, 2 hoist (across.c), 3 early,
	                     * 4 tsink=far (tfar.c), 5 pin, 6 pin=cvt,
	                     * 7 pin=ld, 8 pin=loop, 9 pin=loopall */
	Sched s;
} Pass;

typedef struct Pipe {
	Pass p[Maxpass];
	int n;
	char text[256];
	int parent;         /* a pick with pin=loop or pin=loopall after
	                     * it: the pick's variant (refinements), else 0 */
} Pipe;

/* Parses "sched=bu,sink,sched=td-rand".  Returns 0, or -1 with a word
 * on stderr. */
static int
pipeparse(const char *text, uint64_t seed, Pipe *pp)
{
	char buf[256], *save, *w;

	memset(pp, 0, sizeof *pp);
	if (strlen(text) >= sizeof buf) {
		fprintf(stderr, "%s: pipeline longer than %zu characters\n",
			progname, sizeof buf - 1);
		return -1;
	}
	snprintf(pp->text, sizeof pp->text, "%s", text);
	snprintf(buf, sizeof buf, "%s", text);
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(0, ",", &save)) {
		Pass *p = &pp->p[pp->n];
		const char *a = strncmp(w, "sched=", 6) ? w : w + 6;
		if (pp->n == Maxpass) {
			fprintf(stderr, "%s: pipeline of more than %d passes\n",
				progname, Maxpass);
			return -1;
		}
		p->s.seed = seed + (uint64_t)pp->n;
		if (!strcmp(a, "bu") || !strcmp(a, "bu-rand"))
			p->s = (Sched){.kind = Spressure, .up = 1,
				.noise = a[2] ? 2.0 : 0, .seed = p->s.seed};
		else if (!strcmp(a, "td") || !strcmp(a, "td-rand"))
			p->s = (Sched){.kind = Spressure,
				.noise = a[2] ? 2.0 : 0, .seed = p->s.seed};
		else if (!strncmp(a, "softmax", 7)) {
			int F = a[7] == '=' ? atoi(a + 8) : 4;
			if (F != 1 && F != 2 && F != 4 && F != 8) {
				fprintf(stderr, "%s: softmax=F takes F = 1, 2, 4 "
					"or 8\n", progname);
				return -1;
			}
			p->s = (Sched){.kind = Sfrag, .frags = F,
				.seed = p->s.seed};
		} else if (!strcmp(a, "mix"))
			p->s = (Sched){.kind = Smix, .up = 1,
				.seed = p->s.seed};
		else if (!strcmp(a, "sink"))
			p->s = (Sched){.kind = Ssink, .up = 1,
				.seed = p->s.seed};
		else if (!strcmp(a, "moves"))
			p->moves = 1;
		else if (!strcmp(a, "remat"))
			p->remat = 1 + Rplain;
		else if (!strcmp(a, "remat=roles"))
			p->remat = 1 + Rroles;
		else if (!strcmp(a, "remat=loop"))
			p->remat = 1 + Rloop;
		else if (!strcmp(a, "remat=bcast"))
			p->remat = 1 + Rbcast;
		else if (!strcmp(a, "wgwait"))
			p->wgwait = 1;
		else if (!strcmp(a, "wgsplit"))
			p->wgwait = 2;
		else if (!strcmp(a, "wgsplit=pv"))
			p->wgwait = 3;
		else if (!strcmp(a, "xspill"))
			p->xspill = 1;
		else if (!strcmp(a, "xspill=all"))
			p->xspill = 2;
		else if (!strcmp(a, "tsink"))
			p->across = 1;
		else if (!strcmp(a, "tsink=far"))
			p->across = 4;
		else if (!strcmp(a, "hoist"))
			p->across = 2;
		else if (!strcmp(a, "early"))
			p->across = 3;
		else if (!strcmp(a, "pin"))
			p->across = 5;
		else if (!strcmp(a, "pin=cvt"))
			p->across = 6;
		else if (!strcmp(a, "pin=ld"))
			p->across = 7;
		else if (!strcmp(a, "pin=loop"))
			p->across = 8;
		else if (!strcmp(a, "pin=loopall"))
			p->across = 9;
		else if (!strncmp(a, "budget", 6)) {
			/* budget[=STEP][:RANK] */
			p->budget = a[6] == '=' ? atoi(a + 7) : 8;
			p->rank = strchr(a, ':') ? atoi(strchr(a, ':') + 1) : 0;
			if (p->budget % 8 || p->budget <= 0 || p->budget > 128) {
				fprintf(stderr, "%s: budget=N takes a multiple "
					"of 8\n", progname);
				return -1;
			}
		}
		else if (!strcmp(a, "none"))
			continue;
		else {
			fprintf(stderr, "%s: unknown pass '%s' (passes: "
				"sched=bu, sched=td, sched=bu-rand, "
				"sched=td-rand, softmax=F, mix, sink, moves, "
				"remat, remat=roles, remat=loop, "
				"remat=bcast, wgwait, "
				"wgsplit, wgsplit=pv, xspill, xspill=all, "
				"tsink, tsink=far, "
				"hoist, early, pin, pin=cvt, pin=ld, pin=loop, "
				"pin=loopall, "
				"budget[=N][:R], "
				"none)\n",
				progname, w);
			return -1;
		}
		snprintf(p->name, sizeof p->name, "%s", a);
		pp->n++;
	}
	return 0;
}


/* The pressure model's peak for f, for --explain. */
static int
peakof(Module *m, Func *f)
{
	int p;

	fillcfg(f, m);
	filllive(f);
	fillpressure(f);
	p = f->ana->peak;
	freeana(f);
	return p;
}

/* Runs the pipeline over every function in scope. */
static uint32_t
runpipe(Module *m, Pipe *pp, const Scope *sc, const char *only)
{
	uint32_t moved = 0;

	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].fn;
		if (m->item[i].kind != Ifunc || !f->body)
			continue;
		if (sc->kernel && strcmp(f->name, sc->kernel))
			continue;
		if (only && strcmp(f->name, only))
			continue;
		int before = sc->explain ? peakof(m, f) : 0;
		int had = 0;    /* pins the pipeline did not make */
		for (int k = 0; k < pp->n; k++)
			had |= pp->p[k].across >= 5;
		had = had && pintaken(f);
		for (int k = 0; k < pp->n; k++) {
			Sched s = pp->p[k].s;
			s.range[0] = sc->lines[0];
			s.range[1] = sc->lines[1];
			if (sc->noise > 0 && s.noise > 0)
				s.noise = sc->noise;
			uint32_t n = pp->p[k].remat ? remat(m, f,
				pp->p[k].remat - 1, sc->lines)
				: pp->p[k].wgwait == 1 ? wgwait(m, f, sc->lines)
				: pp->p[k].xspill ? xspill(m, f, sc->lines,
				pp->p[k].xspill == 2)
				: pp->p[k].wgwait >= 2 ? wgsplit(m, f, sc->lines,
				pp->p[k].wgwait == 3)
				: pp->p[k].across == 1 ? tsink(f, sc->lines)
				: pp->p[k].across == 2 ? hoist(m, f, sc->lines)
				: pp->p[k].across == 3 ? early(m, f, sc->lines)
				: pp->p[k].across == 4 ? tsinkfar(m, f, sc->lines)
				: pp->p[k].across >= 5 ? pin(m, f, sc->lines,
				pp->p[k].across - 5, had)
				: pp->p[k].moves ? moves(f)
				: pp->p[k].budget ? (uint32_t)budget(m, f,
				pp->p[k].budget, pp->p[k].rank) : sched(f, &s);
			if (sc->explain) {
				int after = peakof(m, f);
				fprintf(sc->explain, "%s: %s: %s %s %u "
					"%s; estimated peak %d -> %d "
					"registers\n", progname, f->name,
					pp->p[k].name, pp->p[k].moves ? "removed"
					: pp->p[k].budget ? "re-split"
					: pp->p[k].across == 3 ? "replaced"
					: pp->p[k].across >= 5 ? "pinned"
					: pp->p[k].remat || pp->p[k].wgwait == 1
					|| pp->p[k].xspill
					? "inserted" : "moved", n,
					pp->p[k].budget ? "budgets"
					: pp->p[k].across == 3 ? "sums by copies"
					: pp->p[k].across == 5 ? "early sums"
					: pp->p[k].across >= 8 ? "%tid reads"
					: pp->p[k].across >= 6 ? "converts"
					: "instructions", before, after);
				before = after;
			}
			moved += n;
		}
		/* a .loc carried before the one its inlined_at names makes
		 * ptxas reject the file (the schedulers do not mark f dirty:
		 * every function the pipeline ran on is looked at) */
		locfix(m, f);
	}
	return moved;
}

/* Runs a pipeline ("remat,sched=bu") over every function of m, as opt
 * does for one variant; for the opt fuzzer and whoever else holds a
 * module.  Returns what the passes moved or inserted, or -1 when the
 * pipeline does not parse. */
long
optpipeline(Module *m, const char *pipeline, uint64_t seed)
{
	Pipe p;
	Scope sc = {0};

	if (pipeparse(pipeline, seed, &p))
		return -1;
	return (long)runpipe(m, &p, &sc, 0);
}

/* ---- variants and their figures ---- */

typedef struct Fig {
	long spill, stack;
	int regs, ok;
	int serial;         /* ptxas: its wgmmas are serialized */
	int pinned;         /* the pipeline pins (pin, pin=cvt, pin=ld) */
	long loop, local;   /* nvdisasm: SASS in loops, local memory of
	                     * those (-1: not known) */
	long out;           /* local memory outside loops */
	long exposed;       /* spills of loads in flight, in loops */
	long xb;            /* of spill: xspill's own local array traffic */
} Fig;

typedef struct Var {
	Pipe pipe;
	char path[4096];
	Pxres res;
	int done;
	int sass;           /* --sass-guard: 1 nvdisasm wanted, 2 asked */
	struct { const char *fn; long bytes; } xb[4];   /* xspill's array
	                     * traffic, per function that has one */
	int nxb;
} Var;

typedef struct Pool {
	Var *v;
	int n, next;
	const char *ptxas, *arch;
	const char *const *args;
	const char *nvdisasm;       /* set: keep cubins, or (sass) read them */
	int sass;
	pthread_mutex_t mu;
} Pool;

/* Where variant v's cubin is kept for nvdisasm: its path, .cubin for
 * .ptx. */
static void
cubinpath(const Var *v, char *c, size_t cap)
{
	size_t n = strlen(v->path);

	snprintf(c, cap, "%.*s.cubin", (int)(n > 4 ? n - 4 : n), v->path);
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
			p->args, 0};
		ptxasrun(&o, &v->res);
		v->done = 1;
	}
}

static void
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

static Fig
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
static int
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
static int
worth(Optreq *o, Fig g, Fig b)
{
	if (!better(g, b, o->unserial))
		return 0;
	return o->regs || g.spill != b.spill || g.stack != b.stack
		|| (!g.serial && b.serial);
}

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

static int
writetmp(const char *path, const char *t, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	fwrite(t, 1, n, f);
	return fclose(f);
}

/* ---- the command ---- */


static int
helpopt(FILE *f)
{
	fprintf(f,
"usage: ptxpress opt FILE -o OUT [-p PIPELINE] [--arch SM] [--ptxas PATH]\n"
"                    [--search|--no-search] [-j N] [--tries N] [--refine N]\n"
"                    [--seed S]\n"
"                    [--report text|json] [--kernel NAME] [--lines A-B]\n"
"                    [--explain] [--regs] [--no-budget] [--in-place]\n"
"                    [--unserialized] [--sass-guard] [--variants]\n"
"                    [--time LAUNCH [--time-runs N]]\n"
"\n"
"Rewrites PTX to lower register pressure, so that ptxas spills less.\n"
"It reorders instructions, removes copies, recomputes cheap values near\n"
"their uses, takes long sums as soon as their terms exist, splits or\n"
"closes wgmma groups and re-splits setmaxnreg budgets; names,\n"
"parameters, .version/.target and line info stay.\n"
"Every result is proven by the validator ('ptxpress validate') before it\n"
"is written; a rewrite it cannot prove is dropped and the input is\n"
"written instead.  In the search, a kernel whose pick is not proven\n"
"takes the next best variant that is, down to its input.\n"
"\n"
"With a ptxas (found on PATH, or --ptxas, or $PTXPRESS_PTXAS) the search\n"
"is on: opt assembles the input and up to --tries legal variants (the\n"
"pipelines below and seeded perturbations of them) on -j threads, and\n"
"keeps for each kernel the variant with the fewest spill bytes, then\n"
"the smallest stack, then the fewest registers, when it spills less\n"
"than the input.  It never returns a kernel worse than the input.  The\n"
"same seed gives the same output (as far as ptxas is deterministic).\n"
"\n"
"  -p PIPELINE      passes, comma-separated; without search they are\n"
"                   applied as given (default sched=bu):\n"
"                     sched=bu       bottom-up list scheduling for least\n"
"                                    pressure (Sethi-Ullman-like)\n"
"                     sched=td       top-down: consume values as soon as\n"
"                                    they are ready\n"
"                     sched=bu-rand, sched=td-rand  the same with seeded\n"
"                                    noise in the choice\n"
"                     softmax=F      interleave the exp2/convert/sum\n"
"                                    chains in F fragments (1, 2, 4, 8)\n"
"                     mix            each region a strategy drawn from\n"
"                                    the seed\n"
"                     sink           move loads down next to their users\n"
"                     remat          recompute constants (immediates,\n"
"                                    launch constants, kernel params)\n"
"                                    before their reads in each region\n"
"                     remat=loop     also address math that reads a\n"
"                                    loop's counter (or any register that\n"
"                                    changes), run again where that\n"
"                                    register still holds its value\n"
"                     remat=roles    only what the prologue computes\n"
"                                    before the warp roles part (first\n"
"                                    setmaxnreg), the same in every\n"
"                                    thread; a warp-uniform shfl.sync.idx\n"
"                                    runs again as a mov of its source\n"
"                     remat=bcast    remat, and such a shfl as a mov in\n"
"                                    every region too (plain remat leaves\n"
"                                    it: ptxas answers each way better on\n"
"                                    some FA4 kernels)\n"
"                     wgwait         wait for a block's wgmma groups\n"
"                                    before the block ends, so no group\n"
"                                    is in flight across a branch (Triton\n"
"                                    keeps P*V in flight into the next\n"
"                                    Q*K^T: at the cap that spills)\n"
"                     xspill         in a one-block loop whose wgmma\n"
"                                    group fills 192 accumulator\n"
"                                    registers or more, give each chain\n"
"                                    a group of its own and keep its\n"
"                                    accumulators in a local array\n"
"                                    between uses (ptxas then pipelines\n"
"                                    the wgmmas it would serialize;\n"
"                                    xspill=all: any group of two chains\n"
"                                    or more); the array's bytes count\n"
"                                    as spill in the search\n"
"                     tsink          move tcgen05.ld and its wait down\n"
"                                    to the first read of what it\n"
"                                    loads (past loads, stores, math)\n"
"                     tsink=far      move tcgen05.ld, its wait and the\n"
"                                    math on what it loaded down past\n"
"                                    barriers, cp.async.wait and\n"
"                                    tcgen05.st to other columns (O's\n"
"                                    load after P's store; 4 warps at\n"
"                                    most, no MMA up to the next barrier)\n"
"                     hoist          move math that frees registers\n"
"                                    (P's packing converts) from after\n"
"                                    a wait loop, or another run of\n"
"                                    fixed statements entered only at\n"
"                                    its top, to before that run\n"
"                     early          compute a long sum (Triton's row\n"
"                                    sum of P, which it takes one loop\n"
"                                    iteration late) right after the\n"
"                                    exp2 that write its terms, into new\n"
"                                    registers, and copy the result where\n"
"                                    the sum was (bit for bit the same)\n"
"                     pin            after early: read each sum that only\n"
"                                    a later block reads, outside loops,\n"
"                                    where it is computed (a shfl.sync\n"
"                                    of the thread's value to itself),\n"
"                                    so ptxas cannot sink the adds to\n"
"                                    their use, keeping P live (Triton's\n"
"                                    peeled first iteration)\n"
"                     pin=cvt        the same for P's packing converts in\n"
"                                    a block that falls into a wait loop\n"
"                                    (mbarrier.try_wait): ptxas would\n"
"                                    sink the softmax past the wait among\n"
"                                    the loads after it\n"
"                     pin=ld         the same for P's packing converts\n"
"                                    followed in their block by global\n"
"                                    loads (V's, element by element):\n"
"                                    the converts after the first load\n"
"                                    move up, all are read before it\n"
"                     pin=loop       the same for the thread index\n"
"                                    (%%tid.x...) read inside a loop\n"
"                                    (after remat=loop), so ptxas cannot\n"
"                                    hoist the address math on them out\n"
"                                    of the loop and spill it there;\n"
"                                    not where the value feeds 64-bit\n"
"                                    math (global addresses: the loop\n"
"                                    would pay more than the spill)\n"
"                     pin=loopall    pin=loop, 64-bit math included\n"
"                     moves          remove register copies and pack/\n"
"                                    unpack pairs (copy propagation)\n"
"                     budget[=N][:R] give the warp role furthest over its\n"
"                                    setmaxnreg (R: the R-th) N more\n"
"                                    registers (8), taken from roles with\n"
"                                    slack, when the register-file\n"
"                                    arithmetic is proven\n"
"                     none           nothing\n"
"  --arch SM        target for ptxas (default: the file's .target)\n"
"  --no-search      apply the pipeline without asking ptxas\n"
"  -j N             ptxas runs in parallel (default: the CPUs)\n"
"  --tries N        variants to try (default 12)\n"
"  --refine N       then, for each kernel that still spills, N\n"
"                   perturbations of its best variant, and that\n"
"                   variant with softmax=4 and softmax=2 after it\n"
"                   (default: half of --tries; 0: none).  Less spill\n"
"                   is not always faster: on the H200 one such pick\n"
"                   ran 3 %% slower than the unrefined one; --time\n"
"                   decides on a GPU\n"
"  --seed S         seed of the perturbations (default 1)\n"
"  --report FMT     before/after table on stderr: text (default), json\n"
"  --no-budget      leave setmaxnreg budgets as they are in the search\n"
"                   (by default kernels with setmaxnreg also try budget)\n"
"  --time LAUNCH    with a GPU: run the search's best candidates for the\n"
"                   kernel LAUNCH names (doc/launch.md) against the\n"
"                   input, each output bit for bit, and keep the fastest\n"
"                   if it is 1 %% faster, else the input (fewer spills\n"
"                   are not always faster); without a GPU, a note.\n"
"                   When ptxas serializes the input's wgmmas (its\n"
"                   C7511-style note), the best two candidates it does\n"
"                   not serialize are run first, even if they spill more;\n"
"                   a wgmma loop below xspill's floor also gets an\n"
"                   xspill=all candidate, always run (ptxas's figures\n"
"                   cannot tell when that wins)\n"
"  --sass-guard     take no variant whose SASS (nvdisasm's, of the\n"
"                   cubin ptxas made) costs more than the input's, by\n"
"                   more than 2 %%: instructions in loops, a local-memory\n"
"                   access (a spill) there counted 16 times, the\n"
"                   local-memory accesses outside loops, and 512 for\n"
"                   each store of a global load's value to local memory\n"
"                   within 32 instructions of the load (the warp waits\n"
"                   there for the load), or whose loops hold more\n"
"                   local-memory accesses than the input's.\n"
"                   Spill bytes do not say where spills run, nor what a\n"
"                   rewrite adds to a loop; on the H200 such picks ran\n"
"                   slower than their inputs more often than not, and\n"
"                   the guard's worst pick ran 3 %% slower against the\n"
"                   unguarded search's 12 %% (bench/RESULTS.md).  Needs\n"
"                   nvdisasm: beside ptxas, on PATH or $PTXPRESS_NVDISASM;\n"
"                   off under --time, where the GPU decides.  With it the\n"
"                   search also tries pin=loop and pin=loopall after\n"
"                   picks that rematerialize (with --refine 0 too),\n"
"                   taken only where they cost no more than the pick,\n"
"                   and of variants equal in spill, stack and registers\n"
"                   it keeps the one whose loops cost least\n"
"  --unserialized   rank a variant whose wgmmas ptxas serializes (its\n"
"                   C7510-C7519 warnings) behind every variant it does\n"
"                   not, even one that spills more: serialized wgmmas\n"
"                   can cost more than the spill (without it, the report\n"
"                   names the best unserialized variant when the pick is\n"
"                   serialized)\n"
"  --variants       list, per kernel, every variant the search assembled\n"
"                   with ptxas's figures, best first (the first is the\n"
"                   pick when it spills less than the input and is\n"
"                   proven)\n"
"  --time-runs N    timed runs per candidate (default 20)\n"
"  --cpu            say how much CPU time ptxpress itself took next to\n"
"                   the ptxas runs of the search\n"
"  --regs           also take a variant that only saves registers (by\n"
"                   default a kernel is rewritten only when it spills\n"
"                   less: fewer registers can run slower)\n"
"  --kernel NAME    rewrite only this function\n"
"  --lines A-B      rewrite only regions touching input lines A..B\n"
"                   (moves and budget work on the whole kernel)\n"
"  --explain        say per pass what it moved and how the estimated\n"
"                   pressure peak ('ptxpress pressure') changed\n"
"  --in-place       allow OUT to be FILE\n"
"\n"
"Exit status: 0 written, 2 bad input or usage.\n");
	return f == stdout ? 0 : 2;
}

static int
optargs(int argc, char **argv, Optreq *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int more = i + 1 < argc;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return helpopt(stdout) - 1;
		else if (!strcmp(a, "-o") && more)
			o->out = argv[++i];
		else if (!strcmp(a, "-p") && more)
			o->pipe = argv[++i];
		else if (!strcmp(a, "--arch") && more)
			o->arch = argv[++i];
		else if (!strcmp(a, "--ptxas") && more)
			o->ptxas = argv[++i];
		else if (!strcmp(a, "--search"))
			o->search = 1;
		else if (!strcmp(a, "--no-search"))
			o->search = 0;
		else if (!strcmp(a, "-j") && more)
			o->jobs = atoi(argv[++i]);
		else if (!strcmp(a, "--tries") && more)
			o->tries = atoi(argv[++i]);
		else if (!strcmp(a, "--refine") && more)
			o->refine = atoi(argv[++i]);
		else if (!strcmp(a, "--time") && more)
			o->timel = argv[++i];
		else if (!strcmp(a, "--time-runs") && more)
			o->truns = atoi(argv[++i]);
		else if (!strcmp(a, "--seed") && more)
			o->seed = strtoull(argv[++i], 0, 10);
		else if (!strcmp(a, "--report") && more)
			o->report = argv[++i];
		else if (!strcmp(a, "--kernel") && more)
			o->sc.kernel = argv[++i];
		else if (!strcmp(a, "--lines") && more) {
			unsigned x, y;
			if (sscanf(argv[++i], "%u-%u", &x, &y) != 2 || x > y) {
				fprintf(stderr, "%s opt: --lines wants A-B\n",
					progname);
				return 2;
			}
			o->sc.lines[0] = x;
			o->sc.lines[1] = y;
		} else if (!strcmp(a, "--explain"))
			o->sc.explain = stderr;
		else if (!strcmp(a, "--in-place"))
			o->inplace = 1;
		else if (!strcmp(a, "--regs"))
			o->regs = 1;
		else if (!strcmp(a, "--cpu"))
			o->cpu = 1;
		else if (!strcmp(a, "--no-budget"))
			o->nobudget = 1;
		else if (!strcmp(a, "--unserialized"))
			o->unserial = 1;
		else if (!strcmp(a, "--sass-guard"))
			o->sass = 1;
		else if (!strcmp(a, "--variants"))
			o->variants = 1;
		else if ((a[0] != '-' || !a[1]) && !o->in)
			o->in = a;
		else {
			fprintf(stderr, "%s opt: unexpected argument '%s'\n",
				progname, a);
			return helpopt(stderr);
		}
	}
	if (!o->in || !o->out)
		return helpopt(stderr);
	if (strcmp(o->report, "text") && strcmp(o->report, "json")) {
		fprintf(stderr, "%s opt: --report is text or json\n", progname);
		return 2;
	}
	return 0;
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

/* The variants a search tries, in order; the first is the input. */
static int
variants(Optreq *o, Pipe *v, int max)
{
	/* most likely first: a short search must reach them (the winners
	 * over the corpus, bench/RESULTS.md: remat with a scheduler most
	 * often, then none) */
	static const char *const base[] = {
		"none", "remat,sched=bu", "remat,sched=td",
		"remat=loop,sched=bu", "remat=loop", "sched=bu", "sched=td",
		"remat", "sink",
		"sched=bu,sink", "sched=td,sink", "remat=loop,sched=td",
		"remat,sched=bu,sink", "softmax=4", "softmax=2", "softmax=8",
		"softmax=4,sink",
	};
	int n = 0;

	if (o->pipe) {
		pipeparse("none", o->seed, &v[n++]);
		if (pipeparse(o->pipe, o->seed, &v[n]))
			return -1;
		n++;
	} else {
		/* warp-specialized kernels (setmaxnreg): the role-aware
		 * variants come early, so a short search reaches them (FA4's
		 * kernels close with budget or remat=roles) */
		static const char *const early[] = {"budget", "remat=roles",
			"remat=bcast,sched=bu"};       /* the last: shfls */
		/* kernels with wgmma groups: the same early, with wgwait,
		 * and with the group of two m64 tiles split (wgsplit).  The
		 * split first: of two orders ptxas takes alike (ties go to
		 * the earlier variant), the H200 ran the split one 11-15 %
		 * faster on Triton's causal d128_n64 kernels, 1-3 % slower
		 * on the full ones (bench/RESULTS.md, ninth session) */
		static const char *const wg[] = {
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
		static const char *const tm[] = {
			"remat,sched=bu,softmax=4,tsink,hoist",
			"remat=loop,sched=bu,tsink,hoist", "sched=td"};
		/* and with the packed P pinned before the wait loop, after
		 * the early variants (a short search reaches those first);
		 * the second with loop values recomputed too: on Triton
		 * 3.6's misaligned causal d128_n128 kernel 320 bytes where
		 * softmax=8 in its place had left 712, and the softmax=8 one
		 * had never won by more than 4 bytes (twenty-third session,
		 * bench/RESULTS.md) */
		static const char *const tmpin[] = {
			"remat,sched=bu,softmax=2,tsink,hoist,pin=cvt",
			"remat=loop,sched=bu,softmax=2,tsink,hoist,pin=cvt"};
		/* a sum Triton takes an iteration late (early): first with
		 * the peeled iteration's sum pinned where it is computed and
		 * O's load after P's store (the drop-in's 8 tries reach one
		 * of these only: that one took Triton 3.9's Blackwell
		 * kernels to 0), then with the tcgen05 pair and the plain
		 * schedulers */
		static const char *const ea[] = {
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
		static const char *const ld[] = {
			"remat=loop,pin=ld", "remat=loop,softmax=4,pin=ld"};
		for (size_t i = 0; i < countof(base) && n < max; i++) {
			if (listed(v, n, base[i]))
				continue;       /* tm's sched=td */
			pipeparse(base[i], o->seed, &v[n++]);
			for (size_t j = 0; i == 2 && o->budgets && j < countof(early)
				- !o->bcast && n < max; j++)
				pipeparse(early[j], o->seed, &v[n++]);
			if (i == 2 && o->ldcvt && !o->tmem && n < max)
				pipeparse(ld[0], o->seed, &v[n++]);
			if (i == 2 && o->xspill && n < max)
				pipeparse(o->xspill == 2 ? "xspill=all"
					: "xspill", o->seed, &v[n++]);
			for (size_t j = 0; i == 2 && o->wgmma && j < countof(wg)
				&& n < max; j++)
				pipeparse(wg[j], o->seed, &v[n++]);
			for (size_t j = 0; i == 2 && o->tmem && j < countof(tm)
				&& n < max; j++)
				pipeparse(tm[j], o->seed, &v[n++]);
			for (size_t j = 0; i == 2 && o->early && j < countof(ea)
				&& n < max; j++)
				pipeparse(ea[j], o->seed, &v[n++]);
			for (size_t j = 0; i == 2 && o->tmem && j < countof(tmpin)
				&& n < max; j++)
				pipeparse(tmpin[j], o->seed, &v[n++]);
		}
		for (size_t j = o->tmem ? 0 : 1; o->ldcvt && j < countof(ld)
			&& n < max; j++)
			pipeparse(ld[j], o->seed, &v[n++]);
		if (o->tmem && n < max)
			pipeparse("remat,sched=bu,softmax=8,tsink,hoist", o->seed,
				&v[n++]);
		static const char *const bud[] = {
			"budget,sched=td", "budget,softmax=4", "budget=16",
			"budget:1",
		};
		for (size_t i = 0; o->budgets && i < countof(bud) && n < max; i++)
			pipeparse(bud[i], o->seed, &v[n++]);
	}
	/* then seeded perturbations: noisy schedulers of several
	 * strengths, and a strategy drawn per region */
	static const char *const rnd[] = {
		"sched=td-rand", "sched=bu-rand", "mix", "sched=td-rand,sink",
	};
	static const double noise[] = {1, 2, 4, 0.5, 8};
	for (uint64_t k = 0; n < max; k++) {
		if (pipeparse(rnd[k % countof(rnd)], o->seed * 1000003u + k,
			&v[n]))
			return -1;
		for (int i = 0; i < v[n].n; i++)
			if (v[n].p[i].s.noise > 0)
				v[n].p[i].s.noise = noise[(k / 4) % 5];
		snprintf(v[n].text + strlen(v[n].text),
			sizeof v[n].text - strlen(v[n].text), "@%llu",
			(unsigned long long)(o->seed * 1000003u + k));
		n++;
	}
	return n;
}

enum { Maxvar = 256 };

typedef struct Kern {
	Str name;
	int best;           /* variant index */
	Fig before, after;
	int alt;            /* the best variant whose wgmmas ptxas does not
	                     * serialize (0: none) */
	Fig altf;
	int veto;           /* --sass-guard: the best variant it refused */
	Fig vetof;
	int vetopar;        /* the pick it extends, when refused against
	                     * that one (pinloopier) */
	Fig vetoparf;
	int nrank;          /* the variants worth taking, best first: */
	int *rank;          /* when the pick is not proven, the next one */
	Fig *rankf;         /* (both rounds; room for 2 * Maxvar, in the
	                     * block kerns() allocates) */
} Kern;

/* Room for every function of m and their rankings, in one block that
 * one free() releases. */
static Kern *
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

/* Where ptxas serializes the pick's wgmmas, the user hears of the best
 * variant it does not serialize: speed, not spill bytes, is the point,
 * and without a GPU the search cannot time them (--time can). */
static void
serialnote(Optreq *o, Kern *k, Pipe *v)
{
	if (!k->after.serial)
		return;
	fprintf(o->log, "%s: note: %s: ptxas serializes the wgmmas of %s "
		"(its C751x 'Potential Performance Loss' note)", progname,
		k->name, k->best ? "this pick" : "the input");
	if (k->alt)
		fprintf(o->log, "; it does not serialize %s's (%ld bytes of "
			"spill, %d registers): --unserialized takes that, "
			"--time LAUNCH times both on a GPU\n", v[k->alt].text,
			k->altf.spill, k->altf.regs);
	else
		fprintf(o->log, "; no variant tried avoids it\n");
}

/* Whether --sass-guard refused a variant that spills (or stacks) less
 * than the pick: then the user hears which, and both loops' figures. */
static int
refused(const Kern *k)
{
	return k->veto && (k->vetof.spill < k->after.spill
		|| k->vetof.stack < k->after.stack);
}

static void
vetonote(Optreq *o, Kern *k, Pipe *v)
{
	if (!refused(k))
		return;
	fprintf(o->log, "%s: note: %s: --sass-guard refused %s (%ld bytes of "
		"spill): its loops hold %ld SASS instructions, %ld of them "
		"local memory, the input's %ld and %ld (local memory "
		"outside loops: %ld, the input's %ld; loads spilled in "
		"flight: %ld, the input's %ld)\n", progname, k->name,
		v[k->veto].text, k->vetof.spill, k->vetof.loop,
		k->vetof.local, k->before.loop, k->before.local,
		k->vetof.out, k->before.out, k->vetof.exposed,
		k->before.exposed);
	if (k->vetopar)
		fprintf(o->log, "%s: note: %s: the pick it extends, %s, holds "
			"%ld and %ld: its pins add instructions to the loops\n",
			progname, k->name, v[k->vetopar].text,
			k->vetoparf.loop, k->vetoparf.local);
}

static void
report(Optreq *o, Kern *k, int nk, Pipe *v, int nv)
{
	if (!o->log)
		return;
	if (!strcmp(o->report, "json")) {
		fprintf(o->log, "{\"variants\": %d, \"kernels\": [", nv);
		for (int i = 0; i < nk; i++) {
			fprintf(o->log, "%s\n {\"name\": \"%s\", \"pipeline\": "
				"\"%s\", \"before\": {\"registers\": %d, "
				"\"spill_bytes\": %ld, \"stack\": %ld, "
				"\"wgmma_serialized\": %s}, "
				"\"after\": {\"registers\": %d, \"spill_bytes\": "
				"%ld, \"stack\": %ld, \"wgmma_serialized\": %s}",
				i ? "," : "", k[i].name,
				v[k[i].best].text, k[i].before.regs,
				k[i].before.spill, k[i].before.stack,
				k[i].before.serial ? "true" : "false",
				k[i].after.regs, k[i].after.spill,
				k[i].after.stack,
				k[i].after.serial ? "true" : "false");
			if (k[i].after.serial && k[i].alt)
				fprintf(o->log, ", \"unserialized\": {"
					"\"pipeline\": \"%s\", \"registers\": "
					"%d, \"spill_bytes\": %ld, \"stack\": "
					"%ld}", v[k[i].alt].text, k[i].altf.regs,
					k[i].altf.spill, k[i].altf.stack);
			if (refused(&k[i]))
				fprintf(o->log, ", \"sass_guard_refused\": {"
					"\"pipeline\": \"%s\", \"spill_bytes\": "
					"%ld, \"loop\": %ld, \"loop_local\": %ld, "
					"\"input_loop\": %ld, \"input_loop_local\": "
					"%ld, \"local_outside\": %ld, "
					"\"input_local_outside\": %ld, "
					"\"loads_spilled_in_flight\": %ld, "
					"\"input_loads_spilled_in_flight\": %ld}",
					v[k[i].veto].text, k[i].vetof.spill,
					k[i].vetof.loop, k[i].vetof.local,
					k[i].before.loop, k[i].before.local,
					k[i].vetof.out, k[i].before.out,
					k[i].vetof.exposed, k[i].before.exposed);
			if (refused(&k[i]) && k[i].vetopar)
				fprintf(o->log, ", \"sass_guard_parent\": {"
					"\"pipeline\": \"%s\", \"loop\": %ld, "
					"\"loop_local\": %ld}",
					v[k[i].vetopar].text,
					k[i].vetoparf.loop, k[i].vetoparf.local);
			fprintf(o->log, "}");
		}
		fprintf(o->log, "\n]}\n");
		return;
	}
	fprintf(o->log, "%-40s %11s %11s %11s  %s\n", "kernel",
		"regs", "spill B", "stack B", "pipeline");
	for (int i = 0; i < nk; i++) {
		char a[24], b[24], c[24];
		snprintf(a, sizeof a, "%d->%d", k[i].before.regs,
			k[i].after.regs);
		snprintf(b, sizeof b, "%ld->%ld", k[i].before.spill,
			k[i].after.spill);
		snprintf(c, sizeof c, "%ld->%ld", k[i].before.stack,
			k[i].after.stack);
		fprintf(o->log, "%-40.40s %11s %11s %11s  %s\n", k[i].name, a, b,
			c, v[k[i].best].text);
	}
	for (int i = 0; i < nk; i++) {
		serialnote(o, &k[i], v);
		vetonote(o, &k[i], v);
		if (k[i].best && k[i].after.xb)
			fprintf(o->log, "%s: note: %s: of its %ld bytes of "
				"spill, %ld are the accumulators xspill keeps in "
				"a local array (16-byte accesses it places), %ld "
				"ptxas's own\n", progname, k[i].name,
				k[i].after.spill, k[i].after.xb,
				k[i].after.spill - k[i].after.xb);
	}
}

/* Parses src afresh and applies, to each kernel, its chosen variant. */
static Module *
assemble(Optreq *o, const char *src, size_t n, Kern *k, int nk, Pipe *v)
{
	Diag d = {0};
	Module *m = parse(o->in, src, n, &d);

	for (int i = 0; i < nk; i++)
		runpipe(m, &v[k[i].best], &o->sc, k[i].name);
	return m;
}

/* PTXPRESS_UNPROVEN=TEXT[;TEXT...] (tests only) makes the proof of a
 * rewrite by any pipeline TEXT fail, to exercise what follows a
 * refusal. */
static int
hooked(const char *pipe)
{
	const char *no = getenv("PTXPRESS_UNPROVEN");
	size_t n = pipe ? strlen(pipe) : 0;

	for (const char *p = no; p && *p && n; p = strchr(p, ';'), p += !!p)
		if (!strncmp(p, pipe, n) && (p[n] == ';' || !p[n]))
			return 1;
	return 0;
}

/* Writes m into text and proves it computes what orig does: 0 proven,
 * else why says why (refused: the hook above). */
static int
proof(Optreq *o, Module *orig, Module *m, Buf *text, int refused,
	Buf *why)
{
	Diag d = {0};
	int rc;

	emitlossless(text, m);
	if (m->rawlen > m->len)
		bput(text, m->src + m->len, m->rawlen - m->len);
	if (refused) {
		bprintf(why, "PTXPRESS_UNPROVEN refuses it\n");
		return -1;
	}
	d.quiet = 1;
	Module *re = parse(o->in, text->p ? text->p : "", text->n, &d);
	rc = re->nerr ? -1 : validate(orig, re, why);
	if (re->nerr)
		bprintf(why, "it does not parse\n");
	afree(re->a);
	return rc;
}

static int
proven(Optreq *o, Module *orig, Module *m, Buf *text)
{
	Buf why = {0};
	int rc = proof(o, orig, m, text, 0, &why);

	if (rc && o->log)
		fprintf(o->log, "%s: note: %s: the rewrite is not proven, the "
			"input is kept: %s", progname, o->in, why.p);
	free(why.p);
	return rc;
}

/* Kernel x rewritten by variant j alone is proven. */
static int
provenone(Optreq *o, const char *src, size_t n, Module *orig, Kern *x,
	Pipe *v, int j)
{
	Diag d = {0};
	Buf text = {0}, why = {0};
	Module *m = parse(o->in, src, n, &d);

	runpipe(m, &v[j], &o->sc, x->name);
	int rc = proof(o, orig, m, &text, hooked(v[j].text), &why);
	if (rc && o->log)
		fprintf(o->log, "%s: note: %s: %s is not proven: %s", progname,
			x->name, v[j].text, why.p);
	afree(m->a);
	free(text.p);
	free(why.p);
	return rc == 0;
}

/* The search's picks together are not proven: each kernel's pick is
 * proven alone, and where it is not, the next variant of its ranking
 * is, down to the input.  A variant the validator refuses is one
 * variant lost, not the kernel's whole rewrite.  Returns how many
 * kernels keep a rewrite. */
static int
fallback(Optreq *o, const char *src, size_t n, Module *orig, Kern *k,
	int nk, Pipe *v)
{
	int kept = 0;

	for (int i = 0; i < nk; i++) {
		Kern *x = &k[i];
		int j = x->best;
		Fig g = x->after;
		if (!j)
			continue;
		/* the pick first (--time's, when it timed one), then the
		 * ranking */
		for (int r = 0; j && !provenone(o, src, n, orig, x, v, j);
		r++) {
			while (r < x->nrank && x->rank[r] == x->best)
				r++;
			j = r < x->nrank ? x->rank[r] : 0;
			g = r < x->nrank ? x->rankf[r] : x->before;
		}
		if (o->log && j != x->best)
			fprintf(o->log, "%s: note: %s: taking %s instead\n",
				progname, x->name, j ? v[j].text
				: "the input");
		x->best = j, x->after = g;
		kept += j != 0;
	}
	return kept;
}

/* ---- one parse for the whole search ----
 * The schedulers, remat and wgwait only permute a function's statement
 * array or build a new one: a copy of each array taken after parsing
 * gives the next variant the module as parsed.  moves and budget change
 * operands in place, and early and pin bind the registers again, so
 * their variants parse afresh.  PTXPRESS_SNAPCHECK
 * (tests/optcorpus.sh sets it) parses afresh too and compares. */
typedef struct Snap { Stmt *stmt; uint32_t nstmt; uint8_t dirty; } Snap;

static Snap *
snapshot(Module *m)
{
	Snap *sn = calloc(m->nitem + 1, sizeof *sn);

	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].fn;
		if (m->item[i].kind != Ifunc || !f->body)
			continue;
		sn[i].stmt = xmalloc((f->nstmt + 1) * sizeof *f->stmt);
		memcpy(sn[i].stmt, f->stmt, f->nstmt * sizeof *f->stmt);
		sn[i].nstmt = f->nstmt;
		sn[i].dirty = f->dirty;
	}
	return sn;
}

static void
restore(Module *m, const Snap *sn)
{
	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].fn;
		if (m->item[i].kind != Ifunc || !f->body)
			continue;
		f->stmt = alloc(m->a, (sn[i].nstmt + 1) * sizeof *f->stmt);
		memcpy(f->stmt, sn[i].stmt, sn[i].nstmt * sizeof *f->stmt);
		f->nstmt = sn[i].nstmt;
		f->dirty = sn[i].dirty;
	}
}

static void
unsnap(Module *m, Snap *sn)
{
	for (uint32_t i = 0; i < m->nitem; i++)
		free(sn[i].stmt);
	free(sn);
}

/* Does a pipeline change statements in place (needs its own parse)? */
static int
inplace(const Pipe *p)
{
	for (int k = 0; k < p->n; k++)
		if (p->p[k].moves || p->p[k].budget || p->p[k].across == 3
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
		afree(m->a);
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

/* --variants: for one kernel, every variant ptxas took, best first
 * (the search's order), with its figures: what a user trying passes on
 * one region (--lines) wants to see, not only the winner. */
static void
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

/* Writes variants v[i0..i1) of src for ptxas into dir and runs ptxas
 * on them (var[i].res).  One parse serves every variant whose passes
 * only reorder and insert statements: each starts from the same
 * statement arrays. */
static void
runround(Optreq *o, const char *src, size_t n, const Pipe *v, int i0, int i1,
	Var *var, const char *dir, const char *ptxas, int maj, int min)
{
	Diag d0 = {0};
	Module *base = parse(o->in, src, n, &d0);
	Snap *snap = snapshot(base);
	int check = getenv("PTXPRESS_SNAPCHECK") != 0;

	for (int i = i0; i < i1; i++) {
		size_t tn;
		Module *m = base;
		if (inplace(&v[i])) {
			Diag d = {0};
			m = parse(o->in, src, n, &d);
		} else
			restore(base, snap);
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
		if (check && m == base)
			snapcheck(o, src, n, (Pipe *)&v[i], t, tn, maj, min);
		var[i].pipe = v[i];
		snprintf(var[i].path, sizeof var[i].path, "%s/v%d.ptx", dir, i);
		writetmp(var[i].path, t, tn);
		free(t);
		if (m != base)
			afree(m->a);
	}
	unsnap(base, snap);
	afree(base->a);
	Pool pool = {var + i0, i1 - i0, 0, ptxas, o->arch, o->args,
		o->nvdisasm, 0, PTHREAD_MUTEX_INITIALIZER};
	runall(&pool, o->jobs);
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

/* Each kernel's figures over variants var[0..nv): the input's, the
 * ranking of those worth taking, the best unserialized one.  With
 * --sass-guard, a variant loopier than the input is refused, and one
 * that adds pin=loop(all) to a pick (parent) loopier than that pick:
 * the pins trade spills for loop work, and only a trade the SASS shows
 * as a gain is taken.  Returns how many kernels. */
static int
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
	const Pipe *from[64];
	int nf = 0, n = 0, max;

	for (int i = 0; i < nk && nf < 64; i++) {
		int dup = 0;
		if (!k[i].best || (k[i].after.spill == 0 && k[i].after.stack == 0))
			continue;
		for (int j = 0; j < nf; j++)
			dup |= from[j] == &all[k[i].best];
		if (!dup)
			from[nf++] = &all[k[i].best];
	}
	max = per * nf > Maxvar ? Maxvar : per * nf;
	for (int r = 0; nf && n < max && r < 4 * max; r++) {
		const Pipe *p = from[r % nf];
		char text[384], base[256];
		uint64_t seed = o->seed * 1000003u + 500000u + (uint64_t)r;
		/* the seed's suffix (@N) of a perturbed pick is no pass */
		snprintf(base, sizeof base, "%s", p->text);
		base[strcspn(base, "@")] = 0;
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
		n++;
	}
	for (int i = 0; i < 5 * nf && n < Maxvar; i++) {
		const Pipe *p = from[i / 5];
		const char *at = strchr(p->text, '@');
		int len = at ? (int)(at - p->text) : (int)strlen(p->text);
		char text[384];
		Pipe sm;
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
		if (p->n == Maxpass || pipeparse(add, o->seed, &sm))
			continue;
		snprintf(text, sizeof text, "%.*s,%s%s", len, p->text, sm.text,
			at ? at : "");
		if (strlen(text) >= sizeof v[n].text)
			continue;
		v[n] = *p;
		v[n].p[v[n].n++] = sm.p[0];
		v[n].parent = i % 5 >= 3 ? (int)(p - all) : 0;
		memcpy(v[n].text, text, strlen(text) + 1);
		n++;
	}
	return n;
}

/* The search: variants v[0..*nvp) (the caller's room for 2 * Maxvar),
 * assembled by ptxas and ranked per kernel into *kp.  Returns how many
 * kernels, or -1 (no ptxas, no variants). */
static int
search(Optreq *o, const char *src, size_t n, Module *orig, Kern **kp,
	Pipe *v, int *nvp)
{
	int nv = variants(o, v, o->tries < 2 ? 2 : o->tries > Maxvar
		? Maxvar : o->tries), maj, min, nk;
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
	runround(o, src, n, v, 0, nv, var, dir, ptxas, maj, min);
	if (nd)
		sassround(o, orig, var, 0, nv);
	nk = rankall(o, orig, var, nv, k);
	int rf = o->refine < 0 ? (o->tries > 0 ? o->tries / 2 : 0) : o->refine;
	int more = o->pipe ? 0 : refinements(o, k, nk, v, v + nv,
		rf > Maxvar ? Maxvar : rf);     /* per pick */
	if (more) {
		runround(o, src, n, v, nv, nv + more, var, dir, ptxas, maj, min);
		if (nd)
			sassround(o, orig, var, nv, nv + more);
		nv += more;
		nk = rankall(o, orig, var, nv, k);
	}
	for (int i = 0; o->variants && o->log && i < nk; i++)
		listvariants(o, k[i].name, var, nv);
	if (o->timel)
		timed(o, src, n, orig, k, nk, var, nv);
	if (var[0].res.status != 0 && var[0].res.log && o->log)
		fprintf(o->log, "%s: ptxas rejects the input:\n%s", progname,
			var[0].res.log);
	for (int i = 0; i < nv; i++) {
		char c[4200];
		cubinpath(&var[i], c, sizeof c);
		unlink(var[i].path);
		if (nd)
			unlink(c);
		ptxasfree(&var[i].res);
	}
	rmdir(dir);
	free(var);
	free(ptxas);
	o->nvdisasm = 0;
	free(nd);
	*kp = k;
	*nvp = nv;
	return nk;
}

static int
mentions(const char *s, size_t n, const char *w)
{
	return memmem(s, n, w, strlen(w)) != 0;     /* libc's, vectorized */
}

/* Rewrites src[0..n): the search when ptxas is at hand (o->search
 * -1: if found), else o->pipe as given.  out receives the rewritten text,
 * or the input when the rewrite is not proven.  Returns 0 rewritten,
 * 1 input kept, -1 the input does not parse (nothing in out). */
int
optimize(Optreq *o, const char *src, size_t n, Buf *out)
{
	Diag d = {0};
	Kern *k = 0;
	Pipe *v = 0;       /* the search's variants */
	Module *m;
	int nk;

	d.quiet = !o->log;
	Module *orig = o->orig ? o->orig : parse(o->in, src, n, &d);
	Arena *own = o->orig ? 0 : orig->a;    /* freed here when ours */
	if (orig->nerr || !orig->nitem) {
		afree(own);
		return -1;
	}
	if (o->search) {
		char *p = ptxasfind(o->ptxas);
		o->search = p != 0;
		free(p);
	}
	o->budgets = !o->nobudget && mentions(src, n, "setmaxnreg");
	o->wgmma = mentions(src, n, "wgmma.commit_group");
	o->bcast = o->budgets && mentions(src, n, "shfl.sync.idx");
	o->tmem = mentions(src, n, "tcgen05.ld");
	o->early = o->search && earlyfinds(orig);
	o->ldcvt = o->search && ldfinds(orig);
	o->xspill = !o->search || !o->wgmma ? 0 : xspillfinds(orig, 0) ? 1
		: o->timel && xspillfinds(orig, 1) ? 2 : 0;
	if (o->search) {
		int nv = 0;
		v = calloc(2 * Maxvar, sizeof *v);
		nk = search(o, src, n, orig, &k, v, &nv);
		if (nk < 0) {
			free(v);
			o->search = 0;
			afree(own);
			return optimize(o, src, n, out);
		}
		m = assemble(o, src, n, k, nk, v);
		Buf why = {0};
		int refused = 0;
		for (int i = 0; i < nk; i++)
			refused |= k[i].best && hooked(v[k[i].best].text);
		if (!proof(o, orig, m, out, refused, &why)) {
			report(o, k, nk, v, nv);
			free(k);
			free(v);
			afree(m->a);
			afree(own);
			return 0;
		}
		if (o->log)
			fprintf(o->log, "%s: note: %s: the picks are not proven "
				"together, so one kernel at a time: %s", progname,
				o->in, why.p);
		free(why.p);
		free(out->p);
		*out = (Buf){0};
		afree(m->a);
		int kept = fallback(o, src, n, orig, k, nk, v);
		report(o, k, nk, v, nv);
		if (!kept) {
			bput(out, src, n);
			free(k);
			free(v);
			afree(own);
			return 1;
		}
		m = assemble(o, src, n, k, nk, v);
	} else {
		Pipe p;
		if (pipeparse(o->pipe ? o->pipe : "sched=bu", o->seed, &p)) {
			afree(own);
			return -1;
		}
		Diag d2 = {0};
		m = parse(o->in, src, n, &d2);
		runpipe(m, &p, &o->sc, 0);
	}
	int rc = 0;
	if (proven(o, orig, m, out)) {
		free(out->p);
		*out = (Buf){0};
		bput(out, src, n);
		rc = 1;
	}
	free(k);
	free(v);
	afree(m->a);
	afree(own);
	return rc;
}

/* --cpu: the tool's own CPU time next to ptxas's.  opt spawns nothing
 * but ptxas, so the waited-for children's time is ptxas's; reading,
 * the passes, the proofs and writing are the process's own. */
static void
cpuline(Optreq *o)
{
	struct rusage self, kids;
	double a, b;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	a = (double)self.ru_utime.tv_sec + self.ru_utime.tv_usec / 1e6
		+ (double)self.ru_stime.tv_sec + self.ru_stime.tv_usec / 1e6;
	b = (double)kids.ru_utime.tv_sec + kids.ru_utime.tv_usec / 1e6
		+ (double)kids.ru_stime.tv_sec + kids.ru_stime.tv_usec / 1e6;
	fprintf(o->log ? o->log : stderr, "%s: CPU: ptxpress %.3f s, ptxas "
		"%.3f s%s\n", progname, a, b, b > 0 ? "" : " (not run)");
	if (b > 0)
		fprintf(o->log ? o->log : stderr, "%s: CPU: ptxpress's own "
			"work is %.1f %% of ptxas's\n", progname, 100 * a / b);
}

void
optdefaults(Optreq *o)
{
	memset(o, 0, sizeof *o);
	o->report = "text";
	o->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	o->tries = 12;
	o->refine = -1;         /* half the tries */
	o->seed = 1;
	o->search = -1;
	o->in = "<input>";
}

int
cmdopt(int argc, char **argv)
{
	Optreq o;
	Diag d;
	char *src;
	Buf text = {0};
	int rc;

	optdefaults(&o);
	o.in = 0;
	o.log = stderr;
	if ((rc = optargs(argc, argv, &o)))
		return rc < 0 ? 0 : rc;
	if (o.timel)            /* a bad launch file stops here, exit 2 */
		free(launchkernel(o.timel));
	if (o.search > 0) {
		char *p = ptxasfind(o.ptxas);
		if (!p) {
			fprintf(stderr, "%s opt: --search needs ptxas\n",
				progname);
			return 2;
		}
		free(p);
	}
	if (o.sass > 0) {
		char *p = ptxasfind(o.ptxas), *nd = nvdisasmfind(p);
		free(p);
		if (!nd) {
			fprintf(stderr, "%s opt: --sass-guard needs nvdisasm "
				"(beside ptxas, on PATH, or "
				"$PTXPRESS_NVDISASM)\n", progname);
			return 2;
		}
		free(nd);
	}
	Module *orig = load(o.in, &d, &src);
	if (!orig || orig->nerr) {
		unload(orig, src);
		return 2;
	}
	size_t n = orig->rawlen;
	o.orig = orig;          /* parsed once: optimize borrows it */
	rc = optimize(&o, src, n, &text);
	unload(orig, 0);
	if (rc < 0) {
		freefile(src);
		return 2;
	}
	rc = writeatomic(o.out, text.p ? text.p : "", text.n, o.inplace, o.in)
		? 2 : 0;
	if (o.cpu)
		cpuline(&o);
	free(text.p);
	freefile(src);
	return rc;
}
