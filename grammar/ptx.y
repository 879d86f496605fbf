/* ptx.y: the shape of PTX statements.  The grammar says where a thing
 * stands; C (parse.c) validates opcodes and modifiers against the table
 * and builds the IR.  Actions build $$ and call the builder; nothing is
 * global.  Recovery is per statement, so one run reports many errors. */

%code requires {
#include "all.h"
#include "parse.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%code {
#include <stdlib.h>
#include <string.h>
/* Each nested { } scope takes three stack entries: 10,000 of them (valid
 * PTX) must parse.  Deeper input gets "memory exhausted", an error. */
#define YYMAXDEPTH 100000
int ptxlex(PTXSTYPE *, Loc *, yyscan_t);
static void ptxerror(Loc *, Parser *, yyscan_t, const char *);
static int32_t regrange(Loc *, Parser *, yyscan_t, Tok);
static void offexpr(Parser *, Opnd *, Opnd *);
static Stmt *ins(Parser *, yyscan_t, Loc *, Opnd *, int, Tok, OL);
static void toomany(Parser *, yyscan_t, Loc *, OL);
static void bare0f(Parser *, yyscan_t, Loc *, const char *);
static void fnword(Parser *, yyscan_t, Loc *, Tok);
static Opnd *bareop(Parser *, yyscan_t, Loc *, Opnd *);
static Opnd *bin(Parser *, yyscan_t, Opnd *, const char *, Opnd *, Loc *,
	Loc *);
static Str sbin(Parser *, yyscan_t, Str, const char *, Str, Loc *, Loc *);
/* a binary operator's operands checked left, then right (as arguments
 * of one call they were checked in whichever order the compiler chose,
 * and two errors came out backwards); sbin for an initializer's
 * expression, which is text */
#define BIN(a, op, b, la, lb) bin(P, scanner, (a), (op), (b), &(la), &(lb))
#define SBIN(a, op, b, la, lb) sbin(P, scanner, (a), (op), (b), &(la), &(lb))

#define YYLLOC_DEFAULT(Cur, Rhs, N) do { \
	if (N) { \
		(Cur).first_line = YYRHSLOC(Rhs, 1).first_line; \
		(Cur).first_column = YYRHSLOC(Rhs, 1).first_column; \
		(Cur).off = YYRHSLOC(Rhs, 1).off; \
		(Cur).last_line = YYRHSLOC(Rhs, N).last_line; \
		(Cur).last_column = YYRHSLOC(Rhs, N).last_column; \
		(Cur).end = YYRHSLOC(Rhs, N).end; \
	} else { \
		(Cur).first_line = (Cur).last_line = \
			YYRHSLOC(Rhs, 0).last_line; \
		(Cur).first_column = (Cur).last_column = \
			YYRHSLOC(Rhs, 0).last_column; \
		(Cur).off = (Cur).end = YYRHSLOC(Rhs, 0).end; \
	} } while (0)
}

%define api.pure full
%define api.prefix {ptx}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%define api.location.type {Loc}
%parse-param {Parser *P} {yyscan_t scanner}
%lex-param {yyscan_t scanner}

%union {
	Tok tok;
	Str str;
	Opnd *opd;
	OL ol;
	SL sl;
	NL nl;
	DL dl;
	Decl *decl;
	Dname *dname;
	Stmt *stmt;
	Head *head;         /* a pointer: the union is copied on every
	                     * shift and reduce, so it stays small */
	uint32_t inl[3];
	int num;
}

%token <tok> WORD DOT REG INT FLT STR
%token VERSION TARGET ADDRSIZE FILE_ LOC SECTION ENTRY FUNC PRAGMA
%token CALLPROTO CALLTARGETS BRANCHTARGETS ALIAS SHL SHR
%token LE GE EQ NE ANDAND OROR
%token <tok> PERF
%token <stmt> INS "instruction"
%token <str> INITV "initializer"

%type <sl> attrs attrs0 dims perfs strs toks wordlist ilist sampler
%type <str> attr perf intlist0 intlist init ival expr term unary
%type <str> prim tok sfield
%type <opd> operand simple addrbase base num nprim
%type <ol> operands vlist slist
%type <nl> dnames
%type <dname> dname
%type <decl> param
%type <dl> params plist rets
%type <head> head
%type <stmt> ins
%type <inl> inlined
%type <str> fnname
%type <tok> lnum fnum

