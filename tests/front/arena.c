/* arena: areset keeps the chunks an arena outgrew in its spare list,
 * and allocslow serves from there before it maps a fresh chunk (the
 * parser's temporary arena resets at every function; mapping and
 * zeroing fresh chunks each time was a sixth of a large parse).  afree
 * keeps an arena's chunks in the thread's pool, which the next arenas
 * take from (linemut parses 20,000 small modules: fresh chunks for each
 * were three quarters of its time).
 *
 * Checked: what an arena hands out is 16-byte aligned, writable and
 * does not overlap; after a reset the outgrown chunks wait in the spare
 * list, and the same requests again are served from them (no chunk
 * is new, none lost); a request larger than every
 * spare chunk still gets its own.  Under ASan a spare chunk's bytes are
 * poisoned, so a pointer kept past the reset faults as it did when the
 * chunk was unmapped, and a reused chunk's are not.  arelease gives
 * back what was allocated since amark, large requests (a chunk of their
 * own, behind the current one) included, and keeps what was allocated
 * before it; the same requests again take no fresh chunk.  A chunk is
 * made (its pages written) a step at a time while the arena is small.
 * usage: arena   (exit 0 pass, 1 fail) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "all.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define __SANITIZE_ADDRESS__ 1
#endif
#endif
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#define poisoned(p) __asan_address_is_poisoned(p)
#else
#define poisoned(p) ((void)(p), -1)     /* not known */
#endif

const char *progname = "arena";
static int nfail;

#define expect(c) do { if (!(c)) { \
	fprintf(stderr, "arena.c:%d: failed: %s\n", __LINE__, #c); \
	nfail++; } } while (0)

enum { N = 600, Sz = 1000 };    /* 600 KB: past the first 256 KiB chunk */

static int
inchunks(const Chunk *c, const void *p)
{
	for (; c; c = c->prev)
		if ((const char *)p >= (const char *)c + Chunkhdr
			&& (const char *)p < (const char *)c + Chunkhdr + c->cap)
			return 1;
	return 0;
}

static int
nchunks(const Chunk *c)
{
	int n = 0;

	for (; c; c = c->prev)
		n++;
	return n;
}

/* N blocks of Sz bytes, each filled with its index; 1 if all aligned
 * and still holding their own bytes once all are written. */
static int
fill(Arena *a, unsigned char **p)
{
	int ok = 1;

	for (int i = 0; i < N; i++) {
		p[i] = alloc(a, Sz);
		ok &= ((uintptr_t)p[i] & 15) == 0;
		memset(p[i], i & 255, Sz);
	}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < Sz; j++)
			ok &= p[i][j] == (i & 255);
	return ok;
}

/* Is every chunk of a's in the list have[0..nh)? */
static int
allold(const Arena *a, Chunk *const *have, int nh)
{
	for (int pass = 0; pass < 2; pass++)
		for (const Chunk *c = pass ? a->spare : a->cur; c;
		c = c->prev) {
			int was = 0;
			for (int i = 0; i < nh; i++)
				was |= have[i] == c;
			if (!was)
				return 0;
		}
	return 1;
}

/* amark/arelease over an arena holding something already, and over an
 * empty one. */
static void
marks(void)
{
	static unsigned char *p[N], *q[N];
	unsigned char *pre = 0;
	Chunk *seen[96];
	int ns = 0;

	for (int empty = 0; empty < 2; empty++) {
		Arena *a = anew();
		if (!empty) {
			pre = alloc(a, 100000);
			memset(pre, 0x33, 100000);
		}
		Amark k = amark(a);
		for (int round = 0; round < 3; round++) {
			/* behind k's current chunk (larger than any chunk
			 * in the pool: a chunk of its exact size), then
			 * behind a later one */
			unsigned char *big0 = alloc(a, (size_t)8 << 20);
			memset(big0, 8, (size_t)8 << 20);
			expect(fill(a, p));
			unsigned char *big = alloc(a, (size_t)1 << 20);
			memset(big, 9, (size_t)1 << 20);
			expect(fill(a, q));
			if (round == 0) {
				ns = 0;
				for (int pass = 0; pass < 2; pass++)
					for (Chunk *c = pass ? a->spare
					: a->cur; c && ns < 96; c = c->prev)
						seen[ns++] = c;
			} else          /* nothing fresh */
				expect(allold(a, seen, ns));
			arelease(a, &k);
			expect(a->cur == k.cur);
			expect(!a->cur || (a->cur->prev == k.prev
				&& a->cur->used == k.used));
			expect(!inchunks(a->cur, p[N - 1])
				&& !inchunks(a->cur, big));
			expect(inchunks(a->spare, big)
				&& inchunks(a->spare, big0));
			expect(!inchunks(a->cur, big0));
			if (poisoned(big) != -1)
				expect(poisoned(big) == 1 && poisoned(big0) == 1);
			if (!empty) {
				int same = 1;
				for (int i = 0; i < 100000; i++)
					same &= pre[i] == 0x33;
				expect(same && inchunks(a->cur, pre));
			}
		}
		afree(a);
	}
}

