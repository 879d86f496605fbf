/* parse.c: drives the scanner and the grammar and builds the IR.  Every
 * statement keeps its byte span and the trivia before it, so the writer
 * can give the input back byte for byte; registers are resolved against
 * their (possibly nested) declarations once a body is complete. */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "all.h"
#include "parse.h"
#include "ptx.tab.h"

typedef struct yy_buffer_state *YY_BUFFER_STATE;
int ptxlex_init_extra(Lexer *, yyscan_t *);
int ptxlex_destroy(yyscan_t);
YY_BUFFER_STATE ptx_scan_buffer(char *, size_t, yyscan_t);
int ptxparse(Parser *, yyscan_t);

enum { Maxerr = 20 };

/* ---- scanner support ---- */

int
dirword(const char *s, size_t n)
{
	/* lengths beside the words: the scanner asks of every directive
	 * token, and a strlen of each of 26 words had been 1.8 % of a
	 * parse of nvcc's matrix_free */
#define W(x, t) {x, sizeof x - 1, t}
	static const struct { const char *s; size_t n; int t; } w[] = {
		W(".version", VERSION), W(".target", TARGET),
		W(".address_size", ADDRSIZE), W(".file", FILE_),
		W(".loc", LOC), W(".section", SECTION), W(".entry", ENTRY),
		W(".func", FUNC), W(".pragma", PRAGMA),
		W(".callprototype", CALLPROTO), W(".calltargets", CALLTARGETS),
		W(".branchtargets", BRANCHTARGETS), W(".alias", ALIAS),
		/* performance directives of a function header */
		W(".maxntid", PERF), W(".reqntid", PERF),
		W(".minnctapersm", PERF), W(".maxnctapersm", PERF),
		W(".maxnreg", PERF), W(".explicitcluster", PERF),
		W(".reqnctapercluster", PERF), W(".maxclusterrank", PERF),
		W(".blocksareclusters", PERF), W(".noreturn", PERF),
		W(".abi_preserve", PERF), W(".abi_preserve_control", PERF),
		W(".nctapersm", PERF),
	};
#undef W
	for (size_t i = 0; i < countof(w); i++)
		if (w[i].n == n && !memcmp(w[i].s, s, n))
			return w[i].t;
	return DOT;
}

const char *
show(int c)
{
	static char b[8];

	if (isprint(c))
		snprintf(b, sizeof b, "%c", c);
	else
		snprintf(b, sizeof b, "\\x%02x", (unsigned char)c);
	return b;
}

void
lexerr(Lexer *l, const Loc *loc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	Pos p = {loc->first_line, loc->first_column};
	uint32_t len = loc->end > loc->off ? loc->end - loc->off : 1;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (l->P->d->nerr >= Maxerr)
		return;
	if (l->scanner)
		ptxunhold(l->scanner);
	int printable = loc->end > loc->off && loc->end - loc->off < 64;
	for (uint32_t i = loc->off; printable && i < loc->end; i++)
		printable = isgraph((unsigned char)l->P->m->src[i]);
	if (printable && !strstr(msg, "end of file"))
		diag(l->P->d, "error", p, loc->off, len, "%s near '%.*s'", msg,
			(int)len, l->P->m->src + loc->off);
	else
		diag(l->P->d, "error", p, loc->off, len, "%s", msg);
	if (l->P->d->nerr == Maxerr && !l->P->d->quiet)
		fprintf(stderr, "%s: too many errors, stopping\n",
			l->P->d->path);
}

/* ---- small builders ---- */

Str
tokstr(Parser *P, Tok t)
{
	UNUSED(P);
	return intern(t.s, t.n);
}

uint32_t
locnum(Tok t)
{
	/* the usual token, a .loc line's numbers: up to nine decimal
	 * digits, no leading 0 (octal to strtol), summed by hand; strtol
	 * with its locale was 4 % of a parse */
	if (t.n && t.n <= 9 && t.s[0] >= '1' && t.s[0] <= '9') {
		uint32_t v = 0;
		size_t i = 0;
		for (; i < t.n && t.s[i] >= '0' && t.s[i] <= '9'; i++)
			v = 10 * v + (uint32_t)(t.s[i] - '0');
		if (i == t.n)
			return v;
	}
	int64_t v = 0;
	ptxintn(t.s, t.n, &v);  /* 0x, 0b and octal as ptxas reads them */
	return (uint32_t)v;
}

/* t is at most 2^32 - 1, the most ptxas 12.8 and 13.0 take for a .file
 * or .loc number ("Constant overflow" past it): locnum gives it back */
int
isu32(Tok t)
{
	int64_t v;

	return ptxintn(t.s, t.n, &v) && v >= 0 && v <= UINT32_MAX;
}

Str
cat(Parser *P, const char *a, const char *b, const char *c)
{
	size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
	char *p = alloc(P->a, na + nb + nc + 1);

	memcpy(p, a, na);
	memcpy(p + na, b, nb);
	memcpy(p + na + nb, c, nc + 1);
	return p;
}

