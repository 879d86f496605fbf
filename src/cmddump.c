/* cmddump.c: the dump command.  CuTe DSL (CUTE_DSL_KEEP=ptx) and Triton
 * (TRITON_KERNEL_DUMP=1) leave their PTX in a folder; this rewrites
 * every kernel there, assembles it before and after, writes the new PTX
 * and cubin into another folder (the dump itself is never written) and
 * prints what changed, worst kernel first. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "all.h"

typedef struct Kern {
	char *file;          /* relative to the dump folder */
	char arch[32];
	char *name;
	const char *status;  /* rewritten, unchanged, unparsed, failed */
	int regs[2];         /* before, after; -1 unknown */
	long spill[2], stack[2];
} Kern;

typedef struct Dump {
	const char *dir, *out, *override, *pipeline;
	int json;
	char **file;         /* .ptx files, relative, sorted */
	int nfile;
	Kern *k;
	int nk;
	char *ptxas;
	int maj, min;        /* the PTX ISA ptxas takes */
} Dump;

static int
helpdump(FILE *f)
{
	fprintf(f,
"usage: ptxpress dump DIR [-o OUTDIR] [--json] [--triton-override ODIR]\n"
"                         [--pipeline P]\n"
"\n"
"Rewrites every kernel of a dump folder, assembles it before and after\n"
"for its architecture, and prints one table of registers, spill bytes\n"
"(stores + loads) and stack bytes per kernel, the worst first.\n"
"\n"
"Two layouts are recognised:\n"
"  CuTe DSL  CUTE_DSL_KEEP=ptx CUTE_DSL_DUMP_DIR=DIR: DIR/<fn>.<arch>.ptx,\n"
"            NUL-terminated; the architecture is read from the name\n"
"  Triton    TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR=DIR: DIR/<hash>/<k>.ptx;\n"
"            the architecture is the file's .target\n"
"\n"
"  -o OUTDIR   where the rewritten PTX and cubins go, in the same layout\n"
"              (default: DIR.ptxpress); the table is also written there\n"
"              as ptxpress-dump.json.  The dump itself is never written.\n"
"  --json      print the table as JSON instead\n"
"  --triton-override ODIR\n"
"              also lay out ODIR as a TRITON_OVERRIDE_DIR: with\n"
"              TRITON_KERNEL_OVERRIDE=1 TRITON_OVERRIDE_DIR=ODIR Triton\n"
"              loads the rewritten PTX of each kernel\n"
"  --pipeline P  the rewrite pipeline (default: $PTXPRESS_PIPELINE, else\n"
"              the best one)\n"
"\n"
"Kernel names are never changed.  PTX newer than the ptxas found\n"
"(PTXPRESS_PTXAS, else PATH) is assembled with .version lowered; the\n"
"written PTX keeps its own.  Exit status: 0 every file assembled, 1 some\n"
"did not, 2 bad usage or no ptxas.\n");
	return f == stdout ? 0 : 2;
}

static int
dumpargs(int argc, char **argv, Dump *d)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return helpdump(stdout) - 1;
		if (!strcmp(a, "-o") && i + 1 < argc)
			d->out = argv[++i];
		else if (!strcmp(a, "--triton-override") && i + 1 < argc)
			d->override = argv[++i];
		else if (!strcmp(a, "--pipeline") && i + 1 < argc)
			d->pipeline = argv[++i];
		else if (!strcmp(a, "--json"))
			d->json = 1;
		else if (a[0] != '-' && !d->dir)
			d->dir = a;
		else {
			fprintf(stderr, "%s dump: unexpected argument '%s'\n",
				progname, a);
			return helpdump(stderr);
		}
	}
	return d->dir ? 0 : helpdump(stderr);
}

/* ---- finding the files ---- */

static char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

static int
isptx(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".ptx");
}

static void
addfile(Dump *d, const char *rel)
{
	if ((d->nfile & (d->nfile - 1)) == 0)
		d->file = xrealloc(d->file, sizeof *d->file
			* (size_t)(d->nfile ? 2 * d->nfile : 1));
	d->file[d->nfile++] = xstrdup(rel);
}

