/* ptxpress: the IR and every prototype, grouped by file.
 * Read top to bottom: memory, strings, the opcode table, operands,
 * statements, functions, the module, then what each file exports. */
#ifndef ALL_H
#define ALL_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdarg.h>

#define NORETURN _Noreturn
#define NOINLINE __attribute__((noinline))     /* gcc, clang */
#define countof(a) (sizeof(a) / sizeof((a)[0]))
#define UNUSED(x) ((void)(x))

#ifdef PTXPRESS_DEBUG
#define assertx(c) ((c) ? (void)0 : die("assertion failed: %s", #c))
#else
#define assertx(c) ((void)0)
#endif

/* ---- memory: a module lives in one arena and dies at once ---- */

typedef struct Arena Arena;
typedef struct Chunk Chunk;
struct Chunk {
	Chunk *prev;
	size_t used, cap;       /* cap: bytes made (pages written) */
	size_t room;            /* mapped past cap, made when needed */
};
struct Arena {
	Chunk *cur, *spare;
	size_t total;
	size_t hint;    /* bytes it will likely hold; 0: not known */
};
/* A point in an arena's life that arelease() rolls back to. */
typedef struct Amark { Chunk *cur, *prev; size_t used, total; } Amark;
#define Chunkhdr ((sizeof(Chunk) + 15) & ~(size_t)15)

/* ---- text: every name and modifier is interned, so equal means the
 * same pointer; literals keep their spelling ---- */

typedef const char *Str;
typedef struct Intern Intern;

/* ---- source positions ---- */

typedef struct Span { uint32_t off, len; } Span;
typedef struct Pos { uint32_t line, col; } Pos;

/* ---- the opcode table (ops.h) ---- */

typedef enum {
	D0,     /* operand 0 is written */
	D0U,    /* operand 0 is written and read */
	DNO,    /* nothing is written */
	DCALL,  /* call: the return list is written */
} Defs;

/* How an instruction orders against others.  The scheduler and the
 * validator both read only this, so a new opcode is one table row. */
typedef enum {
	Kpure,  /* registers only */
	Kcoll,  /* registers only, but warp-collective: keeps its order
	         * among collectives */
	Kmma,   /* mma.sync: Kcoll, but two of them may swap.  Every
	         * thread of a warp runs a block's statements in the same
	         * order, so a warp that runs each mma of a block together
	         * (.aligned asks it) still does after they are reordered;
	         * what an mma stays ordered with is the other collectives
	         * and barriers (bar.warp.sync converges the warp) */
	Kcc,    /* reads or writes the carry flag: keeps its order among Kcc */
	Kld,    /* reads memory of its state space */
	Kst,    /* writes memory of its state space */
	Krmw,   /* atomics: ordered against every memory access */
	Kord,   /* async proxies, fences, barriers: ordered against every
	         * memory access and every other Kord; arithmetic may cross */
	Ktmem,  /* tcgen05.ld/st and tcgen05.wait::ld/st: tensor memory,
	         * which no load or store reaches, and the registers the
	         * wait completes.  The schedulers (dag.c) order them as
	         * Kord and end regions at the waits; the validator and the
	         * tsink pass let loads, stores and other registers'
	         * arithmetic cross them (see validate.c) */
	Kfull,  /* waits and unknowns: nothing crosses */
	Kctl,   /* branches, calls, exits: end a block */
} Klass;

/* A warp collective, mma.sync or not */
static inline int
iscoll(Klass k)
{
	return k == Kcoll || k == Kmma;
}

typedef enum { Lalu, Lsfu, Lmem, Lmma } Lat;

enum {
#define O(id, name, defs, klass, lat, types, typeset) O##id,
#include "ops.h"
#undef O
	Ounknown,
	Onum
};

typedef struct Opinfo {
	const char *name;
	Defs defs;
	Klass klass;
	Lat lat;
	const char *types;  /* ops.h: the registers each operand takes */
	const char *typeset;    /* ops.h: the instruction types it takes */
} Opinfo;

extern const Opinfo opinfo[Onum];

/* ---- operands ---- */

enum {
	Preg,   /* %r1, a named register; opcomp is .x of %tid.x */
	Psym,   /* a label, variable, function, or a name not (yet)
	         * known to be a register; "_" is Psink */
	Psink,  /* _ */
	Pint,   /* integer literal, spelling kept */
	Pflt,   /* float literal incl. 0f/0d bit patterns */
	Paddr,  /* [base+off, more...]: sub[0] is the base */
	Pvec,   /* {a, b, ...} */
	Ppair,  /* p|q */
	Plist,  /* (a, b) of call */
	Pexpr,  /* sym+off and other constant expressions, spelled */
};

/* Operands of an instruction or of an aggregate, and modifiers of an
 * instruction, are counted in 16 bits (the IR of a large file is most
 * of its memory); longer lists are errors.  wgmma's and tcgen05.ld's
 * vectors, the longest PTX writes, hold 128 or 256 registers. */
enum { Maxsub = 65535 };

