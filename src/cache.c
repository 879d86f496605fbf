/* cache.c: the result cache shared by every build job on a machine,
 * and the 'ptxpress cache' command.
 *
 * A rewrite may cost many ptxas runs and builds repeat, so results are
 * kept under a SHA-256 of everything they depend on.  Many jobs may
 * share the folder: an entry is written to a temporary file and renamed
 * into place, readers only ever see whole entries, and no lock exists,
 * so none is held while ptxas runs.  Every failure to use the cache is
 * silent: a cache may speed a build up, never break it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "all.h"

#define MAGIC "ptxpress-cache 1 "

/* ---- SHA-256 (FIPS 180-4) ---- */

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
	0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
	0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
	0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
	0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
	0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
	0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
	0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t
ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static void
block(Hash *h, const unsigned char *p)
{
	uint32_t w[64], s[8], t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4*i] << 24 | (uint32_t)p[4*i+1] << 16
			| (uint32_t)p[4*i+2] << 8 | p[4*i+3];
	for (; i < 64; i++)
		w[i] = w[i-16] + w[i-7]
			+ (ror(w[i-15], 7) ^ ror(w[i-15], 18) ^ w[i-15] >> 3)
			+ (ror(w[i-2], 17) ^ ror(w[i-2], 19) ^ w[i-2] >> 10);
	memcpy(s, h->h, sizeof s);
	for (i = 0; i < 64; i++) {
		t1 = s[7] + (ror(s[4], 6) ^ ror(s[4], 11) ^ ror(s[4], 25))
			+ ((s[4] & s[5]) ^ (~s[4] & s[6])) + K[i] + w[i];
		t2 = (ror(s[0], 2) ^ ror(s[0], 13) ^ ror(s[0], 22))
			+ ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
		memmove(s + 1, s, 7 * sizeof *s);
		s[4] += t1;
		s[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h->h[i] += s[i];
}

void
hinit(Hash *h)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	memcpy(h->h, iv, sizeof iv);
	h->n = 0;
}

void
hadd(Hash *h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t k;

	while (n) {
		k = h->n % 64;
		if (!k && n >= 64) {
			block(h, s);
			k = 64;
		} else {
			k = 64 - k < n ? 64 - k : n;
			memcpy(h->buf + h->n % 64, s, k);
			if ((h->n + k) % 64 == 0)
				block(h, h->buf);
		}
		h->n += k;
		s += k;
		n -= k;
	}
}

/* A field of a key: its length first, so "ab"+"c" and "a"+"bc" differ. */
void
hfield(Hash *h, const char *s, size_t n)
{
	char len[24];

	snprintf(len, sizeof len, "%zu:", n);
	hadd(h, len, strlen(len));
	hadd(h, s, n);
}

void
hhex(Hash *h, char out[65])
{
	unsigned char pad[72] = {0x80};
	uint64_t bits = h->n * 8;
	size_t k = (h->n % 64 < 56 ? 56 : 120) - h->n % 64;

	for (int i = 0; i < 8; i++)
		pad[k + i] = (unsigned char)(bits >> (56 - 8 * i));
	hadd(h, pad, k + 8);
	for (int i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", (unsigned)h->h[i]);
}

/* ---- which ptxas ---- */

/* What ptxas --version prints (malloc'd), or NULL.  It is part of the
 * key: a different ptxas may want a different rewrite. */
char *
ptxasversion(const char *ptxas)
{
	char *argv[] = {(char *)ptxas, "--version", 0}, chunk[512];
	Buf b = {0};
	int fd[2], st;
	ssize_t k;
	pid_t pid;

	if (pipe(fd))
		return 0;
	fflush(stdout);
	fflush(stderr);
	if (!(pid = fork())) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		execv(ptxas, argv);
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && ((k = read(fd[0], chunk, sizeof chunk)) > 0
	|| (k < 0 && errno == EINTR)))
		if (k > 0)
			bput(&b, chunk, (size_t)k);
	close(fd[0]);
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) || !b.p) {
		free(b.p);
		return 0;
	}
	return b.p;
}