/* The top level (CuTe DSL) and one level below it (Triton's hashes). */
static void
scan(Dump *d, const char *sub, int depth)
{
	Buf p = {0}, r = {0};
	DIR *dir;
	struct dirent *e;
	struct stat st;

	bprintf(&p, "%s%s%s", d->dir, *sub ? "/" : "", sub);
	if (!(dir = opendir(p.p))) {
		free(p.p);
		return;
	}
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		r.n = p.n = 0;
		bprintf(&r, "%s%s%s", sub, *sub ? "/" : "", e->d_name);
		bprintf(&p, "%s/%s", d->dir, r.p);
		if (stat(p.p, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth == 0)
			scan(d, r.p, 1);
		else if (S_ISREG(st.st_mode) && isptx(e->d_name))
			addfile(d, r.p);
	}
	closedir(dir);
	free(p.p);
	free(r.p);
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- one file ---- */

/* The architecture of a CuTe DSL dump is in its name: fn.sm_100a.ptx. */
static int
namearch(const char *rel, char *arch, size_t cap)
{
	const char *b = strrchr(rel, '/'), *e = rel + strlen(rel) - 4, *s;

	b = b ? b + 1 : rel;
	for (s = e; s > b && s[-1] != '.'; s--)
		;
	if (s == b || strncmp(s, "sm_", 3) || (size_t)(e - s) >= cap)
		return -1;
	memcpy(arch, s, (size_t)(e - s));
	arch[e - s] = 0;
	return 0;
}

static void
mkparents(const char *path)
{
	char *p = xstrdup(path);

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		mkdir(p, 0777);
		*s = '/';
	}
	free(p);
}

/* Assembles text for arch through ptxfixup, the cubin to cubin (NULL:
 * thrown away); returns ptxas's status with its -v numbers in r. */
static int
assemble(Dump *d, const char *text, size_t n, const char *arch,
	const char *cubin, Pxres *r)
{
	const char *tmpd = getenv("TMPDIR");
	size_t m;
	int ch, fd, st = -1;
	char *fixed = ptxfixup(text, n, d->maj, d->min, &m, &ch);
	Buf t = {0};

	memset(r, 0, sizeof *r);
	r->status = -1;
	bprintf(&t, "%s/ptxpress-dump-XXXXXX", tmpd && *tmpd ? tmpd : "/tmp");
	if (!fixed || (fd = mkstemp(t.p)) < 0) {
		free(fixed);
		free(t.p);
		return -1;
	}
	if (write(fd, fixed, m) == (ssize_t)m && !close(fd)) {
		Pxopt o = {d->ptxas, t.p, arch, cubin, 0, 0, 0};
		st = ptxasrun(&o, r);
	} else
		close(fd);
	unlink(t.p);
	free(t.p);
	free(fixed);
	return st;
}

static Kern *
newkern(Dump *d, const char *rel, const char *arch, const char *name)
{
	Kern *k;

	if ((d->nk & (d->nk - 1)) == 0)
		d->k = xrealloc(d->k, sizeof *d->k
			* (size_t)(d->nk ? 2 * d->nk : 1));
	k = &d->k[d->nk++];
	memset(k, 0, sizeof *k);
	k->file = xstrdup(rel);
	snprintf(k->arch, sizeof k->arch, "%s", arch);
	k->name = xstrdup(name);
	k->regs[0] = k->regs[1] = -1;
	k->spill[0] = k->spill[1] = k->stack[0] = k->stack[1] = -1;
	return k;
}

static long
spillof(const Pxfn *f)
{
	if (f->spillst < 0 && f->spillld < 0)
		return -1;
	return (f->spillst > 0 ? f->spillst : 0)
		+ (f->spillld > 0 ? f->spillld : 0);
}

static const Pxfn *
fnnamed(const Pxres *r, const char *name)
{
	for (int i = 0; i < r->nfn; i++)
		if (!strcmp(r->fn[i].name, name))
			return &r->fn[i];
	return 0;
}

/* One row per kernel ptxas compiled (every function if it names no
 * entry), the numbers before from a and after from b. */
static void
rows(Dump *d, const char *rel, const char *arch, const char *status,
	const Pxres *a, const Pxres *b)
{
	int anyentry = 0;
	const Pxres *src = a->nfn ? a : b;

	for (int i = 0; i < src->nfn; i++)
		anyentry |= src->fn[i].entry;
	for (int i = 0; i < src->nfn; i++) {
		const Pxfn *f = &src->fn[i], *x;
		if (anyentry && !f->entry)
			continue;
		Kern *k = newkern(d, rel, arch, f->name);
		k->status = status;
		for (int j = 0; j < 2; j++) {
			if (!(x = fnnamed(j ? b : a, f->name)))
				continue;
			k->regs[j] = x->regs;
			k->spill[j] = spillof(x);
			k->stack[j] = x->stack;
		}
	}
	if (!src->nfn)
		newkern(d, rel, arch, "-")->status = status;
}