typedef struct Opnd Opnd;
struct Opnd {           /* 24 bytes: a kernel has hundreds of thousands */
	uint8_t kind;
	uint8_t neg : 1;    /* !%p */
	uint8_t minus : 1;  /* -1, -0f... spelled with a leading minus */
	uint16_t nsub;      /* at most Maxsub: the parser says so */
	int32_t reg;        /* register id in the function, or -1 */
	Str s;              /* name or literal spelling */
	/* An aggregate (Paddr..Plist) has elements; a leaf, the rare
	 * spelling that follows its name: a component (.x of %tid.x), an
	 * address base's offset ("+8", "+-8", "-8"), or both (".x+8"),
	 * interned.  Four operands in five have neither, so the two share
	 * one word (an operand was 40 bytes with them apart; Sort's
	 * operands are half its IR).  Read through opcomp/opoff, written
	 * through setcomp/setoff. */
	union {
		Opnd *sub;
		Str ext;
	};
};

static inline int
isagg(int kind)
{
	return kind >= Paddr && kind <= Plist;
}

/* the leaf's spelling after its name, or 0 */
static inline Str
opext(const Opnd *o)
{
	return isagg(o->kind) ? 0 : o->ext;
}

static inline int
hascomp(const Opnd *o)
{
	Str e = opext(o);

	return e && e[0] == '.';
}

Str opcomp(const Opnd *);
Str opoff(const Opnd *);
/* these write a leaf's ext: never an aggregate's, whose word is sub */
void setcomp(Opnd *, Str);
void setoff(Opnd *, Str);
void setoffnum(Opnd *, const char *, const char *, size_t);

/* ---- statements of a function body ---- */

enum {
	Sins,     /* an instruction */
	Slabel,   /* name: */
	Sloc,     /* .loc file line col [, function_name X, inlined_at f l c] */
	Sdecl,    /* .reg/.local/.shared/.param... inside a body */
	Spragma,  /* .pragma "..."; */
	Sdir,     /* .callprototype/.calltargets/.branchtargets ...; */
	Sopen,    /* { of a nested scope */
	Sclose,   /* } */
};

typedef struct Dname Dname;
struct Dname {
	Str name;
	int32_t count;      /* %r<count>, or -1 */
	uint32_t ndim;
	Str *dim;           /* "16", or "" for [] */
	Dname *next;        /* while parsing only */
};

typedef struct Decl Decl;
struct Decl {
	uint32_t nattr;
	Str *attr;          /* .visible .global .align 4 .v2 .b8 ... in order */
	uint32_t nname;
	Dname *name;
	Str init;           /* "= {1, 2}" spelled canonically, or NULL */
	Decl *next;         /* parameter lists while parsing */
};

typedef struct Stmt Stmt;
/* A .loc line's numbers, apart from its statement: a large kernel has
 * a hundred thousand statements and a tenth of them are .loc lines. */
typedef struct Locl {
	uint32_t loc[3];    /* file, line, column: ptxas takes 0 to 2^32-1 */
	uint32_t inl[3];    /* inlined_at file line col, or 0 */
	Str fn;             /* function_name, or NULL */
} Locl;

struct Stmt {           /* 64 bytes: fields in order of alignment */
	uint8_t kind;
	uint8_t dirty : 1;  /* changed: print from the IR, not the source */
	uint8_t gneg : 1;   /* @!p */
	uint16_t op;        /* Sins: the Op, Ounknown if not in the table */
	uint16_t nmod;      /* these two at most Maxsub: the parser says so */
	uint16_t nop;
	Span lead;          /* trivia before it (whitespace, comments) */
	Span text;          /* its own bytes in the source */
	Pos pos;
	union {             /* by kind: a tenth of a large file's statements
	                     * are .loc lines, a few are declarations.  The
	                     * operands are here too: every reader counts
	                     * them by nop, 0 but in an instruction, so a
	                     * label's or a .loc's takes no word of its own
	                     * (8 bytes a statement, 330 KB of nvcc's 1 MB
	                     * matrix_free) */
		Locl *ll;   /* Sloc: its numbers (shared by copies) */
		Decl *decl; /* Sdecl; Spragma, Sdir: their tokens */
		Opnd *opd;  /* Sins: the operands */
	};
	Str name;           /* Sins: opcode base as written; Slabel: label;
	                     * Spragma/Sdir/Sloc: the whole text canonically */
	Opnd *guard;        /* Sins */
	Str *mod;           /* Sins: ".global", ".nc", ... */
};

/* A register, after scope resolution.  Range declarations %r<100>
 * make 100 of these sharing a prefix. */
typedef struct Reg {    /* 24 bytes: %r<100000> makes 100,000 */
	Str prefix;         /* the name, or a range's prefix */
	Str type;           /* .b32, .pred, ... */
	uint32_t idx;       /* in its range */
	uint8_t named;      /* a name of its own, else prefix+idx */
	uint8_t units;      /* 32-bit registers it takes; 0 for a predicate */
	uint8_t pred;
	uint8_t tcode;      /* typecode() of a scalar's type, else 0 */
} Reg;

/* A scalar type as check's operand rule reads it: the kind (.b, .u or
 * .s, .f, .pred) and the size (8 to 64 bits), in one byte; 0 for any
 * other type (.bf16, .b128, a vector) and for what is no type.  Tkh is
 * a register's only: an .f16x2 register (typecheck.h, fits). */
