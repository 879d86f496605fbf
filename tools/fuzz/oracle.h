/* oracle.h: the opt fuzzers' oracle, one copy for the two that use it
 * (fuzzopt.c, libFuzzer's bytes; tests/opt/linemut.c, whole lines of
 * the tests moved about).  Static functions in a header: each user is
 * one translation unit built on its own (tools/fuzz/run.sh compiles
 * fuzzopt.c with clang alone).
 *
 * The input is PTX; when it parses and checks clean, the pipeline runs
 * over every function (no ptxas: the rewrite itself), the result is
 * printed losslessly and must parse again and check clean (every
 * register name bound, every inlined_at's place on an earlier .loc),
 * and the validator must prove it.  The passes and the validator are
 * written apart (see validate.c); a rewrite one makes and the other
 * refuses is a bug in one of them, whichever side it turns out to be
 * on. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* The pipelines tried: every pass, alone and in the orders the search
 * uses, seeded schedulers among them. */
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
	"xspill=all", "xspill=all,remat,sched=bu-rand",
	"wgsplit,xspill=all,sched=td-rand", "remat=loop,xspill=all,moves",
	"pin=st", "pin=st,sched=bu-rand", "remat,sched=bu,pin=st",
	"remat=loop,pin=ld,pin=st,mix",
	"pin=base", "remat=loop,pin=base,sched=bu-rand",
	"remat=loop,sched=bu,tsink,hoist,pin=base", "pin=st,pin=base,mix",
	"pin=dup", "remat=loop,pin=base,pin=dup:1,sched=bu-rand",
	"pin=dup:2,mix", "remat=loop,sched=bu,tsink,hoist,pin=base,pin=dup",
	"budget:1", "budget=16,sched=td", "remat=bcast,sched=bu",
	"budget,softmax=4",
};

static Module *
quietparse(const char *src, size_t n)
{
	Diag d = {0};

	d.quiet = 1;
	return parse("fuzz.ptx", src, n, &d);
}

/* -1: not clean input (nothing to say); 0: proven; 1: pass and
 * validator disagree, why says how (with the rewrite where it helps).
 * src holds n bytes and stays the caller's. */
static int
oracle(const char *src, size_t n, const char *pipe, uint64_t seed, Buf *why)
{
	Diag d = {0};
	int rc = 0;

	d.quiet = 1;
	Module *a = quietparse(src, n);
	if (!a->nerr)
		check(a, &d);
	/* opt takes only clean input; and the passes' per-register
	 * arrays make a body declaring millions of registers a second's
	 * work (fo47: %r<4194304>, the front end's limit, took remat=loop
	 * 1.1 s in a release build and past libFuzzer's 10 s), so inputs
	 * past 2^18 registers in a function are left out */
	int huge = 0;
	for (uint32_t i = 0; i < a->nitem && !a->nerr; i++)
		huge |= a->item[i].kind == Ifunc
			&& a->item[i].fn->nreg > (1u << 18);
	if (a->nerr || d.nerr || huge) {
		afree(a->a);
		return -1;
	}
	Module *b = quietparse(src, n);
	if (optpipeline(b, pipe, seed) < 0) {
		bprintf(why, "%s: the pipeline does not parse\n", pipe);
		afree(b->a);
		afree(a->a);
		return 1;
	}
	Buf text = {0};
	emitlossless(&text, b);
	if (b->rawlen > b->len)
		bput(&text, b->src + b->len, b->rawlen - b->len);
	Module *re = quietparse(text.p ? text.p : "", text.n);
	Diag dr = {0};
	dr.quiet = 1;
	if (re->nerr) {
		bprintf(why, "%s: the rewrite does not parse\n", pipe);
		rc = 1;
	} else if (check(re, &dr)) {
		/* clean as the input was: every name bound (a statement
		 * copied out of the scope that declares its register is
		 * not) */
		bprintf(why, "%s: the rewrite does not check\n", pipe);
		rc = 1;
	}
	/* every inlined_at's place on an earlier .loc (ptxas's rule,
	 * locfix) */
	for (uint32_t i = 0; !rc && i < re->nitem; i++)
		if (re->item[i].kind == Ifunc && re->item[i].fn->body
		&& locfix(re, re->item[i].fn)) {
			bprintf(why, "%s: an inlined_at before its .loc\n",
				pipe);
			rc = 1;
		}
	if (!rc) {
		Buf v = {0};
		if (validate(a, re, &v)) {
			bprintf(why, "%s: the validator refuses the rewrite\n%s",
				pipe, v.p ? v.p : "");
			rc = 1;
		}
		free(v.p);
	}
	if (rc && text.p)
		bput(why, text.p, text.n);
	afree(re->a);
	afree(b->a);
	afree(a->a);
	free(text.p);
	return rc;
}
