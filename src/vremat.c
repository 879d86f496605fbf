/* vremat.c: values B may compute again: definitions whose value
 * cannot change (immediates, launch constants, parameters, loads of
 * read-only memory), remat=loop's copies of address chains, and the
 * wgmma.wait_group a rewrite may add. */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "valid.h"

static int
launchvalue(Opnd *o)
{
	static const char *const v[] = {"%tid", "%ntid", "%ctaid", "%nctaid",
		"%cluster_ctaid", "%cluster_nctaid", "%clusterid",
		"%nclusterid", "%cluster_ctarank", "%cluster_nctarank",
		"%gridid", "%nsmid", "%total_smem_size", "%dynamic_smem_size"};

	for (size_t i = 0; o->kind == Preg && o->reg < 0 && i < countof(v); i++)
		if (!strcmp(o->s, v[i]))
			return 1;
	return 0;
}

/* A load of read-only memory (.global.nc) into registers written once,
 * from an address in a register written once: the same value wherever
 * it runs. */
static int
readonly(Stmt *s, uint32_t *writes)
{
	if (s->kind != Sins || s->guard || s->op != Old || s->nop != 2
	|| !vhas(s, ".global") || !vhas(s, ".nc") || s->opd[1].kind != Paddr
	|| s->opd[1].nsub != 1)
		return 0;
	Opnd *b = &s->opd[1].sub[0], *d = &s->opd[0];
	if (b->kind != Preg || b->reg < 0 || writes[b->reg] != 1)
		return 0;
	if (d->kind == Preg)
		return d->reg >= 0 && writes[d->reg] == 1;
	if (d->kind != Pvec)
		return 0;
	for (uint32_t i = 0; i < d->nsub; i++)
		if (d->sub[i].kind != Preg || d->sub[i].reg < 0
		|| writes[d->sub[i].reg] != 1)
			return 0;
	return 1;
}

/* Arithmetic on registers of constant value is constant too: pure (no
 * memory, no ordering), cannot fault (no division), unguarded, writing
 * one register nothing else writes, reading only registers whose one
 * definition is constant. */
static int
arith(Stmt *s, uint32_t *writes, uint8_t *kreg, int *uni)
{
	Acc a = {0};
	int ok;

	if (s->guard || s->nop < 2 || s->op == Odiv || s->op == Orem
	|| veffect(s) != Enone || s->opd[0].kind != Preg || s->opd[0].reg < 0
	|| writes[s->opd[0].reg] != 1 || opdefs(s) != D0)
		return 0;
	vaccess(s, &a);
	ok = a.nuse > 0 && a.ndef == 1;
	*uni = 1;
	for (uint32_t j = 0; j < a.nuse && ok; j++) {
		ok = kreg[a.use[j]] != 0;
		*uni &= kreg[a.use[j]] == 2;
	}
	accfree(&a);
	return ok;
}

/* shfl.sync.idx of a register that holds one value in every lane of the
 * warp, all lanes taking part (mask -1): it gives that value.  Its
 * statement cannot run again just anywhere (lanes may have diverged
 * there), but a mov of its source can. */
static int
broadcast(Stmt *s, uint32_t *writes, uint8_t *kreg)
{
	/* the mask operand only once there are five (an operand-less
	 * statement has no array to point into: UBSan, fo42) */
	Opnd *m = s->op == Oshfl && s->nop == 5 ? &s->opd[4] : 0;

	return m && !s->guard && vhas(s, ".sync")
		&& vhas(s, ".idx") && vhas(s, ".b32") && s->opd[0].kind == Preg
		&& s->opd[0].reg >= 0 && writes[s->opd[0].reg] == 1
		&& s->opd[1].kind == Preg && s->opd[1].reg >= 0
		&& kreg[s->opd[1].reg] == 2 && m->kind == Pint
		&& (m->minus ? !strcmp(m->s, "1")
		: !strcmp(m->s, "0xffffffff") || !strcmp(m->s, "0xFFFFFFFF"));
}