/* Triton looks for TRITON_OVERRIDE_DIR/<hash>/<kernel>.ptx, the hash
 * being the one its dump folder uses, so the layout is the dump's. */
static int
override(Dump *d, const char *rel, const char *text)
{
	Buf p = {0};
	int rc;

	if (!d->override)
		return 0;
	if (!strchr(rel, '/')) {
		fprintf(stderr, "%s: note: %s is not in a Triton hash folder; "
			"not laid out for --triton-override\n", progname, rel);
		return 0;
	}
	bprintf(&p, "%s/%s", d->override, rel);
	mkparents(p.p);
	rc = writeatomic(p.p, text, strlen(text), 0, 0);
	free(p.p);
	return rc;
}

/* Rewrites, assembles and writes one file; returns 0 when every
 * assembly it tried worked. */
static int
dofile(Dump *d, const char *rel)
{
	Buf in = {0}, out = {0}, cub = {0};
	char arch[32], *src, *text = 0;
	size_t n;
	Pxres a, b = {0};
	int sa, sb = 0, rc = 0;
	const char *status;

	bprintf(&in, "%s/%s", d->dir, rel);
	if (!(src = pxslurp(in.p, &n))) {
		fprintf(stderr, "%s: cannot read %s\n", progname, in.p);
		free(in.p);
		return -1;
	}
	if (namearch(rel, arch, sizeof arch) && ptxtarget(src, n, arch,
	sizeof arch))
		snprintf(arch, sizeof arch, "unknown");
	bprintf(&out, "%s/%s", d->out, rel);
	bprintf(&cub, "%.*s.cubin", (int)(out.n - 4), out.p);
	mkparents(out.p);
	if (rewrite(in.p, src, n, d->pipeline, arch, 0, 0, &text, 0)) {
		fprintf(stderr, "%s: %s: cannot parse or rewrite; measured "
			"as it is (run 'ptxpress check %s')\n", progname,
			in.p, in.p);
		status = "unparsed";
		sa = assemble(d, src, n, arch, 0, &a);
	} else {
		sa = assemble(d, src, n, arch, 0, &a);
		sb = assemble(d, text, strlen(text), arch, cub.p, &b);
		status = sb ? "failed" : strcmp(text, src) ? "rewritten"
			: "unchanged";
		if (writeatomic(out.p, text, strlen(text), 0, in.p))
			rc = -1;
		rc |= override(d, rel, text);
	}
	if (sa || sb) {
		fprintf(stderr, "%s: %s: ptxas failed %s:\n%s", progname,
			in.p, sa ? "on the original" : "on the rewrite",
			sa ? (a.log ? a.log : "") : (b.log ? b.log : ""));
		rc = -1;
	}
	rows(d, rel, arch, status, &a, text ? &b : &a);
	ptxasfree(&a);
	ptxasfree(&b);
	free(text);
	free(src);
	free(in.p);
	free(out.p);
	free(cub.p);
	return rc;
}

/* ---- the table ---- */

/* Worst first: spills, then stack, then registers, before the rewrite;
 * then by name so the order is the same on every run. */
static int
cmpkern(const void *pa, const void *pb)
{
	const Kern *a = pa, *b = pb;

	if (a->spill[0] != b->spill[0])
		return a->spill[0] < b->spill[0] ? 1 : -1;
	if (a->stack[0] != b->stack[0])
		return a->stack[0] < b->stack[0] ? 1 : -1;
	if (a->regs[0] != b->regs[0])
		return a->regs[0] < b->regs[0] ? 1 : -1;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->file, b->file);
}

/* "a -> b", or "a" alone when nothing changed; "-" for unknown. */
static const char *
change(char *buf, size_t cap, long a, long b)
{
	char x[24], y[24];

	snprintf(x, sizeof x, a < 0 ? "-" : "%ld", a);
	snprintf(y, sizeof y, b < 0 ? "-" : "%ld", b);
	if (a == b)
		snprintf(buf, cap, "%s", x);
	else
		snprintf(buf, cap, "%s -> %s", x, y);
	return buf;
}

static void
table(Dump *d, FILE *f)
{
	char r[64], s[64], t[64];

	fprintf(f, "%-12s %-14s %-14s %-9s %-9s %s\n", "regs",
		"spill bytes", "stack bytes", "arch", "status", "kernel (file)");
	for (int i = 0; i < d->nk; i++) {
		Kern *k = &d->k[i];
		fprintf(f, "%-12s %-14s %-14s %-9s %-9s %s (%s)\n",
			change(r, sizeof r, k->regs[0], k->regs[1]),
			change(s, sizeof s, k->spill[0], k->spill[1]),
			change(t, sizeof t, k->stack[0], k->stack[1]),
			k->arch, k->status, k->name, k->file);
	}
}

