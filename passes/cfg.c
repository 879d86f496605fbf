/* cfg.c: basic blocks of a function body.
 *
 * needs: resolve() (registers bound); breaks: nothing, the statements
 * stay where they are.  A block is a range of the flat statement array;
 * it starts at the body, at a label some branch names, or after an
 * instruction that leaves (bra, brx.idx, ret, exit, trap, a call to a
 * .noreturn function).  Labels nothing branches to ($L__tmp0,
 * $L__func_begin0: debug info points at them) do not start blocks, so
 * they neither split pressure regions nor pin a scheduler.
 * Labels are scoped like registers: every inline asm { } may reuse
 * "DONE", and a branch means the innermost one it can see. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

typedef struct Lab { Str name; uint32_t scope, at; } Lab;

typedef struct Cfg {
	Func *f;
	Module *m;
	uint32_t *scope;        /* statement -> scope instance */
	uint32_t *parent;       /* scope instance -> enclosing one */
	uint32_t nscope;
	Lab *lab;               /* open addressing on (name, scope) */
	uint32_t nlab;
	uint8_t *lead;
	uint32_t *edge;         /* pairs: from block, to block */
	uint32_t nedge, capedge;
} Cfg;

static uint32_t
hlab(Str s, uint32_t scope)
{
	uintptr_t p = (uintptr_t)s;

	return (uint32_t)((p >> 4) ^ (p >> 19) ^ scope * 40503u) * 2654435761u;
}

static Lab *
labslot(Cfg *C, Str s, uint32_t scope)
{
	uint32_t i = hlab(s, scope) & (C->nlab - 1);

	while (C->lab[i].name && (C->lab[i].name != s
	|| C->lab[i].scope != scope))
		i = (i + 1) & (C->nlab - 1);
	return &C->lab[i];
}

/* Scope instances and the label table. */
static void
scopes(Cfg *C)
{
	Func *f = C->f;
	uint32_t stack[256], depth = 0, cur = 0, n = 0;

	C->scope = xmalloc((f->nstmt + 1) * sizeof *C->scope);
	C->parent = xmalloc((f->nstmt + 1) * sizeof *C->parent);
	C->parent[0] = 0;
	C->nscope = 1;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sopen && depth < countof(stack)) {
			stack[depth++] = cur;
			C->parent[C->nscope] = cur;
			cur = C->nscope++;
		} else if (s->kind == Sclose && depth) {
			C->scope[i] = cur;
			cur = stack[--depth];
			continue;
		}
		C->scope[i] = cur;
		n += s->kind == Slabel;
	}
	for (C->nlab = 16; C->nlab < 2 * n + 2; C->nlab *= 2)
		;
	C->lab = calloc(C->nlab, sizeof *C->lab);
	if (!C->lab)
		die("out of memory");
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Slabel) {
			Lab *l = labslot(C, f->stmt[i].name, C->scope[i]);
			if (!l->name)
				*l = (Lab){f->stmt[i].name, C->scope[i], i};
		}
}

/* The label statement a branch at statement i means, or -1. */
static int64_t
target(Cfg *C, uint32_t i, Str name)
{
	uint32_t sc = C->scope[i];

	for (;;) {
		Lab *l = labslot(C, name, sc);
		if (l->name)
			return l->at;
		if (!sc)
			return -1;
		sc = C->parent[sc];
	}
}

static int
noreturn(Module *m, Str callee)
{
	for (uint32_t i = 0; m && i < m->nitem; i++) {
		Func *g = m->item[i].fn;
		if (m->item[i].kind != Ifunc || g->name != callee)
			continue;
		for (uint32_t k = 0; k < g->nperf; k++)
			if (!strcmp(g->perf[k].name, ".noreturn"))
				return 1;
	}
	return 0;
}

static Str
callee(const Stmt *s)
{
	for (uint32_t k = 0; k < s->nop; k++)
		if (s->opd[k].kind == Psym)
			return s->opd[k].s;
	return 0;
}

/* Does control leave the straight line after s (always or maybe)? */
int
isterm(const Stmt *s, Module *m)
{
	if (s->kind != Sins)
		return 0;
	switch (s->op) {
	case Obra: case Obrx_idx: case Oret: case Oexit: case Otrap:
		return 1;
	case Ocall:
		return noreturn(m, callee(s));
	}
	return 0;
}

/* The labels of "tbl: .branchtargets L1, L2;": the grammar keeps the
 * tokens after the directive in decl->attr, commas included. */
static void
tablabels(Cfg *C, uint32_t at, uint32_t i, void (*fn)(Cfg *, uint32_t,
	int64_t), uint32_t from)
{
	Stmt *d = &C->f->stmt[at + 1];

	if (at + 1 >= C->f->nstmt || d->kind != Sdir || !d->decl
	|| strcmp(d->name, ".branchtargets"))
		return;
	for (uint32_t k = 0; k < d->decl->nattr; k++)
		if (strcmp(d->decl->attr[k], ","))
			fn(C, from, target(C, i, d->decl->attr[k]));
}

static void
markfn(Cfg *C, uint32_t from, int64_t at)
{
	UNUSED(from);
	if (at >= 0)
		C->lead[at] = 1;
}