enum { Tkb = 1, Tki = 2, Tkf = 3, Tkp = 4, Tkh = 5 };
#define tkind(c) ((c) >> 3)
#define tsize(c) ((c) & 7)      /* 1: 8 bits, 2: 16, 3: 32, 4: 64 */

typedef struct Perf { Str name; Str args; } Perf;  /* .maxntid 128, 1, 1 */

typedef struct Func Func;
struct Func {
	Str name;
	uint8_t entry;      /* .entry, else .func */
	uint8_t body;       /* has a body, else a prototype ending in ; */
	uint8_t dirty;      /* statements were reordered or replaced */
	uint32_t nattr;
	Str *attr;          /* .visible .extern .weak */
	int hasret;
	uint32_t nret, npar;
	Decl *ret, *par;    /* arrays */
	int haspar;
	uint32_t nperf;
	Perf *perf;
	Span head;          /* from the first attribute to { inclusive */
	uint32_t nstmt;
	Stmt *stmt;         /* flat; nested scopes are Sopen..Sclose */
	Span closelead;     /* trivia before the final } */
	Span close;
	uint32_t nreg;
	Reg *reg;
	Pos pos;
	struct Ana *ana;    /* cfg.c, live.c, pressure.c: analyses, or 0 */
};

/* ---- the module ---- */

enum {
	Iver,      /* .version */
	Itarget,   /* .target */
	Iaddr,     /* .address_size */
	Ifile,     /* .file */
	Idecl,     /* a variable */
	Ifunc,     /* .entry or .func */
	Isection,  /* .section name { ... } */
	Ipragma,   /* .pragma */
	Ialias,    /* .alias a, b; */
};

typedef struct Item Item;
struct Item {
	uint8_t kind;
	uint8_t dirty;      /* changed: print from the IR */
	Span lead, text;
	Pos pos;
	Str s;              /* canonical text for the small directives */
	Decl *decl;
	Func *fn;
	Item *next;         /* while parsing only */
};

typedef struct Module Module;
struct Module {
	Arena *a;
	const char *path;   /* for diagnostics */
	const char *src;    /* the whole input, NULs and all */
	size_t len;         /* bytes parsed (trailing NULs excluded) */
	size_t rawlen;      /* bytes read */
	int bom;            /* started with a UTF-8 byte-order mark */
	int vmaj, vmin;     /* .version */
	Str target;         /* first .target word: sm_90a */
	uint32_t nitem;
	Item *item;
	Span tail;          /* trivia after the last item */
	int nerr, nwarn;
	int nparse;         /* errors of the grammar among nerr */
	uint32_t nfast;     /* instructions the scanner read whole */
};

/* ---- ptxas: how it is run, what it said ---- */

typedef struct Pxopt Pxopt;
typedef struct Pxfn Pxfn;
typedef struct Pxres Pxres;

/* What to run. Only ptx is required. */
struct Pxopt {
	const char *ptxas;      /* NULL: ptxasfind(NULL) */
	const char *ptx;        /* input file */
	const char *arch;       /* "sm_90a"; NULL: the .target of ptx */
	const char *cubin;      /* output; NULL: a temporary, deleted */
	const char *const *args; /* extra args ("-O3", ...), NULL-ended */
	const char *nvdisasm;   /* set: each function's loops (sassloops) */
	int peak;               /* and with nvdisasm, each one's peak */
};

/* What ptxas keeps live at a function's peak (sasspeak.c): the
 * registers live there, counted by what holds them ("carried HMMA"),
 * the most first; and the registers its spill stores save. */
enum { Maxheld = 12 };
typedef struct Sasspeak {
	int live;               /* general registers live there */
	long addr;              /* the instruction's address */
	long lo, hi;            /* the innermost loop around it: its first
	                         * instruction and its branch back; -1 none */
	char ins[96];           /* the instruction */
	int nheld;
	struct Held { char what[32]; int n; } held[Maxheld];
	int nspilled;           /* what its spill stores save, the same way */
	struct Held spilled[Maxheld];
	struct Sasspeak *near;  /* the peak of the loop that spills most,
	                         * when the peak above is not in it */
} Sasspeak;

/* One function of a ptxas -v log; -1 where ptxas printed nothing. */
struct Pxfn {
	char *name;
	int entry;      /* 1 .entry ("Compiling entry function"), 0 .func */
	int regs;
	int barriers;
	long stack;     /* stack frame bytes */
	long spillst;   /* spill stores bytes */
	long spillld;   /* spill loads bytes */
	long cumstack;  /* cumulative stack size */
	long smem;
	long cmem;      /* sum over the cmem[N] banks */
	long lmem;      /* old ptxas: "N+M bytes lmem" */
	int wgserial;   /* a note (C7510...) says its wgmmas are serialized */
	long sassloop;  /* nvdisasm: SASS instructions inside loops */
	long sasslocal; /* of those, local memory (STL, LDL: spills) */
	long sassout;   /* local memory outside loops */
	long sassexposed;       /* in loops: spills of loads in flight
	                         * (spillsload() in ptxas.c) */
	Sasspeak *peak;         /* nvdisasm -plr: ptxas's peak, or NULL */
};

