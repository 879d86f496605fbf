/* rewrite.c: the one entry point every caller (ptxpress-ptxas, dump)
 * uses to rewrite PTX.  For now it is the identity: parse, then give
 * the input back losslessly, which proves the front end can read the
 * file.  The opt pipeline replaces the body; the contract stays. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* One report line per kernel, so callers can log what was done even
 * when nothing was. */
static void
reportfuncs(Buf *r, Module *m, const char *pipeline, const char *arch)
{
	for (uint32_t i = 0; i < m->nitem; i++) {
		Func *f = m->item[i].kind == Ifunc ? m->item[i].fn : 0;
		if (!f || !f->entry || !f->body)
			continue;
		bprintf(r, "%s\t%s\t%s\tunchanged\n", f->name, arch,
			pipeline);
	}
}

int
rewrite(const char *path, const char *src, size_t n,
	const char *pipeline, const char *arch, char **out, Buf *report)
{
	Diag d = {0};
	Buf b = {0};
	Module *m;

	*out = 0;
	if (!pipeline)
		pipeline = "identity";
	d.quiet = 1;  /* callers decide how loudly to fall back */
	m = parse(path ? path : "<input>", src, n, &d);
	if (m->nerr || !m->nitem) {
		afree(m->a);
		return -1;
	}
	if (!arch)
		arch = m->target ? m->target : "unknown";
	/* bput keeps the text NUL-terminated; the NULs CuTe DSL dumps end
	 * with are past m->len, not PTX, and are dropped */
	emitlossless(&b, m);
	if (report)
		reportfuncs(report, m, pipeline, arch);
	afree(m->a);
	*out = b.p;
	return 0;
}
