/* opt.c: the command.  With ptxas at hand, opt assembles many legal
 * variants of each kernel (search.c: pipelines, pipe.c, and seeded
 * perturbations of them) in parallel, keeps per kernel the one with the
 * fewest spill bytes, then the smallest stack, then the fewest
 * registers (then, with --sass-guard, the cheapest loops: rank.c), and
 * never anything worse than the input.  Every result is proven by the
 * validator before it is written; what cannot be proven is not written
 * (the input is, or, kernel by kernel, the next variant of its
 * ranking). */
#define _GNU_SOURCE             /* memmem */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include "all.h"
#include "verify.h"
#include "opt.h"

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
"takes the next best variant that is, down to its input.  With\n"
"$PTXPRESS_REFUSED=FILE the last refused rewrite is written to FILE,\n"
"to read beside the reason the note gives.\n"
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
"                     pin=st         the same for the register a block's\n"
"                                    16 or more loads and stores take\n"
"                                    their addresses from (on no cycle,\n"
"                                    at the block's label), so ptxas\n"
"                                    cannot hoist the address math into\n"
"                                    the blocks before and hold every\n"
"                                    address at once (CUTLASS's Blackwell\n"
"                                    FMHA zero-fills a tile so)\n"
"                     pin=base       the same for such a register the\n"
"                                    block computes itself (pinned right\n"
"                                    after the statement that writes it,\n"
"                                    loops too): ptxas otherwise computes\n"
"                                    every address first and holds them\n"
"                                    all (CUTLASS's persistent kernels)\n"
"                     pin=dup[:K]    the same for what an mbarrier wait's\n"
"                                    parity or a mapa reads where an\n"
"                                    earlier one read it alike: ptxas\n"
"                                    derives the phase bit or the cluster\n"
"                                    address once and holds it between\n"
"                                    (K: only the K-th loop's pins; the\n"
"                                    refining round tries K = 1 to 5)\n"
"                     moves          remove register copies and pack/\n"
"                                    unpack pairs (copy propagation)\n"
"                     budget[=N][:R] give the warp role furthest over its\n"
"                                    setmaxnreg (R: the R-th) N more\n"
"                                    registers (8), taken from roles with\n"
"                                    slack, when the register-file\n"
"                                    arithmetic is proven\n"
"                     budget=V1/V2/... set the setmaxnreg counts, in\n"
"                                    the order they stand, of each kernel\n"
"                                    with that many, where they are\n"
"                                    proven to fit (try budgets by hand,\n"
"                                    with --kernel)\n"
"                     none           nothing\n"
"  --arch SM        target for ptxas (default: the file's .target)\n"
"  --no-search      apply the pipeline without asking ptxas\n"
"  -j N             ptxas runs in parallel (default: the CPUs)\n"
"  --tries N        variants to try (default 12)\n"
"  --refine N       then, for each kernel that still spills, N\n"
"                   perturbations of its best variant, and that\n"
"                   variant with softmax=4 and softmax=2 after it\n"
"                   (default: half of --tries; 0: none); then the\n"
"                   best two perturbations that spill less, each\n"
"                   with the best two passes added that do; then\n"
"                   (N >= 2), for a kernel with setmaxnreg that still\n"
"                   spills, its counts judged by ptxas on the kernel\n"
"                   alone (each 8 up and down, then counts that fit the\n"
"                   CTA's registers: shown as budget=V1/V2/...).  A\n"
"                   pipeline shown as P@S is -p P --seed S.  Less spill\n"
"                   is not always faster: on the H200 one such pick\n"
"                   ran 3 %% slower than the unrefined one; --time\n"
"                   decides on a GPU\n"
"  --seed S         seed of the perturbations (default 1)\n"
"  --report FMT     before/after table on stderr: text (default), json\n"
"  --no-budget      leave setmaxnreg budgets as they are in the search\n"
"                   (by default kernels with setmaxnreg also try budget,\n"
"                   and the budget round runs)\n"
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
"                   pressure peak ('ptxpress pressure') changed;\n"
"                   'ptxpress pressure FILE --compare OUT' then shows\n"
"                   ptxas's answer (with nvdisasm, its own peak)\n"
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

/* Applies to each kernel its chosen variant: on a copy sharing orig's
 * operands where no pick changes statements in place (the search ran
 * them so), else on a parse of src of its own.  0 where a pick wrote
 * into orig after all (o->noshare is then set, and orig is not to be
 * trusted). */