/* The outcome of one run. Owns everything it points to. */
struct Pxres {
	Pxfn *fn;
	int nfn;
	char *log;      /* stdout and stderr, NUL-terminated */
	size_t nlog;
	int status;     /* exit status; -1 if not run or killed */
	char arch[32];  /* the -arch used */
	char *names;    /* storage for fn[].name */
};

/* bits of ptxfixup's *changed */
enum {
	Fnul = 1,       /* trailing NUL bytes dropped */
	Fversion = 2,   /* .version lowered */
	Fascii = 4,     /* non-ASCII bytes in comments replaced */
};

/* ---- scheduling regions (dag.c) ---- */

typedef struct Rv { int32_t *v; uint32_t n, cap; } Rv;  /* register ids */

/* One movable instruction with the .loc lines before it, or a debug
 * label (marker): statements [first, last] of the original order. */
typedef struct Node {
	uint32_t first, last;
	uint8_t marker, klass, space, lat;
	int32_t *def, *use;
	uint32_t ndef, nuse;
	uint32_t *succ;
	uint32_t nsucc, capsucc, npred;
} Node;

typedef struct Dag {
	Node *node;
	uint32_t nnode, capnode;
	uint32_t first, end;       /* statements [first, end) */
	Arena *a;                  /* the nodes' lists, freed with the region */
} Dag;

/* ---- how a region is scheduled (sched.c) ---- */

enum { Spressure, Ssink, Ssource, Smix, Sfrag };

typedef struct Sched {
	int kind;              /* Spressure, Ssink, Ssource, Smix, Sfrag */
	int frags;             /* Sfrag: fragments F */
	int up;                /* bottom-up engine, else top-down */
	double noise;          /* random share of the score, 0: none */
	uint64_t seed;
	uint32_t range[2];     /* input lines to touch; {0, 0}: all */
} Sched;

/* ---- what opt is asked to do (opt.c, search.c) ---- */

typedef struct Scope {
	const char *kernel;        /* only this function, or NULL */
	uint32_t lines[2];         /* only regions touching these lines */
	FILE *explain;             /* say per pass what moved, or NULL */
	double noise;              /* overrides the rand passes' noise */
} Scope;

typedef struct Optreq {
	const char *in, *out;      /* in: the name in messages */
	const char *pipe;          /* NULL: the default variants */
	const char *arch, *ptxas;  /* NULL: the .target, the one found */
	const char *const *args;   /* more ptxas options, NULL-ended */
	const char *report;        /* "text" or "json" */
	int search;                /* -1: when ptxas is found; 0; 1 */
	int jobs, tries, inplace;
	int refine;                /* the refining round's variants (search) */
	int regs;                  /* a register saving alone is enough */
	int unserial;              /* --unserialized: wgmmas ptxas serializes
	                            * rank behind all it does not */
	int nobudget, budgets;     /* search budgets: not asked, and found
	                            * setmaxnreg to work on */
	int wgmma;                 /* wgmma groups: the search tries wgwait */
	int bcast;                 /* shfl.sync.idx: with setmaxnreg, the
	                            * search tries remat=bcast */
	int xspill;                /* 1 a loop xspill rewrites, 2 one only
	                            * xspill=all does (asked under --time
	                            * alone: below the floor the GPU, not
	                            * ptxas's figures, can tell a win); its
	                            * variant comes first of the wgmma ones */
	int tmem;                  /* tcgen05.ld: the search tries tsink,hoist */
	/* the next five: -1 until the search first asks (search.c, found) */
	int early;                 /* a sum early can compute sooner */
	int ldcvt;                 /* packing converts and global loads:
	                            * the search tries pin=ld */
	int stbase;                /* a block's many addresses from one
	                            * base: the search tries pin=st */
	int defbase;               /* from one base the block computes:
	                            * pin=base (early where maxnreg) */
	int dup;                   /* the most loops of a function with an
	                            * mbarrier parity or mapa read as
	                            * before: the refining round tries
	                            * pin=dup:K up to that on the picks */
	const char *timel;         /* --time: a launch description; the
	                            * search's candidates for its kernel are
	                            * run on the GPU and the fastest kept */
	int truns;                 /* --time-runs */
	int cpu;                   /* --cpu: own CPU time next to ptxas's */
	int variants;              /* --variants: every variant's figures */
	int sass;                  /* --sass-guard: 1 asked, -1 when an
	                            * nvdisasm is found (the drop-in), 0 */
	const char *nvdisasm;      /* set by the search: the guard is on */
	uint64_t seed;
	Scope sc;
	FILE *log;                 /* report and notes, or NULL: silent */
	struct Module *orig;       /* src parsed already (borrowed), or 0 */
	struct Module *input;      /* the input's parse, for what the search
	                            * finds when it first asks */
	int maxnreg;               /* the input mentions setmaxnreg: a
	                            * warp-specialized kernel */
	int noshare;               /* the search's variants parse afresh
	                            * instead of sharing the input's parse */
} Optreq;

/* ---- diagnostics ---- */

typedef struct Diag {
	const char *path;
	const char *src;
	size_t len;
	int nerr, nwarn;
	int max;            /* stop after this many errors */
	int quiet;
	int nowarn;         /* count warnings, do not print them */
	Pos first;          /* where the first error is */
} Diag;