/* C's order, as PTX's constant expressions have it */
%right '?' ':'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'

%%

module
	: %empty
	| module item
	;

item
	: VERSION FLT
		{ Item *i = mkitem(P, Iver, tokstr(P, $2));
		  additem(P, i, &@$); }
	| VERSION INT
		{ Item *i = mkitem(P, Iver, tokstr(P, $2));
		  additem(P, i, &@$); }
	| TARGET wordlist
		{ Item *i = mkitem(P, Itarget, 0);
		  i->s = $2.h ? $2.h->s : 0;
		  i->decl = mkdecl(P, $2, (NL){0}, 0);
		  additem(P, i, &@$); }
	| ADDRSIZE INT
		{ Item *i = mkitem(P, Iaddr, tokstr(P, $2));
		  additem(P, i, &@$); }
	| FILE_ fnum STR
		{ Item *i = mkitem(P, Ifile, cat(P, tokstr(P, $2), " ",
			tokstr(P, $3)));
		  additem(P, i, &@$); }
	| FILE_ fnum STR ',' INT ',' INT
		{ Str s = cat(P, tokstr(P, $2), " ", tokstr(P, $3));
		  s = cat(P, s, ", ", tokstr(P, $5));
		  Item *i = mkitem(P, Ifile, cat(P, s, ", ", tokstr(P, $7)));
		  additem(P, i, &@$); }
	| SECTION DOT '{' { secbegin(P, $2); } secitems '}'
		{ secend(P, &@$); }
	| attrs dnames init ';'
		{ additem(P, mkvar(P, $1, $2, $3), &@$); }
	| head '{' { funcbegin(P, $1, &@1, &@2); } stmts '}'
		{ funcend(P, &@5); }
	| head ';'
		{ funcproto(P, $1, &@1, &@2); }
	| head
		{ funcproto(P, $1, &@1, &@1); }
	| PRAGMA strs ';'
		{ Item *i = mkitem(P, Ipragma, 0);
		  i->decl = mkdecl(P, $2, (NL){0}, 0);
		  additem(P, i, &@$); }
	| ALIAS WORD ',' WORD ';'
		{ Item *i = mkitem(P, Ialias, cat(P, tokstr(P, $2), ", ",
			tokstr(P, $4)));
		  additem(P, i, &@$); }
	| error ';'
		{ yyerrok; P->inerror = 0; P->prevend = @$.end; }
	| error INS
		{ yyerrok; P->inerror = 0; P->prevend = @$.end; }
	| error '}'
		{ yyerrok; P->inerror = 0; P->prevend = @$.end; P->fn = 0; }
	;

wordlist
	: WORD                  { $$ = (SL){0}; slpush(P, &$$, tokstr(P, $1)); }
	| wordlist ',' WORD     { $$ = $1; slpush(P, &$$, tokstr(P, $3)); }
	;

strs
	: STR                   { $$ = (SL){0}; slpush(P, &$$, tokstr(P, $1)); }
	| strs ',' STR          { $$ = $1; slpush(P, &$$, tokstr(P, $3)); }
	;

/* ---- declarations ---- */

attrs0
	: %empty                { $$ = (SL){0}; }
	| attrs                 { $$ = $1; }
	;

attrs
	: attr                  { $$ = (SL){0}; slpush(P, &$$, $1); }
	| attrs attr            { $$ = $1; slpush(P, &$$, $2); }
	;

attr
	: DOT                   { $$ = tokstr(P, $1); }
	| DOT INT               { $$ = cat(P, tokstr(P, $1), " ",
				    tokstr(P, $2)); }
	| DOT '(' DOT ')'       { $$ = cat(P, tokstr(P, $1), "(",
				    cat(P, tokstr(P, $3), ")", "")); }
	;

dnames
	: dname                 { $$ = (NL){$1, $1, 1}; }
	| dnames ',' dname      { $$ = $1; $$.t->next = $3; $$.t = $3;
				  $$.n++; }
	;

dname
	: WORD dims             { $$ = mkdname(P, tokstr(P, $1), -1, $2); }
	| REG dims              { $$ = mkdname(P, tokstr(P, $1), -1, $2); }
	| REG '<' INT '>'       { $$ = mkdname(P, tokstr(P, $1),
				    regrange(&@3, P, scanner, $3), (SL){0}); }
	| WORD '<' INT '>'      { $$ = mkdname(P, tokstr(P, $1),
				    regrange(&@3, P, scanner, $3), (SL){0}); }
	;

