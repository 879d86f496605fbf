/* constkind.c: the kind of a constant expression, as ptxas 13.0 types
 * it, for check's immediate rule (check.c, checkimm).  Each rule was read
 * off ptxas one line a file (tests/front/err-constexpr.ptx):
 *   - a literal is an integer (decimal, 0x, octal, 0b, U) or a float:
 *     0f is 32 bits, 0d and decimal 64; a float with any operator on
 *     it, a sign too, is 64 bits (mov.b32 takes (0f3F800000), not
 *     -(0f3F800000); mov.b64 takes both);
 *   - + - * / of two integers is one, of two floats a float; an integer
 *     and a float together ptxas refuses ((1.0+2), (1.5*2));
 *   - % << >> & | ^ && || ! ~ take integers only ((1.0 & 1), !1.0);
 *   - a comparison of two of a kind is an integer ((1.0 < 2.0) is one),
 *     of two kinds refused;
 *   - ?: wants integers throughout ((1?2.0:3.0) is refused anywhere).
 * A name in the expression (sym+4) makes its kind unknown: not judged.
 * Division by zero, which ptxas refuses too, is not looked for. */
#include <ctype.h>
#include <string.h>
#include "all.h"

enum { Kunknown, Kint, Kf32, Kf64, Kbad };

/* fail: not read; depth: ( and unary operators open, bounded so that
 * text nested thousands deep (the grammar reads it) is left unjudged
 * rather than overflowing the stack */
typedef struct Cx { const char *p; int fail, depth; } Cx;
enum { Maxdepth = 256 };

static int cond(Cx *);

static void
blank(Cx *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

/* Is the next token op (and not a longer one: '&' is not '&&')? */
static int
take(Cx *c, const char *op)
{
	size_t n = strlen(op);

	blank(c);
	if (strncmp(c->p, op, n))
		return 0;
	if (n == 1 && strchr("&|<>", op[0]) && c->p[1] == op[0])
		return 0;       /* && || << >> */
	if (n == 1 && strchr("<>!", op[0]) && c->p[1] == '=')
		return 0;       /* <= >= != */
	c->p += n;
	return 1;
}

static int
literal(Cx *c)
{
	const char *s = c->p;

	if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd'
	|| s[1] == 'D') && isxdigit((unsigned char)s[2])) {
		c->p += 2;
		while (isxdigit((unsigned char)*c->p))
			c->p++;
		return s[1] == 'f' || s[1] == 'F' ? Kf32 : Kf64;
	}
	int flt = 0;
	while (isalnum((unsigned char)*c->p) || *c->p == '.'
	|| ((*c->p == '+' || *c->p == '-') && (c->p[-1] == 'e'
	|| c->p[-1] == 'E') && !(s[0] == '0' && (s[1] == 'x'
	|| s[1] == 'X')))) {
		flt |= *c->p == '.' || ((*c->p == 'e' || *c->p == 'E')
			&& !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X')));
		c->p++;
	}
	return flt ? Kf64 : Kint;
}

static int
isfloat(int k)
{
	return k == Kf32 || k == Kf64;
}

static int
primary(Cx *c)
{
	blank(c);
	if (take(c, "(")) {
		if (++c->depth > Maxdepth) {
			c->fail = 1;
			return Kunknown;
		}
		int k = cond(c);
		c->fail |= !take(c, ")");
		c->depth--;
		return k;
	}
	if (isalpha((unsigned char)*c->p) || *c->p == '_' || *c->p == '$'
	|| *c->p == '%') {
		while (isalnum((unsigned char)*c->p) || *c->p == '_'
		|| *c->p == '$' || *c->p == '%' || *c->p == '.')
			c->p++;
		return Kunknown;
	}
	if (isdigit((unsigned char)*c->p) || *c->p == '.')
		return literal(c);
	c->fail = 1;
	return Kunknown;
}

static int
unary(Cx *c)
{
	if (c->depth > Maxdepth) {
		c->fail = 1;
		return Kunknown;
	}
	if (take(c, "-") || take(c, "+")) {
		c->depth++;
		int k = unary(c);
		c->depth--;
		return isfloat(k) ? Kf64 : k;
	}
	if (take(c, "!") || take(c, "~")) {
		c->depth++;
		int k = unary(c);
		c->depth--;
		return isfloat(k) ? Kbad : k;
	}
	return primary(c);
}

/* a op b, where op is arithmetic (+ - * /), a comparison or integer
 * only: the rules of the comment at the top */
static int
join(int a, int b, int how)
{
	if (a == Kbad || b == Kbad)
		return Kbad;
	if (a == Kunknown || b == Kunknown)
		return Kunknown;
	if (how == 'i')
		return isfloat(a) || isfloat(b) ? Kbad : Kint;
	if (isfloat(a) != isfloat(b))
		return Kbad;
	return how == 'c' ? Kint : isfloat(a) ? Kf64 : Kint;
}

/* Binary levels, loosest last: each operator with how it joins. */
static const struct Level {
	const char *op[4];
	int how;
} level[] = {
	{{"*", "/", "%"}, 0}, {{"+", "-"}, 'a'}, {{"<<", ">>"}, 'i'},
	{{"<=", ">=", "<", ">"}, 'c'}, {{"==", "!="}, 'c'}, {{"&"}, 'i'},
	{{"^"}, 'i'}, {{"|"}, 'i'}, {{"&&"}, 'i'}, {{"||"}, 'i'},
};

static int
binary(Cx *c, int l)
{
	if (l < 0)
		return unary(c);
	int k = binary(c, l - 1);
	for (;;) {
		int i = 0;
		while (i < 4 && level[l].op[i] && !take(c, level[l].op[i]))
			i++;
		if (i == 4 || !level[l].op[i])
			return k;
		int how = level[l].how ? level[l].how : i == 2 ? 'i' : 'a';
		k = join(k, binary(c, l - 1), how);
	}
}

static int
cond(Cx *c)
{
	int k = binary(c, (int)countof(level) - 1);
	if (!take(c, "?"))
		return k;
	int a = cond(c);
	c->fail |= !take(c, ":");
	int b = cond(c);
	return join(join(k, a, 'i'), b, 'i');
}

/* s's kind: 'i' an integer, 'f' a float of *bits (32 or 64), 'x' one
 * ptxas refuses, 0 not known (a name in it, or text this does not
 * read). */
int
constkind(const char *s, int *bits)
{
	Cx c = {s, 0, 0};
	int k = cond(&c);

	blank(&c);
	*bits = k == Kf32 ? 32 : 64;
	if (*c.p || c.fail)
		return 0;       /* not all read: say nothing */
	return k == Kint ? 'i' : isfloat(k) ? 'f' : k == Kbad ? 'x' : 0;
}
