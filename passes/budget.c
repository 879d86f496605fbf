/* budget.c: re-splits setmaxnreg budgets between warp roles.
 *
 * needs:  resolved registers; budgetfit (vbudget.c) as the oracle
 * breaks: the counts of setmaxnreg instructions
 * paper:  what FlashAttention-4 upstream did by hand: give the softmax
 *         warps 8 more registers per thread and take them from roles
 *         that need fewer.
 *
 * The largest budget (the role under pressure; with a seed, the k-th
 * largest) grows by a step; then the largest of the others gives back 8
 * at a time until the register file arithmetic holds, as budgetfit
 * proves it.  When nothing can give enough, nothing changes.  The
 * validator proves the result again on its own; ptxas judges whether
 * it spills less. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Maxsite = 64 };

static uint32_t
sites(Func *f, Stmt **s, int *v)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < f->nstmt && n < Maxsite; i++) {
		Stmt *t = &f->stmt[i];
		if (t->kind != Sins || t->op != Osetmaxnreg || !t->nop
		|| t->opd[0].kind != Pint)
			continue;
		s[n] = t;
		v[n++] = atoi(t->opd[0].s);
	}
	return n;
}

/* The index of the largest value not in skip, the rank-th such. */
static int
largest(int *v, uint32_t n, int skip, int rank)
{
	int best = -1;
	uint8_t used[Maxsite] = {0};

	for (int r = 0; r <= rank; r++) {
		best = -1;
		for (uint32_t i = 0; i < n; i++)
			if ((int)i != skip && !used[i] && (best < 0
			|| v[i] > v[best]))
				best = (int)i;
		if (best < 0)
			return -1;
		/* sites of one role share a value: skip them all */
		for (uint32_t i = 0; i < n; i++)
			if (v[i] == v[best])
				used[i] = 1;
	}
	return best;
}

/* Grows the rank-th largest budget by step; returns 1 if changed. */
int
budget(Func *f, int step, int rank)
{
	Stmt *s[Maxsite];
	int v[Maxsite], w[Maxsite];
	uint32_t n = sites(f, s, v);
	Buf why = {0};

	if (!n || budgetfit(f, 0, &why)) {
		free(why.p);
		return 0;
	}
	int up = largest(v, n, -1, rank);
	if (up < 0)
		return 0;
	memcpy(w, v, sizeof w);
	/* every site with the grown role's value grows with it */
	int old = v[up];
	for (uint32_t i = 0; i < n; i++)
		if (v[i] == old)
			w[i] = old + step;
	int fits = 0;
	for (int tries = 0; tries < 64 && !fits; tries++) {
		why.n = 0;
		if ((fits = !budgetfit(f, w, &why)))
			break;
		int dn = -1;
		for (uint32_t i = 0; i < n; i++)
			if (w[i] != old + step && w[i] > 24 && (dn < 0
			|| w[i] > w[dn]))
				dn = (int)i;
		if (dn < 0 || !strstr(why.p ? why.p : "", "CTA holds")) {
			free(why.p);
			return 0;
		}
		w[dn] -= 8;
	}
	free(why.p);
	if (!fits)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (w[i] != v[i]) {
			char buf[16];
			snprintf(buf, sizeof buf, "%d", w[i]);
			s[i]->opd[0].s = interns(buf);
			s[i]->dirty = 1;
		}
	return 1;
}
