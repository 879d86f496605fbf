/* linemut.c: the opt fuzzer's oracle (tools/fuzz/oracle.h) over the
 * test kernels with whole lines moved about.  libFuzzer flips bytes,
 * and most of what it makes does not parse; moving lines (delete, swap,
 * repeat, bring one from another test, renumber a register) keeps a
 * kernel readable and still puts statements where no pass expected
 * them: in its first minutes on this session's tree it found a dozen
 * disagreements the byte fuzzer had not (bench/RESULTS-trust.md).
 *
 * usage: linemut [-n RUNS] [-s SEED] [-o DIR] FILE...
 *        linemut -r PIPELINE:SEED FILE      (the oracle once)
 * Each run takes one file, 1-5 mutations and one pipeline of oracle.h's
 * with a seed, all from a generator seeded by SEED: the same arguments
 * make the same runs.  A disagreement is printed, written to
 * DIR/linemut-<run>.ptx when -o is given (with the pipeline and seed
 * in a comment on its first line), and makes the exit status 1. */
#include <stdio.h>
#include "oracle.h"

const char *progname = "linemut";

typedef struct Text { char **l; uint32_t n, cap; } Text;

static uint64_t state;

static uint32_t
rnd(uint32_t n)         /* xorshift64*, then 0 .. n-1 */
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return n ? (uint32_t)((state * 2685821657736338717u) >> 33) % n : 0;
}

static void
push(Text *t, char *s)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->l = xrealloc(t->l, t->cap * sizeof *t->l);
	}
	t->l[t->n++] = s;
}

/* A statement line of a body, not a declaration: what may move. */
static int
body(const char *s)
{
	return s[0] == '\t' && strncmp(s, "\t.reg", 5)
		&& strncmp(s, "\t.param", 7) && strncmp(s, "\t.local", 7)
		&& strncmp(s, "\t.shared", 8);
}

static void
split(const char *p, size_t n, Text *t)
{
	for (size_t i = 0; i <= n;) {
		size_t j = i;
		while (j < n && p[j] != '\n')
			j++;
		char *s = xmalloc(j - i + 1);
		memcpy(s, p + i, j - i);
		s[j - i] = 0;
		push(t, s);
		i = j + 1;
	}
}

/* %r12 in s becomes %r<0..40>: a fresh string. */
static char *
renumber(const char *s)
{
	const char *at[32];
	uint32_t n = 0;

	for (const char *p = s; *p && n < 32; p++)
		if (p[0] == '%' && p[1] >= 'a' && p[1] <= 'z') {
			const char *q = p + 1;
			while (*q >= 'a' && *q <= 'z')
				q++;
			if (*q >= '0' && *q <= '9')
				at[n++] = q;
		}
	if (!n)
		return 0;
	const char *d = at[rnd(n)], *e = d;
	while (*e >= '0' && *e <= '9')
		e++;
	char num[16];
	int k = snprintf(num, sizeof num, "%u", rnd(41));
	size_t len = strlen(s) - (size_t)(e - d) + (size_t)k;
	char *r = xmalloc(len + 1);
	memcpy(r, s, (size_t)(d - s));
	memcpy(r + (d - s), num, (size_t)k);
	strcpy(r + (d - s) + k, e);
	return r;
}

/* One mutant of f: 1-5 line moves; fresh strings go to own. */
static void
mutate(const Text *f, const Text *pool, Text *m, Text *own)
{
	m->n = 0;
	for (uint32_t i = 0; i < f->n; i++)
		push(m, f->l[i]);
	for (uint32_t k = 1 + rnd(5); k--;) {
		uint32_t nb = 0, *b = xmalloc((m->n + 1) * sizeof *b);
		for (uint32_t i = 0; i < m->n; i++)
			if (body(m->l[i]))
				b[nb++] = i;
		if (!nb) {
			free(b);
			return;
		}
		uint32_t i = b[rnd(nb)], j = b[rnd(nb)], how = rnd(5);
		char *x;
		if (how == 0)
			m->l[i] = "";
		else if (how == 1)
			x = m->l[i], m->l[i] = m->l[j], m->l[j] = x;
		else if (how <= 3) {    /* repeat one, or bring one in */
			push(m, 0);
			memmove(&m->l[i + 1], &m->l[i],
				(m->n - 1 - i) * sizeof *m->l);
			m->l[i] = how == 2 ? m->l[j + (j >= i)]
				: pool->l[rnd(pool->n)];
		} else if ((x = renumber(m->l[i])))
			push(own, x), m->l[i] = x;
		free(b);
	}
}