/* ---- where ---- */

/* The cache folder, malloc'd, or NULL when caching is off:
 * PTXPRESS_CACHE_DIR ("" or "off" turn it off), else the user's cache
 * folder. */
char *
cachedir(void)
{
	const char *d = getenv("PTXPRESS_CACHE_DIR"), *sub = "/ptxpress";
	Buf b = {0};

	if (d) {
		if (!*d || !strcmp(d, "off") || !strcmp(d, "0"))
			return 0;
		sub = "";
	} else if ((d = getenv("XDG_CACHE_HOME")) && *d == '/') {
	} else if ((d = getenv("HOME")) && *d) {
		sub = "/.cache/ptxpress";
	} else
		return 0;
	bprintf(&b, "%s%s", d, sub);
	return b.p;
}

static void
mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		mkdir(path, 0777);
		*p = '/';
	}
	mkdir(path, 0777);
}

/* dir/v1/ab/cdef... */
static char *
entrypath(const char *dir, const char *key)
{
	Buf b = {0};

	bprintf(&b, "%s/v1/%.2s/%s", dir, key, key + 2);
	return b.p;
}

/* ---- entries ---- */

static const char *kindname[] = {"miss", "text", "same", "fail"};

/* The entry for key: its kind (Ctext, Csame, Cfail, or Cmiss) and, for
 * Ctext, the malloc'd text in *text.  An entry that does not say it is
 * for this key is a miss, so a damaged folder only costs time. */
int
cacheget(const char *key, char **text, size_t *n)
{
	char *dir = cachedir(), *path, *s, *nl;
	size_t len, hl = strlen(MAGIC) + 64 + 1;
	int kind = Cmiss;

	*text = 0;
	if (!dir)
		return Cmiss;
	path = entrypath(dir, key);
	s = pxslurp(path, &len);
	if (s && len > hl && !memcmp(s, MAGIC, strlen(MAGIC))
	&& !memcmp(s + strlen(MAGIC), key, 64)
	&& (nl = memchr(s + hl, '\n', len - hl))) {
		for (int k = Ctext; k <= Cfail; k++)
			if ((size_t)(nl - s - hl) == strlen(kindname[k])
			&& !memcmp(s + hl, kindname[k], strlen(kindname[k])))
				kind = k;
		if (kind == Ctext) {
			*n = len - (size_t)(nl + 1 - s);
			*text = xmalloc(*n + 1);
			memcpy(*text, nl + 1, *n);
			(*text)[*n] = 0;
		}
	}
	cachenote(dir, kind != Cmiss);
	free(s);
	free(path);
	free(dir);
	return kind;
}

static int
writeall(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Stores an entry: a temporary file in the entry's own folder (so the
 * rename stays on one file system) renamed over whatever is there.  Two
 * jobs that store one key store the same bytes, so the last one wins
 * harmlessly. */
void
cacheput(const char *key, int kind, const char *text, size_t n)
{
	char *dir = cachedir(), *path, *tmp;
	Buf h = {0}, t = {0};
	int fd;

	if (!dir)
		return;
	path = entrypath(dir, key);
	bprintf(&t, "%s", path);
	*strrchr(t.p, '/') = 0;
	mkdirs(t.p);
	t.n = 0;
	bprintf(&t, "%s.tmp.XXXXXX", path);
	tmp = t.p;
	bprintf(&h, "%s%s %s\n", MAGIC, key, kindname[kind]);
	fd = mkstemp(tmp);
	if (fd >= 0) {
		int ok = !writeall(fd, h.p, h.n)
			&& (kind != Ctext || !writeall(fd, text, n));
		fchmod(fd, 0644);
		if (close(fd) || !ok || rename(tmp, path))
			unlink(tmp);
	}
	free(h.p);
	free(tmp);
	free(path);
	free(dir);
}

/* Hits and misses, one byte each, appended: O_APPEND makes each write
 * land whole however many jobs count at once. */
