/* remat.c: rematerializes constants next to their users.
 *
 * needs:  resolved registers, regions (dag.c)
 * breaks: statement count (copies of definitions are inserted)
 * paper:  rematerialization (Briggs, Cooper & Torczon 1992), done in the
 *         PTX so that ptxas sees short live ranges.
 *
 * A register written once, unguarded, by an instruction whose value
 * cannot change (a mov of an immediate, a symbol's address or a launch
 * constant such as %tid.x or %ctaid.y; an ld.param of a kernel
 * parameter; an ld.global.nc of read-only memory from an address in a
 * register written once) holds the same value wherever it is read, and
 * so does arithmetic on such values (address math from parameters and
 * launch constants; comparisons into predicates and selects on them,
 * Triton's masks): the chain runs again, inputs first.  So the defining
 * instruction may run again, unchanged, right before the first read in
 * each region that reads it: from there the register's value is
 * recomputed instead of kept alive across the code between.  Nothing
 * new is declared; the register is the same.
 *
 * A shfl.sync.idx of a value that is the same in every thread (no
 * %tid, no memory), all lanes taking part, gives that value: in a chain
 * it runs again as a mov of its source, since a shfl itself must not
 * run where lanes may have diverged.  (FA4's backward kernel keeps the
 * 2-CTA leader's rank, computed so from %cluster_ctarank at the start,
 * alive into every warp role; ptxas spills it.)  Only remat=roles and
 * remat=bcast (plain remat with broadcasts) do this: in plain remat the
 * movs cost FA4's forward kernel its spill-free order (remat,sched=td
 * 0 -> 268 bytes of spill stores, bisected to the commit that added
 * broadcasts, twenty-eighth session; what ptxas allocates differently
 * was not traced), while DSL 4.8.1's varlen backward kernels spill 32
 * bytes with them and 48-52 without: the search tries both. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* o names a special register that holds the same value in a thread
 * for the whole launch (pin=loop reads it too). */
int
launchconst(const Opnd *o)
{
	static const char *const c[] = {"%tid", "%ntid", "%ctaid",
		"%nctaid", "%cluster_ctaid", "%cluster_nctaid", "%clusterid",
		"%nclusterid", "%cluster_ctarank", "%cluster_nctarank",
		"%gridid", "%nsmid", "%total_smem_size",
		"%dynamic_smem_size"};

	if (o->kind != Preg || o->reg >= 0)
		return 0;
	for (size_t i = 0; i < countof(c); i++)
		if (!strcmp(o->s, c[i]))
			return 1;
	return 0;
}

/* The value of s cannot change while the kernel runs: constants, and a
 * load of read-only memory (.global.nc) from an address held in a
 * register written once, so it is the same wherever it is read. */
static int
constdef(Func *f, Stmt *s, const uint32_t *ndefs)
{
	/* a load may fault where it did not run: it is repeated only where
	 * it dominates (see emit()) */
	if (s->kind == Sins && !s->guard && s->nop == 2 && s->op == Old
	&& hasmod(s, ".global") && hasmod(s, ".nc")
	&& s->opd[1].kind == Paddr && s->opd[1].nsub == 1) {
		Opnd *b = &s->opd[1].sub[0];
		Opnd *d = &s->opd[0];
		int ok = b->kind == Preg && b->reg >= 0 && ndefs
			&& ndefs[b->reg] == 1;
		if (d->kind == Pvec)
			for (uint32_t i = 0; i < d->nsub && ok; i++)
				ok = d->sub[i].kind == Preg && d->sub[i].reg >= 0;
		else
			ok = ok && d->kind == Preg && d->reg >= 0;
		return ok;
	}
	if (s->kind != Sins || s->guard || s->nop != 2
	|| s->opd[0].kind != Preg || s->opd[0].reg < 0
	|| f->reg[s->opd[0].reg].pred)
		return 0;
	Opnd *a = &s->opd[1];
	if (s->op == Omov)
		return (a->kind == Pint || a->kind == Pflt || a->kind == Psym)
			&& !a->nsub ? 1 : launchconst(a);
	if (s->op == Old && f->entry && hasmod(s, ".param")
	&& a->kind == Paddr && a->nsub == 1 && a->sub[0].kind == Psym)
		return 1;
	return 0;
}

