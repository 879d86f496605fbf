/* cmdpressure.c: the pressure command.  Where in a kernel the registers
 * go, which values hold them, which source lines put them there, the
 * cap each region runs under, and what ptxas made of it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "all.h"

enum { Maxtop = 64, Maxgroup = 12, Maxsrc = 4 };

typedef struct Popt {
	const char *in, *kernel, *svg, *html, *arch, *compare;
	int top, json, noptxas, dumplive, dumppress;
} Popt;

/* The source a statement comes from: the .loc before it. */
typedef struct Src {
	const Stmt **loc;       /* per statement, or 0 */
	Str *file;              /* .file table by number */
	uint32_t nfile;
} Src;

/* Values live at a peak that share a definition site. */
typedef struct Group {
	Str op;                 /* "ex2.approx" */
	Str type;
	const Stmt *dloc, *uloc;
	Str uop;
	int count, units;
	uint32_t until;
} Group;

typedef struct Kern {
	Func *f;
	Region reg[Maxtop];
	uint32_t nreg;
	Role role[16];
	uint32_t nrole;
	Finding lint[4];
	uint32_t nlint;
	const Pxfn *px;
	int spill;              /* press > cap somewhere */
	uint32_t spillat;
} Kern;

static int
help(FILE *f)
{
	fprintf(f,
"usage: ptxpress pressure FILE [--kernel NAME] [--top N] [--json]\n"
"                         [--svg OUT] [--html OUT] [--arch SM]\n"
"                         [--no-ptxas] [--compare OTHER]\n"
"\n"
"Estimates the register pressure of every function: the peak in 32-bit\n"
"registers (a b64 is two, predicates apart), the floor no reordering\n"
"can remove (values live across memory operations, barriers, MMAs,\n"
"branches), the cap each region runs under (255, .maxnreg, what\n"
".maxntid/.reqntid with .minnctapersm leave, setmaxnreg per warp\n"
"role), the top N regions with their .loc source lines and the values\n"
"live at each peak grouped by where they were defined.  When ptxas is\n"
"found, its registers and spill bytes are shown beside the estimate.\n"
"\n"
"  --kernel NAME  only this function\n"
"  --top N        regions per function (default 3)\n"
"  --json         machine-readable output (schema: doc/pressure.md)\n"
"  --svg OUT      plot of the pressure along the instruction stream\n"
"  --html OUT     the plot beside the PTX, peaks linked to lines\n"
"  --arch SM      ptxas target (default: the file's .target)\n"
"  --no-ptxas     do not run ptxas\n"
"  --compare OTHER  the same kernel of OTHER beside it: figures, ptxas,\n"
"                 op counts (mov, ex2, cvt, ...), roles, regions matched\n"
"                 by place (.loc line, else role and last tcgen05/\n"
"                 mbarrier/bar landmark), values live at the peaks and\n"
"                 the places whose peaks and moves differ most\n"
"\n"
"Exit status: 0 done, 2 bad input or usage.\n");
	return f == stdout ? 0 : 2;
}

static int
args(int argc, char **argv, Popt *o)
{
	o->top = 3;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int more = i + 1 < argc;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return help(stdout) - 1;
		if (!strcmp(a, "--kernel") && more)
			o->kernel = argv[++i];
		else if (!strcmp(a, "--top") && more)
			o->top = atoi(argv[++i]);
		else if (!strcmp(a, "--json"))
			o->json = 1;
		else if (!strcmp(a, "--svg") && more)
			o->svg = argv[++i];
		else if (!strcmp(a, "--html") && more)
			o->html = argv[++i];
		else if (!strcmp(a, "--compare") && more)
			o->compare = argv[++i];
		else if (!strcmp(a, "--arch") && more)
			o->arch = argv[++i];
		else if (!strcmp(a, "--no-ptxas"))
			o->noptxas = 1;
		else if (!strcmp(a, "--dump-live"))    /* tests */
			o->dumplive = o->noptxas = 1;
		else if (!strcmp(a, "--dump-press"))   /* tests */
			o->dumppress = o->noptxas = 1;
		else if ((a[0] != '-' || !a[1]) && !o->in)
			o->in = a;
		else {
			fprintf(stderr, "%s pressure: unexpected argument '%s'\n",
				progname, a);
			return help(stderr);
		}
	}
	if (o->top < 0 || o->top > Maxtop)
		o->top = o->top < 0 ? 0 : Maxtop;
	return o->in ? 0 : help(stderr);
}

/* ---- ptxas ---- */

/* Runs ptxas on a copy it accepts; 0 and r filled, or -1. */
static int
runptxas(Module *m, const char *arch, Pxres *r)
{
	char *ptxas = ptxasfind(0), *fixed, path[64];
	int maj = 99, min = 9, rc = -1, fd;
	size_t n;

	memset(r, 0, sizeof *r);
	if (!ptxas)
		return -1;
	if (ptxasisa(ptxas, &maj, &min) < 0)
		maj = 99, min = 9;
	fixed = ptxfixup(m->src, m->rawlen, maj, min, &n, 0);
	snprintf(path, sizeof path, "/tmp/ptxpress-XXXXXX");
	fd = fixed ? mkstemp(path) : -1;
	if (fd >= 0) {
		if (write(fd, fixed, n) == (ssize_t)n) {
			/* with an nvdisasm at hand, each function's loops too
			 * (what opt --sass-guard weighs) */
			char *nd = nvdisasmfind(ptxas);
			Pxopt o = {ptxas, path, arch, 0, 0, nd};
			rc = ptxasrun(&o, r);
			free(nd);
		}
		close(fd);
		unlink(path);
	}
	free(fixed);
	free(ptxas);
	return rc;
}

static const Pxfn *
pxfind(const Pxres *r, Str name)
{
	for (int i = 0; r && i < r->nfn; i++)
		if (!strcmp(r->fn[i].name, name))
			return &r->fn[i];
	return 0;
}

/* ---- source lines ---- */

static void
srcinit(Src *S, Module *m, Func *f)
{
	const Stmt *cur = 0;

	S->loc = xmalloc((f->nstmt + 1) * sizeof *S->loc);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (f->stmt[i].kind == Sloc)
			cur = &f->stmt[i];
		S->loc[i] = cur;
	}
	if (S->file)
		return;
	S->nfile = 0;
	for (uint32_t i = 0; i < m->nitem; i++)
		if (m->item[i].kind == Ifile) {
			uint32_t k = (uint32_t)atoi(m->item[i].s);
			if (k + 1 > S->nfile)
				S->nfile = k + 1;
		}
	S->file = calloc(S->nfile + 1, sizeof *S->file);
	for (uint32_t i = 0; i < m->nitem; i++) {
		const char *s = m->item[i].s, *q;
		if (m->item[i].kind != Ifile || !(s = strchr(s, '"')))
			continue;
		q = strchr(s + 1, '"');
		S->file[atoi(m->item[i].s)] = intern(s + 1,
			q ? (size_t)(q - s - 1) : strlen(s + 1));
	}
}

static const char *
base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : 0;

	return s ? s + 1 : p ? p : "?";
}

static Str
fname(Src *S, int32_t k)
{
	return k >= 0 && (uint32_t)k < S->nfile && S->file[k] ? S->file[k]
		: "?";
}

/* "softmax.py:211:8 <- flash_fwd.py:923" */
static void
locstr(Src *S, const Stmt *l, char *out, size_t n)
{
	int k;

	if (!l) {
		snprintf(out, n, "?");
		return;
	}
	k = snprintf(out, n, "%s:%d", base(fname(S, l->ll->loc[0])),
		l->ll->loc[1]);
	if (l->ll->loc[2] && k > 0 && (size_t)k < n)
		k += snprintf(out + k, n - k, ":%d", l->ll->loc[2]);
	if (l->ll->inl[1] && k > 0 && (size_t)k < n)
		snprintf(out + k, n - k, " \u2190 %s:%d",
			base(fname(S, l->ll->inl[0])), l->ll->inl[1]);
}

/* ---- live values at a peak, by definition site ---- */

static void
opname(const Stmt *s, char *out, size_t n)
{
	size_t k = (size_t)snprintf(out, n, "%s", s->name);
	int used = 0;

	for (uint32_t i = 0; i < s->nmod && used < 2 && k < n; i++) {
		const char *m = s->mod[i];
		if (!strcmp(m, ".sync") || !strcmp(m, ".aligned")
		|| !strcmp(m, ".uni"))
			continue;
		k += (size_t)snprintf(out + k, n - k, "%s", m);
		used++;
	}
}