/* ---- analysis (cfg.c, live.c, pressure.c, roles.c) ----
 * Blocks are statement ranges of the flat body; registers sets are
 * bitsets of Func.reg ids, Ana.nword words each.  One arena per
 * function holds all of it; freeana() drops it at once. */

typedef struct Blk {
	uint32_t first, end;    /* statements [first, end) */
	uint32_t nsucc, npred;
	uint32_t *succ, *pred;  /* block ids */
	uint64_t *in, *out;     /* live.c: live and defined at the edges */
	uint64_t *din;          /* live.c: defined on some path to entry */
	int cap;                /* pressure.c: register cap on entry */
	int capmix;             /* paths arrive with different caps */
	int role;               /* roles.c: role id, -1 for none */
} Blk;

typedef struct Ana {
	Arena *a;
	uint32_t nblk;
	Blk *blk;
	uint32_t *blkof;        /* statement -> block */
	uint32_t nword;         /* words of a register set */
	/* pressure.c, per statement (0 for non-instructions) */
	uint16_t *press;        /* 32-bit units live at the statement */
	uint16_t *ppred;        /* predicates live */
	uint16_t *across;       /* units live across an immovable one */
	uint16_t *cap;          /* cap the statement runs under */
	int peak, peakat;       /* max of press, and where */
	int ppeak;              /* max of ppred */
	int floor, floorat;     /* max of across, and where */
	int launch;             /* cap at entry: 255, .maxnreg, ... */
	int capknown;           /* ptxas knows the count at entry: 2 yes,
	                         * 1 maybe (block size alone), 0 no */
	int nsetmax;            /* setmaxnreg instructions */
	int sm;                 /* cfg.c: the target's number, 0 unknown */
	uint8_t *free;          /* live.c: per register, 1 when it takes no
	                         * R register (uniform on sm_75+, or a
	                         * .param value ptxas reads from c[]) */
	int32_t *first;         /* live.c: the walks' first-write table, all
	                         * -1 but while lent to one walk (hoist
	                         * walks every block of a large kernel:
	                         * filling a fresh table for each had been
	                         * a twentieth of FA4's search) */
	uint32_t nfirst;        /* its registers */
	int firstlent;
} Ana;

/* A backward walk over one block's instructions, giving the live set
 * and the pressure at each. */
typedef struct Walk {
	Func *f;
	uint32_t b;             /* block */
	uint32_t i;             /* statement the figures describe */
	uint64_t *live;         /* live before i */
	int units, preds;       /* pressure at i (max of before, across) */
	int across;             /* units live across i */
	int ucur, pcur;         /* private: running counts */
	int32_t *first;         /* private: first def in the block, or -1 */
	int ownfirst;           /* private: first is not the Ana's */
	int32_t *set;           /* private: the registers first has */
	uint32_t nset, capset;
	int32_t *tmp;
	uint32_t ntmp, captmp;
} Walk;

/* A hot region: a run of statements near a pressure peak. */
typedef struct Region {
	uint32_t first, last;   /* statements, inclusive */
	uint32_t at;            /* the peak statement */
	int peak, floor, cap;
} Region;

/* A warp role: blocks that only warps of some index run. */
typedef struct Role {
	char what[160];         /* "warp == 14", "warpgroup != 0, ..." */
	uint32_t first;         /* first statement */
	uint32_t nins;          /* instructions */
	int cap;                /* cap it runs under */
	int peak;               /* pressure peak inside */
	int loop;               /* holds a loop */
	char ops[96];           /* notable work: "tcgen05.mma, ex2" */
} Role;

/* A lint finding about one function. */
typedef struct Finding {
	const char *kind;       /* "setmaxnreg-missing", ... */
	uint32_t at;            /* statement it points at */
	char msg[480];
} Finding;

/* ---- cfg.c ---- */
void fillcfg(Func *, Module *);
void freeana(Func *);
int isterm(const Stmt *, Module *);

/* ---- live.c ---- */
typedef void Regfn(void *, int32_t reg, int def, int kill);
void insregs(const Stmt *, Regfn *, void *);
void filllive(Func *);
void filluniform(Func *);
void walkbegin(Walk *, Func *, uint32_t blk);
int walkprev(Walk *);
void walkend(Walk *);
int bitget(const uint64_t *, uint32_t);

/* ---- pressure.c ---- */
int launchcap(Func *, int *known);
void fillpressure(Func *);
uint32_t regions(Func *, Region *, uint32_t max);
int allocgran(int regs);

/* ---- roles.c ---- */
uint32_t fillroles(Func *, Module *, Role *, uint32_t max);
uint32_t lintfunc(Func *, Module *, Finding *, uint32_t max);
int lint(Module *, Diag *);

/* ---- svg.c ---- */
struct Buf;
void svgbegin(struct Buf *, int npanel);
void svgpanel(struct Buf *, Func *, const Region *, uint32_t,
	char (*label)[96], int y0, int link);
int svgheight(void);

/* ---- cmdpressure.c ---- */
int cmdpressure(int, char **);

/* ---- end of analysis ---- */

