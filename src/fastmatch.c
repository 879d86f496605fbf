/* fastmatch.c: does a plain one-line instruction begin here?
 *
 * The scanner's fast path takes such an instruction as one token
 * (fastins() builds it with the grammar's builders).  It was a flex
 * pattern; as one it made the scanner's DFA four times larger, and a
 * table of 200 KB that no longer fits the first-level cache cost every
 * byte of every file a cache miss.  Here is the same language, read by
 * hand, in one pass that never backs up:
 *
 *   INS   (@!?REGN SP+)? ID MOD* (SP+ OPND (SP* , SP* OPND)*)? SP* ;
 *   OPND  !?SIMP | REGN SP* '|' SP* REGN | -?(INTV|FLTV) | ADDR | VEC
 *   SIMP  REGN(.[xyzw])? | ID          REGN  %ID
 *   ADDR  [ SP* ((REGN|ID)(SP*(+SP*-?|-)SP* INTV)? | INTV) SP* ]
 *   VEC   { SP* SIMP (SP* , SP* SIMP)* SP* }
 *   INTV  (0[xX]HEX+ | 0[bB][01]+ | DIG+)U?
 *   FLTV  0[fF]HEX{8} | 0[dD]HEX{16}
 *   ID    [a-zA-Z_$][a-zA-Z0-9_$]*     MOD  .[a-zA-Z0-9_]+(::[a-zA-Z0-9_]+)*
 *   SP    [ \t]
 *
 * Every piece is read greedily: what may follow a piece never begins
 * with a character the piece itself could take, so greed loses no
 * match.  Anything else (a call, an expression, a comment or a newline
 * inside) is not taken, and the grammar reads it. */
#include "all.h"
#include "parse.h"

/* fastcls: what each byte may be (parse.h's Cid...); fastins() reads
 * it too, after insmatch() has made it. */
uint8_t fastcls[256];

static void
initcls(void)
{
	for (int c = 0; c < 256; c++) {
		int al = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
		int dig = c >= '0' && c <= '9';
		uint8_t k = 0;
		if (al || dig || c == '_')
			k |= Cid | Cmod;
		if (c == '$')
			k |= Cid;
		if (al || c == '_' || c == '$')
			k |= Cidfirst;
		if (dig)
			k |= Cdig;
		if (dig || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
			k |= Chex;
		if (c == ' ' || c == '\t')
			k |= Csp;
		fastcls[c] = k;
	}
}

#define IS(p, k) (fastcls[(uint8_t)*(p)] & (k))

static const char *
sp(const char *p)
{
	while (IS(p, Csp))
		p++;
	return p;
}

static const char *
id(const char *p)
{
	if (!IS(p, Cidfirst))
		return 0;
	do
		p++;
	while (IS(p, Cid));
	return p;
}

static const char *
reg(const char *p)
{
	return *p == '%' ? id(p + 1) : 0;
}

static const char *
simp(const char *p)
{
	const char *q = reg(p);

	if (!q)
		return id(p);
	if (q[0] == '.' && (q[1] == 'x' || q[1] == 'y' || q[1] == 'z'
	|| q[1] == 'w'))
		q += 2;
	return q;
}

static const char *
digits(const char *p, int k, int min, int max)
{
	const char *q = p;

	while (q - p < max && IS(q, k))
		q++;
	return q - p >= min ? q : 0;
}

static const char *
intv(const char *p)
{
	const char *q;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		q = digits(p + 2, Chex, 1, INT32_MAX);
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
		q = p + 2;
		while (*q == '0' || *q == '1')
			q++;
		if (q == p + 2)
			return 0;
	} else
		q = digits(p, Cdig, 1, INT32_MAX);
	if (q && *q == 'U')
		q++;
	return q;
}

/* -0f...: ptxas's syntax error, which the grammar reports; the fast
 * paths leave it there */
static int
neg0f(const char *p)
{
	return p[0] == '-' && p[1] == '0' && (p[2] == 'f' || p[2] == 'F');
}

static const char *
number(const char *p)  /* INTV | FLTV */
{
	if (p[0] == '0' && (p[1] == 'f' || p[1] == 'F'))
		return digits(p + 2, Chex, 8, 8);
	if (p[0] == '0' && (p[1] == 'd' || p[1] == 'D'))
		return digits(p + 2, Chex, 16, 16);
	return intv(p);
}

static const char *
addr(const char *p)     /* after the '[' */
{
	const char *q;

	p = sp(p);
	if (IS(p, Cdig))
		q = intv(p);
	else {
		if (!(q = *p == '%' ? reg(p) : id(p)))
			return 0;
		p = sp(q);
		if (*p == '+' || *p == '-') {
			if (*p == '+' && *(p = sp(p + 1)) == '-')
				p++;
			else if (*p == '-')
				p++;
			q = intv(sp(p));
		}
	}
	if (!q || *(q = sp(q)) != ']')
		return 0;
	return q + 1;
}

static const char *
vec(const char *p)      /* after the '{' */
{
	for (;;) {
		if (!(p = simp(sp(p))))
			return 0;
		p = sp(p);
		if (*p == '}')
			return p + 1;
		if (*p++ != ',')
			return 0;
	}
}

