/* dag.c: scheduling regions and their dependence graphs.
 *
 * needs:  resolved registers (regs.c)
 * breaks: nothing; it only reads the function
 *
 * A region is a run of statements that may be reordered: instructions
 * of the classes that order by dependences, the .loc lines in front of
 * each (they travel with it) and labels no branch targets (debug
 * markers, kept in order among themselves).  Anything else ends a
 * region and stays where it is: branch targets, branches and calls,
 * waits and unknown instructions (Kfull), declarations, pragmas, inline
 * asm scopes.
 *
 * Edges: registers (def→use, use→def, def→def; a guarded def also reads
 * the old value), memory by state space (conservatively: generic aliases
 * every space but .param/.const), atomics and async/fence/barrier
 * operations against every memory access, collectives and carry-flag
 * arithmetic among themselves (but two mma.sync may swap: Kmma in
 * all.h).  This is the usual list-scheduling DAG
 * (Gibbons & Muchnick 1986), with PTX's ordering classes. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Sgen = 1, Sglob = 2, Sshar = 4, Sloc_ = 8, Sparm = 16, Sconst = 32 };

/* The state spaces a memory instruction may touch. */
static int
spaces(Stmt *s)
{
	int m = 0;

	for (uint32_t i = 0; i < s->nmod; i++) {
		Str d = s->mod[i];
		if (!strchr("gslpc", d[1]))     /* none of the five */
			continue;
		if (!strcmp(d, ".global"))
			m |= Sglob;
		else if (!strncmp(d, ".shared", 7))
			m |= Sshar;
		else if (!strcmp(d, ".local"))
			m |= Sloc_;
		else if (!strncmp(d, ".param", 6))
			m |= Sparm;
		else if (!strcmp(d, ".const"))
			m |= Sconst;
	}
	if (!m || (m & Sgen))
		m = Sglob | Sshar | Sloc_;
	return m;
}

/* Which targets branches name: only those labels split regions.  The
 * labels are sorted by name once, so each name a branch or a
 * .branchtargets list gives is a binary search, not a scan. */
typedef struct Labix { Str name; uint32_t at; } Labix;

static int
labcmp(const void *a, const void *b)
{
	const Labix *x = a, *y = b;

	if (x->name != y->name)
		return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static void
marklabel(Labix *l, uint32_t n, Str name, uint8_t *tgt)
{
	for (uint32_t i = namebound(l, n, sizeof *l, name);
	i < n && l[i].name == name; i++)
		tgt[l[i].at] = 1;
}

void
labeltargets(Func *f, uint8_t *tgt)
{
	Labix *l = xmalloc((f->nstmt + 1) * sizeof *l);
	uint32_t n = 0;

	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Slabel)
			l[n++] = (Labix){f->stmt[i].name, i};
	qsort(l, n, sizeof *l, labcmp);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sdir) {
			/* .branchtargets L1, L2: every name is a target */
			for (uint32_t k = 0; k < s->decl->nattr; k++)
				marklabel(l, n, s->decl->attr[k], tgt);
			continue;
		}
		if (s->kind != Sins)
			continue;
		for (uint32_t k = 0; k < s->nop; k++)
			if (s->opd[k].kind == Psym)
				marklabel(l, n, s->opd[k].s, tgt);
	}
	free(l);
}

/* k: s's opklass, which eachregion asks once per statement (the
 * class walks every operand and modifier). */
static int
movable(Stmt *s, Klass k)
{
	if (s->kind != Sins)
		return 0;
	/* the tcgen05 waits end regions here (tsink moves them) */
	if (s->op == Otcgen05_wait_ld || s->op == Otcgen05_wait_st)
		return 0;
	return k != Kfull && k != Kctl;
}

/* ---- register operands ---- */

void
rvpush(Rv *r, int32_t x)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 8;
		r->v = xrealloc(r->v, r->cap * sizeof *r->v);
	}
	r->v[r->n++] = x;
}

static void
regsof(Opnd *o, Rv *r)
{
	if (o->kind == Preg && o->reg >= 0)
		rvpush(r, o->reg);
	for (uint32_t i = 0; i < o->nsub; i++)
		regsof(&o->sub[i], r);
}

