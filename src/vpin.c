/* vpin.c: proves a function's shuffles of a thread's value to itself
 * (the pin pass) on its own, and takes them out: it shares nothing
 * with passes/pin.c.  validate() does so to A and to B alike, so a
 * rewrite of a rewrite is proven too.
 *
 * A pin is `shfl.sync.idx.b32 S, S, L, 31, M`, unguarded, no predicate
 * out, outside inline-asm scopes, where
 *  - every write of L in B is `mov.{u32,b32,s32} L, %laneid` and every
 *    write of M is such a mov of %lanemask_eq, all unguarded;
 *  - L and M are read by pins and by nothing else;
 *  - walking back from the pin within its block (no label a branch
 *    names, scope edge or control transfer crossed), a write of L and
 *    one of M are met.
 * Then at the pin L is the thread's lane and M has only its bit: the
 * thread alone takes part (the PTX ISA asks that the executing thread
 * and the source lane be in the member mask; nothing else waits), and
 * with c = 31 (clamp 31, no segment) the source lane is b = the
 * thread's own, so S gets S: the pin computes nothing.  F' is F less
 * its pins and the writes of their L and M (read by nothing else);
 * their declarations, where A has none, go with unearly's fresh ones.
 * One shuffle of that shape that is not proven so, and none is taken
 * out: the usual proof then sees them all (what stays in B must stand
 * in A). */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "valid.h"

static int
plainreg(const Opnd *o)
{
	return o->kind == Preg && o->reg >= 0 && !o->nsub && !hascomp(o)
		&& !o->neg;
}

static int
modsare(const Stmt *s, const char *const *want, uint32_t n)
{
	if (s->nmod != n)
		return 0;
	for (uint32_t k = 0; k < n; k++)
		if (strcmp(s->mod[k], want[k]))
			return 0;
	return 1;
}

/* The pin's shape, on its own: registers S, L, M in r. */
static int
pinshape(const Stmt *s, int32_t r[3])
{
	static const char *const m[] = {".sync", ".idx", ".b32"};
	int64_t c;

	if (s->kind != Sins || s->op != Oshfl || s->guard || s->nop != 5
	|| !modsare(s, m, 3) || !plainreg(&s->opd[0])
	|| !plainreg(&s->opd[1]) || s->opd[0].reg != s->opd[1].reg
	|| !plainreg(&s->opd[2]) || !plainreg(&s->opd[4])
	|| s->opd[3].kind != Pint || s->opd[3].minus
	|| !ptxint(s->opd[3].s, &c) || c != 31)
		return 0;
	r[0] = s->opd[0].reg;
	r[1] = s->opd[2].reg;
	r[2] = s->opd[4].reg;
	return r[1] != r[2] && r[0] != r[1] && r[0] != r[2];
}

/* Whether s is `mov L, sreg` as a pin's L or M needs it. */
static int
specialmov(const Stmt *s, int32_t reg, Str sreg)
{
	return s->kind == Sins && s->op == Omov && !s->guard && s->nop == 2
		&& s->nmod == 1 && (!strcmp(s->mod[0], ".u32")
		|| !strcmp(s->mod[0], ".b32") || !strcmp(s->mod[0], ".s32"))
		&& plainreg(&s->opd[0]) && s->opd[0].reg == reg
		&& s->opd[1].kind == Preg && s->opd[1].reg < 0
		&& !s->opd[1].nsub && !hascomp(&s->opd[1]) && s->opd[1].s == sreg;
}

/* Whether walking back from the pin at i in its block meets a write
 * of reg (which every write is, by then, the right mov).  Labels no
 * branch names (debug markers, tgt 0) are no block edge: the
 * schedulers move statements across them. */
static int
setbefore(Func *f, const uint8_t *tgt, uint32_t i, int32_t reg, Rv *d,
	Rv *u)
{
	while (i-- > 0) {
		Stmt *s = &f->stmt[i];
		if ((s->kind == Slabel && tgt[i]) || s->kind == Sopen
		|| s->kind == Sclose)
			return 0;
		if (s->kind != Sins)
			continue;
		if (opklass(s) == Kctl)
			return 0;
		d->n = u->n = 0;
		defuse(s, d, u);
		for (uint32_t k = 0; k < d->n; k++)
			if (d->v[k] == reg)
				return 1;
	}
	return 0;
}

/* Whether an operand of s, or an element of a vector operand, is
 * register reg. */
static int
names(const Stmt *s, int32_t reg)
{
	for (uint32_t k = 0; k < s->nop; k++) {
		const Opnd *o = &s->opd[k];
		if (o->kind == Preg && o->reg == reg)
			return 1;
		for (uint32_t z = 0; z < o->nsub; z++)
			if (o->sub[z].kind == Preg && o->sub[z].reg == reg)
				return 1;
	}
	return 0;
}