static void
jstr(Buf *b, const char *s)
{
	bputs(b, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			bprintf(b, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			bprintf(b, "\\u%04x", *s);
		else
			bput(b, s, 1);
	}
	bputs(b, "\"");
}

static void
json(Dump *d, Buf *b)
{
	bputs(b, "[\n");
	for (int i = 0; i < d->nk; i++) {
		Kern *k = &d->k[i];
		bputs(b, "  {\"kernel\": ");
		jstr(b, k->name);
		bputs(b, ", \"file\": ");
		jstr(b, k->file);
		bprintf(b, ", \"arch\": \"%s\", \"status\": \"%s\",\n"
			"   \"regs\": [%d, %d], \"spill\": [%ld, %ld], "
			"\"stack\": [%ld, %ld]}%s\n", k->arch, k->status,
			k->regs[0], k->regs[1], k->spill[0], k->spill[1],
			k->stack[0], k->stack[1], i + 1 < d->nk ? "," : "");
	}
	bputs(b, "]\n");
}

/* ---- the command ---- */

static int
samedir(const char *a, const char *b)
{
	struct stat x, y;

	return a && b && !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev
		&& x.st_ino == y.st_ino;
}

/* The output folder must not be the dump: Triton keeps its own cubins
 * there under the names we would write. */
static int
outdir(Dump *d, Buf *def)
{
	struct stat st;
	size_t n = strlen(d->dir);

	while (n > 1 && d->dir[n - 1] == '/')
		n--;
	if (!d->out) {
		bprintf(def, "%.*s.ptxpress", (int)n, d->dir);
		d->out = def->p;
	}
	if (stat(d->dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s dump: %s is not a folder\n", progname,
			d->dir);
		return -1;
	}
	mkdir(d->out, 0777);
	if (d->override)
		mkdir(d->override, 0777);
	if (samedir(d->dir, d->out) || samedir(d->dir, d->override)) {
		fprintf(stderr, "%s dump: the output folder is the dump "
			"folder; choose another\n", progname);
		return -1;
	}
	return 0;
}

static int
setup(Dump *d)
{
	d->ptxas = ptxasfind(0);
	if (!d->ptxas) {
		fprintf(stderr, "%s dump: no ptxas found (set PTXPRESS_PTXAS "
			"or PATH)\n", progname);
		return -1;
	}
	if (ptxasisa(d->ptxas, &d->maj, &d->min)) {
		d->maj = 99;  /* leave .version alone */
		d->min = 9;
	}
	if (!d->pipeline)
		d->pipeline = getenv("PTXPRESS_PIPELINE");
	if (d->pipeline && !*d->pipeline)
		d->pipeline = 0;
	return 0;
}

int
cmddump(int argc, char **argv)
{
	Dump d = {0};
	Buf def = {0}, js = {0}, jp = {0};
	int rc;

	if ((rc = dumpargs(argc, argv, &d)))
		return rc < 0 ? 0 : rc;
	if (setup(&d) || outdir(&d, &def)) {
		rc = 2;
		goto done;
	}
	scan(&d, "", 0);
	if (!d.nfile) {
		fprintf(stderr, "%s dump: no .ptx files in %s or its "
			"subfolders\n", progname, d.dir);
		rc = 2;
		goto done;
	}
	qsort(d.file, (size_t)d.nfile, sizeof *d.file, cmpstr);
	for (int i = 0; i < d.nfile; i++)
		if (dofile(&d, d.file[i]))
			rc = 1;
	qsort(d.k, (size_t)d.nk, sizeof *d.k, cmpkern);
	json(&d, &js);
	bprintf(&jp, "%s/ptxpress-dump.json", d.out);
	writeatomic(jp.p, js.p, js.n, 0, 0);
	if (d.json)
		fputs(js.p, stdout);
	else
		table(&d, stdout);
	fprintf(stderr, "%s dump: %d files, %d kernels; output in %s\n",
		progname, d.nfile, d.nk, d.out);
done:
	for (int i = 0; i < d.nk; i++) {
		free(d.k[i].file);
		free(d.k[i].name);
	}
	for (int i = 0; i < d.nfile; i++)
		free(d.file[i]);
	free(d.k);
	free(d.file);
	free(d.ptxas);
	free(def.p);
	free(js.p);
	free(jp.p);
	return rc;
}
