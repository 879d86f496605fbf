/* ptxpress-ptxas: a drop-in ptxas.  It takes ptxas's whole command
 * line, rewrites each PTX input with rewrite(), and runs the real ptxas
 * with the same arguments on the rewritten copies, so that a build gets
 * ptxpress by changing one path (TRITON_PTXAS_PATH, CUTE_DSL_PTXAS_PATH,
 * clang --ptxas-path).
 *
 * Two promises shape it.  It never breaks a build: whatever goes wrong
 * on our side, the original PTX is assembled and a warning said
 * (PTXPRESS_STRICT=1 turns that into an error).  And what callers see
 * is ptxas's own: its exit status, its stdout and stderr byte for byte
 * (the temporary path replaced by the one the caller gave), because
 * Triton and others parse the -v log. */
#define _GNU_SOURCE             /* memmem */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "all.h"

enum { Maxin = 256 };

const char *progname = "ptxpress-ptxas";

typedef struct In {
	int argi;           /* its place in argv */
	char *path;         /* as the caller gave it */
	char *tmp;          /* the rewritten copy, or NULL */
	char *src;          /* the original text, for the log */
	size_t n;
} In;

typedef struct Run {
	int argc;
	char **argv;        /* what the real ptxas gets; [0] is its path */
	const char *arch;   /* -arch / --gpu-name, or NULL */
	int outi;           /* index of the argument holding -o's value */
	char *drop;         /* drop[i]: argv[i] is an input, the output,
	                     * -v or the arch, which measure() sets itself */
	int version, help;
	In in[Maxin];
	int nin;
	char *real;         /* the real ptxas */
	char *tmpdir;       /* made on first use */
	char *ptxasver;     /* its --version text, for the cache key */
	char self[65];      /* hash of this executable, for the key */
	int strict;
	const char *pipeline;
} Run;

/* ptxas options that take a value in the next argument (ptxas accepts
 * each with one dash or two, and also as -name=value). */
static const char *valopts[] = {
	"Ofast-compile", "Ofc", "allow-expensive-optimizations",
	"device-function-maxrregcount", "func-maxrregcount",
	"device-stack-protector", "entry", "e", "fmad", "gpu-name", "arch",
	"input-as-string", "ias", "machine", "m", "maxntid", "maxrregcount",
	"minnctapersm", "opt-level", "O", "options-file", "optf",
	"output-file", "o", "position-independent-code", "pic",
	"register-usage-level", "regUsageLevel", "sanitize", "split-compile",
	"def-load-cache", "dlcm", "def-store-cache", "dscm",
	"force-load-cache", "flcm", "force-store-cache", "fscm",
};

static int
is(const char *name, size_t n, const char *a, const char *b)
{
	return (strlen(a) == n && !memcmp(name, a, n))
		|| (b && strlen(b) == n && !memcmp(name, b, n));
}

static int
takesval(const char *name, size_t n)
{
	for (size_t i = 0; i < countof(valopts); i++)
		if (is(name, n, valopts[i], 0))
			return 1;
	return 0;
}

/* Sorts the command line into options (kept as they are) and inputs.
 * An option we do not know is passed through as a flag. */
static int
args(Run *r)
{
	for (int i = 1; i < r->argc; i++) {
		const char *a = r->argv[i], *name, *eq, *val = 0;
		int start = i;
		if (a[0] != '-' || !a[1]) {
			r->drop[i] = 1;
			if (r->nin == Maxin)
				return -1;
			r->in[r->nin].argi = i;
			r->in[r->nin++].path = r->argv[i];
			continue;
		}
		name = a + (a[1] == '-' ? 2 : 1);
		eq = strchr(name, '=');
		size_t n = eq ? (size_t)(eq - name) : strlen(name);
		if (eq)
			val = eq + 1;
		else if (takesval(name, n) && i + 1 < r->argc)
			val = r->argv[++i];
		if (is(name, n, "arch", "gpu-name"))
			r->arch = val;
		else if (is(name, n, "o", "output-file"))
			r->outi = i;
		else if (!is(name, n, "v", "verbose"))
			start = i + 1;  /* kept for measure() */
		if (is(name, n, "version", "V")
		|| is(name, n, "list-version", "version-ls"))
			r->version = 1;
		else if (is(name, n, "help", "h"))
			r->help = 1;
		for (int k = start; k <= i; k++)
			r->drop[k] = 1;
	}
	return 0;
}