Str
join(Parser *P, SL l, const char *open, const char *sep, const char *close)
{
	size_t n = strlen(open) + strlen(close) + 1, ns = strlen(sep);
	char *p, *q;

	for (Slist *e = l.h; e; e = e->next)
		n += strlen(e->s) + ns;
	q = p = alloc(P->a, n);
	q = stpcpy(q, open);
	for (Slist *e = l.h; e; e = e->next) {
		if (e != l.h)
			q = stpcpy(q, sep);
		q = stpcpy(q, e->s);
	}
	stpcpy(q, close);
	return p;
}

void
slpush(Parser *P, SL *l, Str s)
{
	Slist *n = alloc(P->a, sizeof *n);

	n->s = s;
	n->next = 0;
	if (l->t)
		l->t->next = n;
	else
		l->h = n;
	l->t = n;
	l->n++;
}

static Str *
slarray(Parser *P, SL l)
{
	Str *v = alloc(P->a, (l.n ? l.n : 1) * sizeof *v);
	uint32_t i = 0;

	for (Slist *n = l.h; n; n = n->next)
		v[i++] = n->s;
	return v;
}

void
olpush(Parser *P, OL *l, Opnd *o)
{
	Onode *e = alloc(P->tmp, sizeof *e);

	e->o = o;
	e->next = 0;
	if (l->t)
		l->t->next = e;
	else
		l->h = e;
	l->t = e;
	l->n++;
}

static Opnd *
olarray(Parser *P, OL l)
{
	Opnd *v = alloc(P->a, (l.n ? l.n : 1) * sizeof *v);
	uint32_t i = 0;

	for (Onode *e = l.h; e; e = e->next)
		v[i++] = *e->o;
	return v;
}

/* An operand of kind and spelling s; a lone "_" is the sink. */
static Opnd *
opinit(Opnd *o, int kind, Str s)
{
	memset(o, 0, sizeof *o);
	if (kind == Psym && s && s[0] == '_' && !s[1])
		kind = Psink;
	o->kind = (uint8_t)kind;
	o->s = s;
	o->reg = -1;
	return o;
}

Opnd *
mkop(Parser *P, int kind, Str s)
{
	return opinit(alloc(P->tmp, sizeof(Opnd)), kind, s);
}

Opnd *
mkagg(Parser *P, int kind, OL l)
{
	Opnd *o = mkop(P, kind, 0);

	o->nsub = l.n;
	o->sub = olarray(P, l);
	return o;
}

Str
numtext(Parser *P, Opnd *o)
{
	return o->minus ? cat(P, "-", o->s, "") : o->s;
}

/* Builds a constant expression operand.  A minus before a literal stays
 * a flag on the literal, so -1 and -0f3F800000 keep their kind; any
 * other form is spelled as text (Pexpr). */
Opnd *
mkexpr(Parser *P, Opnd *a, const char *op, Opnd *b)
{
	if (!a && op[0] == '-' && !b->minus && b->kind != Pexpr) {
		b->minus = 1;
		return b;
	}
	if (!a && op[0] == '(')
		return mkop(P, Pexpr, cat(P, "(", numtext(P, b), ")"));
	if (!a)
		return mkop(P, Pexpr, cat(P, op, numtext(P, b), ""));
	return mkop(P, Pexpr, cat(P, numtext(P, a), op, numtext(P, b)));
}

Dname *
mkdname(Parser *P, Str name, int32_t count, SL dims)
{
	Dname *d = zalloc(P->a, sizeof *d);

	d->name = name;
	d->count = count;
	d->ndim = dims.n;
	d->dim = slarray(P, dims);
	return d;
}

Decl *
mkdecl(Parser *P, SL attr, NL names, Str init)
{
	Decl *d = zalloc(P->a, sizeof *d);
	uint32_t i = 0;

	d->nattr = attr.n;
	d->attr = slarray(P, attr);
	d->nname = names.n;
	d->name = alloc(P->a, (names.n ? names.n : 1) * sizeof *d->name);
	for (Dname *n = names.h; n; n = n->next) {
		d->name[i] = *n;
		d->name[i++].next = 0;
	}
	d->init = init;
	return d;
}

static Decl *
dlarray(Parser *P, DL l)
{
	Decl *v = alloc(P->a, (l.n ? l.n : 1) * sizeof *v);
	uint32_t i = 0;

	for (Decl *d = l.h; d; d = d->next) {
		v[i] = *d;
		v[i++].next = 0;
	}
	return v;
}

/* ---- items ---- */

static Span
span(uint32_t a, uint32_t b)
{
	return (Span){a, b > a ? b - a : 0};
}

Item *
mkitem(Parser *P, int kind, Str s)
{
	Item *i = zalloc(P->a, sizeof *i);

	i->kind = kind;
	i->s = s;
	return i;
}

void
additem(Parser *P, Item *i, const Loc *l)
{
	i->lead = span(P->prevend, l->off);
	i->text = span(l->off, l->end);
	i->pos = (Pos){l->first_line, l->first_column};
	P->prevend = l->end;
	if (P->it)
		P->it->next = i;
	else
		P->ih = i;
	P->it = i;
	P->m->nitem++;
	if (i->kind == Iver) {
		P->m->vmaj = atoi(i->s);
		P->m->vmin = strchr(i->s, '.') ? atoi(strchr(i->s, '.') + 1) : 0;
	}
	if (i->kind == Itarget && !P->m->target)
		P->m->target = i->s;
}

