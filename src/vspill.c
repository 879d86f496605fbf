/* vspill.c: proves, apart from the rest and sharing nothing with
 * passes/xspill.c, that B's round trips through a local array it
 * declares change nothing, and takes them out; then undoes the group
 * splits that came with them, so that what is left is A's statements
 * permuted, for the usual proof.
 *
 * An array is B's when A declares no such name; B's statements may name
 * it only as the address [name] or [name+N] of an unguarded
 * st.local or ld.local of 32-bit elements (.b32, .f32, .u32, .s32,
 * scalar, .v2 or .v4), aligned and inside it.  A forward must-analysis
 * over B's blocks gives, before each statement, for every 4-byte word
 * of the array the register whose value it surely holds (stored from
 * it, no write of the register since on any path) and the registers a
 * wgmma may still be writing (named by one issued on some path with no
 * wgmma.wait_group 0 since).  A load is proven when every word it reads
 * holds its own destination register and none of them is in flight:
 * it writes what the register already holds.  A store is proven when
 * the registers it reads are not in flight.  Then the loads change
 * nothing, the stores feed only them, and B less both (and the
 * declaration) computes what B does.
 *
 * The splits: in what is left, a run
 *     fence F1; X (wgmma.mma_async and plain arithmetic); commit;
 *     wait_group 0; S (plain arithmetic); fence F2; wgmma W ...
 * is B', a run of A's kind, with more order: S moved up before F1
 * (it shares no register with X, and has no memory effect), the commit
 * and wait 0 and F2 gone.  Waiting for every group and fencing more
 * only orders more; S before F1 is fenced from X's and W's wgmmas as
 * it was in A.  B' with them undone, last first, is what the rest of
 * the proof compares with A.  Applied only to a B with such an array:
 * no other rewrite adds one. */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "valid.h"

enum { Top = -2 };      /* a word no path has reached yet */

typedef struct Arr { Str name; uint32_t bytes, stmt; } Arr;

typedef struct Sp {
	Func *f;
	Arr a;
	uint8_t *kind;          /* per statement: 1 store, 2 load */
	uint32_t *word;         /* per statement: its first word */
	uint32_t nw, nword;     /* words of the array; of a register set */
	Dom *dom;
	int32_t *in;            /* per block: nw words */
	uint64_t *fly;          /* per block: nword words */
	uint8_t *seen;          /* per block: reached */
	Buf *why;
} Sp;

static int
no(Sp *p, uint32_t i, const char *what)
{
	if (p->why)
		bprintf(p->why, "%s: line %u: a round trip through local "
			"array %s not proven: %s\n", p->f->name,
			p->f->stmt[i].pos.line, p->a.name, what);
	return -1;
}

/* Whether o names the array anywhere. */
static int
names(const Opnd *o, Str n)
{
	if (o->s == n)
		return 1;
	for (uint32_t k = 0; k < o->nsub; k++)
		if (names(&o->sub[k], n))
			return 1;
	return 0;
}

/* B's .local array A does not declare, or 0. */
static int
findarray(Func *fa, Func *fb, Arr *a)
{
	for (uint32_t i = 0; i < fb->nstmt; i++) {
		Stmt *s = &fb->stmt[i];
		if (s->kind != Sdecl || !s->decl->nattr
		|| strcmp(s->decl->attr[0], ".local") || s->decl->nname != 1
		|| s->decl->name->ndim != 1 || s->decl->name->count >= 0
		|| strcmp(s->decl->attr[s->decl->nattr - 1], ".b8"))
			continue;
		Str n = s->decl->name->name;
		int ina = 0;
		for (uint32_t j = 0; j < fa->nstmt && !ina; j++)
			ina = fa->stmt[j].kind == Sdecl
				&& fa->stmt[j].decl->nname
				&& fa->stmt[j].decl->name->name == n;
		if (ina)
			continue;
		int64_t b;
		if (!ptxint(s->decl->name->dim[0], &b) || b <= 0 || b % 4
		|| b > 1 << 24)
			continue;
		*a = (Arr){n, (uint32_t)b, i};
		return 1;
	}
	return 0;
}

