/* check.c: what a module must satisfy beyond the grammar.  Errors are
 * what ptxas would reject (undeclared registers, branches to labels that
 * do not exist, labels defined twice); warnings are what we do not know
 * (opcodes and modifiers newer than our table), never errors: the front
 * end must keep up with PTX it has not seen. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "typecheck.h"

/* A special register (%tid, %clock64, ...): a name no .reg declares. */
int
isspecial(Str s)
{
	static const char *const fixed[] = {
		"%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid",
		"%nctaid", "%smid", "%nsmid", "%gridid", "%lanemask_eq",
		"%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
		"%clock", "%clock_hi", "%clock64", "%globaltimer",
		"%globaltimer_lo", "%globaltimer_hi", "%total_smem_size",
		"%aggr_smem_size", "%dynamic_smem_size", "%is_explicit_cluster",
		"%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid",
		"%cluster_ctarank", "%cluster_nctarank", "%current_graph_exec",
	};
	static const char *const prefix[] = {
		"%envreg", "%pm", "%reserved_smem_offset",
	};
	for (size_t i = 0; i < countof(fixed); i++)
		if (!strcmp(s, fixed[i]))
			return 1;
	for (size_t i = 0; i < countof(prefix); i++)
		if (!strncmp(s, prefix[i], strlen(prefix[i])))
			return 1;
	return 0;
}

static void
checkop(Diag *d, Stmt *s, Opnd *o)
{
	for (uint32_t i = 0; i < o->nsub; i++)
		checkop(d, s, &o->sub[i]);
	if (o->kind == Preg && o->reg < 0 && !isspecial(o->s))
		diag(d, "error", s->pos, s->text.off, s->text.len,
			"undeclared register '%s'", o->s);
}

/* Labels: the set defined in the function, each once.  A label in
 * front of a .callprototype names the prototype; PTX lets it repeat. */
/* A function's labels by name (their interned pointers), then scope
 * and place, so that a name's labels stand together, each scope's in
 * order; and the parent of each scope (numbered in order of its '{',
 * 0 the body).  labels() makes them, branches() reads them.  A kernel
 * may have thousands of labels and of branches (nvcc's matrix_free
 * file: 7,523 and 3,340); comparing each with every earlier one was a
 * fifth of its check. */
typedef struct Lb { Str name; uint32_t scope, at, dup; } Lb;
typedef struct Labs { Lb *v; uint32_t n, *par; } Labs;

static int
lbcmp(const void *a, const void *b)
{
	const Lb *x = a, *y = b;

	if (x->name != y->name)
		return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
	if (x->scope != y->scope)
		return x->scope < y->scope ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* Labels are scoped like registers: inline asm blocks reuse names such
 * as "waitLoop" in every { } they open.  A duplicate is one in the same
 * scope, reported in the order of the text; a label a directive follows
 * (a .callprototype's) is not one, though a later label of its name
 * is.  L gets the labels and scopes for branches(). */
static void
labels(Func *f, Diag *d, Labs *L)
{
	uint32_t *par = xmalloc((f->nstmt + 2) * sizeof *par), *rep = 0;
	uint32_t ns = 1, cur = 0, n = 0, cap = 0, nrep = 0;
	Lb *v = 0;

	par[0] = 0;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sopen)
			par[ns] = cur, cur = ns++;
		else if (s->kind == Sclose)
			cur = par[cur];
		if (s->kind != Slabel)
			continue;
		if (n == cap)
			v = xrealloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
		int proto = i + 1 < f->nstmt && f->stmt[i + 1].kind == Sdir;
		v[n++] = (Lb){s->name, cur, i, (uint32_t)!proto};
	}
	if (n > 1)
		qsort(v, n, sizeof *v, lbcmp);
	for (uint32_t k = 1; k < n; k++)
		if (v[k].dup && v[k].name == v[k - 1].name
		&& v[k].scope == v[k - 1].scope) {
			rep = xrealloc(rep, (nrep + 1) * sizeof *rep);
			rep[nrep++] = v[k].at;
		}
	if (nrep > 1)
		qsort(rep, nrep, sizeof *rep, u32cmp);
	for (uint32_t r = 0; r < nrep; r++) {
		Stmt *s = &f->stmt[rep[r]];
		diag(d, "error", s->pos, s->text.off, s->text.len,
			"label '%s' defined twice", s->name);
	}
	free(rep);
	*L = (Labs){v, n, par};
}

