/* domtest: dom.c answers dominance from a dominator tree; this holds
 * it to the definition, the greatest fixed point of
 *   dom_a(entry) = (a is the entry)
 *   dom_a(a)     = a is reached from the entry
 *   dom_a(b)     = b is reached, has predecessors, and dom_a(p) for
 *                  every predecessor p  (other b)
 * computed here block by block over the same CFG (dompreds), on random
 * functions: labels, conditional and plain branches, returns and code
 * after them that nothing reaches (nvcc -G's shape), loops into the
 * entry.  Every pair of statements in different blocks is asked.
 * usage: domtest [N [SEED]]  (kernel t: the t-th of seed's)   (exit 0 pass, 1 fail) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "all.h"

const char *progname = "domtest";

static uint64_t rng;

static uint32_t
rnd(uint32_t n)
{
	rng = rng * 6364136223846793005u + 1442695040888963407u;
	return (uint32_t)(rng >> 33) % n;
}

/* A kernel of nb label-headed pieces, each ending at random. */
static void
gen(Buf *b, uint32_t nb)
{
	bprintf(b, ".version 8.0\n.target sm_90\n.address_size 64\n"
		".visible .entry k()\n{\n\t.reg .pred %%p<2>;\n"
		"\t.reg .b32 %%r<2>;\n");
	/* $L0 heads the entry block (a loop into the entry) or the next */
	int top = rnd(2);
	if (top)
		bprintf(b, "$L0:\n");
	bprintf(b, "\tmov.u32 %%r1, 0;\n");
	for (uint32_t i = 0; i < nb; i++) {
		if (i || !top)
			bprintf(b, "$L%u:\n", i);
		bprintf(b, "\tadd.s32 %%r1, %%r1, 1;\n");
		switch (rnd(6)) {
		case 0:
			bprintf(b, "\t@%%p1 bra $L%u;\n", rnd(nb));
			break;
		case 1:
			bprintf(b, "\tbra.uni $L%u;\n", rnd(nb));
			break;
		case 2:
			bprintf(b, "\t@%%p1 bra $L%u;\n\tbra.uni $L%u;\n",
				rnd(nb), rnd(nb));
			break;
		case 3:
			bprintf(b, "\tret;\n\tadd.s32 %%r1, %%r1, 2;\n");
			break;
		default:
			break;
		}
	}
	bprintf(b, "\tret;\n}\n");
}

/* The definition, for block a, into dom[]. */
static void
reference(Dom *d, const uint8_t *live, uint32_t a, uint8_t *dom)
{
	uint32_t n = domnblk(d);
	int changed = 1;

	for (uint32_t b = 0; b < n; b++)
		dom[b] = live[b] && (b != 0 || a == 0);
	while (changed) {
		changed = 0;
		for (uint32_t b = 1; b < n; b++) {
			const uint32_t *p;
			uint32_t np = dompreds(d, b, &p);
			uint8_t v = live[b];
			if (b != a && v) {
				v = np > 0;
				for (uint32_t k = 0; k < np && v; k++)
					v = dom[p[k]];
			}
			if (v != dom[b])
				dom[b] = v, changed = 1;
		}
	}
}

/* Asks every pair of f's statements; adds f's blocks to *nblk. */
static int
one(Func *f, uint64_t seed, uint64_t *nblk)
{
	Dom *d = domnew(f);
	uint32_t n = domnblk(d), nq = 0, bad = 0;
	uint8_t *live = calloc(n, 1), *dom = calloc(n, 1);
	uint32_t *q = malloc(n * sizeof *q);

	*nblk += n;
	live[0] = 1, q[nq++] = 0;
	while (nq) {
		const uint32_t *s;
		uint32_t b = q[--nq], ns = domsuccs(d, b, &s);
		for (uint32_t k = 0; k < ns; k++)
			if (!live[s[k]])
				live[s[k]] = 1, q[nq++] = s[k];
	}
	for (uint32_t a = 0; a < n && !bad; a++) {
		uint32_t fa, ea;
		reference(d, live, a, dom);
		domspan(d, a, &fa, &ea);
		for (uint32_t i = 0; i < f->nstmt && !bad; i++) {
			uint32_t bi = domblk(d, i);
			if (bi == a)
				continue;
			if (domdominates(d, fa, i) != dom[bi]) {
				fprintf(stderr, "FAIL kernel %llu: block %u %s "
					"block %u (statements %u, %u)\n",
					(unsigned long long)seed, a, dom[bi]
					? "dominates" : "does not dominate",
					bi, fa, i);
				bad = 1;
			}
		}
	}
	free(q);
	free(dom);
	free(live);
	domfree(d);
	return bad;
}

int
main(int argc, char **argv)
{
	uint32_t ntry = argc > 1 ? (uint32_t)atoi(argv[1]) : 3000;
	uint64_t seed0 = argc > 2 ? strtoull(argv[2], 0, 10) : 1;
	int nfail = 0;
	uint64_t nblk = 0;

	for (uint32_t t = 0; t < ntry && nfail < 5; t++) {
		Buf b = {0};
		Diag dg = {0};
		rng = seed0 * 1000003u + t;
		gen(&b, 1 + rnd(t % 3 ? 12 : 40));
		dg.quiet = 1;
		Module *m = parse("gen.ptx", b.p, b.n, &dg);
		if (!m->nerr)
			check(m, &dg);
		if (dg.nerr) {
			fprintf(stderr, "FAIL: the generated kernel has "
				"errors:\n%.*s", (int)b.n, b.p);
			return 1;
		}
		for (uint32_t i = 0; i < m->nitem; i++)
			if (m->item[i].kind == Ifunc)
				nfail += one(m->item[i].fn, t, &nblk);
		afree(m->a);
		free(b.p);
	}
	if (!nfail)
		printf("domtest: %u kernels, %llu blocks: the tree agrees "
			"with the definition\n", ntry, (unsigned long long)nblk);
	return nfail != 0;
}