/* ---- util.c ---- */
void *allocslow(Arena *, size_t);
void areset(Arena *);
Amark amark(const Arena *);
uint64_t asum(const Arena *);
void arelease(Arena *, const Amark *);

/* Bump allocation, 16-byte aligned; allocslow() opens chunks. */
static inline void *
alloc(Arena *a, size_t n)
{
	Chunk *c = a->cur;

	n = (n + 15) & ~(size_t)15;
	if (c && c->used + n <= c->cap) {
		c->used += n;
		return (char *)c + Chunkhdr + c->used - n;
	}
	return allocslow(a, n);
}
void *zalloc(Arena *, size_t);
char *adup(Arena *, const char *, size_t);
void afree(Arena *);
Arena *anew(void);
Str intern(const char *, size_t);
Str interns(const char *);
uint32_t fnv(const char *, size_t);     /* FNV-1a, byte by byte */
uint32_t strhash(const char *, size_t); /* intern's hash */
int ptxint(const char *, int64_t *);    /* an integer literal's value */
int ptxintn(const char *, size_t, int64_t *);
int ptxints(const char *, int64_t *, int max);
int u32cmp(const void *, const void *);  /* qsort: uint32_t */
int smtarget(Str, char *suffix);         /* sm_90a: 90, 'a' */
int ptxoff(Str off, int64_t *);         /* "+8", "-8", "+-8" */
long ctathreads(const Func *);          /* .reqntid/.maxntid, or 0 */
int setmaxcount(const Stmt *);          /* setmaxnreg's count, or -1 */
uint32_t namebound(const void *, uint32_t n, size_t size, Str key);
NORETURN void die(const char *, ...);
void *xmalloc(size_t);
void *xrealloc(void *, size_t);
char *readfile(const char *, size_t *);
void freefile(char *);                  /* what readfile gave */
int writeatomic(const char *, const char *, size_t, int inplace_ok,
	const char *inpath);
struct Out *outopen(const char *, int inplace_ok, const char *inpath);
void outwrite(struct Out *, const char *, size_t);
int outclose(struct Out *, int commit);
void diag(Diag *, const char *sev, Pos, uint32_t off, uint32_t len,
	const char *, ...);

/* ---- ops.c ---- */
int oplookup(const char *, size_t, size_t *baselen);
int modknown(Str);
Klass opklass(const Stmt *);
Defs opdefs(const Stmt *);
int hasmod(const Stmt *, const char *);
int specialreg(Str);

/* ---- parse.c ---- */
Module *parse(const char *path, const char *src, size_t n, Diag *);
enum {                  /* parseflags */
	Pslow = 1,      /* no scanner fast path (tests) */
	Pinplace = 2,   /* scan src where it lies: it is writable, and two
	                 * NULs follow its n bytes (readfile) */
};
Module *parseflags(const char *, const char *, size_t, Diag *, int);
typedef struct Regmemo Regmemo;
void resolve(Module *, Func *, Regmemo **);
void regmemofree(Regmemo *);
void rebind(Module *, Func *);
Str regdecltype(Decl *);
uint8_t typecode(Str);
long regnumber(const char *name, size_t *prefix);
Str regname(Func *, int32_t, char *, size_t);
int scalarbits(const Reg *);

/* ---- emit.c ---- */
typedef struct Out Out;
typedef struct Buf {
	char *p;
	size_t n, cap;
	Out *out;           /* or 0: streams there (bput, bflush) */
} Buf;
void bput(Buf *, const char *, size_t);
void bflush(Buf *);
void bputs(Buf *, const char *);
void bprintf(Buf *, const char *, ...);
void emitlossless(Buf *, Module *);
void emitkernel(Buf *, Module *, Str name);
void emitcanon(Buf *, Module *);
void printstmt(Buf *, Func *, Stmt *);
void printitem(Buf *, Item *);
void printop(Buf *, Opnd *);

/* ---- irdump.c ---- */
void irdump(Buf *, const Module *);

/* ---- check.c ---- */
int check(Module *, Diag *);

/* ---- constkind.c ---- */
int constkind(const char *, int *bits);  /* 'i', 'f', 'x' (refused), 0 */

/* ---- names.c ---- */
/* Scope numbers as a body's { } nest: the body is 0, each { } a new
 * number, back to the enclosing one at its }.  Zeroed to start. */
typedef struct Scopeno { uint32_t stack[256], depth, next, cur; } Scopeno;
void scopestep(Scopeno *, const Stmt *);
typedef struct Nscope Nscope;   /* a function's names, as check walks it */
void checknames(Module *, Diag *);      /* module scope */
void fnnames(Module *, Diag *);         /* .loc's function_name labels */
Nscope *scopenew(Module *);
void scopebegin(Nscope *, uint32_t item);
void scopestmt(Nscope *, Diag *, const Stmt *);
void scopeend(Nscope *, Diag *);
void scopefree(Nscope *);
void diagword(Module *, Diag *, const char *sev, Pos, Span, Str word,
	uint32_t nth, const char *fmt);
int isspecial(Str);

/* ---- cmdio.c ---- */
Module *load(const char *, Diag *, char **src);
Module *loadx(const char *, Diag *, char **src, int warn);
void unload(Module *, char *src);
int parseversion(const char *, int *, int *);
int clampversion(Module *, int, int, const char *why);
int cmdcheck(int, char **);
int cmdemit(int, char **);

