/* names.c: the names ptxas holds a module to, beyond registers and
 * labels (check.c).  Each rule is one ptxas 12.8 and 13.0 enforce,
 * measured on a small file (tests/front/err-names-*.ptx):
 *   - module scope: functions and variables share one namespace.  A
 *     function may be declared any number of times before it is defined
 *     once (a declaration after is a "Duplicate definition" too), always
 *     as .entry or always as .func; a variable is defined once
 *     (.weak and .common too), an .extern one may repeat or follow its
 *     definition; no name is both a function and a variable.
 *   - a function's scope: parameters (return ones included) and the
 *     variables of its outermost { } are one scope; each inner { } is
 *     a scope of its own, where a name may shadow an outer one.
 *   - a direct call names a .func declared before it or the function
 *     it is in ("Call to 'f' requires call prototype"; a kernel is no
 *     call target).  A warning, not an error: OptiX programs call
 *     runtime functions no file declares (ZLUDA's in the corpus), and
 *     Ocelot's calls name a .callprototype's label; such files are
 *     read, written and rewritten as any other, ptxas or not.
 *   - linkage (funclink below): a function's declarations agree with
 *     the first, none after .visible or .weak; nothing defines one
 *     declared .extern; a variable declared .extern is not then defined
 *     static (no linkage).  A static variable first, then .extern, ptxas
 *     takes. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

enum { Nfunc, Nvar, Nextern };
enum { Lnone, Lextern, Lvisible, Lweak, Lcommon };

typedef struct Name {
	Str name;
	uint32_t order;     /* item, or statement, in text order */
	uint8_t kind;       /* Nfunc, Nvar, Nextern */
	uint8_t entry, body;
	uint8_t link;       /* Lnone, Lextern ... (linkage) */
	uint32_t scope;
	uint32_t nth;       /* how many of this name came before it */
	Pos pos;
	Span text;          /* where to search for the name */
} Name;

typedef struct Names { Name *v; uint32_t n, cap; } Names;

/* An error found, reported once all are, in the order of the text (the
 * names sort by interned pointer, which differs from run to run). */
typedef struct Err { const Name *x; uint32_t nth; const char *why; } Err;
typedef struct Errs { Err *v; uint32_t n, cap; } Errs;

static void
found(Errs *E, const Name *x, uint32_t nth, const char *why)
{
	if (E->n == E->cap) {
		E->cap = E->cap ? 2 * E->cap : 16;
		E->v = xrealloc(E->v, E->cap * sizeof *E->v);
	}
	E->v[E->n++] = (Err){x, nth, why};
}

static int
bytext(const void *a, const void *b)
{
	const Err *x = a, *y = b;

	if (x->x->order != y->x->order)
		return x->x->order < y->x->order ? -1 : 1;
	return x->x->nth < y->x->nth ? -1 : x->x->nth > y->x->nth;
}

static void
push(Names *N, Name x)
{
	if (N->n == N->cap) {
		N->cap = N->cap ? 2 * N->cap : 64;
		N->v = xrealloc(N->v, N->cap * sizeof *N->v);
	}
	N->v[N->n++] = x;
}

static int
byname(const void *a, const void *b)
{
	const Name *x = a, *y = b;

	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->scope != y->scope)
		return x->scope < y->scope ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int
