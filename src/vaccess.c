/* vaccess.c: what a statement does, seen afresh for the validator: its
 * memory effect and state space, the registers it writes and reads,
 * which statements are fixed, and its text, the key that pairs the
 * original's statements with the rewrite's.  It reads the opcode
 * table's classes and none of the passes' code (dag.c's dependences are
 * theirs). */
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "valid.h"

/* Modifiers are ".name": the byte after the dot tells most apart
 * without a call (the validator asks this of every statement, several
 * times). */
int
vhas(Stmt *s, const char *m)
{
	for (uint32_t i = 0; i < s->nmod; i++)
		if (s->mod[i][0] == m[0] && s->mod[i][1] == m[1]
		&& !strcmp(s->mod[i], m))
			return 1;
	return 0;
}

static int
hasprefix(Stmt *s, const char *m)
{
	for (uint32_t i = 0; i < s->nmod; i++)
		if (!strncmp(s->mod[i], m, strlen(m)))
			return 1;
	return 0;
}

static int
timer(Opnd *o)
{
	if (o->kind == Preg && o->reg < 0 && (!strncmp(o->s, "%clock", 6)
	|| !strncmp(o->s, "%globaltimer", 12) || !strncmp(o->s, "%pm", 3)))
		return 1;
	for (uint32_t i = 0; i < o->nsub; i++)
		if (timer(&o->sub[i]))
			return 1;
	return 0;
}

int
veffect(Stmt *s)
{
	if (s->op == Ounknown)
		return Efixed;
	for (uint32_t i = 0; i < s->nop; i++)
		if (timer(&s->opd[i]))
			return Efixed;
	switch (opinfo[s->op].klass) {
	case Kpure:
		return vhas(s, ".cc") ? Ecarry : Enone;
	case Kcoll:
		return Ecoll;
	case Kmma:
		return Emma;
	case Kcc:
		return Ecarry;
	case Kld:
	case Kst:
		if (vhas(s, ".volatile") || vhas(s, ".acquire")
		|| vhas(s, ".release") || vhas(s, ".relaxed") || vhas(s, ".mmio"))
			return Eall;
		return opinfo[s->op].klass == Kld ? Eread : Ewrite;
	case Krmw:
	case Kord:
		return Eall;
	case Ktmem:
		return Etmem;
	case Kfull:
	case Kctl:
		return Efixed;
	}
	return Efixed;
}

enum { Xgen = 7, Xglob = 1, Xshar = 2, Xloc = 4, Xparm = 8, Xconst = 16 };

/* The .func being proven takes the address of one of its parameters
 * (mov or cvta of its name): the parameter then lives in local memory,
 * where a generic or .local access may reach it, so its ld.param and
 * st.param count as local too.  (A kernel's parameters are read-only:
 * whoever reads them through an address, nothing writes them.)  Set by
 * body(). */
int vparamaddr;

static int
space(Stmt *s)
{
	int m = 0;

	if (vhas(s, ".global"))
		m |= Xglob;
	if (hasprefix(s, ".shared"))
		m |= Xshar;
	if (vhas(s, ".local"))
		m |= Xloc;
	if (hasprefix(s, ".param"))
		m |= Xparm;
	if (vhas(s, ".const"))
		m |= Xconst;
	if ((m & Xparm) && vparamaddr)
		m |= Xloc;
	return m ? m : Xgen;
}

static int
namesparam(const Opnd *o, const Func *f)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		if (namesparam(&o->sub[i], f))
			return 1;
	if (o->kind != Psym || !o->s)
		return 0;
	for (uint32_t pass = 0; pass < 2; pass++) {
		const Decl *d = pass ? f->ret : f->par;
		uint32_t n = pass ? f->nret : f->npar;
		for (uint32_t i = 0; i < n; i++)
			for (uint32_t j = 0; j < d[i].nname; j++)
				if (!strcmp(d[i].name[j].name, o->s))
					return 1;
	}
	return 0;
}

/* Whether f names a parameter anywhere but in the address of an
 * ld.param or st.param: its address is taken. */
int
vtakesparam(const Func *f)
{
	for (uint32_t i = 0; i < f->nstmt; i++) {
		const Stmt *s = &f->stmt[i];
		int direct = (s->op == Old || s->op == Ost)
			&& hasprefix((Stmt *)s, ".param");
		for (uint32_t k = 0; s->kind == Sins && k < s->nop; k++)
			if (!(direct && s->opd[k].kind == Paddr)
			&& namesparam(&s->opd[k], f))
				return 1;
	}
	return 0;
}