/* The mov that gives what broadcast s gives: its text is the constant
 * definition B may hold. */
static Str
asmov(Func *f, Stmt *s)
{
	static Str b32;
	Stmt t = *s;

	if (!b32)
		b32 = interns(".b32");
	t.op = Omov;
	t.name = interns("mov");
	t.nmod = 1;
	t.mod = &b32;
	t.nop = 2;
	return vtext(f, &t);
}

/* How many statements of f write each register; last, when not 0,
 * gets the last of them (for a register written once, its writer). */
uint32_t *
vwritecount(Func *f, uint32_t *last)
{
	uint32_t *writes = calloc(f->nreg + 1, sizeof *writes);

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Acc a = {0};
		if (f->stmt[i].kind != Sins)
			continue;
		vaccess(&f->stmt[i], &a);
		for (uint32_t j = 0; j < a.ndef; j++) {
			writes[a.def[j]]++;
			if (last)
				last[a.def[j]] = i;
		}
		accfree(&a);
	}
	return writes;
}

/* Definitions whose value cannot change while the kernel runs, of a
 * register nothing else writes: an unguarded mov of an immediate, a
 * symbol or a launch constant, or an ld.param of a kernel parameter.
 * Running one again anywhere changes nothing. */
Str *
vkonstants(Func *f, uint32_t *writes, const uint8_t *tm, uint32_t *n,
	int32_t **load)
{
	Str *k = xmalloc((f->nstmt + 1) * sizeof *k);
	*load = xmalloc((f->nstmt + 1) * sizeof **load);

	*n = 0;
	/* leaves first, then arithmetic whose every input is such a
	 * register, to a fixed point.  kreg: 1 constant, 2 constant and
	 * the same in every thread (no %tid, no memory) */
	uint8_t *kreg = calloc(f->nreg + 1, 1), *kst = calloc(f->nstmt + 1, 1);
	int32_t *pos = xmalloc((f->nstmt + 1) * sizeof *pos);
	for (int changed = 1, pass = 0; changed && pass < 9; pass++) {
		changed = 0;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			Stmt *s = &f->stmt[i];
			int leaf = 0, ok = 0, uni = 0;
			if (kst[i] || s->kind != Sins)
				continue;
			if (readonly(s, writes))
				ok = leaf = 1;
			else if (!s->guard && s->nop == 2 && s->opd[0].kind == Preg
			&& s->opd[0].reg >= 0 && writes[s->opd[0].reg] == 1
			&& !f->reg[s->opd[0].reg].pred) {
				Opnd *o = &s->opd[1];
				ok = s->op == Omov && (((o->kind == Pint
					|| o->kind == Pflt || o->kind == Psym)
					&& !o->nsub) || launchvalue(o));
				ok |= s->op == Old && f->entry && vhas(s, ".param")
					&& o->kind == Paddr && o->nsub == 1
					&& o->sub[0].kind == Psym;
				uni = ok && (s->op == Old || o->kind != Preg
					|| strcmp(o->s, "%tid"));
			}
			if (!ok && broadcast(s, writes, kreg))
				ok = uni = 1, kst[i] = 2;
			if (!ok)
				ok = arith(s, writes, kreg, &uni);
			if (!ok)
				continue;
			kst[i] |= 1;
			pos[i] = leaf && s->op == Old && vhas(s, ".nc")
				? (int32_t)i : -1;
			Acc a = {0};
			vaccess(s, &a);
			for (uint32_t j = 0; j < a.ndef; j++)
				kreg[a.def[j]] = uni ? 2 : 1;
			accfree(&a);
			changed = 1;
		}
	}
	/* a copy that writes a register a tcgen05.st or a wgmma may still
	 * read (a tcgen05.ld or a wgmma still write) is an access the
	 * tensor core races with, even of the value it holds, and the PTX
	 * ISA leaves it undefined: none is taken (opt fuzzer's fo24) */
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (kst[i] && !vasyncwrite(&f->stmt[i], tm)) {
			(*load)[*n] = pos[i];
			k[(*n)++] = kst[i] == 3 ? asmov(f, &f->stmt[i])
				: vtext(f, &f->stmt[i]);
		}
	free(kreg);
	free(kst);
	free(pos);
	return k;
}