/* Each branch's label is defined in the branch's scope or one around
 * it, as ptxas wants ("Unknown symbol"): a label inside an inline asm
 * block is no target from outside it (the opt fuzzer's mutated tests
 * had one, and the passes and the validator, which resolve labels by
 * scope too, then read different graphs).  A branch's name is looked
 * up among the labels sorted by name (labels()). */
static void
branches(Func *f, Diag *d, const Labs *L)
{
	uint32_t ns = 1, cur = 0;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sopen)
			cur = ns++;
		else if (s->kind == Sclose)
			cur = L->par[cur];
		if (s->kind != Sins || s->op != Obra || !s->nop)
			continue;
		Opnd *o = &s->opd[s->nop - 1];
		if (o->kind != Psym)
			continue;
		uint32_t lo = 0, hi = L->n;     /* the first of o->s's */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if ((uintptr_t)L->v[mid].name < (uintptr_t)o->s)
				lo = mid + 1;
			else
				hi = mid;
		}
		int found = 0, seen = 0;
		for (uint32_t j = lo; j < L->n && L->v[j].name == o->s
		&& !found; j++) {
			seen = 1;
			for (uint32_t c = cur; !found; c = L->par[c]) {
				found = L->v[j].scope == c;
				if (!c)
					break;
			}
		}
		if (!found)
			diag(d, "error", s->pos, s->text.off, s->text.len,
				seen ? "branch to label '%s', which is defined "
				"only inside another { } scope"
				: "branch to undefined label '%s'", o->s);
	}
}

/* A register name declared twice in one scope: ptxas rejects it
 * ("Duplicate definition"), and the binding would leave the statements
 * between the two declarations naming one register and those after it
 * another that prints the same (the opt fuzzer, in CI: remat=loop's
 * copy, printed by name, then read the other one).  A scope is a { }
 * (an inline asm block may shadow outer names) or the body; a range
 * %r<N> and a plain %r do not collide, but a plain %r5 or %r005 is %r<8>'s
 * fifth again (regs.c regnumber).  Each declaration gets its scope's number;
 * sorted by name, kind and scope, a repeat stands next to the first. */
typedef struct Dn {
	Str name;
	uint32_t range, scope, at, nth;   /* nth: its place in the list */
	int32_t count;
} Dn;
/* A repeat found: reported at stmt at, for the nth name there; r the
 * range that holds a plain name, else 0. */
typedef struct Rep { uint32_t at, nth; const Dn *x, *r; } Rep;

static int
repcmp(const void *a, const void *b)
{
	const Rep *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->nth < y->nth ? -1 : x->nth > y->nth;
}

static int
dncmp(const void *a, const void *b)
{
	const Dn *x = a, *y = b;

	if (x->name != y->name)
		return (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
	if (x->range != y->range)
		return x->range < y->range ? -1 : 1;
	if (x->scope != y->scope)
		return x->scope < y->scope ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static void
redeclared(Func *f, Diag *d)
{
	Dn *v = 0;
	uint32_t n = 0, cap = 0;
	Scopeno sc = {0};

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		scopestep(&sc, s);
		if (s->kind != Sdecl || !s->decl->nattr
		|| strcmp(s->decl->attr[0], ".reg"))
			continue;
		for (uint32_t k = 0; k < s->decl->nname; k++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = xrealloc(v, cap * sizeof *v);
			}
			v[n++] = (Dn){s->decl->name[k].name,
				s->decl->name[k].count >= 0, sc.cur, i, k,
				s->decl->name[k].count};
		}
	}
	if (n > 1)
		qsort(v, n, sizeof *v, dncmp);
	Rep *rep = 0;
	uint32_t nrep = 0, caprep = 0;
#define REPORT(a, b, c, e) do { if (nrep == caprep) { \
		caprep = caprep ? 2 * caprep : 16; \
		rep = xrealloc(rep, caprep * sizeof *rep); } \
		rep[nrep++] = (Rep){a, b, c, e}; } while (0)
	for (uint32_t k = 1; k < n; k++)
		if (v[k].name == v[k - 1].name && v[k].range == v[k - 1].range
		&& v[k].scope == v[k - 1].scope)
			REPORT(v[k].at, v[k].nth, &v[k], 0);
	for (uint32_t k = 0; k < n; k++) {
		/* a plain %r5: the ranges named by its prefix, %r, which
		 * stand together in v (sorted by name) */
		size_t p;
		long idx = v[k].range ? -1 : regnumber(v[k].name, &p);
		if (idx < 0)
			continue;
		Str pre = intern(v[k].name, p);
		for (uint32_t r = namebound(v, n, sizeof *v, pre);
		r < n && v[r].name == pre; r++)
			if (v[r].range && v[r].scope == v[k].scope
			&& idx < v[r].count)
				/* where ptxas says it: the later of the two */
				REPORT(v[k].at > v[r].at ? v[k].at : v[r].at,
					v[k].nth, &v[k], &v[r]);
	}