static int
waitzero(const Stmt *s)
{
	return s->op == Owgmma_wait_group && !s->guard && s->nop == 1
		&& s->opd[0].kind == Pint && !s->opd[0].minus
		&& !strcmp(s->opd[0].s, "0");
}

/* Whether S may be in flight at statement i: a path from the entry
 * to i passes a tcgen05.st (tcgen05.ld) naming S with no unguarded
 * tcgen05.wait::st (::ld) after it, which waits for every one the
 * thread issued before (PTX ISA, tcgen05.wait), or a wgmma.mma_async
 * naming S not followed by an unguarded wgmma.commit_group and then
 * an unguarded wgmma.wait_group 0 (which waits for every committed
 * group; one not committed is in none).  Until then the tensor core
 * may still read (write) S, and the pin writes (reads) it.  A walk
 * back from i over d's blocks; state: bit 1 still looking for a
 * store, bit 2 for a load, bit 4 for a wgmma with no wait 0 met yet,
 * bit 8 for one with a wait 0 met but no commit before it. */
static int
inflight(Func *f, Dom *d, uint32_t i, int32_t S)
{
	uint32_t nb = domnblk(d), n = 0, blk = domblk(d, i), first, end;
	uint8_t *seen = calloc(16 * (size_t)nb + 1, 1);
	uint32_t *stack = xmalloc((16 * (size_t)nb + 1) * sizeof *stack);
	int hit = 0;

	if (!seen)
		die("out of memory");
	stack[n++] = blk << 4 | 7;
	for (int top = 1; n && !hit; top = 0) {
		uint32_t e = stack[--n], b = e >> 4;
		int st = (int)(e & 15);
		domspan(d, b, &first, &end);
		for (uint32_t j = top ? i : end; st && !hit && j-- > first; ) {
			Stmt *s = &f->stmt[j];
			if (s->kind != Sins)
				continue;
			if (s->op == Otcgen05_wait_st && !s->guard)
				st &= ~1;
			else if (s->op == Otcgen05_wait_ld && !s->guard)
				st &= ~2;
			else if (waitzero(s) && (st & 4))
				st = (st & ~4) | 8;
			else if (s->op == Owgmma_commit_group && !s->guard)
				st &= ~8;
			else if ((s->op == Otcgen05_st && (st & 1))
			|| (s->op == Otcgen05_ld && (st & 2))
			|| (s->op == Owgmma_mma_async && (st & 12)))
				hit = names(s, S);
		}
		const uint32_t *pr;
		uint32_t np = st && !hit ? dompreds(d, b, &pr) : 0;
		for (uint32_t k = 0; k < np; k++) {
			uint32_t x = pr[k] << 4 | (uint32_t)st;
			if (!seen[x])
				seen[x] = 1, stack[n++] = x;
		}
	}
	free(seen);
	free(stack);
	return hit;
}

/* Whether a wgmma.mma_async naming S may follow statement i with no
 * unguarded wgmma.fence between: the PTX ISA asks for one between a
 * register's write and a wgmma that reads it, and the pin writes S.
 * A walk forward over d's blocks. */
static int
unfenced(Func *f, Dom *d, uint32_t i, int32_t S)
{
	uint32_t nb = domnblk(d), n = 0, first, end;
	uint8_t *seen = calloc(nb + 1, 1);
	uint32_t *stack = xmalloc((nb + 1) * sizeof *stack);
	int hit = 0;

	if (!seen)
		die("out of memory");
	stack[n++] = domblk(d, i);
	for (int top = 1; n && !hit; top = 0) {
		uint32_t b = stack[--n];
		int open = 1;
		domspan(d, b, &first, &end);
		for (uint32_t j = top ? i + 1 : first; open && !hit && j < end;
			j++) {
			Stmt *s = &f->stmt[j];
			if (s->kind != Sins)
				continue;
			if (s->op == Owgmma_fence && !s->guard)
				open = 0;
			else if (s->op == Owgmma_mma_async)
				hit = names(s, S);
		}
		const uint32_t *sc;
		uint32_t ns = open && !hit ? domsuccs(d, b, &sc) : 0;
		for (uint32_t k = 0; k < ns; k++)
			if (!seen[sc[k]])
				seen[sc[k]] = 1, stack[n++] = sc[k];
	}
	free(seen);
	free(stack);
	return hit;
}

static int
no(Func *f, uint32_t i, Buf *why, const char *what)
{
	if (why)
		bprintf(why, "%s: line %u: a shuffle of a value to itself "
			"not proven: %s\n", f->name, f->stmt[i].pos.line, what);
	return -1;
}

static int
anyof(const Opnd *o, const uint8_t *set)
{
	if (o->kind == Preg && o->reg >= 0 && set[o->reg])
		return 1;
	for (uint32_t k = 0; k < o->nsub; k++)
		if (anyof(&o->sub[k], set))
			return 1;
	return 0;
}

