/* fuzzopt.c: libFuzzer target over opt's passes, the validator as the
 * oracle.  The input is PTX (the seeds are the corpus and the tests, as
 * they are); a hash of it picks the pipeline and the seed.  When the
 * PTX parses and checks clean, the pipeline runs over every function
 * (no ptxas: the rewrite itself), the result is printed losslessly and
 * must parse again and check clean (every register name bound, every
 * inlined_at's place on an earlier .loc), and the validator must
 * prove it.  The passes and
 * the validator are written apart (see validate.c); a rewrite one makes
 * and the other refuses is a bug in one of them, so it aborts here,
 * whichever side it turns out to be on.  Crashes, leaks, UB and hangs in
 * either count too. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

const char *progname = "fuzzopt";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

static const char *const pipes[] = {
	"sched=bu", "sched=td", "sched=bu-rand", "sched=td-rand", "sink",
	"mix", "softmax=4", "softmax=1", "moves", "remat", "remat=roles",
	"remat=loop", "wgwait", "budget", "remat,sched=bu",
	"remat=loop,sched=td", "wgwait,remat,sched=td", "moves,sched=bu,sink",
	"tsink", "hoist", "remat=loop,sched=bu,tsink,hoist",
	"remat,sched=bu,softmax=4,tsink,hoist", "wgsplit",
	"wgsplit,wgwait,remat,sched=td", "wgsplit,remat=loop,sched=bu-rand",
	"wgsplit=pv,wgwait,remat,sched=bu",
	"remat=roles,softmax=2,sched=td-rand", "remat,moves,softmax=4,sched=bu-rand",
	"early", "early,remat=loop,sched=bu,tsink,hoist",
	"early,remat,sched=bu-rand", "moves,early,sched=td-rand",
	"tsink=far", "remat,sched=bu,tsink,hoist,tsink=far",
	"early,remat=loop,sched=bu,tsink,hoist,tsink=far",
	"early,pin,moves,sched=td-rand", "early,pin,remat,sched=bu-rand",
	"early,pin,remat=loop,sched=bu,tsink,hoist,tsink=far",
	"pin=cvt,sched=bu-rand", "remat,sched=bu,softmax=8,tsink,hoist,pin=cvt",
	"remat=loop,pin=ld", "pin=ld,sched=bu-rand",
	"remat=loop,softmax=4,pin=ld,mix",
	"remat=loop,pin=ld,pin=loop,sched=bu-rand", "remat,pin=loop,mix",
	"remat=loop,pin=ld,pin=loopall,sched=td-rand",
	"early,pin,remat=loop,pin=loop,pin=cvt,sched=td-rand",
};

static Module *
quietparse(const char *src, size_t n)
{
	Diag d = {0};

	d.quiet = 1;
	return parse("fuzz.ptx", src, n, &d);
}

static NORETURN void
fail(const char *pipe, const char *what, const char *detail)
{
	fprintf(stderr, "fuzzopt: %s: %s\n%s", pipe, what,
		detail ? detail : "");
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	if (!n || n > 65536)
		return 0;
	uint64_t h = fnv((const char *)data, n);
	const char *pipe = pipes[h % countof(pipes)];
	uint64_t seed = h / countof(pipes) % 1000;
	size_t len = n;
	char *src = xmalloc(len);
	Diag d = {0};

	memcpy(src, data, len);
	Module *a = quietparse(src, len);
	d.quiet = 1;
	if (!a->nerr)
		check(a, &d);
	/* opt takes only clean input; and the passes' per-register
	 * arrays make a body declaring millions of registers a second's
	 * work (fo47: %r<4194304>, the front end's limit, took remat=loop
	 * 1.1 s in a release build and past libFuzzer's 10 s here), so
	 * inputs past 2^18 registers in a function are left out */
	int huge = 0;
	for (uint32_t i = 0; i < a->nitem && !a->nerr; i++)
		huge |= a->item[i].kind == Ifunc
			&& a->item[i].fn->nreg > (1u << 18);
	if (a->nerr || d.nerr || huge) {
		afree(a->a);
		free(src);
		return 0;
	}
	Module *b = quietparse(src, len);
	if (optpipeline(b, pipe, seed) < 0)
		fail(pipe, "the pipeline does not parse", 0);
	Buf text = {0}, why = {0};
	emitlossless(&text, b);
	if (b->rawlen > b->len)
		bput(&text, b->src + b->len, b->rawlen - b->len);
	Module *re = quietparse(text.p ? text.p : "", text.n);
	if (re->nerr)
		fail(pipe, "the rewrite does not parse", text.p);
	/* clean as the input was: every name bound (a statement copied out
	 * of the scope that declares its register is not), and every
	 * inlined_at's place on an earlier .loc (ptxas's rule, locfix) */
	Diag dr = {0};
	dr.quiet = 1;
	if (check(re, &dr))
		fail(pipe, "the rewrite does not check", text.p);
	for (uint32_t i = 0; i < re->nitem; i++)
		if (re->item[i].kind == Ifunc && re->item[i].fn->body
		&& locfix(re, re->item[i].fn))
			fail(pipe, "an inlined_at before its .loc", text.p);
	if (validate(a, re, &why))
		fail(pipe, "the validator refuses the rewrite", why.p);
	afree(re->a);
	afree(b->a);
	afree(a->a);
	free(text.p);
	free(why.p);
	free(src);
	return 0;
}
