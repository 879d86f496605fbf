/* parse.h: what the grammar, the scanner and the IR builder share.
 * Everything else includes all.h alone. */
#ifndef PARSE_H
#define PARSE_H


typedef struct Tok { const char *s; uint32_t n; } Tok;

typedef struct Loc {
	int first_line, first_column, last_line, last_column;
	uint32_t off, end;      /* byte offsets into the source */
} Loc;

typedef struct Slist Slist;
struct Slist { Str s; Slist *next; };

/* Lists grow at the tail while parsing and are flattened into arrays
 * when their statement is complete. */
typedef struct SL { Slist *h, *t; uint32_t n; } SL;
typedef struct Onode Onode;   /* an operand in a list being read */
struct Onode { Opnd *o; Onode *next; };
typedef struct OL { Onode *h, *t; uint32_t n; } OL;
typedef struct NL { Dname *h, *t; uint32_t n; } NL;
typedef struct DL { Decl *h, *t; uint32_t n; int has; } DL;

typedef struct Parser Parser;

typedef struct Word {   /* an opcode word, split once (splitword) */
	const char *s;          /* in the text being parsed */
	uint32_t n, h;
	uint16_t op;
	uint32_t nmod;
	Str name;
	Str *mod;
} Word;

typedef struct Lexer {
	uint32_t line, col, off;
	int loc;                /* a .loc line is being read */
	int cstate;             /* start condition a comment interrupted */
	int fast;               /* the fast paths are taken (INS, INITV) */
	int clean;              /* the last token returned ended a statement */
	int closed;             /* the last token ended a statement or a
	                         * .loc line, or was a label's ':' (or a '{'
	                         * right after one): a '}' here closes a
	                         * scope, not a vector of operands */
	void *scanner;          /* the flex scanner reading the text */
	Loc cstart;
	Parser *P;
} Lexer;

typedef struct Head {   /* a function header, before its body */
	SL attr;
	int entry;
	DL ret, par;
	Tok name;
	Loc nameloc;
	SL perf;
} Head;

/* One register prefix ("%r", "%rd") and the names read with it,
 * interned, indexed by their number. */
enum { Npfx = 8, Pfxmax = 1 << 18 };
typedef struct Pfx {
	uint64_t k;             /* the prefix's bytes, little-endian */
	uint32_t cap;
	Str *s;
} Pfx;

struct Parser {
	Module *m;
	Arena *a;
	Arena *tmp;             /* statements and operands until they are
	                         * copied into their arrays; per function */
	Diag *d;
	Lexer lx;
	uint32_t prevend;       /* end of the last statement or item */
	Item *ih, *it;          /* items */
	Func *fn;               /* function whose body is being read */
	Stmt **sv;              /* its statements, in the temporary arena */
	uint32_t nstmt, capsv;
	int depth;
	int inerror;            /* a syntax error reported, not recovered */
	Buf *sec;               /* section being read */
	Regmemo *regmemo;       /* resolve()'s memory across functions */
	Word *word;             /* opcode words seen, open addressing */
	Pfx pfx[Npfx];          /* register names by prefix (fastreg) */
	uint32_t npfx;
	uint32_t nword, capword;
	Locl **locmemo;         /* plain .loc numbers read, by a hash */
};


/* parse.c: called from the grammar and the scanner */
int dirword(const char *, size_t);
void lexerr(Lexer *, const Loc *, const char *, ...);
const char *show(int c);
Str tokstr(Parser *, Tok);
Str cat(Parser *, const char *, const char *, const char *);
Str join(Parser *, SL, const char *open, const char *sep,
	const char *close);
void slpush(Parser *, SL *, Str);
void olpush(Parser *, OL *, Opnd *);
Opnd *mkop(Parser *, int kind, Str s);
Opnd *mkagg(Parser *, int kind, OL);
Opnd *mkexpr(Parser *, Opnd *, const char *, Opnd *);
Str numtext(Parser *, Opnd *);      /* a literal with its minus */
void additem(Parser *, Item *, const Loc *);
Item *mkitem(Parser *, int kind, Str s);
Item *mkvar(Parser *, SL attr, NL names, Str init);
Decl *mkdecl(Parser *, SL attr, NL names, Str init);
Dname *mkdname(Parser *, Str name, int32_t count, SL dims);
void funcbegin(Parser *, Head *, const Loc *start, const Loc *brace);
void funcend(Parser *, const Loc *close);
void funcproto(Parser *, Head *, const Loc *start, const Loc *semi);
void addstmt(Parser *, Stmt *, const Loc *);
Stmt *mkins(Parser *, Opnd *guard, int gneg, Tok op, OL ops);
Stmt *fastins(Parser *, const char *, size_t *);
const char *wordend(const char *);      /* fastmatch.c */
const char *numberend(const char *, int flt);
void fastclsinit(void);
size_t locmatch(const char *, Tok v[3]);
size_t labelmatch(const char *);
size_t pragmamatch(const char *, Tok *);
Stmt *mkpragma(Parser *, SL strs);
size_t initmatch(const char *);
enum { Cid = 1, Cmod = 2, Cdig = 4, Chex = 8, Csp = 16, Cidfirst = 32 };
extern uint8_t fastcls[256];     /* made by fastclsinit */
Str fastinit(Lexer *, Loc *, const char *, size_t);

/* ptx.l */
void ptxunhold(void *scanner);
Stmt *mkstmt(Parser *, int kind, Str s);
Stmt *mkloc(Parser *, Tok f, Tok l, Tok c, Str fn, const uint32_t *inl);
void secbegin(Parser *, Tok name);
void secdir(Parser *, Str);
void secarg(Parser *, Str, int first);
void seclabel(Parser *, Str);
void secend(Parser *, const Loc *);
uint32_t locnum(Tok);
int isu32(Tok);

#endif