#undef REPORT
	/* in the order of the text, whatever order the names sorted in
	 * (interned pointers) */
	if (nrep > 1)
		qsort(rep, nrep, sizeof *rep, repcmp);
	for (uint32_t i = 0; i < nrep; i++) {
		Stmt *s = &f->stmt[rep[i].at];
		if (rep[i].r)
			diag(d, "error", s->pos, s->text.off, s->text.len,
				"register '%s' declared twice in one scope: "
				"it is %s<%d>'s", rep[i].x->name,
				rep[i].r->name, rep[i].r->count);
		else
			diag(d, "error", s->pos, s->text.off, s->text.len,
				"register '%s%s' declared twice in one scope",
				rep[i].x->name, rep[i].x->range ? "<>" : "");
	}
	free(rep);
	free(v);
}

/* A register type the reader does not know: ptxas says syntax error,
 * but new PTX brings new types, so a warning, as for an unknown
 * modifier (the opt fuzzer's fo76: early declared copies of such a
 * register with no type at all). */
static void
regtype(Diag *d, Stmt *s)
{
	Decl *x = s->decl;

	if (x->nattr > 1 && !strcmp(x->attr[0], ".reg") && !regdecltype(x))
		diag(d, "warning", s->pos, s->text.off, s->text.len,
			"unknown register type '%s': its registers count as "
			"32 bits", x->attr[x->nattr - 1]);
}

static int
regbits(const Func *f, const Opnd *o)
{
	return o->kind == Preg && o->reg >= 0 ? typebits(f->reg[o->reg].type) : 0;
}

/* mov's pack and unpack forms want the scalar register as wide as the
 * type and the vector's elements to fill it; ptxas says "Arguments
 * mismatch" of anything else (the line mutator, seed 597: a mov.b64
 * into a .b32 register, which hoist and the validator read apart). */
static void
checkmov(Diag *d, const Func *f, const Stmt *s)
{
	if (s->op != Omov || s->nop != 2 || s->nmod != 1)
		return;
	int v = s->opd[0].kind == Pvec ? 0 : s->opd[1].kind == Pvec ? 1 : -1;
	int n = v < 0 ? 0 : typebits(s->mod[0]);        /* packs are few */
	if (!n)
		return;
	const Opnd *vec = &s->opd[v], *sc = &s->opd[1 - v];
	int w = regbits(f, sc), sum = 0;
	for (uint32_t k = 0; k < vec->nsub && sum >= 0; k++) {
		int b = regbits(f, &vec->sub[k]);
		sum = b ? sum + b : -1;         /* a sink or unknown: unsaid */
	}
	if ((w && w != n) || (sum > 0 && sum != n))
		diag(d, "error", s->pos, s->text.off, s->text.len,
			"mov%s %s: %s %d bits, not %d (ptxas: arguments "
			"mismatch)", s->mod[0], v ? "packs" : "unpacks",
			w && w != n ? "the register is" : "its parts are",
			w && w != n ? w : sum, n);
}

/* The class of a scalar type modifier: 'f' (.f16 .f32 .f64 .bf16),
 * 'i' (.s .u), 'b' (.b), or 0 for any other modifier. */