static void
edgefn(Cfg *C, uint32_t from, int64_t at)
{
	if (at < 0)
		return;
	if (C->nedge + 2 > C->capedge) {
		C->capedge = C->capedge ? 2 * C->capedge : 256;
		C->edge = xrealloc(C->edge, C->capedge * sizeof *C->edge);
	}
	C->edge[C->nedge++] = from;
	C->edge[C->nedge++] = C->f->ana->blkof[at];
}

/* Calls fn for every label statement s may jump to. */
static void
targets(Cfg *C, uint32_t i, void (*fn)(Cfg *, uint32_t, int64_t),
	uint32_t from)
{
	Stmt *s = &C->f->stmt[i];
	Opnd *o;

	if (!s->nop)
		return;
	o = &s->opd[s->nop - 1];
	if (s->op == Obra && o->kind == Psym)
		fn(C, from, target(C, i, o->s));
	if (s->op == Obrx_idx && o->kind == Psym) {
		int64_t at = target(C, i, o->s);
		if (at >= 0)
			tablabels(C, (uint32_t)at, i, fn, from);
	}
}

static void
leaders(Cfg *C)
{
	Func *f = C->f;

	C->lead = calloc(f->nstmt + 1, 1);
	if (!C->lead)
		die("out of memory");
	C->lead[0] = 1;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (!isterm(s, C->m))
			continue;
		C->lead[i + 1] = 1;
		targets(C, i, markfn, 0);
	}
}

/* The last instruction of block b, or -1. */
static int64_t
lastins(Func *f, Blk *b)
{
	for (uint32_t i = b->end; i > b->first; i--)
		if (f->stmt[i - 1].kind == Sins)
			return i - 1;
	return -1;
}

static void
edges(Cfg *C)
{
	Ana *A = C->f->ana;

	for (uint32_t b = 0; b < A->nblk; b++) {
		int64_t li = lastins(C->f, &A->blk[b]);
		Stmt *s = li >= 0 ? &C->f->stmt[li] : 0;
		int falls = 1;
		if (s && isterm(s, C->m)) {
			targets(C, (uint32_t)li, edgefn, b);
			falls = s->guard != 0;
			/* bra.uni's guard is uniform, but either way is
			 * possible */
		}
		if (falls && b + 1 < A->nblk)
			edgefn(C, b, A->blk[b + 1].first);
	}
}

static void
adjacency(Cfg *C)
{
	Ana *A = C->f->ana;
	uint32_t *ns = calloc(A->nblk, sizeof *ns);
	uint32_t *np = calloc(A->nblk, sizeof *np);

	if (!ns || !np)
		die("out of memory");
	for (uint32_t e = 0; e < C->nedge; e += 2) {
		ns[C->edge[e]]++;
		np[C->edge[e + 1]]++;
	}
	for (uint32_t b = 0; b < A->nblk; b++) {
		A->blk[b].succ = alloc(A->a, (ns[b] + 1) * sizeof(uint32_t));
		A->blk[b].pred = alloc(A->a, (np[b] + 1) * sizeof(uint32_t));
	}
	for (uint32_t e = 0; e < C->nedge; e += 2) {
		Blk *from = &A->blk[C->edge[e]], *to = &A->blk[C->edge[e + 1]];
		uint32_t k;
		for (k = 0; k < from->nsucc; k++)
			if (from->succ[k] == C->edge[e + 1])
				break;
		if (k < from->nsucc)
			continue;   /* @p bra L; L: gives one edge */
		from->succ[from->nsucc++] = C->edge[e + 1];
		to->pred[to->npred++] = C->edge[e];
	}
	free(ns);
	free(np);
}

void
freeana(Func *f)
{
	Arena *a;

	if (!f->ana)
		return;
	a = f->ana->a;      /* the Ana itself lives in it */
	f->ana = 0;
	afree(a);
}

void
fillcfg(Func *f, Module *m)
{
	Cfg C = {f, m, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	Arena *a;
	Ana *A;
	uint32_t nb = 0;
	int sm;

	freeana(f);
	a = anew();
	A = f->ana = zalloc(a, sizeof *A);
	A->a = a;
	if (m && (sm = smtarget(m->target, 0)) >= 0)
		A->sm = sm;
	A->nword = (f->nreg + 63) / 64;
	if (!A->nword)
		A->nword = 1;
	scopes(&C);
	leaders(&C);
	for (uint32_t i = 0; i < f->nstmt; i++)
		nb += C.lead[i];
	if (!nb)
		nb = 1;
	A->blk = zalloc(a, nb * sizeof *A->blk);
	A->blkof = alloc(a, (f->nstmt + 1) * sizeof *A->blkof);
	A->nblk = 0;
	for (uint32_t i = 0; i < f->nstmt || !A->nblk; i++) {
		if (i >= f->nstmt || C.lead[i]) {
			if (A->nblk)
				A->blk[A->nblk - 1].end = i;
			A->blk[A->nblk].first = i;
			A->blk[A->nblk].role = -1;
			A->nblk++;
		}
		if (i >= f->nstmt)
			break;
		A->blkof[i] = A->nblk - 1;
	}
	A->blk[A->nblk - 1].end = f->nstmt;
	A->blkof[f->nstmt] = A->nblk - 1;
	edges(&C);
	adjacency(&C);
	free(C.scope);
	free(C.parent);
	free(C.lab);
	free(C.lead);
	free(C.edge);
}
