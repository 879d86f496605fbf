/* roles.c: warp roles of warp-specialized kernels, and the setmaxnreg
 * lint.
 *
 * needs: fillcfg, filllive, fillpressure; breaks: nothing.
 * A role predicate compares a warp-uniform index (tid >> 5, a warpgroup
 * index, %warpid, or tid against a multiple of 32) with something; a
 * branch on one splits the warps.  Which role facts hold at a block is
 * a forward must-dataflow (the facts of every path in), so the code
 * after the roles meet again belongs to none.  A role is the set of
 * blocks with the same facts; it counts as one when it holds a loop or
 * 64 instructions, which leaves out the usual "warp 0 initialises the
 * barriers" prologue.
 *
 * The lint (CUTLASS Blackwell FMHA on sm_110a, setmaxnreg compiled out):
 * roles under a launch budget of 128 registers or less and no
 * setmaxnreg give every role the same small budget; setmaxnreg without
 * a register count ptxas knows at entry is dropped (C7508). */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Tnone, Ttid, Twarp, Tpred };
enum { Maxfact = 64, Minwork = 64 };

typedef struct Fact { char what[96]; } Fact;

typedef struct Taint {
	uint8_t *kind;          /* per register */
	uint8_t *shift;         /* Twarp: log2 of the threads per index */
	int16_t *cond;          /* Tpred: fact id, or -1 - id if negated */
	Fact fact[Maxfact];
	uint32_t nfact;
} Taint;

static long
imm(const Opnd *o, int *ok)
{
	int64_t v = 0;

	*ok = o->kind == Pint && !o->nsub && ptxint(o->s, &v);
	return o->minus ? -(long)v : (long)v;
}

static int
log2of(long v)
{
	int k = 0;

	if (v <= 0 || (v & (v - 1)))
		return -1;
	while (v > 1)
		v >>= 1, k++;
	return k;
}

/* The strongest taint among s's source operands, and its shift. */
static int
srctaint(Taint *T, const Stmt *s, int *shift)
{
	int t = Tnone;

	*shift = 0;
	for (uint32_t k = 1; k < s->nop; k++) {
		const Opnd *o = &s->opd[k];
		int v = Tnone;
		if (o->kind == Preg && o->reg >= 0)
			v = T->kind[o->reg];
		else if (o->kind == Preg && !strncmp(o->s, "%tid", 4))
			v = Ttid;
		else if (o->kind == Preg && !strcmp(o->s, "%warpid"))
			v = Twarp, *shift = 5;
		if (v == Twarp && o->reg >= 0)
			*shift = T->shift[o->reg];
		if (v > t && v != Tpred)
			t = v;
		if (v == Tpred && t == Tnone)
			t = Tpred;
	}
	return t;
}

static const char *
cmpname(const Stmt *s, int neg)
{
	static const struct { const char *m, *pos, *neg; } c[] = {
		{".eq", "==", "!="}, {".ne", "!=", "=="}, {".lt", "<", ">="},
		{".lo", "<", ">="}, {".le", "<=", ">"}, {".ls", "<=", ">"},
		{".gt", ">", "<="}, {".hi", ">", "<="}, {".ge", ">=", "<"},
		{".hs", ">=", "<"},
	};
	for (size_t i = 0; i < countof(c); i++)
		if (hasmod(s, c[i].m))
			return neg ? c[i].neg : c[i].pos;
	return neg ? "!~" : "~";
}

static const char *
idxname(int shift)
{
	return shift == 5 ? "warp" : shift == 7 ? "warpgroup" : 0;
}

/* setp on a warp index: a new fact, "warp == 14". */
static int
newfact(Taint *T, const Stmt *s, int shift, int tidcmp)
{
	char rhs[32] = "?";
	const char *n = tidcmp ? "tid" : idxname(shift);
	char buf[24];

	if (T->nfact >= Maxfact)
		return -1;
	for (uint32_t k = 1; k < s->nop; k++)
		if (s->opd[k].kind == Pint)
			snprintf(rhs, sizeof rhs, "%s%s",
				s->opd[k].minus ? "-" : "", s->opd[k].s);
	if (!n) {
		snprintf(buf, sizeof buf, "tid>>%d", shift);
		n = buf;
	}
	snprintf(T->fact[T->nfact].what, sizeof T->fact[0].what, "%s %s %s",
		n, cmpname(s, 0), rhs);
	return (int)T->nfact++;
}