static int
typeclass(Str m)
{
	/* by its letters: a table of strcmp was 8 % of Sort's parse, one
	 * of interned pointers 2.4 % */
	const char *p = m + 1;
	int c = *p == 'f' ? 'f' : *p == 's' || *p == 'u' ? 'i'
		: *p == 'b' ? 'b' : 0;

	if (c == 'b' && p[1] == 'f')
		c = 'f', p++;           /* .bf16 */
	p++;
	if (c && p[0] == '8' && !p[1] && m[1] != 'f')
		return c;
	if (c && ((p[0] == '1' && p[1] == '6') || (p[0] == '3'
	&& p[1] == '2') || (p[0] == '6' && p[1] == '4')) && !p[2])
		return m[1] == 'b' && m[2] == 'f' && p[0] != '1' ? 0 : c;
	return 0;
}

/* An immediate of the wrong kind for an instruction of one scalar type,
 * whose operands all take that type: ptxas says "Arguments mismatch" of
 * an integer on a float instruction (add.f32 %f1, %f2, 1: write 1.0 or
 * 0f3F800000), of a float on an integer one (add.u32 with 1.0 or
 * 0f3F800000), and of a float of another width on a .b one: 0f is 32
 * bits, 0d and a decimal float 64 (mov.b64 %rd, 1.0 passes, mov.b32
 * %r, 1.0 does not; each tried with ptxas 13.0: tests/front/err-immkind,
 * ok/immkind), and of a constant expression by its kind (constkind.c:
 * err-constexpr). */
static void
checkimm(Diag *d, const Stmt *s, uint32_t imm)
{
	if (!imm)
		return;         /* most instructions: registers alone */
	switch (s->op) {
	case Oadd: case Osub: case Omul: case Omad: case Odiv: case Oabs:
	case Oneg: case Omin: case Omax: case Ofma: case Orcp: case Osqrt:
	case Orsqrt: case Oex2: case Olg2: case Osin: case Ocos: case Otanh:
	case Omov: case Osetp: case Oselp: case Otestp: case Ocopysign:
	case Ost:
		break;
	default:
		return;
	}
	int c = 0;
	Str type = 0;
	for (uint32_t i = 0; i < s->nmod; i++) {
		int k = typeclass(s->mod[i]);
		if (k && c)
			return;     /* two types: cvt-like, not this rule's */
		if (k)
			c = k, type = s->mod[i];
	}
	int bits = c == 'b' ? atoi(type + 2) : 0;
	const char *sig = opinfo[s->op].types;
	for (uint32_t i = 0; c && i < s->nop; i++, sig += sig && *sig) {
		const Opnd *o = &s->opd[i];
		sig += sig && *sig == '|';
		/* a 0f pattern is 32 bits, 0d and a decimal float 64 */
		int fbits = o->kind != Pflt ? 0 : o->s[0] == '0'
			&& (o->s[1] == 'f' || o->s[1] == 'F') ? 32 : 64;
		int eb, ek = o->kind == Pexpr ? constkind(o->s, &eb) : 0;
		if (ek == 'f')
			fbits = eb;
		/* selp.f32's and setp.and.f32's last operand is a
		 * predicate, which takes 1 or 0 and no float */
		int pred = sig && *sig == 'P';
		int oc = pred ? 'i' : c;
		if (ek == 'x') {
			diag(d, "error", s->pos, s->text.off, s->text.len,
				"constant expression %s: an integer and a "
				"float together, or a float where only "
				"integers go (ptxas: constant expression type "
				"mismatch, integer constant expression expected)",
				o->s);
			continue;
		}
		const char *why = (o->kind == Pint || ek == 'i') && oc == 'f'
			? "an integer"
			: fbits && oc == 'i' ? "a float"
			: fbits && oc == 'b' && fbits != bits ? fbits == 32
			? "a 32-bit float" : "a 64-bit float"
			: 0;
		if (why)
			diag(d, "error", s->pos, s->text.off, s->text.len,
				"%s immediate, %s%s, %s %s%s (ptxas: arguments "
				"mismatch)", why, o->minus ? "-" : "", o->s,
				pred ? "as the predicate of" : "on a", pred
				? opinfo[s->op].name : type, pred ? ""
				: " instruction");
	}
}

/* The literals of an initializer's text, each with its kind: 'i' an
 * integer (1, -1's 1, 0x1F, 7U), 'f' a float (1.5, 1e5, 0f3F800000,
 * 0d...), in order; names (generic(k)) and operators are passed.
 * Returns the literal's end and its kind in *kind, or 0 at the end. */