static int
plain32(Func *f, const Opnd *o)
{
	return o->kind == Preg && o->reg >= 0 && !o->nsub && !hascomp(o)
		&& !o->neg && f->reg[o->reg].units == 1 && !f->reg[o->reg].pred;
}

/* The access statement i makes: kind[i], word[i]; or -1. */
static int
shape(Sp *p, uint32_t i)
{
	Stmt *s = &p->f->stmt[i];
	int ld = s->op == Old;
	uint32_t n = 1;

	if (s->kind != Sins || (s->op != Old && s->op != Ost) || s->guard
	|| s->nop != 2 || s->nmod < 2 || s->nmod > 3
	|| strcmp(s->mod[0], ".local"))
		return no(p, i, "not an unguarded st.local or ld.local");
	if (s->nmod == 3)
		n = !strcmp(s->mod[1], ".v4") ? 4 : !strcmp(s->mod[1], ".v2")
			? 2 : 0;
	const char *t = s->mod[s->nmod - 1];
	if (!n || (strcmp(t, ".b32") && strcmp(t, ".f32") && strcmp(t, ".u32")
	&& strcmp(t, ".s32")))
		return no(p, i, "not of 32-bit elements");
	const Opnd *ad = &s->opd[ld ? 1 : 0], *v = &s->opd[ld ? 0 : 1];
	if (ad->kind != Paddr || ad->nsub != 1 || ad->sub[0].s != p->a.name
	|| ad->sub[0].nsub || ad->sub[0].reg >= 0)
		return no(p, i, "an address other than [array+N]");
	long off = 0;
	Str os = opoff(&ad->sub[0]);
	if (os) {
		int64_t x;
		if (strncmp(os, "+", 1) || os[1] == '-')
			return no(p, i, "a negative offset");
		if (!ptxoff(os, &x) || x > 1 << 24)
			return no(p, i, "an offset not a number");
		off = (long)x;
	}
	if (off % (4 * (long)n) || off + 4 * (long)n > (long)p->a.bytes)
		return no(p, i, "unaligned or outside the array");
	if (n == 1 ? !plain32(p->f, v) : v->kind != Pvec || v->nsub != n)
		return no(p, i, "not 32-bit registers");
	for (uint32_t k = 0; n > 1 && k < n; k++)
		if (!plain32(p->f, &v->sub[k]))
			return no(p, i, "not 32-bit registers");
	p->kind[i] = (uint8_t)(ld ? 2 : 1);
	p->word[i] = (uint32_t)off / 4;
	return 0;
}

static int32_t
elem(const Stmt *s, uint32_t k)
{
	const Opnd *v = &s->opd[s->op == Old ? 0 : 1];

	return v->kind == Pvec ? v->sub[k].reg : v->reg;
}

static uint32_t
width(const Stmt *s)
{
	const Opnd *v = &s->opd[s->op == Old ? 0 : 1];

	return v->kind == Pvec ? v->nsub : 1;
}

#define FLY(p, fl, r) ((fl)[(uint32_t)(r) / 64] >> ((uint32_t)(r) % 64) & 1)

/* Runs statement i over state (w, fl); with check, proves it too. */
static int
step(Sp *p, uint32_t i, int32_t *w, uint64_t *fl, int check)
{
	Stmt *s = &p->f->stmt[i];
	Acc a = {0};

	if (s->kind != Sins)
		return 0;
	if (p->kind[i]) {
		for (uint32_t k = 0; k < width(s); k++) {
			int32_t r = elem(s, k);
			if (check && FLY(p, fl, r))
				return no(p, i, "a wgmma may still be writing "
					"its register");
			if (check && p->kind[i] == 2 && w[p->word[i] + k] != r)
				return no(p, i, "the word may not hold what its "
					"register held when stored");
			if (p->kind[i] == 1)
				w[p->word[i] + k] = r;
		}
		return 0;
	}
	if (s->op == Owgmma_wait_group) {
		if (!s->guard && s->nop == 1 && s->opd[0].kind == Pint
		&& !strcmp(s->opd[0].s, "0"))
			memset(fl, 0, p->nword * sizeof *fl);
		return 0;
	}
	vaccess(s, &a);
	for (uint32_t d = 0; d < a.ndef; d++)
		for (uint32_t k = 0; k < p->nw; k++)
			if (w[k] == a.def[d])
				w[k] = -1;
	if (s->op == Owgmma_mma_async) {
		Iv v = {0};
		for (uint32_t k = 0; k < s->nop; k++)
			if (s->opd[k].kind == Pvec)
				vcollect(&s->opd[k], &v);
		for (uint32_t k = 0; k < v.n; k++)
			fl[(uint32_t)v.v[k] / 64] |= 1ull << ((uint32_t)v.v[k] % 64);
		free(v.v);
	}
	accfree(&a);
	return 0;
}

