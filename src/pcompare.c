/* pcompare.c: pressure --compare, one kernel of two builds side by
 * side (two DSL releases, or a file and opt's output): ptxas's figures,
 * the pressure regions, the warp roles' caps, the instruction mix, and
 * what is live at each side's hottest peak, matched by source line or,
 * without line info, by warp role and landmark. */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "pressure.h"

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

/* What each side's register file holds at ptxas's peak (sasspeak.c),
 * class by class: where a rewrite moved ptxas, not only the model. */
static const Sasspeak *
peakof(Cmp *c, int x)
{
	return c->s[x].k.px ? c->s[x].k.px->peak : 0;
}

static int
heldn(const Sasspeak *pk, const char *what)
{
	for (int i = 0; pk && i < pk->nheld; i++)
		if (!strcmp(pk->held[i].what, what))
			return pk->held[i].n;
	return 0;
}

static void
textpeaks(FILE *o, Cmp *c)
{
	const Sasspeak *pk[2] = {peakof(c, 0), peakof(c, 1)};

	if (!pk[0] && !pk[1])
		return;
	fprintf(o, "  ptxas's peak (nvdisasm -plr):\n");
	for (int x = 0; x < 2; x++)
		if (pk[x])
			textpeak(o, x ? "    B: " : "    A: ", pk[x]);
	for (int x = 0; x < 2; x++)
		for (int i = 0; pk[x] && i < pk[x]->nheld; i++) {
			const char *w = pk[x]->held[i].what;
			if (x && heldn(pk[0], w))
				continue;       /* A's row has it */
			row(o, w, pk[0] ? heldn(pk[0], w) : -1,
				pk[1] ? heldn(pk[1], w) : -1);
		}
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
	textpeaks(o, c);
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
	fprintf(o, "},\n\t \"sass_peak\": {\"a\": ");
	jpeak(o, peakof(c, 0));
	fprintf(o, ", \"b\": ");
	jpeak(o, peakof(c, 1));
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

int
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