/* mov.b64 {W0, W1}, R (join: mov.b64 R, {W0, W1}): W0, W1 and R in
 * w, or 0. */
static int
halves(Func *f, const Stmt *s, int join, int32_t w[3])
{
	static const char *const m[] = {".b64"};
	const Opnd *v, *r;

	if (s->kind != Sins || s->op != Omov || s->guard || s->nop != 2
	|| !modsare(s, m, 1))
		return 0;
	v = &s->opd[join ? 1 : 0], r = &s->opd[join ? 0 : 1];
	if (v->kind != Pvec || v->nsub != 2 || hascomp(v) || v->neg
	|| !plainreg(&v->sub[0]) || !plainreg(&v->sub[1])
	|| !plainreg(r) || scalarbits(&f->reg[r->reg]) != 64)
		return 0;
	w[0] = v->sub[0].reg, w[1] = v->sub[1].reg, w[2] = r->reg;
	return w[0] != w[1];
}

/* Whether s, statement i, may stand between a split of R and its
 * join: in the same block (no label a branch names, scope edge or
 * control transfer; a label nothing names is no edge, and the
 * schedulers move such debug markers: linemut seed 124), not writing R
 * (a schedule may put other work there; the halves are named by the
 * split, the join and their pins alone, which splits() asks too). */
static int
between(Stmt *s, const uint8_t *tgt, uint32_t i, int32_t R, Rv *d, Rv *u)
{
	if ((s->kind == Slabel && tgt[i]) || s->kind == Sopen
	|| s->kind == Sclose)
		return 0;
	if (s->kind != Sins)
		return 1;
	if (opklass(s) == Kctl || s->op == Ounknown || s->op == Ocall)
		return 0;
	d->n = u->n = 0;
	defuse(s, d, u);
	for (uint32_t k = 0; k < d->n; k++)
		if (d->v[k] == R)
			return 0;
	return 1;
}

/* A 64-bit value pinned in halves: mov.b64 {W0, W1}, R, the pins of
 * W0 and W1 (and the lane and mask they read), mov.b64 R, {W0, W1},
 * in one block with no write of R between, and W0, W1 named nowhere
 * else.  Then R is joined from what it was split into, which the pins
 * left as it was: both movs go with the pins.  role: 3 for a pin's
 * shuffled register.  0, or -1 with why said. */
static int
splits(Func *b, const uint8_t *role, const uint8_t *tgt, uint8_t *drop,
	Buf *why)
{
	int32_t w[3], x[3];
	uint8_t *ok = calloc(b->nstmt + 1, 1);
	Rv d = {0}, u = {0};

	if (!ok)
		die("out of memory");
	for (uint32_t i = 0; i < b->nstmt; i++) {
		if (!halves(b, &b->stmt[i], 0, w) || role[w[0]] != 3
		|| role[w[1]] != 3)
			continue;
		uint32_t j = i + 1;     /* to the join of these halves: a
		                         * schedule may put other packs, and
		                         * another pin's split and join, first */
		while (j < b->nstmt && !(halves(b, &b->stmt[j], 1, x)
		&& x[0] == w[0] && x[1] == w[1])
		&& between(&b->stmt[j], tgt, j, w[2], &d, &u))
			j++;
		if (j == b->nstmt || !halves(b, &b->stmt[j], 1, x)
		|| x[0] != w[0] || x[1] != w[1] || x[2] != w[2]) {
			free(ok);
			free(d.v);
			free(u.v);
			return no(b, i, why, "a 64-bit value's halves not "
				"joined again after their shuffles in their "
				"block");
		}
		ok[i] = ok[j] = 1;
	}
	/* W0, W1: read and written by those movs and their pins alone */
	uint8_t *half = calloc(b->nreg + 1, 1);
	if (!half)
		die("out of memory");
	for (uint32_t i = 0; i < b->nstmt; i++)
		if (ok[i] && halves(b, &b->stmt[i], 0, w))
			half[w[0]] = half[w[1]] = 1;
	for (uint32_t i = 0; i < b->nstmt; i++) {
		Stmt *s = &b->stmt[i];
		int32_t r[3];
		if (s->kind != Sins || ok[i] || (pinshape(s, r) && drop[i]))
			continue;
		for (uint32_t k = 0; k < s->nop; k++)
			if (anyof(&s->opd[k], half) || (s->guard
			&& anyof(s->guard, half))) {
				free(ok);
				free(half);
				free(d.v);
				free(u.v);
				return no(b, i, why, "a half of a pinned 64-bit "
					"value used here");
			}
	}
	free(half);
	for (uint32_t i = 0; i < b->nstmt; i++)
		drop[i] |= ok[i];
	free(ok);
	free(d.v);
	free(u.v);
	return 0;
}

