/* elfcmp.c: are two cubins the same code?
 *
 * Written from the System V ELF-64 object file format. Sections are
 * matched by name, since indices move when debug sections come and go.
 * Debug sections (.debug_*, .nv_debug_*, and relocations applied to
 * them) may differ freely: they carry line numbers and even the PTX
 * text, which a rewrite that keeps the code changes; so may the note
 * .note.nv.tkinfo, which names the files ptxas was given. The symbol table,
 * string tables and other relocations are compared by meaning when
 * their bytes differ, for the same reason. What indexes symbols by
 * number elsewhere (.nv.info attributes, .text sh_info) is compared as
 * bytes, so cubins whose debug symbols differ in number show up as
 * different there. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "all.h"

typedef struct Sec Sec;
typedef struct Elf Elf;

struct Sec {
	const char *name;
	uint32_t type, link, info;
	uint64_t flags, off, size, align, entsize;
	int debug;
	int seen;       /* matched to a section of the other file */
};

struct Elf {
	const char *path;
	unsigned char *b;
	size_t n;
	int be;         /* big-endian */
	Sec *sec;
	uint32_t nsec;
};

enum {
	Ehsize = 64, Shsize = 64, Symsize = 24,
	Trela = 4, Tnobits = 8, Trel = 9, Tsymtab = 2, Tstrtab = 3,
	Finfolink = 0x40,
	Shnloreserve = 0xff00, Shnxindex = 0xffff,
};

static uint64_t
rd(const Elf *e, uint64_t off, int size)
{
	uint64_t v = 0;
	int i;

	if (off > e->n || (uint64_t)size > e->n - off)
		return 0;
	for (i = 0; i < size; i++)
		v |= (uint64_t)e->b[off + (e->be ? size - 1 - i : i)] << 8*i;
	return v;
}

/* Debug sections, their Blackwell "merc" twins (.nv.merc.debug_*,
 * .nv.merc.nv_debug_*), and the toolkit note, which records the command
 * line (file names included) when ptxas runs with -g. */
static int
isdebug(const char *s)
{
	if (strncmp(s, ".nv.merc", 8) == 0)
		s += 8;
	return strncmp(s, ".debug_", 7) == 0
		|| strncmp(s, ".nv_debug_", 10) == 0
		|| strcmp(s, ".note.nv.tkinfo") == 0;
}

/* Name at offset off of string table section t, or NULL. */
static const char *
str(const Elf *e, uint32_t t, uint64_t off)
{
	const Sec *s;

	if (t == 0 || t >= e->nsec)
		return NULL;
	s = &e->sec[t];
	if (s->type == Tnobits || off >= s->size
	|| !memchr(e->b + s->off + off, 0, s->size - off))
		return NULL;
	return (const char *)e->b + s->off + off;
}

static int
fail(char *why, size_t cap, const char *path, const char *msg)
{
	snprintf(why, cap, "%s: %s", path, msg);
	return -1;
}

static int
readsecs(Elf *e, char *why, size_t cap)
{
	uint64_t shoff = rd(e, 0x28, 8), h;
	uint32_t shnum = (uint32_t)rd(e, 0x3c, 2), strndx, i;

	strndx = (uint32_t)rd(e, 0x3e, 2);
	if (rd(e, 0x3a, 2) != Shsize || shoff == 0)
		return fail(why, cap, e->path, "no section headers");
	if (shnum == 0)  /* too many for e_shnum: the count is in sh[0] */
		shnum = (uint32_t)rd(e, shoff + 32, 8);
	if (strndx == Shnxindex)
		strndx = (uint32_t)rd(e, shoff + 40, 4);
	if (shoff > e->n || (e->n - shoff) / Shsize < shnum)
		return fail(why, cap, e->path, "section headers past the end");
	e->sec = calloc(shnum ? shnum : 1, sizeof *e->sec);
	if (!e->sec)
		return fail(why, cap, e->path, "out of memory");
	e->nsec = shnum;
	for (i = 0; i < shnum; i++) {
		Sec *s = &e->sec[i];
		h = shoff + (uint64_t)i * Shsize;
		s->type = (uint32_t)rd(e, h + 4, 4);
		s->flags = rd(e, h + 8, 8);
		s->off = rd(e, h + 24, 8);
		s->size = rd(e, h + 32, 8);
		s->link = (uint32_t)rd(e, h + 40, 4);
		s->info = (uint32_t)rd(e, h + 44, 4);
		s->align = rd(e, h + 48, 8);
		s->entsize = rd(e, h + 56, 8);
		if (s->type != Tnobits
		&& (s->off > e->n || s->size > e->n - s->off))
			return fail(why, cap, e->path, "section past the end");
	}
	for (i = 0; i < shnum; i++) {
		h = shoff + (uint64_t)i * Shsize;
		e->sec[i].name = str(e, strndx, rd(e, h, 4));
		if (!e->sec[i].name)
			return fail(why, cap, e->path, "bad section name");
	}
	return 0;
}

