/* emit.c: the two writers.  The lossless one gives the source back: each
 * statement as its own bytes with the trivia before it, in the order
 * the IR now has them, and a statement a pass changed printed from the
 * IR.  The canonical one prints everything from the IR alone. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* A Buf with an Out streams: what it holds is written out when full,
 * so a large output never sits in memory whole. */
void
bput(Buf *b, const char *s, size_t n)
{
	if (b->out && b->n + n + 1 > b->cap) {
		bflush(b);
		if (n + 1 > b->cap) {
			outwrite(b->out, s, n);
			return;
		}
	}
	if (b->n + n + 1 > b->cap) {
		b->cap = b->cap ? b->cap : 4096;
		while (b->n + n + 1 > b->cap)
			b->cap *= 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

void
bflush(Buf *b)
{
	if (b->out && b->n)
		outwrite(b->out, b->p, b->n);
	b->n = 0;
}

void
bputs(Buf *b, const char *s)
{
	bput(b, s, strlen(s));
}

void
bprintf(Buf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < (int)sizeof tmp) {
		bput(b, tmp, (size_t)n);
		return;
	}
	char *p = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	bput(b, p, (size_t)n);
	free(p);
}

static void
bspan(Buf *b, Module *m, Span s)
{
	bput(b, m->src + s.off, s.len);
}

/* ---- printing from the IR ---- */

/* A decimal integer without printf: the validator prints every
 * statement it compares, .loc lines included, so this is hot. */
static void
bint(Buf *b, long v)
{
	char t[24], *p = t + sizeof t;
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;

	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	bput(b, p, (size_t)(t + sizeof t - p));
}

void
printop(Buf *b, Opnd *o)
{
	uint32_t i;

	if (o->neg)
		bputs(b, "!");
	if (o->minus)
		bputs(b, "-");
	switch (o->kind) {
	case Paddr:
		bputs(b, "[");
		for (i = 0; i < o->nsub; i++) {
			if (i)
				bputs(b, ", ");
			printop(b, &o->sub[i]);
		}
		bputs(b, "]");
		return;
	case Pvec:
	case Plist:
		bputs(b, o->kind == Pvec ? "{" : "(");
		for (i = 0; i < o->nsub; i++) {
			if (i)
				bputs(b, ", ");
			printop(b, &o->sub[i]);
		}
		bputs(b, o->kind == Pvec ? "}" : ")");
		return;
	case Ppair:
		printop(b, &o->sub[0]);
		bputs(b, "|");
		printop(b, &o->sub[1]);
		return;
	default:
		bputs(b, o->s);
		if (o->ext)     /* a leaf's .x, +8 or both */
			bputs(b, o->ext);
	}
}

static void
printdname(Buf *b, Dname *n)
{
	bputs(b, n->name);
	if (n->count >= 0)
		bprintf(b, "<%d>", n->count);
	for (uint32_t k = 0; k < n->ndim; k++)
		bprintf(b, "[%s]", n->dim[k]);
}

static void
printdecl(Buf *b, Decl *d, int semi)
{
	for (uint32_t i = 0; i < d->nattr; i++) {
		bputs(b, d->attr[i]);
		bputs(b, " ");
	}
	for (uint32_t i = 0; i < d->nname; i++) {
		if (i)
			bputs(b, ", ");
		printdname(b, &d->name[i]);
	}
	if (d->init) {
		bputs(b, " = ");
		bputs(b, d->init);
	}
	if (semi)
		bputs(b, ";");
}

/* Token lists (.pragma strings, .callprototype bodies) are kept in the
 * attribute array of a Decl. */
static void
printtoks(Buf *b, Decl *d, const char *sep)
{
	for (uint32_t i = 0; i < d->nattr; i++) {
		if (i)
			bputs(b, sep);
		bputs(b, d->attr[i]);
	}
}

void
printstmt(Buf *b, Func *f, Stmt *s)
{
	UNUSED(f);
	switch (s->kind) {
	case Sins:
		if (s->guard) {
			bputs(b, s->gneg ? "@!" : "@");
			printop(b, s->guard);
			bputs(b, " ");
		}
		bputs(b, s->name);
		for (uint32_t i = 0; i < s->nmod; i++)
			bputs(b, s->mod[i]);
		for (uint32_t i = 0; i < s->nop; i++) {
			bputs(b, i ? ", " : " ");
			printop(b, &s->opd[i]);
		}
		bputs(b, ";");
		break;
	case Slabel:
		bputs(b, s->name);
		bputs(b, ":");
		break;
	case Sloc:
		bputs(b, ".loc");
		for (int k = 0; k < 3; k++) {
			bputs(b, " ");
			bint(b, s->ll->loc[k]);
		}
		if (s->ll->fn) {
			bputs(b, ", function_name ");
			bputs(b, s->ll->fn);
		}
		if (s->ll->fn) {        /* inlined_at comes with it */
			bputs(b, ", inlined_at");
			for (int k = 0; k < 3; k++) {
				bputs(b, " ");
				bint(b, s->ll->inl[k]);
			}
		}
		break;
	case Sdecl:
		printdecl(b, s->decl, 1);
		break;
	case Spragma:
		bputs(b, ".pragma ");
		printtoks(b, s->decl, ", ");
		bputs(b, ";");
		break;
	case Sdir:
		bputs(b, s->name);
		bputs(b, " ");
		printtoks(b, s->decl, " ");
		bputs(b, ";");
		break;
	case Sopen:
		bputs(b, "{");
		break;
	case Sclose:
		bputs(b, "}");
		break;
	}
}

static void
printparams(Buf *b, Decl *d, uint32_t n)
{
	bputs(b, "(");
	for (uint32_t i = 0; i < n; i++) {
		bputs(b, i ? ",\n\t" : "\n\t");
		printdecl(b, &d[i], 0);
	}
	bputs(b, n ? "\n)" : ")");
}

static void
printhead(Buf *b, Func *f)
{
	for (uint32_t i = 0; i < f->nattr; i++) {
		bputs(b, f->attr[i]);
		bputs(b, " ");
	}
	bputs(b, f->entry ? ".entry " : ".func ");
	if (f->hasret) {
		printparams(b, f->ret, f->nret);
		bputs(b, " ");
	}
	bputs(b, f->name);
	if (f->haspar)
		printparams(b, f->par, f->npar);
	for (uint32_t i = 0; i < f->nperf; i++) {
		bprintf(b, "\n%s", f->perf[i].name);
		if (f->perf[i].args)
			bprintf(b, " %s", f->perf[i].args);
	}
}

static void
canonfunc(Buf *b, Func *f)
{
	int depth = 1;

	printhead(b, f);
	if (!f->body) {
		bputs(b, ";");
		return;
	}
	bputs(b, "\n{\n");
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->kind == Sclose)
			depth--;
		for (int k = 0; k < depth; k++)
			bputs(b, s->kind == Slabel && k == depth - 1 ? "" : "\t");
		printstmt(b, f, s);
		bputs(b, "\n");
		if (s->kind == Sopen)
			depth++;
	}
	bputs(b, "}");
}

