/* pipe.c: opt's pipelines.  A pipeline is a list of passes
 * ("sched=bu,sink"), parsed once and run over every function in
 * scope, each pass a plain function of passes/ with its contract
 * there. */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "opt.h"

/* The passes a pipeline names: what each word sets in its Pass, in
 * the order the error for an unknown word lists them. */
enum { Pnone, Psched, Psoftmax, Pmoves, Premat, Pwgwait, Pxspill, Pacross,
	Pbudget };

typedef struct Word {
	const char *spell;      /* "sched=" may be left out */
	int what, val;          /* the field, and its value */
	int up, noise;          /* Psched: bottom-up; noisy */
} Word;

static const Word words[] = {
	{"sched=bu", Psched, Spressure, 1, 0},
	{"sched=td", Psched, Spressure, 0, 0},
	{"sched=bu-rand", Psched, Spressure, 1, 1},
	{"sched=td-rand", Psched, Spressure, 0, 1},
	{"softmax=F", Psoftmax, 0, 0, 0},
	{"mix", Psched, Smix, 1, 0},
	{"sink", Psched, Ssink, 1, 0},
	{"moves", Pmoves, 1, 0, 0},
	{"remat", Premat, 1 + Rplain, 0, 0},
	{"remat=roles", Premat, 1 + Rroles, 0, 0},
	{"remat=loop", Premat, 1 + Rloop, 0, 0},
	{"remat=bcast", Premat, 1 + Rbcast, 0, 0},
	{"wgwait", Pwgwait, 1, 0, 0},
	{"wgsplit", Pwgwait, 2, 0, 0},
	{"wgsplit=pv", Pwgwait, 3, 0, 0},
	{"xspill", Pxspill, 1, 0, 0},
	{"xspill=all", Pxspill, 2, 0, 0},
	{"tsink", Pacross, 1, 0, 0},
	{"tsink=far", Pacross, 4, 0, 0},
	{"hoist", Pacross, 2, 0, 0},
	{"early", Pacross, 3, 0, 0},
	{"pin", Pacross, 5, 0, 0},
	{"pin=cvt", Pacross, 6, 0, 0},
	{"pin=ld", Pacross, 7, 0, 0},
	{"pin=loop", Pacross, 8, 0, 0},
	{"pin=loopall", Pacross, 9, 0, 0},
	{"pin=st", Pacross, 10, 0, 0},
	{"pin=base", Pacross, 11, 0, 0},
	{"pin=dup[:K]", Pacross, 12, 0, 0},
	{"budget[=N][:R]", Pbudget, 0, 0, 0},      /* or budget=V1/V2/... */
	{"none", Pnone, 0, 0, 0},
};

/* budget=V1/V2/...: each a multiple of 8 in [24, 256], 16 at most. */
static int
budgetwords(const char *a, Pass *p)
{
	p->budget = -1;
	p->nset = 0;
	for (;;) {
		char *e;
		long v = strtol(a, &e, 10);
		if (e == a || v % 8 || v < 24 || v > 256 || p->nset == 16
		|| (*e && *e != '/')) {
			fprintf(stderr, "%s: budget=V1/V2/... takes up to 16 "
				"multiples of 8 from 24 to 256\n", progname);
			return -1;
		}
		p->set[p->nset++] = (short)v;
		if (!*e)
			return 0;
		a = e + 1;
	}
}

/* The word a (less its "sched="), or 0.  softmax and budget take
 * their arguments after the name. */
static const Word *
lookup(const char *a)
{
	for (size_t i = 0; i < countof(words); i++) {
		const char *s = words[i].spell;
		s += strncmp(s, "sched=", 6) ? 0 : 6;
		if (words[i].what == Pacross && words[i].val == 12
		? !strncmp(a, "pin=dup", 7) && (!a[7] || a[7] == ':')
		: words[i].what == Psoftmax ? !strncmp(a, "softmax", 7)
		: words[i].what == Pbudget ? !strncmp(a, "budget", 6)
		: !strcmp(a, s))
			return &words[i];
	}
	return 0;
}

static void
unknown(const char *w)
{
	fprintf(stderr, "%s: unknown pass '%s' (passes: ", progname, w);
	for (size_t i = 0; i < countof(words); i++)
		fprintf(stderr, "%s%s", i ? ", " : "", words[i].spell);
	fprintf(stderr, ")\n");
}

/* Sets pass p as word k says, a its text.  Returns 0, or -1 with a
 * word on stderr. */
static int
setpass(Pass *p, const Word *k, const char *a)
{
	switch (k->what) {
	case Psched:
		p->s = (Sched){.kind = k->val, .up = k->up,
			.noise = k->noise ? 2.0 : 0, .seed = p->s.seed};
		break;
	case Psoftmax: {
		int F = a[7] == '=' ? atoi(a + 8) : 4;
		if (F != 1 && F != 2 && F != 4 && F != 8) {
			fprintf(stderr, "%s: softmax=F takes F = 1, 2, 4 "
				"or 8\n", progname);
			return -1;
		}
		p->s = (Sched){.kind = Sfrag, .frags = F, .seed = p->s.seed};
		break;
	}
	case Pmoves: p->moves = k->val; break;
	case Premat: p->remat = k->val; break;
	case Pwgwait: p->wgwait = k->val; break;
	case Pxspill: p->xspill = k->val; break;
	case Pacross:   /* pin=dup[:K] */
		p->across = k->val;
		p->rank = k->val == 12 && a[7] == ':' ? atoi(a + 8) : 0;
		if (k->val == 12 && a[7] == ':' && (p->rank < 1 || p->rank > 64
		|| strspn(a + 8, "0123456789") != strlen(a + 8))) {
			fprintf(stderr, "%s: pin=dup:K takes K from 1 to 64\n",
				progname);
			return -1;
		}
		break;
	case Pbudget:   /* budget[=STEP][:RANK], budget=V1/V2/... */
		if (a[6] == '=' && strchr(a, '/'))
			return budgetwords(a + 7, p);
		p->budget = a[6] == '=' ? atoi(a + 7) : 8;
		p->rank = strchr(a, ':') ? atoi(strchr(a, ':') + 1) : 0;
		if (p->budget % 8 || p->budget <= 0 || p->budget > 128) {
			fprintf(stderr, "%s: budget=N takes a multiple "
				"of 8\n", progname);
			return -1;
		}
		break;
	}
	return 0;
}

/* Parses "sched=bu,sink,sched=td-rand".  Returns 0, or -1 with a word
 * on stderr. */
int
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
		const Word *k = lookup(a);
		if (pp->n == Maxpass) {
			fprintf(stderr, "%s: pipeline of more than %d passes\n",
				progname, Maxpass);
			return -1;
		}
		if (!k) {
			unknown(w);
			return -1;
		}
		if (k->what == Pnone)
			continue;
		p->s.seed = seed + (uint64_t)pp->n;
		if (setpass(p, k, a))
			return -1;
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
uint32_t
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
				pp->p[k].across - 5, pp->p[k].rank, had)
				: pp->p[k].moves ? moves(f)
				: pp->p[k].budget < 0 ? (uint32_t)budgetset(m, f,
				pp->p[k].set, pp->p[k].nset)
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
					: pp->p[k].across == 12 ? "twin reads"
					: pp->p[k].across >= 10 ? "address bases"
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