/* Relocations count as debug when what they relocate is. */
static void
markdebug(Elf *e)
{
	uint32_t i;
	Sec *s;

	for (i = 0; i < e->nsec; i++)
		e->sec[i].debug = isdebug(e->sec[i].name);
	for (i = 0; i < e->nsec; i++) {
		s = &e->sec[i];
		if (s->type != Trel && s->type != Trela)
			continue;
		if (s->info < e->nsec && e->sec[s->info].debug)
			s->debug = 1;
		if (strncmp(s->name, ".rel.", 5) == 0 && isdebug(s->name + 4))
			s->debug = 1;
		if (strncmp(s->name, ".rela.", 6) == 0 && isdebug(s->name + 5))
			s->debug = 1;
	}
}

static int
elfload(Elf *e, const char *path, char *why, size_t cap)
{
	memset(e, 0, sizeof *e);
	e->path = path;
	e->b = (unsigned char *)pxslurp(path, &e->n);
	if (!e->b)
		return fail(why, cap, path, "cannot read");
	if (e->n < Ehsize || memcmp(e->b, "\177ELF", 4) != 0)
		return fail(why, cap, path, "not an ELF file");
	if (e->b[4] != 2)
		return fail(why, cap, path, "not ELF64");
	if (e->b[5] != 1 && e->b[5] != 2)
		return fail(why, cap, path, "unknown byte order");
	e->be = e->b[5] == 2;
	if (readsecs(e, why, cap) < 0)
		return -1;
	markdebug(e);
	return 0;
}

static const char *
secname(const Elf *e, uint64_t i)
{
	return i < e->nsec ? e->sec[i].name : "?";
}

/* --- symbols and relocations, by meaning --- */

typedef struct {
	const char *name, *sec;
	unsigned info, other, shndx;
	uint64_t value, size;
	int debug;
} Sym;

static void
getsym(const Elf *e, const Sec *tab, uint64_t i, Sym *y)
{
	uint64_t o = tab->off + i * Symsize;

	y->name = str(e, tab->link, rd(e, o, 4));
	if (!y->name)
		y->name = "?";
	y->info = (unsigned)rd(e, o + 4, 1);
	y->other = (unsigned)rd(e, o + 5, 1);
	y->shndx = (unsigned)rd(e, o + 6, 2);
	y->value = rd(e, o + 8, 8);
	y->size = rd(e, o + 16, 8);
	y->debug = 0;
	y->sec = "";
	if (y->shndx != 0 && y->shndx < Shnloreserve) {
		y->sec = secname(e, y->shndx);
		y->debug = y->shndx < e->nsec && e->sec[y->shndx].debug;
	}
}

static int
samesym(const Sym *a, const Sym *b)
{
	int special = a->shndx >= Shnloreserve || b->shndx >= Shnloreserve;

	return strcmp(a->name, b->name) == 0 && strcmp(a->sec, b->sec) == 0
		&& a->info == b->info && a->other == b->other
		&& (!special || a->shndx == b->shndx)
		&& a->value == b->value && a->size == b->size;
}

/* Next symbol at or after *i that is not about debug sections. */
static int
nextsym(const Elf *e, const Sec *tab, uint64_t *i, Sym *y)
{
	uint64_t n = tab->size / Symsize;

	for (; *i < n; ++*i) {
		getsym(e, tab, *i, y);
		if (!y->debug)
			return 1;
	}
	return 0;
}

static int
symcmp(const Elf *a, const Sec *sa, const Elf *b, const Sec *sb,
	char *why, size_t cap)
{
	uint64_t i = 0, j = 0;
	Sym x, y;
	int ha, hb;

	for (;; i++, j++) {
		ha = nextsym(a, sa, &i, &x);
		hb = nextsym(b, sb, &j, &y);
		if (!ha && !hb)
			return 0;
		if (ha != hb || !samesym(&x, &y))
			break;
	}
	snprintf(why, cap, "section %s: symbol %llu (%s) differs",
		sa->name, (unsigned long long)i, ha ? x.name : y.name);
	return 1;
}

static int
relcmp(const Elf *a, const Sec *sa, const Elf *b, const Sec *sb,
	char *why, size_t cap)
{
	uint64_t sz = sa->type == Trela ? 24 : 16, i, oa, ob, ia, ib;
	Sym x, y;

	if (sa->size != sb->size || sa->link >= a->nsec
	|| sb->link >= b->nsec) {
		snprintf(why, cap, "section %s: size differs", sa->name);
		return 1;
	}
	for (i = 0; i < sa->size / sz; i++) {
		oa = sa->off + i * sz;
		ob = sb->off + i * sz;
		ia = rd(a, oa + 8, 8);
		ib = rd(b, ob + 8, 8);
		getsym(a, &a->sec[sa->link], ia >> 32, &x);
		getsym(b, &b->sec[sb->link], ib >> 32, &y);
		if (rd(a, oa, 8) != rd(b, ob, 8)
		|| (uint32_t)ia != (uint32_t)ib || !samesym(&x, &y)
		|| (sz == 24 && rd(a, oa + 16, 8) != rd(b, ob + 16, 8))) {
			snprintf(why, cap, "section %s: relocation at offset "
				"0x%llx differs", sa->name,
				(unsigned long long)(i * sz));
			return 1;
		}
	}
	return 0;
}

