/* fastpath: the scanner's fast paths (a plain one-line instruction, a
 * plain .loc line, a flat initializer list: ptx.l, fastmatch.c) must
 * build exactly the IR the grammar builds from the same text.  Each
 * file is parsed both ways and checked; the IR dumps (irdump.c: every
 * field, spans and positions included) must be equal line for line,
 * and so must the diagnostics' counts.  The fast path must also have
 * been taken: a file with instructions that none reached would prove
 * nothing.
 * usage: fastpath FILE|DIR...   (directories: every .ptx below) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "all.h"

const char *progname = "fastpath";
static int nfile, nbad;
static unsigned long nins, nfast;

static Module *
build(const char *path, const char *src, size_t n, int flags, Buf *b)
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
	fm = build(path, src, n, 0, &fb);
	sm = build(path, src, n, Pslow, &sb);
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
		walk(argv[i]);
	printf("fastpath: %d files, %lu instructions, %lu (%.0f%%) read "
		"whole by the scanner, %d differ\n", nfile, nins, nfast,
		nins ? 100.0 * (double)nfast / (double)nins : 0.0, nbad);
	return nbad ? 1 : nfile ? 0 : 77;
}