static void
help(void)
{
	printf(
"usage: ptxpress-ptxas [ptxas options] FILE.ptx...\n"
"\n"
"A drop-in ptxas.  It takes ptxas's whole command line, rewrites each PTX\n"
"input with ptxpress to lower register pressure, then runs the real ptxas\n"
"with the same arguments on the rewritten copy.  What the caller sees is\n"
"the real ptxas's exit status and output (the -v log included), so\n"
"Triton, the CuTe DSL, clang and nvcc-driven builds keep working.\n"
"\n"
"It never breaks a build: when a file cannot be parsed or rewritten, or\n"
"ptxas rejects the rewritten copy, it assembles the original and warns.\n"
"--version and the options it does not know go to ptxas unchanged.\n"
"\n"
"Use it as:\n"
"  TRITON_PTXAS_PATH=$(command -v ptxpress-ptxas)   (Triton)\n"
"  TRITON_PTXAS_BLACKWELL_PATH=...                  (Triton: sm_100 and\n"
"                                 later; from 3.9 on, sm_90 and later)\n"
"  CUTE_DSL_PTXAS_PATH=...                          (CuTe DSL, FA-4)\n"
"  clang --cuda-path=... --ptxas-path=...            (clang CUDA)\n"
"  or a directory holding a symbolic link named ptxas, first on PATH.\n"
"\n"
"Environment:\n"
"  PTXPRESS_PTXAS      the real ptxas (default: the first ptxas on PATH\n"
"                      that is not this program, then\n"
"                      /usr/local/cuda/bin/ptxas)\n"
"  PTXPRESS_PIPELINE   the rewrite pipeline (default: the best one)\n"
"  PTXPRESS_TRIES=N    variants the search assembles (default 8)\n"
"  PTXPRESS_REFINE=N   then N perturbations of the pick of a kernel\n"
"                      that still spills (default 0: on the H200 the\n"
"                      one measured ran slower though it spilled less;\n"
"                      opt --refine)\n"
"  PTXPRESS_SEED=S     the perturbations' seed (default 1)\n"
"  PTXPRESS_JOBS=N     ptxas runs at once (default 1)\n"
"  PTXPRESS_TIME=DIR   with a GPU: a kernel that has DIR/NAME.launch\n"
"                      (doc/launch.md) is timed among its candidates\n"
"                      and the fastest kept (opt --time)\n"
"  PTXPRESS_UNSERIALIZED=0  rank rewrites by spill bytes alone; by\n"
"                      default one whose wgmmas ptxas serializes (its\n"
"                      C751x note) ranks behind every one it does not\n"
"                      (opt --unserialized): serialized wgmmas cost\n"
"                      more than a little spill on the H200\n"
"  PTXPRESS_SASSGUARD=0  take rewrites that put more work in the\n"
"                      kernel's loops than the input (by default none\n"
"                      is taken when nvdisasm is found, beside ptxas,\n"
"                      on PATH or $PTXPRESS_NVDISASM: opt --sass-guard)\n"
"  PTXPRESS_STRICT=1   make a failed rewrite an error, not a warning\n"
"  PTXPRESS_PTX_VERSION=auto  lower a .version newer than the real\n"
"                      ptxas takes to its own (off by default)\n"
"  PTXPRESS_LOG=FILE   append one line per kernel: registers, spill and\n"
"                      stack bytes before and after (runs ptxas twice\n"
"                      more per file)\n"
"  PTXPRESS_CACHE_DIR  the result cache (default\n"
"                      $XDG_CACHE_HOME/ptxpress or ~/.cache/ptxpress;\n"
"                      'off' turns it off); see 'ptxpress cache --help'\n"
"\n"
"ptxas's own options are listed by 'ptxas --help'.\n"
"\n"
"Exit status: the real ptxas's; 1 when no ptxas is found or, with\n"
"PTXPRESS_STRICT=1, when a rewrite fails.\n");
}

/* ---- running the real ptxas ---- */

/* Runs argv with stdout and stderr sent to the given descriptors (-1:
 * ours); returns the wait status, or -1. */
