/* rewrite.c: the one entry point every caller (ptxpress-ptxas, dump)
 * uses to rewrite PTX: opt's search when a ptxas is at hand, else the
 * pipeline as given; proven by the validator or not rewritten at all.
 *
 * The pipeline: NULL or "" or "search" for the search over opt's default
 * variants, "none" or "identity" for the input as it is, anything else
 * an opt pipeline ("sched=bu,sink").  PTXPRESS_TRIES, PTXPRESS_REFINE
 * and PTXPRESS_SEED tune the search (default 8 tries, no refining
 * round, seed 1), PTXPRESS_JOBS its threads
 * (default 1: builds run jobs of their own).  Unlike opt's own default,
 * the search ranks as opt --unserialized does (PTXPRESS_UNSERIALIZED=0:
 * by spill alone): a build has no GPU to time candidates with, and on
 * the H200, Triton's d128_n128 through this path ran 5.5 % slower with
 * the spill-free but serialized pick and 14.5 % faster with the
 * unserialized one (bench/RESULTS.md, seventh session).  Likewise it
 * guards as opt --sass-guard does when an nvdisasm is found (beside
 * ptxas, on PATH or $PTXPRESS_NVDISASM; PTXPRESS_SASSGUARD=0: off):
 * on the H200 its worst pick ran 3 % slower than the input, the
 * unguarded search's 12 %, though on three of eight kernels it gave up
 * a rewrite 2-6 % faster (bench/RESULTS.md, fourteenth session). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "all.h"
#include "verify.h"

/* One report line per kernel, so callers can log what was done even
 * when nothing was. */
static void
reportfuncs(Buf *r, Module *m, const char *pipeline, const char *arch,
	int rc)
{
	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].kind == Ifunc ? m->item[i].fn : 0;
		if (!f || !f->entry || !f->body)
			continue;
		bprintf(r, "%s\t%s\t%s\t%s\n", f->name, arch, pipeline,
			rc ? "unchanged" : "rewritten");
	}
}

static int
envint(const char *name, int def)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : def;
}

int
rewrite(const char *path, const char *src, size_t n,
	const char *pipeline, const char *arch, const char *ptxas,
	const char *const *ptxasargs, char **out, Buf *report)
{
	Diag d = {0};
	Buf b = {0};
	Optreq o;
	int rc;

	*out = 0;
	if (!pipeline || !*pipeline)
		pipeline = "search";
	d.quiet = 1;  /* callers decide how loudly to fall back */
	Module *m = parse(path ? path : "<input>", src, n, &d);
	if (m->nerr || !m->nitem) {
		afree(m->a);
		return -1;
	}
	optdefaults(&o);
	o.in = path ? path : "<input>";
	o.arch = arch;
	o.ptxas = ptxas;
	o.args = ptxasargs;
	o.tries = envint("PTXPRESS_TRIES", 8);
	/* no refining round unless asked: on the H200 the refined pick
	 * for Triton's d128_n128 (176 bytes of spill, not 184) ran 3 %
	 * slower than the unrefined one (bench/RESULTS.md), and a build
	 * has no GPU to tell */
	o.refine = envint("PTXPRESS_REFINE", 0);
	o.seed = (uint64_t)envint("PTXPRESS_SEED", 1);
	o.jobs = envint("PTXPRESS_JOBS", 1);
	o.unserial = envint("PTXPRESS_UNSERIALIZED", 1) != 0;
	o.sass = envint("PTXPRESS_SASSGUARD", 1) ? -1 : 0;
	if (!strcmp(pipeline, "none") || !strcmp(pipeline, "identity")) {
		o.search = 0;
		o.pipe = "none";
	} else if (strcmp(pipeline, "search")) {
		o.search = 0;
		o.pipe = pipeline;
	}
	/* PTXPRESS_TIME=DIR: a kernel with DIR/NAME.launch is timed on the
	 * GPU among its candidates (opt --time) */
	const char *tdir = getenv("PTXPRESS_TIME");
	char tl[4096];
	for (uint32_t i = 0; tdir && *tdir && !o.timel && i < m->nitem; i++) {
		Func *f = m->item[i].fn;
		if (m->item[i].kind != Ifunc || !f->entry || !f->body)
			continue;
		snprintf(tl, sizeof tl, "%s/%s.launch", tdir, f->name);
		if (!access(tl, R_OK) && launchok(tl))
			o.timel = tl;
	}
	rc = optimize(&o, src, n, &b);
	if (rc < 0) {
		free(b.p);
		afree(m->a);
		return -1;
	}
	/* the NULs CuTe DSL dumps end with are past the PTX: dropped */
	while (b.n && !b.p[b.n - 1])
		b.n--;
	if (report)
		reportfuncs(report, m, pipeline, arch ? arch : m->target
			? m->target : "unknown", rc);
	afree(m->a);
	*out = b.p ? b.p : calloc(1, 1);
	if (b.p)
		b.p[b.n] = 0;
	return 0;
}