/* ---- ptxas.c ---- */
char *ptxasfind(const char *override);
char *nvdisasmfind(const char *ptxas);
/* A line of nvdisasm's: an instruction from its opcode on, or a label
 * (at: the index of the instruction that follows it). */
typedef struct Sline { const char *s, *e; long at; } Sline;
void sassloops(Pxres *, const char *text, size_t n);
void sasseach(Pxres *, const char *text, size_t n,
	void (*fn)(Pxfn *, const char *s, const char *e));
long sasstarget(const Sline *branch, const Sline *lab, long nlab);
const char *sassop(const char *line, const char *end);
int ptxasisa(const char *ptxas, int *maj, int *min);
int ptxasrun(const Pxopt *o, Pxres *r);
int sassrun(const char *nvdisasm, const char *cubin, Pxres *r);
int sasspeakrun(const char *nvdisasm, const char *cubin, Pxres *r);

/* ---- sasspeak.c ---- */
void sasspeak(Pxfn *, const char *s, const char *e);
void peakfree(Sasspeak *);
int ptxasparse(const char *log, size_t n, Pxres *r);
void ptxasfree(Pxres *r);
int ptxtarget(const char *text, size_t n, char *arch, size_t cap);
int ptxversion(const char *text, size_t n, int *maj, int *min);
char *ptxfixup(const char *text, size_t n, int maj, int min,
	size_t *outn, int *changed);
char *pxslurp(const char *path, size_t *n);

/* ---- elfcmp.c ---- */
int cubincmp(const char *patha, const char *pathb,
	char *why, size_t whycap);


/* ---- dag.c ---- */
void rvpush(Rv *, int32_t);
void defuse(Stmt *, Rv *def, Rv *use);
void eachregion(Func *, void (*)(Func *, Dag *, void *), void *);
void dagfree(Dag *);
void labeltargets(Func *, uint8_t *tgt);   /* labels a branch names */
int regionout(Func *, const Dag *, const uint32_t *lines);

/* ---- sched.c ---- */
uint32_t sched(Func *, const Sched *);

/* ---- moves.c ---- */
uint32_t moves(Func *);

/* ---- dom.c ---- */
typedef struct Dom Dom;
Dom *domnew(Func *);
void domfree(Dom *);
int domstable(Dom *, uint32_t from, uint32_t to, const uint32_t *site,
	uint32_t nsite);
int domdominates(Dom *, uint32_t a, uint32_t b);
int domreached(const Dom *, uint32_t stmt);
uint32_t domnblk(const Dom *);
uint32_t domblk(const Dom *, uint32_t stmt);
void domspan(const Dom *, uint32_t blk, uint32_t *first, uint32_t *end);
uint32_t dompreds(const Dom *, uint32_t blk, const uint32_t **pred);
uint32_t domsuccs(const Dom *, uint32_t blk, const uint32_t **succ);

/* ---- remat.c ---- */
enum { Rplain, Rroles, Rloop, Rbcast };   /* remat's modes */
uint32_t remat(Module *, Func *, int mode, const uint32_t *lines);

/* ---- xspill.c ---- */
uint32_t xspill(Module *, Func *, const uint32_t *lines, int all);
int xspillfinds(Module *, int all);
long xspillbytes(const Func *);

/* ---- wgwait.c ---- */
uint32_t wgwait(Module *, Func *, const uint32_t *lines);
Opnd *intopnd(Module *, const char *n);

/* ---- locfix.c ---- */
uint32_t locfix(Module *, Func *);
int locorder(Module *, Diag *);    /* check: ptxas's inlined_at rule */

/* ---- wgsplit.c ---- */
uint32_t wgsplit(Module *, Func *, const uint32_t *lines, int pv);
int wgaligned(const Stmt *, int op);
int wgwaitzero(const Stmt *);

/* ---- across.c ---- */
/* lines: {A, B}, only statements of input lines A..B are touched;
 * {0, 0} or NULL: all (opt --lines) */
int inlines(const uint32_t *lines, const Stmt *);
uint32_t tsink(Func *, const uint32_t *lines);
/* ---- tfar.c ---- */
uint32_t tsinkfar(Module *, Func *, const uint32_t *lines);
/* ---- pin.c ---- */
/* cvt 0: early's sums; 1: packing converts before a wait loop */
uint32_t pin(Module *, Func *, const uint32_t *lines, int mode, int sel,
	int had);
int pintaken(Func *);
int launchconst(const Opnd *);
int ldfinds(Module *);
int stfinds(Module *);
int basefinds(Module *);
int dupfinds(Module *);
uint32_t hoist(Module *, Func *, const uint32_t *lines);
int32_t *innerscope(Func *);
uint8_t *tmemnames(Func *);

