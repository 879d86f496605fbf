/* util.c: arenas, interned strings, errors, files. */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS, MAP_POPULATE */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "all.h"

/* An arena's chunks grow with it, from Chunksz to Hugesz: a large
 * module's IR takes a few chunks of huge pages instead of thousands of
 * small ones (mapping pages was a fifth of a large parse).  But a chunk
 * of huge pages is made whole, and the arena's last one is half empty
 * on average: on ocelot histogram (1.07 MB) 1.4 MB of its 2 MB stayed
 * unused, 13 % of the process.  So where the arena knows about how much
 * it will hold (a->hint: the parser's guess from the input's size), a
 * chunk that would reach past that is of small pages, made Makestep
 * bytes at a time as the arena reaches them (one call for 16 pages
 * still), and so are chunks under Hugesz.  The step was 256 KB, and a
 * parse's temporary arena, the intern table's strings and the IR's
 * last chunk each held most of one unused: 64 KB steps took 470 KB off
 * the peak of nvcc's 1 MB matrix_free (10.2x its input -> 9.7x) and
 * 350 KB off an empty file's.  Huge pages throughout
 * were 8 % faster on histogram's parse than small ones made in steps.
 * Where the hint leaves room for whole huge pages, the arena starts
 * with them instead of growing to them (allocslow). */
enum {
	Chunksz = 1 << 18, Hugesz = 1 << 21, Chunkmax = Hugesz,
	Makestep = 1 << 16,
};

NORETURN void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: internal error: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

Arena *
anew(void)
{
	Arena *a = xmalloc(sizeof *a);

	a->cur = a->spare = 0;
	a->total = a->hint = 0;
	return a;
}

/* Chunks are mapped with their pages made at once: one call for 64
 * pages costs far less than 64 page faults, which were a fifth of a
 * large parse (bench/RESULTS-trust.md).  Under a sanitizer they come
 * from malloc, so that it still sees them. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define __SANITIZE_ADDRESS__ 1          /* clang says it this way */
#endif
#endif
/* A chunk in an arena's spare list is poisoned under ASan, so that a
 * pointer kept past areset still faults there as it did when areset
 * gave the chunk back. */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#define chunkpoison(c, on) ((on) ? ASAN_POISON_MEMORY_REGION((char *)(c) \
	+ Chunkhdr, (c)->cap) : ASAN_UNPOISON_MEMORY_REGION((char *)(c) \
	+ Chunkhdr, (c)->cap))
#else
#define chunkpoison(c, on) ((void)(c), (void)(on))
#endif

#if defined(MAP_POPULATE) && !defined(__SANITIZE_ADDRESS__)
/* A chunk of whole huge pages is mapped on a huge page boundary and
 * asked to be backed by huge pages (where the kernel does it only when
 * asked: transparent_hugepage=madvise), then made at once. */