static void
setdst(Taint *T, const Stmt *s, int kind, int shift, int cond)
{
	const Opnd *o = &s->opd[0];

	if (o->kind == Ppair && o->nsub)
		o = &o->sub[0];
	if (o->kind != Preg || o->reg < 0)
		return;
	T->kind[o->reg] = (uint8_t)kind;
	T->shift[o->reg] = (uint8_t)shift;
	T->cond[o->reg] = (int16_t)cond;
}

static void
taintins(Taint *T, const Stmt *s)
{
	int shift, ok, t;
	long v = 0;

	if (s->kind != Sins || !s->nop || opdefs(s) != D0)
		return;
	t = srctaint(T, s, &shift);
	for (uint32_t k = 1; k < s->nop && !v; k++)
		v = imm(&s->opd[k], &ok);
	if (s->op == Osetp) {
		int tidcmp = t == Ttid && v >= 32 && v % 32 == 0;
		if (t == Twarp || tidcmp) {
			const Opnd *o = &s->opd[0];
			int id = o->kind == Preg && o->reg >= 0
				&& T->kind[o->reg] == Tpred ? T->cond[o->reg]
				: newfact(T, s, shift, tidcmp);
			if (id >= 0)
				setdst(T, s, Tpred, 0, id);
		}
		return;
	}
	if (s->op == Onot && t == Tpred && s->nop > 1
	&& s->opd[1].kind == Preg && s->opd[1].reg >= 0) {
		setdst(T, s, Tpred, 0, -1 - T->cond[s->opd[1].reg]);
		return;
	}
	if (t == Ttid && (s->op == Oshr || s->op == Obfe) && v >= 5)
		setdst(T, s, Twarp, (int)v, 0);
	else if (t == Ttid && s->op == Odiv && log2of(v) >= 5)
		setdst(T, s, Twarp, log2of(v), 0);
	else if (t == Twarp && s->op == Oshr && v > 0)
		setdst(T, s, Twarp, shift + (int)v, 0);
	else if (t == Twarp && s->op == Odiv && log2of(v) > 0)
		setdst(T, s, Twarp, shift + log2of(v), 0);
	else if (t == Twarp || t == Ttid)
		setdst(T, s, t, shift, 0);
}

static void
taint(Func *f, Taint *T)
{
	T->kind = calloc(f->nreg + 1, 1);
	T->shift = calloc(f->nreg + 1, 1);
	T->cond = calloc(f->nreg + 1, sizeof *T->cond);
	if (!T->kind || !T->shift || !T->cond)
		die("out of memory");
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < f->nstmt; i++)
			taintins(T, &f->stmt[i]);
}

/* The fact an edge from b to succ adds: bit 2k for fact k, 2k+1 for
 * its negation; 0 for none. */
static uint64_t
edgefact(Func *f, Taint *T, uint32_t b, uint32_t succ)
{
	Ana *A = f->ana;
	Blk *B = &A->blk[b];
	const Stmt *s = 0;
	int c, taken;

	for (uint32_t i = B->end; i > B->first && !s; i--)
		if (f->stmt[i - 1].kind == Sins)
			s = &f->stmt[i - 1];
	if (!s || s->op != Obra || !s->guard || s->guard->reg < 0
	|| T->kind[s->guard->reg] != Tpred || B->nsucc != 2)
		return 0;
	c = T->cond[s->guard->reg];
	/* the fallthrough is b + 1; a target equal to it gives one
	 * edge, so with two edges the other one is the branch */
	taken = succ != b + 1;
	if (s->gneg)
		taken = !taken;
	if (c < 0)
		c = -1 - c, taken = !taken;
	if (c >= 32)
		return 0;
	return (uint64_t)1 << (2 * c + !taken);
}

static uint64_t *
facts(Func *f, Taint *T)
{
	Ana *A = f->ana;
	uint64_t *in = malloc((A->nblk + 1) * sizeof *in);
	int ch = 1;

	if (!in)
		die("out of memory");
	for (uint32_t b = 0; b < A->nblk; b++)
		in[b] = ~(uint64_t)0;
	in[0] = 0;
	while (ch) {
		ch = 0;
		for (uint32_t b = 0; b < A->nblk; b++) {
			Blk *B = &A->blk[b];
			if (in[b] == ~(uint64_t)0)
				continue;
			for (uint32_t s = 0; s < B->nsucc; s++) {
				uint32_t t = B->succ[s];
				uint64_t v = in[b] | edgefact(f, T, b, t);
				if ((in[t] & v) != in[t]) {
					in[t] &= v;
					ch = 1;
				}
			}
		}
	}
	return in;
}