static const char *
initlit(const char *p, const char **lit, size_t *n, int *kind)
{
	for (; *p; p++) {
		int num = isdigit((unsigned char)*p) || (*p == '.'
			&& isdigit((unsigned char)p[1]));
		if (!num && (isalnum((unsigned char)*p) || *p == '_'
		|| *p == '$' || *p == '%')) {
			while (isalnum((unsigned char)*p) || *p == '_'
			|| *p == '$' || *p == '%' || *p == '.')
				p++;            /* a name */
			p--;
			continue;
		}
		if (!num)
			continue;
		const char *q = p;
		int hex = p[0] == '0' && strchr("xXbBfFdD", p[1]) && p[1];
		int flt = hex ? strchr("fFdD", p[1]) != 0 : 0;
		for (q = p + (hex ? 2 : 0); isalnum((unsigned char)*q)
		|| *q == '.' || (!hex && (*q == '+' || *q == '-')
		&& (q[-1] == 'e' || q[-1] == 'E')); q++)
			flt |= !hex && (*q == '.' || *q == 'e' || *q == 'E');
		*lit = p, *n = (size_t)(q - p), *kind = flt ? 'f' : 'i';
		return q;
	}
	return 0;
}

/* A variable's initializer against its type, as ptxas 13.0 holds it
 * ("Initial value type mismatch"): no integer in a .f32 or .f64 one
 * (write 1.0), no float in a .s or .u one; a .b one takes either; a
 * .f16 one takes none ("No initial value is allowed for .f16 type"). */
static void
checkinit(Module *m, Diag *d, const Decl *x, Pos pos, Span text)
{
	int c = 0;
	Str type = 0;

	if (!x || !x->init)
		return;
	for (uint32_t i = 0; i < x->nattr; i++) {
		int k = typeclass(x->attr[i]);
		if (k)
			c = k, type = x->attr[i];
	}
	if (c && !strcmp(type, ".f16")) {
		diag(d, "error", pos, text.off, text.len, "a .f16 variable "
			"takes no initial value (ptxas)");
		return;
	}
	const char *p = x->init, *lit;
	size_t n;
	int k;
	while (c && c != 'b' && (p = initlit(p, &lit, &n, &k)))
		if (k != c) {
			Str w = intern(lit, n);
			diagword(m, d, "error", pos, text, w, 0, k == 'i'
				? "an integer, %s, in the initializer of a "
				"float variable (ptxas: initial value type "
				"mismatch)" : "a float, %s, in the initializer "
				"of an integer variable (ptxas: initial value "
				"type mismatch)");
			return;
		}
}

/* setmaxnreg's count is a multiple of 8 in [24, 256] (ptxas: "value
 * '16' out of range", "unexpected value '20', expected to be multiple
 * of 8"); a count written as an expression is not read here. */
static void
checkbudget(Diag *d, const Stmt *s)
{
	int v = setmaxcount(s);

	if (v >= 0 && (v % 8 || v < 24 || v > 256))
		diag(d, "error", s->pos, s->text.off, s->text.len, "setmaxnreg "
			"%d: the count is a multiple of 8 in [24, 256]", v);
}

/* shfl.b32 moves 32 bits: ptxas says "Arguments mismatch" of a .b16 or
 * .b64 register as its source or destination (pin=base had pinned a
 * 16-bit register so, and the validator had taken it for 32 bits). */
static void
checkshfl(Diag *d, const Func *f, const Stmt *s)
{
	int n = 0;

	for (uint32_t k = 0; k < s->nmod; k++)
		n = n ? n : typebits(s->mod[k]);
	for (uint32_t k = 0; k < 2 && k < s->nop && n; k++) {
		int w = regbits(f, &s->opd[k]);
		if (w && w != n) {
			diag(d, "error", s->pos, s->text.off, s->text.len,
				"shfl%s: a register of %d bits, not %d (ptxas: "
				"arguments mismatch)", s->mod[s->nmod - 1], w,
				n);
			return;
		}
	}
}

/* A declaration must open with a linking directive or a state space;
 * anything else the grammar read as one (a mangled instruction such as
 * `.address_sizemul.f32 %r1, %r1, %r2;`: the opt fuzzer's fo82) is a
 * directive this tool does not know, kept as written and held fixed by
 * every pass, as ptxas would not take it. */
