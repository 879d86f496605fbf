/* fuzzfront.c: libFuzzer target over the front end.  For any bytes:
 * parse and check must not crash, leak or hang; when the input parses,
 * the lossless writer gives it back byte for byte (trailing NULs
 * included, as emit does), and the canonical text parses without error
 * and is a fixed point of parse + canonical print. */
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
	free(src);
	return 0;
}