typedef struct Ins { uint32_t before; Stmt s; } Ins;

enum { Maxdepth = 16 };  /* emit()'s chains, link by link */

typedef struct Rm {
	int32_t *def;            /* per register: its one defining
	                          * statement, -1 none, -2 several */
	Ins *ins;
	uint32_t nins, cap;
	uint32_t *seen;          /* per register: 1 + the statement a copy
	                          * last went before, or 0: in this region
	                          * if past its first statement (regions
	                          * come in order, so none is cleared) */
	const uint32_t *lines;   /* opt --lines, or NULL */
	uint32_t *ndefs;         /* per register: writes in the function */
	uint8_t *leaf;           /* per statement: constant by itself */
	uint8_t *uni;            /* per register: also the same in every
	                          * thread */
	uint8_t *bcast;          /* per statement: a broadcast, run again
	                          * as a mov */
	Arena *a;
	uint32_t split;          /* remat=roles: the first setmaxnreg, or 0
	                          * for plain remat */
	int bcok;                /* remat=roles, remat=bcast: broadcasts
	                          * run again as movs */
	int loop;                /* remat=loop: chains may read registers
	                          * that change, where they hold still */
	uint8_t *var;            /* per register: a loop value a chain reads */
	uint8_t *vary;           /* per register: a chain that reads one,
	                          * directly or through another chain */
	uint32_t *site0, *site;  /* per register: where it is written
	                          * (site[site0[r] .. site0[r + 1]]) */
	uint32_t *unk, nunk;     /* the unknown instructions */
	Dom *view;
	int32_t *scope;          /* per statement: its innermost { (or -1),
	                          * innerscope() */
	uint8_t *tm;             /* per register: a tcgen05.ld or .st or a
	                          * wgmma names it, tmemnames() */
	Rv sdv, suv;             /* a statement's registers, written and
	                          * read, kept for the pass: chain(),
	                          * fresh(), countdefs(), leaves() and
	                          * loopsites() each use them and call
	                          * nothing that does */
	Rv edv[Maxdepth + 1], euv[Maxdepth + 1];  /* emit()'s, a pair a
	                          * depth: it calls itself for every
	                          * register a region reads, and a vector
	                          * made and freed each time was a tenth of
	                          * the pass */
} Rm;

static void insert(Rm *, Func *, int32_t, uint32_t);

/* Does register x hold at `at` what it held at statement from?  An
 * unknown instruction between may be a wait that completes some
 * asynchronous write of it, named or not, so none may lie on a path
 * between either: the validators forget every value there (vearly.c;
 * the opt fuzzer's fo60 had remat=loop copy early's `mov %r1264,
 * %pxe0_15` past one, and the validator refused the rewrite). */
static int
held(Rm *r, uint32_t from, uint32_t at, int32_t x)
{
	return domstable(r->view, from, at, r->site + r->site0[x],
		r->site0[x + 1] - r->site0[x])
		&& (!r->nunk || domstable(r->view, from, at, r->unk, r->nunk));
}

/* remat=loop: a copy at `at` of chain statement d, whose value depends
 * on a register that changes, is right only if every register d reads
 * holds at `at` what it held where d last ran: d dominates `at`, and no
 * write of them lies between (what the validator's loopvalues asks).
 * Checking only the changing registers themselves, where the chain
 * statement that reads them dominates, is not enough: nvcc's `mov %r2,
 * %r1` at a loop's top may dominate the read while `add %r3, %r2, 1`
 * runs at its bottom, so the read sees the last iteration's %r3 (opt
 * fuzzer's fo16). */