static void *
hugemap(size_t n)
{
	char *p = mmap(0, n + Hugesz, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *q;

	if (p == MAP_FAILED)
		die("out of memory (%zu bytes)", n);
	q = (char *)(((uintptr_t)p + Hugesz - 1) & ~(uintptr_t)(Hugesz - 1));
	if (q > p)
		munmap(p, (size_t)(q - p));
	munmap(q + n, (size_t)(p + Hugesz - q));
#ifdef MADV_HUGEPAGE
	madvise(q, n, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
	madvise(q, n, MADV_POPULATE_WRITE);     /* fails harmlessly < 5.14 */
#endif
	return q;
}

/* n bytes mapped, the first *made of them made: all of a chunk of huge
 * pages (huge: whole huge pages wanted); of another, at least want and
 * at most a Makestep more. */
static void *
chunkmap(size_t n, size_t want, int huge, size_t *made)
{
	void *p;

	*made = n;
	if (huge && n % Hugesz == 0)
		return hugemap(n);
	if (n > want + Makestep)
		*made = (want + Makestep) & ~(size_t)(Makestep - 1);
	p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS
		| (*made == n ? MAP_POPULATE : 0), -1, 0);
	if (p == MAP_FAILED)
		die("out of memory (%zu bytes)", n);
#ifdef MADV_POPULATE_WRITE
	if (*made < n)
		madvise(p, *made, MADV_POPULATE_WRITE);
#endif
	return p;
}

/* Makes the next step of c's room: bytes made. */
static size_t
chunkmake(Chunk *c)
{
	size_t k = c->room < Makestep ? c->room : Makestep;

#ifdef MADV_POPULATE_WRITE
	madvise((char *)c + Chunkhdr + c->cap, k, MADV_POPULATE_WRITE);
#endif
	c->cap += k;
	c->room -= k;
	return k;
}

static void
chunkunmap(void *p, size_t n)
{
	munmap(p, n);
}
#else
static void *
chunkmap(size_t n, size_t want, int huge, size_t *made)
{
	(void)want, (void)huge;
	*made = n;
	return xmalloc(n);
}

static size_t
chunkmake(Chunk *c)
{
	(void)c;
	return 0;       /* never called: room is 0 */
}

static void
chunkunmap(void *p, size_t n)
{
	(void)n;
	free(p);
}
#endif

/* A chunk areset() kept, if one holds n bytes: the first that holds
 * want (what a fresh chunk would hold), else the largest that holds n.
 * Reusing it saves the kernel zeroing fresh pages: the parser's
 * temporary arena outgrows its first chunk in most functions of a large
 * file, and zeroing its fresh chunks was half of the page clearing
 * that took a third of Sort's parse (bench/RESULTS-trust.md). */
static Chunk *
spare(Chunk **list, size_t n, size_t want)
{
	Chunk **p, **best = 0;

	for (p = list; *p; p = &(*p)->prev) {
		if ((*p)->cap >= want) {
			best = p;
			break;
		}
		if ((*p)->cap >= n && (!best || (*p)->cap > (*best)->cap))
			best = p;
	}
	if (best) {
		Chunk *c = *best;
		*best = c->prev;
		chunkpoison(c, 0);
		return c;
	}
	return 0;
}

/* Chunks of arenas freed, kept for the next arenas of the process up
 * to Poolmax bytes: a process that parses many small modules (opt's
 * validator, the fuzzers, linemut's 20,000 runs) had the kernel make
 * and zero the pages of two fresh chunks for each, three quarters of
 * linemut's time (bench/RESULTS-trust.md, twenty-fifth session); opt's
 * search parses a large file several times, in several threads, and
 * the zeroing of fresh huge pages was a quarter of its own time on
 * CUTLASS's 11.5 MB Blackwell FMHA (thirty-first session).  One pool
 * for all threads, under a lock taken once a chunk (2 MiB at most of
 * arena): per thread, a search on many threads could keep Poolmax in
 * each. */
enum { Poolmax = 256 << 20 };
static struct { Chunk *c; size_t bytes; } pool;
static pthread_mutex_t poollock = PTHREAD_MUTEX_INITIALIZER;

static Chunk *
frompool(size_t n, size_t want)
{
	pthread_mutex_lock(&poollock);
	Chunk *c = spare(&pool.c, n, want);
	if (c)
		pool.bytes -= Chunkhdr + c->cap + c->room;
	pthread_mutex_unlock(&poollock);
	return c;
}

/* c leaves its arena: kept in the pool if it fits, else unmapped. */
static void
topool(Chunk *c)
{
	size_t sz = Chunkhdr + c->cap + c->room;

	pthread_mutex_lock(&poollock);
	int keep = pool.bytes + sz <= Poolmax;
	if (keep) {
		c->prev = pool.c;
		pool.c = c;
		pool.bytes += sz;
		chunkpoison(c, 1);
	}
	pthread_mutex_unlock(&poollock);
	if (!keep)
		chunkunmap(c, sz);
}

/* Bump allocation, 16-byte aligned.  A request of more than an eighth
 * of a chunk (a function's statement array) gets a chunk of its own,
 * linked in behind the current one: the current chunk keeps serving
 * small requests, so no chunk's tail is left unused because a large
 * request did not fit there. */
void *
allocslow(Arena *a, size_t n)
{
	Chunk *c;
	size_t cap, hdr = Chunkhdr;

	n = (n + 15) & ~(size_t)15;
	c = a->cur;
	if (c && c->room && c->used + n <= c->cap + c->room) {
		while (c->used + n > c->cap)    /* the next step of it */
			a->total += chunkmake(c);
		c->used += n;
		return (char *)c + hdr + c->used - n;
	}
	if (n > Chunksz / 8)
		cap = n;
	else {          /* as large as the arena so far, whole pages */
		size_t m = (a->total + Chunksz - 1) & ~(size_t)(Chunksz - 1);
		m = m < Chunksz ? Chunksz : m > Chunkmax ? Chunkmax : m;
		/* while the arena will surely fill it, a chunk of huge
		 * pages from the start: the chunks growing from Chunksz
		 * had mapped its first 2 MB as 512 small pages, and on
		 * this kind of virtual machine each costs 1.3-1.6 us
		 * made (8 MB of huge pages: 0.9 ms; of small ones 4.3) */
		if (a->hint && a->total + Hugesz <= a->hint)
			m = Hugesz;
		cap = m - hdr;
	}
	if ((c = spare(&a->spare, n, cap)) || (c = frompool(n, cap)))
		cap = c->cap;
	else {
		size_t made;
		c = chunkmap(hdr + cap, hdr + n, !a->hint
			|| a->total + hdr + cap <= a->hint, &made);
		c->room = hdr + cap - made;
		c->cap = cap = made - hdr;
	}
	c->used = n;
	a->total += cap;
	if (cap == n && a->cur) {       /* behind the current chunk */
		c->prev = a->cur->prev;
		a->cur->prev = c;
	} else {
		c->prev = a->cur;
		a->cur = c;
	}
	return (char *)c + hdr;
}

void *
zalloc(Arena *a, size_t n)
{
	return memset(alloc(a, n), 0, n);
}

char *
adup(Arena *a, const char *s, size_t n)
{
	char *p = alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static void
tospare(Arena *a, Chunk *c)
{
	c->prev = a->spare;
	a->spare = c;
	chunkpoison(c, 1);
}

/* Empties the arena but keeps its chunks, whose pages are made
 * already: the parser's temporary arena serves one function after
 * another, and mapping fresh pages for each costs more than the parse
 * of a small function.  The current chunk serves on; the others wait
 * in the spare list for allocslow. */
void
areset(Arena *a)
{
	Chunk *c, *p;

	if (!a || !a->cur)
		return;
	for (c = a->cur->prev; c; c = p) {     /* kept for allocslow */
		p = c->prev;
		tospare(a, c);
	}
	a->cur->prev = 0;
	a->cur->used = 0;
	a->total = a->cur->cap;
}

/* Where the arena stands now, for arelease(). */
Amark
amark(const Arena *a)
{
	Chunk *c = a->cur;

	return (Amark){c, c ? c->prev : 0, c ? c->used : 0, a->total};
}

/* Gives back all the arena took since k was marked, keeping the chunks
 * for its next allocations: the search runs variant after variant over
 * one parse, and each variant's statements, copied and rewritten, took
 * 20-45 MB of fresh pages on CUTLASS's 11.5 MB file (thirty-eighth
 * session).  What was allocated before k stays where it was.  Chunks
 * opened since k are in front of k's current one, or (large requests,
 * see allocslow) right behind it, above k's previous one. */
void
arelease(Arena *a, const Amark *k)
{
	Chunk *c, *p;

	for (c = a->cur; c != k->cur; c = p) {
		if (!c)
			die("arelease: the mark is not in this arena");
		p = c->prev;
		tospare(a, c);
	}
	if (c) {
		for (Chunk *q = c->prev; q != k->prev; q = p) {
			if (!q)
				die("arelease: the mark is not in this arena");
			p = q->prev;
			tospare(a, q);
		}
		c->prev = k->prev;
#ifdef __SANITIZE_ADDRESS__
		/* what a pointer kept past the release still sees */
		memset((char *)c + Chunkhdr + k->used, 0xdb, c->used - k->used);
#endif
		c->used = k->used;
	}
	a->cur = k->cur;
	a->total = k->total;
}

/* A checksum of the bytes an arena has handed out: whether anything
 * wrote into it between two calls.  Four lanes of xor-multiply, each
 * step a bijection, so a change to one word always changes the sum. */
uint64_t
asum(const Arena *a)
{
	const uint64_t K = 0x9e3779b97f4a7c15u;
	uint64_t h[4] = {1, 2, 3, 4}, w;

	for (const Chunk *c = a->cur; c; c = c->prev) {
		const unsigned char *p = (const unsigned char *)c + Chunkhdr;
		size_t i = 0;
		for (; i + 32 <= c->used; i += 32)
			for (int k = 0; k < 4; k++) {
				memcpy(&w, p + i + 8 * k, 8);
				h[k] = (h[k] ^ w) * K;
			}
		for (; i < c->used; i++)
			h[0] = (h[0] ^ p[i]) * K;
	}
	return h[0] ^ h[1] ^ h[2] ^ h[3];
}

void
afree(Arena *a)
{
	Chunk *c, *p;

	if (!a)
		return;
	for (c = a->cur; c; c = p) {
		p = c->prev;
		topool(c);
	}
	for (c = a->spare; c; c = p) {     /* poisoned already */
		p = c->prev;
		chunkpoison(c, 0);
		topool(c);
	}
	free(a);
}

/* The intern table lives for the whole process: names repeat across
 * modules (opcodes, modifiers, %r), and a pointer compare is all a pass
 * needs.  Open addressing (strhash below); a slot keeps its string's hash and
 * length beside it, so a probe that misses costs no string compare
 * (a large parse looks up every register name it reads). */
typedef struct Slot { Str s; uint32_t h, n; } Slot;
static struct {
	Slot *tab;
	size_t n, cap;
	Arena *a;
} in;

/* The value of a PTX integer literal as ptxas reads it: decimal, octal
 * after a leading 0, 0x hex, 0b binary, an optional U, in 64 bits.
 * ptxas 13.0 takes .maxntid 0200 for 128 threads, mov 010 for 8 and
 * %r<0b100> for four registers; strtol with base 10 had read the first
 * two as 200 and 10, and with any base 0b110000000 as 0 (a division by
 * zero in the budget proof).  1 if the whole of s[0..n) is one and fits
 * 64 bits. */
int
ptxintn(const char *s, size_t n, int64_t *v)
{
	const char *e = s + n, *d;
	uint64_t x = 0;
	unsigned base = 10;

	if (n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (n > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	else if (n > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9')
		base = 8, s++;
	for (d = s; s < e; s++) {
		unsigned c = *s >= '0' && *s <= '9' ? (unsigned)(*s - '0')
			: *s >= 'a' && *s <= 'f' ? (unsigned)(*s - 'a' + 10)
			: *s >= 'A' && *s <= 'F' ? (unsigned)(*s - 'A' + 10)
			: 99;
		if (c >= base)
			break;
		if (x > (UINT64_MAX - c) / base)
			return 0;       /* past 64 bits: not read */
		x = x * base + c;
	}
	if (s == d)
		return 0;
	if (s < e && *s == 'U')
		s++;
	if (s < e)
		return 0;
	*v = (int64_t)x;
	return 1;
}

/* qsort's order of uint32_t */
int
u32cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* An sm_ target's number (sm_90a: 90, sm_100f: 100) and, where suffix,
 * its last letter ('a', 'f'; 0 where it ends in a digit); -1 for any
 * other target (compute_, none).  check's families, the setmaxnreg
 * lint and the CFG's ISA level read targets through it. */
int
smtarget(Str t, char *suffix)
{
	size_t n = t ? strlen(t) : 0;

	if (n < 3 || strncmp(t, "sm_", 3))
		return -1;
	if (suffix)
		*suffix = isalpha((unsigned char)t[n - 1]) ? t[n - 1] : 0;
	return atoi(t + 3);
}

int
ptxint(const char *s, int64_t *v)
{
	return ptxintn(s, strlen(s), v);
}

/* A directive's numbers ("128, 1, 1"), at most max of them: how many,
 * or -1 if one is not an integer literal. */
int
ptxints(const char *s, int64_t *v, int max)
{
	char buf[64];
	int n = 0;

	while (s && *s) {
		size_t k = strcspn(s, ", \t");
		if (!k || k >= sizeof buf || n == max)
			return -1;
		memcpy(buf, s, k);
		buf[k] = 0;
		if (!ptxint(buf, &v[n++]))
			return -1;
		s += k;
		s += strspn(s, ", \t");
	}
	return n;
}

/* An address offset as the IR keeps it ("+8", "-8", "+-8"). */
int
ptxoff(Str off, int64_t *v)
{
	int neg = 0;

	if (*off == '+')
		off++;
	if (*off == '-')
		neg = 1, off++;
	if (!ptxint(off, v))
		return 0;
	*v = neg ? (int64_t)(0 - (uint64_t)*v) : *v;
	return 1;
}

/* The first of n records of size bytes, sorted by the interned name
 * in their first field (by address, as qsort on pointers leaves them),
 * whose name is not below key: where key's run starts, if it has one. */
uint32_t
namebound(const void *base, uint32_t n, size_t size, Str key)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		Str s;
		memcpy(&s, (const char *)base + (size_t)mid * size, sizeof s);
		if ((uintptr_t)s < (uintptr_t)key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The threads of f's block, from the first .reqntid or .maxntid: the
 * product of its sizes, each 1 to 2^20; 0 if it says none or one this
 * cannot read (vsink.c's proof and tfar.c's pass, which both hold to
 * kernels of at most 128 threads, ask it). */
long
ctathreads(const Func *f)
{
	for (uint32_t i = 0; i < f->nperf; i++) {
		const char *n = f->perf[i].name, *p = f->perf[i].args;
		if ((strcmp(n, ".reqntid") && strcmp(n, ".maxntid")) || !p)
			continue;
		int64_t x[3];
		int k = ptxints(p, x, 3);
		long t = 1;
		for (int j = 0; j < k; j++) {
			if (x[j] < 1 || x[j] > 1 << 20)
				return 0;
			t *= (long)x[j];
		}
		return k > 0 ? t : 0;
	}
	return 0;
}

/* The count setmaxnreg s asks for, read as ptxas reads it; -1 for a
 * statement that is no setmaxnreg or whose count is not one plain
 * integer of at most 1024 (a constant expression such as 8*29, a sign):
 * the budget pass, its proof, the pressure model and `pressure` all
 * read the count here, so none trusts a count another would refuse. */
int
setmaxcount(const Stmt *s)
{
	int64_t x;

	if (s->kind != Sins || s->op != Osetmaxnreg || !s->nop)
		return -1;
	const Opnd *o = &s->opd[0];
	if (o->kind != Pint || o->nsub || o->minus || !ptxint(o->s, &x)
	|| x > 1024)
		return -1;
	return (int)x;
}

uint32_t
fnv(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void
grow(void)
{
	size_t cap = in.cap ? in.cap * 2 : 4096;
	Slot *tab = calloc(cap, sizeof *tab);

	if (!tab)
		die("out of memory");
	for (size_t i = 0; i < in.cap; i++) {
		size_t j;
		if (!in.tab[i].s)
			continue;
		for (j = in.tab[i].h & (cap - 1); tab[j].s;
			j = (j + 1) & (cap - 1))
			;
		tab[j] = in.tab[i];
	}
	free(in.tab);
	in.tab = tab;
	in.cap = cap;
}

/* intern's hash (and the parser's word table's): eight bytes a step
 * (names are short, and every operand of a large file is interned);
 * memcpy reads them unaligned.  The tail's loads cover each of its
 * bytes, and the length is mixed in, so equal hashes are as rare as
 * from a byte-wise hash. */
uint32_t
strhash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 29;
	}
	if (n >= 4) {           /* the tail: two loads that may overlap */
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		w = a | (uint64_t)b << 32;
	} else if (n)           /* 1-3 bytes: first, middle, last */
		w = (unsigned char)s[0] | (unsigned char)s[n / 2] << 8
			| (uint64_t)(unsigned char)s[n - 1] << 16;
	else
		w = 0;
	h ^= w;                 /* then murmur3's finalizer */
	h = (h ^ h >> 33) * 0xff51afd7ed558ccdu;
	h = (h ^ h >> 33) * 0xc4ceb9fe1a85ec53u;
	return (uint32_t)(h ^ h >> 33);
}

/* A name of 1-8 bytes as a number: its bytes, zero-padded (a name
 * holds no NUL, so each length gives other numbers). */
static uint64_t
shortkey(const char *s, size_t n)
{
	uint32_t lo, hi;

	if (n < 4) {
		uint64_t k = 0;
		for (size_t i = 0; i < n; i++)
			k |= (uint64_t)(unsigned char)s[i] << 8 * i;
		return k;
	}
	memcpy(&lo, s, 4);
	if (n == 4)
		return lo;
	memcpy(&hi, s + n - 4, 4);      /* bytes 4..n-1 are its top n-4 */
	return lo | (uint64_t)(hi >> 8 * (8 - n)) << 32;
}

/* In front of the table, the short names seen last, by their bytes:
 * a register name costs a multiply and a compare.  Its size and the
 * bits of its index are one number (the index once had its shift
 * written apart, which a smaller table would have overrun); 2^10 and
 * 2^14 entries were no faster on Sort (bench/RESULTS-trust.md,
 * forty-second session). */
enum { Frontbits = 12, Nfront = 1 << Frontbits };
static struct Front { uint64_t k; Str s; } front[Nfront];

Str
intern(const char *s, size_t n)
{
	uint32_t h;
	size_t i;
	Slot *t;
	struct Front *f = 0;
	uint64_t k = 0;

	if (n - 1 < 8) {
		k = shortkey(s, n);
		f = &front[k * 0x9e3779b97f4a7c15u >> (64 - Frontbits)];
		if (f->k == k)
			return f->s;
	}
	h = strhash(s, n);

	/* full to three quarters: a slot's hash and length make a probe
	 * that misses cheap, and at half full nvcc's matrix_free (10,000
	 * names) took 512 KB of table, 5 % of its run's memory; the
	 * instructions of its parse +0.1 % */
	if (4 * (in.n + 1) > 3 * in.cap)
		grow();
	if (!in.a)
		in.a = anew();
	for (i = h & (in.cap - 1); (t = &in.tab[i])->s;
		i = (i + 1) & (in.cap - 1))
		if (t->h == h && t->n == n && !memcmp(t->s, s, n)) {
			if (f)
				*f = (struct Front){k, t->s};
			return t->s;
		}
	t->s = adup(in.a, s, n);
	if (f)
		*f = (struct Front){k, t->s};
	t->h = h;
	t->n = (uint32_t)n;
	in.n++;
	return t->s;
}

Str
interns(const char *s)
{
	return intern(s, strlen(s));
}

/* A leaf's component and offset are one interned string (all.h says
 * why): ".x", "+8", ".x+8".  A component is a directive word, never
 * holding a sign; an offset always starts with one. */
static size_t
complen(Str e)
{
	const char *p;

	if (!e || e[0] != '.')
		return 0;
	p = strpbrk(e, "+-");
	return p ? (size_t)(p - e) : strlen(e);
}

Str
opcomp(const Opnd *o)
{
	Str e = opext(o);
	size_t n = complen(e);

	return !n ? 0 : e[n] ? intern(e, n) : e;
}

Str
opoff(const Opnd *o)
{
	Str e = opext(o);
	size_t n = complen(e);

	return e && e[n] ? e + n : 0;
}

/* the leaf's ext made of up to three spellings, each may be empty */
static void
setext(Opnd *o, const char *a, size_t na, const char *b, size_t nb,
	const char *c, size_t nc)
{
	char small[64], *s = small;
	size_t n = na + nb + nc;

	if (!n) {
		o->ext = 0;
		return;
	}
	if (n > sizeof small)           /* a 10 MB number is read too */
		s = xmalloc(n);
	if (na)
		memcpy(s, a, na);
	if (nb)
		memcpy(s + na, b, nb);
	if (nc)
		memcpy(s + na + nb, c, nc);
	o->ext = intern(s, n);
	if (s != small)
		free(s);
}

void
setcomp(Opnd *o, Str comp)
{
	Str e = opext(o), off = e ? e + complen(e) : "";

	setext(o, comp, comp ? strlen(comp) : 0, off, strlen(off), 0, 0);
}

void
setoff(Opnd *o, Str off)
{
	Str e = opext(o);

	setext(o, e, complen(e), off, off ? strlen(off) : 0, 0, 0);
}

/* setoff of sign and digits, spelled apart (the scanner and grammar) */
void
setoffnum(Opnd *o, const char *sign, const char *num, size_t n)
{
	Str e = opext(o);

	setext(o, e, complen(e), sign, strlen(sign), num, n);
}

/* A file's bytes follow a header that says how they were allocated.  A
 * large file is read into pages mapped and made at once (huge pages
 * from 2 MiB), not into malloc's, which the kernel would make one fault
 * at a time as read() filled them: on ocelot's Sort, 4 MB, that was a
 * thousand faults and 5-8 % of parse plus emit (bench/RESULTS-trust.md,
 * nineteenth session).  freefile gives either kind back. */
enum { Fhdr = 16 };

static char *
fileblock(size_t cap, size_t *map)
{
	size_t want = Fhdr + cap + 2;
	char *b;

	*map = 0;
	if (want < Chunksz)
		b = xmalloc(want);
	else {
		*map = want >= Hugesz
			? (want + Hugesz - 1) & ~(size_t)(Hugesz - 1)
			: (want + 4095) & ~(size_t)4095;
		size_t made;    /* all of it: the file fills it */
		b = chunkmap(*map, *map, 1, &made);
	}
	memcpy(b, map, sizeof *map);
	return b + Fhdr;
}

static size_t
filemap(const char *p)
{
	size_t map;

	memcpy(&map, p - Fhdr, sizeof map);
	return map;
}

void
freefile(char *p)
{
	if (!p)
		return;
	if (filemap(p))
		chunkunmap(p - Fhdr, filemap(p));
	else
		free(p - Fhdr);
}

/* Room for cap bytes and the two NULs, the len bytes read kept. */
static char *
filegrow(char *p, size_t len, size_t cap)
{
	size_t map;
	char *q;

	if (!filemap(p))
		return (char *)xrealloc(p - Fhdr, Fhdr + cap + 2) + Fhdr;
	q = fileblock(cap, &map);       /* a regular file that grew */
	memcpy(q, p, len);
	freefile(p);
	return q;
}

/* Reads a whole file, "-" being standard input, into a buffer that
 * freefile gives back.  Two NULs follow the bytes read, so the scanner
 * can read the buffer where it lies (parseflags, Pinplace).  A regular
 * file is sized first and read once: growing a buffer by copies would
 * touch three times the pages. */
char *
readfile(const char *path, size_t *n)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, len = 0, r, map;
	struct stat st;
	char *p;

	if (!f)
		return 0;
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;   /* +1: sees the end at once */
	p = fileblock(cap, &map);
	while ((r = fread(p + len, 1, cap - len, f)) > 0) {
		len += r;
		if (len == cap)
			p = filegrow(p, len, cap *= 2);
	}
	if (ferror(f)) {
		freefile(p);
		if (f != stdin)
			fclose(f);
		return 0;
	}
	if (f != stdin)
		fclose(f);
	p[len] = p[len + 1] = 0;
	*n = len;
	return p;
}

static int
samefile(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb))
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Output that is complete or absent: a regular file is written to a
 * temporary file beside it and renamed into place by outclose(), so a
 * failure never leaves a partial file.  Standard output ("-") and
 * devices or pipes (-o /dev/null: a rename would replace them with a
 * regular file) are written directly.  Writing over the input is
 * refused unless asked. */
struct Out {
	FILE *f;
	char *path, *tmp;       /* tmp: NULL when written directly */
	int err;                /* errno of the first failure */
};

Out *
outopen(const char *path, int inplace_ok, const char *inpath)
{
	struct stat st;
	Out *o;
	int fd;

	if (inpath && !inplace_ok && strcmp(path, "-") && strcmp(inpath, "-")
	&& samefile(path, inpath)) {
		fprintf(stderr, "%s: error: refusing to overwrite the input "
			"'%s' (use --in-place)\n", progname, path);
		return 0;
	}
	o = xmalloc(sizeof *o);
	*o = (Out){0};
	o->path = strcpy(xmalloc(strlen(path) + 1), path);
	if (!strcmp(path, "-"))
		o->f = stdout;
	else if (!stat(path, &st) && !S_ISREG(st.st_mode))
		o->f = fopen(path, "wb");
	else {
		size_t len = strlen(path);
		o->tmp = xmalloc(len + 16);
		memcpy(o->tmp, path, len);
		memcpy(o->tmp + len, ".tmp.XXXXXX", 12);
		fd = mkstemp(o->tmp);
		if (fd >= 0) {
			fchmod(fd, 0644);
			if (!(o->f = fdopen(fd, "wb"))) {
				close(fd);
				unlink(o->tmp);
			}
		}
	}
	if (!o->f) {
		fprintf(stderr, "%s: error: writing '%s': %s\n", progname,
			path, strerror(errno));
		free(o->tmp);
		free(o->path);
		free(o);
		return 0;
	}
	return o;
}

void
outwrite(Out *o, const char *p, size_t n)
{
	if (!o->err && n && fwrite(p, 1, n, o->f) != n)
		o->err = errno ? errno : EIO;
}

/* Finishes the output: commit renames it into place, otherwise it is
 * discarded (as far as it can be: standard output has been written).
 * Returns 0, or -1 with a message said. */
int
outclose(Out *o, int commit)
{
	int rc = 0;

	if (o->f == stdout) {
		if (fflush(stdout) && !o->err)
			o->err = errno;
	} else if (fclose(o->f) && !o->err)
		o->err = errno;
	if (o->tmp) {
		if (!commit || o->err || rename(o->tmp, o->path)) {
			if (commit && !o->err)
				o->err = errno;
			unlink(o->tmp);
		}
	}
	if (commit && o->err) {
		fprintf(stderr, "%s: error: writing '%s': %s\n", progname,
			strcmp(o->path, "-") ? o->path : "standard output",
			strerror(o->err));
		rc = -1;
	}
	free(o->tmp);
	free(o->path);
	free(o);
	return rc;
}

/* The whole output at once, through outopen/outclose. */
int
writeatomic(const char *path, const char *p, size_t n, int inplace_ok,
	const char *inpath)
{
	Out *o = outopen(path, inplace_ok, inpath);

	if (!o)
		return -1;
	outwrite(o, p, n);
	return outclose(o, 1);
}

/* file:line:col: severity: message, then the source line and a caret
 * under the offending token. */
void
diag(Diag *d, const char *sev, Pos pos, uint32_t off, uint32_t len,
	const char *fmt, ...)
{
	va_list ap;
	size_t b, e;

	if (sev[0] == 'e') {
		if (!d->nerr++)
			d->first = pos;
	} else
		d->nwarn++;
	if (d->quiet || (d->nowarn && sev[0] == 'w'))
		return;
	fprintf(stderr, "%s:%u:%u: %s: ", d->path, pos.line, pos.col, sev);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (!d->src || off > d->len)
		return;
	for (b = off; b > 0 && d->src[b - 1] != '\n'; b--)
		;
	if (off - b > 160)      /* a very long line: show around the column */
		b = off - 80;
	for (e = off; e < d->len && d->src[e] != '\n' && e - b < 200; e++)
		;
	if (e > b && d->src[e - 1] == '\r')
		e--;
	fprintf(stderr, "  %.*s\n  ", (int)(e - b), d->src + b);
	for (size_t i = b; i < off && i < e; i++)
		fputc(d->src[i] == '\t' ? '\t' : ' ', stderr);
	fputc('^', stderr);
	for (uint32_t i = 1; i < len && off + i < e && i < 60; i++)
		fputc('~', stderr);
	fputc('\n', stderr);
}