/* ---- early.c ---- */
uint32_t early(Module *, Func *, const uint32_t *lines);
/* whether register r is one early declared (%pxeK_<n>) */
int earlyreg(const Func *, int32_t r);
/* per register, what early made it, or NULL when it made none */
enum {
	Ereg = 1,       /* declared by early */
	Ecopied = 2,    /* and read by a statement writing none of those:
	                 * a sum its copies read */
	Eterm = 4,      /* not early's, read by a writer of early's: a term */
};
uint8_t *earlymarks(Func *);
/* what a statement is to early's sums (early.c, earlyrole) */
enum { Ecopy = 1, Ewterm = 2 };
int earlyrole(const uint8_t *pxe, const int32_t *def, uint32_t ndef,
	const int32_t *use, uint32_t nuse);
/* a register operand named name, bound by the next resolve() */
Opnd regopnd(Str name);
/* .reg TYPE PRE<N>, to stand at declat(f): after the body's leading
 * declarations */
Stmt declstmt(Module *, Func *, Str type, const char *pre, uint32_t n);
uint32_t declat(Func *);
int earlyfinds(Module *);

/* ---- validate.c, for vearly.c: scopes and where a bra goes ---- */
int32_t *scopeof(Func *);
int64_t bratarget(Func *, const int32_t *scope, uint32_t b, Str label);
int64_t bratargetin(Func *, const int32_t *scope, const uint32_t *lab,
	uint32_t nlab, uint32_t b, Str label);

/* ---- vearly.c ---- */
Func *unearly(Module *, Func *a, Func *b, Buf *why);
/* a copy of s whose operands resolve() may bind again */
Stmt stmtcopy(Arena *, const Stmt *s);

/* ---- vpin.c ---- */
/* f less its shuffles of a value to itself (pin.c's), f itself when
 * it has none, 0 when one is not proven so (why, if not 0, says why) */
Func *unpin(Module *, Func *f, Buf *why);

/* ---- budget.c ---- */
int budget(Module *, Func *, int step, int rank);
int budgetset(Module *, Func *, const short *vals, int n);
void setcount(Arena *, Stmt *, int v);
uint32_t budgetsites(Func *, Stmt **s, int *v, uint32_t max);

/* ---- vaccess.c ---- */
void vwrites(const Stmt *, void (*fn)(void *, int32_t), void *arg);

/* ---- vbudget.c ---- */
int budgetfit(Module *, Func *, const int *vals, const int *ref,
	Buf *why);
/* vbudget.c: the warps each setmaxnreg may reach, for many count vectors */
enum { Maxroles = 64 };
typedef struct Roles {
	int nsite, nw;
	long entry, cap;       /* a warp's count at launch; the CTA's pool */
	long pool;             /* what an SM gives a CTA: 65536 / CTAs */
	int fewer;             /* .maxntid, not .reqntid: a launch may
	                        * have fewer warps */
	uint64_t reach[Maxroles];      /* per setmaxnreg, the warps */
	uint32_t line[Maxroles];
} Roles;
int budgetroles(Module *, Func *, Roles *, Buf *why);
int budgetcheck(Func *, const Roles *, const int *vals, const int *ref,
	Buf *why);
long budgetneed(const Roles *, const int *vals);

/* ---- vcopy.c ---- */
uint32_t *vtally(Func *);
int32_t vcopies(Func *, const uint32_t *tally, int32_t *scratch,
	uint32_t a0, uint32_t a1, Str *tb, uint32_t nb, Stmt *eff,
	uint32_t *orig, Arena *, Buf *why);

/* ---- validate.c ---- */
int validate(Module *orig, Module *rewritten, Buf *why);
int cmdvalidate(int, char **);

/* ---- opt.c, pipe.c (the rest of opt: src/opt.h) ---- */
int optimize(Optreq *, const char *src, size_t n, Buf *out);
void optdefaults(Optreq *);
long optpipeline(Module *, const char *pipeline, uint64_t seed);
int cmdopt(int, char **);

/* ---- verify.c ---- */
int cmdverify(int, char **);

/* ---- rewrite.c ---- */
/* Rewrites the PTX text src[0..n) with pipeline (NULL: the default) for
 * arch (NULL: the file's .target); on success *out is malloc'd text and
 * report (if not NULL) receives one line per kernel.  Returns 0, or -1
 * and leaves *out NULL when the input cannot be parsed or the rewrite
 * cannot be proven; it never exits. */
int rewrite(const char *path, const char *src, size_t n,
	const char *pipeline, const char *arch, const char *ptxas,
	const char *const *ptxasargs, char **out, Buf *report);

/* ---- cache.c ---- */
typedef struct Hash {   /* SHA-256 */
	uint32_t h[8];
	uint64_t n;
	unsigned char buf[64];
} Hash;
enum { Cmiss, Ctext, Csame, Cfail };  /* a cache entry: the rewritten
                                       * text, "same as the input",
                                       * "the rewrite failed" */
void hinit(Hash *);
void hadd(Hash *, const void *, size_t);
void hfield(Hash *, const char *, size_t);
void hhex(Hash *, char out[65]);
char *ptxasversion(const char *ptxas);
char *cachedir(void);
int cacheget(const char *key, char **text, size_t *n);
void cacheput(const char *key, int kind, const char *text, size_t n);
void cachenote(const char *dir, int hit);
int cmdcache(int, char **);

/* ---- cmddump.c ---- */
int cmddump(int, char **);

/* ---- main.c ---- */
extern const char *progname;

#endif