/* Meets state (w, fl) into block b's entry; 1 when it changed. */
static int
meet(Sp *p, uint32_t b, const int32_t *w, const uint64_t *fl)
{
	int32_t *in = p->in + (size_t)b * p->nw;
	uint64_t *f = p->fly + (size_t)b * p->nword;
	int ch = !p->seen[b];

	p->seen[b] = 1;
	for (uint32_t k = 0; k < p->nw; k++) {
		int32_t x = in[k] == Top ? w[k] : in[k] == w[k] ? in[k] : -1;
		ch |= x != in[k];
		in[k] = x;
	}
	for (uint32_t k = 0; k < p->nword; k++) {
		ch |= (f[k] | fl[k]) != f[k];
		f[k] |= fl[k];
	}
	return ch;
}

/* The fixed point, then every access checked against it. */
static int
prove(Sp *p)
{
	uint32_t nb = domnblk(p->dom), *work = xmalloc((nb + 1) * sizeof *work);
	uint8_t *inq = calloc(nb + 1, 1);
	int32_t *w = xmalloc((p->nw + 1) * sizeof *w);
	uint64_t *fl = xmalloc((p->nword + 1) * sizeof *fl);
	uint32_t nq = 0, first, end;
	int rc = 0;

	for (size_t k = 0; k < (size_t)nb * p->nw; k++)
		p->in[k] = Top;
	for (uint32_t k = 0; k < p->nw; k++)
		w[k] = -1;
	memset(fl, 0, p->nword * sizeof *fl);
	uint32_t entry = domblk(p->dom, 0);
	meet(p, entry, w, fl);
	work[nq++] = entry, inq[entry] = 1;
	while (nq) {
		uint32_t b = work[--nq];
		const uint32_t *succ;
		inq[b] = 0;
		memcpy(w, p->in + (size_t)b * p->nw, p->nw * sizeof *w);
		memcpy(fl, p->fly + (size_t)b * p->nword, p->nword * sizeof *fl);
		domspan(p->dom, b, &first, &end);
		for (uint32_t i = first; i < end; i++)
			step(p, i, w, fl, 0);
		uint32_t ns = domsuccs(p->dom, b, &succ);
		for (uint32_t k = 0; k < ns; k++)
			if (meet(p, succ[k], w, fl) && !inq[succ[k]])
				work[nq++] = succ[k], inq[succ[k]] = 1;
	}
	for (uint32_t b = 0; b < nb && !rc; b++) {
		if (!p->seen[b])
			continue;
		memcpy(w, p->in + (size_t)b * p->nw, p->nw * sizeof *w);
		memcpy(fl, p->fly + (size_t)b * p->nword, p->nword * sizeof *fl);
		domspan(p->dom, b, &first, &end);
		for (uint32_t i = first; i < end && !rc; i++)
			rc = step(p, i, w, fl, 1);
	}
	free(work);
	free(inq);
	free(w);
	free(fl);
	return rc;
}

/* ---- the splits ---- */

/* Arithmetic or a plain load, which a split may hold and which may
 * cross a wgmma (its shared-memory reads order against no read) and a
 * wgmma.fence (which orders register accesses): remat after xspill puts
 * kernel parameters' loads next to the rescale. */
static int
plainstmt(Stmt *s)
{
	return s->kind == Sins && strncmp(s->name, "wgmma.", 6)
		&& (veffect(s) == Enone || veffect(s) == Eread)
		&& opklass(s) != Kctl;
}

