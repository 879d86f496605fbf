/* irdump.c: the IR as text, every field that parsing sets, one line a
 * statement.  Printing (emit.c) shows what PTX means; this shows how it
 * was built, so that two ways of building it can be held to the same
 * result: the scanner's fast path against the grammar
 * (tests/front/fastpath.c and the fuzzer). */
#include "all.h"

static const char *
str(Str s)
{
	return s ? s : "~";
}

static void
opdump(Buf *b, const Opnd *o)
{
	bprintf(b, " (%u%s%s %s %s %s r%d", o->kind, o->neg ? "!" : "",
		o->minus ? "-" : "", str(o->s), str(opcomp(o)), str(opoff(o)),
		o->reg);
	for (uint32_t i = 0; i < o->nsub; i++)
		opdump(b, &o->sub[i]);
	bputs(b, ")");
}

static void
span(Buf *b, const char *what, Span s)
{
	bprintf(b, " %s%u+%u", what, s.off, s.len);
}

static void
decldump(Buf *b, const Decl *d)
{
	bputs(b, " decl");
	for (uint32_t i = 0; i < d->nattr; i++)
		bprintf(b, " %s", d->attr[i]);
	for (uint32_t i = 0; i < d->nname; i++) {
		const Dname *n = &d->name[i];
		bprintf(b, " %s<%d>", str(n->name), n->count);
		for (uint32_t k = 0; k < n->ndim; k++)
			bprintf(b, "[%s]", n->dim[k]);
	}
	bprintf(b, " = %s", str(d->init));
}

static void
stmtdump(Buf *b, const Stmt *s)
{
	bprintf(b, "  s%u op%u %s @%u:%u", s->kind, s->op, str(s->name),
		s->pos.line, s->pos.col);
	span(b, "lead", s->lead);
	span(b, "text", s->text);
	if (s->guard) {
		bputs(b, s->gneg ? " guard!" : " guard");
		opdump(b, s->guard);
	}
	for (uint32_t i = 0; i < s->nmod; i++)
		bprintf(b, " %s", s->mod[i]);
	bprintf(b, " [%u]", s->nop);
	for (uint32_t i = 0; i < s->nop; i++)
		opdump(b, &s->opd[i]);
	if (s->kind == Sloc)
		bprintf(b, " loc %u %u %u %s %u %u %u", s->ll->loc[0],
			s->ll->loc[1], s->ll->loc[2], str(s->ll->fn),
			s->ll->inl[0], s->ll->inl[1], s->ll->inl[2]);
	if ((s->kind == Sdecl || s->kind == Spragma || s->kind == Sdir)
	&& s->decl)
		decldump(b, s->decl);
	bputs(b, "\n");
}

void
irdump(Buf *b, const Module *m)
{
	bprintf(b, "module %zu bytes, %u items, errors %d", m->len, m->nitem,
		m->nerr);
	span(b, "tail", m->tail);
	bputs(b, "\n");
	for (uint32_t i = 0; i < m->nitem; i++) {
		const Item *it = &m->item[i];
		bprintf(b, "item%u %s @%u:%u", it->kind, str(it->s),
			it->pos.line, it->pos.col);
		span(b, "lead", it->lead);
		span(b, "text", it->text);
		if (it->decl)
			decldump(b, it->decl);
		bputs(b, "\n");
		if (!it->fn)
			continue;
		const Func *f = it->fn;
		bprintf(b, " func %s %u stmts %u regs", f->name, f->nstmt,
			f->nreg);
		span(b, "close", f->close);
		bputs(b, "\n");
		for (uint32_t k = 0; k < f->nstmt; k++)
			stmtdump(b, &f->stmt[k]);
	}
}
