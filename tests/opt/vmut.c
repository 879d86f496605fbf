/* vmut: the validator against planted errors in real PTX.  In every
 * function of every file given, pairs of adjacent instructions whose
 * order matters are swapped, one pair at a time, and `validate` must
 * refuse each result.  An order matters when
 *   reg  one writes a register the other reads or writes (a guard
 *        counts as a read);
 *   mem  both touch memory of one state space, one of them a store or
 *        an atomic (generic memory: global, shared, local; a .func's
 *        parameter whose address it takes: local too);
 *   bar  one touches memory, the other is a barrier or a fence (or
 *        another ordering instruction; not a load next to a
 *        wgmma.mma_async, whose shared-memory reads order against no
 *        read);
 *   wait a wgmma.wait_group, tcgen05.wait::ld or tcgen05.wait::st, then
 *        an instruction touching a register that, in the function, a
 *        wgmma names (its vector operands), a tcgen05.ld or a
 *        tcgen05.st (all but the address): the kind that wait waits
 *        for (what a tcgen05.st reads may be written across a
 *        wait::ld, which waits for loads alone; tsink moves such waits
 *        down past P's convert).
 * These rules are this file's own, from the opcode table's operand
 * roles and classes, not the validator's code.  Swaps of pairs that
 * share nothing are counted too, proven or not: how much of what is
 * legal the validator sees (informational).
 * usage: vmut [-n PAIRS] FILE|DIR...   (default 6 pairs of each kind a
 * function, 4 times that a file; directories: every .ptx below) */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "all.h"

const char *progname = "vmut";
enum { Kreg, Kmem, Kbar, Kwait, Kfree, Nkind };
static const char *const kname[] = {"reg", "mem", "bar", "wait", "free"};
static uint8_t *asyncreg;       /* per register of the function: named by
                                 * a wgmma (1), tcgen05.ld (2), .st (4) */
static unsigned long tried[Nkind], refused[Nkind];
static int per = 6, nbad, nfile;
static int infile[Nkind];       /* pairs of each kind tried in this file:
                                 * at most 4 * per, as each costs a
                                 * proof of the whole module */

static int
shares(const Rv *a, const Rv *b)
{
	for (uint32_t i = 0; i < a->n; i++)
		for (uint32_t j = 0; j < b->n; j++)
			if (a->v[i] == b->v[j])
				return 1;
	return 0;
}

static int addrtaken;    /* the function takes a parameter's address */

/* the state spaces a memory instruction may touch: bits 1 global, 2
 * shared, 4 local, 8 const, 16 param */
static int
spaces(const Stmt *s)
{
	static const char *const sp[] = {".global", ".shared", ".local",
		".const", ".param"};
	int m = 0;

	for (size_t i = 0; i < countof(sp); i++)
		if (hasmod(s, sp[i]) || (i == 1 && hasmod(s, ".shared::cta"))
		|| (i == 1 && hasmod(s, ".shared::cluster")))
			m |= 1 << i;
	if ((m & 16) && addrtaken)
		m |= 4;
	return m ? m : 7;
}

/* a parameter's name in an operand of anything but a .param access */
static int
takes(const Func *f)
{
	for (uint32_t i = 0; i < f->nstmt; i++) {
		const Stmt *s = &f->stmt[i];
		if (s->kind != Sins || ((s->op == Old || s->op == Ost)
		&& spaces(s) == 16))
			continue;
		for (uint32_t k = 0; k < s->nop; k++) {
			const Opnd *o = &s->opd[k];
			if (o->kind == Paddr && o->nsub)
				o = &o->sub[0];
			for (uint32_t p = 0; o->kind == Psym && p < f->npar; p++)
				for (uint32_t j = 0; j < f->par[p].nname; j++)
					if (!strcmp(o->s, f->par[p].name[j].name))
						return 1;
			for (uint32_t p = 0; o->kind == Psym && p < f->nret; p++)
				for (uint32_t j = 0; j < f->ret[p].nname; j++)
					if (!strcmp(o->s, f->ret[p].name[j].name))
						return 1;
		}
	}
	return 0;
}

