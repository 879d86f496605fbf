/* fastmatch.c: the scanner's fast paths' matchers.
 *
 * A plain one-line instruction is read and built in one pass by
 * parse.c's fastins(), which asks here where its opcode word ends; a
 * plain .loc line and a flat list of numbers are matched here.  Each
 * was once a flex pattern; as patterns they made the scanner's DFA four
 * times larger, and a table of 200 KB that no longer fits the first-level
 * cache cost every byte of every file a cache miss.  Read by hand, in
 * one pass that never backs up. */
#include <string.h>
#include "all.h"
#include "parse.h"

/* fastcls: what each byte may be (parse.h's Cid...), for parse.c's
 * fastins() too. */
uint8_t fastcls[256];

void
fastclsinit(void)
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

/* The end of the INTV, or where flt the INTV or FLTV, that begins at p,
 * or 0: parse.c's fastins reads its operands' numbers with it. */
const char *
numberend(const char *p, int flt)
{
	return flt ? number(p) : intv(p);
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

/* The end of the opcode word (ID MOD*) that begins at p, or 0 */
const char *
wordend(const char *p)
{
	return (p = id(p)) ? mods(p) : 0;
}

/* A label, "ID:" with nothing between (7,379 of them in nvcc's
 * 1 MB matrix_free file, each of which cost the grammar two tokens and
 * the instruction after it its direct add).  The length with the ':',
 * or 0: "a::b" and "ID :" are the grammar's. */
size_t
labelmatch(const char *p)
{
	const char *q = id(p);

	return q && q[0] == ':' && q[1] != ':' ? (size_t)(q - p) + 1 : 0;
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
		fastclsinit();
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
		if (*p == '0' && q - p > 1)
			return 0;       /* octal, 09 an error: the grammar's */
		p = q;
	}
	for (q = p; IS(q, Csp) || *q == '\r'; q++)
		;
	return *q == '\n' ? (size_t)(p - s) : 0;
}

/* A ".pragma "text";" line, the string on the same line as the
 * directive and nothing but blanks between (nvcc writes one before
 * every loop it was told not to unroll: 931 in the 1 MB matrix_free, 3
 * tokens each to the grammar).  p is at a '.'.  The length through
 * the ';', or 0; *str gets the string with its quotes, as the scanner's
 * STR token would. */
size_t
pragmamatch(const char *p, Tok *str)
{
	const char *s = p, *q;

	if (strncmp(p + 1, "pragma", 6) || !IS(p + 7, Csp))
		return 0;
	p = sp(p + 7);
	if (*p != '"')
		return 0;
	for (q = p + 1; *q != '"'; q++) {       /* STR's language */
		if (*q == '\\')
			q++;    /* the byte it escapes, a '"' too */
		if (*q == '\n' || !*q)
			return 0;
	}
	*str = (Tok){p, (uint32_t)(q + 1 - p)};
	q = sp(q + 1);
	return *q == ';' ? (size_t)(q + 1 - s) : 0;
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
		fastclsinit();
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
