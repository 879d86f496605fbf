/* budget.c: re-splits setmaxnreg budgets between warp roles.
 *
 * needs:  resolved registers; the pressure model (pressure.c) to see
 *         who is short and who has slack; budgetfit (vbudget.c) as the
 *         oracle of what fits
 * breaks: the counts of setmaxnreg instructions
 * paper:  what FlashAttention-4 upstream did by hand: give the softmax
 *         warps 8 more registers per thread and take them from roles
 *         that need fewer.
 *
 * The role whose code goes furthest over its count by the pressure
 * model (with a rank, the rank-th) grows by a step; then the sites with
 * the most slack give back 8 at a time until the register-file
 * arithmetic holds, as budgetfit proves it.  When nothing can give
 * enough, nothing changes.  The validator proves the result again on
 * its own; ptxas judges whether it spills less. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Maxsite = 64 };

/* f's setmaxnreg in order into s, their counts into v: 0 where there
 * are none, more than max, or one is not a plain count (setmaxcount;
 * the grammar takes any integer there, ptxas wants one in [24, 256]). */
uint32_t
budgetsites(Func *f, Stmt **s, int *v, uint32_t max)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *t = &f->stmt[i];
		if (t->kind != Sins || t->op != Osetmaxnreg)
			continue;
		int x = setmaxcount(t);
		if (n == max || x < 0)
			return 0;
		s[n] = t;
		v[n++] = x;
	}
	return n;
}

/* Writes count v into setmaxnreg s (printed anew: dirty), in a copy of
 * its operands made in a: the search's variants share the input's
 * operands (search.c, shallow), so a budget variant needs no parse of
 * its own. */
void
setcount(Arena *a, Stmt *s, int v)
{
	char buf[16];
	Opnd *o = alloc(a, s->nop * sizeof *o);

	memcpy(o, s->opd, s->nop * sizeof *o);
	snprintf(buf, sizeof buf, "%d", v);
	o[0].s = interns(buf);
	s->opd = o;
	s->dirty = 1;
}

/* How far the code under each site's budget goes over it (negative:
 * slack), by the pressure model: the most live at any statement that
 * runs under that count. */
static void
overs(Module *m, Func *f, int *v, uint32_t n, int *over)
{
	fillcfg(f, m);
	filllive(f);
	fillpressure(f);
	Ana *A = f->ana;
	for (uint32_t k = 0; k < n; k++) {
		over[k] = -v[k];
		for (uint32_t i = 0; i < f->nstmt; i++)
			if (A->cap[i] == v[k] && A->press[i] - v[k] > over[k])
				over[k] = A->press[i] - v[k];
	}
	freeana(f);
}

/* Grows the budget of the role most over its count (rank: the rank-th
 * such) by step, and takes what that costs from the sites with the most
 * slack; returns 1 if changed. */
int
budget(Module *m, Func *f, int step, int rank)
{
	Stmt *s[Maxsite];
	int v[Maxsite], w[Maxsite], over[Maxsite];
	uint32_t n = budgetsites(f, s, v, Maxsite);
	Buf why = {0};
	Roles R;

	/* the roles once: the counts tried below do not change them */
	if (!n || rank < 0 || rank >= (int)n || budgetroles(m, f, &R, &why)
	|| budgetcheck(f, &R, 0, 0, &why)) {
		free(why.p);
		return 0;
	}
	overs(m, f, v, n, over);
	/* the rank-th: passed over, every count an earlier rank took (the
	 * sites of one count are one role's) */
	int up = -1, took[Maxsite];
	for (int r = 0; r <= rank; r++) {
		int best = -1;
		for (uint32_t i = 0; i < n; i++) {
			int seen = 0;
			for (int q = 0; q < r && !seen; q++)
				seen = v[i] == took[q];
			if (!seen && (best < 0 || over[i] > over[best]))
				best = (int)i;
		}
		if (best < 0)
			return 0;
		took[r] = v[up = best];
	}
	if (up < 0 || v[up] + step > 256)
		return 0;
	memcpy(w, v, sizeof w);
	int old = v[up];
	for (uint32_t i = 0; i < n; i++)
		if (v[i] == old)
			w[i] = old + step;
	int fits = 0;
	for (int tries = 0; tries < 64 && !fits; tries++) {
		why.n = 0;
		if ((fits = !budgetcheck(f, &R, w, v, &why)))
			break;
		int dn = -1;
		for (uint32_t i = 0; i < n; i++)
			if (w[i] != old + step && w[i] > 24 && (dn < 0
			|| over[i] < over[dn]))
				dn = (int)i;
		if (dn < 0 || !strstr(why.p ? why.p : "", "CTA holds"))
			break;
		w[dn] -= 8;
		over[dn] += 8;
	}
	free(why.p);
	if (!fits)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (w[i] != v[i])
			setcount(m->a, s[i], w[i]);
	return 1;
}

/* budget=V1/V2/...: sets the n setmaxnreg counts of a function with
 * exactly n to vals, when budgetfit proves they fit; else nothing
 * changes.  What the search's budget round writes (ptxas judges each
 * vector; the pressure model cannot: on CUTLASS 77's MLA forward it
 * puts the auxiliary load warp at 19 registers, and ptxas spills there
 * at 48) and what a user tries by hand.  Returns the counts changed. */
int
budgetset(Module *m, Func *f, const short *vals, int n)
{
	Stmt *s[Maxsite];
	int v[Maxsite], w[Maxsite], changed = 0;
	uint32_t ns = budgetsites(f, s, v, Maxsite);
	Buf why = {0};

	if ((int)ns != n)
		return 0;
	for (int i = 0; i < n; i++)
		w[i] = vals[i];
	int fits = !budgetfit(m, f, w, v, &why);
	free(why.p);
	for (int i = 0; fits && i < n; i++)
		if (w[i] != v[i]) {
			setcount(m->a, s[i], w[i]);
			changed++;
		}
	return changed;
}