dims
	: %empty                { $$ = (SL){0}; }
	| dims '[' ']'          { $$ = $1; slpush(P, &$$, interns("")); }
	| dims '[' INT ']'      { $$ = $1; slpush(P, &$$, tokstr(P, $3)); }
	;

init
	: %empty                { $$ = 0; }
	| '=' ival              { $$ = $2; }
	| INITV                 { $$ = $1; }
	;

ival
	: expr                  { $$ = $1; }
	| '{' ilist '}'         { $$ = join(P, $2, "{", ", ", "}"); }
	| '{' sampler '}'       { $$ = join(P, $2, "{", ", ", "}"); }
	;

/* A .samplerref's fields (with texmode_independent): { filter_mode =
 * nearest, addr_mode_0 = wrap } */
sampler
	: sfield                { $$ = (SL){0}; slpush(P, &$$, $1); }
	| sampler ',' sfield    { $$ = $1; slpush(P, &$$, $3); }
	;

sfield
	: WORD '=' prim         { $$ = cat(P, tokstr(P, $1), " = ", $3); }
	;

/* A list of thousands of bytes is common (tables, fatbins): joined
 * once, not concatenated pairwise. */
ilist
	: ival                  { $$ = (SL){0}; slpush(P, &$$, $1); }
	| ilist ',' ival        { $$ = $1; slpush(P, &$$, $3); }
	;

expr
	: term                  { $$ = $1; }
	| expr '|' expr         { $$ = SBIN($1, "|", $3, @1, @3); }
	| expr '^' expr         { $$ = SBIN($1, "^", $3, @1, @3); }
	| expr '&' expr         { $$ = SBIN($1, "&", $3, @1, @3); }
	| expr SHL expr         { $$ = SBIN($1, "<<", $3, @1, @3); }
	| expr SHR expr         { $$ = SBIN($1, ">>", $3, @1, @3); }
	| expr '+' expr         { $$ = SBIN($1, "+", $3, @1, @3); }
	| expr '-' expr         { $$ = SBIN($1, "-", $3, @1, @3); }
	| expr '*' expr         { $$ = SBIN($1, "*", $3, @1, @3); }
	| expr '/' expr         { $$ = SBIN($1, "/", $3, @1, @3); }
	| expr '%' expr         { $$ = SBIN($1, "%", $3, @1, @3); }
	;

term
	: unary                 { $$ = $1; }
	;

unary
	: prim                  { $$ = $1; }
	| '-' unary             { bare0f(P, scanner, &@2, $2);
				  $$ = cat(P, "-", $2, ""); }
	| '~' unary             { bare0f(P, scanner, &@2, $2);
				  $$ = cat(P, "~", $2, ""); }
	| '!' unary             { bare0f(P, scanner, &@2, $2);
				  $$ = cat(P, "!", $2, ""); }
	;

prim
	: INT                   { $$ = tokstr(P, $1); }
	| FLT                   { $$ = tokstr(P, $1); }
	| WORD                  { $$ = tokstr(P, $1); }
	| DOT                   { $$ = tokstr(P, $1); }
	| '(' expr ')'          { $$ = cat(P, "(", $2, ")"); }
	| WORD '(' expr ')'     { $$ = cat(P, tokstr(P, $1), "(",
				    cat(P, $3, ")", "")); }
	;

/* ---- functions ---- */

head
	: attrs0 ENTRY WORD params perfs
		{ $$ = alloc(P->a, sizeof *$$);
		  *$$ = (Head){$1, 1, {0}, $4, $3, @3, $5}; }
	| attrs0 FUNC rets WORD params perfs
		{ $$ = alloc(P->a, sizeof *$$);
		  *$$ = (Head){$1, 0, $3, $5, $4, @4, $6}; }
	;

rets
	: %empty                { $$ = (DL){0}; }
	| '(' plist ')'         { $$ = $2; $$.has = 1; }
	;

params
	: %empty                { $$ = (DL){0}; }
	| '(' plist ')'         { $$ = $2; $$.has = 1; }
	;

plist
	: %empty                { $$ = (DL){0}; }
	| param                 { $$ = (DL){$1, $1, 1, 0}; }
	| plist ',' param       { $$ = $1; if ($$.t) $$.t->next = $3;
				  else $$.h = $3;
				  $$.t = $3; $$.n++; }
	;