static int
runto(char **argv, int out, int err)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (out >= 0)
			dup2(out, 1);
		if (err >= 0)
			dup2(err, 2);
		execv(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", progname, argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

/* Ends this process the way the child ended. */
static int
exitas(int st)
{
	if (st < 0)
		return 1;
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	return WEXITSTATUS(st);
}

static NORETURN void
execreal(Run *r)
{
	fflush(stdout);
	fflush(stderr);
	execv(r->real, r->argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", progname, r->real,
		strerror(errno));
	exit(1);
}

static const char *
tmpdir(Run *r)
{
	const char *d = getenv("TMPDIR");
	Buf b = {0};

	if (r->tmpdir)
		return r->tmpdir;
	bprintf(&b, "%s/ptxpress-ptxas-XXXXXX", d && *d ? d : "/tmp");
	if (!mkdtemp(b.p)) {
		free(b.p);
		return 0;
	}
	return r->tmpdir = b.p;
}

static void
cleanup(Run *r)
{
	Buf b = {0};

	if (!r->tmpdir)
		return;
	for (int i = 0; i < r->nin; i++)
		if (r->in[i].tmp)
			unlink(r->in[i].tmp);
	bprintf(&b, "%s/stdout", r->tmpdir);
	unlink(b.p);
	b.n = 0;
	bprintf(&b, "%s/stderr", r->tmpdir);
	unlink(b.p);
	rmdir(r->tmpdir);
	free(b.p);
}

/* ---- the cache key ---- */

static int
filehash(const char *path, char out[65])
{
	size_t n;
	char *s = pxslurp(path, &n);
	Hash h;

	if (!s)
		return -1;
	hinit(&h);
	hadd(&h, s, n);
	hhex(&h, out);
	free(s);
	return 0;
}

/* What the key needs besides the input: the real ptxas's version text
 * and this program itself, so a new ptxas or a new ptxpress misses. */
static int
keysetup(Run *r)
{
	if (!r->ptxasver && !filehash("/proc/self/exe", r->self))
		r->ptxasver = ptxasversion(r->real);
	return r->ptxasver ? 0 : -1;
}

static void
key(Run *r, In *in, char out[65])
{
	Hash h;

	hinit(&h);
	hfield(&h, "ptxpress-ptxas key 1", 20);
	hfield(&h, r->self, 64);
	hfield(&h, r->ptxasver, strlen(r->ptxasver));
	hfield(&h, r->pipeline, strlen(r->pipeline));
	/* the search's other knobs change the result too */
	static const char *const knobs[] = {"PTXPRESS_TRIES", "PTXPRESS_SEED",
		"PTXPRESS_TIME", "PTXPRESS_UNSERIALIZED", "PTXPRESS_REFINE",
		"PTXPRESS_SASSGUARD"};
	for (size_t i = 0; i < countof(knobs); i++) {
		const char *v = getenv(knobs[i]);
		hfield(&h, v ? v : "", v ? strlen(v) : 0);
	}
	char *nd = nvdisasmfind(r->real);      /* the guard is on with one */
	hfield(&h, nd ? nd : "", nd ? strlen(nd) : 0);
	free(nd);
	for (int i = 1; i < r->argc; i++) {
		/* which file and where the cubin goes change nothing */
		const char *a = i == in->argi ? "<input>"
			: i == r->outi ? "<output>" : r->argv[i];
		hfield(&h, a, strlen(a));
	}
	hfield(&h, in->src, in->n);
	hhex(&h, out);
}

/* ---- rewriting one input ---- */

/* The caller's options less the ones ptxasrun sets itself (inputs, -o,
 * -v, the arch): what a search or a measurement passes on to ptxas. */
static void
extraargs(Run *r, const char **extra)
{
	int k = 0;

	for (int i = 1; i < r->argc && k < 63; i++)
		if (!r->drop[i])
			extra[k++] = r->argv[i];
	extra[k] = 0;
}

static const char *
basename_(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* The rewritten text for in, through the cache: Ctext with *text,
 * Csame, or Cfail. */
static int
rewritten(Run *r, In *in, char **text)
{
	char k[65];
	size_t n;
	int kind, cache = keysetup(r) == 0;
	const char *pipe = *r->pipeline ? r->pipeline : 0;

	*text = 0;
	if (cache) {
		key(r, in, k);
		kind = cacheget(k, text, &n);
		if (kind != Cmiss)
			return kind;
	}
	const char *extra[64];
	extraargs(r, extra);
	if (rewrite(in->path, in->src, in->n, pipe, r->arch, r->real, extra,
		text, 0))
		kind = Cfail;
	else if (strlen(*text) == in->n && !memcmp(*text, in->src, in->n))
		kind = Csame;
	else
		kind = Ctext;
	if (cache)
		cacheput(k, kind, *text, kind == Ctext ? strlen(*text) : 0);
	if (kind != Ctext) {
		free(*text);
		*text = 0;
	}
	return kind;
}

static int
writefile(const char *path, const char *s, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, n) == (ssize_t)n;
	return close(fd) == 0 && ok ? 0 : -1;
}

/* PTXPRESS_PTX_VERSION=auto: a .version newer than the real ptxas
 * takes is lowered to its own (CuTe DSL 4.8 writes 9.4, which CUDA
 * 13.0's ptxas refuses).  Returns the new text, or 0 when nothing
 * changed.  The PTX must not use what the newer ISA added; ptxas says
 * so if it does. */
static char *
lowered(Run *r, In *in, const char *s, size_t n)
{
	const char *v = getenv("PTXPRESS_PTX_VERSION");
	Diag d = {0};
	Buf b = {0};
	int maj, min;

	if (!v || strcmp(v, "auto") || ptxasisa(r->real, &maj, &min))
		return 0;
	d.quiet = 1;
	Module *m = parse(in->path, s, n, &d);
	if (!m->nerr && clampversion(m, maj, min, " for ptxas"))
		emitlossless(&b, m);
	afree(m->a);
	return b.p;
}

/* Whether the input's .version is newer than the real ptxas reads
 * (Triton 3.9 writes PTX 9.4 for its own ptxas 13.4; CUDA 13.0's reads
 * up to 9.0) and nothing lowers it: then the search's every variant
 * fails as the input does, and ptxas had better say why at once.  The
 * first .version at the start of a line, as every PTX writer puts it. */
static int
toonew(Run *r, In *in)
{
	const char *v = getenv("PTXPRESS_PTX_VERSION");
	int maj, min, fmaj, fmin;

	if ((v && !strcmp(v, "auto")) || ptxasisa(r->real, &maj, &min))
		return 0;
	for (size_t i = 0; i + 9 < in->n; i++)
		if ((i == 0 || in->src[i - 1] == '\n')
		&& !strncmp(in->src + i, ".version", 8)) {
			if (sscanf(in->src + i + 8, " %d.%d", &fmaj, &fmin) != 2
			|| fmaj < maj || (fmaj == maj && fmin <= min))
				return 0;
			fprintf(stderr, "%s: note: %s: PTX %d.%d is newer than "
				"%s reads (%d.%d): passed on unchanged; point "
				"PTXPRESS_PTXAS at a newer ptxas (Triton 3.9 "
				"ships one as triton/backends/nvidia/bin/"
				"ptxas-blackwell), or PTXPRESS_PTX_VERSION=auto "
				"lowers .version\n", progname, in->path, fmaj,
				fmin, r->real, maj, min);
			return 1;
		}
	return 0;
}

/* Rewrites one input into the temporary folder; returns -1 only when
 * the build must stop (strict mode). */
static int
prepare(Run *r, In *in)
{
	char *text;
	Buf b = {0};
	int kind;

	in->src = pxslurp(in->path, &in->n);
	if (!in->src || toonew(r, in))
		return 0;  /* ptxas will say so in its own words */
	kind = rewritten(r, in, &text);
	if (kind == Cfail) {
		fprintf(stderr, "%s: %s: %s: cannot parse or rewrite; %s "
			"(run 'ptxpress check %s')\n", progname, in->path,
			r->strict ? "error" : "warning",
			r->strict ? "stopping (PTXPRESS_STRICT)"
			: "assembling the original", in->path);
		return r->strict ? -1 : 0;
	}
	char *low = lowered(r, in, kind == Ctext ? text : in->src,
		kind == Ctext ? strlen(text) : in->n);
	if (low) {
		free(text);
		text = low;
		kind = Ctext;
	}
	if (kind == Csame)
		return 0;
	if (tmpdir(r)) {
		bprintf(&b, "%s/%s", r->tmpdir, basename_(in->path));
		if (writefile(b.p, text, strlen(text)) == 0) {
			in->tmp = b.p;
			r->argv[in->argi] = b.p;
			b.p = 0;
		}
	}
	if (!in->tmp)
		fprintf(stderr, "%s: warning: cannot write a temporary copy "
			"of %s; assembling the original\n", progname, in->path);
	free(b.p);
	free(text);
	return 0;
}

/* ---- the log ---- */

/* ptxas's -v numbers for one file, with the caller's options less the
 * ones ptxasrun sets itself. */
static int
measure(Run *r, const char *ptx, Pxres *res)
{
	const char *extra[64];

	extraargs(r, extra);
	Pxopt o = {r->real, ptx, r->arch, 0, extra, 0, 0};
	return ptxasrun(&o, res);
}

static long
spill(const Pxfn *f)
{
	if (f->spillst < 0 && f->spillld < 0)
		return -1;
	return (f->spillst > 0 ? f->spillst : 0)
		+ (f->spillld > 0 ? f->spillld : 0);
}

static const Pxfn *
findfn(const Pxres *res, const char *name)
{
	for (int i = 0; i < res->nfn; i++)
		if (!strcmp(res->fn[i].name, name))
			return &res->fn[i];
	return 0;
}

/* The rewrite at path, parsed, when xspill put a local array in it (its
 * spill traffic that ptxas does not count: xspillbytes), else NULL;
 * *text holds its bytes until the caller frees both. */
static Module *
xspillmod(const char *path, char **text)
{
	size_t n;
	char *s = pxslurp(path, &n);

	*text = s;
	if (!s || !memmem(s, n, "__xspill", 8))
		return 0;
	Diag d = {0};
	d.quiet = 1;
	return parse(path, s, n, &d);
}

static long
xbytes(const Module *m, const char *name)
{
	for (uint32_t i = 0; m && i < m->nitem; i++)
		if (m->item[i].kind == Ifunc && m->item[i].fn->body
		&& !strcmp(m->item[i].fn->name, name))
			return xspillbytes(m->item[i].fn);
	return 0;
}

/* One line per kernel, each line one write() on an O_APPEND file so
 * lines from parallel build jobs never interleave. */
static void
logfile(Run *r, In *in, const char *status)
{
	const char *path = getenv("PTXPRESS_LOG");
	Pxres a = {0}, b = {0};
	Buf l = {0};
	int fd;

	if (!path || !*path || !in->src)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0)
		return;
	measure(r, in->path, &a);
	if (in->tmp)
		measure(r, in->tmp, &b);
	/* the original may not assemble (a NUL-terminated dump); then
	 * the kernels are the rewrite's, and "before" is unknown (-1) */
	const Pxres *src = a.nfn || !in->tmp ? &a : &b;
	char *xtext = 0;
	Module *xm = in->tmp ? xspillmod(in->tmp, &xtext) : 0;
	for (int i = 0; i < src->nfn; i++) {
		const char *name = src->fn[i].name;
		const Pxfn *f = findfn(&a, name);
		const Pxfn *g = in->tmp ? findfn(&b, name) : f;
		l.n = 0;
		bprintf(&l, "ptxpress-ptxas file=%s arch=%s kernel=%s "
			"regs=%d->%d spill=%ld->%ld stack=%ld->%ld "
			"pipeline=%s status=%s\n", in->path, src->arch, name,
			f ? f->regs : -1, g ? g->regs : -1, f ? spill(f) : -1,
			g ? spill(g) : -1, f ? f->stack : -1, g ? g->stack : -1,
			*r->pipeline ? r->pipeline : "default", status);
		/* spill=A->B is ptxas's; what xspill moves itself is its own
		 * figure, so that the line does not read as less traffic */
		long x = xbytes(xm, name);
		if (x > 0) {
			l.n--;
			bprintf(&l, " xspill=%ld\n", x);
		}
		if (write(fd, l.p, l.n) < 0)
			break;
	}
	if (xm)
		afree(xm->a);
	free(xtext);
	close(fd);
	free(l.p);
	ptxasfree(&a);
	ptxasfree(&b);
}