Item *
mkvar(Parser *P, SL attr, NL names, Str init)
{
	Item *i = mkitem(P, Idecl, 0);

	i->decl = mkdecl(P, attr, names, init);
	return i;
}

static Func *
mkfunc(Parser *P, Head *h)
{
	Func *f = zalloc(P->a, sizeof *f);

	f->name = tokstr(P, h->name);
	f->entry = h->entry;
	f->nattr = h->attr.n;
	f->attr = slarray(P, h->attr);
	f->hasret = h->ret.has;
	f->nret = h->ret.n;
	f->ret = dlarray(P, h->ret);
	f->haspar = h->par.has;
	f->npar = h->par.n;
	f->par = dlarray(P, h->par);
	f->nperf = h->perf.n;
	f->perf = alloc(P->a, (h->perf.n ? h->perf.n : 1) * sizeof *f->perf);
	uint32_t k = 0;
	for (Slist *n = h->perf.h; n; n = n->next) {
		const char *sp = strchr(n->s, ' ');
		f->perf[k].name = sp ? intern(n->s, sp - n->s) : n->s;
		f->perf[k++].args = sp ? sp + 1 : 0;
	}
	f->pos = (Pos){h->nameloc.first_line, h->nameloc.first_column};
	return f;
}

/* The head's first byte: the first attribute, or .entry/.func, and its
 * place in *pos.  A head with no attribute starts where an empty rule
 * does, at the end of the token before it: the blanks and comments
 * between are skipped here, counted as the scanner counts them (the
 * item's place had been that token's end: check's names.c put the
 * error for `.func f` on the line above). */
static uint32_t
headstart(Parser *P, const Loc *start, Pos *pos)
{
	const char *s = P->m->src;
	uint32_t o = start->off, n = (uint32_t)P->m->len;

	*pos = (Pos){start->first_line, start->first_column};
	while (o < n) {
		uint32_t e = o;
		if (s[o] == '/' && o + 1 < n && s[o + 1] == '/')
			while (e < n && s[e] != '\n')
				e++;
		else if (s[o] == '/' && o + 1 < n && s[o + 1] == '*') {
			for (e = o + 2; e + 1 < n && !(s[e] == '*'
			&& s[e + 1] == '/'); e++)
				;
			e = e + 2 <= n ? e + 2 : n;
		} else if (isspace((unsigned char)s[o]))
			e = o + 1;
		if (e == o)
			break;
		for (; o < e; o++)
			if (s[o] == '\n')
				pos->line++, pos->col = 1;
			else
				pos->col++;
	}
	return o;
}

void
funcbegin(Parser *P, Head *h, const Loc *start, const Loc *brace)
{
	Func *f = mkfunc(P, h);
	Item *i = mkitem(P, Ifunc, 0);
	uint32_t o = headstart(P, start, &i->pos);

	f->body = 1;
	f->head = span(o, brace->end);
	i->fn = f;
	i->lead = span(P->prevend, o);
	P->prevend = brace->end;
	P->fn = f;
	P->nstmt = 0;
	P->depth = 0;
	if (P->it)
		P->it->next = i;
	else
		P->ih = i;
	P->it = i;
	P->m->nitem++;
}

void
funcend(Parser *P, const Loc *close)
{
	Func *f = P->fn;
	uint32_t k = 0;

	if (!f)
		return;
	f->nstmt = P->nstmt;
	f->stmt = alloc(P->a, (P->nstmt ? P->nstmt : 1) * sizeof *f->stmt);
	for (; k < P->nstmt; k++)
		f->stmt[k] = *P->sv[k];
	f->closelead = span(P->prevend, close->off);
	f->close = span(close->off, close->end);
	P->it->text = span(f->head.off, close->end);
	P->prevend = close->end;
	P->fn = 0;
	/* the statements and operands were copied: drop the originals */
	areset(P->tmp);
	resolve(P->m, f, &P->regmemo);
}

void
funcproto(Parser *P, Head *h, const Loc *start, const Loc *semi)
{
	Func *f = mkfunc(P, h);
	Item *i = mkitem(P, Ifunc, 0);
	uint32_t o = headstart(P, start, &i->pos);

	f->head = span(o, semi->end);
	i->fn = f;
	i->lead = span(P->prevend, o);
	i->text = f->head;
	P->prevend = semi->end;
	if (P->it)
		P->it->next = i;
	else
		P->ih = i;
	P->it = i;
	P->m->nitem++;
}

/* ---- statements ---- */

Stmt *
mkstmt(Parser *P, int kind, Str s)
{
	Stmt *st = zalloc(P->tmp, sizeof *st);

	st->kind = kind;
	st->name = s;
	st->op = Ounknown;
	return st;
}