static int
memop(const Stmt *s)
{
	Klass k = opklass(s);

	return k == Kld || k == Kst || k == Krmw;
}

static void
mark(const Opnd *o, uint8_t bit)
{
	if (o->kind == Preg && o->reg >= 0)
		asyncreg[o->reg] |= bit;
	for (uint32_t i = 0; i < o->nsub; i++)
		mark(&o->sub[i], bit);
}

/* the asyncreg bit of what an asynchronous op or its wait names */
static uint8_t
asyncbit(int op)
{
	return op == Owgmma_mma_async || op == Owgmma_wait_group ? 1
		: op == Otcgen05_ld || op == Otcgen05_wait_ld ? 2
		: op == Otcgen05_st || op == Otcgen05_wait_st ? 4 : 0;
}

static void
asyncregs(const Func *f)
{
	asyncreg = calloc(f->nreg + 1, 1);
	for (uint32_t i = 0; i < f->nstmt; i++) {
		const Stmt *s = &f->stmt[i];
		for (uint32_t k = 0; s->kind == Sins && k < s->nop; k++)
			if ((s->op == Owgmma_mma_async && s->opd[k].kind == Pvec)
			|| ((s->op == Otcgen05_ld || s->op == Otcgen05_st)
			&& s->opd[k].kind != Paddr))
				mark(&s->opd[k], asyncbit(s->op));
	}
}

/* a wait, then b touching what the asynchronous operations name */
static int
waitpair(Stmt *a, Stmt *b)
{
	Rv d = {0}, u = {0};
	int hit = 0;

	if (a->kind != Sins || b->kind != Sins || (a->op != Owgmma_wait_group
	&& a->op != Otcgen05_wait_ld && a->op != Otcgen05_wait_st))
		return 0;
	defuse(b, &d, &u);
	for (uint32_t i = 0; i < d.n; i++)
		hit |= asyncreg[d.v[i]] & asyncbit(a->op);
	for (uint32_t i = 0; i < u.n; i++)
		hit |= asyncreg[u.v[i]] & asyncbit(a->op);
	free(d.v);
	free(u.v);
	return hit;
}

/* What kind of pair (a, b) is, or -1: not one this test plants. */
static int
kind(Stmt *a, Stmt *b)
{
	Rv da = {0}, ua = {0}, db = {0}, ub = {0};
	int k = -1;

	if (waitpair(a, b))
		return Kwait;
	if (a->kind != Sins || b->kind != Sins || a->op == Ounknown
	|| b->op == Ounknown || opklass(a) == Kctl || opklass(b) == Kctl
	|| opklass(a) == Kfull || opklass(b) == Kfull)
		return -1;
	defuse(a, &da, &ua);
	defuse(b, &db, &ub);
	if (shares(&da, &ub) || shares(&ua, &db) || shares(&da, &db))
		k = Kreg;
	else if (memop(a) && memop(b) && (spaces(a) & spaces(b))
	&& (opklass(a) != Kld || opklass(b) != Kld))
		k = Kmem;
	else if (((memop(a) && opklass(b) == Kord)
	|| (memop(b) && opklass(a) == Kord))
	&& !((a->op == Owgmma_mma_async && opklass(b) == Kld)
	|| (b->op == Owgmma_mma_async && opklass(a) == Kld)))
		k = Kbar;
	else if (opklass(a) == Kpure && opklass(b) == Kpure)
		k = Kfree;
	free(da.v);
	free(ua.v);
	free(db.v);
	free(ub.v);
	return k;
}

/* Swaps statements i and j of function fi in a fresh parse of src and
 * says whether the validator proves the result. */