typedef struct Peakset { uint64_t *v; } Peakset;

static void
setfn(void *arg, int32_t r, int def, int kill)
{
	Peakset *p = arg;

	UNUSED(kill);
	if (def)
		p->v[r / 64] |= (uint64_t)1 << (r % 64);
}

/* Registers live at statement at, with its results. */
static uint64_t *
liveat(Func *f, uint32_t at)
{
	Ana *A = f->ana;
	Walk w;
	uint64_t *v = calloc(A->nword, 8);
	Peakset p = {v};

	if (!v)
		die("out of memory");
	walkbegin(&w, f, A->blkof[at]);
	for (;;) {
		memcpy(v, w.live, A->nword * 8);
		if (!walkprev(&w) || w.i <= at)
			break;
	}
	for (uint32_t k = 0; k < A->nword; k++)
		v[k] |= w.live[k];
	walkend(&w);
	insregs(&f->stmt[at], setfn, &p);
	return v;
}

typedef struct Du { int32_t *def, *use; uint32_t at, i; } Du;

static void
dufn(void *arg, int32_t r, int def, int kill)
{
	Du *d = arg;

	UNUSED(kill);
	/* the last definition up to at, else the first after it; the
	 * last use in the stream */
	if (def && (d->i <= d->at || d->def[r] < 0))
		d->def[r] = (int32_t)d->i;
	if (!def)
		d->use[r] = (int32_t)d->i;
}

static int
groupcmp(const void *a, const void *b)
{
	const Group *x = a, *y = b;

	return y->units - x->units;
}

static uint32_t
groups(Func *f, Src *S, uint32_t at, Group *g, uint32_t max)
{
	uint64_t *v = liveat(f, at);
	Du d = {0};
	uint32_t n = 0;
	char buf[64];

	d.def = xmalloc((f->nreg + 1) * sizeof *d.def);
	d.use = xmalloc((f->nreg + 1) * sizeof *d.use);
	memset(d.def, 0xff, (f->nreg + 1) * sizeof *d.def);
	memset(d.use, 0xff, (f->nreg + 1) * sizeof *d.use);
	d.at = at;
	for (d.i = 0; d.i < f->nstmt; d.i++)
		insregs(&f->stmt[d.i], dufn, &d);
	Group *all = calloc(f->nreg + 1, sizeof *all);
	for (uint32_t r = 0; r < f->nreg; r++) {
		if (!bitget(v, r) || f->reg[r].pred)
			continue;
		const Stmt *ds = d.def[r] >= 0 ? &f->stmt[d.def[r]] : 0;
		if (ds)
			opname(ds, buf, sizeof buf);
		Str op = ds ? interns(buf) : "(parameter)";
		const Stmt *dl = d.def[r] >= 0 ? S->loc[d.def[r]] : 0;
		uint32_t k;
		for (k = 0; k < n; k++)
			if (all[k].op == op && all[k].type == f->reg[r].type
			&& (all[k].dloc == dl || (dl && all[k].dloc
			&& dl->ll->loc[0] == all[k].dloc->ll->loc[0]
			&& dl->ll->loc[1] == all[k].dloc->ll->loc[1])))
				break;
		if (k == n)
			all[n++] = (Group){op, f->reg[r].type, dl, 0, 0, 0, 0, 0};
		all[k].count++;
		/* as the pressure weighs it: uniform and c[] values are free */
		if (!f->ana->free || !f->ana->free[r])
			all[k].units += f->reg[r].units;
		if (d.use[r] >= 0 && (uint32_t)d.use[r] >= all[k].until)
			all[k].until = (uint32_t)d.use[r];
	}
	qsort(all, n, sizeof *all, groupcmp);
	for (uint32_t k = 0; k < n && k < max; k++) {
		if (all[k].until) {
			const Stmt *u = &f->stmt[all[k].until];
			opname(u, buf, sizeof buf);
			all[k].uop = interns(buf);
			all[k].uloc = S->loc[all[k].until];
		}
		g[k] = all[k];
	}
	free(all);
	free(d.def);
	free(d.use);
	free(v);
	return n < max ? n : max;
}

/* The source lines of a region, most instructions first. */
typedef struct Srcn { const Stmt *l; int n; } Srcn;

static int
srcncmp(const void *a, const void *b)
{
	return ((const Srcn *)b)->n - ((const Srcn *)a)->n;
}

static uint32_t
sources(Func *f, Src *S, Region *r, Srcn *out, uint32_t max)
{
	Srcn v[64];
	uint32_t n = 0;

	for (uint32_t i = r->first; i <= r->last; i++) {
		const Stmt *l = S->loc[i];
		uint32_t k;
		if (f->stmt[i].kind != Sins || !l || !l->ll->loc[1])
			continue;
		for (k = 0; k < n; k++)
			if (v[k].l->ll->loc[0] == l->ll->loc[0]
			&& v[k].l->ll->loc[1] == l->ll->loc[1]
			&& v[k].l->ll->inl[1] == l->ll->inl[1])
				break;
		if (k == n && n < countof(v))
			v[n++] = (Srcn){l, 0};
		if (k < n)
			v[k].n++;
	}
	qsort(v, n, sizeof *v, srcncmp);
	for (uint32_t k = 0; k < n && k < max; k++)
		out[k] = v[k];
	return n < max ? n : max;
}

/* ---- one function ---- */

static void
analyse(Module *m, Func *f, Kern *k, int top, const Pxres *px)
{
	Ana *A;

	memset(k, 0, sizeof *k);
	k->f = f;
	fillcfg(f, m);
	filllive(f);
	fillpressure(f);
	A = f->ana;
	k->nreg = regions(f, k->reg, (uint32_t)top);
	k->nrole = fillroles(f, m, k->role, countof(k->role));
	k->nlint = lintfunc(f, m, k->lint, countof(k->lint));
	k->px = pxfind(px, f->name);
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && A->press[i] > A->cap[i]
		&& (!k->spill || A->press[i] - A->cap[i]
		> A->press[k->spillat] - A->cap[k->spillat])) {
			k->spill = 1;
			k->spillat = i;
		}
}

static int
capmin(Func *f)
{
	Ana *A = f->ana;
	int c = A->launch;

	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && A->cap[i] && A->cap[i] < c)
			c = A->cap[i];
	return c;
}

static int
capmax(Func *f)
{
	Ana *A = f->ana;
	int c = 0;

	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && A->cap[i] > c)
			c = A->cap[i];
	return c ? c : A->launch;
}

/* The counts the setmaxnreg instructions ask for, whether or not ptxas
 * will honour them. */
static void
asked(Func *f, int *lo, int *hi)
{
	*lo = 1 << 30;
	*hi = 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->op != Osetmaxnreg || !s->nop
		|| s->opd[0].kind != Pint)
			continue;
		int v = atoi(s->opd[0].s);
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
	if (!*hi)
		*lo = 0;
}

static const char *
launchwhy(Func *f)
{
	static char buf[128];
	size_t k = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < f->nperf && k < sizeof buf; i++) {
		Perf *p = &f->perf[i];
		if (strcmp(p->name, ".maxnreg") && strcmp(p->name, ".maxntid")
		&& strcmp(p->name, ".reqntid")
		&& strcmp(p->name, ".minnctapersm"))
			continue;
		k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s %s",
			k ? " " : "", p->name, p->args ? p->args : "");
	}
	return k ? buf : "default";
}

static void
printgroups(FILE *o, Func *f, Src *S, uint32_t at)
{
	Group g[Maxgroup];
	uint32_t n = groups(f, S, at, g, countof(g));
	char a[160], b[160];

	for (uint32_t k = 0; k < n; k++) {
		locstr(S, g[k].dloc, a, sizeof a);
		locstr(S, g[k].uloc, b, sizeof b);
		fprintf(o, "        %3d \u00d7 %s (%d regs) from %s%s%s", g[k].count,
			g[k].type ? g[k].type + 1 : "?", g[k].units, g[k].op,
			g[k].dloc ? " at " : "", g[k].dloc ? a : "");
		if (g[k].uop)
			fprintf(o, ", live until %s%s%s", g[k].uop,
				g[k].uloc ? " at " : "", g[k].uloc ? b : "");
		fputc('\n', o);
	}
}