void
addstmt(Parser *P, Stmt *s, const Loc *l)
{
	if (!P->fn)
		return;
	s->lead = span(P->prevend, l->off);
	s->text = span(l->off, l->end);
	s->pos = (Pos){l->first_line, l->first_column};
	P->prevend = l->end;
	if (P->nstmt == P->capsv) {
		P->capsv = P->capsv ? 2 * P->capsv : 1024;
		P->sv = xrealloc(P->sv, P->capsv * sizeof *P->sv);
	}
	P->sv[P->nstmt++] = s;
}

/* "ld.global.nc.v4.f32" is one word: the longest prefix the table knows
 * is the opcode, each further dotted part a modifier.  A kernel has
 * thousands of instructions but a few hundred distinct words, so each
 * word is split once (P->word) and its statements share the name and
 * the modifier array; nothing changes either afterwards. */
static Word *
splitword(Parser *P, Tok w)
{
	uint32_t h = strhash(w.s, w.n), i;
	size_t base, j, k, n = 0;
	Word *x;

	if (2 * (P->nword + 1) > P->capword) {
		Word *old = P->word;
		uint32_t oc = P->capword;
		P->capword = oc ? 2 * oc : 512;
		P->word = xmalloc(P->capword * sizeof *P->word);
		memset(P->word, 0, P->capword * sizeof *P->word);
		for (i = 0; i < oc; i++) {
			if (!old[i].s)
				continue;
			for (j = old[i].h & (P->capword - 1); P->word[j].s;
				j = (j + 1) & (P->capword - 1))
				;
			P->word[j] = old[i];
		}
		free(old);
	}
	for (i = h & (P->capword - 1); (x = &P->word[i])->s;
		i = (i + 1) & (P->capword - 1))
		if (x->h == h && x->n == w.n && !memcmp(x->s, w.s, w.n))
			return x;
	x->s = w.s;     /* the source text outlives the table (parse) */
	x->n = w.n;
	x->h = h;
	x->op = (uint16_t)oplookup(w.s, w.n, &base);
	x->name = intern(w.s, base);
	for (j = base; j < w.n; j++)
		n += w.s[j] == '.';
	x->nmod = (uint32_t)n;
	x->mod = alloc(P->a, (n ? n : 1) * sizeof *x->mod);
	for (j = base, n = 0; j < w.n; j = k) {
		for (k = j + 1; k < w.n && w.s[k] != '.'; k++)
			;
		x->mod[n++] = intern(w.s + j, k - j);
	}
	P->nword++;
	return x;
}

static Stmt *
insword(Parser *P, Opnd *guard, int gneg, Tok w)
{
	Stmt *s = mkstmt(P, Sins, 0);
	Word *x = splitword(P, w);

	s->op = x->op;
	s->name = x->name;
	s->nmod = x->nmod;
	s->mod = x->mod;
	if (guard) {    /* kept by pointer: out of the temporary arena */
		s->guard = alloc(P->a, sizeof *s->guard);
		*s->guard = *guard;
	}
	s->gneg = (uint8_t)gneg;
	return s;
}

Stmt *
mkins(Parser *P, Opnd *guard, int gneg, Tok w, OL ops)
{
	Stmt *s = insword(P, guard, gneg, w);

	s->nop = ops.n;
	s->opd = olarray(P, ops);
	return s;
}

/* ---- the scanner's fast path ---- */

/* fastins() reads a plain one-line instruction and builds it in one
 * pass, calling the builders the grammar's actions call, in the same
 * way, so either path gives the same IR (tests/front/fastpath.c holds
 * them to that).  What it takes, read greedily (what may follow a
 * piece never begins with a byte the piece could take):
 *
 *   INS   (@!?REGN SP+)? ID MOD* (SP+ OPND (SP* , SP* OPND)*)? SP* ;
 *   OPND  !?SIMP | REGN SP* '|' SP* REGN | -?(INTV|FLTV) | ADDR | VEC
 *   SIMP  REGN(.[xyzw])? | ID          REGN  %ID
 *   ADDR  [ SP* ((REGN|ID)(SP*(+SP*-?|-)SP* INTV)? | INTV) SP* ]
 *   VEC   { SP* SIMP (SP* , SP* SIMP)* SP* }
 *   INTV  (0[xX]HEX+ | 0[bB][01]+ | DIG+)U?
 *   FLTV  0[fF]HEX{8} | 0[dD]HEX{16}
 *   ID    [a-zA-Z_$][a-zA-Z0-9_$]*     MOD  .[a-zA-Z0-9_]+(::[a-zA-Z0-9_]+)*
 *   SP    [ \t]
 *
 * Anything else (a call, an expression, a comment or a newline inside)
 * is not taken: each reader returns 0 and the grammar reads the line.
 * It had been matched first (fastmatch.c's insmatch) and built after,
 * reading each line twice: one pass is 11 % fewer instructions over
 * ocelot's Sort (bench/RESULTS-trust.md, forty-seventh session). */

#define IS(c, k) (fastcls[(unsigned char)(c)] & (k))
#define idch(c) (fastcls[c] & Cid)
#define digit(c) (fastcls[c] & Cdig)

