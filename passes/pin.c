/* pin.c: keeps an early sum where early put it, out of ptxas's reach.
 *
 * needs:  early's registers (%pxeK_<n>, passes/early.c)
 * breaks: statement count, register ids (it declares two registers and
 *         binds every operand again)
 * paper:  none; a counter to ptxas's sinking of code towards its use
 *         (Muchnick 1997, 14.x: partial dead-code elimination), which
 *         here runs against the register cap.
 *
 * Triton 3.6 peels the first iteration of its Blackwell loop.  early
 * computes that iteration's row sum of P right after the exp2 burst,
 * but nothing in the peeled code reads the sum: only the loop's header
 * does.  ptxas then sinks the whole chain of adds down to the loop's
 * preheader, past P's store to tensor memory, O's load and the MMA
 * issue, and the 128 fp32 P values it reads live all that way
 * (bench/RESULTS.md, twelfth session: held-out d128_n128 spills 128
 * bytes so, 0 when the sum is read where it is computed).  ptxas does
 * not move a shfl.sync across blocks, so each such sum is read where it
 * is computed by a shuffle of the thread's value to itself:
 *
 *	mov.u32 %pxp0, %laneid;
 *	mov.u32 %pxp1, %lanemask_eq;
 *	shfl.sync.idx.b32 S, S, %pxp0, 31, %pxp1;
 *
 * The member mask is the thread's own lane, so no other thread takes
 * part or is waited for (the PTX ISA asks only that the executing
 * thread and the source lane be in it), and with the lane index its
 * own and c = 31 (no segment) the source lane is the thread itself:
 * S keeps its value.  Only sums whose block is on no cycle are pinned
 * (in the loop, the back edge already stops ptxas), and only where no
 * read of the sum follows in the block.  The validator takes such a
 * shuffle out before anything else (unpin, validate.c). */
#include <stdlib.h>
#include <string.h>
#include "all.h"

static Stmt
ins(Module *m, const Stmt *at, uint16_t op, const char *name,
	const char *mod, uint32_t nop)
{
	Stmt s = *at;
	uint32_t nm = 0;
	char buf[64];

	s.op = op;
	s.name = interns(name);
	s.guard = 0;
	s.gneg = 0;
	s.mod = alloc(m->a, 4 * sizeof *s.mod);
	for (const char *p = mod; *p; ) {
		size_t n = strcspn(p + 1, ".") + 1;
		snprintf(buf, sizeof buf, "%.*s", (int)n, p);
		s.mod[nm++] = interns(buf);
		p += n;
	}
	s.nmod = nm;
	s.nop = nop;
	s.opd = alloc(m->a, nop * sizeof *s.opd);
	s.dirty = 1;
	s.lead = (Span){0, 0};
	return s;
}

/* The three statements after at, which writes S (operand 0). */
static void
pinstmts(Module *m, Func *f, uint32_t at, Stmt *v)
{
	Stmt *w = &f->stmt[at];
	Str lane = interns("%pxp0"), mask = interns("%pxp1");
	char n[8];

	v[0] = ins(m, w, Omov, "mov", ".u32", 2);
	v[0].opd[0] = regopnd(lane);
	v[0].opd[1] = regopnd(interns("%laneid"));
	v[1] = ins(m, w, Omov, "mov", ".u32", 2);
	v[1].opd[0] = regopnd(mask);
	v[1].opd[1] = regopnd(interns("%lanemask_eq"));
	v[2] = ins(m, w, Oshfl, "shfl", ".sync.idx.b32", 5);
	v[2].opd[0] = regopnd(f->stmt[at].opd[0].s);
	v[2].opd[1] = v[2].opd[0];
	v[2].opd[2] = regopnd(lane);
	snprintf(n, sizeof n, "31");
	v[2].opd[3] = *intopnd(m, n);
	v[2].opd[4] = regopnd(mask);
}

/* Whether block b lies on a cycle of A's graph: a walk from its
 * successors, each block pushed once. */
