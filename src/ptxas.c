/* ptxas.c: find ptxas, learn what it accepts, run it, read its -v log.
 *
 * Everything here may run from many threads at once: the only shared
 * state is the ISA cache and the lock that keeps pipe descriptors from
 * leaking into a child spawned by another thread. */
#define _GNU_SOURCE             /* memmem */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "all.h"

extern char **environ;

enum { Ncache = 16, Maxargs = 64 };

static pthread_mutex_t spawnlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cachelock = PTHREAD_MUTEX_INITIALIZER;
static struct { char *path; int maj, min; } cache[Ncache];
static int ncache;

/* First CUDA release of each PTX ISA, from the PTX ISA release notes.
 * A release between two rows accepts the ISA of the earlier row
 * (12.6 shipped no new ISA, so it takes 8.5). */
static const struct { int cmaj, cmin, maj, min; } isatab[] = {
	{9, 0, 6, 0}, {9, 1, 6, 1}, {9, 2, 6, 2},
	{10, 0, 6, 3}, {10, 1, 6, 4}, {10, 2, 6, 5},
	{11, 0, 7, 0}, {11, 1, 7, 1}, {11, 2, 7, 2}, {11, 3, 7, 3},
	{11, 4, 7, 4}, {11, 5, 7, 5}, {11, 6, 7, 6}, {11, 7, 7, 7},
	{11, 8, 7, 8},
	{12, 0, 8, 0}, {12, 1, 8, 1}, {12, 2, 8, 2}, {12, 3, 8, 3},
	{12, 4, 8, 4}, {12, 5, 8, 5}, {12, 6, 8, 5}, {12, 7, 8, 6},
	{12, 8, 8, 7}, {12, 9, 8, 8},
	{13, 0, 9, 0}, {13, 1, 9, 1},
};

char *
pxslurp(const char *path, size_t *n)
{
	FILE *f;
	char *buf, *p;
	size_t cap = 1 << 16, len = 0, got;

	f = fopen(path, "rb");
	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (len + 1 < cap)
			break;
		p = realloc(buf, cap *= 2);
		if (!p)
			free(buf);
		buf = p;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[len] = 0;
		*n = len;
	}
	return buf;
}

/* --- PTX text: the few directives a run needs --- */

static int
isident(int c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%';
}

/* Offset just past directive dir (".target") where it starts a token
 * outside comments and strings, or -1. */