static void
declhead(Diag *d, const Decl *x, Pos pos, Span text)
{
	static const char *const head[] = {".extern", ".visible", ".weak",
		".common", ".reg", ".sreg", ".const", ".global", ".local",
		".param", ".shared", ".tex"};

	if (!x || !x->nattr)
		return;
	for (size_t k = 0; k < countof(head); k++)
		if (!strcmp(x->attr[0], head[k]))
			return;
	diag(d, "warning", pos, text.off, text.len, "unknown directive '%s': "
		"kept as is, a fixed point for every pass", x->attr[0]);
}

/* How many registers the vector operand of s must hold, or 0 when
 * this does not know: ld/st .v2/.v4/.v8, and tcgen05.ld/st, whose
 * .xN repeats a shape of 1 (32x32b, 16x32bx2), 2 (16x64b) or 4
 * (16x128b, 16x256b: 2 and 4 words per repeat) registers. */
static uint32_t
arity(Stmt *s)
{
	static struct { const char *name; Str shape; uint32_t per; } sh[] = {
		{".32x32b", 0, 1}, {".16x64b", 0, 1}, {".16x128b", 0, 2},
		{".16x256b", 0, 4}, {".16x32bx2", 0, 1},
	};
	uint32_t n = 0, per = 0;
	int tc = s->op == Otcgen05_ld || s->op == Otcgen05_st;

	if (!tc && s->op != Old && s->op != Oldu && s->op != Ost)
		return 0;
	for (uint32_t i = 0; i < s->nmod; i++) {
		Str m = s->mod[i];
		if (m[1] == 'v' && (m[2] == '2' || m[2] == '4' || m[2] == '8')
		&& !m[3])
			n = (uint32_t)(m[2] - '0');
		if (m[1] == 'x' && m[2] >= '0' && m[2] <= '9')
			n = (uint32_t)atoi(m + 2);
		for (size_t k = 0; tc && k < countof(sh); k++) {
			if (!sh[k].shape)   /* modifiers are interned */
				sh[k].shape = interns(sh[k].name);
			if (m == sh[k].shape)
				per = sh[k].per;
		}
		if ((m[1] == 'p' && !strncmp(m, ".pack::", 7))
		|| (m[1] == 'u' && !strncmp(m, ".unpack::", 9)))
			return 0;
	}
	return tc ? (per ? n * per : 0) : n;
}

static void
checkarity(Diag *d, Stmt *s)
{
	uint32_t want = arity(s);

	if (!want)
		return;
	for (uint32_t k = 0; k < s->nop; k++) {
		Opnd *o = &s->opd[k];
		if (o->kind == Pvec && o->nsub != want)
			diag(d, "error", s->pos, s->text.off, s->text.len,
				"vector operand of '%s' holds %u registers, the "
				"modifiers ask for %u", s->name, o->nsub, want);
	}
}

/* Instruction families that only some targets have: ptxas rejects
 * wgmma.* but on sm_90a, and tcgen05.* but on the sm_100/sm_110 lines
 * (sm_100a, sm_101a, sm_103a, sm_110a and their 'f' families), "not
 * supported on .target".  A file mixing the two is none that ptxas
 * takes, and the passes' proofs do not mean to cover one.  Per opcode,
 * from the table's names once (a check of a large file asks for every
 * instruction): 1 wgmma, 2 tcgen05. */
enum { Fwg = 1, Ftc = 2 };

static uint8_t
family(uint16_t op)
{
	static uint8_t fam[Onum];
	static int done;

	if (!done) {
		for (int o = 0; o < Onum; o++)
			fam[o] = !strncmp(opinfo[o].name, "wgmma.", 6) ? Fwg
				: !strncmp(opinfo[o].name, "tcgen05.", 8) ? Ftc
				: 0;
		done = 1;
	}
	return fam[op];
}

/* sm_10 to sm_13 (and compute_1x): PTX for them may leave out the
 * rounding of mad.f32, div.f32 and the like (Ocelot's files do, and
 * ptxas reads them), which sm_20 on needs. */
static int
oldtarget(Str target)
{
	const char *u = target ? strchr(target, '_') : 0;

	return u && (!strncmp(target, "sm_", 3) || !strncmp(target,
		"compute_", 8)) && atoi(u + 1) < 20;
}