/* Splits an instruction's registers into the written and the read. */
void
defuse(Stmt *s, Rv *def, Rv *use)
{
	Defs d = opdefs(s);
	uint32_t k = 0;

	if (s->nop && (d == D0 || d == D0U) && s->opd[0].kind != Paddr) {
		regsof(&s->opd[0], def);
		if (d == D0U)
			regsof(&s->opd[0], use);
		k = 1;
	}
	for (; k < s->nop; k++)
		regsof(&s->opd[k], use);
	if (s->guard) {
		regsof(s->guard, use);
		/* a predicated write may not happen: the old value lives on */
		for (uint32_t i = 0; i < def->n; i++)
			rvpush(use, def->v[i]);
	}
}

/* ---- building the graph ---- */

static void
edge(Dag *g, uint32_t a, uint32_t b)
{
	Node *n = &g->node[a];

	if (a == b)
		return;
	for (uint32_t i = n->nsucc; i > 0 && i + 4 > n->nsucc; i--)
		if (n->succ[i - 1] == b)
			return;
	if (n->nsucc == n->capsucc) {   /* from the region's arena */
		uint32_t *v;
		n->capsucc = n->capsucc ? 2 * n->capsucc : 4;
		v = alloc(g->a, n->capsucc * sizeof *v);
		if (n->nsucc)
			memcpy(v, n->succ, n->nsucc * sizeof *v);
		n->succ = v;
	}
	n->succ[n->nsucc++] = b;
	g->node[b].npred++;
}

/* Whether nodes of classes x and y keep their order: 0 never, 1
 * always, 2 when their state spaces meet. */
static int
conflict(Klass x, Klass y)
{
	if (x == Kpure || y == Kpure)
		return 0;
	if (x == Kmma && y == Kmma)     /* see Kmma in all.h */
		return 0;
	x = x == Kmma ? Kcoll : x;
	y = y == Kmma ? Kcoll : y;
	if (x == Kcoll || y == Kcoll)
		return (x == Kcoll || x == Kord) && (y == Kcoll || y == Kord);
	if (x == Kcc || y == Kcc)
		return x == y;
	if (x == Kord || y == Kord || x == Krmw || y == Krmw)
		return 1;
	if (x == Kld && y == Kld)
		return 0;
	return 2;
}

/* Per function, for regedges: the last writer and the readers since,
 * per register.  Set up once; a region puts back what it touched, so a
 * region costs its own size, not the function's register count. */
typedef struct Regscratch {
	int32_t *lastdef;
	int32_t *rhead, *rtail;  /* per register: its readers since its
	                          * last write, a list in rlist, oldest
	                          * first (-1: none) */
	struct { uint32_t node; int32_t next; } *rlist;
	uint32_t nrlist, caprlist;  /* the region's entries */
	Rv d, u;                /* a node's registers, before they are kept */
	Arena *a;               /* the nodes' register lists, region by
	                         * region (reset after each) */
	uint8_t *wgr;           /* per register: a wgmma's accumulator or
	                         * A fragment (fenceedges) */
	int paramloc;           /* .param accesses may reach local memory */
	uint8_t *klass;         /* per statement: its opklass, taken before
	                         * the regions (what they rewrite keeps
	                         * its class) */
	uint8_t *pxe;           /* per register: earlymarks (pxeedges) */
} Regscratch;

/* Whether operand o names one of f's parameters or return values. */
static int
nameofparam(const Opnd *o, const Func *f)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		if (nameofparam(&o->sub[i], f))
			return 1;
	if (o->kind != Psym || !o->s)
		return 0;
	for (uint32_t i = 0; i < f->npar + f->nret; i++) {
		const Decl *d = i < f->npar ? &f->par[i] : &f->ret[i - f->npar];
		for (uint32_t j = 0; j < d->nname; j++)
			if (!strcmp(d->name[j].name, o->s))
				return 1;
	}
	return 0;
}