static long
finddir(const char *s, size_t n, const char *dir)
{
	size_t i = 0, k = strlen(dir);
	int start = 1;

	while (i < n) {
		if (s[i] == '/' && i + 1 < n && s[i+1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
		} else if (s[i] == '/' && i + 1 < n && s[i+1] == '*') {
			for (i += 2; i + 1 < n; i++)
				if (s[i] == '*' && s[i+1] == '/')
					break;
			i += 2;
			start = 1;
		} else if (s[i] == '"') {
			for (i++; i < n && s[i] != '"' && s[i] != '\n'; i++)
				;
			i++;
			start = 1;
		} else {
			if (start && n - i >= k && memcmp(s + i, dir, k) == 0
			&& (i + k == n || !isident(s[i+k])))
				return (long)(i + k);
			start = !isident(s[i]) && s[i] != '.';
			i++;
		}
	}
	return -1;
}

static size_t
skipblank(const char *s, size_t i, size_t n)
{
	while (i < n && isspace((unsigned char)s[i]))
		i++;
	return i;
}

int
ptxtarget(const char *text, size_t n, char *arch, size_t cap)
{
	long p;
	size_t i, b;

	p = finddir(text, n, ".target");
	if (p < 0)
		return -1;
	b = i = skipblank(text, (size_t)p, n);
	while (i < n && (isalnum((unsigned char)text[i]) || text[i] == '_'))
		i++;
	if (i == b || i - b >= cap)
		return -1;
	memcpy(arch, text + b, i - b);
	arch[i - b] = 0;
	return 0;
}

/* Finds ".version M.m"; [*b, *e) spans the number. */
static int
versionspan(const char *s, size_t n, size_t *b, size_t *e,
	int *maj, int *min)
{
	long p;
	size_t i;
	int a = 0, c = 0;

	p = finddir(s, n, ".version");
	if (p < 0)
		return -1;
	*b = i = skipblank(s, (size_t)p, n);
	if (i >= n || !isdigit((unsigned char)s[i]))
		return -1;
	for (; i < n && isdigit((unsigned char)s[i]); i++)
		a = a * 10 + (s[i] - '0');
	if (i >= n || s[i] != '.')
		return -1;
	for (i++; i < n && isdigit((unsigned char)s[i]); i++)
		c = c * 10 + (s[i] - '0');
	*e = i;
	*maj = a;
	*min = c;
	return 0;
}

int
ptxversion(const char *text, size_t n, int *maj, int *min)
{
	size_t b, e;

	return versionspan(text, n, &b, &e, maj, min);
}

/* ptxas refuses any byte past ASCII, even in a comment ("Unexpected
 * non-ASCII character"); hand-written PTX has em dashes there. Each
 * such byte in a comment becomes '?', keeping lines and columns. */
static int
scrub(char *s, size_t n)
{
	size_t i = 0, k = 0;
	int ch = 0, end;
	uint64_t any = 0, w;

	/* almost always pure ASCII: one pass eight bytes at a time says so
	 * (byte by byte it was 1.3 % of opt's work on CUTLASS's 11.5 MB
	 * file: gcc -O2 does not vectorize it), and the comment walk below
	 * is skipped */
	for (; k + 8 <= n; k += 8) {
		memcpy(&w, s + k, 8);
		any |= w;
	}
	for (; k < n; k++)
		any |= (unsigned char)s[k];
	if (!(any & 0x8080808080808080u))
		return 0;
	while (i < n) {
		if (s[i] == '"') {
			for (i++; i < n && s[i] != '"' && s[i] != '\n'; i++)
				;
			i++;
		} else if (s[i] == '/' && i + 1 < n
		&& (s[i+1] == '/' || s[i+1] == '*')) {
			end = s[i+1] == '*';
			for (i += 2; i < n; i++) {
				if (end ? s[i] == '*' && i + 1 < n
					&& s[i+1] == '/' : s[i] == '\n')
					break;
				if ((unsigned char)s[i] >= 0x80) {
					s[i] = '?';
					ch = 1;
				}
			}
			i += end ? 2 : 0;
		} else
			i++;
	}
	return ch;
}

/* Makes text acceptable to a ptxas that takes ISA maj.min at most:
 * drops trailing NULs (dumps from C strings carry them), lowers a
 * newer .version and scrubs non-ASCII bytes from comments. Lowering
 * is only a guess that the newer features go unused; if they are
 * used, ptxas says so, which is the honest result. */
char *
ptxfixup(const char *text, size_t n, int maj, int min, size_t *outn,
	int *changed)
{
	size_t m = n, b, e, k;
	int vmaj, vmin, ch = 0, len;
	char num[32], *out;

	while (m > 0 && text[m-1] == 0)
		m--;
	if (m < n)
		ch |= Fnul;
	out = malloc(m + sizeof num + 1);
	if (!out)
		return NULL;
	if (versionspan(text, m, &b, &e, &vmaj, &vmin) == 0
	&& (vmaj > maj || (vmaj == maj && vmin > min))) {
		len = snprintf(num, sizeof num, "%d.%d", maj, min);
		memcpy(out, text, b);
		memcpy(out + b, num, (size_t)len);
		k = b + (size_t)len;
		memcpy(out + k, text + e, m - e);
		k += m - e;
		ch |= Fversion;
	} else {
		memcpy(out, text, m);
		k = m;
	}
	if (scrub(out, k))
		ch |= Fascii;
	out[k] = 0;
	if (outn)
		*outn = k;
	if (changed)
		*changed = ch;
	return out;
}

/* --- running a program --- */

/* Runs argv[0] (a path, no shell) with stdout and stderr sent into one
 * pipe; returns its exit status with the output in *out, or -1. */
static int
spawn(char *const argv[], char **out, size_t *nout)
{
	int fd[2], e, st;
	pid_t pid;
	posix_spawn_file_actions_t fa;
	char *buf, *p, sink[4096];
	size_t cap = 4096, len = 0;
	ssize_t got;

	*out = NULL;
	*nout = 0;
	if (posix_spawn_file_actions_init(&fa))
		return -1;
	/* held from pipe() to the spawn so no other child inherits fd[1]
	 * and keeps our read end from seeing end of file */
	pthread_mutex_lock(&spawnlock);
	if (pipe(fd) < 0) {
		pthread_mutex_unlock(&spawnlock);
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
	e = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	pthread_mutex_unlock(&spawnlock);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (e) {
		close(fd[0]);
		errno = e;
		return -1;
	}
	buf = malloc(cap);
	for (;;) {
		if (buf && len + 1 == cap) {
			p = realloc(buf, cap *= 2);
			if (!p)
				free(buf);
			buf = p;
		}
		if (!buf)  /* out of memory: drain so the child can finish */
			got = read(fd[0], sink, sizeof sink);
		else
			got = read(fd[0], buf + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (buf)
			len += (size_t)got;
	}
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			free(buf);
			return -1;
		}
	if (buf) {
		buf[len] = 0;
		*out = buf;
		*nout = len;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A fresh empty file named from $TMPDIR; path must hold 4096 bytes. */
static int
tmpname(char *path, size_t cap)
{
	const char *d = getenv("TMPDIR");
	int fd;

	if (!d || !*d)
		d = "/tmp";
	if ((size_t)snprintf(path, cap, "%s/ptxpress-XXXXXX", d) >= cap)
		return -1;
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int
writefile(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(s, 1, n, f) == n;
	ok &= fclose(f) == 0;
	return ok ? 0 : -1;
}

/* --- which ptxas --- */

static int
isexec(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode)
		&& access(p, X_OK) == 0;
}

static const char *
base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Whether p, or what its symbolic links lead to, is named
 * ptxpress-ptxas: the drop-in wrapper, which would call us back. */
static int
iswrapper(const char *p)
{
	char a[4096], b[4096];
	ssize_t k;
	size_t dir;
	int hop;

	if (snprintf(a, sizeof a, "%s", p) >= (int)sizeof a)
		return 0;
	for (hop = 0; hop < 16; hop++) {
		if (strcmp(base(a), "ptxpress-ptxas") == 0)
			return 1;
		k = readlink(a, b, sizeof b - 1);
		if (k < 0)
			return 0;
		b[k] = 0;
		dir = b[0] == '/' ? 0 : (size_t)(base(a) - a);
		if (dir + (size_t)k >= sizeof a)
			return 0;
		memcpy(a + dir, b, (size_t)k + 1);
	}
	return 0;
}

/* Whether running p would run us again. */
static int
isself(const char *p)
{
	struct stat a, b;

	if (stat(p, &a) == 0 && stat("/proc/self/exe", &b) == 0
	&& a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return 1;
	return iswrapper(p);
}

static char *
checked(const char *p, const char *from)
{
	if (isexec(p))
		return strdup(p);
	fprintf(stderr, "ptxpress: %s: %s is not executable\n", from, p);
	return NULL;
}

/* The first executable NAME in $PATH's folders (notself: not a
 * ptxpress drop-in), or NULL. */
static char *
onpath(const char *name, int notself)
{
	const char *env = getenv("PATH"), *s, *e;
	size_t n = strlen(name), len;
	char path[4096];

	for (s = env; s && *s; s = *e ? e + 1 : e) {
		e = strchr(s, ':');
		if (!e)
			e = s + strlen(s);
		len = (size_t)(e - s);
		if (len == 0 || len + n + 2 > sizeof path)
			continue;
		memcpy(path, s, len);
		path[len] = '/';
		memcpy(path + len + 1, name, n + 1);
		if (isexec(path) && (!notself || !isself(path)))
			return strdup(path);
	}
	return NULL;
}

char *
ptxasfind(const char *override)
{
	const char *env, *s;
	char *p;

	if (override)
		return checked(override, "ptxas");
	env = getenv("PTXPRESS_PTXAS");
	if (env && *env)
		return checked(env, "PTXPRESS_PTXAS");
	if ((p = onpath("ptxas", 1)))
		return p;
	s = "/usr/local/cuda/bin/ptxas";
	return isexec(s) && !isself(s) ? strdup(s) : NULL;
}

/* --- the loops of the SASS --- */

/* `nvdisasm -c` prints a function as its section, ".section
 * .text.NAME,...", then one instruction a line (its address in a
 * comment, then "@!P0 BRA `(.L_x_0) ;"), and labels, ".L_x_1:".  A
 * branch to a label before it closes a loop, so every instruction from
 * the label to the branch runs in one.  The search wants to know whether a rewrite puts
 * more work in the loops than it takes away: spill bytes alone do not
 * say where the spills run (on the H200 a kernel whose 16 bytes of
 * spill sat outside its loop ran 12 % slower spill-free, its loop 14 %
 * longer; bench/RESULTS.md, fourteenth session).  A line is an Sline
 * (all.h). */

/* The opcode of an instruction line (after its address, written as a
 * comment, and its guard), or NULL when the line holds none. */
const char *
sassop(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (e - s < 4 || s[0] != '/' || s[1] != '*')
		return NULL;
	for (s += 2; s < e && isxdigit((unsigned char)*s); s++)
		;
	if (e - s < 2 || s[0] != '*' || s[1] != '/')
		return NULL;
	for (s += 2; s < e && (*s == ' ' || *s == '\t'); s++)
		;
	if (s < e && *s == '@') {               /* a guard: @!P0, @UP1 */
		while (s < e && *s != ' ' && *s != '\t')
			s++;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
	}
	return s < e && isupper((unsigned char)*s) ? s : NULL;
}

/* The instructions and labels of [s, e) into ins and lab (room for a
 * line each); returns how many instructions, *nlab the labels. */
static long
sasslines(const char *s, const char *e, Sline *ins, Sline *lab, long *nlab)
{
	long nins = 0;
	const char *op, *q;

	*nlab = 0;
	for (const char *p = s; p < e; p = q + 1) {
		if (!(q = memchr(p, '\n', (size_t)(e - p))))
			q = e;
		if ((op = sassop(p, q)))
			ins[nins++] = (Sline){op, q, 0};
		else if (p < q && *p == '.' && q[-1] == ':')   /* ".L_x_1:" */
			lab[(*nlab)++] = (Sline){p, q - 1, nins};
	}
	return nins;
}

/* Where a branch's target label (the name inside its "`(...)") stands,
 * or -1: not a branch, or a label not among lab. */
long
sasstarget(const Sline *b, const Sline *lab, long nlab)
{
	const char *t = memchr(b->s, '`', (size_t)(b->e - b->s)), *te;

	if (strncmp(b->s, "BRA", 3) || !t || b->e - t < 2 || t[1] != '(')
		return -1;
	for (te = t += 2; te < b->e && *te != ')'; te++)
		;
	for (long i = 0; i < nlab; i++)
		if (lab[i].e - lab[i].s == te - t
		&& !memcmp(lab[i].s, t, (size_t)(te - t)))
			return lab[i].at;
	return -1;
}

/* Whether SASS line l mentions register r (r's own bytes, not the
 * start of a longer name: R25 is not in R252). */
static int
mentions(const Sline *l, const char *r, size_t n)
{
	for (const char *p = l->s; p + n <= l->e; p++)
		if (!memcmp(p, r, n)
		&& (p + n == l->e || !isalnum((unsigned char)p[n]))
		&& (p == l->s || !isalnum((unsigned char)p[-1])))
			return 1;
	return 0;
}

/* Whether the STL at ins[i] spills a load in flight: the register it
 * stores was written by a global load (LDG, not LDGSTS, which writes
 * shared memory) at most Expwin instructions before, and nothing
 * between mentions it.  The store reads the register, so the warp
 * waits there for the load's whole latency, where it would otherwise
 * run on to the load's first use.  On the H200, Triton's d64_n128 s3
 * causal misaligned kernel ran 13-23 % slower under every rewrite
 * that did this to 6-16 of its V loads, though each spilled less and
 * put fewer instructions in the loop (bench/RESULTS.md, eighteenth
 * session). */
enum { Expwin = 32 };

static int
spillsload(const Sline *ins, long i)
{
	const char *r = ins[i].e, *re;

	while (r > ins[i].s && r[-1] != ',')
		r--;
	while (r < ins[i].e && *r == ' ')
		r++;
	for (re = r; re < ins[i].e && isalnum((unsigned char)*re); re++)
		;
	size_t n = (size_t)(re - r);
	if (n < 2 || *r != 'R')
		return 0;
	for (long j = i - 1; j >= 0 && j >= i - Expwin; j--) {
		if (!mentions(&ins[j], r, n))
			continue;
		const char *d = ins[j].s + 3;
		if (strncmp(ins[j].s, "LDG", 3) || (*d != '.' && *d != ' '))
			return 0;
		while (d < ins[j].e && *d != ' ')       /* LDG.E.U16 */
			d++;
		while (d < ins[j].e && *d == ' ')
			d++;
		return ins[j].e - d > (long)n && !memcmp(d, r, n)
			&& !isalnum((unsigned char)d[n]);
	}
	return 0;
}

/* One function's lines [s, e): its figures into f.  A branch back to
 * a label opens a loop there and closes it after the branch (mark[]
 * counts the loops open at each instruction); a branch to itself is
 * the trap that ends every function, no loop. */
static void
sassfn(Pxfn *f, const char *s, const char *e)
{
	long nline = 1, nins, nlab, depth = 0;
	Sline *ins, *lab;
	long *mark;

	for (const char *p = s; p < e; p++)
		nline += *p == '\n';
	ins = malloc((size_t)nline * sizeof *ins);
	lab = malloc((size_t)nline * sizeof *lab);
	mark = calloc((size_t)nline + 1, sizeof *mark);
	if (ins && lab && mark) {
		nins = sasslines(s, e, ins, lab, &nlab);
		for (long i = 0; i < nins; i++) {
			long j = sasstarget(&ins[i], lab, nlab);
			if (j >= 0 && j < i)
				mark[j]++, mark[i + 1]--;
		}
		f->sassloop = f->sasslocal = f->sassout = 0;
		f->sassexposed = 0;
		for (long i = 0; i < nins; i++) {
			int local = !strncmp(ins[i].s, "STL", 3)
				|| !strncmp(ins[i].s, "LDL", 3);
			if ((depth += mark[i]) > 0) {
				f->sassloop++;
				f->sasslocal += local;
				f->sassexposed += local && ins[i].s[0] == 'S'
					&& spillsload(ins, i);
			} else
				f->sassout += local;
		}
	}
	free(ins);
	free(lab);
	free(mark);
}

/* nvdisasm's text t of a cubin: each function of r that it shows, as
 * the lines [s, e) of its section, to fn. */
void
sasseach(Pxres *r, const char *t, size_t n,
	void (*fn)(Pxfn *, const char *s, const char *e))
{
	static const char sec[] = ".section\t.text.";
	const char *end = t + n, *p = t;

	while (p < end && (p = strstr(p, sec))) {
		const char *name = p + sizeof sec - 1, *ne = name, *next;
		while (ne < end && *ne != ',' && *ne != '\n')
			ne++;
		next = strstr(ne, sec);
		if (!next)
			next = end;
		for (int i = 0; i < r->nfn; i++)
			if (strlen(r->fn[i].name) == (size_t)(ne - name)
			&& !memcmp(r->fn[i].name, name, (size_t)(ne - name)))
				fn(&r->fn[i], ne, next);
		p = next;
	}
}

/* Each function of r that nvdisasm's text t shows gets its loop
 * figures (the others keep -1). */
void
sassloops(Pxres *r, const char *t, size_t n)
{
	sasseach(r, t, n, sassfn);
}

/* nvdisasm for ptxas: $PTXPRESS_NVDISASM, the one beside ptxas (a
 * CUDA toolkit's bin/ holds both), then PATH's.  NULL: none. */
char *
nvdisasmfind(const char *ptxas)
{
	const char *env = getenv("PTXPRESS_NVDISASM"), *s;
	char path[4096];

	if (env && *env)
		return checked(env, "PTXPRESS_NVDISASM");
	if (ptxas && (s = strrchr(ptxas, '/'))
	&& (size_t)(s - ptxas) + sizeof "/nvdisasm" <= sizeof path) {
		memcpy(path, ptxas, (size_t)(s - ptxas));
		memcpy(path + (s - ptxas), "/nvdisasm", sizeof "/nvdisasm");
		if (isexec(path))
			return strdup(path);
	}
	return onpath("nvdisasm", 0);
}

/* --- which ISA --- */

/* "Cuda compilation tools, release 13.0, V13.0.88" */
static int
releaseisa(const char *log, int *maj, int *min)
{
	const char *p = log ? strstr(log, "release ") : NULL;
	int cmaj, cmin;
	size_t i, best = sizeof isatab / sizeof isatab[0];

	if (!p || sscanf(p, "release %d.%d", &cmaj, &cmin) != 2)
		return -1;
	for (i = 0; i < sizeof isatab / sizeof isatab[0]; i++)
		if (isatab[i].cmaj == cmaj && isatab[i].cmin <= cmin)
			best = i;
	/* a minor release past the table is not known to add nothing */
	if (best == sizeof isatab / sizeof isatab[0]
	|| isatab[best].cmin != cmin)
		return -1;
	*maj = isatab[best].maj;
	*min = isatab[best].min;
	return 0;
}

/* Runs ptxas on a module of nothing but a header for ISA maj.min. */
static int
tryisa(const char *ptxas, const char *tmp, int maj, int min, char **log)
{
	char hdr[128];
	char *argv[] = {(char *)ptxas, (char *)tmp, "-o", "/dev/null", 0};
	size_t n;
	int len;

	len = snprintf(hdr, sizeof hdr,
		".version %d.%d\n.target sm_52\n.address_size 64\n",
		maj, min);
	if (writefile(tmp, hdr, (size_t)len) < 0)
		return -1;
	return spawn(argv, log, &n);
}

/* ptxas names its limit when refusing a newer .version ("Unsupported
 * .version 99.9; current version is '9.0'"); failing that, count down
 * until the version is no longer what it complains about. */
static int
probeisa(const char *ptxas, int *maj, int *min)
{
	char tmp[4096], *log, *p;
	int a, b, st, ok = -1;

	if (tmpname(tmp, sizeof tmp) < 0)
		return -1;
	tryisa(ptxas, tmp, 99, 9, &log);
	p = log ? strstr(log, "current version is '") : NULL;
	if (p && sscanf(p, "current version is '%d.%d", maj, min) == 2)
		ok = 0;
	free(log);
	for (a = 15; ok < 0 && a >= 1; a--)
		for (b = 9; ok < 0 && b >= 0; b--) {
			st = tryisa(ptxas, tmp, a, b, &log);
			if (st == 0 || (log && !strstr(log, "version"))) {
				*maj = a;
				*min = b;
				ok = 0;
			}
			free(log);
		}
	unlink(tmp);
	return ok;
}

int
ptxasisa(const char *ptxas, int *maj, int *min)
{
	char *argv[] = {(char *)ptxas, "--version", 0};
	char *log;
	size_t n;
	int i, ok;

	pthread_mutex_lock(&cachelock);
	for (i = 0; i < ncache; i++)
		if (strcmp(cache[i].path, ptxas) == 0) {
			*maj = cache[i].maj;
			*min = cache[i].min;
			pthread_mutex_unlock(&cachelock);
			return 0;
		}
	pthread_mutex_unlock(&cachelock);

	if (spawn(argv, &log, &n) < 0)
		return -1;
	ok = releaseisa(log, maj, min);
	free(log);
	if (ok < 0)
		ok = probeisa(ptxas, maj, min);
	if (ok < 0)
		return -1;

	pthread_mutex_lock(&cachelock);
	if (ncache < Ncache && (cache[ncache].path = strdup(ptxas))) {
		cache[ncache].maj = *maj;
		cache[ncache].min = *min;
		ncache++;
	}
	pthread_mutex_unlock(&cachelock);
	return 0;
}

/* --- the -v log --- */

static int
startswith(const char *s, const char *e, const char *pre)
{
	size_t k = strlen(pre);

	return (size_t)(e - s) >= k && memcmp(s, pre, k) == 0;
}

static Pxfn *
getfn(Pxres *r, const char *name, size_t len, int entry, char **pool)
{
	Pxfn *f;
	int i;

	for (i = 0; i < r->nfn; i++) {
		f = &r->fn[i];
		if (strlen(f->name) == len && memcmp(f->name, name, len) == 0) {
			if (entry > 0)
				f->entry = 1;
			return f;
		}
	}
	/* grow at powers of two */
	if ((r->nfn & (r->nfn - 1)) == 0) {
		f = realloc(r->fn, sizeof *f * (size_t)(r->nfn ? 2*r->nfn : 1));
		if (!f)
			return NULL;
		r->fn = f;
	}
	f = &r->fn[r->nfn++];
	f->name = *pool;
	memcpy(*pool, name, len);
	(*pool)[len] = 0;
	*pool += len + 1;
	f->entry = entry > 0;
	f->regs = f->barriers = -1;
	f->stack = f->spillst = f->spillld = f->cumstack = -1;
	f->smem = f->cmem = f->lmem = -1;
	f->wgserial = 0;
	f->sassloop = f->sasslocal = f->sassout = f->sassexposed = -1;
	f->peak = 0;
	return f;
}

/* "(C7511) Potential Performance Loss: wgmma.mma_async instructions are
 * serialized due to ... in the function 'attn_fwd'": the tensor core
 * waits for each wgmma, a cost the spill figures do not show. */
static Pxfn *
serialnote(Pxres *r, Pxfn *cur, const char *s, const char *e, char **pool)
{
	static const char ser[] = "instructions are serialized";
	static const char fn[] = "the function '";
	const char *p, *q;
	Pxfn *f;

	if (!(p = memmem(s, (size_t)(e - s), ser, sizeof ser - 1))
	|| !(p = memmem(p, (size_t)(e - p), fn, sizeof fn - 1)))
		return cur;
	p += sizeof fn - 1;
	q = memchr(p, '\'', (size_t)(e - p));
	if ((f = getfn(r, p, (size_t)((q ? q : e) - p), -1, pool)))
		f->wgserial = 1;
	return cur;
}

/* One comma-separated item: "Used 8 registers", "used 1 barriers",
 * "64 bytes stack frame", "8+0 bytes lmem", "360 bytes cmem[0]". Known
 * by its words, since the set and order change between releases. */
static void
item(Pxfn *f, const char *s, const char *e)
{
	char *end;
	long v;

	while (s < e && isspace((unsigned char)*s))
		s++;
	if (startswith(s, e, "Used ") || startswith(s, e, "used "))
		s += 5;
	if (s == e || !isdigit((unsigned char)*s))
		return;
	v = strtol(s, &end, 10);
	while (*end == '+' && isdigit((unsigned char)end[1]))
		v += strtol(end + 1, &end, 10);  /* old "44+16 bytes smem" */
	s = end;
	if (startswith(s, e, " registers"))
		f->regs = (int)v;
	else if (startswith(s, e, " barriers"))
		f->barriers = (int)v;
	else if (!startswith(s, e, " bytes "))
		return;
	s += sizeof " bytes " - 1;
	if (startswith(s, e, "stack frame"))
		f->stack = v;
	else if (startswith(s, e, "spill stores"))
		f->spillst = v;
	else if (startswith(s, e, "spill loads"))
		f->spillld = v;
	else if (startswith(s, e, "cumulative stack"))
		f->cumstack = v;
	else if (startswith(s, e, "smem"))
		f->smem = v;
	else if (startswith(s, e, "lmem"))
		f->lmem = v;
	else if (startswith(s, e, "cmem"))
		f->cmem = (f->cmem < 0 ? 0 : f->cmem) + v;
}

static void
items(Pxfn *f, const char *s, const char *e)
{
	const char *c;

	for (; s < e; s = c + 1) {
		c = memchr(s, ',', (size_t)(e - s));
		if (!c)
			c = e;
		item(f, s, c);
	}
}

/* The text after "ptxas info    :", or the line less its indent. */
static const char *
body(const char *s, const char *e)
{
	const char *c;

	if (startswith(s, e, "ptxas")) {
		c = memchr(s, ':', (size_t)(e - s));
		if (c)
			s = c + 1;
	}
	while (s < e && isspace((unsigned char)*s))
		s++;
	return s;
}

static Pxfn *
line(Pxres *r, Pxfn *cur, const char *s, const char *e, char **pool)
{
	static const char cef[] = "Compiling entry function '";
	static const char cf[] = "Compiling function '";
	static const char fp[] = "Function properties for ";
	const char *q;
	int entry;

	s = body(s, e);
	entry = startswith(s, e, cef);
	if (entry || startswith(s, e, cf)) {
		s += entry ? sizeof cef - 1 : sizeof cf - 1;
		q = memchr(s, '\'', (size_t)(e - s));
		return getfn(r, s, (size_t)((q ? q : e) - s), entry, pool);
	}
	if (startswith(s, e, fp)) {
		s += sizeof fp - 1;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		return getfn(r, s, (size_t)(e - s), -1, pool);
	}
	if (cur && (startswith(s, e, "Used ") || isdigit((unsigned char)*s)))
		items(cur, s, e);
	if (startswith(s, e, "(C75"))
		return serialnote(r, cur, s, e, pool);
	return cur;
}

/* Reads a ptxas -v log into r->fn (r zeroed or from an earlier run).
 * Lines it does not know are skipped, so a whole build log, or a
 * sample with comments, parses too. */
int
ptxasparse(const char *log, size_t n, Pxres *r)
{
	const char *s = log, *e, *end = log + n;
	char *pool;
	Pxfn *cur = NULL;

	free(r->names);
	free(r->fn);
	r->fn = NULL;
	r->nfn = 0;
	/* names are pieces of the log, so n bytes hold them all */
	r->names = pool = malloc(n + 1);
	if (!pool)
		return -1;
	for (; s < end; s = e + 1) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		if (e > s && e[-1] == '\r')
			cur = line(r, cur, s, e - 1, &pool);
		else
			cur = line(r, cur, s, e, &pool);
	}
	return 0;
}

void
ptxasfree(Pxres *r)
{
	for (int i = 0; i < r->nfn; i++)
		peakfree(r->fn[i].peak);
	free(r->fn);
	free(r->log);
	free(r->names);
	memset(r, 0, sizeof *r);
}

/* --- a run --- */

static int
filetarget(const char *path, char *arch, size_t cap)
{
	size_t n;
	char *text = pxslurp(path, &n);
	int ok;

	if (!text) {
		fprintf(stderr, "ptxpress: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = ptxtarget(text, n, arch, cap);
	free(text);
	if (ok < 0)
		fprintf(stderr, "ptxpress: %s: no .target\n", path);
	return ok;
}

/* Each function of r that nvdisasm shows in cubin gets its loops'
 * figures; the others keep -1.  Returns nvdisasm's status. */
int
sassrun(const char *nvdisasm, const char *cubin, Pxres *r)
{
	char *dv[] = {(char *)nvdisasm, "-c", (char *)cubin, 0}, *t = 0;
	size_t tn;
	int st = spawn(dv, &t, &tn);

	if (st == 0 && t)
		sassloops(r, t, tn);
	free(t);
	return st;
}

/* Each function of r that nvdisasm -plr shows in cubin gets its peak
 * (sasspeak.c).  Returns nvdisasm's status. */
int
sasspeakrun(const char *nvdisasm, const char *cubin, Pxres *r)
{
	char *dv[] = {(char *)nvdisasm, "-c", "-plr", "-lrm", "narrow",
		(char *)cubin, 0}, *t = 0;
	size_t tn;
	int st = spawn(dv, &t, &tn);

	if (st == 0 && t)
		sasseach(r, t, tn, sasspeak);
	free(t);
	return st;
}

int
ptxasrun(const Pxopt *o, Pxres *r)
{
	char *argv[Maxargs + 8], *ptxas, tmp[4096];
	const char *cubin = o->cubin;
	int n = 0, i;

	memset(r, 0, sizeof *r);
	r->status = -1;
	if (o->arch)
		snprintf(r->arch, sizeof r->arch, "%s", o->arch);
	else if (filetarget(o->ptx, r->arch, sizeof r->arch) < 0)
		return -1;
	ptxas = o->ptxas ? strdup(o->ptxas) : ptxasfind(NULL);
	if (!ptxas) {
		fprintf(stderr, "ptxpress: no ptxas found\n");
		return -1;
	}
	if (!cubin) {
		if (tmpname(tmp, sizeof tmp) < 0) {
			free(ptxas);
			return -1;
		}
		cubin = tmp;
	}
	argv[n++] = ptxas;
	argv[n++] = "-v";
	argv[n++] = "-arch";
	argv[n++] = r->arch;
	for (i = 0; o->args && o->args[i] && i < Maxargs; i++)
		argv[n++] = (char *)o->args[i];
	argv[n++] = "-o";
	argv[n++] = (char *)cubin;
	argv[n++] = (char *)o->ptx;
	argv[n] = 0;
	r->status = spawn(argv, &r->log, &r->nlog);
	if (r->status < 0)
		fprintf(stderr, "ptxpress: cannot run %s: %s\n", ptxas,
			strerror(errno));
	if (r->log)
		ptxasparse(r->log, r->nlog, r);
	if (r->status == 0 && o->nvdisasm)
		sassrun(o->nvdisasm, cubin, r);
	if (r->status == 0 && o->nvdisasm && o->peak)
		sasspeakrun(o->nvdisasm, cubin, r);
	if (!o->cubin)
		unlink(tmp);
	free(ptxas);
	return r->status;
}
