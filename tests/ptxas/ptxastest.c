/* ptxastest: unit checks of src/ptxas.c, one mode per ctest test.
 *   ptxastest parse LOG...   each LOG's "#=" lines are its expected
 *                            records, in the order ptxas printed them
 *   ptxastest fixup PTX      PTX is the NUL-ended 9.3 sample
 *   ptxastest target         .target and .version reading
 *   ptxastest isa DIR        ISA from a fake ptxas (written into DIR)
 *                            and from the real one when there is one
 *   ptxastest find DIR       PATH search skips the wrapper
 *   ptxastest sass FILE...   nvdisasm text; its "//= NAME LOOP LOCAL"
 *                            lines are what sassloops() must find
 * Prints what failed; exits 0, 1 on failure, 77 to skip. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "all.h"

static int nfail;

static void
tcheck(int ok, const char *what, const char *ctx)
{
	if (!ok) {
		fprintf(stderr, "FAIL %s: %s\n", ctx, what);
		nfail++;
	}
}

static void
put(char *b, size_t cap, long v)
{
	if (v < 0)
		snprintf(b, cap, " -");
	else
		snprintf(b, cap, " %ld", v);
}

static void
record(const Pxfn *f, char *out, size_t cap)
{
	long v[] = {f->entry, f->regs, f->barriers, f->stack, f->spillst,
		f->spillld, f->cumstack, f->smem, f->cmem, f->lmem,
		f->wgserial};
	size_t i, k;

	k = (size_t)snprintf(out, cap, "#= %s", f->name);
	for (i = 0; i < sizeof v / sizeof v[0] && k < cap; i++) {
		put(out + k, cap - k, v[i]);
		k += strlen(out + k);
	}
}

static void
tparse(const char *path)
{
	char *text, *s, *e, got[1024];
	size_t n;
	int i = 0;
	Pxres r = {0};

	text = pxslurp(path, &n);
	tcheck(text != NULL, "cannot read", path);
	if (!text)
		return;
	tcheck(ptxasparse(text, n, &r) == 0, "ptxasparse failed", path);
	for (s = text; (s = strstr(s, "#= ")) != NULL; s = e, i++) {
		e = s + strcspn(s, "\r\n");
		if (i >= r.nfn) {
			fprintf(stderr, "FAIL %s: missing %.*s\n", path,
				(int)(e - s), s);
			nfail++;
			continue;
		}
		record(&r.fn[i], got, sizeof got);
		if (strlen(got) != (size_t)(e - s)
		|| memcmp(got, s, (size_t)(e - s)) != 0) {
			fprintf(stderr, "FAIL %s:\n  want %.*s\n  got  %s\n",
				path, (int)(e - s), s, got);
			nfail++;
		}
	}
	tcheck(i == r.nfn, "more records than expected", path);
	ptxasfree(&r);
	free(text);
}

static void
fixup(const char *path)
{
	char *text, *out, arch[32];
	size_t n, m;
	int ch, maj, min;

	text = pxslurp(path, &n);
	tcheck(text != NULL, "cannot read", path);
	if (!text)
		return;
	tcheck(n > 0 && text[n-1] == 0, "sample must end in NUL", path);
	out = ptxfixup(text, n, 9, 0, &m, &ch);
	tcheck(ch == (Fnul | Fversion | Fascii), "all fixes reported", path);
	tcheck(strstr(out, "comment: ??? in") != NULL, "dash scrubbed", path);
	tcheck(memchr(out, 0, m) == NULL, "NULs dropped", path);
	tcheck(strstr(out, "\n.version 9.0\n") != NULL, "lowered", path);
	tcheck(strstr(out, "// .version 9.3 here") != NULL,
		"comment left alone", path);
	tcheck(ptxversion(out, m, &maj, &min) == 0 && maj == 9 && min == 0,
		"ptxversion reads 9.0", path);
	tcheck(ptxtarget(out, m, arch, sizeof arch) == 0
		&& strcmp(arch, "sm_100a") == 0, "target sm_100a", path);
	free(out);
	out = ptxfixup(text, n, 9, 5, &m, &ch);
	tcheck(ch == (Fnul | Fascii), "newer ptxas: no .version", path);
	tcheck(strstr(out, "\n.version 9.3\n") != NULL, "kept 9.3", path);
	free(out);
	free(text);
}

/* One byte past ASCII in a comment, at every offset of a short text:
 * the scan that finds it reads eight bytes at a time, then the rest. */