static int
fresh(Func *f, Rm *r, int32_t d, uint32_t at)
{
	int ok = 1;

	r->sdv.n = r->suv.n = 0;
	defuse(&f->stmt[d], &r->sdv, &r->suv);
	for (uint32_t k = 0; k < r->suv.n && ok; k++)
		ok = held(r, (uint32_t)d, at, r->suv.v[k]);
	return ok;
}

enum { Far = 256 };     /* statements between a definition and a read
                         * that remat=loop runs it again for */

/* Makes x's constant value available before statement at of region g:
 * its definition runs again there, after what it reads (a chain of
 * arithmetic on constants runs again whole).  Returns 0 when it cannot:
 * a definition inside the region, a load that may not have run. */
static int
emit(Func *f, Rm *r, int32_t x, uint32_t at, Dag *g, int depth,
	int32_t reader)
{
	int32_t d = r->def[x];

	/* remat=loop: a register that changes, read by a chain statement
	 * copied to `at`, is read there as it is, if it holds there what it
	 * held where the statement ran; never one of early's, whose value
	 * the validator proves only where early's copies read it (the line
	 * mutator, seed 759: a copy of its f32x2 tree's adds) */
	if (d < 0 && r->loop && reader >= 0 && r->var[x])
		return !earlyreg(f, x) && held(r, (uint32_t)reader, at, x);
	/* a definition in the region itself runs again only for a read
	 * far below it (remat=loop): Triton computes the offsets of K and
	 * V once, for K, and keeps them for V hundreds of statements on.
	 * Never for a read above it: that one reads the value from before
	 * (the last iteration's; opt fuzzer, fifth session) */
	if (d < 0 || depth > Maxdepth || ((uint32_t)d >= g->first
	&& (uint32_t)d < g->end && (!r->loop || at < (uint32_t)d
	|| at - (uint32_t)d < Far)))
		return 0;
	/* one copy serves the region's later reads, but remat=loop copies
	 * again for a read Far below the last copy: Triton 3.6 computes an
	 * FMHA's 128 output addresses at the top of its epilogue, and its
	 * stores come hundreds of statements on, after P's trip through
	 * shared memory; one copy at the first read would keep them all
	 * alive as long (the held-out table, bench/RESULTS.md) */
	if (r->seen[x] > g->first
	&& (!r->loop || at - (r->seen[x] - 1) < Far))
		return 1;
	Stmt *s = &f->stmt[d];
	if (r->loop && r->vary[x] && !fresh(f, r, d, at))
		return 0;
	/* the value is the definition's only where it has surely run: a
	 * read it does not dominate may see the register unset, and a copy
	 * would set it (mutated tests: `mov %r1, %tid.x` after reads of
	 * %r1; the validator refuses that).  A load runs again only where
	 * it has surely run anyway: it may fault where it did not. */
	if (!r->view)
		r->view = domnew(f);
	if (!domdominates(r->view, (uint32_t)d, at))
		return 0;
	/* nor into code no path reaches: there a block dominates no other,
	 * so a scheduler moving the definition above a label no branch
	 * names leaves the copy unproven (the line mutator, seed 348: code
	 * after a ret); ptxas drops such code anyway */
	if (!domreached(r->view, at))
		return 0;
	if (s->op == Old && hasmod(s, ".nc")) {
		if (!domdominates(r->view, (uint32_t)d, g->first))
			return 0;
	} else if (!r->leaf[d]) {
		/* this depth's own: the reads below go a depth further */
		Rv *dv = &r->edv[depth], *uv = &r->euv[depth];
		dv->n = uv->n = 0;
		defuse(s, dv, uv);
		int ok = 1;
		/* and the chain read its inputs set: a definition of one
		 * below it (a read of an unset register) would give the
		 * copy another value (the line mutator) */
		for (uint32_t k = 0; k < uv->n && ok; k++)
			ok = r->def[uv->v[k]] < 0 || domdominates(r->view,
				(uint32_t)r->def[uv->v[k]], (uint32_t)d);
		for (uint32_t k = 0; k < uv->n && ok; k++)
			ok = emit(f, r, uv->v[k], at, g, depth + 1, d);
		if (!ok)
			return 0;
	}
	insert(r, f, d, at);
	return 1;
}