static int
cyclic(Ana *A, uint32_t b, uint8_t *seen, uint32_t *stack)
{
	uint32_t n = 0;

	memset(seen, 0, A->nblk);
	for (uint32_t k = 0; k < A->blk[b].nsucc; k++) {
		uint32_t c = A->blk[b].succ[k];
		if (!seen[c])
			seen[c] = 1, stack[n++] = c;
	}
	while (n) {
		uint32_t c = stack[--n];
		if (c == b)
			return 1;
		for (uint32_t k = 0; k < A->blk[c].nsucc; k++) {
			uint32_t e = A->blk[c].succ[k];
			if (!seen[e])
				seen[e] = 1, stack[n++] = e;
		}
	}
	return 0;
}

/* Early's marks (earlymarks), or NULL when there is no sum its copies
 * read or %pxp is taken. */
static uint8_t *
sums(Func *f)
{
	uint8_t *m = earlymarks(f);
	int any = 0;

	for (uint32_t r = 0; m && r < f->nreg; r++) {
		if (!strncmp(f->reg[r].prefix, "%pxp", 4)) {
			free(m);
			return 0;
		}
		any |= m[r] & Ecopied;
	}
	if (m && !any)
		free(m), m = 0;
	return m;
}

/* Whether statement at (writing sum S) is read again before its block
 * ends. */
static int
readinblock(Func *f, Blk *b, uint32_t at, int32_t S, Rv *d, Rv *u)
{
	for (uint32_t i = at + 1; i < b->end; i++) {
		if (f->stmt[i].kind != Sins)
			continue;
		d->n = u->n = 0;
		defuse(&f->stmt[i], d, u);
		for (uint32_t k = 0; k < u->n; k++)
			if (u->v[k] == S)
				return 1;
	}
	return 0;
}

uint32_t
pin(Module *m, Func *f, const uint32_t *lines)
{
	uint8_t *pxe, *at, *seen;
	uint32_t *stack, n = 0, declpos = 0;
	Rv d = {0}, u = {0};

	if (m->vmaj < 6 || !(pxe = sums(f)))
		return 0;
	fillcfg(f, m);
	Ana *A = f->ana;
	at = calloc(f->nstmt + 1, 1);
	seen = xmalloc(A->nblk + 1);
	stack = xmalloc((A->nblk + 1) * sizeof *stack);
	if (!at)
		die("out of memory");
	for (uint32_t b = 0; b < A->nblk; b++) {
		Blk *B = &A->blk[b];
		int cyc = -1;
		for (uint32_t i = B->first; i < B->end; i++) {
			Stmt *s = &f->stmt[i];
			if (s->kind != Sins || s->nop < 1
			|| s->opd[0].kind != Preg || s->opd[0].reg < 0
			|| !(pxe[s->opd[0].reg] & Ecopied) || !inlines(lines, s))
				continue;
			if (cyc < 0)
				cyc = cyclic(A, b, seen, stack);
			if (!cyc && !readinblock(f, B, i, s->opd[0].reg,
				&d, &u))
				at[i] = 1, n++;
		}
	}
	freeana(f);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		if (f->stmt[i].kind == Sins || f->stmt[i].kind == Sopen)
			break;
		if (f->stmt[i].kind == Sdecl)
			declpos = i + 1;
	}
	if (n) {
		Stmt *v = alloc(m->a, (f->nstmt + 3 * n + 2) * sizeof *v);
		uint32_t k = 0;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			if (i == declpos)
				v[k++] = declstmt(m, f, interns(".b32"), "%pxp", 2);
			v[k++] = f->stmt[i];
			if (at[i])
				pinstmts(m, f, i, &v[k]), k += 3;
		}
		if (declpos == f->nstmt)
			v[k++] = declstmt(m, f, interns(".b32"), "%pxp", 2);
		f->stmt = v;
		f->nstmt = k;
		f->dirty = 1;
		Regmemo *memo = 0;
		resolve(m, f, &memo);
		regmemofree(memo);
	}
	free(pxe);
	free(at);
	free(seen);
	free(stack);
	free(d.v);
	free(u.v);
	return n;
}