void
cachenote(const char *dir, int hit)
{
	Buf b = {0};
	int fd;

	mkdirs((char *)dir);
	bprintf(&b, "%s/events", dir);
	fd = open(b.p, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd >= 0) {
		writeall(fd, hit ? "h" : "m", 1);
		close(fd);
	}
	free(b.p);
}

/* ---- the command ---- */

typedef struct Tally { long files, tmp; long long bytes; } Tally;

/* Visits dir/v1/xx/entry, two levels; with clear, removes as it goes. */
static void
walk(const char *dir, int depth, int clear, Tally *t)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	Buf p = {0};

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		p.n = 0;
		bprintf(&p, "%s/%s", dir, e->d_name);
		if (lstat(p.p, &st))
			continue;
		if (S_ISDIR(st.st_mode) && depth < 2) {
			walk(p.p, depth + 1, clear, t);
			if (clear)
				rmdir(p.p);
		} else if (S_ISREG(st.st_mode)) {
			if (strstr(e->d_name, ".tmp."))
				t->tmp++;
			else
				t->files++;
			t->bytes += st.st_size;
			if (clear)
				unlink(p.p);
		}
	}
	closedir(d);
	free(p.p);
}

static int
helpcache(FILE *f)
{
	fprintf(f,
"usage: ptxpress cache --stats | --clear | --dir\n"
"\n"
"ptxpress-ptxas keeps each rewrite it makes, keyed by a SHA-256 of the\n"
"input PTX, the pipeline and its options, the target, and the real\n"
"ptxas's version and arguments, so a rebuild does not search again.\n"
"The folder is $PTXPRESS_CACHE_DIR, else $XDG_CACHE_HOME/ptxpress, else\n"
"~/.cache/ptxpress; PTXPRESS_CACHE_DIR=off turns the cache off.  Many\n"
"build jobs may share it: entries are renamed into place whole.\n"
"\n"
"  --stats  entries, bytes, hits and misses since the last --clear\n"
"  --clear  remove every entry and the counts\n"
"  --dir    print the folder\n");
	return f == stdout ? 0 : 2;
}

static void
stats(const char *dir)
{
	Tally t = {0};
	Buf b = {0};
	long hit = 0, miss = 0;
	size_t n;
	char *ev;

	bprintf(&b, "%s/v1", dir);
	walk(b.p, 0, 0, &t);
	b.n = 0;
	bprintf(&b, "%s/events", dir);
	if ((ev = pxslurp(b.p, &n)))
		for (size_t i = 0; i < n; i++) {
			hit += ev[i] == 'h';
			miss += ev[i] == 'm';
		}
	printf("cache: %s\nentries: %ld\nbytes: %lld\nhits: %ld\n"
		"misses: %ld\n", dir, t.files, t.bytes, hit, miss);
	if (t.tmp)
		printf("unfinished writes: %ld\n", t.tmp);
	free(ev);
	free(b.p);
}

int
cmdcache(int argc, char **argv)
{
	char *dir;
	Buf b = {0};
	Tally t = {0};

	if (argc != 2)
		return helpcache(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return helpcache(stdout);
	if (!(dir = cachedir())) {
		fprintf(stderr, "%s: the cache is off (PTXPRESS_CACHE_DIR)\n",
			progname);
		return strcmp(argv[1], "--clear") ? 2 : 0;
	}
	if (!strcmp(argv[1], "--dir"))
		printf("%s\n", dir);
	else if (!strcmp(argv[1], "--stats"))
		stats(dir);
	else if (!strcmp(argv[1], "--clear")) {
		bprintf(&b, "%s/v1", dir);
		walk(b.p, 0, 1, &t);
		rmdir(b.p);
		b.n = 0;
		bprintf(&b, "%s/events", dir);
		unlink(b.p);
		printf("removed %ld entries (%lld bytes) from %s\n", t.files,
			t.bytes, dir);
	} else {
		free(dir);
		return helpcache(stderr);
	}
	free(b.p);
	free(dir);
	return 0;
}