static void
printtext(FILE *o, Kern *k, Src *S)
{
	Func *f = k->f;
	Ana *A = f->ana;
	uint32_t nins = 0;
	char a[160];

	for (uint32_t i = 0; i < f->nstmt; i++)
		nins += f->stmt[i].kind == Sins;
	fprintf(o, "%s %s (line %u): %u instructions, %u blocks, "
		"%u registers\n", f->entry ? "kernel" : "function", f->name,
		f->pos.line, nins, A->nblk, f->nreg);
	fprintf(o, "  estimated peak %d regs (+%d predicates) at line %u, "
		"floor %d", A->peak, A->ppeak, f->stmt[A->peakat].pos.line,
		A->floor);
	if (A->floor)
		fprintf(o, " at line %u", f->stmt[A->floorat].pos.line);
	fprintf(o, "\n  cap %d at launch (%s)", A->launch, launchwhy(f));
	if (A->nsetmax && A->capknown == 2)
		fprintf(o, ", %d to %d by setmaxnreg", capmin(f), capmax(f));
	else if (A->nsetmax) {
		int lo, hi;
		asked(f, &lo, &hi);
		fprintf(o, ", %d to %d asked by setmaxnreg%s", lo, hi,
			A->capknown ? " (may be ignored, C7508: add "
			".minnctapersm)" : " (ignored: no count at entry)");
	}
	fprintf(o, "\n  spill predicted: %s", k->spill ? "yes" : "no");
	if (k->spill)
		fprintf(o, " (%d > cap %d at line %u)", A->press[k->spillat],
			A->cap[k->spillat], f->stmt[k->spillat].pos.line);
	fputc('\n', o);
	if (k->px)
		fprintf(o, "  ptxas: %d registers, %ld bytes spill stores, "
			"%ld bytes spill loads, %ld bytes stack%s\n", k->px->regs,
			k->px->spillst, k->px->spillld, k->px->stack,
			k->px->wgserial ? "; wgmmas serialized (ptxas's C751x"
			" 'Potential Performance Loss' note)" : "");
	if (k->px && k->px->sassloop >= 0)
		fprintf(o, "  SASS (nvdisasm): %ld instructions in loops, %ld "
			"of them local memory; %ld local memory outside "
			"loops; %ld loads spilled in flight\n",
			k->px->sassloop, k->px->sasslocal, k->px->sassout,
			k->px->sassexposed);
	for (uint32_t i = 0; i < k->nrole; i++)
		fprintf(o, "  role [%s] from line %u: %u instructions, peak "
			"%d, cap %d%s%s%s\n", k->role[i].what,
			f->stmt[k->role[i].first].pos.line, k->role[i].nins,
			k->role[i].peak, k->role[i].cap,
			k->role[i].ops[0] ? " (" : "", k->role[i].ops,
			k->role[i].ops[0] ? ")" : "");
	for (uint32_t i = 0; i < k->nreg; i++) {
		Region *r = &k->reg[i];
		Srcn sv[Maxsrc];
		uint32_t ns = sources(f, S, r, sv, Maxsrc);
		fprintf(o, "  region %u: lines %u-%u, peak %d at line %u, "
			"floor %d, cap %d\n", i + 1, f->stmt[r->first].pos.line,
			f->stmt[r->last].pos.line, r->peak,
			f->stmt[r->at].pos.line, r->floor, r->cap);
		for (uint32_t j = 0; j < ns; j++) {
			locstr(S, sv[j].l, a, sizeof a);
			fprintf(o, "%s%s (%d)", j ? ", " : "    from ", a,
				sv[j].n);
		}
		if (ns)
			fputc('\n', o);
		fprintf(o, "    live at the peak:\n");
		printgroups(o, f, S, r->at);
	}
	for (uint32_t i = 0; i < k->nlint; i++)
		fprintf(o, "  lint %s: %s\n", k->lint[i].kind, k->lint[i].msg);
}

/* ---- JSON (doc/pressure.md) ---- */

static void
jstr(FILE *o, const char *s)
{
	fputc('"', o);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", c);
		else if (c < 0x20)
			fprintf(o, "\\u%04x", c);
		else
			fputc(c, o);
	}
	fputc('"', o);
}

static void
jloc(FILE *o, Src *S, const Stmt *l)
{
	if (!l) {
		fprintf(o, "null");
		return;
	}
	fprintf(o, "{\"file\": ");
	jstr(o, fname(S, l->ll->loc[0]));
	fprintf(o, ", \"line\": %d, \"col\": %d", l->ll->loc[1], l->ll->loc[2]);
	if (l->ll->inl[1]) {
		fprintf(o, ", \"inlined_at\": {\"file\": ");
		jstr(o, fname(S, l->ll->inl[0]));
		fprintf(o, ", \"line\": %d}", l->ll->inl[1]);
	}
	fputc('}', o);
}

static void
jgroups(FILE *o, Func *f, Src *S, uint32_t at)
{
	Group g[Maxgroup];
	uint32_t n = groups(f, S, at, g, countof(g));

	fprintf(o, "[");
	for (uint32_t k = 0; k < n; k++) {
		fprintf(o, "%s\n\t\t\t{\"count\": %d, \"units\": %d, \"type\": ",
			k ? "," : "", g[k].count, g[k].units);
		jstr(o, g[k].type ? g[k].type + 1 : "?");
		fprintf(o, ", \"def\": ");
		jstr(o, g[k].op);
		fprintf(o, ", \"def_source\": ");
		jloc(o, S, g[k].dloc);
		fprintf(o, ", \"until\": ");
		if (g[k].uop)
			jstr(o, g[k].uop);
		else
			fprintf(o, "null");
		fprintf(o, ", \"until_source\": ");
		jloc(o, S, g[k].uloc);
		fputc('}', o);
	}
	fprintf(o, "]");
}

static void
jpx(FILE *o, const Pxfn *p)
{
	if (!p) {
		fprintf(o, "null");
		return;
	}
	fprintf(o, "{\"registers\": %d, \"spill_stores\": %ld, "
		"\"spill_loads\": %ld, \"stack\": %ld, \"wgmma_serialized\": "
		"%s", p->regs, p->spillst, p->spillld, p->stack,
		p->wgserial ? "true" : "false");
	if (p->sassloop >= 0)
		fprintf(o, ", \"sass_loop\": %ld, \"sass_loop_local\": %ld, "
			"\"sass_local_outside\": %ld, "
			"\"sass_loads_spilled_in_flight\": %ld", p->sassloop,
			p->sasslocal, p->sassout, p->sassexposed);
	fputc('}', o);
}

/* A region's fields, the object left open for the caller's. */
static void
jregion(FILE *o, Func *f, Src *S, Region *r)
{
	Srcn sv[Maxsrc];
	uint32_t ns = sources(f, S, r, sv, Maxsrc);

	fprintf(o, "{\"first_line\": %u, \"last_line\": %u, "
		"\"peak_line\": %u, \"peak\": %d, \"floor\": %d, "
		"\"cap\": %d,\n\t\t \"sources\": [",
		f->stmt[r->first].pos.line, f->stmt[r->last].pos.line,
		f->stmt[r->at].pos.line, r->peak, r->floor, r->cap);
	for (uint32_t j = 0; j < ns; j++) {
		fprintf(o, "%s", j ? ", " : "");
		jloc(o, S, sv[j].l);
	}
	fprintf(o, "],\n\t\t \"live\": ");
	jgroups(o, f, S, r->at);
}

