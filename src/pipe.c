/* pipe.c: opt's pipelines.  A pipeline is a list of passes
 * ("sched=bu,sink"), parsed once and run over every function in
 * scope, each pass a plain function of passes/ with its contract
 * there. */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "opt.h"

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