static void
insert(Rm *r, Func *f, int32_t d, uint32_t at)
{
	/* every register the definition writes is fresh from here */
	Opnd *dst = &f->stmt[d].opd[0];
	if (dst->kind == Pvec)
		for (uint32_t i = 0; i < dst->nsub; i++)
			r->seen[dst->sub[i].reg] = at + 1;
	else
		r->seen[dst->reg] = at + 1;
	if (r->nins == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->ins = xrealloc(r->ins, r->cap * sizeof *r->ins);
	}
	Stmt c = f->stmt[d];
	c.dirty = 1;           /* printed from the IR, on a line of its own */
	c.lead = (Span){0, 0};
	if (r->bcast[d]) {     /* mov.b32 d, a for shfl...b32 d, a, ... */
		c.op = Omov;
		c.name = interns("mov");
		c.nmod = 1;
		c.mod = alloc(r->a, sizeof *c.mod);
		c.mod[0] = interns(".b32");
		c.nop = 2;
	}
	r->ins[r->nins++] = (Ins){at, c};
}

static void
reads(Opnd *o, Func *f, Rm *r, uint32_t at, Dag *g)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		reads(&o->sub[i], f, r, at, g);
	if (o->kind == Preg && o->reg >= 0 && (!r->split || (r->uni[o->reg]
	&& r->def[o->reg] >= 0 && (uint32_t)r->def[o->reg] < r->split)))
		emit(f, r, o->reg, at, g, 0, -1);
}

static void
region(Func *f, Dag *g, void *arg)
{
	Rm *r = arg;

	if (regionout(f, g, r->lines))
		return;         /* opt --lines: a region it does not touch */
	for (uint32_t i = g->first; i < g->end; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		uint32_t k = 0;
		Defs d = opdefs(s);
		if (s->nop && (d == D0 || d == D0U))
			k = 1;
		for (; k < s->nop; k++)
			reads(&s->opd[k], f, r, i, g);
		if (s->guard)
			reads(s->guard, f, r, i, g);
	}
}

/* The first setmaxnreg, where the warp roles part, or 0: none. */
static uint32_t
firstsplit(Func *f)
{
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && f->stmt[i].op == Osetmaxnreg)
			return i;
	return 0;
}

/* The reads inside each outermost { } scope (inline asm, which no
 * region holds) as reads at its {: a copy goes before the scope, where
 * the scope's own names are not yet declared.  CuTe DSL waits on an
 * mbarrier in inline asm (LAB_WAIT: try_wait [%r], ...) at the top of
 * each role's loop; the barrier's address, computed once in the
 * prologue, stayed alive across every role for that read alone, and
 * ptxas spilled it (FA4 4.8.1's varlen backward kernel, 16 bytes).
 * The copies come in order of their own (seen starts again), merged
 * with the regions' after. */
static void
scopereads(Func *f, Rm *r)
{
	uint32_t split = r->split;

	/* only what the prologue computes, the same in every thread (as
	 * remat=roles): copies of everything scopes read took that kernel
	 * from 32 bytes of spill to 104 */
	r->split = firstsplit(f);
	for (uint32_t i = 0; r->split && i < f->nstmt; i++) {
		if (f->stmt[i].kind != Sopen || r->scope[i] >= 0)
			continue;
		uint32_t e = i + 1;
		while (e < f->nstmt && r->scope[e] >= 0)
			e++;            /* to its } */
		Dag g = {.first = i, .end = e < f->nstmt ? e + 1 : e};
		if (regionout(f, &g, r->lines))
			continue;
		for (uint32_t j = i + 1; j < e; j++) {
			Stmt *s = &f->stmt[j];
			if (s->kind != Sins)
				continue;
			Defs d = opdefs(s);
			for (uint32_t k = s->nop && (d == D0 || d == D0U);
			k < s->nop; k++)
				reads(&s->opd[k], f, r, i, &g);
			if (s->guard)
				reads(s->guard, f, r, i, &g);
		}
	}
	r->split = split;
}