/* A .func that names a parameter other than as the address of its own
 * ld.param or st.param has taken its address: the parameter then lives
 * in local memory, which generic and .local accesses reach, so .param
 * accesses order with those too (the validator's rule as well: the opt
 * fuzzer's fo32, a mangled st to func_retval0 that the scheduler moved
 * a st.param across). */
static int
paramislocal(const Func *f)
{
	if (f->entry)
		return 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		const Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		int direct = (s->op == Old || s->op == Ost)
			&& spaces((Stmt *)s) == Sparm;
		for (uint32_t k = 0; k < s->nop; k++)
			if (!(direct && s->opd[k].kind == Paddr)
			&& nameofparam(&s->opd[k], f))
				return 1;
	}
	return 0;
}

/* r is read by node i: at the end of r's list of readers. */
static void
addreader(Regscratch *x, int32_t r, uint32_t i)
{
	if (x->nrlist == x->caprlist) {
		x->caprlist = x->caprlist ? 2 * x->caprlist : 1024;
		x->rlist = xrealloc(x->rlist, x->caprlist * sizeof *x->rlist);
	}
	x->rlist[x->nrlist].node = i;
	x->rlist[x->nrlist].next = -1;
	if (x->rhead[r] < 0)
		x->rhead[r] = (int32_t)x->nrlist;
	else
		x->rlist[x->rtail[r]].next = (int32_t)x->nrlist;
	x->rtail[r] = (int32_t)x->nrlist++;
}

static void
regedges(Dag *g, Regscratch *x)
{
	int32_t *lastdef = x->lastdef;

	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->nuse; k++) {
			int32_t r = n->use[k];
			if (lastdef[r] >= 0)
				edge(g, (uint32_t)lastdef[r], i);
			addreader(x, r, i);
		}
		for (uint32_t k = 0; k < n->ndef; k++) {
			int32_t r = n->def[k];
			if (lastdef[r] >= 0)
				edge(g, (uint32_t)lastdef[r], i);
			for (int32_t e = x->rhead[r]; e >= 0; e = x->rlist[e].next)
				edge(g, x->rlist[e].node, i);
			x->rhead[r] = -1;
			lastdef[r] = (int32_t)i;
		}
	}
	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		for (uint32_t k = 0; k < n->nuse; k++)
			x->rhead[n->use[k]] = -1, lastdef[n->use[k]] = -1;
		for (uint32_t k = 0; k < n->ndef; k++)
			x->rhead[n->def[k]] = -1, lastdef[n->def[k]] = -1;
	}
	x->nrlist = 0;
}

/* Memory-order edges: each non-pure node after every earlier one it
 * conflicts with.  The earlier nodes are kept in one list per class, so
 * a load looks only at the classes a load can conflict with, not at the
 * thousands of other loads of an attention kernel's region.  The edges
 * are the same as a scan of every pair would give, and come in the same
 * order to each node. */
static void
orderedges(Dag *g)
{
	int32_t lastmark = -1;
	enum { Nk = Kctl + 1 };
	uint32_t *mem[Nk] = {0}, nmem[Nk] = {0};

	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		if (n->marker) {
			if (lastmark >= 0)
				edge(g, (uint32_t)lastmark, i);
			lastmark = (int32_t)i;
			continue;
		}
		if (n->klass == Kpure)
			continue;
		for (int x = 0; x < Nk; x++) {
			int c = nmem[x] ? conflict((Klass)x, n->klass) : 0;
			for (uint32_t k = 0; c && k < nmem[x]; k++) {
				uint32_t a = mem[x][k];
				if (c == 1 || (g->node[a].space & n->space))
					edge(g, a, i);
			}
		}
		if (!mem[n->klass])
			mem[n->klass] = xmalloc(g->nnode * sizeof **mem);
		mem[n->klass][nmem[n->klass]++] = i;
	}
	for (int k = 0; k < Nk; k++)
		free(mem[k]);
}

/* wgmma.fence orders the warpgroup's accesses to the registers a
 * wgmma.mma_async reads as accumulator or A fragment before the wgmmas
 * after it (PTX ISA, wgmma.fence): arithmetic on those registers keeps
 * its side of every fence.  (ptxas would cope by serializing the
 * wgmmas; the rewrite should not make it.) */