static void
printjson(FILE *o, Kern *k, Src *S, int first)
{
	Func *f = k->f;
	Ana *A = f->ana;

	fprintf(o, "%s\n\t{\"name\": ", first ? "" : ",");
	jstr(o, f->name);
	fprintf(o, ", \"entry\": %s, \"line\": %u, \"blocks\": %u,\n\t "
		"\"peak\": %d, \"peak_line\": %u, \"predicates\": %d, "
		"\"floor\": %d, \"cap\": %d, \"launch_cap\": %d, "
		"\"cap_known\": %s, \"setmaxnreg\": %d, "
		"\"spill_predicted\": %s,\n\t \"ptxas\": ",
		f->entry ? "true" : "false", f->pos.line, A->nblk, A->peak,
		f->stmt[A->peakat].pos.line, A->ppeak, A->floor,
		A->cap[A->peakat] ? A->cap[A->peakat] : A->launch, A->launch,
		A->capknown == 2 ? "true" : A->capknown ? "\"maybe\""
		: "false", A->nsetmax,
		k->spill ? "true" : "false");
	jpx(o, k->px);
	fprintf(o, ",\n\t \"roles\": [");
	for (uint32_t i = 0; i < k->nrole; i++) {
		Role *r = &k->role[i];
		fprintf(o, "%s\n\t\t{\"what\": ", i ? "," : "");
		jstr(o, r->what);
		fprintf(o, ", \"first_line\": %u, \"instructions\": %u, "
			"\"peak\": %d, \"cap\": %d, \"loop\": %s, \"ops\": ",
			f->stmt[r->first].pos.line, r->nins, r->peak, r->cap,
			r->loop ? "true" : "false");
		jstr(o, r->ops);
		fputc('}', o);
	}
	fprintf(o, "],\n\t \"regions\": [");
	for (uint32_t i = 0; i < k->nreg; i++) {
		fprintf(o, "%s\n\t\t", i ? "," : "");
		jregion(o, f, S, &k->reg[i]);
		fputc('}', o);
	}
	fprintf(o, "],\n\t \"lint\": [");
	for (uint32_t i = 0; i < k->nlint; i++) {
		fprintf(o, "%s{\"kind\": ", i ? ", " : "");
		jstr(o, k->lint[i].kind);
		fprintf(o, ", \"line\": %u, \"message\": ",
			f->nstmt ? f->stmt[k->lint[i].at].pos.line : f->pos.line);
		jstr(o, k->lint[i].msg);
		fputc('}', o);
	}
	fprintf(o, "]}");
}

/* ---- dumps for tests: blocks, live sets, pressure ---- */

static void
dumpset(FILE *o, Func *f, const uint64_t *v)
{
	char buf[64];

	for (uint32_t r = 0; r < f->nreg; r++)
		if (bitget(v, r))
			fprintf(o, " %s", regname(f, (int32_t)r, buf, sizeof buf));
}

static uint32_t
line(Func *f, uint32_t i)
{
	return i < f->nstmt ? f->stmt[i].pos.line : f->close.off ? 0 : 0;
}

static void
dumplive(FILE *o, Func *f)
{
	Ana *A = f->ana;

	fprintf(o, "func %s\n", f->name);
	for (uint32_t b = 0; b < A->nblk; b++) {
		Blk *B = &A->blk[b];
		fprintf(o, "b%u lines %u-%u ->", b, line(f, B->first),
			B->end > B->first ? line(f, B->end - 1) : 0);
		for (uint32_t s = 0; s < B->nsucc; s++)
			fprintf(o, " b%u", B->succ[s]);
		fprintf(o, "\n  in:");
		dumpset(o, f, B->in);
		fprintf(o, "\n  out:");
		dumpset(o, f, B->out);
		fputc('\n', o);
	}
}

static void
dumppress(FILE *o, Func *f)
{
	Ana *A = f->ana;

	fprintf(o, "func %s peak %d floor %d preds %d launch %d\n", f->name,
		A->peak, A->floor, A->ppeak, A->launch);
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins)
			fprintf(o, "line %u: %s units %d preds %d across %d "
				"cap %d\n", f->stmt[i].pos.line, f->stmt[i].name,
				A->press[i], A->ppred[i], A->across[i], A->cap[i]);
}

/* ---- the plots ---- */

typedef struct Out { Buf panels, html; int npanel; } Out;

static void
labels(Kern *k, Src *S, char (*lab)[96])
{
	for (uint32_t i = 0; i < k->nreg; i++) {
		Srcn sv[1];
		Region *r = &k->reg[i];
		int n = snprintf(lab[i], 96, "peak %d", r->peak);
		if (sources(k->f, S, r, sv, 1)) {
			char a[80];
			locstr(S, sv[0].l, a, sizeof a);
			snprintf(lab[i] + n, 96 - (size_t)n, " %s", a);
		} else
			snprintf(lab[i] + n, 96 - (size_t)n, " line %u",
				k->f->stmt[r->at].pos.line);
	}
}

static void
escb(Buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '<')
			bputs(b, "&lt;");
		else if (s[i] == '>')
			bputs(b, "&gt;");
		else if (s[i] == '&')
			bputs(b, "&amp;");
		else if (s[i] != '\r')
			bput(b, s + i, 1);
}

/* The function's PTX, one anchor per line, the regions marked. */
static void
listing(Buf *b, Module *m, Kern *k)
{
	Func *f = k->f;
	uint32_t off = f->head.off, end = f->close.off + f->close.len;
	uint32_t ln = 1;
	const char *s = m->src;

	while (off > 0 && s[off - 1] != '\n')
		off--;
	for (uint32_t p = 0; p < off; p++)
		ln += s[p] == '\n';
	bputs(b, "<pre class=\"ptx\">");
	while (off < end) {
		uint32_t e = off;
		while (e < end && s[e] != '\n')
			e++;
		const char *cls = "";
		for (uint32_t i = 0; i < k->nreg; i++) {
			Region *r = &k->reg[i];
			if (ln == f->stmt[r->at].pos.line)
				cls = " class=\"pk\"";
			else if (!*cls && ln >= f->stmt[r->first].pos.line
			&& ln <= f->stmt[r->last].pos.line)
				cls = " class=\"rg\"";
		}
		bprintf(b, "<span id=\"L%u\"%s><i>%6u</i> ", ln, cls, ln);
		escb(b, s + off, e - off);
		bputs(b, "</span>\n");
		off = e + 1;
		ln++;
	}
	bputs(b, "</pre>\n");
}

static void
plot(Kern *k, Src *S, Module *m, Out *o)
{
	char lab[Maxtop][96];

	labels(k, S, lab);
	svgpanel(&o->panels, k->f, k->reg, k->nreg, lab,
		o->npanel * svgheight(), 0);
	o->npanel++;
	bputs(&o->html, "<section><div class=\"plot\">");
	svgbegin(&o->html, 1);
	svgpanel(&o->html, k->f, k->reg, k->nreg, lab, 0, 1);
	bputs(&o->html, "</svg><ol>");
	for (uint32_t i = 0; i < k->nreg; i++) {
		bprintf(&o->html, "<li><a href=\"#L%u\">", 
			k->f->stmt[k->reg[i].at].pos.line);
		escb(&o->html, lab[i], strlen(lab[i]));
		bprintf(&o->html, "</a> (lines %u-%u, cap %d)</li>",
			k->f->stmt[k->reg[i].first].pos.line,
			k->f->stmt[k->reg[i].last].pos.line, k->reg[i].cap);
	}
	bputs(&o->html, "</ol></div>");
	listing(&o->html, m, k);
	bputs(&o->html, "</section>\n");
}

static int
writeplots(Popt *po, Out *o)
{
	Buf b = {0};
	int rc = 0;

	if (po->svg) {
		svgbegin(&b, o->npanel);
		bput(&b, o->panels.p ? o->panels.p : "", o->panels.n);
		bputs(&b, "</svg>\n");
		rc |= writeatomic(po->svg, b.p, b.n, 0, po->in);
		free(b.p);
		b = (Buf){0};
	}
	if (po->html) {
		bputs(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
			"<title>ptxpress pressure</title><style>"
			"body{font-family:sans-serif;margin:0}"
			"section{display:flex;align-items:flex-start;"
			"border-bottom:2px solid #ccc}"
			".plot{position:sticky;top:0;flex:0 0 auto;width:60%}"
			".plot svg{width:100%;height:auto}"
			".ptx{flex:1;height:100vh;overflow:auto;margin:0;"
			"font-size:12px;background:#fafafa}"
			".ptx i{color:#999;font-style:normal}"
			".rg{background:#fde8c4}.pk{background:#f5a623}"
			":target{outline:2px solid #d0021b}"
			"</style></head><body>\n");
		bput(&b, o->html.p ? o->html.p : "", o->html.n);
		bputs(&b, "</body></html>\n");
		rc |= writeatomic(po->html, b.p, b.n, 0, po->in);
		free(b.p);
	}
	return rc ? 2 : 0;
}

/* ---- --compare: one kernel of two files side by side ---- */

enum { Maxlist = 10, Maxrole = 257, Maxall = 512 };

/* The instruction counts of both sides under one spelling. */
typedef struct Cnt { Str key; int n[2]; } Cnt;

/* Where an instruction sits, comparable across two builds of a kernel:
 * its .loc line, or without line info its warp role and the last
 * landmark of that role before it, counted in statement order:
 * "[warp <= 7] tcgen05.ld.32x32b.x16.b32 #5". */