/* -r: the oracle once on a file as it is (a disagreement reduced by
 * hand or by a script): 1 when pass and validator disagree. */
static int
again(const char *arg, const char *path)
{
	const char *c = strrchr(arg, ':');
	size_t n = 0;
	char *src = readfile(path, &n), pipe[512];
	Buf why = {0};

	if (!src || !c || (size_t)(c - arg) >= sizeof pipe) {
		fprintf(stderr, "linemut: -r PIPELINE:SEED FILE\n");
		return 2;
	}
	memcpy(pipe, arg, (size_t)(c - arg));
	pipe[c - arg] = 0;
	int rc = oracle(src, n, pipe, strtoull(c + 1, 0, 10), &why);
	if (rc > 0)
		fputs(why.p, stdout);
	else
		printf("linemut: %s\n", rc ? "not clean input" : "proven");
	free(why.p);
	freefile(src);
	return rc > 0;
}

int
main(int argc, char **argv)
{
	uint32_t runs = 2000, bad = 0, nf = 0;
	const char *out = 0, *replay = 0;
	Text *file, pool = {0};
	int i = 1;

	state = 0x9e3779b97f4a7c15u;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (i + 1 >= argc)
			break;
		if (!strcmp(argv[i], "-n"))
			runs = (uint32_t)strtoul(argv[++i], 0, 10);
		else if (!strcmp(argv[i], "-s"))
			state ^= strtoull(argv[++i], 0, 10) * 0xbf58476d1ce4e5b9u;
		else if (!strcmp(argv[i], "-o"))
			out = argv[++i];
		else if (!strcmp(argv[i], "-r"))
			replay = argv[++i];
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: linemut [-n RUNS] [-s SEED] "
			"[-o DIR] FILE...\n       linemut -r PIPELINE:SEED "
			"FILE\n");
		return 2;
	}
	if (replay)
		return again(replay, argv[i]);
	file = xmalloc((size_t)argc * sizeof *file);
	for (; i < argc; i++) {
		size_t n = 0;
		char *src = readfile(argv[i], &n);
		if (!src) {
			fprintf(stderr, "linemut: cannot read %s\n", argv[i]);
			return 2;
		}
		file[nf] = (Text){0};
		split(src, n, &file[nf]);
		freefile(src);
		for (uint32_t k = 0; k < file[nf].n; k++)
			if (body(file[nf].l[k]))
				push(&pool, file[nf].l[k]);
		nf++;
	}
	Text m = {0}, own = {0};
	Buf src = {0}, why = {0};
	for (uint32_t r = 0; r < runs; r++) {
		mutate(&file[rnd(nf)], &pool, &m, &own);
		const char *pipe = pipes[rnd(countof(pipes))];
		uint64_t seed = rnd(1000);
		src.n = why.n = 0;
		for (uint32_t k = 0; k < m.n; k++) {
			bputs(&src, m.l[k]);
			if (k + 1 < m.n)
				bputs(&src, "\n");
		}
		if (oracle(src.p ? src.p : "", src.n, pipe, seed, &why) > 0) {
			bad++;
			char *nl = strchr(why.p, '\n');
			fprintf(stderr, "linemut: run %u, seed %llu: %.*s\n", r,
				(unsigned long long)seed, nl ? (int)(nl - why.p)
				: (int)why.n, why.p);
			if (out) {
				char path[4096];
				snprintf(path, sizeof path, "%s/linemut-%u.ptx",
					out, r);
				FILE *fp = fopen(path, "w");
				if (fp) {
					fprintf(fp, "// linemut: -p %s, seed %llu\n",
						pipe, (unsigned long long)seed);
					fwrite(src.p, 1, src.n, fp);
					fclose(fp);
				}
			}
		}
		for (uint32_t k = 0; k < own.n; k++)
			free(own.l[k]);
		own.n = 0;
	}
	printf("linemut: %u runs, %u disagreements\n", runs, bad);
	for (uint32_t k = 0; k < nf; k++) {
		for (uint32_t j = 0; j < file[k].n; j++)
			free(file[k].l[j]);
		free(file[k].l);
	}
	free(file);
	free(pool.l);
	free(m.l);
	free(own.l);
	free(src.p);
	free(why.p);
	return bad != 0;
}