static const char *
skipsp(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A register's name, interned.  A large file's operands are mostly
 * %r123, %rd45, %f6: numbered names of a few prefixes, hundreds of
 * thousands of them, and interning each through the hash table (its
 * front cache too, 64 KB, past L1) was a tenth of the parse of ocelot
 * Sort.  A name made of one of the first Npfx prefixes met, of 2 to 8
 * bytes, and a number below Pfxmax without a leading zero (%r007 is
 * another name than %r7) is looked up in that prefix's array instead,
 * which a function's register numbers walk nearly in order; anything
 * else goes to intern() as it is.  Over Sort: 7.5 % fewer L1 data
 * misses, 3 % more instructions (bench/RESULTS-trust.md). */
static Str
fastreg(Parser *P, const char **pp)     /* %ID */
{
	const char *q = *pp + 1, *d = q;        /* d: the trailing digits */
	uint32_t num = 0, i, lo, hi;
	uint64_t key;
	size_t k;
	Tok t;
	Pfx *x;

	/* one pass: the name's end, where its trailing digits begin and
	 * their value (past 6 digits it is not used) */
	for (;; q++) {
		unsigned c = (unsigned char)*q;
		if (digit(c))
			num = 10 * num + (c - '0');
		else if (idch(c))
			num = 0, d = q + 1;
		else
			break;
	}
	t = (Tok){*pp, (uint32_t)(q - *pp)};
	*pp = q;
	k = (size_t)(d - t.s);
	if (k < 2 || k == t.n || k > 8 || t.n - k > 6
	|| (*d == '0' && t.n - k > 1))
		return intern(t.s, t.n);
	if (num >= Pfxmax)
		return intern(t.s, t.n);
	/* the prefix's k bytes as a word, read in two loads that may
	 * overlap (on equal bytes), not stored byte by byte for a load of
	 * the word to wait on (that stall was most of this function) */
	if (k >= 4) {
		memcpy(&lo, t.s, 4);
		memcpy(&hi, t.s + k - 4, 4);
		key = lo | (uint64_t)hi << 8 * (k - 4);
	} else {        /* 2 or 3: '%' and a letter or two */
		uint16_t w;
		memcpy(&w, t.s, 2);
		key = w | (uint64_t)(unsigned char)t.s[k - 1] << 8 * (k - 1);
	}
	for (i = 0; i < P->npfx && P->pfx[i].k != key; i++)
		;
	if (i == P->npfx) {
		if (i == Npfx)
			return intern(t.s, t.n);
		P->pfx[P->npfx++] = (Pfx){.k = key};
	}
	x = &P->pfx[i];
	if (num >= x->cap) {
		uint32_t cap = x->cap ? x->cap : 256;
		while (cap <= num)
			cap *= 2;
		x->s = xrealloc(x->s, cap * sizeof *x->s);
		memset(x->s + x->cap, 0, (cap - x->cap) * sizeof *x->s);
		x->cap = cap;
	}
	if (!x->s[num])
		x->s[num] = intern(t.s, t.n);
	return x->s[num];
}

/* The fast path builds operands in a local array and copies each
 * array once into the module's arena, at its size. */
typedef struct Obuf { Opnd *v, loc[16]; uint32_t n, cap; } Obuf;

/* a long vector: on the heap; apart, so obnext is inlined */
static NOINLINE void
obgrow(Obuf *b)
{
	Opnd *v = xmalloc(2 * b->cap * sizeof *v);

	memcpy(v, b->v, b->n * sizeof *v);
	if (b->v != b->loc)
		free(b->v);
	b->v = v;
	b->cap *= 2;
}

static Opnd *
obnext(Obuf *b)
{
	if (!b->v)
		b->v = b->loc, b->cap = countof(b->loc);
	if (b->n == b->cap)
		obgrow(b);
	return &b->v[b->n++];
}

static Opnd *
obkeep(Parser *P, Obuf *b)
{
	Opnd *v = alloc(P->a, (b->n ? b->n : 1) * sizeof *v);

	if (b->n)       /* no operands: no buffer either (ret;) */
		memcpy(v, b->v, b->n * sizeof *v);
	if (b->v != b->loc)
		free(b->v);
	return v;
}

/* INTV, or FLTV where flt is not 0 (*flt: which it was): its end, or
 * 0 (fastmatch.c reads the numbers of all the fast paths) */
static const char *
fastnum(const char *p, int *flt)
{
	int x = p[0] == '0' ? p[1] | 32 : 0;

	if (flt)
		*flt = x == 'f' || x == 'd';
	return numberend(p, flt != 0);
}

/* REGN or ID into o, with a component (.x of %tid.x) where comp: the
 * end, or 0 */
static const char *
fastsimple(Parser *P, const char *p, Opnd *o, int comp)
{
	const char *q = p;

	if (*p == '%') {
		if (!IS(p[1], Cidfirst))
			return 0;
		opinit(o, Preg, fastreg(P, &q));
		if (comp && q[0] == '.' && (q[1] == 'x' || q[1] == 'y'
		|| q[1] == 'z' || q[1] == 'w')) {
			o->ext = intern(q, 2);  /* setcomp, inlined */
			q += 2;
		}
		return q;
	}
	if (!IS(*p, Cidfirst))
		return 0;
	while (IS(*++q, Cid))
		;
	opinit(o, Psym, tokstr(P, (Tok){p, (uint32_t)(q - p)}));
	return q;
}

/* [ ... ] from its '[' into o: its end, or 0 */
static const char *
fastaddr(Parser *P, const char *p, Opnd *o, Obuf *sub)
{
	Opnd *b = obnext(sub);
	const char *q;

	p = skipsp(p + 1);
	if (IS(*p, Cdig)) {
		if (!(q = fastnum(p, 0)))
			return 0;
		opinit(b, Pint, tokstr(P, (Tok){p, (uint32_t)(q - p)}));
		p = q;
	} else {
		if (!(p = fastsimple(P, p, b, 0)))
			return 0;
		q = skipsp(p);
		if (*q == '+' || *q == '-') {
			const char *sign = "-";
			if (*q == '+') {
				q = skipsp(q + 1);
				sign = *q == '-' ? "+-" : "+";
			}
			if (*q == '-')
				q++;
			q = skipsp(q);
			if (!(p = fastnum(q, 0)))
				return 0;
			setoffnum(b, sign, q, (size_t)(p - q));
		}
	}
	p = skipsp(p);
	if (*p != ']')
		return 0;
	opinit(o, Paddr, 0);
	return p + 1;
}

/* { SIMP, ... } from its '{' */
static const char *
fastvec(Parser *P, const char *p, Opnd *o, Obuf *sub)
{
	for (p++;;) {
		if (!(p = fastsimple(P, skipsp(p), obnext(sub), 1)))
			return 0;
		p = skipsp(p);
		if (*p == '}')
			break;
		if (*p++ != ',')
			return 0;
	}
	opinit(o, Pvec, 0);
	return p + 1;
}

/* One operand into o: its end, or 0 */
static const char *
fastop(Parser *P, const char *p, Opnd *o)
{
	Obuf sub;               /* not zeroed: 400 bytes a call */
	const char *q;
	int flt, minus = 0;

	sub.v = 0, sub.n = 0;
	switch (*p) {
	case '!':
		if ((q = fastsimple(P, p + 1, o, 1)))
			o->neg = 1;
		return q;
	case '[':
		q = fastaddr(P, p, o, &sub);
		break;
	case '{':
		q = fastvec(P, p, o, &sub);
		break;
	case '%':
		/* built where it stays: a copy of an operand just written
		 * field by field stalls the load that reads it back (store
		 * forwarding), and this is every register operand */
		if (!(q = fastsimple(P, p, o, 1)))
			return 0;
		if (o->ext || *skipsp(q) != '|')
			return q;       /* %p.x|%q: the caller's '|' fails */
		*obnext(&sub) = *o;     /* p|q: rare, copy it */
		if (!(q = fastsimple(P, skipsp(skipsp(q) + 1), obnext(&sub), 0))
		|| sub.v[1].kind != Preg)
			q = 0;
		else
			opinit(o, Ppair, 0);
		break;
	case '-':
		/* -0f...: ptxas's syntax error, which the grammar reports */
		if (p[1] == '0' && (p[2] | 32) == 'f')
			return 0;
		minus = 1;
		/* fall through */
	default:
		if (!IS(p[minus], Cdig))
			return fastsimple(P, p, o, 1);
		if (!(q = fastnum(p + minus, &flt)))
			return 0;
		opinit(o, flt ? Pflt : Pint, tokstr(P, (Tok){p + minus,
			(uint32_t)(q - p - minus)}))->minus = (uint8_t)minus;
		return q;
	}
	if (q) {
		o->nsub = sub.n;
		o->sub = obkeep(P, &sub);
	} else if (sub.v && sub.v != sub.loc)
		free(sub.v);
	return q;
}

/* The instruction that begins at s, built, with *n its length, its ';'
 * included; or 0 where it is not the fast path's.  The text ends in a
 * byte no operand takes (the scanner's buffer ends in NULs). */
Stmt *
fastins(Parser *P, const char *s, size_t *n)
{
	const char *p = s, *q;
	Obuf ops;
	Opnd g;
	int gneg = 0, hasg = 0;
	Tok w;

	if (!fastcls['a'])
		fastclsinit();
	if (*p == '@') {
		gneg = *++p == '!';
		p += gneg;
		if (*p != '%' || !(p = fastsimple(P, p, &g, 0))
		|| !IS(*p, Csp))
			return 0;
		hasg = 1;
		p = skipsp(p);
	}
	w.s = p;
	if (!(p = wordend(p)))
		return 0;
	w.n = (uint32_t)(p - w.s);
	q = skipsp(p);
	ops.v = 0, ops.n = 0;
	if (*q != ';' && q == p)
		return 0;       /* ld.u32%r1: no blank after the word */
	if (*q != ';')
		for (;;) {      /* an operand after each comma */
			if (!(q = fastop(P, q, obnext(&ops))))
				break;
			q = skipsp(q);
			if (*q == ';')
				break;
			q = *q == ',' ? skipsp(q + 1) : 0;
			if (!q)
				break;
		}
	/* longer lines go to the grammar, which counts what the IR's 16
	 * bits hold (all.h's Maxsub): here every operand, element and
	 * modifier takes two bytes at least */
	if (!q || q + 1 - s >= 2 * Maxsub) {
		if (ops.v && ops.v != ops.loc)
			free(ops.v);
		return 0;
	}
	*n = (size_t)(q + 1 - s);
	Stmt *st = insword(P, hasg ? &g : 0, gneg, w);
	st->nop = ops.n;
	st->opd = obkeep(P, &ops);
	P->m->nfast++;
	return st;
}

/* Bytes of w equal to c: the high bit of each, exactly (no borrow
 * between bytes, unlike the shorter trick). */
static uint64_t
eqbytes(uint64_t w, int c)
{
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fu;
	uint64_t x = w ^ (0x0101010101010101u * (uint8_t)c);

	return ~(((x & lo7) + lo7) | x | lo7);
}

/* Is "{...}" (p to end) spelled as fastinit() would spell it: ", "
 * between numbers and no other blank?  So when a byte is a blank just
 * where the byte before it is a comma, and no byte is a tab or a line
 * break.  Eight bytes a step without a branch: these lists are long,
 * and their numbers of any length. */
static int
canonical(const char *p, const char *end)
{
	uint64_t bad = 0, carry = 0, w, c;
	const char *e = end - 1;        /* the '}' */
	int prev;

	for (; p + 8 <= e; p += 8) {
		memcpy(&w, p, 8);
		c = eqbytes(w, ',');
		/* and no byte below ' ' (the matched text's only such
		 * bytes are tabs and line breaks): some byte is below
		 * exactly when this is not zero */
		bad |= ((c << 8 | carry) ^ eqbytes(w, ' '))
			| ((w - 0x2020202020202020u) & ~w & 0x8080808080808080u);
		carry = c >> 56;        /* a comma in the last byte */
	}
	for (prev = carry != 0; p < e; p++) {
		bad |= (*p == ' ') != prev || *p == '\t' || *p == '\r'
			|| *p == '\n';
		prev = *p == ',';
	}
	return !bad && !prev;
}

/* "= {1, 2,\n 3}" as the scanner's INITV matched it: the canonical text
 * join() makes of the grammar's list, "{1, 2, 3}".  The token may span
 * lines; the scanner's line and column are moved past it. */
Str
fastinit(Lexer *lx, Loc *l, const char *s, size_t n)
{
	char *out = alloc(lx->P->a, n + n / 2 + 4), *q = out;
	const char *p = s + 1, *end = s + n, *bol = 0;

	for (const char *c = s; (c = memchr(c, '\n', (size_t)(end - c)));
		c++)
		lx->line++, bol = c + 1;
	if (bol)
		lx->col = (uint32_t)(end - bol) + 1;
	l->last_line = (int)lx->line;
	l->last_column = (int)lx->col;
	/* by a table: 1 blank, 2 comma, 3 closing brace, 0 a number's
	 * byte (the scanner matched only numbers, blanks and commas) */
	static const uint8_t cls[256] = {[' '] = 1, ['\t'] = 1, ['\r'] = 1,
		['\n'] = 1, [','] = 2, ['}'] = 3};
	while (*p != '{')
		p++;
	if (canonical(p, end)) {        /* nvcc's spelling: as it is */
		memcpy(out, p, (size_t)(end - p));
		out[end - p] = 0;
		return out;
	}
	*q++ = '{';
	for (p++;;) {
		uint8_t c = cls[(uint8_t)*p];
		if (c == 1) {
			p++;
		} else if (c == 2) {
			*q++ = ',', *q++ = ' ', p++;
		} else if (c == 3) {
			break;
		} else {
			do
				*q++ = *p++;
			while (!cls[(uint8_t)*p]);
		}
	}
	*q++ = '}';
	*q = 0;
	return out;
}

/* A plain .loc's numbers are shared by the .loc lines that repeat
 * them, as copies of a statement share them (nothing writes a Locl
 * once made): nvcc's 1 MB matrix_free has 9,479 .loc lines and 565
 * places, and each Locl is 32 bytes of the IR.  Remembered in a table
 * indexed by a hash of the three numbers, the last one made there. */
enum { Locbits = 12, Nlocmemo = 1 << Locbits };

static Locl *
plainloc(Parser *P, const uint32_t v[3])
{
	uint32_t h = (v[0] * 0x9e3779b1u ^ v[1]) * 0x85ebca6bu ^ v[2];
	Locl **slot, *ll;

	if (!P->locmemo && !(P->locmemo = calloc(Nlocmemo, sizeof *slot)))
		die("out of memory");
	slot = &P->locmemo[(h * 0xc2b2ae35u) >> (32 - Locbits)];
	if ((ll = *slot) && !memcmp(ll->loc, v, sizeof ll->loc))
		return ll;
	ll = zalloc(P->a, sizeof *ll);  /* outlives the statement */
	memcpy(ll->loc, v, sizeof ll->loc);
	return *slot = ll;
}

/* .pragma "text", ...; in a body (the grammar's and the fast path's) */
Stmt *
mkpragma(Parser *P, SL strs)
{
	Stmt *s = mkstmt(P, Spragma, 0);

	s->decl = mkdecl(P, strs, (NL){0}, 0);
	return s;
}

Stmt *
mkloc(Parser *P, Tok f, Tok l, Tok c, Str fn, const uint32_t *inl)
{
	Stmt *s = mkstmt(P, Sloc, 0);
	uint32_t v[3] = {locnum(f), locnum(l), locnum(c)};
	Locl *ll;

	if (!fn && !inl) {
		s->ll = plainloc(P, v);
		return s;
	}
	ll = zalloc(P->a, sizeof *ll);
	memcpy(ll->loc, v, sizeof ll->loc);
	ll->fn = fn;
	if (inl)
		memcpy(ll->inl, inl, sizeof ll->inl);
	s->ll = ll;
	return s;
}

/* ---- debug sections are kept as canonical text lines ---- */

void
secbegin(Parser *P, Tok name)
{
	if (P->sec)     /* one that a syntax error left unfinished */
		free(P->sec->p);
	else
		P->sec = xmalloc(sizeof *P->sec);
	*P->sec = (Buf){0};
	bputs(P->sec, ".section ");
	bput(P->sec, name.s, name.n);
	bputs(P->sec, "\n{");
}

void
secdir(Parser *P, Str d)
{
	bputs(P->sec, "\n\t");
	bputs(P->sec, d);
}

void
secarg(Parser *P, Str a, int first)
{
	bputs(P->sec, first ? " " : ", ");
	bputs(P->sec, a);
}

void
seclabel(Parser *P, Str l)
{
	bputs(P->sec, "\n");
	bputs(P->sec, l);
	bputs(P->sec, ":");
}

void
secend(Parser *P, const Loc *l)
{
	Item *i = mkitem(P, Isection, 0);

	bputs(P->sec, "\n}");
	i->s = adup(P->a, P->sec->p, P->sec->n);
	free(P->sec->p);
	free(P->sec);
	P->sec = 0;
	additem(P, i, l);
}

/* ---- the driver ---- */

Module *
parse(const char *path, const char *src, size_t n, Diag *d)
{
	return parseflags(path, src, n, d, 0);
}

Module *
parseflags(const char *path, const char *src, size_t n, Diag *d, int flags)
{
	Parser P = {0};
	Module *m;
	yyscan_t sc;
	char *buf;
	size_t len = n, start = 0, k = 0;

	while (len > 0 && src[len - 1] == 0)
		len--;
	if (len >= 3 && !memcmp(src, "\xEF\xBB\xBF", 3))
		start = 3;
	P.a = anew();
	/* what the arena will likely hold: the IR of the large files is
	 * 1.7 to 4.8 times their input (ocelot Sort 4.8, CUTLASS's 11.5 MB
	 * Blackwell FMHA 4.5, the corpus's cutlass GEMMs 1.7-2.1); a chunk
	 * past it is made as it is used, not whole (util.c) */
	P.a->hint = 5 * n;
	P.tmp = anew();
	m = zalloc(P.a, sizeof *m);
	m->a = P.a;
	m->path = path;
	m->src = src;
	m->len = len;
	m->rawlen = n;
	m->bom = start == 3;
	P.m = m;
	P.d = d;
	d->path = path;
	d->src = src;
	d->len = len;
	P.lx = (Lexer){.line = 1, .col = 1, .off = (uint32_t)start, .P = &P,
		.fast = !(flags & Pslow)};
	if (flags & Pinplace)   /* readfile's two NULs end it already */
		buf = (char *)src + start;
	else {
		buf = xmalloc(len - start + 2);
		memcpy(buf, src + start, len - start);
		buf[len - start] = buf[len - start + 1] = 0;
	}
	ptxlex_init_extra(&P.lx, &sc);
	P.lx.scanner = sc;
	ptx_scan_buffer(buf, len - start + 2, sc);
	ptxparse(&P, sc);
	ptxlex_destroy(sc);
	afree(P.tmp);
	regmemofree(P.regmemo);
	free(P.word);
	free(P.locmemo);
	for (uint32_t i = 0; i < P.npfx; i++)
		free(P.pfx[i].s);
	free(P.sv);
	if (P.sec) {    /* a .section the input cut short */
		free(P.sec->p);
		free(P.sec);
	}
	m->item = alloc(P.a, (m->nitem ? m->nitem : 1) * sizeof *m->item);
	for (Item *i = P.ih; i; i = i->next) {
		m->item[k] = *i;
		m->item[k++].next = 0;
	}
	m->nitem = k;
	m->tail = span(P.prevend, len);
	m->nerr = d->nerr;
	/* Names point into the intern table and the arena, never into buf:
	 * it can go now. */
	if (!(flags & Pinplace))
		free(buf);
	return m;
}