static void
name(Taint *T, uint64_t m, char *out, size_t n)
{
	size_t k = 0;

	out[0] = 0;
	for (uint32_t i = 0; i < 64 && k + 1 < n; i++) {
		if (!(m >> i & 1))
			continue;
		const char *w = T->fact[i / 2].what;
		char buf[112];
		if (i & 1) {
			/* negate by spelling: "warp == 14" -> "warp != 14" */
			const char *sp = strchr(w, ' ');
			const char *sp2 = sp ? strchr(sp + 1, ' ') : 0;
			static const char *const p[][2] = {
				{"==", "!="}, {"!=", "=="}, {"<", ">="},
				{">=", "<"}, {">", "<="}, {"<=", ">"},
			};
			const char *neg = "!";
			for (size_t j = 0; sp && sp2 && j < countof(p); j++)
				if ((size_t)(sp2 - sp - 1) == strlen(p[j][0])
				&& !strncmp(sp + 1, p[j][0], sp2 - sp - 1))
					neg = p[j][1];
			snprintf(buf, sizeof buf, "%.*s %s%s",
				sp ? (int)(sp - w) : 0, w, neg, sp2 ? sp2 : "");
			w = buf;
		}
		k += (size_t)snprintf(out + k, n - k, "%s%s", k ? ", " : "", w);
	}
	if (k >= n)
		out[n - 1] = 0;
}

static int
notable(const Stmt *s)
{
	switch (s->op) {
	case Omma: case Owmma_mma: case Owgmma_mma_async: case Otcgen05_mma:
	case Ocp_async_bulk_tensor: case Ocp_async: case Otcgen05_ld:
	case Oex2: case Oldmatrix:
		return 1;
	}
	return 0;
}

static void
addop(char *ops, size_t n, Str name)
{
	size_t k = strlen(ops);
	const char *p = ops;

	while ((p = strstr(p, name))) {
		size_t l = strlen(name);
		if ((p == ops || p[-1] == ' ') && (!p[l] || p[l] == ','))
			return;
		p += l;
	}
	if (k + strlen(name) + 3 < n)
		snprintf(ops + k, n - k, "%s%s", k ? ", " : "", name);
}

static void
fillrole(Func *f, Role *r, uint32_t b)
{
	Ana *A = f->ana;
	Blk *B = &A->blk[b];

	for (uint32_t i = B->first; i < B->end; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind != Sins)
			continue;
		r->nins++;
		if (A->press[i] > r->peak) {
			r->peak = A->press[i];
			r->cap = A->cap[i];
		}
		if (!r->cap)
			r->cap = A->cap[i];
		if (notable(s))
			addop(r->ops, sizeof r->ops, s->name);
	}
	for (uint32_t k = 0; k < B->nsucc; k++)
		if (B->succ[k] <= b && A->blk[B->succ[k]].role == B->role)
			r->loop = 1;
}

uint32_t
fillroles(Func *f, Module *m, Role *out, uint32_t max)
{
	Ana *A = f->ana;
	Taint T = {0};
	uint64_t *in, masks[256];
	uint32_t nm = 0, n = 0;

	UNUSED(m);
	taint(f, &T);
	in = facts(f, &T);
	for (uint32_t b = 0; b < A->nblk; b++) {
		uint32_t k;
		A->blk[b].role = -1;
		if (!in[b] || in[b] == ~(uint64_t)0)
			continue;
		for (k = 0; k < nm && masks[k] != in[b]; k++)
			;
		if (k == nm && nm < countof(masks))
			masks[nm++] = in[b];
		A->blk[b].role = k < nm ? (int)k : -1;
	}
	Role *all = calloc(nm + 1, sizeof *all);
	if (!all)
		die("out of memory");
	for (uint32_t b = 0; b < A->nblk; b++) {
		int k = A->blk[b].role;
		if (k < 0)
			continue;
		if (!all[k].nins && !all[k].first)
			all[k].first = A->blk[b].first;
		fillrole(f, &all[k], b);
	}
	for (uint32_t k = 0; k < nm; k++) {
		if (!all[k].loop && all[k].nins < Minwork)
			continue;
		name(&T, masks[k], all[k].what, sizeof all[k].what);
		if (n < max)
			out[n] = all[k];
		n++;
	}
	free(all);
	free(in);
	free(T.kind);
	free(T.shift);
	free(T.cond);
	return n < max ? n : max;
}