/* The copies a and b, each in statement order, merged in r->ins. */
static void
merge(Rm *r, Ins *a, uint32_t na)
{
	Ins *b = r->ins, *v = xmalloc((na + r->nins + 1) * sizeof *v);
	uint32_t nb = r->nins, n = 0, x = 0, y = 0;

	while (x < na || y < nb)
		v[n++] = y == nb || (x < na && a[x].before <= b[y].before)
			? a[x++] : b[y++];
	free(a);
	free(b);
	r->ins = v;
	r->nins = r->cap = n;
}

/* shfl.sync.idx.b32 d, a, lane, c, -1 with a the same in every thread */
static int
broadcast(Rm *r, Stmt *s)
{
	Opnd *m = s->op == Oshfl && s->nop == 5 ? &s->opd[4] : 0;

	return m && hasmod(s, ".sync")
		&& hasmod(s, ".idx") && hasmod(s, ".b32")
		&& s->opd[1].kind == Preg && s->opd[1].reg >= 0
		&& r->def[s->opd[1].reg] >= 0 && r->uni[s->opd[1].reg]
		&& m->kind == Pint && (m->minus ? !strcmp(m->s, "1")
		: !strcmp(m->s, "0xffffffff") || !strcmp(m->s, "0xFFFFFFFF"));
}

/* Integer arithmetic only: every modifier an integer or bit type, a
 * half (.lo, .hi, .wide) or a comparison.  remat=loop copies address
 * math that reads a loop's counter; floating-point chains (what the
 * softmax computes) it leaves where they are. */
static int
intarith(Stmt *s)
{
	static const char *const ok[] = {".lo", ".hi", ".wide", ".eq",
		".ne", ".lt", ".le", ".gt", ".ge", ".ls", ".hs"};

	for (uint32_t k = 0; k < s->nmod; k++) {
		const char *m = s->mod[k];
		int fine = (m[1] == 's' || m[1] == 'u' || m[1] == 'b')
			&& m[2] >= '0' && m[2] <= '9';
		for (size_t i = 0; !fine && i < countof(ok); i++)
			fine = !strcmp(m, ok[i]);
		if (!fine)
			return 0;
	}
	return 1;
}

/* Statement i is arithmetic on constants: pure, cannot fault (no
 * division), unguarded, writing one register nothing else writes; or a
 * broadcast of such a value. */
static int
chain(Func *f, Rm *r, uint32_t i)
{
	Stmt *s = &f->stmt[i];

	if (s->kind != Sins || s->guard || s->nop < 2 || r->leaf[i] || r->scope[i] >= 0
	|| s->opd[0].kind != Preg || s->opd[0].reg < 0
	|| r->ndefs[s->opd[0].reg] != 1 || r->def[s->opd[0].reg] >= 0
	|| r->tm[s->opd[0].reg])
		return 0;
	if (r->bcok && broadcast(r, s)) {
		r->def[s->opd[0].reg] = (int32_t)i;
		r->uni[s->opd[0].reg] = 1;
		r->bcast[i] = 1;
		return 1;
	}
	if (opklass(s) != Kpure || s->op == Odiv || s->op == Orem
	|| opdefs(s) != D0)
		return 0;
	Rv uv;
	r->sdv.n = r->suv.n = 0;
	defuse(s, &r->sdv, &r->suv);
	uv = r->suv;
	int ok = uv.n > 0, uni = 1, nvar = 0, vary = 0;
	for (uint32_t k = 0; k < uv.n && ok; k++) {
		int32_t u = uv.v[k];
		ok = r->def[u] >= 0;
		/* a register nothing writes holds no value to copy from
		 * (mutated tests: the validator refused such a copy) */
		if (!ok && r->loop && r->ndefs[u] && !f->reg[u].pred
		&& u != s->opd[0].reg && intarith(s))
			ok = 1, nvar++;
		uni &= r->uni[u];
		vary |= r->vary && r->vary[u];
	}
	if (ok && nvar) {       /* marked only when the chain is taken */
		uni = 0;
		for (uint32_t k = 0; k < uv.n; k++)
			if (r->def[uv.v[k]] < 0)
				r->var[uv.v[k]] = 1;
	}
	if (ok) {
		r->def[s->opd[0].reg] = (int32_t)i;
		r->uni[s->opd[0].reg] = (uint8_t)uni;
		if (r->vary)
			r->vary[s->opd[0].reg] = nvar || vary;
	}
	return ok;
}