/* The families target does not have, and what they need. */
static uint8_t
missing(Str target)
{
	char x;
	int v = smtarget(target, &x);

	if (v < 0)
		return 0;
	return (strcmp(target, "sm_90a") ? Fwg : 0)
		| (v >= 100 && v < 120 && (x == 'a' || x == 'f') ? 0 : Ftc);
}

static uint32_t
checkins(Diag *d, Known *kn, const Func *fn, Stmt *s, Str target,
	uint8_t miss)
{
	uint8_t f = miss ? family(s->op) & miss : 0;

	if (f)
		diag(d, "error", s->pos, s->text.off, s->text.len,
			"'%s' is not supported on .target %s (it needs %s)",
			opinfo[s->op].name, target, f == Fwg ? "sm_90a"
			: "sm_100a, sm_101a, sm_103a or sm_110a");
	checkarity(d, s);
	if (s->op == Ounknown)
		diag(d, "warning", s->pos, s->text.off, s->text.len,
			"unknown opcode '%s': kept as is, treated as a barrier "
			"with unknown effects", s->name);
	const Mtypes *y = types(kn, s);
	if (!y->known)
		for (uint32_t k = 0; k < s->nmod; k++)
			if (!modknown(s->mod[k]))
				diag(d, "warning", s->pos, s->text.off,
					s->text.len, "unknown modifier '%s' "
					"on '%s'", s->mod[k], s->name);
	/* a destination that is a bare name must be a register */
	if (s->nop && s->opd[0].kind == Psym) {
		Defs df = opdefs(s);
		if (df == D0 || df == D0U)
			diag(d, "error", s->pos, s->text.off, s->text.len,
				"undeclared register '%s'", s->opd[0].s);
	}
	if (s->guard && s->guard->kind == Psym)  /* `@!complete` */
		diag(d, "error", s->pos, s->text.off, s->text.len,
			"undeclared register '%s'", s->guard->s);
	else if (s->guard) {
		Opnd *g = s->guard;
		checkop(d, s, g);
		if (g->kind == Preg && g->reg >= 0 && fn->reg[g->reg].tcode
		&& !fn->reg[g->reg].pred)
			diag(d, "error", s->pos, s->text.off, s->text.len,
				"'%s' is %s: a guard is a predicate (ptxas: "
				"predicate expression expected)", g->s,
				fn->reg[g->reg].type);
	}
	if (typewrong(s, y))
		typereport(d, s, y);
	uint32_t nt = y->n;     /* operands to type */
	if (nt && s->op == Omov && s->nop == 2 && (s->opd[0].kind == Pvec
	|| s->opd[1].kind == Pvec))
		nt = 0;         /* mov's packs: checkmov */
	uint32_t imm = 0;       /* immediates, for checkimm */
	for (uint32_t k = 0; k < s->nop; k++) {
		Opnd *o = &s->opd[k];
		imm += o->kind == Pint || o->kind == Pflt || o->kind == Pexpr;
		if (o->nsub || (o->kind == Preg && o->reg < 0))
			checkop(d, s, o);       /* else nothing to say */
		if (o->kind == Preg && o->reg < 0 && y->nospecial
		&& isspecial(o->s))
			diag(d, "error", s->pos, s->text.off, s->text.len,
				"'%s' is a special register, which %s does "
				"not take: mov it to a register first (ptxas: "
				"special register argument not allowed)", o->s,
				opinfo[s->op].name);
		if (k < nt)
			typeslot(d, fn, s, y, k, o);
	}
	return imm;
}

/* ptxas: "Illegal value for .address_size directive (must be 32 or
 * 64)"; the grammar reads any integer there. */
static int
addrsize(Str s)
{
	int64_t v;

	return s && ptxint(s, &v) && (v == 32 || v == 64);
}

/* .maxnreg, .maxntid, .reqntid and .minnctapersm want each number above
 * 0 ("Positive non-zero value expected for maxntid"); the cluster
 * directives take 0, but not both of .reqnctapercluster and
 * .maxclusterrank ("Conflicting directives"). */