static void
scrubeach(void)
{
	char t[40], *out;
	size_t n, m;
	int ch;

	for (size_t at = 3; at < 37; at++) {
		memset(t, 'x', sizeof t);
		memcpy(t, "// ", 3);
		t[at] = (char)0xe2;
		t[37] = '\n';
		n = 38;
		out = ptxfixup(t, n, 9, 0, &m, &ch);
		tcheck(out && ch == Fascii && m == n && out[at] == '?'
			&& !memchr(out, 0xe2, m), "byte past ASCII scrubbed",
			"scrubeach");
		free(out);
	}
	memset(t, 'x', sizeof t);
	out = ptxfixup(t, sizeof t, 9, 0, &m, &ch);
	tcheck(out && ch == 0 && m == sizeof t, "ASCII left alone", "scrubeach");
	free(out);
}

static void
target(void)
{
	static const struct { const char *text, *want; } t[] = {
		{".version 8.0\n.target sm_80\n", "sm_80"},
		{"// .target sm_20\n.target sm_90a // x\n", "sm_90a"},
		{"/* .target sm_20\n*/\t.target  sm_110f, debug\n", "sm_110f"},
		{".target sm_10, map_f64_to_f32\n", "sm_10"},
		{".file 1 \"a.target b\"\n.target sm_75\n", "sm_75"},
		{"x.target sm_1\n.target\n  sm_52\n", "sm_52"},
		{".version 7.0\n// .target sm_80\n", NULL},
	};
	char arch[16];
	size_t i;
	int r;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		r = ptxtarget(t[i].text, strlen(t[i].text), arch, sizeof arch);
		if (t[i].want)
			tcheck(r == 0 && strcmp(arch, t[i].want) == 0,
				t[i].want, "ptxtarget");
		else
			tcheck(r < 0, "no target", "ptxtarget");
	}
	tcheck(ptxtarget(".target sm_100a\n", 16, arch, 4) < 0,
		"too small a buffer", "ptxtarget");
}

static void
script(const char *path, const char *body)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(body, f);
	fclose(f);
	chmod(path, 0755);
}

static void
isa(const char *dir)
{
	char fake[4096];
	char *real;
	int maj = 0, min = 0;

	/* a release past the table: the answer must come from probing */
	snprintf(fake, sizeof fake, "%s/fakeptxas", dir);
	script(fake, "#!/bin/sh\n"
		"if [ \"$1\" = --version ]; then\n"
		"  echo 'Cuda compilation tools, release 42.7, V42.7.1'\n"
		"  exit 0\nfi\n"
		"echo \"ptxas $1, line 1; fatal   : Unsupported .version"
		" 99.9; current version is '7.3'\"\nexit 255\n");
	tcheck(ptxasisa(fake, &maj, &min) == 0 && maj == 7 && min == 3,
		"probed 7.3", "ptxasisa");
	/* cached: a second answer without running anything */
	script(fake, "#!/bin/sh\nexit 1\n");
	tcheck(ptxasisa(fake, &maj, &min) == 0 && maj == 7 && min == 3,
		"cached", "ptxasisa");
	snprintf(fake, sizeof fake, "%s/fakeptxas2", dir);
	script(fake, "#!/bin/sh\n"
		"echo 'Cuda compilation tools, release 12.6, V12.6.85'\n");
	tcheck(ptxasisa(fake, &maj, &min) == 0 && maj == 8 && min == 5,
		"12.6 takes 8.5", "ptxasisa");
	real = ptxasfind(NULL);
	if (real) {
		tcheck(ptxasisa(real, &maj, &min) == 0 && maj >= 6,
			"real ptxas", "ptxasisa");
		printf("%s: PTX ISA %d.%d\n", real, maj, min);
		free(real);
	}
}