param
	: attrs dname           { $$ = mkdecl(P, $1, (NL){$2, $2, 1}, 0); }
	;

perfs
	: %empty                { $$ = (SL){0}; }
	| perfs perf            { $$ = $1; slpush(P, &$$, $2); }
	;

perf
	: PERF intlist0         { $$ = $2 ? cat(P, tokstr(P, $1), " ", $2)
				    : tokstr(P, $1); }
	;

intlist0
	: %empty                { $$ = 0; }
	| intlist               { $$ = $1; }
	;

intlist
	: INT                   { $$ = tokstr(P, $1); }
	| intlist ',' INT       { $$ = cat(P, $1, ", ", tokstr(P, $3)); }
	;

/* ---- statements ---- */

stmts
	: %empty
	| stmts stmt
	;

stmt
	: attrs dnames init ';'
		{ Stmt *s = mkstmt(P, Sdecl, 0);
		  s->decl = mkdecl(P, $1, $2, $3);
		  addstmt(P, s, &@$); }
	| WORD ':'
		{ addstmt(P, mkstmt(P, Slabel, tokstr(P, $1)), &@$); }
	| ins ';'
		{ addstmt(P, $1, &@$); }
	| INS
		{ addstmt(P, $1, &@$); }
	| '{'
		{ addstmt(P, mkstmt(P, Sopen, 0), &@1); P->depth++; }
	  stmts '}'
		{ P->depth--; addstmt(P, mkstmt(P, Sclose, 0), &@4); }
	| LOC lnum lnum lnum
		{ addstmt(P, mkloc(P, $2, $3, $4, 0, 0), &@$); }
	| LOC lnum lnum lnum ',' fnname
		{ /* ptxas 13.0: a syntax error after the label */
		  ptxerror(&@6, P, scanner, "function_name wants an "
		      "inlined_at after it");
		  addstmt(P, mkloc(P, $2, $3, $4, $6, 0), &@$); }
	| LOC lnum lnum lnum ',' fnname ',' inlined
		{ addstmt(P, mkloc(P, $2, $3, $4, $6, $8), &@$); }
	| PRAGMA strs ';'
		{ addstmt(P, mkpragma(P, $2), &@$); }
	| CALLPROTO toks ';'
		{ Stmt *s = mkstmt(P, Sdir, interns(".callprototype"));
		  s->decl = mkdecl(P, $2, (NL){0}, 0);
		  addstmt(P, s, &@$); }
	| CALLTARGETS toks ';'
		{ Stmt *s = mkstmt(P, Sdir, interns(".calltargets"));
		  s->decl = mkdecl(P, $2, (NL){0}, 0);
		  addstmt(P, s, &@$); }
	| BRANCHTARGETS toks ';'
		{ Stmt *s = mkstmt(P, Sdir, interns(".branchtargets"));
		  s->decl = mkdecl(P, $2, (NL){0}, 0);
		  addstmt(P, s, &@$); }
	| error ';'
		{ yyerrok; P->inerror = 0; P->prevend = @$.end; }
	| error INS      /* its ';' ends the broken statement, as
	                  * error ';' does for the grammar's tokens */
		{ yyerrok; P->inerror = 0; P->prevend = @$.end; }
	;

fnname
	: WORD WORD             { $$ = tokstr(P, $2); fnword(P, scanner, &@1,
				      $1); }
	| WORD WORD '+' INT     { $$ = cat(P, tokstr(P, $2), "+",
				      tokstr(P, $4));
				  fnword(P, scanner, &@1, $1); }
				  /* label + offset: ptxas takes it */
	;

inlined
	: WORD lnum lnum lnum   { $$[0] = locnum($2); $$[1] = locnum($3);
				  $$[2] = locnum($4);
				  if (strcmp(tokstr(P, $1), "inlined_at"))
					ptxerror(&@1, P, scanner,
					    "expected inlined_at"); }
	;

/* A .loc number: ptxas says "Constant overflow" past 2^32 - 1, and a
 * wrapped one, printed again (locfix copies inlined_at's), would not
 * read back (opt fuzzer) */
lnum
	: INT                   { $$ = $1;
				  if (!isu32($1))
					ptxerror(&@1, P, scanner,
					    "constant overflow"); }
	;

/* A .file number, bounded as a .loc's (its time and size are not) */
fnum
	: INT                   { $$ = $1;
				  if (!isu32($1))
					ptxerror(&@1, P, scanner,
					    "constant overflow"); }
	;