/* --- sections --- */

static int
hdrcmp(const Elf *a, const Sec *x, const Elf *b, const Sec *y,
	char *why, size_t cap)
{
	const char *what = NULL;
	int byname = (x->flags & Finfolink) || x->type == Trel
		|| x->type == Trela;
	int semantic = x->type == Tsymtab || x->type == Tstrtab
		|| x->type == Trel || x->type == Trela;

	if (x->type != y->type)
		what = "type";
	else if (x->flags != y->flags)
		what = "flags";
	else if (x->size != y->size && !semantic)
		what = "size";
	else if (x->align != y->align || x->entsize != y->entsize)
		what = "alignment or entry size";
	else if (strcmp(secname(a, x->link), secname(b, y->link)) != 0)
		what = "sh_link";
	else if (byname ? strcmp(secname(a, x->info), secname(b, y->info))
		: x->info != y->info)
		what = "sh_info";
	if (!what)
		return 0;
	snprintf(why, cap, "section %s: %s differs", x->name, what);
	return 1;
}

static int
seccmp(const Elf *a, const Sec *x, const Elf *b, const Sec *y,
	char *why, size_t cap)
{
	uint64_t i;

	if (hdrcmp(a, x, b, y, why, cap))
		return 1;
	if (x->type == Tnobits)
		return 0;
	if (x->size == y->size
	&& memcmp(a->b + x->off, b->b + y->off, x->size) == 0)
		return 0;
	switch (x->type) {
	case Tstrtab:
		return 0;  /* compared through the names that use it */
	case Tsymtab:
		return symcmp(a, x, b, y, why, cap);
	case Trel:
	case Trela:
		return relcmp(a, x, b, y, why, cap);
	}
	for (i = 0; a->b[x->off + i] == b->b[y->off + i]; i++)
		;
	snprintf(why, cap, "section %s: bytes differ at offset 0x%llx",
		x->name, (unsigned long long)i);
	return 1;
}

/* The k-th non-debug section of e named name, k counted from 0. */
static Sec *
find(Elf *e, const char *name, int k)
{
	uint32_t i;

	for (i = 1; i < e->nsec; i++)
		if (!e->sec[i].debug && strcmp(e->sec[i].name, name) == 0
		&& k-- == 0)
			return &e->sec[i];
	return NULL;
}

static int
filecmp(Elf *a, Elf *b, char *why, size_t cap)
{
	static const struct { uint64_t off; int size; const char *what; }
	hdr[] = {
		{7, 1, "OS ABI"}, {8, 1, "ABI version"}, {0x10, 2, "e_type"},
		{0x12, 2, "e_machine"}, {0x30, 4, "e_flags"},
	};
	uint32_t i, j;
	int k;
	Sec *x, *y;

	for (i = 0; i < sizeof hdr / sizeof hdr[0]; i++)
		if (rd(a, hdr[i].off, hdr[i].size)
		!= rd(b, hdr[i].off, hdr[i].size)) {
			snprintf(why, cap, "ELF header: %s differs",
				hdr[i].what);
			return 1;
		}
	for (i = 1; i < a->nsec; i++) {
		x = &a->sec[i];
		if (x->debug)
			continue;
		for (k = 0, j = 1; j < i; j++)
			k += !a->sec[j].debug
				&& !strcmp(a->sec[j].name, x->name);
		y = find(b, x->name, k);
		if (!y) {
			snprintf(why, cap, "section %s: only in %s", x->name,
				a->path);
			return 1;
		}
		y->seen = 1;
		if (seccmp(a, x, b, y, why, cap))
			return 1;
	}
	for (i = 1; i < b->nsec; i++)
		if (!b->sec[i].debug && !b->sec[i].seen) {
			snprintf(why, cap, "section %s: only in %s",
				b->sec[i].name, b->path);
			return 1;
		}
	return 0;
}

int
cubincmp(const char *patha, const char *pathb, char *why, size_t whycap)
{
	Elf a, b;
	int r;

	if (whycap)
		why[0] = 0;
	r = elfload(&a, patha, why, whycap);
	if (r == 0)
		r = elfload(&b, pathb, why, whycap);
	else
		memset(&b, 0, sizeof b);
	if (r == 0)
		r = filecmp(&a, &b, why, whycap);
	free(a.b);
	free(a.sec);
	free(b.b);
	free(b.sec);
	return r;
}