int
vmemorder(Acc *a, Acc *b)
{
	int x = a->eff, y = b->eff;

	if (x == Enone || y == Enone || (x == Emma && y == Emma))
		return 0;
	x = x == Emma ? Ecoll : x;
	y = y == Emma ? Ecoll : y;
	if (x == Ecoll || y == Ecoll)
		return (x == Ecoll || x == Eall || x == Etmem)
			&& (y == Ecoll || y == Eall || y == Etmem);
	if (x == Ecarry || y == Ecarry)
		return x == y;
	if (x == Etmem || y == Etmem)
		return x == y || x == Eall || y == Eall;
	if (x == Eall || y == Eall)
		return 1;
	if (x == Eread && y == Eread)
		return 0;
	return (a->space & b->space) != 0;
}


/* ---- register accesses, collected independently ---- */

static void
ivpush(Iv *v, int32_t x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 8;
		v->v = xrealloc(v->v, v->cap * sizeof *v->v);
	}
	v->v[v->n++] = x;
}

void
vcollect(Opnd *o, Iv *v)
{
	if (o->kind == Preg && o->reg >= 0)
		ivpush(v, o->reg);
	for (uint32_t i = 0; i < o->nsub; i++)
		vcollect(&o->sub[i], v);
}

static void
eachreg(const Opnd *o, void (*fn)(void *, int32_t), void *arg)
{
	if (o->kind == Preg && o->reg >= 0)
		fn(arg, o->reg);
	for (uint32_t k = 0; k < o->nsub; k++)
		eachreg(&o->sub[k], fn, arg);
}

/* fn(arg, r) for each register s may write, by the operand table:
 * operand 0 and what it holds ({a, b}, p|q); an unknown instruction or
 * a call, any register it names.  For a proof that must not miss a
 * write (vearly.c, vbudget.c), where vaccess's defs follow opdefs. */
void
vwrites(const Stmt *s, void (*fn)(void *, int32_t), void *arg)
{
	uint32_t n = 0;
	Defs d;

	if (s->kind != Sins)
		return;
	d = opdefs(s);
	if (s->op == Ounknown || s->op == Ocall)
		n = s->nop;
	else if (s->nop && s->opd[0].kind != Paddr && (d == D0 || d == D0U))
		n = 1;
	for (uint32_t k = 0; k < n; k++)
		eachreg(&s->opd[k], fn, arg);
}

static uint32_t
nregs(const Opnd *o)
{
	uint32_t n = o->kind == Preg && o->reg >= 0;

	for (uint32_t i = 0; i < o->nsub; i++)
		n += nregs(&o->sub[i]);
	return n;
}

/* What s reads and writes, in one block sized first (accfree gives
 * it back): the proof asks it of most statements more than once, and
 * two lists grown a push at a time were two mallocs and a realloc or
 * more each time. */
void
vaccess(Stmt *s, Acc *a)
{
	Defs w = opdefs(s);
	uint32_t first = s->nop && s->opd[0].kind != Paddr
		&& (w == D0 || w == D0U), nd = 0, nu = 0;

	if (first)
		nd = nregs(&s->opd[0]);
	for (uint32_t i = first; i < s->nop; i++)
		nu += nregs(&s->opd[i]);
	nu += (w == D0U) * nd + (s->guard ? nregs(s->guard) + nd : 0);
	int32_t *v = xmalloc((nd + nu + 1) * sizeof *v);
	Iv d = {v, 0, nd}, u = {v + nd, 0, nu};  /* room enough: no growth */

	if (first) {
		vcollect(&s->opd[0], &d);
		if (w == D0U)
			vcollect(&s->opd[0], &u);
	}
	for (uint32_t i = first; i < s->nop; i++)
		vcollect(&s->opd[i], &u);
	if (s->guard) {
		vcollect(s->guard, &u);
		for (uint32_t i = 0; i < d.n; i++)
			ivpush(&u, d.v[i]);
	}
	a->def = d.v;
	a->ndef = d.n;
	a->use = u.v;
	a->nuse = u.n;
	a->eff = veffect(s);
	a->space = space(s);
}