toks
	: %empty                { $$ = (SL){0}; }
	| toks tok              { $$ = $1; slpush(P, &$$, $2); }
	;

tok
	: WORD { $$ = tokstr(P, $1); } | DOT { $$ = tokstr(P, $1); }
	| REG { $$ = tokstr(P, $1); }  | INT { $$ = tokstr(P, $1); }
	| FLT { $$ = tokstr(P, $1); }  | STR { $$ = tokstr(P, $1); }
	| '(' { $$ = interns("("); }   | ')' { $$ = interns(")"); }
	| ',' { $$ = interns(","); }   | '[' { $$ = interns("["); }
	| ']' { $$ = interns("]"); }
	;

ins
	: WORD
		{ $$ = ins(P, scanner, &@1, 0, 0, $1, (OL){0}); }
	| WORD operands
		{ $$ = ins(P, scanner, &@1, 0, 0, $1, $2); }
	| '@' simple WORD
		{ $$ = ins(P, scanner, &@3, $2, 0, $3, (OL){0}); }
	| '@' simple WORD operands
		{ $$ = ins(P, scanner, &@3, $2, 0, $3, $4); }
	| '@' '!' simple WORD
		{ $$ = ins(P, scanner, &@4, $3, 1, $4, (OL){0}); }
	| '@' '!' simple WORD operands
		{ $$ = ins(P, scanner, &@4, $3, 1, $4, $5); }
	;

operands
	: operand               { $$ = (OL){0}; olpush(P, &$$, $1); }
	| operands ',' operand  { $$ = $1; olpush(P, &$$, $3);
				  toomany(P, scanner, &@3, $$); }
	;

simple
	: REG                   { $$ = mkop(P, Preg, tokstr(P, $1)); }
	| REG DOT               { $$ = mkop(P, Preg, tokstr(P, $1));
				  setcomp($$, tokstr(P, $2)); }
	| WORD                  { $$ = mkop(P, Psym, tokstr(P, $1)); }
	;

operand
	: simple                { $$ = $1; }
	| '!' simple            { $$ = $2; $$->neg = 1; }
	| num                   { $$ = $1; }
	| WORD '+' INT          { $$ = mkop(P, Pexpr, cat(P, tokstr(P, $1),
				    "+", tokstr(P, $3))); }
	| simple '|' simple     { OL l = {0}; olpush(P, &l, $1); olpush(P, &l, $3);
				  $$ = mkagg(P, Ppair, l); }
	| '{' vlist '}'         { $$ = mkagg(P, Pvec, $2); }
	| '(' ')'               { $$ = mkagg(P, Plist, (OL){0}); }
	| '(' slist ')'         { $$ = mkagg(P, Plist, $2); }
	| '[' addrbase ']'      { OL l = {0}; olpush(P, &l, $2);
				  $$ = mkagg(P, Paddr, l); }
	| '[' addrbase ',' vlist ']'
				{ OL l = {0}; olpush(P, &l, $2);
				  for (Onode *e = $4.h; e; e = e->next)
					olpush(P, &l, e->o);
				  $$ = mkagg(P, Paddr, l); }
	;

/* Immediates may be constant expressions: ((128 >> 4) << 16), 32 * 4.
 * A parenthesised list of names is a call's argument list instead. */
num
	: nprim                 { $$ = $1; }
	| num '|' num           { $$ = BIN($1, "|", $3, @1, @3); }
	| num '^' num           { $$ = BIN($1, "^", $3, @1, @3); }
	| num '&' num           { $$ = BIN($1, "&", $3, @1, @3); }
	| num SHL num           { $$ = BIN($1, "<<", $3, @1, @3); }
	| num SHR num           { $$ = BIN($1, ">>", $3, @1, @3); }
	| num '+' num           { $$ = BIN($1, "+", $3, @1, @3); }
	| num '-' num           { $$ = BIN($1, "-", $3, @1, @3); }
	| num '*' num           { $$ = BIN($1, "*", $3, @1, @3); }
	| num '/' num           { $$ = BIN($1, "/", $3, @1, @3); }
	| num '%' num           { $$ = BIN($1, "%", $3, @1, @3); }
	| num '<' num           { $$ = BIN($1, "<", $3, @1, @3); }
	| num '>' num           { $$ = BIN($1, ">", $3, @1, @3); }
	| num LE num            { $$ = BIN($1, "<=", $3, @1, @3); }
	| num GE num            { $$ = BIN($1, ">=", $3, @1, @3); }
	| num EQ num            { $$ = BIN($1, "==", $3, @1, @3); }
	| num NE num            { $$ = BIN($1, "!=", $3, @1, @3); }
	| num ANDAND num        { $$ = BIN($1, "&&", $3, @1, @3); }
	| num OROR num          { $$ = BIN($1, "||", $3, @1, @3); }
	| num '?' num ':' num   { $$ = BIN(BIN($1, "?", $3, @1, @3), ":",
				    $5, @1, @5); }
	;