typedef struct Place {
	Str key;
	int seen[2], peak[2], nins[2], nmov[2];
	uint32_t at[2];         /* the hottest statement of each side */
} Place;

/* Values live at the two hottest peaks under one definition site. */
typedef struct Gdiff {
	Str op, type[2], src;
	int count[2], units[2];
} Gdiff;

/* Bits of a register type; .f32 and .b32 hold the same values. */
static int
width(Str t)
{
	return !t ? 0 : strstr(t, "64") ? 64 : strstr(t, "16")
		&& !strstr(t, "x2") ? 16 : strstr(t, "8") ? 8 : 32;
}

/* "f32", or "f32|b32" when the two sides declare it differently */
static const char *
gdtype(const Gdiff *g, char *buf, size_t n)
{
	Str a = g->type[0] ? g->type[0] : g->type[1];
	Str b = g->type[1] ? g->type[1] : a;

	snprintf(buf, n, "%s%s%s", a ? a + 1 : "?", a != b ? "|" : "",
		a != b ? b + 1 : "");
	return buf;
}

typedef struct Side {
	const char *path;
	Module *m;
	char *src;
	Diag d;
	Pxres px;
	int havepx;
	Func *f;
	Kern k;
	Src S;
	Str *place;             /* per statement, 0 for non-instructions */
} Side;

typedef struct Cmp {
	Side s[2];
	Cnt *op;
	uint32_t nop, capop;
	Place *pl;
	uint32_t npl, cappl;
	int hot;                /* a place is hot from this peak on */
} Cmp;

static const char *const Skipmod[] = {".sync", ".aligned", ".uni", ".rn",
	".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi", ".ftz", ".sat"};

/* "cvt.bf16x2.f32": the opcode and its modifiers less rounding, .ftz,
 * .sat, .sync/.aligned, which do not change what it computes on. */
static Str
countkey(const Stmt *s)
{
	char buf[96];
	size_t k = (size_t)snprintf(buf, sizeof buf, "%s", s->name);

	for (uint32_t i = 0; i < s->nmod && k < sizeof buf; i++) {
		uint32_t j;
		for (j = 0; j < countof(Skipmod); j++)
			if (!strcmp(s->mod[i], Skipmod[j]))
				break;
		if (j == countof(Skipmod))
			k += (size_t)snprintf(buf + k, sizeof buf - k, "%s",
				s->mod[i]);
	}
	return interns(buf);
}

static int
landmark(const Stmt *s)
{
	switch (s->op) {
	case Otcgen05_ld: case Otcgen05_st: case Otcgen05_mma:
	case Otcgen05_commit: case Otcgen05_wait: case Ombarrier_try_wait:
	case Ombarrier_test_wait: case Obar: case Obarrier: case Osetmaxnreg:
	case Owgmma_mma_async: case Owgmma_wait_group:
		return 1;
	}
	return 0;
}

/* "softmax.py:211 <- flash_fwd.py:923": a .loc without its column */
static Str
locplace(Src *S, const Stmt *l)
{
	char buf[200];
	int k = snprintf(buf, sizeof buf, "%s:%d", base(fname(S, l->ll->loc[0])),
		l->ll->loc[1]);

	if (l->ll->inl[1] && k > 0 && (size_t)k < sizeof buf)
		snprintf(buf + k, sizeof buf - (size_t)k, " \u2190 %s:%d",
			base(fname(S, l->ll->inl[0])), l->ll->inl[1]);
	return interns(buf);
}

typedef struct Mark { int role; Str spell; int n; } Mark;

static Str
markplace(Mark *mk, uint32_t *nmk, int role, const char *what,
	const Stmt *s)
{
	char spell[96], buf[320];
	Str sp;
	uint32_t k;

	opname(s, spell, sizeof spell);
	sp = countkey(s);
	for (k = 0; k < *nmk; k++)
		if (mk[k].role == role && mk[k].spell == sp)
			break;
	if (k == *nmk && *nmk < Maxall)
		mk[(*nmk)++] = (Mark){role, sp, 0};
	if (k == Maxall)
		k--;
	snprintf(buf, sizeof buf, "[%s] %s #%d", what, sp, ++mk[k].n);
	return interns(buf);
}

static void
fillplaces(Side *sd)
{
	Func *f = sd->f;
	Ana *A = f->ana;
	Str rn[Maxrole] = {0}, cur[Maxrole] = {0};
	Mark *mk = xmalloc(Maxall * sizeof *mk);
	uint32_t nmk = 0;
	char buf[200];

	sd->place = calloc(f->nstmt + 1, sizeof *sd->place);
	if (!sd->place)
		die("out of memory");
	for (uint32_t r = 0; r < sd->k.nrole; r++) {
		int id = A->blk[A->blkof[sd->k.role[r].first]].role + 1;
		if (id > 0 && id < Maxrole)
			rn[id] = interns(sd->k.role[r].what);
	}
	for (uint32_t i = 0; i < f->nstmt; i++) {
		const Stmt *s = &f->stmt[i], *l = sd->S.loc[i];
		if (s->kind != Sins)
			continue;
		if (l && l->ll->loc[1]) {
			sd->place[i] = locplace(&sd->S, l);
			continue;
		}
		int id = A->blk[A->blkof[i]].role + 1;
		if (id < 0 || id >= Maxrole || !rn[id])
			id = 0;
		const char *what = id ? rn[id] : "any warp";
		if (landmark(s))
			cur[id] = markplace(mk, &nmk, id, what, s);
		if (!cur[id]) {
			snprintf(buf, sizeof buf, "[%s] start", what);
			cur[id] = interns(buf);
		}
		sd->place[i] = cur[id];
	}
	free(mk);
}

static Cnt *
cntget(Cmp *c, Str key)
{
	for (uint32_t i = 0; i < c->nop; i++)
		if (c->op[i].key == key)
			return &c->op[i];
	if (c->nop == c->capop) {
		c->capop = c->capop ? 2 * c->capop : 64;
		c->op = xrealloc(c->op, c->capop * sizeof *c->op);
	}
	c->op[c->nop] = (Cnt){key, {0, 0}};
	return &c->op[c->nop++];
}

static Place *
plget(Cmp *c, Str key)
{
	for (uint32_t i = 0; i < c->npl; i++)
		if (c->pl[i].key == key)
			return &c->pl[i];
	if (c->npl == c->cappl) {
		c->cappl = c->cappl ? 2 * c->cappl : 64;
		c->pl = xrealloc(c->pl, c->cappl * sizeof *c->pl);
	}
	memset(&c->pl[c->npl], 0, sizeof *c->pl);
	c->pl[c->npl].key = key;
	return &c->pl[c->npl++];
}

/* Counts per opcode and per place, both sides into one list each. */
static void
tally(Cmp *c)
{
	c->nop = c->npl = 0;
	for (int x = 0; x < 2; x++) {
		Func *f = c->s[x].f;
		Ana *A = f->ana;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			const Stmt *s = &f->stmt[i];
			if (s->kind != Sins)
				continue;
			cntget(c, countkey(s))->n[x]++;
			Place *p = plget(c, c->s[x].place[i]);
			if (!p->seen[x] || A->press[i] > p->peak[x]) {
				p->peak[x] = A->press[i];
				p->at[x] = i;
			}
			p->seen[x] = 1;
			p->nins[x]++;
			p->nmov[x] += s->op == Omov;
		}
	}
	int pk = c->s[0].f->ana->peak, pk1 = c->s[1].f->ana->peak;
	c->hot = (pk > pk1 ? pk : pk1) * 3 / 4;
}

static int
cntcmp(const void *a, const void *b)
{
	const Cnt *x = a, *y = b;
	int dx = abs(x->n[1] - x->n[0]), dy = abs(y->n[1] - y->n[0]);

	if (dx != dy)
		return dy - dx;
	return (y->n[0] + y->n[1]) - (x->n[0] + x->n[1]);
}

static int Hot;     /* qsort has no argument: the threshold plcmp uses */

/* Hot places on both sides first, by how much their peaks differ. */
static int
plcmp(const void *a, const void *b)
{
	const Place *x = a, *y = b;
	int hx = x->seen[0] && x->seen[1] && (x->peak[0] >= Hot
		|| x->peak[1] >= Hot);
	int hy = y->seen[0] && y->seen[1] && (y->peak[0] >= Hot
		|| y->peak[1] >= Hot);
	int dx = abs(x->peak[1] - x->peak[0]);
	int dy = abs(y->peak[1] - y->peak[0]);

	if (hx != hy)
		return hy - hx;
	if (dx != dy)
		return dy - dx;
	return (y->peak[0] + y->peak[1]) - (x->peak[0] + x->peak[1]);
}

