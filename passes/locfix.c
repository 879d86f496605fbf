/* locfix.c: keeps a reordered body's .loc lines acceptable to ptxas.
 *
 * needs:  nothing
 * breaks: statement count (.loc lines are inserted)
 * paper:  none; ptxas's rule, "Source location F L C used in
 *         inlined_at directive must be used in a preceding .loc
 *         directive".
 *
 * nvcc -lineinfo marks inlined code `.loc F L C, function_name X,
 * inlined_at F2 L2 C2`, and ptxas wants F2 L2 C2 to have been the
 * location of an earlier .loc line.  The schedulers carry each .loc
 * with the statement after it, so a rewrite can put such a line before
 * the one it leans on, and ptxas then rejects the whole file (the H200
 * run of forced pipelines on our kernels, bench/RESULTS.md, seventh
 * session).  Where that happens, a `.loc F2 L2 C2` goes right before
 * the line: it describes no instruction (the next line takes over at
 * once), so the line table keeps every row it had, and the validator
 * takes it for what it is, a .loc followed by a .loc. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* The locations seen so far: an open-addressing set of triples (a big
 * kernel's body names thousands of places, each looked up per .loc). */
typedef struct Seen { uint32_t (*k)[3]; uint8_t *used; uint32_t n, cap; } Seen;

static uint32_t
slot(const Seen *s, const uint32_t *k)
{
	uint32_t h = (uint32_t)k[0] * 0x9e3779b1u ^ (uint32_t)k[1] * 0x85ebca6bu
		^ (uint32_t)k[2] * 0xc2b2ae35u, i;

	for (i = h & (s->cap - 1); s->used[i]; i = (i + 1) & (s->cap - 1))
		if (!memcmp(s->k[i], k, sizeof s->k[i]))
			break;
	return i;
}

static int
seen(const Seen *s, const uint32_t *k)
{
	return s->cap && s->used[slot(s, k)];
}

static void
add(Seen *s, const uint32_t *k)
{
	if (2 * (s->n + 1) > s->cap) {          /* grow, rehash */
		Seen t = {0, 0, 0, s->cap ? 2 * s->cap : 256};
		t.k = xmalloc(t.cap * sizeof *t.k);
		t.used = calloc(t.cap, 1);
		if (!t.used)
			die("out of memory");
		for (uint32_t i = 0; i < s->cap; i++)
			if (s->used[i])
				add(&t, s->k[i]);
		free(s->k);
		free(s->used);
		*s = t;
	}
	uint32_t i = slot(s, k);
	if (!s->used[i]) {
		memcpy(s->k[i], k, sizeof s->k[i]);
		s->used[i] = 1;
		s->n++;
	}
}

static int
inlined(const Stmt *s)
{
	return s->kind == Sloc && s->ll->fn && (s->ll->inl[0] || s->ll->inl[1]);
}

/* A .loc at inl, printed from the IR, before (and like) s. */
static Stmt
filler(Module *m, const Stmt *s)
{
	Stmt x = *s;
	Locl *l = alloc(m->a, sizeof *l);

	memset(l, 0, sizeof *l);
	memcpy(l->loc, s->ll->inl, sizeof l->loc);
	x.ll = l;
	x.name = 0;
	x.dirty = 1;
	x.lead = (Span){0, 0};
	return x;
}

uint32_t
locfix(Module *m, Func *f)
{
	Seen s = {0};
	uint32_t need = 0;

	for (int pass = 0; pass < 2; pass++) {  /* count, then insert */
		Stmt *v = pass ? alloc(m->a, (f->nstmt + need) * sizeof *v) : 0;
		uint32_t k = 0;
		free(s.k);
		free(s.used);
		s = (Seen){0};
		for (uint32_t i = 0; i < f->nstmt; i++) {
			Stmt *t = &f->stmt[i];
			if (inlined(t) && !seen(&s, t->ll->inl)) {
				add(&s, t->ll->inl);
				if (pass)
					v[k++] = filler(m, t);
				else
					need++;
			}
			if (t->kind == Sloc)
				add(&s, t->ll->loc);
			if (pass)
				v[k++] = *t;
		}
		if (!need)
			break;
		if (pass) {
			f->stmt = v;
			f->nstmt = k;
			f->dirty = 1;
		}
	}
	free(s.k);
	free(s.used);
	return need;
}

/* check's side of the same rule, over the file as ptxas reads it (a
 * place an earlier function names counts): an error at each inlined
 * .loc whose call site no .loc before it has named.  A rewrite cannot
 * mend such an input, and ptxas rejects it anyway.  check() calls it
 * only for a file with an inlined .loc (most have none: no set then). */
int
locorder(Module *m, Diag *d)
{
	Seen s = {0};
	int n = 0;

	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].fn;
		if (m->item[i].kind != Ifunc || !f->body)
			continue;
		for (uint32_t k = 0; k < f->nstmt; k++) {
			Stmt *t = &f->stmt[k];
			if (inlined(t) && !seen(&s, t->ll->inl)) {
				diag(d, "error", t->pos, t->text.off, t->text.len,
					"inlined_at %u %u %u names no place an "
					"earlier .loc has", t->ll->inl[0],
					t->ll->inl[1], t->ll->inl[2]);
				n++;
			}
			if (t->kind == Sloc)
				add(&s, t->ll->loc);
		}
	}
	free(s.k);
	free(s.used);
	return n;
}