/* How often each register is written (r->ndefs); r->def to -1. */
static void
countdefs(Func *f, Rm *r, size_t n)
{
	Rv *dv = &r->sdv;

	for (size_t i = 0; i < n; i++)
		r->def[i] = -1;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (f->stmt[i].kind != Sins)
			continue;
		dv->n = r->suv.n = 0;
		defuse(&f->stmt[i], dv, &r->suv);
		for (uint32_t k = 0; k < dv->n; k++)
			r->ndefs[dv->v[k]]++;
	}
}

/* The leaves: statements constant by themselves whose every
 * destination is written there alone (r->leaf, r->def, r->uni). */
static void
leaves(Func *f, Rm *r)
{
	Rv *dv = &r->sdv;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || !s->nop || r->scope[i] >= 0
		|| !constdef(f, s, r->ndefs))
			continue;
		dv->n = r->suv.n = 0;
		defuse(s, dv, &r->suv);
		/* running it again writes every destination: each must be
		 * written nowhere else */
		int once = dv->n > 0;
		for (uint32_t k = 0; k < dv->n; k++)
			once &= r->ndefs[dv->v[k]] == 1 && !r->tm[dv->v[k]];
		/* the same in every thread: immediates, symbols, launch
		 * constants but %tid, parameters (not memory) */
		Opnd *a = &s->opd[s->nop - 1];
		int uni = !hasmod(s, ".global") && (a->kind != Preg
			|| strcmp(a->s, "%tid"));
		for (uint32_t k = 0; k < dv->n && once; k++) {
			r->def[dv->v[k]] = (int32_t)i;
			r->uni[dv->v[k]] = (uint8_t)uni;
		}
		r->leaf[i] = (uint8_t)once;
	}
}

/* Chains of arithmetic on the leaves, to a fixed point (8 rounds at
 * most). */
static void
chains(Func *f, Rm *r)
{
	for (int changed = 1, pass = 0; changed && pass < 8; pass++) {
		changed = 0;
		for (uint32_t i = 0; i < f->nstmt; i++)
			changed |= chain(f, r, i);
	}
}

/* remat=loop: where each register is written (r->site from
 * r->site0), the statements of unknown opcodes, the dominator view. */
static void
loopsites(Func *f, Rm *r, size_t n)
{
	r->loop = 1;
	r->var = calloc(n, 1);
	r->vary = calloc(n, 1);
	r->site0 = calloc(n + 1, sizeof *r->site0);
	for (size_t x = 0; x < n; x++)
		r->site0[x + 1] = r->site0[x] + r->ndefs[x];
	r->site = xmalloc((r->site0[n] + 1) * sizeof *r->site);
	uint32_t *fill = calloc(n, sizeof *fill);
	r->unk = xmalloc((f->nstmt + 1) * sizeof *r->unk);
	Rv *dv = &r->sdv;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (f->stmt[i].kind != Sins)
			continue;
		if (f->stmt[i].op == Ounknown)
			r->unk[r->nunk++] = i;
		dv->n = r->suv.n = 0;
		defuse(&f->stmt[i], dv, &r->suv);
		for (uint32_t k = 0; k < dv->n; k++)
			r->site[r->site0[dv->v[k]] + fill[dv->v[k]]++] = i;
	}
	free(fill);
	if (!r->view)
		r->view = domnew(f);
}

