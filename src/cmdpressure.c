/* cmdpressure.c: the pressure command.  Where in a kernel the registers
 * go, which values hold them, which source lines put them there, the
 * cap each region runs under, and what ptxas made of it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "all.h"
#include "pressure.h"

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
"found, its registers and spill bytes are shown beside the estimate;\n"
"with an nvdisasm too ($PTXPRESS_NVDISASM, beside ptxas or on PATH),\n"
"the work in the SASS loops, and ptxas's own peak: the registers live\n"
"there, by what wrote them (\"42 LDSM\"), what a loop carries round\n"
"its back edge (\"128 carried HMMA\") and what it never writes\n"
"(\"invariant\"), what its spill stores save, named alike, and the\n"
"peak of the loop that spills most when that is another loop.\n"
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
int
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
			Pxopt o = {ptxas, path, arch, 0, 0, nd, 1};
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

/* " 128 carried HMMA, 64 HMMA, ..." */
static void
textheld(FILE *o, const struct Held *h, int n)
{
	for (int i = 0; i < n; i++)
		fprintf(o, "%s %d %s", i ? "," : "", h[i].n, h[i].what);
	fputc('\n', o);
}

/* ptxas's own peak, where the model's may differ (sasspeak.c), after
 * lead */
void
textpeak(FILE *o, const char *lead, const Sasspeak *pk)
{
	fprintf(o, "%s%d registers live at /*%04lx*/ %s", lead, pk->live,
		pk->addr, pk->ins);
	if (pk->lo >= 0)
		fprintf(o, ", in the loop /*%04lx*/-/*%04lx*/", pk->lo,
			pk->hi);
	fputc(':', o);
	textheld(o, pk->held, pk->nheld);
	int ind = (int)strspn(lead, " ") + 2;
	if (pk->nspilled) {
		fprintf(o, "%*sits spill stores save:", ind, "");
		textheld(o, pk->spilled, pk->nspilled);
	}
	if (pk->near) {
		char l[64];
		snprintf(l, sizeof l, "%*sin the loop that spills most: ",
			ind, "");
		textpeak(o, l, pk->near);
	}
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

void
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
	/* numbered as ptxas numbers them (.file 010 is 8, the 8 of a
	 * .loc), any of 0 to 2^32 - 1: a table by number, not an array
	 * (.file 4000000000 asked for 32 GB) */
	S->nfile = 0;
	for (uint32_t i = 0; i < m->nitem; i++)
		S->nfile += m->item[i].kind == Ifile;
	S->file = xmalloc((S->nfile + 1) * sizeof *S->file);
	S->nfile = 0;
	for (uint32_t i = 0; i < m->nitem; i++) {
		const char *s = m->item[i].s, *q;
		int64_t k;
		if (m->item[i].kind != Ifile || !(s = strchr(s, '"'))
		|| !ptxintn(m->item[i].s, strcspn(m->item[i].s, " "), &k))
			continue;
		q = strchr(s + 1, '"');
		S->file[S->nfile].num = (uint32_t)k;
		S->file[S->nfile++].name = intern(s + 1,
			q ? (size_t)(q - s - 1) : strlen(s + 1));
	}
}

const char *
base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : 0;

	return s ? s + 1 : p ? p : "?";
}

/* The name .file gave number k; the last such, as ptxas takes a
 * repeated number (a file's table has a few entries). */
Str
fname(Src *S, uint32_t k)
{
	for (uint32_t i = S->nfile; i-- > 0;)
		if (S->file[i].num == k)
			return S->file[i].name;
	return "?";
}

/* "softmax.py:211:8 <- flash_fwd.py:923" */
void
locstr(Src *S, const Stmt *l, char *out, size_t n)
{
	int k;

	if (!l) {
		snprintf(out, n, "?");
		return;
	}
	k = snprintf(out, n, "%s:%u", base(fname(S, l->ll->loc[0])),
		l->ll->loc[1]);
	if (l->ll->loc[2] && k > 0 && (size_t)k < n)
		k += snprintf(out + k, n - k, ":%u", l->ll->loc[2]);
	if (l->ll->inl[1] && k > 0 && (size_t)k < n)
		snprintf(out + k, n - k, " \u2190 %s:%u",
			base(fname(S, l->ll->inl[0])), l->ll->inl[1]);
}

/* ---- live values at a peak, by definition site ---- */

void
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

uint32_t
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

static int
srcncmp(const void *a, const void *b)
{
	return ((const Srcn *)b)->n - ((const Srcn *)a)->n;
}

uint32_t
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

void
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

int
capmin(Func *f)
{
	Ana *A = f->ana;
	int c = A->launch;

	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && A->cap[i] && A->cap[i] < c)
			c = A->cap[i];
	return c;
}

int
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
		int v = setmaxcount(&f->stmt[i]);
		if (v < 0)
			continue;
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

void
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
	if (k->px && k->px->peak)
		textpeak(o, "  SASS peak (nvdisasm -plr): ", k->px->peak);
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

void
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
	fprintf(o, ", \"line\": %u, \"col\": %u", l->ll->loc[1], l->ll->loc[2]);
	if (l->ll->inl[1]) {
		fprintf(o, ", \"inlined_at\": {\"file\": ");
		jstr(o, fname(S, l->ll->inl[0]));
		fprintf(o, ", \"line\": %u}", l->ll->inl[1]);
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
	if (p->peak) {
		fprintf(o, ", \"sass_peak\": ");
		jpeak(o, p->peak);
	}
	fputc('}', o);
}

/* [{"what": "carried HMMA", "registers": 128}, ...] */
static void
jheld(FILE *o, const struct Held *h, int n)
{
	fputc('[', o);
	for (int i = 0; i < n; i++) {
		fprintf(o, "%s{\"what\": ", i ? ", " : "");
		jstr(o, h[i].what);
		fprintf(o, ", \"registers\": %d}", h[i].n);
	}
	fputc(']', o);
}

void
jpeak(FILE *o, const Sasspeak *pk)
{
	if (!pk) {
		fprintf(o, "null");
		return;
	}
	fprintf(o, "{\"live\": %d, \"address\": %ld, \"loop\": [%ld, %ld], "
		"\"instruction\": ", pk->live, pk->addr, pk->lo, pk->hi);
	jstr(o, pk->ins);
	fprintf(o, ", \"held\": ");
	jheld(o, pk->held, pk->nheld);
	fprintf(o, ", \"spilled\": ");
	jheld(o, pk->spilled, pk->nspilled);
	fprintf(o, ", \"near\": ");
	jpeak(o, pk->near);
	fputc('}', o);
}

/* A region's fields, the object left open for the caller's. */
void
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
