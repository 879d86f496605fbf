/* wgwait.c: waits for a block's wgmma groups before the block ends.
 *
 * needs:  blocks (cfg.c)
 * breaks: statement count (waits are inserted)
 * paper:  none; what ptxas's own C7511 note ("wgmma.mma_async
 *         instructions are serialized due to insufficient register
 *         resources") says it ends up doing anyway.
 *
 * Triton's Hopper attention commits the P*V wgmma at the bottom of the
 * loop and waits for it only after the next iteration's Q*K^T: across
 * the back edge the group is in flight, so ptxas must keep its A
 * registers (P) and its accumulator (O) untouched while the next S
 * accumulator is born.  At the register cap that overlap is what
 * spills.  A `wgmma.wait_group.sync.aligned 0` at the end of every
 * block whose last wgmma.commit_group is not waited for in the block
 * ends the overlap.  Waiting more never changes a result: registers
 * are read only after their wait either way.  The wait is .aligned
 * (the whole warp runs it together), which holds here because it runs
 * in the block of an unguarded commit, itself .aligned, with no branch
 * between; the validator checks exactly that.  Whether the kernel gets
 * faster is ptxas's and the GPU's answer, so it is one variant of the
 * search, not a default. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* An integer operand spelled n, in m's arena (a wait's group count). */
Opnd *
intopnd(Module *m, const char *n)
{
	Opnd *o = alloc(m->a, sizeof *o);

	memset(o, 0, sizeof *o);
	o->kind = Pint;
	o->reg = -1;
	o->s = interns(n);
	return o;
}

static Stmt
waitstmt(Module *m, const Stmt *commit)
{
	Stmt w = *commit;

	w.op = Owgmma_wait_group;
	w.name = interns("wgmma.wait_group");
	w.nop = 1;
	w.opd = intopnd(m, "0");
	w.dirty = 1;            /* printed from the IR, on a line of its own */
	w.lead = (Span){0, 0};
	return w;
}

/* Where block b needs a wait: before its closing branch, else at its
 * end; or UINT32_MAX when its last commit is waited for (or it has
 * none, or only guarded ones). */
static uint32_t
needwait(Func *f, Blk *b, uint32_t *commit)
{
	uint32_t last = UINT32_MAX, at = b->end;

	for (uint32_t i = b->first; i < b->end; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		/* an unguarded .aligned commit: what the validator's
		 * extrawait asks of the wgmma before an added wait (a
		 * mutated '.align' made them disagree: opt fuzzer, CI) */
		if (s->op == Owgmma_commit_group && !s->guard
		&& hasmod(s, ".aligned"))
			last = i;
		else if (s->op == Owgmma_wait_group || s->op == Owgmma_commit_group)
			last = UINT32_MAX;
		/* the wgmma statement nearest above the added wait must be
		 * unguarded and .aligned too, as the validator asks (fo68:
		 * an unaligned wgmma.fence after the commit) */
		else if (!strncmp(s->name, "wgmma.", 6)
		&& (s->guard || !hasmod(s, ".aligned")))
			last = UINT32_MAX;
		if (opklass(s) == Kctl)
			at = i;
	}
	*commit = last;
	return last == UINT32_MAX || at < last ? UINT32_MAX : at;
}

uint32_t
wgwait(Module *m, Func *f, const uint32_t *lines)
{
	uint32_t n = 0, *at, *from;

	fillcfg(f, m);
	Ana *A = f->ana;
	at = xmalloc((A->nblk + 1) * sizeof *at);
	from = xmalloc((A->nblk + 1) * sizeof *from);
	for (uint32_t b = 0; b < A->nblk; b++)
		if ((at[n] = needwait(f, &A->blk[b], &from[n])) != UINT32_MAX
		&& inlines(lines, &f->stmt[from[n]]))
			n++;
	freeana(f);
	for (uint32_t i = 1; i < n; i++)        /* blocks in body order */
		if (at[i] < at[i - 1])
			die("wgwait: blocks out of order");
	if (n) {
		Stmt *v = alloc(m->a, (f->nstmt + n) * sizeof *v);
		uint32_t k = 0, j = 0;
		for (uint32_t i = 0; i <= f->nstmt; i++) {
			for (; j < n && at[j] == i; j++)
				v[k++] = waitstmt(m, &f->stmt[from[j]]);
			if (i < f->nstmt)
				v[k++] = f->stmt[i];
		}
		f->stmt = v;
		f->nstmt = k;
		f->dirty = 1;
	}
	free(at);
	free(from);
	return n;
}