static int
movcmp(const void *a, const void *b)
{
	const Place *x = a, *y = b;

	return abs(y->nmov[1] - y->nmov[0]) - abs(x->nmov[1] - x->nmov[0]);
}

/* Values live at the hottest statement of place p on each side, merged
 * by definition site. */
static uint32_t
livediff(Cmp *c, const Place *p, Gdiff *out, uint32_t max)
{
	Group *g = xmalloc(Maxall * sizeof *g);
	uint32_t n = 0;
	char a[160];

	for (int x = 0; x < 2; x++) {
		Side *sd = &c->s[x];
		if (!p->seen[x])
			continue;
		uint32_t ng = groups(sd->f, &sd->S, p->at[x], g, Maxall);
		for (uint32_t i = 0; i < ng; i++) {
			Str src = g[i].dloc ? (locstr(&sd->S, g[i].dloc, a,
				sizeof a), interns(a)) : 0;
			uint32_t k;
			for (k = 0; k < n; k++)
				if (out[k].op == g[i].op && out[k].src == src
				&& width(out[k].type[out[k].type[0] ? 0 : 1])
				== width(g[i].type))
					break;
			if (k == n && n == max)
				continue;
			if (k == n)
				out[n++] = (Gdiff){g[i].op, {0, 0}, src,
					{0, 0}, {0, 0}};
			out[k].type[x] = g[i].type;
			out[k].count[x] += g[i].count;
			out[k].units[x] += g[i].units;
		}
	}
	free(g);
	return n;
}

static int
gdcmp(const void *a, const void *b)
{
	const Gdiff *x = a, *y = b;
	int dx = abs(x->units[1] - x->units[0]);
	int dy = abs(y->units[1] - y->units[0]);

	if (dx != dy)
		return dy - dx;
	return (y->units[0] + y->units[1]) - (x->units[0] + x->units[1]);
}

/* The figures of the summary, both sides, -1 for unknown. */
enum { Fins, Fblk, Freg, Fpeak, Fpred, Ffloor, Flaunch, Fcaplo, Fcaphi,
	Fspill, Fpxreg, Fpxst, Fpxld, Fpxstack, Nfig };

static const char *const Figname[Nfig] = {"instructions", "blocks",
	"virtual_registers", "peak", "predicates", "floor", "launch_cap",
	"cap_min", "cap_max", "spill_predicted", "ptxas_registers",
	"ptxas_spill_stores", "ptxas_spill_loads", "ptxas_stack"};

static const char *const Figtext[Nfig] = {"instructions", "blocks",
	"virtual registers", "estimated peak", "predicates", "floor",
	"launch cap", "lowest cap", "highest cap", "spill predicted",
	"ptxas registers", "ptxas spill stores (B)", "ptxas spill loads (B)",
	"ptxas stack (B)"};

static void
figures(Side *sd, long *v)
{
	Func *f = sd->f;
	Ana *A = f->ana;
	const Pxfn *p = sd->k.px;

	v[Fins] = 0;
	for (uint32_t i = 0; i < f->nstmt; i++)
		v[Fins] += f->stmt[i].kind == Sins;
	v[Fblk] = A->nblk;
	v[Freg] = f->nreg;
	v[Fpeak] = A->peak;
	v[Fpred] = A->ppeak;
	v[Ffloor] = A->floor;
	v[Flaunch] = A->launch;
	v[Fcaplo] = capmin(f);
	v[Fcaphi] = capmax(f);
	v[Fspill] = sd->k.spill;
	v[Fpxreg] = p ? p->regs : -1;
	v[Fpxst] = p ? p->spillst : -1;
	v[Fpxld] = p ? p->spillld : -1;
	v[Fpxstack] = p ? p->stack : -1;
}

/* Base opcodes whose totals head the counts. */
static const char *const Headline[] = {"mov", "ex2", "cvt", "fma", "mul",
	"add", "tcgen05.ld", "tcgen05.st"};

static void
headline(Cmp *c, int *n)
{
	memset(n, 0, 2 * countof(Headline) * sizeof *n);
	for (int x = 0; x < 2; x++) {
		Func *f = c->s[x].f;
		for (uint32_t i = 0; i < f->nstmt; i++)
			for (uint32_t h = 0; f->stmt[i].kind == Sins
			&& h < countof(Headline); h++)
				n[2 * h + x] += !strcmp(f->stmt[i].name,
					Headline[h]);
	}
}

static void
cell(FILE *o, long v, int w)
{
	if (v < 0)
		fprintf(o, "%*s", w, "-");
	else
		fprintf(o, "%*ld", w, v);
}

static void
row(FILE *o, const char *what, long a, long b)
{
	if (strlen(what) > 26)     /* long spellings: numbers below */
		fprintf(o, "    %s\n%30s", what, "");
	else
		fprintf(o, "    %-26s", what);
	cell(o, a, 8);
	cell(o, b, 8);
	if (a >= 0 && b >= 0)
		fprintf(o, " %+7ld", b - a);
	fputc('\n', o);
}

static void
textregions(FILE *o, Cmp *c, int x)
{
	Side *sd = &c->s[x], *ot = &c->s[!x];
	Func *f = sd->f;

	fprintf(o, "  regions of %c:\n", "AB"[x]);
	for (uint32_t i = 0; i < sd->k.nreg; i++) {
		Region *r = &sd->k.reg[i];
		Srcn sv[Maxsrc];
		uint32_t ns = sources(f, &sd->S, r, sv, Maxsrc);
		char a[160];
		fprintf(o, "    region %u: lines %u-%u, peak %d at line %u, "
			"floor %d, cap %d\n", i + 1, f->stmt[r->first].pos.line,
			f->stmt[r->last].pos.line, r->peak,
			f->stmt[r->at].pos.line, r->floor, r->cap);
		for (uint32_t j = 0; j < ns; j++) {
			locstr(&sd->S, sv[j].l, a, sizeof a);
			fprintf(o, "%s%s (%d)", j ? ", " : "      from ", a,
				sv[j].n);
		}
		if (ns)
			fputc('\n', o);
		Place *p = plget(c, sd->place[r->at]);
		fprintf(o, "      at %s; in %c: ", p->key, "AB"[!x]);
		if (p->seen[!x])
			fprintf(o, "peak %d at line %u\n", p->peak[!x],
				ot->f->stmt[p->at[!x]].pos.line);
		else
			fprintf(o, "no such place\n");
		fprintf(o, "      live at the peak:\n");
		printgroups(o, f, &sd->S, r->at);
	}
}

static void
plrow(FILE *o, const Place *p)
{
	char ins[32], mov[32];

	fprintf(o, "    ");
	cell(o, p->seen[0] ? p->peak[0] : -1, 8);
	cell(o, p->seen[1] ? p->peak[1] : -1, 8);
	if (p->seen[0] && p->seen[1])
		fprintf(o, " %+7d", p->peak[1] - p->peak[0]);
	else
		fprintf(o, " %7s", "");
	snprintf(ins, sizeof ins, "%d/%d", p->nins[0], p->nins[1]);
	snprintf(mov, sizeof mov, "%d/%d", p->nmov[0], p->nmov[1]);
	fprintf(o, "  %-13s %-13s %s\n", ins, mov, p->key);
}

/* The role of the other side with the same condition, or 0. */
static Role *
rolematch(Cmp *c, int x, const Role *r)
{
	for (uint32_t j = 0; j < c->s[!x].k.nrole; j++)
		if (!strcmp(c->s[!x].k.role[j].what, r->what))
			return &c->s[!x].k.role[j];
	return 0;
}

static void
textroles(FILE *o, Cmp *c)
{
	fprintf(o, "  roles:\n");
	for (int x = 0; x < 2; x++)
		for (uint32_t i = 0; i < c->s[x].k.nrole; i++) {
			Role *r = &c->s[x].k.role[i], *q = rolematch(c, x, r);
			if (x && q)
				continue;   /* printed with A */
			Role *a = x ? q : r, *b = x ? r : q;
			fprintf(o, "    [%s]\n", r->what);
			row(o, "  instructions", a ? (long)a->nins : -1,
				b ? (long)b->nins : -1);
			row(o, "  peak", a ? a->peak : -1, b ? b->peak : -1);
			row(o, "  cap", a ? a->cap : -1, b ? b->cap : -1);
		}
}