/* The copies r->ins (in statement order) into f's statements, in the
 * module's arena. */
static void
splice(Module *m, Func *f, Rm *r)
{
	Stmt *v = alloc(m->a, (f->nstmt + r->nins) * sizeof *v);
	uint32_t k = 0, j = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		for (; j < r->nins && r->ins[j].before == i; j++)
			v[k++] = r->ins[j].s;
		v[k++] = f->stmt[i];
	}
	f->stmt = v;
	f->nstmt = k;
	f->dirty = 1;
}

static void
rmfree(Rm *r)
{
	domfree(r->view);
	free(r->var);
	free(r->vary);
	free(r->site0);
	free(r->site);
	free(r->unk);
	free(r->sdv.v);
	free(r->suv.v);
	for (int i = 0; i <= Maxdepth; i++) {
		free(r->edv[i].v);
		free(r->euv[i].v);
	}
	free(r->def);
	free(r->seen);
	free(r->ins);
	free(r->ndefs);
	free(r->leaf);
	free(r->bcast);
	free(r->scope);
	free(r->tm);
	free(r->uni);
}

/* Returns how many definitions it inserted.  roles: only values the
 * prologue computes (before the first setmaxnreg, where the warp roles
 * part) that are the same in every thread: what every role would keep
 * alive from the start, and ptxas recomputes cheaply in its uniform
 * registers (the FA4 case above). */
uint32_t
remat(Module *m, Func *f, int mode, const uint32_t *lines)
{
	Rm r = {0};
	size_t n = f->nreg ? f->nreg : 1;
	int roles = mode == Rroles;

	r.split = roles ? firstsplit(f) : 0;
	if (roles && !r.split)          /* no roles: nothing to do */
		return 0;
	r.def = xmalloc(n * sizeof *r.def);
	r.seen = calloc(n, sizeof *r.seen);
	r.uni = calloc(n, 1);
	r.a = m->a;
	r.bcok = roles || mode == Rbcast;
	r.ndefs = calloc(n, sizeof *r.ndefs);
	countdefs(f, &r, n);
	/* leaves: constant by themselves; then chains of arithmetic whose
	 * every input is constant (address math from parameters and launch
	 * constants), to a fixed point */
	r.leaf = calloc(f->nstmt + 1, 1);
	r.bcast = calloc(f->nstmt + 1, 1);
	/* A { } scope (inline asm) may declare its own registers (nvcc's
	 * %temp): a statement there joins no chain, or its copy outside
	 * would name a register that is not in scope there, or another of
	 * the same name (a gemm of the corpus: ptxas rejected the copy).
	 * A copy may still go into a scope; one that a declaration there
	 * shadows the validator refuses. */
	r.scope = innerscope(f);
	/* A register a tcgen05.st or a wgmma names the tensor core may
	 * still read (one a tcgen05.ld or a wgmma's accumulator, still
	 * write) until the matching wait: a copy of its definition there
	 * would race with it, even writing the value it holds, and the
	 * PTX ISA leaves that undefined; the validator refuses one (opt
	 * fuzzer's fo24).  Such registers are not rematerialized at all. */
	r.tm = tmemnames(f);
	leaves(f, &r);
	chains(f, &r);
	if (mode == Rloop) {
		/* then chains that also read registers a loop changes */
		loopsites(f, &r, n);
		chains(f, &r);
	}
	r.lines = lines;
	eachregion(f, region, &r);
	Ins *ra = r.ins;
	uint32_t nra = r.nins;
	r.ins = 0, r.nins = r.cap = 0;
	memset(r.seen, 0, n * sizeof *r.seen);
	scopereads(f, &r);
	merge(&r, ra, nra);
	if (r.nins)
		splice(m, f, &r);
	rmfree(&r);
	return r.nins;
}