/* One module-level item, without the line break after it. */
void
printitem(Buf *b, Item *it)
{
	switch (it->kind) {
	case Iver:
		bprintf(b, ".version %s", it->s);
		break;
	case Itarget:
		bputs(b, ".target ");
		printtoks(b, it->decl, ", ");
		break;
	case Iaddr:
		bprintf(b, ".address_size %s", it->s);
		break;
	case Ifile:
		bprintf(b, ".file %s", it->s);
		break;
	case Idecl:
		printdecl(b, it->decl, 1);
		break;
	case Ifunc:
		canonfunc(b, it->fn);
		break;
	case Isection:
		bputs(b, it->s);
		break;
	case Ipragma:
		bputs(b, ".pragma ");
		printtoks(b, it->decl, ", ");
		bputs(b, ";");
		break;
	case Ialias:
		bprintf(b, ".alias %s;", it->s);
		break;
	}
}

void
emitcanon(Buf *b, Module *m)
{
	for (uint32_t i = 0; i < m->nitem; i++) {
		if (m->item[i].kind == Ifunc)
			bputs(b, "\n");
		printitem(b, &m->item[i]);
		bputs(b, "\n");
	}
}

/* ---- the lossless writer ---- */

/* Does the function print as its own source bytes?  Yes when every
 * statement would print its source text and the pieces are the
 * source's, one after another, with nothing removed or moved: then one
 * copy does what the loop below would do piece by piece. */
static int
untouched(Func *f)
{
	uint32_t at = f->head.off + f->head.len;

	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->dirty || !s->text.len || s->lead.off != at
		|| s->text.off != at + s->lead.len)
			return 0;
		at = s->text.off + s->text.len;
	}
	return f->closelead.off == at
		&& f->close.off == at + f->closelead.len;
}

static void
losslessfunc(Buf *b, Module *m, Func *f)
{
	if (f->body && untouched(f)) {
		bput(b, m->src + f->head.off, f->close.off + f->close.len
			- f->head.off);
		return;
	}
	bspan(b, m, f->head);
	if (!f->body)
		return;
	for (uint32_t i = 0; i < f->nstmt; i++) {
		Stmt *s = &f->stmt[i];
		if (s->lead.len)
			bspan(b, m, s->lead);
		else if (s->dirty)
			bputs(b, "\n\t");
		if (s->dirty || !s->text.len)
			printstmt(b, f, s);
		else
			bspan(b, m, s->text);
	}
	bspan(b, m, f->closelead);
	bspan(b, m, f->close);
}

void
emitlossless(Buf *b, Module *m)
{
	emitkernel(b, m, 0);
}

/* emitlossless, with every kernel but the one named left out (the
 * search's budget round asks ptxas of one kernel alone); all of them
 * when name is 0. */
void
emitkernel(Buf *b, Module *m, Str name)
{
	for (uint32_t i = 0; i < m->nitem; i++) {
		Item *it = &m->item[i];
		if (name && it->kind == Ifunc && it->fn->entry && it->fn->body
		&& strcmp(it->fn->name, name))
			continue;
		bspan(b, m, it->lead);
		if (it->dirty)
			printitem(b, it);
		else if (it->kind == Ifunc)
			losslessfunc(b, m, it->fn);
		else
			bspan(b, m, it->text);
	}
	bspan(b, m, m->tail);
}