static int
shares(Stmt *x, Stmt *y)
{
	Acc a = {0}, b = {0};
	int hit = 0;

	vaccess(x, &a);
	vaccess(y, &b);
	for (uint32_t i = 0; i < a.ndef && !hit; i++) {
		for (uint32_t j = 0; j < b.ndef && !hit; j++)
			hit = a.def[i] == b.def[j];
		for (uint32_t j = 0; j < b.nuse && !hit; j++)
			hit = a.def[i] == b.use[j];
	}
	for (uint32_t i = 0; i < a.nuse && !hit; i++)
		for (uint32_t j = 0; j < b.ndef && !hit; j++)
			hit = a.use[i] == b.def[j];
	accfree(&a);
	accfree(&b);
	return hit;
}

/* The statement before i that is no .loc and no label a branch names
 * (Triton's debug labels stand among the wgmmas), or UINT32_MAX. */
static uint32_t
prev(Func *f, const uint8_t *tgt, uint32_t i)
{
	while (i-- > 0)
		if (f->stmt[i].kind != Sloc
		&& (f->stmt[i].kind != Slabel || tgt[i]))
			return i;
	return UINT32_MAX;
}

/* Undoes the last split of f: 1 done, 0 none left.  Between X's last
 * wgmma and F2 stand the commit, then the wait 0, and plain statements
 * anywhere among them (a scheduler after xspill may move them across
 * the commit): they all are S. */
static int
unsplit(Func *f)
{
	uint8_t *tgt = vbranchtargets(f), *tm = vtmemregs(f);
	int rc = 0;

	for (uint32_t y = f->nstmt; y-- > 0 && !rc;) {
		if (!vwarpop(&f->stmt[y], Owgmma_mma_async))
			continue;
		uint32_t f2 = prev(f, tgt, y), w = UINT32_MAX, c = UINT32_MAX, x, f1;
		/* plain statements may stand between F2 and W (remat's
		 * copies of W's descriptor math): they stay where they are */
		while (f2 != UINT32_MAX && plainstmt(&f->stmt[f2]))
			f2 = prev(f, tgt, f2);
		if (f2 == UINT32_MAX || !vwarpop(&f->stmt[f2], Owgmma_fence))
			continue;
		for (x = prev(f, tgt, f2); x != UINT32_MAX; x = prev(f, tgt, x)) {
			Stmt *s = &f->stmt[x];
			if (w == UINT32_MAX && vwarpop(s, Owgmma_wait_group)
			&& s->nop == 1 && s->opd[0].kind == Pint
			&& !strcmp(s->opd[0].s, "0"))
				w = x;
			else if (w != UINT32_MAX && c == UINT32_MAX
			&& vwarpop(s, Owgmma_commit_group))
				c = x;
			else if (!plainstmt(s))
				break;
		}
		if (c == UINT32_MAX || x == UINT32_MAX
		|| !vwarpop(&f->stmt[x], Owgmma_mma_async))
			continue;
		for (f1 = x; f1 != UINT32_MAX && (plainstmt(&f->stmt[f1])
		|| vwarpop(&f->stmt[f1], Owgmma_mma_async)); f1 = prev(f, tgt, f1))
			;
		if (f1 == UINT32_MAX || !vwarpop(&f->stmt[f1], Owgmma_fence))
			continue;
		/* X's plain statements P and S rise above F1 and X's
		 * wgmmas: none may share a register with a wgmma it passes,
		 * and P none of a wgmma's vector registers (after F1 in B,
		 * such an access would break PTX's fence rule there; S's,
		 * the rescale, stand before F1 in A too) */
		int ok = 1;
		/* what stands between F2 and W runs, once F2 and the wait
		 * are gone, while X's wgmmas may still be running: none of
		 * a wgmma's vector registers (its descriptors it read when
		 * issued) */
		for (uint32_t i = f2 + 1; i < y && ok; i++) {
			Acc a = {0};
			if (f->stmt[i].kind != Sins)
				continue;
			vaccess(&f->stmt[i], &a);
			ok = !vtmemtouch(&a, tm, 4);
			accfree(&a);
		}
		for (uint32_t i = f1 + 1; i < f2 && ok; i++) {
			Stmt *p = &f->stmt[i];
			if (p->kind != Sins || i == c || i == w
			|| p->op == Owgmma_mma_async)
				continue;
			Acc a = {0};
			vaccess(p, &a);
			ok = i > x || !vtmemtouch(&a, tm, 4);
			accfree(&a);
			for (uint32_t j = f1 + 1; j < (i < x ? i : x + 1) && ok; j++)
				if (f->stmt[j].kind == Sins
				&& f->stmt[j].op == Owgmma_mma_async)
					ok = !shares(p, &f->stmt[j]);
		}
		if (!ok)
			continue;
		/* P, then S (with the .loc lines and labels among them),
		 * then F1 and X's wgmmas; the commit, the wait and F2 go */
		Stmt *t = xmalloc((f2 - f1 + 1) * sizeof *t);
		uint32_t k = 0;
		for (uint32_t i = f1 + 1; i < f2; i++)
			if (i != c && i != w && (f->stmt[i].kind != Sins
			|| f->stmt[i].op != Owgmma_mma_async))
				t[k++] = f->stmt[i];
		t[k++] = f->stmt[f1];
		for (uint32_t i = f1 + 1; i <= x; i++)
			if (f->stmt[i].kind == Sins
			&& f->stmt[i].op == Owgmma_mma_async)
				t[k++] = f->stmt[i];
		uint32_t gone = (f2 - f1 + 1) - k;
		memcpy(&f->stmt[f1], t, k * sizeof *t);
		memmove(&f->stmt[f1 + k], &f->stmt[f2 + 1],
			(f->nstmt - f2 - 1) * sizeof *f->stmt);
		f->nstmt -= gone;
		free(t);
		rc = 1;
	}
	free(tgt);
	free(tm);
	return rc;
}