static void
rolelist(Role *r, uint32_t n, char *out, size_t cap)
{
	size_t k = 0;

	out[0] = 0;
	for (uint32_t i = 0; i < n && k + 1 < cap; i++)
		k += (size_t)snprintf(out + k, cap - k, "%s[%s] cap %d%s%s%s",
			i ? "; " : "", r[i].what, r[i].cap,
			r[i].ops[0] ? " (" : "", r[i].ops,
			r[i].ops[0] ? ")" : "");
	if (k >= cap)
		out[cap - 1] = 0;
}

uint32_t
lintfunc(Func *f, Module *m, Finding *out, uint32_t max)
{
	Ana *A = f->ana;
	Role r[16];
	uint32_t nr, n = 0, first = 0;
	char list[320];

	if (!f->entry || !f->body || !max)
		return 0;
	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && f->stmt[i].op == Osetmaxnreg) {
			first = i;
			break;
		}
	nr = fillroles(f, m, r, countof(r));
	rolelist(r, nr, list, sizeof list);
	if (A->nsetmax && !A->capknown) {
		out[n].kind = "setmaxnreg-ignored";
		out[n].at = first;
		snprintf(out[n].msg, sizeof out[n].msg, "%d setmaxnreg "
			"ignored by ptxas (C7508): no .maxntid, .reqntid or "
			".maxnreg, so the register count at entry is unknown; "
			"every warp runs under one flat allocation%s%s",
			A->nsetmax, nr >= 2 ? "; roles: " : "",
			nr >= 2 ? list : "");
		n++;
	}
	if (n < max && nr >= 2 && !A->nsetmax && A->launch <= 128) {
		out[n].kind = "setmaxnreg-missing";
		out[n].at = r[0].first;
		snprintf(out[n].msg, sizeof out[n].msg, "warps split into %u "
			"roles at a launch budget of %d registers and no "
			"setmaxnreg: each role runs under %d; roles: %s", nr,
			A->launch, A->launch, list);
		n++;
	}
	return n;
}

/* Does the target take setmaxnreg?  ptxas 13.0 takes it on sm_90a and
 * on the a and f targets from sm_100 on (sm_100a, sm_100f, sm_103a,
 * sm_120a, sm_121a), on no other (sm_80, sm_90, sm_100, sm_120). */
static int
budgettarget(Str t)
{
	char x;

	return smtarget(t, &x) >= 90 && (x == 'a' || x == 'f');
}

/* Can either finding be made at all?  One needs a setmaxnreg, the
 * other a launch budget of 128 or less (launchcap reads only the
 * performance directives) on a target where a setmaxnreg could be
 * added: without both, the analysis is not run.  (On ocelot's sm_20
 * histogram it ran on every kernel of .maxntid 512 and was half of what
 * `check` took.) */
static int
maylint(Func *f, Str target)
{
	int known;

	for (uint32_t i = 0; i < f->nstmt; i++)
		if (f->stmt[i].kind == Sins && f->stmt[i].op == Osetmaxnreg)
			return 1;
	return budgettarget(target) && launchcap(f, &known) <= 128;
}

int
lint(Module *m, Diag *d)
{
	int nf = 0;
	Finding fd[4];

	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].fn;
		if (m->item[i].kind != Ifunc || !f->body || !f->entry
		|| !maylint(f, m->target))
			continue;
		fillcfg(f, m);
		filllive(f);
		fillpressure(f);
		uint32_t n = lintfunc(f, m, fd, countof(fd));
		for (uint32_t k = 0; k < n; k++) {
			Stmt *s = f->nstmt ? &f->stmt[fd[k].at] : 0;
			Pos p = s ? s->pos : f->pos;
			diag(d, "warning", p, s ? s->text.off : 0,
				s ? s->text.len : 0, "%s: %s [%s]", f->name,
				fd[k].msg, fd[k].kind);
		}
		nf += (int)n;
		freeana(f);
	}
	return nf;
}
