/* fastpath: the scanner's fast paths (a plain one-line instruction, a
 * plain .loc line, a flat initializer list: ptx.l, fastmatch.c) must
 * build exactly the IR the grammar builds from the same text.  Each
 * file is parsed both ways and checked; the IR dumps (irdump.c: every
 * field, spans and positions included) must be equal line for line,
 * and so must the diagnostics' counts.  The fast path must also have
 * been taken: a file with instructions that none reached would prove
 * nothing.
 * With -d, each file of up to 64 KiB is also read with one ';' dropped,
 * for each ';' in turn (at most 400 of them, spread over the file): a
 * statement whose ';' is missing is where the scanner's idea of a
 * statement's end is put to the test (the fast path once took a
 * vector's '}' for one: bench/RESULTS-trust.md, fo69).  There the fast
 * path and the grammar must agree on whether the text is valid, on its
 * IR when it is, and on where the first error is when it is not (until
 * then both have read the same statements).  That last holds for these
 * texts, not for any bytes: the front-end fuzzer found benign
 * differences (a whole-line INS token refused at its start where the
 * grammar reads a few tokens on; a .loc's bad function_name, which the
 * grammar reports one token before the fast path's syntax error), so
 * fuzzfront asks for agreement on validity alone.
 * usage: fastpath [-d] FILE|DIR...   (directories: every .ptx below) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "all.h"

const char *progname = "fastpath";
static int nfile, nbad, drop;
static unsigned long nins, nfast, nmut;

/* Parses and checks src, dumps the IR into b and, when first is given,
 * says where the first error is. */
static Module *
build(const char *path, const char *src, size_t n, int flags, Buf *b,
	Pos *first)
{
	Diag d = {0};
	Module *m;

	d.quiet = 1;
	m = parseflags(path, src, n, &d, flags);
	if (!m->nerr)
		check(m, &d);
	m->nerr = d.nerr;
	irdump(b, m);
	bprintf(b, "diagnostics %d errors %d warnings\n", d.nerr, d.nwarn);
	if (first)
		*first = d.first;
	return m;
}

static void
difference(const char *path, const Buf *a, const Buf *b)
{
	size_t i = 0, line = 1, bol = 0;

	while (i < a->n && i < b->n && a->p[i] == b->p[i]) {
		if (a->p[i] == '\n')
			line++, bol = i + 1;
		i++;
	}
	fprintf(stderr, "FAIL %s: IR differs at dump line %zu\n"
		"  fast: %.*s\n  slow: %.*s\n", path, line,
		(int)strcspn(a->p + bol, "\n"), a->p + bol,
		(int)strcspn(b->p + bol, "\n"), b->p + bol);
}

/* The text with its k-th byte left out, parsed both ways. */
static void
dropone(const char *path, const char *src, size_t n, size_t k, char *t)
{
	Buf fb = {0}, sb = {0};
	Module *fm, *sm;
	Pos ff, first;
	size_t line = 1;

	memcpy(t, src, k);
	memcpy(t + k, src + k + 1, n - k - 1);
	t[n - 1] = t[n] = 0;
	fm = build(path, t, n - 1, 0, &fb, &ff);
	sm = build(path, t, n - 1, Pslow, &sb, &first);
	for (size_t i = 0; i < k; i++)
		line += src[i] == '\n';
	if (!fm->nerr != !sm->nerr || (fm->nerr && (ff.line != first.line
	|| ff.col != first.col))) {
		fprintf(stderr, "FAIL %s: without the ';' of line %zu, the fast "
			"path finds %d errors, the first at %u:%u, the grammar "
			"%d, at %u:%u\n", path, line, fm->nerr, ff.line, ff.col,
			sm->nerr, first.line, first.col);
		nbad++;
	} else if (!fm->nerr && (fb.n != sb.n || memcmp(fb.p, sb.p, fb.n))) {
		fprintf(stderr, "FAIL %s: without the ';' of line %zu:\n",
			path, line);
		difference(path, &fb, &sb);
		nbad++;
	}
	nmut++;
	free(fb.p);
	free(sb.p);
	unload(fm, 0);
	unload(sm, 0);
}

static void
drops(const char *path, const char *src, size_t n)
{
	size_t nsemi = 0, seen = 0, step;
	char *t;

	if (n > 65536)
		return;
	for (size_t i = 0; i < n; i++)
		nsemi += src[i] == ';';
	step = nsemi > 400 ? nsemi / 400 + 1 : 1;
	t = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		if (src[i] == ';' && seen++ % step == 0)
			dropone(path, src, n, i, t);
	free(t);
}

static void
one(const char *path)
{
	size_t n;
	char *src = readfile(path, &n);
	Buf fb = {0}, sb = {0};
	Module *fm, *sm;
	unsigned long ins = 0;

	if (!src) {
		fprintf(stderr, "FAIL %s: cannot read\n", path);
		nbad++;
		return;
	}
	nfile++;
	fm = build(path, src, n, 0, &fb, 0);
	sm = build(path, src, n, Pslow, &sb, 0);
	for (uint32_t i = 0; i < sm->nitem; i++)
		for (uint32_t k = 0; sm->item[i].fn && k < sm->item[i].fn->nstmt;
			k++)
			ins += sm->item[i].fn->stmt[k].kind == Sins;
	if (sm->nfast) {
		fprintf(stderr, "FAIL %s: the slow parse took the fast path\n",
			path);
		nbad++;
	} else if (fb.n != sb.n || memcmp(fb.p, sb.p, fb.n)) {
		difference(path, &fb, &sb);
		nbad++;
	} else if (ins > 8 && !fm->nfast) {
		fprintf(stderr, "FAIL %s: %lu instructions, none took the "
			"fast path\n", path, ins);
		nbad++;
	}
	nins += ins;
	nfast += fm->nfast;
	if (drop)
		drops(path, src, n);
	free(fb.p);
	free(sb.p);
	unload(fm, 0);
	unload(sm, src);
}

static int
isptx(const char *s)
{
	size_t n = strlen(s);

	return n > 4 && !strcmp(s + n - 4, ".ptx");
}

static void
walk(const char *path)
{
	struct stat st;

	if (stat(path, &st)) {  /* ../shared may be absent: skip */
		fprintf(stderr, "note: %s: not there\n", path);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		one(path);
		return;
	}
	struct dirent **ent;
	int k = scandir(path, &ent, 0, alphasort);
	for (int i = 0; i < k; i++) {
		char sub[4096];
		const char *e = ent[i]->d_name;
		if (e[0] != '.') {
			snprintf(sub, sizeof sub, "%s/%s", path, e);
			if (isptx(e) || (!stat(sub, &st) && S_ISDIR(st.st_mode)))
				walk(sub);
		}
		free(ent[i]);
	}
	free(ent);
}

int
main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-d"))
			drop = 1;
		else
			walk(argv[i]);
	printf("fastpath: %d files, %lu instructions, %lu (%.0f%%) read "
		"whole by the scanner, %lu texts with a ';' dropped, %d "
		"differ\n", nfile, nins, nfast,
		nins ? 100.0 * (double)nfast / (double)nins : 0.0, nmut, nbad);
	return nbad ? 1 : nfile ? 0 : 77;
}