/* B less its proven round trips and splits; fb when it has no array of
 * its own; NULL (why says where) when one is not proven. */
Func *
unspill(Module *mb, Func *fa, Func *fb, Buf *why)
{
	Sp p = {fb, {0, 0, 0}, 0, 0, 0, 0, 0, 0, 0, 0, why};
	Func *nb = 0;
	int rc = 0;

	if (!findarray(fa, fb, &p.a))
		return fb;
	p.kind = calloc(fb->nstmt + 1, 1);
	p.word = calloc(fb->nstmt + 1, sizeof *p.word);
	if (!p.kind || !p.word)
		die("out of memory");
	for (uint32_t i = 0; i < fb->nstmt && !rc; i++) {
		Stmt *s = &fb->stmt[i];
		int hit = 0;
		for (uint32_t k = 0; s->kind == Sins && k < s->nop; k++)
			hit |= names(&s->opd[k], p.a.name);
		if (s->kind == Sins && s->guard)
			hit |= names(s->guard, p.a.name);
		if (hit)
			rc = shape(&p, i);
		if (s->kind == Sins && (s->op == Otcgen05_ld
		|| s->op == Otcgen05_st))
			rc = no(&p, i, "tensor-memory loads and stores, whose "
				"registers it does not follow");
		/* an instruction the table does not know may write a
		 * register when it likes, as a wgmma does */
		if (s->kind == Sins && s->op == Ounknown)
			rc = no(&p, i, "an unknown instruction");
	}
	if (!rc) {
		p.nw = p.a.bytes / 4;
		p.nword = (fb->nreg + 64) / 64;
		p.dom = domnew(fb);
		uint32_t n = domnblk(p.dom);
		p.in = xmalloc(((size_t)n * p.nw + 1) * sizeof *p.in);
		p.fly = calloc((size_t)n * p.nword + 1, sizeof *p.fly);
		p.seen = calloc(n + 1, 1);
		if (!p.fly || !p.seen)
			die("out of memory");
		rc = prove(&p);
		domfree(p.dom);
		free(p.in);
		free(p.fly);
		free(p.seen);
	}
	if (!rc) {
		uint32_t n = 0;
		nb = alloc(mb->a, sizeof *nb);
		*nb = *fb;
		nb->stmt = alloc(mb->a, (fb->nstmt + 1) * sizeof *nb->stmt);
		for (uint32_t i = 0; i < fb->nstmt; i++)
			if (!p.kind[i] && i != p.a.stmt)
				nb->stmt[n++] = stmtcopy(mb->a, &fb->stmt[i]);
		nb->nstmt = n;
		nb->ana = 0;
		while (unsplit(nb))
			;
		rebind(mb, nb);
	}
	free(p.kind);
	free(p.word);
	return nb;
}