void
accfree(Acc *a)
{
	free(a->def);           /* use lies in the same block */
	a->def = a->use = 0;
}

/* ---- fixed statements ---- */

/* qsort order of interned strings (Str), by address */
int
vptrcmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const Str *)a, y = (uintptr_t)*(const Str *)b;

	return x < y ? -1 : x > y;
}

/* Labels some branch or .branchtargets names: every name such a
 * statement gives, sorted once, and each label looked up in them. */
uint8_t *
vbranchtargets(Func *f)
{
	uint8_t *t = calloc(f->nstmt ? f->nstmt : 1, 1);
	Str *name = 0;
	size_t n = 0, cap = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		uint32_t k, m = s->kind == Sdir ? s->decl->nattr
			: s->kind == Sins ? s->nop : 0;
		for (k = 0; k < m; k++) {
			if (s->kind == Sins && s->opd[k].kind != Psym)
				continue;
			if (n == cap)
				name = xrealloc(name, (cap = cap ? 2 * cap : 64)
					* sizeof *name);
			name[n++] = s->kind == Sdir ? s->decl->attr[k]
				: s->opd[k].s;
		}
	}
	if (n)
		qsort(name, n, sizeof *name, vptrcmp);
	for (uint32_t j = 0; j < f->nstmt; j++)
		if (f->stmt[j].kind == Slabel && n
		&& bsearch(&f->stmt[j].name, name, n, sizeof *name, vptrcmp))
			t[j] = 1;
	free(name);
	return t;
}

/* Marks what may move: instructions outside scopes whose effect is not
 * Efixed, .loc lines, labels no branch names. */
uint8_t *
vmovables(Func *f)
{
	uint8_t *t = vbranchtargets(f), *m = calloc(f->nstmt + 1, 1);
	int depth = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sopen)
			depth++;
		if (s->kind == Sclose)
			depth--;
		if (depth || s->kind == Sclose)
			continue;
		if (s->kind == Sins)
			m[i] = veffect(s) != Efixed;
		else if (s->kind == Sloc)
			m[i] = 1;
		else if (s->kind == Slabel)
			m[i] = t[i] ? 0 : 2;
	}
	free(t);
	return m;
}

/* Registers that { } scopes declare (nvcc's %temp in inline asm).
 * regs.c gives ids in declaration order, return and parameter
 * registers first, so the body's .reg lines own the last ids, in order. */
uint8_t *
vscopedregs(Func *f)
{
	uint8_t *sc = calloc(f->nreg + 1, 1);
	uint64_t total = 0;

	for (int pass = 0; pass < 2; pass++) {  /* count, then mark */
		uint64_t id = f->nreg - total;
		uint32_t depth = 0;
		for (uint32_t i = 0; i < f->nstmt; i++) {
			Stmt *s = &f->stmt[i];
			depth += s->kind == Sopen;
			depth -= s->kind == Sclose && depth;
			if (s->kind != Sdecl || !s->decl->nattr
			|| strcmp(s->decl->attr[0], ".reg"))
				continue;
			for (uint32_t k = 0; k < s->decl->nname; k++) {
				int32_t c = s->decl->name[k].count;
				uint64_t n = c < 0 ? 1 : (uint64_t)c;
				if (pass && depth)
					memset(sc + id, 1, n);
				id += n;
				total += pass ? 0 : n;
			}
		}
		if (total > f->nreg)    /* not the layout above: mark none */
			break;
	}
	return sc;
}

/* The two functions body() compares, and their scoped registers. */
Vscoped vscoped[2];

static void
marks(Buf *b, Opnd *o, const uint8_t *sc)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		marks(b, &o->sub[i], sc);
	if (o->kind == Preg && o->reg < 0 && !isspecial(o->s))
		bputs(b, " #?");
	else if (o->kind == Preg && o->reg >= 0 && sc[o->reg])
		bprintf(b, " #%d", o->reg);
}

/* A statement's text, the key that pairs A's statements with B's.  A
 * name alone does not say which register it is where a scope declares
 * its own: a copy of `cvt.u64.u32 %temp, %r59` from inside an inline
 * asm scope, put outside it, names another %temp or none (a gemm of
 * the corpus, through remat), so a scope's registers carry their ids
 * (the same in A and B: declarations are fixed statements), and a
 * name that binds to nothing carries '?'. */