/* At the place of each side's hottest region, once per place. */
static void
textlive(FILE *o, Cmp *c)
{
	Gdiff gd[Maxall];
	char tb[40];
	Str done = 0;

	for (int x = 0; x < 2; x++) {
		Side *sd = &c->s[x];
		if (!sd->k.nreg || sd->place[sd->k.reg[0].at] == done)
			continue;
		Place *p = plget(c, done = sd->place[sd->k.reg[0].at]);
		fprintf(o, "  live at the peak of %s (%c's hottest region), "
			"registers by definition:\n", p->key, "AB"[x]);
		fprintf(o, "    %8s%8s %7s\n", "A", "B", "B-A");
		uint32_t ng = livediff(c, p, gd, countof(gd));
		qsort(gd, ng, sizeof *gd, gdcmp);
		for (uint32_t i = 0; i < ng && i < Maxlist * 2; i++)
			if (gd[i].units[0] || gd[i].units[1])
				fprintf(o, "    %8d%8d %+7d  %s from %s%s%s\n",
					gd[i].units[0], gd[i].units[1],
					gd[i].units[1] - gd[i].units[0],
					gdtype(&gd[i], tb, sizeof tb), gd[i].op,
					gd[i].src ? " at " : "",
					gd[i].src ? gd[i].src : "");
	}
}

static void
cmptext(FILE *o, Cmp *c)
{
	long v[2][Nfig];
	int hl[2 * countof(Headline)];
	uint32_t n;

	fprintf(o, "kernel A %s\n", c->s[0].f->name);
	if (strcmp(c->s[1].f->name, c->s[0].f->name))
		fprintf(o, "   and B %s\n", c->s[1].f->name);
	figures(&c->s[0], v[0]);
	figures(&c->s[1], v[1]);
	fprintf(o, "    %-26s%8s%8s %7s\n", "", "A", "B", "B-A");
	for (int i = 0; i < Nfig; i++)
		row(o, Figtext[i], v[0][i], v[1][i]);
	headline(c, hl);
	fprintf(o, "  instructions by opcode:\n");
	for (uint32_t h = 0; h < countof(Headline); h++)
		row(o, Headline[h], hl[2 * h], hl[2 * h + 1]);
	qsort(c->op, c->nop, sizeof *c->op, cntcmp);
	fprintf(o, "  most changed spellings:\n");
	for (uint32_t i = 0; i < c->nop && i < Maxlist * 2; i++)
		if (c->op[i].n[0] != c->op[i].n[1])
			row(o, c->op[i].key, c->op[i].n[0], c->op[i].n[1]);
	textroles(o, c);
	textregions(o, c, 0);
	textregions(o, c, 1);
	textlive(o, c);
	Hot = c->hot;
	qsort(c->pl, c->npl, sizeof *c->pl, plcmp);
	fprintf(o, "  places that differ most (hot: a peak >= %d):\n", c->hot);
	fprintf(o, "    %8s%8s %7s  %-13s %-13s place\n", "peak A", "B",
		"B-A", "instrs A/B", "mov A/B");
	for (n = 0; n < c->npl && n < Maxlist; n++)
		plrow(o, &c->pl[n]);
	qsort(c->pl, c->npl, sizeof *c->pl, movcmp);
	fprintf(o, "  moves added or removed, by place:\n");
	for (n = 0; n < c->npl && n < Maxlist; n++)
		if (c->pl[n].nmov[0] != c->pl[n].nmov[1])
			plrow(o, &c->pl[n]);
}

/* ---- --compare --json (doc/pressure.md) ---- */

static void
jpair(FILE *o, long a, long b)
{
	fprintf(o, "[");
	if (a < 0)
		fprintf(o, "null");
	else
		fprintf(o, "%ld", a);
	fprintf(o, ", ");
	if (b < 0)
		fprintf(o, "null");
	else
		fprintf(o, "%ld", b);
	fprintf(o, "]");
}

static void
jregions(FILE *o, Cmp *c, int x)
{
	Side *sd = &c->s[x], *ot = &c->s[!x];
	Func *f = sd->f;

	fprintf(o, "[");
	for (uint32_t i = 0; i < sd->k.nreg; i++) {
		Region *r = &sd->k.reg[i];
		Place *p = plget(c, sd->place[r->at]);
		fprintf(o, "%s\n\t\t", i ? "," : "");
		jregion(o, f, &sd->S, r);
		fprintf(o, ",\n\t\t \"place\": ");
		jstr(o, p->key);
		if (p->seen[!x])
			fprintf(o, ", \"other_peak\": %d, \"other_peak_line\": "
				"%u}", p->peak[!x],
				ot->f->stmt[p->at[!x]].pos.line);
		else
			fprintf(o, ", \"other_peak\": null, "
				"\"other_peak_line\": null}");
	}
	fprintf(o, "]");
}

static void
jrole(FILE *o, const Role *r)
{
	if (!r)
		fprintf(o, "null");
	else
		fprintf(o, "{\"instructions\": %u, \"peak\": %d, \"cap\": %d}",
			r->nins, r->peak, r->cap);
}

static void
jroles(FILE *o, Cmp *c)
{
	int first = 1;

	fprintf(o, "[");
	for (int x = 0; x < 2; x++)
		for (uint32_t i = 0; i < c->s[x].k.nrole; i++) {
			Role *r = &c->s[x].k.role[i], *q = rolematch(c, x, r);
			if (x && q)
				continue;
			fprintf(o, "%s\n\t\t{\"what\": ", first ? "" : ",");
			jstr(o, r->what);
			fprintf(o, ", \"a\": ");
			jrole(o, x ? q : r);
			fprintf(o, ", \"b\": ");
			jrole(o, x ? r : q);
			fputc('}', o);
			first = 0;
		}
	fprintf(o, "]");
}

static void
jplace(FILE *o, Cmp *c, const Place *p, int x)
{
	if (!p->seen[x]) {
		fprintf(o, "null");
		return;
	}
	fprintf(o, "{\"peak\": %d, \"peak_line\": %u, \"instructions\": "
		"%d, \"mov\": %d}", p->peak[x],
		c->s[x].f->stmt[p->at[x]].pos.line, p->nins[x], p->nmov[x]);
}

static void
jlive(FILE *o, Cmp *c, const Place *p)
{
	Gdiff gd[Maxall];
	char tb[40];
	uint32_t ng = livediff(c, p, gd, countof(gd));

	qsort(gd, ng, sizeof *gd, gdcmp);
	fprintf(o, "{\"place\": ");
	jstr(o, p->key);
	fprintf(o, ", \"peak_line\": ");
	jpair(o, p->seen[0] ? (long)c->s[0].f->stmt[p->at[0]].pos.line : -1,
		p->seen[1] ? (long)c->s[1].f->stmt[p->at[1]].pos.line : -1);
	fprintf(o, ", \"values\": [");
	for (uint32_t i = 0; i < ng; i++) {
		fprintf(o, "%s\n\t\t{\"type\": ", i ? "," : "");
		jstr(o, gdtype(&gd[i], tb, sizeof tb));
		fprintf(o, ", \"def\": ");
		jstr(o, gd[i].op);
		fprintf(o, ", \"def_source\": ");
		if (gd[i].src)
			jstr(o, gd[i].src);
		else
			fprintf(o, "null");
		fprintf(o, ", \"count\": ");
		jpair(o, gd[i].count[0], gd[i].count[1]);
		fprintf(o, ", \"units\": ");
		jpair(o, gd[i].units[0], gd[i].units[1]);
		fputc('}', o);
	}
	fprintf(o, "]}");
}

/* At the place of each side's hottest region, once per place. */
static void
jlivediff(FILE *o, Cmp *c)
{
	Str done = 0;

	fprintf(o, "[");
	for (int x = 0; x < 2; x++) {
		Side *sd = &c->s[x];
		if (!sd->k.nreg || sd->place[sd->k.reg[0].at] == done)
			continue;
		fprintf(o, "%s\n\t\t", done ? "," : "");
		done = sd->place[sd->k.reg[0].at];
		jlive(o, c, plget(c, done));
	}
	fprintf(o, "]");
}