static void
find(const char *dir)
{
	char wrap[4096], link[4096], path[8192], *p;

	snprintf(wrap, sizeof wrap, "%s/ptxpress-ptxas", dir);
	script(wrap, "#!/bin/sh\nexit 0\n");
	snprintf(link, sizeof link, "%s/ptxas", dir);
	unlink(link);
	tcheck(symlink("ptxpress-ptxas", link) == 0, "symlink", "ptxasfind");
	snprintf(path, sizeof path, "%s:/nonexistent", dir);
	setenv("PATH", path, 1);
	unsetenv("PTXPRESS_PTXAS");
	p = ptxasfind(NULL);
	tcheck(!p || strcmp(p, link) != 0, "wrapper skipped", "ptxasfind");
	free(p);
	setenv("PTXPRESS_PTXAS", wrap, 1);
	p = ptxasfind(NULL);
	tcheck(p && strcmp(p, wrap) == 0, "env wins", "ptxasfind");
	free(p);
	p = ptxasfind("/nonexistent/ptxas");
	tcheck(p == NULL, "bad override", "ptxasfind");
	free(p);
}

/* sassloops() over a canned nvdisasm text: each "//= NAME LOOP LOCAL
 * OUT [EXPOSED]" line names a function and its figures ("-": not in
 * the text; EXPOSED, the spills of loads in flight, is checked where
 * it is given). */
static void
sass(const char *path)
{
	FILE *f = fopen(path, "rb");
	static char text[1 << 16], names[64][64];
	long want[64][4];
	Pxfn fn[64];
	Pxres r;
	size_t n;
	int nf = 0;

	if (!f) {
		tcheck(0, "cannot open", path);
		return;
	}
	n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	memset(&r, 0, sizeof r);
	for (char *p = strstr(text, "//= "); p && nf < 64;
		p = strstr(p + 1, "//= ")) {
		char a[32], b[32], c[32], x[32];
		int got = sscanf(p + 4, "%63s %31s %31s %31s %31[-0-9]",
			names[nf], a, b, c, x);
		if (got < 4)
			continue;
		want[nf][0] = a[0] == '-' ? -1 : atol(a);
		want[nf][1] = b[0] == '-' ? -1 : atol(b);
		want[nf][2] = c[0] == '-' ? -1 : atol(c);
		want[nf][3] = got < 5 ? -2 : x[0] == '-' ? -1 : atol(x);
		memset(&fn[nf], 0, sizeof fn[nf]);
		fn[nf].name = names[nf];
		fn[nf].sassloop = fn[nf].sasslocal = fn[nf].sassout = -1;
		fn[nf].sassexposed = -1;
		nf++;
	}
	tcheck(nf > 0, "no //= lines", path);
	r.fn = fn;
	r.nfn = nf;
	sassloops(&r, text, n);
	for (int i = 0; i < nf; i++) {
		char ctx[256];
		snprintf(ctx, sizeof ctx, "%.100s: %.60s: loop %ld local %ld "
			"outside %ld exposed %ld, want %ld %ld %ld %ld", path,
			names[i], fn[i].sassloop, fn[i].sasslocal,
			fn[i].sassout, fn[i].sassexposed, want[i][0],
			want[i][1], want[i][2], want[i][3]);
		tcheck(fn[i].sassloop == want[i][0]
			&& fn[i].sasslocal == want[i][1]
			&& fn[i].sassout == want[i][2]
			&& (want[i][3] == -2
			|| fn[i].sassexposed == want[i][3]), "figures", ctx);
	}
}

int
main(int argc, char **argv)
{
	int i;

	if (argc >= 2 && !strcmp(argv[1], "parse"))
		for (i = 2; i < argc; i++)
			tparse(argv[i]);
	else if (argc == 3 && !strcmp(argv[1], "fixup")) {
		fixup(argv[2]);
		scrubeach();
	}
	else if (argc == 2 && !strcmp(argv[1], "target"))
		target();
	else if (argc == 3 && !strcmp(argv[1], "isa"))
		isa(argv[2]);
	else if (argc == 3 && !strcmp(argv[1], "find"))
		find(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "sass"))
		for (i = 2; i < argc; i++)
			sass(argv[i]);
	else {
		fprintf(stderr, "usage: ptxastest parse|fixup|target|isa|find|sass"
			" ...\n");
		return 2;
	}
	return nfail ? 1 : 0;
}