static const char *
opnd(const char *p)
{
	const char *q;

	switch (*p) {
	case '!':
		return simp(p + 1);
	case '-':
		return neg0f(p) ? 0 : number(p + 1);
	case '[':
		return addr(p + 1);
	case '{':
		return vec(p + 1);
	case '%':
		if (!(q = reg(p)))
			return 0;
		if (*sp(q) == '|')
			return reg(sp(sp(q) + 1));
		return simp(p);
	}
	return IS(p, Cdig) ? number(p) : id(p);
}

static const char *
mods(const char *p)
{
	while (*p == '.') {
		if (!IS(++p, Cmod))
			return 0;
		do
			p++;
		while (IS(p, Cmod));
		while (p[0] == ':' && p[1] == ':') {
			if (!IS(p += 2, Cmod))
				return 0;
			do
				p++;
			while (IS(p, Cmod));
		}
	}
	return p;
}

/* The length of the instruction that begins at p, its ';' included,
 * or 0; *wend gets where its opcode word ends.  The text must end in a
 * byte that is not an operand's (the scanner's buffer ends in NULs). */
size_t
insmatch(const char *p, size_t *wend)
{
	const char *s = p, *q;

	if (!fastcls['a'])
		initcls();
	if (*p == '@') {
		p += p[1] == '!';
		if (!(q = reg(p + 1)) || !IS(q, Csp))
			return 0;
		p = sp(q);
	}
	if (!(p = id(p)) || !(p = mods(p)))
		return 0;
	*wend = (size_t)(p - s);
	q = sp(p);
	if (*q != ';') {
		if (q == p)
			return 0;
		for (;;) {
			if (!(q = opnd(q)))
				return 0;
			q = sp(q);
			if (*q == ';')
				break;
			if (*q != ',')
				return 0;
			q = sp(q + 1);
		}
	}
	/* longer lines go to the grammar, which counts what the IR's 16
	 * bits hold (all.h's Maxsub): here every operand, element and
	 * modifier takes two bytes at least */
	return q + 1 - s < 2 * Maxsub ? (size_t)(q + 1 - s) : 0;
}

/* The other statement a large file is full of: ".loc F L C" and the end
 * of its line (nothing more on it: a ", function_name ..." goes to the
 * grammar).  p is at a '.'.  The length of ".loc F L C", or 0; v gets
 * the numbers. */
size_t
locmatch(const char *p, Tok v[3])
{
	const char *s = p, *q;

	if (!fastcls['a'])
		initcls();
	if (p[1] != 'l' || p[2] != 'o' || p[3] != 'c' || !IS(p + 4, Csp))
		return 0;
	p += 4;
	for (int i = 0; i < 3; i++) {
		p = sp(p);
		if (!(q = digits(p, Cdig, 1, INT32_MAX)))
			return 0;
		v[i] = (Tok){p, (uint32_t)(q - p)};
		if (q - p > 9 && !isu32(v[i]))
			return 0;       /* the grammar says it overflows */
		p = q;
	}
	for (q = p; IS(q, Csp) || *q == '\r'; q++)
		;
	return *q == '\n' ? (size_t)(p - s) : 0;
}

/* ---- "= {1, 2, ...}": a flat list of numbers ----
 *
 *   INITV  = WS* { WS* NUMV (WS* , WS* NUMV)* WS* }
 *   NUMV   -?(INTV | FLTV | FLTD)
 *   FLTD   DIG+ . DIG* ([eE][+-]?DIG+)? | DIG+ [eE][+-]?DIG+
 *   WS     [ \t\r\n]
 *
 * Tables of bytes 100,000 numbers long are common (cuRAND's, in every
 * file that includes it); read as a pattern they cost the scanner
 * about a dozen instructions a byte. */

static const char *
ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	return p;
}

static const char *
expo(const char *p)     /* at [eE] */
{
	p++;
	if (*p == '+' || *p == '-')
		p++;
	return digits(p, Cdig, 1, INT32_MAX);
}

static const char *
numv(const char *p)
{
	const char *q;

	if (neg0f(p))
		return 0;
	p += *p == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X' || p[1] == 'b'
	|| p[1] == 'B' || p[1] == 'f' || p[1] == 'F' || p[1] == 'd'
	|| p[1] == 'D'))
		return number(p);
	if (!(q = digits(p, Cdig, 1, INT32_MAX)))
		return 0;
	if (*q == 'U')
		return q + 1;
	if (*q == '.') {
		q = digits(q + 1, Cdig, 0, INT32_MAX);
		return *q == 'e' || *q == 'E' ? expo(q) : q;
	}
	return *q == 'e' || *q == 'E' ? expo(q) : q;
}

/* The length of the INITV that begins at p (at its '='), or 0. */
size_t
initmatch(const char *p)
{
	const char *s = p;

	if (!fastcls['a'])
		initcls();
	p = ws(p + 1);
	if (*p != '{')
		return 0;
	for (p++;;) {
		const char *q = p = ws(p);
		/* most lists are plain decimals: digits, then what may
		 * follow a number (anything else numv reads in full) */
		while ((unsigned char)(*q - '0') < 10)
			q++;
		if (q == p || !(*q == ',' || *q == '}' || *q == ' '
		|| *q == '\t' || *q == '\r' || *q == '\n'))
			if (!(q = numv(p)))
				return 0;
		p = ws(q);
		if (*p == '}')
			return (size_t)(p + 1 - s);
		if (*p++ != ',')
			return 0;
	}
}