static int
proves(const char *path, const char *src, size_t n, Module *orig,
	uint32_t fi, uint32_t i, uint32_t j)
{
	Diag d = {0};
	Buf text = {0}, why = {0};

	d.quiet = 1;
	Module *m = parse(path, src, n, &d);
	Func *f = m->item[fi].fn;
	Stmt t = f->stmt[i];
	f->stmt[i] = f->stmt[j];
	f->stmt[j] = t;
	f->dirty = 1;
	emitlossless(&text, m);
	Diag d2 = {0};
	d2.quiet = 1;
	Module *re = parse(path, text.p ? text.p : "", text.n, &d2);
	int ok = !re->nerr && validate(orig, re, &why) == 0;
	if (ok && getenv("VMUT_VERBOSE"))
		fprintf(stderr, "%s", text.p);
	afree(re->a);
	afree(m->a);
	free(text.p);
	free(why.p);
	return ok;
}

/* the same source text: swapping them changes nothing */
static int
same(const char *src, const Stmt *a, const Stmt *b)
{
	return a->text.len == b->text.len
		&& !memcmp(src + a->text.off, src + b->text.off, a->text.len);
}

static void
onefunc(const char *path, const char *src, size_t n, Module *orig,
	uint32_t fi)
{
	Func *f = orig->item[fi].fn;
	int done[Nkind] = {0};

	asyncregs(f);
	addrtaken = 0;
	addrtaken = !f->entry && takes(f);     /* kernel parameters are
	                                        * read-only */
	uint32_t prev = UINT32_MAX;

	/* adjacent instructions, .loc lines between them aside; the first
	 * `per` pairs of each kind, spread by a stride over the body */
	uint32_t stride = f->nstmt / 64 + 1;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sloc)
			continue;
		if (s->kind != Sins) {
			prev = UINT32_MAX;
			continue;
		}
		/* waits are few: every one is taken, the rest by stride */
		if (prev != UINT32_MAX && (i % stride == 0
		|| waitpair(&f->stmt[prev], s))) {
			Stmt *a = &f->stmt[prev];
			int k = kind(a, s);
			if (k >= 0 && done[k] < per && infile[k] < 4 * per
			&& !same(src, a, s)) {
				done[k]++;
				infile[k]++;
				tried[k]++;
				int ok = proves(path, src, n, orig, fi, prev, i);
				refused[k] += !ok;
				if (ok && k != Kfree) {
					fprintf(stderr, "FAIL %s: %s: %s pair at "
						"lines %u and %u swapped, and "
						"proven\n", path, f->name,
						kname[k], a->pos.line,
						s->pos.line);
					nbad++;
				}
			}
		}
		prev = i;
	}
	free(asyncreg);
}

static void
onefile(const char *path)
{
	size_t n;
	char *src = readfile(path, &n);
	Diag d = {0};

	if (!src)
		return;
	d.quiet = 1;
	memset(infile, 0, sizeof infile);
	Module *orig = parse(path, src, n, &d);
	if (!orig->nerr) {
		nfile++;
		for (uint32_t i = 0; i < orig->nitem; i++)
			if (orig->item[i].kind == Ifunc && orig->item[i].fn->body)
				onefunc(path, src, n, orig, i);
	}
	afree(orig->a);
	freefile(src);
}

static int
visit(const char *path, const struct stat *st, int type, struct FTW *w)
{
	size_t l = strlen(path);

	(void)st, (void)w;
	if (type == FTW_F && l > 4 && !strcmp(path + l - 4, ".ptx"))
		onefile(path);
	return 0;
}

int
main(int argc, char **argv)
{
	int i = 1;

	if (i + 1 < argc && !strcmp(argv[i], "-n"))
		per = atoi(argv[i + 1]), i += 2;
	for (; i < argc; i++)
		if (nftw(argv[i], visit, 16, FTW_PHYS) < 0) {
			fprintf(stderr, "vmut: %s: not found; skipped\n",
				argv[i]);
			return 77;
		}
	printf("vmut: %d files;", nfile);
	for (int k = 0; k < Nkind; k++)
		printf(" %s %lu/%lu refused%s", kname[k], refused[k], tried[k],
			k == Kfree ? " (legal: proven is right)" : "");
	printf("\n");
	return nbad || !nfile ? 1 : 0;
}