static void
cmpjson(FILE *o, Cmp *c, int first)
{
	long v[2][Nfig];
	int hl[2 * countof(Headline)];

	fprintf(o, "%s\n\t{\"a\": ", first ? "" : ",");
	jstr(o, c->s[0].f->name);
	fprintf(o, ", \"b\": ");
	jstr(o, c->s[1].f->name);
	figures(&c->s[0], v[0]);
	figures(&c->s[1], v[1]);
	fprintf(o, ",\n\t \"figures\": {");
	for (int i = 0; i < Nfig; i++) {
		fprintf(o, "%s\"%s\": ", i ? ", " : "", Figname[i]);
		jpair(o, v[0][i], v[1][i]);
	}
	headline(c, hl);
	fprintf(o, "},\n\t \"op_totals\": {");
	for (uint32_t h = 0; h < countof(Headline); h++) {
		fprintf(o, "%s\"%s\": ", h ? ", " : "", Headline[h]);
		jpair(o, hl[2 * h], hl[2 * h + 1]);
	}
	qsort(c->op, c->nop, sizeof *c->op, cntcmp);
	fprintf(o, "},\n\t \"ops\": [");
	for (uint32_t i = 0; i < c->nop; i++) {
		fprintf(o, "%s\n\t\t{\"op\": ", i ? "," : "");
		jstr(o, c->op[i].key);
		fprintf(o, ", \"count\": ");
		jpair(o, c->op[i].n[0], c->op[i].n[1]);
		fputc('}', o);
	}
	fprintf(o, "],\n\t \"roles\": ");
	jroles(o, c);
	fprintf(o, ",\n\t \"regions\": {\"a\": ");
	jregions(o, c, 0);
	fprintf(o, ",\n\t \"b\": ");
	jregions(o, c, 1);
	fprintf(o, "},\n\t \"live_diff\": ");
	jlivediff(o, c);
	Hot = c->hot;
	qsort(c->pl, c->npl, sizeof *c->pl, plcmp);
	fprintf(o, ",\n\t \"hot\": %d, \"places\": [", c->hot);
	for (uint32_t i = 0; i < c->npl; i++) {
		fprintf(o, "%s\n\t\t{\"place\": ", i ? "," : "");
		jstr(o, c->pl[i].key);
		fprintf(o, ", \"a\": ");
		jplace(o, c, &c->pl[i], 0);
		fprintf(o, ", \"b\": ");
		jplace(o, c, &c->pl[i], 1);
		fputc('}', o);
	}
	fprintf(o, "]}");
}

/* ---- --compare: which kernels, the command ---- */

static Func *
fnnamed(Module *m, const char *name)
{
	for (uint32_t i = 0; i < m->nitem; i++)
		if (m->item[i].kind == Ifunc && m->item[i].fn->body
		&& !strcmp(m->item[i].fn->name, name))
			return m->item[i].fn;
	return 0;
}

/* The only kernel with a body, else the only function with one. */
static Func *
onlyfn(Module *m)
{
	Func *e = 0, *f = 0;
	int ne = 0, nf = 0;

	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *g = m->item[i].kind == Ifunc ? m->item[i].fn : 0;
		if (!g || !g->body)
			continue;
		nf++, f = g;
		if (g->entry)
			ne++, e = g;
	}
	return ne == 1 ? e : nf == 1 ? f : 0;
}

static int
cmpload(Side *sd, const char *path, Popt *o)
{
	sd->path = path;
	sd->m = load(path, &sd->d, &sd->src);
	if (!sd->m || sd->m->nerr)
		return -1;
	if (!o->noptxas)
		sd->havepx = runptxas(sd->m, o->arch, &sd->px) == 0
			|| sd->px.nfn > 0;
	return 0;
}

static void
cmppair(Cmp *c, Popt *o, Func *fa, Func *fb, int first)
{
	Func *f[2] = {fa, fb};

	for (int x = 0; x < 2; x++) {
		Side *sd = &c->s[x];
		sd->f = f[x];
		analyse(sd->m, f[x], &sd->k, o->top, sd->havepx ? &sd->px : 0);
		srcinit(&sd->S, sd->m, f[x]);
		fillplaces(sd);
	}
	tally(c);
	if (o->json)
		cmpjson(stdout, c, first);
	else
		cmptext(stdout, c);
	for (int x = 0; x < 2; x++) {
		free(c->s[x].place);
		free(c->s[x].S.loc);
		c->s[x].S.loc = 0;
		freeana(f[x]);
	}
}

static int
cmppairs(Cmp *c, Popt *o)
{
	Module *a = c->s[0].m, *b = c->s[1].m;
	int n = 0;

	if (o->kernel) {
		Func *fa = fnnamed(a, o->kernel), *fb = fnnamed(b, o->kernel);
		if (!fb)
			fb = onlyfn(b);
		if (!fa || !fb) {
			fprintf(stderr, "%s pressure: no function '%s' in %s\n",
				progname, o->kernel, fa ? c->s[1].path : o->in);
			return 0;
		}
		cmppair(c, o, fa, fb, 1);
		return 1;
	}
	for (uint32_t i = 0; i < a->nitem; i++) {
		Func *fa = a->item[i].kind == Ifunc ? a->item[i].fn : 0;
		Func *fb = fa && fa->body ? fnnamed(b, fa->name) : 0;
		if (fb)
			cmppair(c, o, fa, fb, !n++);
	}
	if (!n && onlyfn(a) && onlyfn(b))
		cmppair(c, o, onlyfn(a), onlyfn(b), !n++);
	if (!n)
		fprintf(stderr, "%s pressure: no kernel of the same name in %s "
			"and %s, and not one kernel in each: use --kernel\n",
			progname, o->in, c->s[1].path);
	return n;
}

static int
cmpmain(Popt *o)
{
	Cmp c = {0};
	int n = 0;

	if (!cmpload(&c.s[0], o->in, o) && !cmpload(&c.s[1], o->compare, o)) {
		if (o->json) {
			printf("{\"compare\": {\"a\": ");
			jstr(stdout, c.s[0].d.path);
			printf(", \"b\": ");
			jstr(stdout, c.s[1].d.path);
			printf("}, \"kernels\": [");
		} else
			printf("A = %s\nB = %s\n", c.s[0].d.path, c.s[1].d.path);
		n = cmppairs(&c, o);
		if (o->json)
			printf("\n]}\n");
	}
	for (int x = 0; x < 2; x++) {
		free(c.s[x].S.file);
		if (c.s[x].havepx)
			ptxasfree(&c.s[x].px);
		unload(c.s[x].m, c.s[x].src);
	}
	free(c.op);
	free(c.pl);
	return n ? 0 : 2;
}

/* ---- the command ---- */

static int
wanted(Popt *o, Func *f)
{
	return f->body && (!o->kernel || !strcmp(o->kernel, f->name));
}

int
cmdpressure(int argc, char **argv)
{
	Popt o = {0};
	Diag d;
	char *src;
	Pxres px;
	int rc, havepx = 0, first = 1, nk = 0;
	Src S = {0};
	Kern *k;
	Out out = {0};

	if ((rc = args(argc, argv, &o)))
		return rc < 0 ? 0 : rc;
	if (o.compare)
		return cmpmain(&o);
	Module *m = load(o.in, &d, &src);
	if (!m || m->nerr) {
		unload(m, src);
		return 2;
	}
	if (!o.noptxas)
		havepx = runptxas(m, o.arch, &px) == 0 || px.nfn > 0;
	k = xmalloc(sizeof *k);
	if (o.json)
		printf("{\"file\": "), jstr(stdout, d.path),
			printf(", \"kernels\": [");
	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].fn;
		if (m->item[i].kind != Ifunc || !wanted(&o, f))
			continue;
		nk++;
		analyse(m, f, k, o.top, havepx ? &px : 0);
		srcinit(&S, m, f);
		if (o.dumplive)
			dumplive(stdout, f);
		else if (o.dumppress)
			dumppress(stdout, f);
		else if (o.json)
			printjson(stdout, k, &S, first);
		else
			printtext(stdout, k, &S);
		first = 0;
		if (o.svg || o.html)
			plot(k, &S, m, &out);
		free(S.loc);
		S.loc = 0;
		freeana(f);
	}
	if (o.json)
		printf("\n]}\n");
	if ((o.svg || o.html) && writeplots(&o, &out))
		rc = 2;
	free(out.panels.p);
	free(out.html.p);
	if (!nk && o.kernel)
		fprintf(stderr, "%s pressure: no function '%s' in %s\n",
			progname, o.kernel, d.path);
	free(k);
	free(S.file);
	if (havepx)
		ptxasfree(&px);
	unload(m, src);
	return rc ? rc : nk || !o.kernel ? 0 : 2;
}