/* Marks b's pins and their L, M writes in drop; the number of pins,
 * or -1 when one is not proven (why says which and why). */
static int
findpins(Func *b, uint8_t *drop, Buf *why)
{
	uint8_t *role = calloc(b->nreg + 1, 1);     /* 1 L, 2 M, 3 S */
	Str lane = interns("%laneid"), eq = interns("%lanemask_eq");
	Rv d = {0}, u = {0};
	int n = 0, depth = 0, rc = 0;
	int32_t r[3];

	if (!role)
		die("out of memory");
	for (uint32_t i = 0; i < b->nstmt; i++) {
		Stmt *s = &b->stmt[i];
		depth += (s->kind == Sopen) - (s->kind == Sclose);
		if (!pinshape(s, r))
			continue;
		if (depth)
			return free(role), no(b, i, why, "inside a scope");
		/* .b32 moves 32 bits: of a .b64 register ptxas says
		 * "Arguments mismatch", and no value is kept */
		for (int k = 0; k < 3; k++)
			if (scalarbits(&b->reg[r[k]]) != 32)
				return free(role), no(b, i, why, "a register "
					"that is not 32 bits wide");
		if ((role[r[0]] && role[r[0]] != 3)
		|| (role[r[1]] && role[r[1]] != 1)
		|| (role[r[2]] && role[r[2]] != 2))
			return free(role), no(b, i, why, "its registers in "
				"other roles in another one");
		role[r[0]] = 3, role[r[1]] = 1, role[r[2]] = 2;
		drop[i] = 1;
		n++;
	}
	for (uint32_t i = 0; n && i < b->nstmt && !rc; i++) {
		Stmt *s = &b->stmt[i];
		if (s->kind != Sins || drop[i])
			continue;
		d.n = u.n = 0;
		defuse(s, &d, &u);
		for (uint32_t k = 0; k < u.n && !rc; k++)
			if (role[u.v[k]] == 1 || role[u.v[k]] == 2)
				rc = no(b, i, why, "its lane or mask register "
					"read here");
		for (uint32_t k = 0; k < d.n && !rc; k++) {
			int x = role[d.v[k]];
			if (x != 1 && x != 2)
				continue;
			if (!specialmov(s, d.v[k], x == 1 ? lane : eq))
				rc = no(b, i, why, x == 1 ? "its lane register "
					"written here, not from %laneid" : "its mask "
					"register written here, not from %lanemask_eq");
			drop[i] = 1;
		}
	}
	Dom *dom = n && !rc ? domnew(b) : 0;
	for (uint32_t i = 0; dom && i < b->nstmt && !rc; i++)
		if (pinshape(&b->stmt[i], r) && drop[i]
		&& inflight(b, dom, i, r[0]))
			rc = no(b, i, why, "the register it shuffles may be in "
				"flight (a tcgen05.ld or tcgen05.st not waited for, "
				"or a wgmma not committed and waited for with "
				"wait_group 0)");
		else if (pinshape(&b->stmt[i], r) && drop[i]
		&& unfenced(b, dom, i, r[0]))
			rc = no(b, i, why, "a wgmma may read the register it "
				"shuffles with no wgmma.fence after it");
	domfree(dom);
	uint8_t *tgt = n && !rc ? vbranchtargets(b) : 0;
	for (uint32_t i = 0; tgt && i < b->nstmt && !rc; i++)
		if (pinshape(&b->stmt[i], r) && drop[i]
		&& (!setbefore(b, tgt, i, r[1], &d, &u)
		|| !setbefore(b, tgt, i, r[2], &d, &u)))
			rc = no(b, i, why, "its lane or mask not set before it "
				"in its block");
	if (n && !rc)
		rc = splits(b, role, tgt, drop, why);
	free(tgt);
	free(role);
	free(d.v);
	free(u.v);
	return rc ? -1 : n;
}

Func *
unpin(Module *mb, Func *fb, Buf *why)
{
	uint8_t *drop = calloc(fb->nstmt + 1, 1);
	Func *nb;
	uint32_t n = 0;
	int np;

	if (!drop)
		die("out of memory");
	np = findpins(fb, drop, why);
	if (np <= 0) {
		free(drop);
		return np < 0 ? 0 : fb;
	}
	nb = alloc(mb->a, sizeof *nb);
	*nb = *fb;
	nb->stmt = alloc(mb->a, (fb->nstmt + 1) * sizeof *nb->stmt);
	for (uint32_t i = 0; i < fb->nstmt; i++)
		if (!drop[i])
			nb->stmt[n++] = stmtcopy(mb->a, &fb->stmt[i]);
	nb->nstmt = n;
	nb->ana = 0;
	rebind(mb, nb);
	free(drop);
	return nb;
}