nprim
	: INT                   { $$ = mkop(P, Pint, tokstr(P, $1)); }
	| FLT                   { $$ = mkop(P, Pflt, tokstr(P, $1)); }
	| '-' nprim             { $$ = mkexpr(P, 0, "-",
				    bareop(P, scanner, &@2, $2)); }
	| '+' nprim             { $$ = bareop(P, scanner, &@2, $2); }
				  /* ptxas takes +1.0 */
	| '~' nprim             { $$ = mkexpr(P, 0, "~",
				    bareop(P, scanner, &@2, $2)); }
	| '!' nprim             { $$ = mkexpr(P, 0, "!",
				    bareop(P, scanner, &@2, $2)); }
	| '(' num ')'           { $$ = mkexpr(P, 0, "(", $2); }
	;

slist
	: simple                { $$ = (OL){0}; olpush(P, &$$, $1); }
	| slist ',' simple      { $$ = $1; olpush(P, &$$, $3);
				  toomany(P, scanner, &@3, $$); }
	;

vlist
	: operand               { $$ = (OL){0}; olpush(P, &$$, $1); }
	| vlist ',' operand     { $$ = $1; olpush(P, &$$, $3);
				  toomany(P, scanner, &@3, $$); }
	;

/* ptxas takes no component in an address's base ([%tid.x], [%v.x+4]:
 * "syntax error"), so neither does check */
addrbase
	: base                  { $$ = $1; }
	| INT                   { $$ = mkop(P, Pint, tokstr(P, $1)); }
	| base '+' num          { $$ = $1; offexpr(P, $$, $3); }
	| base '-' INT          { $$ = $1; setoffnum($$, "-", $3.s,
				    $3.n); }
	;

base
	: simple                { $$ = $1;
				  if (hascomp($1))
					ptxerror(&@1, P, scanner, "an address "
					    "base with a component"); }
	;

/* ---- debug sections: data lines and labels ---- */

secitems
	: %empty
	| secitems secitem
	;

secitem
	: DOT { secdir(P, tokstr(P, $1)); } seclist
	| WORD ':'              { seclabel(P, tokstr(P, $1)); }
	;

seclist
	: expr                  { secarg(P, $1, 1); }
	| seclist ',' expr      { secarg(P, $3, 0); }
	;

%%

/* Bison's "detailed" message, except that the fast paths' tokens are
 * told as the token the grammar would have seen first ('@' or the
 * opcode WORD for INS, '=' for INITV), at that token, so a message does
 * not depend on which path read the text. */
static const char *
symname(yysymbol_kind_t k)
{
	return k == YYSYMBOL_INS ? "WORD" : k == YYSYMBOL_INITV ? "'='"
		: yysymbol_name(k);
}

static int
yyreport_syntax_error(const yypcontext_t *ctx, Parser *P, yyscan_t s)
{
	yysymbol_kind_t exp[4], t = yypcontext_token(ctx);
	Loc l = *yypcontext_location(ctx);
	int n = yypcontext_expected_tokens(ctx, exp, countof(exp));
	char msg[256];
	size_t k;

	if (n < 0)
		return n;
	if (t == YYSYMBOL_INITV) {
		l.end = l.off + 1;
		l.last_column = l.first_column + 1;
	}
	if (t == YYSYMBOL_INS) {
		const char *p = P->m->src + l.off, *e = P->m->src + l.end;
		const char *q = p + 1;
		if (*p != '@')
			while (q < e && *q != ' ' && *q != '\t' && *q != ';')
				q++;
		l.end = l.off + (uint32_t)(q - p);
		l.last_column = l.first_column + (int)(q - p);
	}
	k = (size_t)snprintf(msg, sizeof msg, "syntax error");
	if (t != YYSYMBOL_YYEMPTY)
		k += (size_t)snprintf(msg + k, sizeof msg - k, ", unexpected %s",
			t == YYSYMBOL_INS && P->m->src[l.off] == '@' ? "'@'"
			: symname(t));
	for (int i = 0, m = 0; i < n; i++) {
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= !strcmp(symname(exp[j]), symname(exp[i]));
		if (dup)
			continue;
		k += (size_t)snprintf(msg + k, sizeof msg - k, "%s%s",
			m++ ? " or " : ", expecting ", symname(exp[i]));
	}
	ptxerror(&l, P, s, msg);
	P->inerror = 1;         /* until an error rule's yyerrok */
	return 0;
}