/* Past what the arena expects to hold (a->hint, the parser's guess), a
 * chunk is made a step (256 KiB) at a time as the arena reaches it, so
 * that its last chunk is not made whole and half empty (util.c): what
 * the current chunk has made is never much more than it handed out.
 * Without a sanitizer only (under one a chunk is malloc's, made whole),
 * and first, before any arena gives chunks to the pool, whose made
 * chunks a new arena may take. */
static void
steps(void)
{
	Arena *a = anew();
	int room = 0;

	a->hint = 1 << 20;

	for (int i = 0; i < 3000; i++) {        /* 3 MB */
		unsigned char *x = alloc(a, Sz);
		memset(x, i & 0xff, Sz);
		expect(inchunks(a->cur, x) && x[Sz - 1] == (i & 0xff));
#ifndef __SANITIZE_ADDRESS__
		expect(a->cur->cap - a->cur->used < ((size_t)1 << 16) + Sz);
#endif
		room |= a->cur->room > 0;
	}
#ifdef __SANITIZE_ADDRESS__
	expect(!room);
#else
	expect(room);
#endif
	afree(a);
}

int
main(void)
{
	static unsigned char *p[N], *q[N];

	steps();
	Arena *a = anew();
	Chunk *before[64];
	int nb, kept;

	expect(fill(a, p));
	nb = nchunks(a->cur);
	expect(nb >= 2 && nb <= 64);
	for (int i = 0; i < nb; i++) {
		Chunk *c = a->cur;
		for (int k = 0; k < i; k++)
			c = c->prev;
		before[i] = c;
	}

	areset(a);
	kept = nchunks(a->spare);
	expect(nchunks(a->cur) == 1 && kept == nb - 1);
	expect(a->cur->used == 0);
	expect(inchunks(a->spare, p[0]));       /* the first chunk */
	if (poisoned(p[0]) != -1)
		expect(poisoned(p[0]) == 1);

	expect(fill(a, q));
	/* served from the kept chunks alone: the largest, kept as the
	 * current one, and as many spares as the rest needs */
	expect(nchunks(a->cur) >= 2 && nchunks(a->spare) < kept);
	expect(nchunks(a->cur) + nchunks(a->spare) == nb);
	for (Chunk *c = a->cur; c; c = c->prev) {
		int old = 0;
		for (int i = 0; i < nb; i++)
			old |= before[i] == c;
		expect(old);                    /* no chunk is new */
	}
	if (poisoned(q[N - 1]) != -1)           /* in a reused chunk */
		expect(poisoned(q[N - 1]) == 0);

	/* larger than any spare chunk: a chunk of its own */
	areset(a);
	{
		size_t big = (size_t)4 << 20;
		unsigned char *b = alloc(a, big);
		expect(!inchunks(a->spare, b));
		memset(b, 7, big);
		expect(b[big - 1] == 7);
		}
	/* afree: every chunk to the pool, poisoned while it waits; the
	 * next arena is served from those chunks, their bytes as they
	 * were (a fresh chunk would be zero, or ASan's malloc fill) */
	Chunk *old[66];
	int nold = 0;
	for (int pass = 0; pass < 2; pass++)
		for (Chunk *c = pass ? a->spare : a->cur; c && nold < 66;
		c = c->prev) {
			char *m = (char *)c + Chunkhdr;
#ifdef __SANITIZE_ADDRESS__
			ASAN_UNPOISON_MEMORY_REGION(m, c->cap);
#endif
			memset(m, 0x5a, c->cap);
			old[nold++] = c;
		}
	afree(a);
	if (poisoned(p[0]) != -1)
		expect(poisoned(p[0]) == 1);
	Arena *b = anew();
	unsigned char *x = alloc(b, 16);
	expect(x[0] == 0x5a && x[15] == 0x5a);
	expect(fill(b, q));
	for (Chunk *c = b->cur; c; c = c->prev) {
		int was = 0;
		for (int i = 0; i < nold; i++)
			was |= old[i] == c;
		expect(was);                    /* from the pool */
	}
	if (poisoned(q[N - 1]) != -1)
		expect(poisoned(q[N - 1]) == 0);
	afree(b);
	marks();
	if (nfail)
		return 1;
	printf("arena: %d chunks, %d kept by a reset, reused after afree%s\n",
		nb, kept,
		poisoned(p[0]) == -1 ? "" : ", poisoned while kept");
	return 0;
}
