/* typecheck.c: check's rules of types, each read off ptxas itself and
 * held to it by tools/typeprobe.py (no line refused that ptxas takes):
 * registers of the wrong type, instruction types an opcode lacks, the
 * operand count, cvt's and float instructions' rounding, .ftz and .sat,
 * special registers, immediate addresses.  The opcode table says what
 * each operand takes (ops.h: types, typeset); what an instruction wants
 * is worked out once for each word (types), reported once (typereport),
 * and each operand compared in check's own walk (typecheck.h typeslot). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "all.h"
#include "typecheck.h"

/* Is w a word of set ("rn rz", "rz")? */
static int
inset(const char *set, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = set; p; p = strchr(p, ' '), p = p ? p + 1 : 0)
		if (!strncmp(p, w, n) && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

/* Is m (".u32") in the opcode table's typeset ("i16 i32 f32": i32 for
 * .u32 or .s32)? */
static int
intypeset(const char *set, Str m)
{
	char i[8];

	if (inset(set, m + 1))
		return 1;
	if ((m[1] != 'u' && m[1] != 's') || strlen(m) >= sizeof i - 1)
		return 0;
	snprintf(i, sizeof i, "i%s", m + 2);
	return inset(set, i);
}

/* add.u32 %r1, %r2: "add takes 3 operands, not 2" */
static NOINLINE void
badcount(Diag *d, const Stmt *s, const Mtypes *y)
{
	char n[16] = "";

	if (y->most > y->least)
		snprintf(n, sizeof n, " to %u", y->most);
	diag(d, "error", s->pos, s->text.off, s->text.len, "%s takes %u%s "
		"operands, not %u (ptxas: arguments mismatch)",
		opinfo[s->op].name, y->least, n, s->nop);
}

/* div.f32: "div.f32 needs one of .rn .rz .rm .rp .approx .full";
 * add.lo.u32: "add.u32 takes no .lo" */
static NOINLINE void
badround(Diag *d, const Stmt *s, const Mtypes *y)
{
	char buf[64], *q = buf;
	int one = !strchr(y->need, ' ');

	for (const char *p = y->need; *p; p++)
		q += sprintf(q, "%s%c", p == y->need || p[-1] == ' ' ? "." : "",
			*p);
	if (y->extra && !*y->need)     /* add.lo.u32, min.rn.f32 */
		diag(d, "error", s->pos, s->text.off, s->text.len, "%s%s takes "
			"no %s (ptxas: illegal modifier)", opinfo[s->op].name,
			s->mod[s->nmod - 1], y->extra);
	else if (y->extra && inset(y->need, y->extra + 1))   /* mul.lo.hi */
		diag(d, "error", s->pos, s->text.off, s->text.len, "%s%s takes "
			"one of %s, not two (ptxas: illegal modifier)",
			opinfo[s->op].name, s->mod[s->nmod - 1], buf);
	else if (y->extra)
		diag(d, "error", s->pos, s->text.off, s->text.len, "%s%s takes "
			"no %s, only %s%s (ptxas: illegal modifier)",
			opinfo[s->op].name, s->mod[s->nmod - 1], y->extra,
			one ? "" : "one of ", buf);
	else
		diag(d, "error", s->pos, s->text.off, s->text.len, "%s%s needs "
			"%s%s (ptxas: %s)", opinfo[s->op].name,
			s->mod[s->nmod - 1], one ? "" : "one of ", buf,
			y->need[0] == 'l'
			? "unexpected instruction types"
			: "rounding modifier required");
}

/* add.b32: "add takes no .b32, only .u16 .s16 ... .f64" */
static NOINLINE void
badtype(Diag *d, const Stmt *s, Str m)
{
	char buf[160], *q = buf;

	for (const char *p = opinfo[s->op].typeset; *p && q < buf + 120;) {
		size_t k = strcspn(p, " ");
		if (*p == 'i')  /* u and s */
			q += sprintf(q, " .u%.*s .s%.*s", (int)k - 1, p + 1,
				(int)k - 1, p + 1);
		else
			q += sprintf(q, " .%.*s", (int)k, p);
		p += k + (p[k] == ' ');
	}
	*q = 0;
	diag(d, "error", s->pos, s->text.off, s->text.len, "%s takes no %s, "
		"only%s (ptxas: unexpected instruction types)",
		opinfo[s->op].name, m, buf);
}

/* .rn .rz .rm .rp, or their integer forms .rni .rzi .rmi .rpi */
static int
roundmod(Str m)
{
	return m[1] == 'r' && m[2] && strchr("nzmp", m[2]) && (!m[3]
		|| (m[3] == 'i' && !m[4]));
}

/* A cvt between scalar types of this rule takes a rounding modifier as
 * ptxas 13.0 says of every pair of 11 types and 11 roundings: to an
 * integer from a float one of .rni .rzi .rmi .rpi ("Rounding modifier
 * required"), to a float from an integer or a wider float one of .rn
 * .rz .rm .rp, to a wider float none, to a float of its own size none
 * or an integer one, between integers none ("Illegal rounding
 * modifier"), and .rna never (it is tf32's).  .sat between integers
 * only where the value may not fit: not from a type whose every value
 * the other holds (.u8 to .s16 or .u32; "Illegal modifier").  A cvt
 * with a modifier other than these and .ftz (.relu, .satfinite) is
 * left alone.  What is wrong, or 0. */
static const char *
cvtround(const Stmt *s, const uint8_t t[2])
{
	int fr = 0, ir = 0, rna = 0, sat = 0;
	Str ty[2] = {0, 0};

	for (uint32_t k = 0, n = 0; k < s->nmod; k++) {
		Str m = s->mod[k];
		if (typecode(m))
			ty[n++ & 1] = m;
		else if (roundmod(m))
			m[3] ? ir++ : fr++;
		else if (!strcmp(m, ".rna"))
			rna = 1;
		else if (!strcmp(m, ".sat"))
			sat = 1;
		else if (strcmp(m, ".ftz"))
			return 0;
	}
	int fd = tkind(t[0]) == Tkf, fs = tkind(t[1]) == Tkf;
	if (rna)
		return "takes no .rna (cvt.rna is tf32's)";
	if (fr + ir > 1)
		return "takes one rounding modifier, not two";
	if (!fd && !fs && sat && ty[0] && ty[1] && (ty[0][1] == ty[1][1]
	? tsize(t[1]) <= tsize(t[0])
	: ty[1][1] == 'u' && tsize(t[1]) < tsize(t[0])))
		return "takes no .sat (every value of the source fits)";
	if (!fd && !fs)
		return fr + ir ? "takes no rounding (between integers)" : 0;
	if (!fd)
		return ir ? 0 : "needs one of .rni .rzi .rmi .rpi (a float to "
			"an integer)";
	if (!fs || tsize(t[0]) < tsize(t[1]))
		return fr ? 0 : fs ? "needs one of .rn .rz .rm .rp (a float to "
			"a narrower one)" : "needs one of .rn .rz .rm .rp (an "
			"integer to a float)";
	if (tsize(t[0]) > tsize(t[1]))
		return fr + ir ? "takes no rounding (a float to a wider one)"
			: 0;
	return fr ? "takes .rni .rzi .rmi .rpi or none (floats of one size)"
		: 0;
}

/* The modifiers of rounding's kind (.rn .rz .rm .rp, .rni .rzi .rmi
 * .rpi, .approx, .full, .lo, .hi, .wide) and .ftz and .sat that each
 * opcode takes, as ptxas 13.0 says ("Rounding modifier required",
 * "Illegal modifier"), tried for each opcode here with 13 types and 25
 * lists of modifiers (tools/typeprobe.py, flags): by column (integer
 * and bit types, f16, f32, f64) set[] the kind's words it takes, need
 * a bit a column where it wants one of them, flag[] .ftz (Fz), .sat
 * (Fs), .cc (Fc: of a 32- or 64-bit integer), .relu (Fr: of an integer
 * only .s32) and .NaN (Fn).  ptxas holds finer rules this does not (.sat of an integer only
 * on .s32, flushsat below; mad's only with .hi; rcp.approx.f64 only with
 * .ftz): a miss, never a false error.  Other modifiers (.oob,
 * .xorsign, .abs) are not judged, nor opcodes not here. */
enum { Fz = 1, Fs = 2, Fc = 4, Fr = 8, Fn = 16 };
#define RZMP "rn rz rm rp"
static const struct Takes {
	uint16_t op;
	uint8_t need, flag[4];
	const char *set[4];
} takes[] = {
	{Oadd, 0, {Fs|Fc, Fz|Fs, Fz|Fs, 0}, {0, "rn", RZMP, RZMP}},
	{Osub, 0, {Fs|Fc, Fz|Fs, Fz|Fs, 0}, {0, "rn", RZMP, RZMP}},
	{Oaddc, 0, {Fs|Fc}, {0}},
	{Osubc, 0, {Fs|Fc}, {0}},
	{Omul, 1, {0, Fz|Fs, Fz|Fs, 0}, {"lo hi wide", "rn", RZMP, RZMP}},
	{Omad, 1|4|8, {Fs|Fc, 0, Fz|Fs, 0}, {"lo hi wide", 0, RZMP, RZMP}},
	{Omul24, 1, {0}, {"lo hi"}},
	{Omad24, 1, {Fs}, {"lo hi"}},
	{Ofma, 2|4|8, {0, Fz|Fs|Fr, Fz|Fs, 0}, {0, "rn", RZMP, RZMP}},
	{Odiv, 4|8, {0, 0, Fz, 0}, {0, 0, RZMP " approx full", RZMP}},
	{Orcp, 4|8, {0, 0, Fz, Fz}, {0, 0, RZMP " approx", RZMP " approx"}},
	{Osqrt, 4|8, {0, 0, Fz, 0}, {0, 0, RZMP " approx", RZMP}},
	{Orsqrt, 4|8, {0, 0, Fz, Fz}, {0, 0, "approx", "approx"}},
	{Oex2, 2|4, {0, 0, Fz}, {0, "approx", "approx"}},
	{Otanh, 2|4, {0}, {0, "approx", "approx"}},
	{Olg2, 4, {0, 0, Fz}, {0, 0, "approx"}},
	{Osin, 4, {0, 0, Fz}, {0, 0, "approx"}},
	{Ocos, 4, {0, 0, Fz}, {0, 0, "approx"}},
	{Oabs, 0, {0, Fz, Fz}, {0}}, {Oneg, 0, {0, Fz, Fz}, {0}},
	{Omin, 0, {Fr, Fz|Fn, Fz|Fn}, {0}},
	{Omax, 0, {Fr, Fz|Fn, Fz|Fn}, {0}},
	{Osetp, 0, {0, Fz, Fz}, {0}},
#define NONE(o) {o, 0, {0}, {0}}
	NONE(Osad), NONE(Orem), NONE(Opopc), NONE(Oclz), NONE(Obfind),
	NONE(Obrev), NONE(Obfe), NONE(Obfi), NONE(Ofns), NONE(Ocopysign),
	NONE(Otestp), NONE(Oselp), NONE(Oand), NONE(Oor), NONE(Oxor),
	NONE(Onot), NONE(Ocnot), NONE(Olop3), NONE(Oshf), NONE(Oshl),
	NONE(Oshr), NONE(Omov), NONE(Oprmt), NONE(Old), NONE(Oldu), NONE(Ost),
#undef NONE
};

/* Of rounding's kind (takes above)?  setp's .lo and .hi are not: they
 * compare (unsigned lower, higher). */
static int
roundkind(Str m, uint16_t op)
{
	return roundmod(m) || !strcmp(m, ".approx") || !strcmp(m, ".full")
		|| ((!strcmp(m, ".lo") || !strcmp(m, ".hi")) && op != Osetp)
		|| !strcmp(m, ".wide");
}

/* Does e take flag m (.ftz ...) in column c, on type t of name type? */
static int
takesflag(const struct Takes *e, int c, Str m, int t, Str type)
{
	int f = e->flag[c];

	if (!strcmp(m, ".ftz"))
		return f & Fz;
	if (!strcmp(m, ".sat"))
		return f & Fs;
	if (!strcmp(m, ".cc"))
		return (f & Fc) && tsize(t) >= 3;
	if (!strcmp(m, ".relu"))
		return (f & Fr) && (c || (type[1] == 's' && tsize(t) == 3));
	if (!strcmp(m, ".NaN"))
		return f & Fn;
	return 1;       /* not this rule's */
}

/* y's need and extra, and a flag flushsat let by (y->flush) */
static void
rounding(Mtypes *y, const Stmt *s, int t, Str type)
{
	const struct Takes *e = 0;
	int have = 0, c = tkind(t) == Tkf ? tsize(t) - 1 : 0;

	for (size_t i = 0; i < countof(takes) && !e; i++)
		if (takes[i].op == s->op)
			e = &takes[i];
	if (!e || c > 3)
		return;
	const char *set = e->set[c] ? e->set[c] : "";
	Str one = 0;
	for (uint32_t k = 0; k < s->nmod; k++) {
		Str m = s->mod[k];
		if (roundkind(m, s->op)) {
			if (inset(set, m + 1) && (!one || one == m))
				have = 1;
			else    /* not its, or a second (mul.lo.hi) */
				y->extra = m;
			one = m;
		} else if (!y->flush && !takesflag(e, c, m, t, type))
			y->flush = m;
	}
	if ((e->need >> c & 1 && !have) || y->extra)
		y->need = set;
}

/* .ftz and .sat where the type rules them out, as ptxas 13.0 says
 * ("Illegal modifier"), tried on 43 opcode forms with 12 types: .ftz is
 * a float's, of an .f64 only in rcp and rsqrt; .sat a float's but an
 * .f64's, or an .s32's.  Which opcodes take them is takes[]'s. */
static Str
flushsat(const Stmt *s, int t, Str type)
{
	for (uint32_t k = 0; k < s->nmod; k++) {
		Str m = s->mod[k];
		if (!strcmp(m, ".ftz") && (tkind(t) != Tkf || (tsize(t) == 4
		&& s->op != Orcp && s->op != Orsqrt)))
			return m;
		if (!strcmp(m, ".sat") && !(tkind(t) == Tkf ? tsize(t) < 4
		: tkind(t) == Tki && tsize(t) == 3 && type[1] == 's'))
			return m;
	}
	return 0;
}

/* setp's comparison against its type, as ptxas 13.0 says ("Mismatch
 * between instruction type and comparison qualifier"), each of 18
 * comparisons tried with 11 types: .eq and .ne compare anything; .lt
 * .le .gt .ge an integer or a float, not bits; .lo .ls .hi .hs an
 * unsigned integer; the unordered ones (.equ .neu .ltu .leu .gtu .geu)
 * and .num and .nan a float.  The comparison if it does not fit, or 0. */
static Str
cmpwrong(const Stmt *s, int t, Str type)
{
	static const char *const need[] = {"eq ne", "lt le gt ge",
		"lo ls hi hs", "equ neu ltu leu gtu geu num nan"};

	for (uint32_t k = 0; k < s->nmod; k++) {
		Str m = s->mod[k];
		size_t c = 0;
		while (c < countof(need) && !inset(need[c], m + 1))
			c++;
		if (c == countof(need))
			continue;
		int ok = c == 0 || (c == 1 && tkind(t) != Tkb)
			|| (c == 2 && type[1] == 'u')
			|| (c == 3 && tkind(t) == Tkf);
		return ok ? 0 : m;
	}
	return 0;
}

/* .ftz and .sat of the packed and brain-float types, as ptxas 13.0
 * says of them on 14 opcodes: a .bf16 or .bf16x2 instruction takes
 * neither but ex2's .ftz; .f16x2's ex2 no .ftz. */
static Str
packedflush(const Stmt *s, Str type)
{
	int bf = type[1] == 'b';

	for (uint32_t k = 0; k < s->nmod; k++) {
		Str m = s->mod[k];
		if (!strcmp(m, ".sat") && bf)
			return m;
		if (!strcmp(m, ".ftz") && (s->op == Oex2) != bf)
			return m;
	}
	return 0;
}

/* The operands the table calls optional, by the modifiers that call
 * for them, as ptxas 13.0 says ("Arguments mismatch"): setp's predicate
 * with .and, .or or .xor and only then; ld's, st's, red's and atom's
 * cache policy with .L2::cache_hint and only then (atom.cas's third
 * source always); vote's member mask with .sync and only then. */
static void
optional(Mtypes *y, const Stmt *s)
{
	int hint = 0, boolop = 0, sync = 0, cas = 0, base;

	if (!y->most)
		return;
	for (uint32_t k = 0; k < s->nmod; k++) {
		Str m = s->mod[k];
		hint |= !strcmp(m, ".L2::cache_hint");
		boolop |= !strcmp(m, ".and") || !strcmp(m, ".or")
			|| !strcmp(m, ".xor");
		sync |= !strcmp(m, ".sync");
		cas |= !strcmp(m, ".cas");
	}
	switch (s->op) {
	case Osetp: base = 3 + boolop; break;
	case Old: case Ost: case Ored: base = 2 + hint; break;
	case Oatom: base = 3 + cas + hint; break;
	case Ovote: base = 2 + sync; break;
	default: return;
	}
	if (base >= y->least && base <= y->most)
		y->least = y->most = (uint8_t)base;
}

/* The bits of a register type (.b32 32, .f16x2 32), or 0 when not one
 * this check knows (.pred, names it warns of); check's mov, shfl and
 * vector width rules read types through it. */
int
typebits(Str t)
{
	if (!t || t[0] != '.' || !t[1] || !strchr("bsuf", t[1])
	|| !isdigit((unsigned char)t[2]))
		return 0;
	char *e;
	long n = strtol(t + 2, &e, 10);
	if (!strcmp(e, "x2"))
		n *= 2;
	else if (*e)
		return 0;
	return n == 8 || n == 16 || n == 32 || n == 64 || n == 128 ? (int)n : 0;
}

/* A vector ld, ldu or st past 128 bits, as ptxas 13.0 says: 256 (.v4
 * of a 64-bit type, .v8 of a 32-bit one) only in ld and st, of global
 * or generic memory, on .target sm_100 and later, at PTX 8.8 and later
 * ("Feature '256 bit wide load/store' requires ...", "global state
 * space expected for feature"); more, .v2 of .b128, or ldu's, never
 * ("Vector type too large, exceeds 128 bit limit").  Each tried on
 * sm_80 to sm_120a.  What is wrong, or 0; asked once a word (types). */
static const char *
widewhy(const Known *kn, const Stmt *s, uint16_t *nbits)
{
	int n = 0, bits = 0, space = 0;

	for (uint32_t k = 0; k < s->nmod; k++) {
		Str w = s->mod[k];
		if (w[1] == 'v' && w[2] && strchr("248", w[2]) && !w[3])
			n = w[2] - '0';
		else if (!strncmp(w, ".shared", 7) || !strcmp(w, ".local")
		|| !strcmp(w, ".const") || !strcmp(w, ".param"))
			space = 1;
		else if (!bits)
			bits = typebits(w);
	}
	*nbits = (uint16_t)(n * bits);
	if (n * bits <= 128)
		return 0;
	if (s->op == Oldu || n * bits > 256 || bits > 64)
		return "ptxas takes at most 128 (exceeds 128 bit limit)";
	if (kn->sm >= 0 && kn->sm < 100)
		return "256 wants .target sm_100 or later";
	if (!kn->ptx88)
		return "256 wants PTX 8.8 or later";
	if (space)
		return "256 wants global or generic memory (ptxas: global "
			"state space expected)";
	return 0;
}

/* a type this rule does not read: .f16x2, .bf16, .e4m3, .b128, .tf32 */
static int
othertype(Str m)
{
	return (strchr("bsufe", m[1]) && (isdigit((unsigned char)m[2])
		|| (m[2] == 'f' && isdigit((unsigned char)m[3]))))
		|| !strncmp(m, ".tf32", 5) || !strncmp(m, ".ue", 3);
}

static void
mtypes(const Known *kn, Mtypes *y, const Stmt *s)
{
	const char *sig = opinfo[s->op].types;
	uint8_t t[2] = {0, 0};
	int n = 0, wide = 0;
	Str first = 0;

	memset(y, 0, sizeof *y);
	y->mod = s->mod;
	y->op = s->op;
	y->known = 1;
	for (uint32_t k = 0; k < s->nmod && y->known; k++)
		y->known = (uint8_t)modknown(s->mod[k]);
	if (s->op == Old || s->op == Ost || s->op == Oldu)
		y->wide = widewhy(kn, s, &y->widebits);
	if (!sig)
		return;
	Str packed = 0;         /* .f16x2, .bf16, .bf16x2 */
	int ntype = 0;
	for (uint32_t k = 0; k < s->nmod; k++) {
		Str m = s->mod[k];
		uint8_t c = typecode(m);
		ntype += c || othertype(m);
		if (c && n < 2) {
			first = n ? first : m;
			t[n++] = c;
		}
		else if (c || othertype(m)) {
			n = 3;
			if (!strcmp(m, ".f16x2") || !strcmp(m, ".bf16")
			|| !strcmp(m, ".bf16x2"))
				packed = m;
		}
		else if (!strcmp(m, ".wide"))
			wide = 1;
		else if (!strcmp(m, ".local"))
			y->local = 1;
	}
	if (packed && ntype == 1 && opinfo[s->op].typeset) {
		if (!intypeset(opinfo[s->op].typeset, packed))
			y->bad = packed;        /* and.f16x2 */
		else if (y->known)
			y->flush = packedflush(s, packed);
		return;                 /* no register rule */
	}
	if (n != 1 + (strpbrk(sig, "SQ") != 0))
		return;         /* a type not read, or too few */
	/* ptxas: "Special register argument not allowed" but in mov and
	 * a cvt between integers (and as an address: [%laneid]) */
	y->nospecial = s->op != Omov && (s->op != Ocvt || tkind(t[0]) == Tkf
		|| tkind(t[1]) == Tkf);
	/* an unknown modifier may be PTX's next rounding (warned of) */
	if (s->op == Ocvt && y->known)
		y->round = cvtround(s, t);
	if (s->op == Osetp && n == 1 && y->known)
		y->cmp = cmpwrong(s, t[0], first);
	int bad = n == 1 && opinfo[s->op].typeset
		&& !intypeset(opinfo[s->op].typeset, first);
	if (s->op != Ocvt && n == 1 && y->known && !kn->old) {
		y->flush = flushsat(s, t[0], first);
		if (!bad)       /* fma.rn.s32: no .s32 says it all */
			rounding(y, s, t[0], first);
	}
	if (bad) {
		y->bad = first; /* add.b32: no register rule either */
		return;
	}
	for (const char *p = sig; *p; p++) {
		char l = *p;
		if (l == '|') {
			y->least = y->most;
			continue;
		}
		y->most++;
		if (y->n == Maxslot)
			continue;
		int w = l == 'U' ? Tki << 3 | 3 : l == 'P' ? Tkp << 3
			: l == 'A' ? Waddr : l == 'S' || l == 'Q' ? t[1]
			: l == '-' ? 0 : t[0];
		if (l == 'w' && wide)   /* twice the size, to 64 bits */
			w = tsize(w) < 4 ? w + 1 : 0;
		y->want[y->n] = (uint8_t)w;
		if (l == 'R' || l == 'Q')
			y->wider |= (uint8_t)(1 << y->n);
		if (l == 'U' || l == 'P')
			y->fixed |= (uint8_t)(1 << y->n);
		y->n++;
	}
	if (!strchr(sig, '|'))
		y->least = y->most;
	optional(y, s);
}

/* What type t takes, for the message: ".f32 or .b32" */
static void
wants(char *buf, size_t n, int t, int wider)
{
	int bits = 4 << tsize(t);
	const char *more = wider ? ", or wider" : "";

	switch (tkind(t)) {
	case Tkp: snprintf(buf, n, ".pred"); break;
	case Tkb: snprintf(buf, n, "%d bits%s", bits, more); break;
	case Tki: snprintf(buf, n, ".u%d, .s%d or .b%d%s", bits, bits, bits,
		more); break;
	default: snprintf(buf, n, ".f%d or .b%d%s", bits, bits, more);
	}
}

/* o, a register, does not fit where type t is wanted: rare, so apart */
NOINLINE void
typeop(Diag *d, const Func *f, const Stmt *s, const Opnd *o, int t,
	int wider)
{
	const Reg *r = &f->reg[o->reg];
	char buf[64];

	if (opcomp(o))
		return;
	wants(buf, sizeof buf, t, wider);
	diag(d, "error", s->pos, s->text.off, s->text.len, "'%s' is %s, where "
		"%s takes %s (ptxas: arguments mismatch)", o->s, r->type,
		opinfo[s->op].name, buf);
}

/* A vector's registers, all of type r, where ld or st of type t reads
 * or writes them: as a scalar's, wider (fits), and a float type takes
 * an integer register of its size too (ld.v2.f32 into .u32 registers,
 * which ld.f32 refuses). */
static int
vecfits(int t, int r)
{
	return fits(t, r, 1, 0) || (tkind(t) == Tkf && tsize(r) == tsize(t)
		&& tkind(r) != Tkp && tkind(r) != Tkh);
}

/* Registers of two types in one vector are taken as bits of their
 * size: .u32 and .s32, .b16 and .f16, .b64 and .f64, .b32 and .pred or
 * .f16x2 are a .b32 (.b16, .b64) vector; .u32 and .f32, two sizes, or a
 * predicate beside anything but .b32, no vector at all.  (ld.v2.f32 so
 * takes {.u64, .s64}, a .b64 vector, and not {.u64, .u64}.)  The
 * type of a and b together, or 0 for none. */
static int
vecjoin(int a, Str at, int b, Str bt)
{
	int ka = tkind(a), kb = tkind(b);

	if (at == bt)
		return a;
	if (ka == Tkp || ka == Tkh || kb == Tkp || kb == Tkh)
		return (a == (Tkb << 3 | 3) || b == (Tkb << 3 | 3))
			&& (ka != Tkp || kb != Tkp) ? Tkb << 3 | 3 : 0;
	if (tsize(a) != tsize(b))
		return 0;
	if ((ka == Tkf || kb == Tkf) && ka != Tkb && kb != Tkb)
		return 0;       /* a float beside .u or .s */
	return Tkb << 3 | tsize(a);
}

/* An ld or st vector o against type t: its registers' types joined
 * (vecjoin), then vecfits.  Every type of ld and st .v2 with every two
 * of 17 register types, and .v4 of random mixes, tried with ptxas 13.0
 * (tools/typeprobe.py, vectors). */
NOINLINE void
typevecslot(Diag *d, const Func *f, const Stmt *s, const Opnd *o, int t)
{
	const Opnd *e = o->sub;
	int r = -1;
	Str rt = 0, two = 0;
	char buf[64];

	for (uint32_t i = 0; i < o->nsub; i++) {
		if (e[i].kind != Preg || e[i].reg < 0 || opcomp(&e[i]))
			return;         /* a sink, a number: unsaid */
		const Reg *g = &f->reg[e[i].reg];
		if (!g->tcode)
			return;         /* a type this does not read */
		if (r < 0) {
			r = g->tcode, rt = g->type;
			continue;
		}
		if (g->type != rt && !two)
			two = g->type;
		r = vecjoin(r, rt, g->tcode, g->type);
		rt = r == g->tcode ? g->type : 0;
		if (!r) {
			diag(d, "error", s->pos, s->text.off, s->text.len, "a "
				"vector of %s and %s registers, which ptxas "
				"takes together in no vector (ptxas: vector "
				"with elements of different types)",
				f->reg[e->reg].type, two);
			return;
		}
	}
	if (r <= 0 || r == t || vecfits(t, r))
		return;
	wants(buf, sizeof buf, t, 1);
	if (tkind(t) == Tkf)    /* and an integer of its size */
		snprintf(buf, sizeof buf, "%d bits, or .b%d", 4 << tsize(t),
			8 << tsize(t));
	diag(d, "error", s->pos, s->text.off, s->text.len, "a vector of %u "
		"%s registers, where %s%s takes %s (ptxas: arguments "
		"mismatch)", o->nsub, two ? "mixed" : f->reg[e->reg].type,
		opinfo[s->op].name, s->mod[s->nmod - 1], buf);
}

/* b, an address's register, is a float, a predicate or an .f16x2 */
NOINLINE void
typeaddr(Diag *d, const Func *f, const Stmt *s, const Opnd *b)
{
	diag(d, "error", s->pos, s->text.off, s->text.len, "'%s' is %s: an "
		"address is an integer or bits (ptxas: illegal to use it as "
		"address operand)", b->s, f->reg[b->reg].type);
}

/* y, made for s (types, on a miss) */
const Mtypes *
typesfill(Known *kn, Mtypes *y, const Stmt *s)
{
	mtypes(kn, y, s);
	y->wrong = y->bad || y->need || y->flush || y->round || y->cmp
		|| y->wide;
	return y;
}

/* What is wrong with the instruction as a whole, its operands apart */
void
typereport(Diag *d, const Stmt *s, const Mtypes *y)
{
	if (y->bad)
		badtype(d, s, y->bad);
	if (y->need)
		badround(d, s, y);
	if (y->flush)
		diag(d, "error", s->pos, s->text.off, s->text.len, "%s%s takes "
			"no %s (ptxas: illegal modifier)", opinfo[s->op].name,
			s->mod[s->nmod - 1], y->flush);
	if (y->wide)
		diag(d, "error", s->pos, s->text.off, s->text.len, "a vector "
			"of %u bits: %s", y->widebits, y->wide);
	if (y->cmp)
		diag(d, "error", s->pos, s->text.off, s->text.len, "setp%s "
			"does not compare %s (ptxas: mismatch between "
			"instruction type and comparison qualifier)", y->cmp,
			s->mod[s->nmod - 1]);
	if (y->round)
		diag(d, "error", s->pos, s->text.off, s->text.len, "cvt%s%s %s "
			"(ptxas: rounding modifier required, or illegal)",
			s->mod[s->nmod - 2], s->mod[s->nmod - 1], y->round);
	if (y->most && (s->nop < y->least || s->nop > y->most))
		badcount(d, s, y);
}