idch(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		|| (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%';
}

static void report(Module *, Diag *, const Name *, uint32_t, const char *);

static void
flush(Module *m, Diag *d, Errs *E)
{
	if (E->n > 1)
		qsort(E->v, E->n, sizeof *E->v, bytext);
	for (uint32_t i = 0; i < E->n; i++)
		report(m, d, E->v[i].x, E->v[i].nth, E->v[i].why);
	free(E->v);
}

/* The error (or warning, sev) at the nth occurrence of word as a whole
 * word in text (line and column counted from text's start at pos),
 * else at all of text; fmt takes the word.  check.c's perf directives
 * are reported through it too. */
void
diagword(Module *m, Diag *d, const char *sev, Pos pos, Span text,
	Str word, uint32_t nth, const char *fmt)
{
	const char *s = m->src + text.off, *e = s + text.len;
	size_t k = strlen(word);

	for (const char *q = s; q + k <= e; q++) {
		if (memcmp(q, word, k) || (q > s && (idch(q[-1])
		|| q[-1] == '.'))
		|| (q + k < e && idch(q[k])))
			continue;
		if (nth--)
			continue;
		for (const char *c = s; c < q; c++)
			if (*c == '\n')
				pos.line++, pos.col = 1;
			else
				pos.col++;
		diag(d, sev, pos, (uint32_t)(q - m->src), (uint32_t)k, fmt,
			word);
		return;
	}
	diag(d, sev, pos, text.off, text.len, fmt, word);
}

static void
diagat(Module *m, Diag *d, const char *sev, const Name *x, uint32_t nth,
	const char *fmt)
{
	diagword(m, d, sev, x->pos, x->text, x->name, nth, fmt);
}

static void
report(Module *m, Diag *d, const Name *x, uint32_t nth, const char *fmt)
{
	diagat(m, d, "error", x, nth, fmt);
}

/* A variable, as opposed to a register (check.c's redeclared) or a
 * directive this reader does not know (kept as written, a warning). */
static int
isvar(const Decl *x)
{
	static const char *const head[] = {".extern", ".visible", ".weak",
		".common", ".const", ".global", ".local", ".param", ".shared",
		".tex"};

	for (size_t k = 0; x && x->nattr && k < countof(head); k++)
		if (!strcmp(x->attr[0], head[k]))
			return 1;
	return 0;
}

/* The linkage attrs name: Lnone (static) or the first of them */
static uint8_t
linkage(const Str *attr, uint32_t n)
{
	static const char *const word[] = {".extern", ".visible", ".weak",
		".common"};

	for (uint32_t i = 0; i < n; i++)
		for (size_t k = 0; k < countof(word); k++)
			if (!strcmp(attr[i], word[k]))
				return (uint8_t)(Lextern + k);
	return Lnone;
}

/* A function's linkage against what came before, as ptxas 13.0 holds
 * it (each order of two and three declarations and a definition with
 * each of four linkages tried, 180 cases): every declaration names the
 * first one's linkage, or none after .visible or .weak; nothing
 * defines a function declared .extern ("Inconsistent redefinition",
 * "Function definition conflicts with '.extern' declaration").  The
 * first's linkage, or -1 before any, is *first. */
static const char *
funclink(const Name *x, int *first, int *ext)
{
	const char *why = 0;

	if (x->body && (*ext || x->link == Lextern))
		why = "function '%s' defined, where .extern says it is "
			"not (ptxas: definition conflicts with '.extern' "
			"declaration)";
	else if (*first >= 0 && x->link != *first && !(x->link == Lnone
	&& (*first == Lvisible || *first == Lweak)))
		why = "function '%s' declared with a linkage other than its "
			"first declaration's (ptxas: inconsistent "
			"redefinition)";
	if (*first < 0)
		*first = x->link;
	*ext |= x->link == Lextern;
	return why;
}

/* Module scope, one name's entries in text order from v. */
static void
modgroup(Errs *E, const Name *v, uint32_t n)
{
	int fn = 0, def = 0, var = 0, entry = 0, first = -1, ext = 0;

	for (uint32_t i = 0; i < n; i++) {
		const Name *x = &v[i];
		const char *why = 0;
		if (x->kind == Nfunc) {
			if (var)
				why = "'%s' is a variable and a function";
			else if (fn && entry != x->entry)
				why = "'%s' declared both .entry and .func";
			else if (def)       /* ptxas: "Duplicate definition" */
				why = x->body ? "function '%s' defined twice"
					: "function '%s' declared after its "
					"definition";
			else
				why = funclink(x, &first, &ext);
			fn = 1;
			entry = x->entry;
			def |= x->body;
		} else {
			if (fn)
				why = "'%s' is a function and a variable";
			else if (x->kind == Nvar && var == Nvar)
				why = "variable '%s' defined twice";
			else if (x->kind == Nvar && var == Nextern
			&& x->link == Lnone)
				why = "variable '%s' declared .extern, defined "
					"static here (ptxas: an .extern variable "
					"cannot be resolved by a .static one)";
			if (!var || x->kind == Nvar)
				var = x->kind;
		}
		if (why) {
			found(E, x, x->kind == Nfunc ? 0 : x->nth, why);
			return;     /* the rest follow from it */
		}
	}
}

/* Module scope: functions and variables. */
void
checknames(Module *m, Diag *d)
{
	Names N = {0};
	Errs E = {0};

	for (uint32_t i = 0; i < m->nitem; i++) {
		const Item *t = &m->item[i];
		if (t->kind == Ifunc)
			push(&N, (Name){.name = t->fn->name, .order = i,
				.kind = Nfunc, .entry = t->fn->entry,
				.body = t->fn->body, .link = linkage(t->fn->attr,
				t->fn->nattr), .pos = t->pos, .text = t->text});
		if (t->kind != Idecl || !isvar(t->decl))
			continue;
		uint8_t l = linkage(t->decl->attr, t->decl->nattr);
		for (uint32_t k = 0; k < t->decl->nname; k++)
			push(&N, (Name){.name = t->decl->name[k].name,
				.order = i, .kind = l == Lextern ? Nextern
				: Nvar, .link = l, .nth = k, .pos = t->pos,
				.text = t->text});
	}
	if (N.n > 1)
		qsort(N.v, N.n, sizeof *N.v, byname);
	for (uint32_t i = 0, j; i < N.n; i = j) {
		for (j = i + 1; j < N.n && N.v[j].name == N.v[i].name; j++)
			;
		if (j - i > 1 || (N.v[i].body && N.v[i].link == Lextern))
			modgroup(&E, &N.v[i], j - i);
	}
	flush(m, d, &E);
	free(N.v);
}

/* A function's parameters and variables, scope by scope, gathered as
 * check.c walks its statements (one walk: a second one over a large
 * file's statements was 1.5 % of its parse, mostly cache misses), and
 * its direct calls. */
struct Nscope {
	Module *m;
	uint32_t at;        /* the function's item */
	Names N;
	Scopeno sc;
	uint32_t order;
};

/* check.c's redeclared() numbers its scopes here too, so a register and
 * a variable of one { } have one scope number. */
void
scopestep(Scopeno *c, const Stmt *s)
{
	if (s->kind == Sopen) {
		if (c->depth < countof(c->stack))
			c->stack[c->depth] = c->cur;
		c->depth++;
		c->cur = ++c->next;
	}
	if (s->kind == Sclose && c->depth && --c->depth < countof(c->stack))
		c->cur = c->stack[c->depth];
}

Nscope *
scopenew(Module *m)
{
	Nscope *S = xmalloc(sizeof *S);

	memset(S, 0, sizeof *S);
	S->m = m;
	return S;
}

void
scopefree(Nscope *S)
{
	if (S)
		free(S->N.v);
	free(S);
}

/* The function of item at begins: its parameters are its outermost
 * scope's first names. */
void
scopebegin(Nscope *S, uint32_t at)
{
	const Item *t = &S->m->item[at];
	Func *f = t->fn;

	S->at = at;
	S->N.n = 0;
	S->sc.depth = S->sc.next = S->sc.cur = S->order = 0;
	for (uint32_t i = 0; i < f->nret + f->npar; i++) {
		const Decl *x = i < f->nret ? &f->ret[i] : &f->par[i - f->nret];
		for (uint32_t k = 0; k < x->nname; k++)
			push(&S->N, (Name){.name = x->name[k].name,
				.order = S->order++, .kind = Nvar,
				.pos = t->pos, .text = t->text});
	}
}

static void scopecall(Nscope *, Diag *, const Stmt *);

/* One statement of the function, in order: its { }, variables (not
 * registers: those are redeclared()'s, in check.c) and calls. */
void
scopestmt(Nscope *S, Diag *d, const Stmt *s)
{
	scopestep(&S->sc, s);
	if (s->kind == Sins && s->op == Ocall)
		scopecall(S, d, s);
	if (s->kind != Sdecl || !isvar(s->decl))
		return;
	for (uint32_t k = 0; k < s->decl->nname; k++)
		push(&S->N, (Name){.name = s->decl->name[k].name,
			.order = S->order++, .kind = Nvar, .scope = S->sc.cur,
			.nth = k, .pos = s->pos, .text = s->text});
}

/* The function ends: the second of a name in one scope is the error. */
void
scopeend(Nscope *S, Diag *d)
{
	const Item *t = &S->m->item[S->at];
	Names *N = &S->N;
	Errs E = {0};

	if (N->n > 1)
		qsort(N->v, N->n, sizeof *N->v, byname);
	for (uint32_t i = 1; i < N->n; i++) {
		Name *x = &N->v[i];
		if (x->name != N->v[i - 1].name || x->scope != N->v[i - 1].scope)
			continue;
		/* a parameter: the nth of the name's spellings in the
		 * function's text, whose head comes first */
		uint32_t nth = x->nth;
		if (x->text.off == t->text.off)
			for (uint32_t k = 0; k < i; k++)
				nth += N->v[k].name == x->name
					&& N->v[k].text.off == t->text.off;
		if (x->text.off == t->text.off && t->fn->name == x->name)
			nth++;      /* .func (.param .u32 a) a(...) */
		found(&E, x, nth, "'%s' declared twice in one scope");
		while (i + 1 < N->n && N->v[i + 1].name == x->name
		&& N->v[i + 1].scope == x->scope)
			i++;        /* once a name */
	}
	flush(S->m, d, &E);
}

/* The function a direct call names, or 0 (an indirect call names a
 * register, then its prototype). */
static Str
direct(const Stmt *s)
{
	for (uint32_t k = 0; k < s->nop; k++) {
		if (s->opd[k].kind == Plist)
			continue;
		return s->opd[k].kind == Psym ? s->opd[k].s : 0;
	}
	return 0;
}

/* A direct call: to a .func declared at or before its function. */
static void
scopecall(Nscope *S, Diag *d, const Stmt *s)
{
	Module *m = S->m;
	Str g = direct(s);
	const Func *h = 0;

	if (!g)
		return;
	for (uint32_t k = 0; k <= S->at && !h; k++)
		if (m->item[k].kind == Ifunc && m->item[k].fn->name == g)
			h = m->item[k].fn;
	Name x = {.name = g, .pos = s->pos, .text = s->text};
	if (!h)
		diagat(m, d, "warning", &x, 0, "call to '%s', which no .func "
			"declared before it names: ptxas wants one "
			"(\"requires call prototype\")");
	else if (h->entry)
		diagat(m, d, "warning", &x, 0, "call to '%s', a kernel: "
			"ptxas wants a .func");
}

/* The labels a .debug_str section defines ($L__info_string0:), sorted */
typedef struct Lab { const char *s; uint32_t n; } Lab;

static int
labcmp(const void *a, const void *b)
{
	const Lab *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);

	return c ? c : (x->n > y->n) - (x->n < y->n);
}