static void
fenceedges(Dag *g, Func *f, const uint8_t *wgr)
{
	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		if (n->marker || f->stmt[n->last].op != Owgmma_fence)
			continue;
		for (uint32_t j = 0; j < g->nnode; j++) {
			Node *m = &g->node[j];
			int t = 0;
			if (m->marker || m->klass != Kpure)
				continue;
			for (uint32_t k = 0; k < m->ndef && !t; k++)
				t = wgr[m->def[k]];
			for (uint32_t k = 0; k < m->nuse && !t; k++)
				t = wgr[m->use[k]];
			if (t)
				edge(g, j < i ? j : i, j < i ? i : j);
		}
	}
}

/* early.c's copies (`mov R, %pxeK_n`) stand for the sum they replace:
 * the validator (vearly.c) takes a copy only where the sum over the
 * terms' current values is available, so a copy keeps its side of
 * every write of a term, although it does not read one (fo41 in
 * bench/RESULTS-trust.md: a scheduler moved a copy below the next
 * burst that rewrites the terms; the value was right, the proof
 * refused).  Terms: what any writer of a %pxe register reads
 * (earlymarks, early.c). */
static void
pxeedges(Dag *g, const uint8_t *pxe)
{
	for (uint32_t i = 0; i < g->nnode; i++) {
		Node *n = &g->node[i];
		if (n->marker || !(earlyrole(pxe, n->def, n->ndef, n->use,
			n->nuse) & Ecopy))
			continue;
		for (uint32_t j = 0; j < g->nnode; j++) {
			Node *m = &g->node[j];
			if (j != i && earlyrole(pxe, m->def, m->ndef, m->use,
				m->nuse) & Ewterm)
				edge(g, j < i ? j : i, j < i ? i : j);
		}
	}
}

static void
wgmmaregs(Func *f, uint8_t *wgr)
{
	Rv d = {0};

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->op != Owgmma_mma_async)
			continue;
		/* every vector it names, as the validator counts them (a
		 * mangled wgmma with a vector further on: opt fuzzer fo75) */
		for (uint32_t k = 0; k < s->nop; k++)
			if (k == 0 || s->opd[k].kind == Pvec) {
				d.n = 0;
				regsof(&s->opd[k], &d);
				for (uint32_t j = 0; j < d.n; j++)
					wgr[d.v[j]] = 1;
			}
	}
	free(d.v);
}

static void
addnode(Dag *g, Func *f, uint32_t first, uint32_t ins, int marker,
	Regscratch *x)
{
	Node *n;

	if (g->nnode == g->capnode) {
		g->capnode = g->capnode ? 2 * g->capnode : 64;
		g->node = xrealloc(g->node, g->capnode * sizeof *g->node);
	}
	n = &g->node[g->nnode++];
	memset(n, 0, sizeof *n);
	n->first = first;
	n->last = ins;
	n->marker = (uint8_t)marker;
	if (marker)
		return;
	Stmt *s = &f->stmt[ins];
	x->d.n = x->u.n = 0;
	defuse(s, &x->d, &x->u);
	n->def = alloc(x->a, (x->d.n + 1) * sizeof *n->def);
	n->use = alloc(x->a, (x->u.n + 1) * sizeof *n->use);
	if (x->d.n)
		memcpy(n->def, x->d.v, x->d.n * sizeof *n->def);
	if (x->u.n)
		memcpy(n->use, x->u.v, x->u.n * sizeof *n->use);
	n->ndef = x->d.n;
	n->nuse = x->u.n;
	n->klass = x->klass[ins];
	if (n->klass == Ktmem)  /* as Kord here: see Ktmem in all.h */
		n->klass = Kord;
	n->space = (uint8_t)spaces(s);
	if (x->paramloc && (n->space & Sparm))
		n->space |= Sloc_;
	n->lat = (uint8_t)opinfo[s->op].lat;
}

/* Builds the graph of statements [a, b): every statement in it is a
 * movable instruction, a .loc or an untargeted label. */