static void
ptxerror(Loc *l, Parser *P, yyscan_t s, const char *msg)
{
	UNUSED(s);
	lexerr(&P->lx, l, "%s", msg);
}

/* Lists are counted in 16 bits (all.h): one error, at the element that
 * reaches Maxsub, so that an address's base and list fit too.  The
 * scanner's fast path takes only lines too short to get there. */
static void
toomany(Parser *P, yyscan_t s, Loc *l, OL ol)
{
	if (ol.n == Maxsub)
		ptxerror(l, P, s, "too many operands");
}

/* ptxas reads a 0f literal alone or in parentheses, nothing else: a
 * sign or operator on one is its syntax error (-0f3F800000,
 * 0f3F800000+0f3F800000, !0f...; 12.8 and 13.0), where -(0f3F800000),
 * -0d3FF0000000000000 and 1.0+2.0 pass. */
static void
bare0f(Parser *P, yyscan_t s, Loc *l, const char *t)
{
	if (t && t[0] == '0' && (t[1] == 'f' || t[1] == 'F'))
		ptxerror(l, P, s, "a 0f literal takes no sign or operator "
			"but in parentheses");
}

static Opnd *
bareop(Parser *P, yyscan_t s, Loc *l, Opnd *o)
{
	if (o->kind == Pflt && !o->minus)
		bare0f(P, s, l, o->s);
	return o;
}

static Opnd *
bin(Parser *P, yyscan_t s, Opnd *a, const char *op, Opnd *b, Loc *la,
	Loc *lb)
{
	bareop(P, s, la, a);
	bareop(P, s, lb, b);
	return mkexpr(P, a, op, b);
}

static Str
sbin(Parser *P, yyscan_t s, Str a, const char *op, Str b, Loc *la, Loc *lb)
{
	bare0f(P, s, la, a);
	bare0f(P, s, lb, b);
	return cat(P, a, op, b);
}

static void
fnword(Parser *P, yyscan_t s, Loc *l, Tok w)
{
	if (strcmp(tokstr(P, w), "function_name"))
		ptxerror(l, P, s, "expected function_name");
}

static Stmt *
ins(Parser *P, yyscan_t s, Loc *l, Opnd *g, int neg, Tok w, OL ops)
{
	uint32_t dots = 0;

	/* a word shorter than Maxsub has too few dots to count */
	for (uint32_t i = 0; w.n >= Maxsub && i < w.n; i++)
		dots += w.s[i] == '.';
	if (dots >= Maxsub)
		ptxerror(l, P, s, "too many modifiers");
	return mkins(P, g, neg, w, ops);
}

/* %r<N>: N registers are made (24 bytes each); compilers declare
 * thousands, so past Maxrange it is an error, not 1.6 GB of memory
 * (a fuzzer's %rd<66666620>). */
enum { Maxrange = 1 << 22 };

/* [base+N], [base+-N] as the scanner's fast path spells them
 * (setoffnum); any other constant expression ([sm+4*2], [%rd+(8)],
 * which ptxas takes) as its text, which no proof reads (util.c
 * ptxoff refuses it). */
static void
offexpr(Parser *P, Opnd *base, Opnd *e)
{
	if (e->kind == Pint && !e->nsub)
		setoffnum(base, e->minus ? "+-" : "+", e->s, strlen(e->s));
	else
		setoff(base, cat(P, "+", numtext(P, e), ""));
}

static int32_t
regrange(Loc *l, Parser *P, yyscan_t s, Tok t)
{
	int64_t v = -1;         /* %r<0b100> is 4 registers to ptxas too */

	ptxintn(t.s, t.n, &v);
	if (v >= 0 && v <= Maxrange)
		return (int32_t)v;
	ptxerror(l, P, s, "register range larger than ptxpress takes "
		"(4194304)");
	return 0;
}