/* Statement j of B may be a wait A does not have: an unguarded
 * wgmma.wait_group waits longer, which changes no value (accumulators
 * are read after a wait either way), provided the whole warp runs it
 * together, as .aligned demands.  That holds when, walking back in its
 * block, an unguarded .aligned wgmma instruction comes before any label
 * a branch names and any branch, call or exit: nothing between let the
 * warp's threads part. */
int
vextrawait(Func *f, const uint8_t *targets, uint32_t j)
{
	Stmt *s = &f->stmt[j];

	if (s->kind != Sins || s->op != Owgmma_wait_group || s->guard
	|| !vhas(s, ".aligned"))
		return 0;
	while (j-- > 0) {
		s = &f->stmt[j];
		if (s->kind == Slabel && targets[j])
			return 0;
		if (s->kind != Sins)
			continue;
		if (opinfo[s->op].klass == Kctl)
			return 0;
		if (!strncmp(opinfo[s->op].name, "wgmma.", 6))
			return !s->guard && vhas(s, ".aligned");
	}
	return 0;
}

/* A special register whose value may change while the thread runs
 * (%warpid, %smid, ...): anything but a launch constant or %laneid. */
static int
volatilereg(Opnd *o)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		if (volatilereg(&o->sub[i]))
			return 1;
	return o->kind == Preg && o->reg < 0 && !launchvalue(o)
		&& strcmp(o->s, "%laneid");
}

/* A's definitions remat=loop may copy: pure arithmetic (no memory, no
 * ordering, no division), unguarded, writing one register nothing else
 * writes.  The copy reads what the definition reads, so it is the same
 * value where those registers hold the same (vloopvalues). */
Lc *
vloopchains(Func *f, const uint32_t *writes, const uint8_t *tm, uint32_t *n)
{
	Lc *lc = xmalloc((f->nstmt + 1) * sizeof *lc);

	*n = 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins || s->guard || s->nop < 2
		|| s->op == Odiv || s->op == Orem || veffect(s) != Enone
		|| opdefs(s) != D0 || s->opd[0].kind != Preg
		|| s->opd[0].reg < 0 || writes[s->opd[0].reg] != 1
		|| vasyncwrite(s, tm))
			continue;
		/* special registers other than launch constants (%warpid,
		 * %smid, ...) may read differently when run again */
		int special = 0;
		for (uint32_t k = 1; k < s->nop; k++)
			special |= volatilereg(&s->opd[k]);
		if (!special)
			lc[(*n)++] = (Lc){vtext(f, s), i};
	}
	if (*n)
		qsort(lc, *n, sizeof *lc, vlccmp);
	return lc;
}

/* Whether register values read at statement p are those statement q
 * saw: on every path from the entry to p, q runs, then none of the n
 * statements in site (writes of the register, q itself among them if
 * it writes it) before p.  A forward "must" data-flow over d's blocks
 * (in: the AND of the predecessors' out, the entry's false; out: the
 * block's last event, q 1 and a write 0, else in), written apart from
 * domstable(), which the remat passes ask too: fo51 found domstable
 * wrong, pass and validator alike. */