static void
perfs(Module *m, Diag *d, const Item *t)
{
	static const char *const want[] = {".maxnreg", ".maxntid",
		".reqntid", ".minnctapersm"};
	const Func *f = t->fn;
	int cluster = 0;

	for (uint32_t i = 0; i < f->nperf; i++) {
		Str n = f->perf[i].name;
		int c = !strcmp(n, ".reqnctapercluster") ? 1
			: !strcmp(n, ".maxclusterrank") ? 2 : 0;
		if (c && (cluster | c) == 3)
			diagword(m, d, "error", t->pos, t->text, n, 0, "%s "
				"with .reqnctapercluster and .maxclusterrank "
				"both: ptxas takes one");
		cluster |= c;
		size_t k = 0;
		while (k < countof(want) && strcmp(n, want[k]))
			k++;
		int64_t v[3];
		int nv = k < countof(want) ? ptxints(f->perf[i].args, v, 3) : 0;
		for (int j = 0; j < nv; j++)
			if (!v[j]) {
				diagword(m, d, "error", t->pos, t->text, n, 0,
					"%s wants numbers above 0");
				break;
			}
	}
}

/* ptxas reads .version, then .target, then at most one .address_size,
 * before anything else, and none of them again: any other order is
 * "Missing .target directive at start of file" or a syntax error at
 * the directive (ptxas 12.8 and 13.0; a second module appended to a
 * first is one).  The first such place only: the rest follow from it. */
static void
header(Module *m, Diag *d)
{
	static const uint8_t want[] = {Iver, Itarget};
	static const char *const name[] = {".version", ".target"};

	for (uint32_t i = 0; i < m->nitem; i++) {
		const Item *t = &m->item[i];
		const char *why = 0;
		if (i < 2 && t->kind != want[i])
			why = i ? "a .target must follow .version"
				: "a module starts with .version";
		else if (i >= 2 && (t->kind == Iver || t->kind == Itarget))
			why = "a second %s: ptxas reads one module a file";
		else if (i > 2 && t->kind == Iaddr)
			why = ".address_size comes right after .target, once";
		else if (t->kind == Iaddr && !addrsize(t->s))
			why = "%s is 32 or 64";
		if (!why)
			continue;
		uint32_t n = (uint32_t)strcspn(m->src + t->text.off,
			" \t\r\n;");
		diag(d, "error", t->pos, t->text.off, n < t->text.len ? n
			: t->text.len, why, t->kind == Iaddr ? ".address_size"
			: name[t->kind == Itarget]);
		return;
	}
}

int
check(Module *m, Diag *d)
{
	int before = d->nerr;
	Known kn = {.old = oldtarget(m->target),
		.sm = smtarget(m->target, 0),
		.ptx88 = m->vmaj > 8 || (m->vmaj == 8 && m->vmin >= 8)};
	uint8_t miss = missing(m->target);
	int inl = 0;

	Nscope *ns = scopenew(m);

	header(m, d);
	checknames(m, d);
	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].fn;
		Labs l = {0};
		if (m->item[i].kind == Idecl) {
			declhead(d, m->item[i].decl, m->item[i].pos,
				m->item[i].text);
			checkinit(m, d, m->item[i].decl, m->item[i].pos,
				m->item[i].text);
		}
		if (m->item[i].kind != Ifunc)
			continue;
		perfs(m, d, &m->item[i]);
		scopebegin(ns, i);
		for (uint32_t k = 0; f->body && k < f->nstmt; k++) {
			Stmt *s = &f->stmt[k];
			if (s->kind == Sins) {
				uint32_t imm = checkins(d, &kn, f, s, m->target,
					miss);
				checkmov(d, f, s);
				checkimm(d, s, imm);
				if (s->op == Osetmaxnreg)
					checkbudget(d, s);
				if (s->op == Oshfl)
					checkshfl(d, f, s);
				if (s->op == Ocall)
					scopestmt(ns, d, s);
			}
			else if (s->kind == Sopen || s->kind == Sclose)
				scopestmt(ns, d, s);
			else if (s->kind == Sloc && s->ll->fn)
				inl = 1;
			else if (s->kind == Sdecl) {
				regtype(d, s);
				declhead(d, s->decl, s->pos, s->text);
				checkinit(m, d, s->decl, s->pos, s->text);
				scopestmt(ns, d, s);
			}
		}
		scopeend(ns, d);
		if (!f->body)
			continue;
		redeclared(f, d);
		labels(f, d, &l);
		branches(f, d, &l);
		free(l.v);
		free(l.par);
	}
	scopefree(ns);
	if (inl) {      /* most files inline nothing */
		locorder(m, d);
		fnnames(m, d);
	}
	return d->nerr - before;
}