Str
vtext(Func *f, Stmt *s)
{
	static Buf b;   /* kept: a Buf's first growth is a 4 KB malloc */
	Str r, *memo = 0;
	Vscoped *v = vscoped[0].f == f ? &vscoped[0]
		: vscoped[1].f == f ? &vscoped[1] : 0;
	uintptr_t at = (uintptr_t)s - (uintptr_t)f->stmt;

	/* body() asks a statement's text in several of its proofs
	 * (segments, loop chains, constants): each of f's is printed once,
	 * into one buffer kept (with the memo, `validate` on CUTLASS's
	 * file spends 0.71 G instructions here, 1.11 G before;
	 * bench/RESULTS-trust.md, forty-first session).  A statement not
	 * in f's array (a copy) is printed each time. */
	if (v && v->memo && at < (uintptr_t)f->nstmt * sizeof *s
	&& at / sizeof *s < v->nmemo) {
		memo = &v->memo[at / sizeof *s];
		if (*memo)
			return *memo;
	}
	b.n = 0;
	printstmt(&b, f, s);
	if (v && s->kind == Sins) {     /* A against itself: marked once */
		if (s->guard)
			marks(&b, s->guard, v->sc);
		for (uint32_t j = 0; j < s->nop; j++)
			marks(&b, &s->opd[j], v->sc);
	}
	r = intern(b.p ? b.p : "", b.n);
	if (memo)
		*memo = r;
	return r;
}

/* A statement's text as printed, interned, with no marks and no memo:
 * for copies and for statements whose scopes do not matter (vcopy.c,
 * vsink.c).  Printed into one kept buffer, as vtext's: a Buf's first
 * growth is a 4 KB malloc. */
Str
vplain(Func *f, Stmt *s)
{
	static Buf b;

	b.n = 0;
	printstmt(&b, f, s);
	return intern(b.p ? b.p : "", b.n);
}

int
vfail(Buf *why, Func *f, Stmt *s, const char *fmt, const char *x)
{
	bprintf(why, "%s: line %u: ", f->name, s->pos.line);
	bprintf(why, fmt, x);
	bputs(why, "\n");
	return -1;
}

/* The registers tcgen05.ld fills and tcgen05.st empties, per function:
 * the tensor core may write (read) them until tcgen05.wait::ld (::st),
 * so such a wait keeps its order against every access to any of them.
 * Per function, not per operation: coarse, and no matching of waits to
 * the operations they complete.  Bit 4: a wgmma.mma_async's
 * accumulators and A fragments (its vector operands), which it may
 * read and write until a wgmma.wait_group completes it. */
uint8_t *
vtmemregs(Func *f)
{
	uint8_t *t = calloc(f->nreg + 1, 1);

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		Iv v = {0};
		int wg = s->kind == Sins && s->op == Owgmma_mma_async;
		if (s->kind != Sins || (!wg
		&& s->op != Otcgen05_ld && s->op != Otcgen05_st))
			continue;
		/* every register it names outside its address: the loaded
		 * ones, and tcgen05.ld.red's second result (redval), which
		 * the table counts as read */
		for (uint32_t k = 0; k < s->nop; k++)
			if (wg ? s->opd[k].kind == Pvec
			: s->opd[k].kind != Paddr)
				vcollect(&s->opd[k], &v);
		for (uint32_t k = 0; k < v.n; k++)
			t[v.v[k]] |= wg ? 4 : s->op == Otcgen05_ld ? 1 : 2;
		free(v.v);
	}
	return t;
}

int
vtmemtouch(const Acc *a, const uint8_t *tm, int bit)
{
	for (uint32_t k = 0; k < a->ndef; k++)
		if (tm[a->def[k]] & bit)
			return 1;
	for (uint32_t k = 0; k < a->nuse; k++)
		if (tm[a->use[k]] & bit)
			return 1;
	return 0;
}

/* s writes a register some tcgen05.ld or tcgen05.st or wgmma names */
int
vasyncwrite(Stmt *s, const uint8_t *tm)
{
	Acc a = {0};
	int hit = 0;

	vaccess(s, &a);
	for (uint32_t k = 0; k < a.ndef; k++)
		hit |= tm[a.def[k]] != 0;
	accfree(&a);
	return hit;
}