static int
intact(Dom *d, uint32_t q, uint32_t p, const uint32_t *site, uint32_t n)
{
	uint32_t nb = domnblk(d), bp = domblk(d, p);
	int64_t *last = malloc((nb + 1) * sizeof *last);  /* 2j+1: q, 2j: write */
	uint8_t *out = malloc(nb + 1);
	int changed = 1, st;
	int64_t atp = -1;

	if (!last || !out)
		die("out of memory");
	int qw = 0;     /* q writes the register too: that write wins */
	for (uint32_t k = 0; k < n; k++)
		qw |= site[k] == q;
	for (uint32_t b = 0; b < nb; b++)
		last[b] = -1;
	for (uint32_t k = 0; k < n + !qw; k++) {
		uint32_t j = k < n ? site[k] : q, b = domblk(d, j);
		int64_t e = 2 * (int64_t)j + (k == n);
		if (e > last[b])
			last[b] = e;
		if (b == bp && j < p && e > atp)
			atp = e;
	}
	memset(out, 1, nb + 1);
	while (changed) {
		changed = 0;
		for (uint32_t b = 0; b < nb; b++) {
			const uint32_t *pr;
			uint32_t np = dompreds(d, b, &pr);
			int v = b != 0 && np > 0;
			for (uint32_t k = 0; k < np && v; k++)
				v = out[pr[k]];
			if (last[b] >= 0)
				v = (int)(last[b] & 1);
			if (v != out[b])
				out[b] = (uint8_t)v, changed = 1;
		}
	}
	if (atp >= 0)
		st = (int)(atp & 1);
	else {
		const uint32_t *pr;
		uint32_t np = dompreds(d, bp, &pr);
		st = bp != 0 && np > 0;
		for (uint32_t k = 0; k < np && st; k++)
			st = out[pr[k]];
	}
	free(last);
	free(out);
	return st;
}

/* The copies noted by vpending(): each B statement p copies A's
 * statement a, which B runs at amap[a].  Every register the copy reads
 * must hold at p what it held there: amap[a] dominates p, and none of
 * the places where A writes that register (as B places them) lies on a
 * path from amap[a] to p that does not run amap[a] again.  (B's other
 * copies write the values A's definitions write; by induction over the
 * run, they change nothing.) */
int
vloopvalues(Func *fa, Func *fb, const int32_t *amap, const uint32_t *writes,
	Pend *pd, Buf *why)
{
	Dom *d = domnew(fb);
	uint32_t nr = fa->nreg + 1;
	uint32_t *s0 = calloc(nr + 1, sizeof *s0), *fill = calloc(nr, sizeof *fill);
	int rc = 0;

	/* where A writes each register, as B places it (-1: B lacks it) */
	for (uint32_t r = 0; r < nr; r++)
		s0[r + 1] = s0[r] + writes[r];
	uint32_t *site = xmalloc((s0[nr] + 1) * sizeof *site);
	for (uint32_t i = 0; i < fa->nstmt; i++) {
		Acc w = {0};
		if (fa->stmt[i].kind != Sins)
			continue;
		vaccess(&fa->stmt[i], &w);
		for (uint32_t y = 0; y < w.ndef; y++)
			site[s0[w.def[y]] + fill[w.def[y]]++] = (uint32_t)amap[i];
		accfree(&w);
	}
	for (uint32_t k = 0; k < pd->n && !rc; k += 2) {
		uint32_t p = pd->v[k], a = pd->v[k + 1];
		Acc u = {0};
		if (p == UINT32_MAX)    /* claimed as a hoisted statement */
			continue;
		int ok = amap[a] >= 0;
		vaccess(&fb->stmt[p], &u);
		for (uint32_t x = 0; x < u.nuse && ok; x++) {
			uint32_t r = (uint32_t)u.use[x];
			for (uint32_t i = s0[r]; i < s0[r + 1] && ok; i++)
				ok = site[i] != UINT32_MAX;
			ok = ok && domstable(d, (uint32_t)amap[a], p,
				site + s0[r], s0[r + 1] - s0[r])
				&& intact(d, (uint32_t)amap[a], p,
				site + s0[r], s0[r + 1] - s0[r]);
		}
		accfree(&u);
		if (!ok)
			rc = vfail(why, fb, &fb->stmt[p], "'%s' appears in the "
				"rewrite where what it reads may differ from "
				"where the original computes it",
				vtext(fb, &fb->stmt[p]));
	}
	free(site);
	free(s0);
	free(fill);
	domfree(d);
	return rc;
}