static Module *
assemble(Optreq *o, const char *src, size_t n, Module *orig, Kern *k,
	int nk, Pipe *v, int share)
{
	Diag d = {0};
	uint64_t sum = 0;
	Module *m;

	share &= !o->noshare;
	for (int i = 0; i < nk && share; i++)
		share = !inplace(&v[k[i].best]);
	if (share)
		sum = asum(orig->a), m = sharedcopy(orig);
	else
		m = parse(o->in, src, n, &d);
	for (int i = 0; i < nk; i++)
		runpipe(m, &v[k[i].best], &o->sc, k[i].name);
	if (share && !sharedok(orig, sum, "assemble")) {
		afree(m->a);
		o->noshare = 1;
		return 0;
	}
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

/* PTXPRESS_REFUSED=FILE writes a rewrite the validator refused there,
 * to read beside its reason (the output keeps the input). */
static void
keeprefused(const Buf *text)
{
	const char *path = getenv("PTXPRESS_REFUSED");
	FILE *fp = path && *path ? fopen(path, "w") : 0;

	if (!fp)
		return;
	fwrite(text->p ? text->p : "", 1, text->n, fp);
	fclose(fp);
}

/* Writes m into text and proves it computes what orig does: 0 proven,
 * else why says why (refused: the hook above).  m is freed once
 * written, so that the parse of text takes its memory rather than
 * fresh pages. */
static int
proof(Optreq *o, Module *orig, Module *m, Buf *text, int refused,
	Buf *why)
{
	Diag d = {0};
	int rc;

	emitlossless(text, m);
	if (m->rawlen > m->len)
		bput(text, m->src + m->len, m->rawlen - m->len);
	afree(m->a);
	if (refused) {
		bprintf(why, "PTXPRESS_UNPROVEN refuses it\n");
		keeprefused(text);
		return -1;
	}
	d.quiet = 1;
	Module *re = parse(o->in, text->p ? text->p : "", text->n, &d);
	rc = re->nerr ? -1 : validate(orig, re, why);
	if (re->nerr)
		bprintf(why, "it does not parse\n");
	if (rc)
		keeprefused(text);
	afree(re->a);
	return rc;
}

int
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
	/* found when the search first asks for them (search.c, found) */
	o->input = orig;
	o->maxnreg = mentions(src, n, "setmaxnreg");
	o->early = o->ldcvt = o->stbase = o->defbase = o->dup
		= o->search ? -1 : 0;
	o->xspill = !o->search || !o->wgmma ? 0 : xspillfinds(orig, 0) ? 1
		: o->timel && xspillfinds(orig, 1) ? 2 : 0;
	if (o->search) {
		int nv = 0;
		v = calloc(2 * Maxvar, sizeof *v);
		nk = search(o, src, n, orig, &k, v, &nv);
		m = nk >= 0 ? assemble(o, src, n, orig, k, nk, v, 1) : 0;
		const char *who = nk == -2 ? "a variant" : "a pick";
		if (nk >= 0 && !m) {    /* a pick wrote into orig */
			free(k);
			nk = -2;
		}
		if (nk == -2 && getenv("PTXPRESS_SNAPCHECK"))  /* tests */
			die("search: %s wrote into the input's parse", who);
		if (nk == -2 && o->log)
			fprintf(o->log, "%s: note: %s: %s changed the input's "
				"parse, which the variants share; searching "
				"again without sharing it\n", progname, o->in,
				who);
		if (nk < 0) {
			free(v);
			o->search = nk == -2;
			o->orig = nk == -2 ? 0 : o->orig; /* not to be trusted */
			afree(own);
			return optimize(o, src, n, out);
		}
		Buf why = {0};
		int refused = 0;
		for (int i = 0; i < nk; i++)
			refused |= k[i].best && hooked(v[k[i].best].text);
		if (!proof(o, orig, m, out, refused, &why)) {
			report(o, k, nk, v, nv);
			free(k);
			free(v);
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
		int kept = fallback(o, src, n, orig, k, nk, v);
		report(o, k, nk, v, nv);
		if (!kept) {
			bput(out, src, n);
			free(k);
			free(v);
			afree(own);
			return 1;
		}
		m = assemble(o, src, n, orig, k, nk, v, 0);
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
