/* fuzzfront.c: libFuzzer target over the front end.  For any bytes:
 * parse and check must not crash, leak or hang; when the input parses,
 * the lossless writer gives it back byte for byte (trailing NULs
 * included, as emit does), and the canonical text parses without error
 * and is a fixed point of parse + canonical print.  The scanner's fast
 * path and the grammar must build the same IR (irdump), errors or not. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

const char *progname = "fuzzfront";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

static NORETURN void
fail(const char *what, const Buf *a, const char *b, size_t nb)
{
	size_t i = 0;

	while (i < a->n && i < nb && a->p[i] == b[i])
		i++;
	fprintf(stderr, "fuzzfront: %s: first difference at byte %zu of "
		"%zu/%zu\n", what, i, a->n, nb);
	abort();
}

static Module *
quietparse(const char *src, size_t n, Diag *d)
{
	memset(d, 0, sizeof *d);
	d->quiet = 1;
	return parse("fuzz.ptx", src, n, d);
}

static void
samepaths(const char *src, size_t n)
{
	Diag d1 = {0}, d2 = {0};
	Buf a = {0}, b = {0};
	Module *f, *s;

	d1.quiet = d2.quiet = 1;
	f = parseflags("fuzz.ptx", src, n, &d1, 0);
	s = parseflags("fuzz.ptx", src, n, &d2, Pslow);
	if (!f->nerr)
		check(f, &d1);
	if (!s->nerr)
		check(s, &d2);
	/* Valid text: the same IR.  Broken text: both say so; recovery
	 * may differ in what it drops (one token or many). */
	if (!d1.nerr != !d2.nerr) {
		bprintf(&a, "fast path %d errors, grammar %d", d1.nerr,
			d2.nerr);
		fail("fast path and grammar disagree on validity", &a, "", 0);
	}
	if (!d1.nerr) {
		irdump(&a, f);
		irdump(&b, s);
		bprintf(&a, "%d warnings\n", d1.nwarn);
		bprintf(&b, "%d warnings\n", d2.nwarn);
		if (a.n != b.n || memcmp(a.p, b.p, a.n))
			fail("fast path and grammar build different IR", &a,
				b.p, b.n);
	}
	free(a.p);
	free(b.p);
	afree(f->a);
	afree(s->a);
}

static void
canon(Module *m)
{
	Buf c1 = {0}, c2 = {0};
	Diag d;
	Module *r;

	emitcanon(&c1, m);
	r = quietparse(c1.p ? c1.p : "", c1.n, &d);
	if (r->nerr)
		fail("canonical text does not parse", &c1, "", 0);
	emitcanon(&c2, r);
	if (c1.n != c2.n || (c1.n && memcmp(c1.p, c2.p, c1.n)))
		fail("canonical text is not a fixed point", &c2, c1.p, c1.n);
	afree(r->a);
	free(c1.p);
	free(c2.p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	/* the parser takes the bytes as they are: no terminator needed */
	char *src = xmalloc(n);
	Diag d;
	Buf b = {0};

	memcpy(src, data, n);
	Module *m = quietparse(src, n, &d);
	if (!m->nerr) {
		check(m, &d);
		emitlossless(&b, m);
		bput(&b, m->src + m->len, m->rawlen - m->len);
		if (b.n != n || (n && memcmp(b.p, src, n)))
			fail("lossless emit differs from the input", &b, src,
				n);
		canon(m);
	}
	free(b.p);
	afree(m->a);
	samepaths(src, n);
	free(src);
	return 0;
}