static Lab *
strlabels(const Module *m, uint32_t *np)
{
	Lab *v = 0;
	uint32_t n = 0, cap = 0;

	for (uint32_t i = 0; i < m->nitem; i++) {
		const Item *t = &m->item[i];
		const char *s = m->src + t->text.off, *e = s + t->text.len;
		const char *w = s + 8;  /* past ".section" */
		while (w < e && (*w == ' ' || *w == '\t'))
			w++;
		if (t->kind != Isection || e - w < 10
		|| memcmp(w, ".debug_str", 10) || idch(w[10]))
			continue;
		for (const char *p = s; p < e; p++) {
			if (p > s && p[-1] != '\n')
				continue;       /* labels start lines */
			while (p < e && (*p == ' ' || *p == '\t'))
				p++;
			const char *q = p;
			while (q < e && (idch(*q) || *q == '.'))
				q++;
			if (q == p || q >= e || *q != ':')
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = xrealloc(v, cap * sizeof *v);
			}
			v[n++] = (Lab){p, (uint32_t)(q - p)};
		}
	}
	if (n > 1)
		qsort(v, n, sizeof *v, labcmp);
	*np = n;
	return v;
}

/* An inlined .loc's function_name names a label of .debug_str ("label
 * {+ offset}").  ptxas 13.0 reads one that names none, and with -g stops
 * ("Unresolved label '$L__info_string0' used in function_name
 * attribute"): a warning, not repeated on the lines right after that
 * name the same label (nvcc writes runs of them).  check() asks only of
 * a file with an inlined .loc. */
void
fnnames(Module *m, Diag *d)
{
	uint32_t n;
	Lab *v = strlabels(m, &n);
	Str told = 0;

	for (uint32_t i = 0; i < m->nitem; i++) {
		const Func *f = m->item[i].fn;
		if (m->item[i].kind != Ifunc || !f->body)
			continue;
		for (uint32_t k = 0; k < f->nstmt; k++) {
			const Stmt *t = &f->stmt[k];
			if (t->kind != Sloc || !t->ll->fn || t->ll->fn == told)
				continue;
			Lab key = {t->ll->fn, (uint32_t)strcspn(t->ll->fn,
				"+ ")};
			if (n && bsearch(&key, v, n, sizeof *v, labcmp))
				continue;
			told = t->ll->fn;
			diag(d, "warning", t->pos, t->text.off, t->text.len,
				"function_name %.*s names no label of "
				".debug_str: ptxas -g stops at it (\"unresolved "
				"label\")", (int)key.n, key.s);
		}
	}
	free(v);
}