/* ---- the run ---- */

/* Copies a captured stream to fd, the temporary paths spelled as the
 * caller gave them. */
static void
replay(Run *r, const char *file, FILE *to)
{
	size_t n, i = 0;
	char *s = pxslurp(file, &n);

	while (s && i < n) {
		int hit = 0;
		for (int k = 0; k < r->nin && !hit; k++) {
			const char *t = r->in[k].tmp;
			size_t tl = t ? strlen(t) : 0;
			if (t && n - i >= tl && !memcmp(s + i, t, tl)) {
				fputs(r->in[k].path, to);
				i += tl;
				hit = 1;
			}
		}
		if (!hit)
			fputc(s[i++], to);
	}
	fflush(to);
	free(s);
}

/* Runs the real ptxas on the rewritten copies with its output held
 * back, so that a failure can be retried on the originals without the
 * caller seeing two logs. */
static int
assemble(Run *r)
{
	Buf o = {0}, e = {0};
	int fo, fe, st;

	bprintf(&o, "%s/stdout", r->tmpdir);
	bprintf(&e, "%s/stderr", r->tmpdir);
	fo = open(o.p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(e.p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	st = fo < 0 || fe < 0 ? -1 : runto(r->argv, fo, fe);
	if (fo >= 0)
		close(fo);
	if (fe >= 0)
		close(fe);
	if (st == 0 || r->strict) {
		replay(r, o.p, stdout);
		replay(r, e.p, stderr);
	}
	free(o.p);
	free(e.p);
	return st;
}

static int
rewritten_any(Run *r)
{
	for (int i = 0; i < r->nin; i++)
		if (r->in[i].tmp)
			return 1;
	return 0;
}

/* Back to the caller's own files. */
static void
restore(Run *r)
{
	for (int i = 0; i < r->nin; i++)
		r->argv[r->in[i].argi] = r->in[i].path;
}

static int
wrap(Run *r)
{
	int st;

	for (int i = 0; i < r->nin; i++)
		if (prepare(r, &r->in[i])) {
			cleanup(r);
			return 1;
		}
	if (!rewritten_any(r)) {
		for (int i = 0; i < r->nin; i++)
			logfile(r, &r->in[i], "unchanged");
		cleanup(r);
		execreal(r);
	}
	st = assemble(r);
	if (st == 0 || r->strict) {
		for (int i = 0; i < r->nin; i++)
			logfile(r, &r->in[i], r->in[i].tmp ? "rewritten"
				: "unchanged");
		cleanup(r);
		return exitas(st);
	}
	fprintf(stderr, "%s: warning: ptxas failed on the rewritten PTX; "
		"assembling the original\n", progname);
	cleanup(r);
	for (int i = 0; i < r->nin; i++) {
		free(r->in[i].tmp);
		r->in[i].tmp = 0;
		logfile(r, &r->in[i], "fallback");
	}
	restore(r);
	execreal(r);
}

int
main(int argc, char **argv)
{
	static Run r;
	const char *s;

	r.argc = argc;
	r.argv = xmalloc(sizeof *r.argv * ((size_t)argc + 1));
	memcpy(r.argv, argv, sizeof *argv * ((size_t)argc + 1));
	r.drop = calloc((size_t)argc + 1, 1);
	if (args(&r)) {
		fprintf(stderr, "%s: more than %d inputs\n", progname, Maxin);
		return 1;
	}
	if (r.help && !r.nin) {
		help();
		return 0;
	}
	r.real = ptxasfind(0);
	if (!r.real) {
		fprintf(stderr, "%s: error: no real ptxas found (set "
			"PTXPRESS_PTXAS, or put CUDA's bin on PATH)\n",
			progname);
		return 1;
	}
	r.argv[0] = r.real;
	s = getenv("PTXPRESS_STRICT");
	r.strict = s && *s && strcmp(s, "0");
	s = getenv("PTXPRESS_PIPELINE");
	r.pipeline = s ? s : "";
	if (!r.nin || r.version)
		execreal(&r);
	return wrap(&r);
}