static void
build(Dag *g, Func *f, uint32_t a, uint32_t b, Regscratch *x)
{
	uint32_t first = a;

	if (!x->a)
		x->a = anew();
	g->a = x->a;
	g->first = a;
	g->end = b;
	for (uint32_t i = a; i < b; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Slabel) {
			addnode(g, f, first, i, 1, x);
			first = i + 1;
		} else if (s->kind == Sins) {
			addnode(g, f, first, i, 0, x);
			first = i + 1;
		}
	}
	regedges(g, x);
	orderedges(g);
	if (x->wgr)
		fenceedges(g, f, x->wgr);
	if (x->pxe)
		pxeedges(g, x->pxe);
}

/* Whether region g touches none of input lines lines[0]..lines[1]
 * (opt --lines; {0, 0} or NULL: every region is in). */
int
regionout(Func *f, const Dag *g, const uint32_t *lines)
{
	return lines && lines[1] && (f->stmt[g->first].pos.line > lines[1]
		|| f->stmt[g->end - 1].pos.line < lines[0]);
}

void
dagfree(Dag *g)
{
	free(g->node);  /* the lists: the region's arena */
	memset(g, 0, sizeof *g);
}

static int
regionable(Func *f, uint8_t *tgt, const uint8_t *klass, uint32_t i)
{
	Stmt *s = &f->stmt[i];

	if (s->kind == Sins)
		return movable(s, (Klass)klass[i]);
	return s->kind == Sloc || (s->kind == Slabel && !tgt[i]);
}

/* Calls fn for each region of f with at least two instructions.  The
 * statements of a region are [g->first, g->end); .loc lines and labels
 * after its last instruction stay in place with what follows. */
void
eachregion(Func *f, void (*fn)(Func *, Dag *, void *), void *arg)
{
	uint8_t *tgt = calloc(f->nstmt ? f->nstmt : 1, 1);
	uint32_t i = 0;
	Regscratch x = {.lastdef = xmalloc((f->nreg + 1) * sizeof *x.lastdef),
		.rhead = xmalloc((f->nreg + 1) * sizeof *x.rhead),
		.rtail = xmalloc((f->nreg + 1) * sizeof *x.rtail)};

	for (uint32_t r = 0; r < f->nreg; r++)
		x.lastdef[r] = x.rhead[r] = -1;
	x.paramloc = paramislocal(f);
	x.klass = xmalloc(f->nstmt + 1);
	for (uint32_t k = 0; k < f->nstmt; k++)
		x.klass[k] = f->stmt[k].kind == Sins
			? (uint8_t)opklass(&f->stmt[k]) : 0;
	x.pxe = earlymarks(f);
	labeltargets(f, tgt);
	for (uint32_t k = 0; k < f->nstmt && !x.wgr; k++)
		if (f->stmt[k].kind == Sins && f->stmt[k].op == Owgmma_fence) {
			x.wgr = calloc(f->nreg + 1, 1);
			wgmmaregs(f, x.wgr);
		}
	while (i < f->nstmt) {
		if (f->stmt[i].kind == Sopen) {
			/* inline asm: its own names and labels, never split */
			uint32_t depth = 0;
			do {
				depth += f->stmt[i].kind == Sopen;
				depth -= f->stmt[i].kind == Sclose;
				i++;
			} while (i < f->nstmt && depth);
			continue;
		}
		if (!regionable(f, tgt, x.klass, i)) {
			i++;
			continue;
		}
		uint32_t a = i, last = i, nins = 0;
		for (; i < f->nstmt && regionable(f, tgt, x.klass, i); i++)
			if (f->stmt[i].kind == Sins) {
				nins++;
				last = i + 1;
			}
		if (nins >= 2) {
			Dag g = {0};
			build(&g, f, a, last, &x);
			fn(f, &g, arg);
			dagfree(&g);
			areset(x.a);
		}
	}
	free(x.klass);
	free(x.rhead);
	free(x.rtail);
	free(x.rlist);
	free(x.lastdef);
	free(x.wgr);
	free(x.pxe);
	free(x.d.v);
	free(x.u.v);
	afree(x.a);
	free(tgt);
}
