/* valid.h: what the validator's files share (validate.c, vaccess.c,
 * vseg.c, vremat.c, vhoist.c); nothing outside them includes it. */

/* What an instruction does to memory and ordering, seen afresh. */
enum {
	Enone,      /* registers only */
	Eread,      /* loads */
	Ewrite,     /* stores and reductions */
	Eall,       /* atomics, fences, barriers, async: order with all */
	Etmem,      /* tcgen05.ld/st and their waits: tensor memory only,
	             * which no load or store reaches */
	Ecoll,      /* warp collectives */
	Emma,       /* mma.sync: a warp collective, but two may swap: every
	             * thread of the warp runs a block in the same order */
	Ecarry,     /* .cc arithmetic */
	Efixed,     /* must not move at all */
};

/* A warp collective, mma.sync or not */
static inline int
vcoll(int e)
{
	return e == Ecoll || e == Emma;
}

typedef struct Acc {
	int32_t *def, *use;
	uint32_t ndef, nuse;
	int eff, space;
	uint32_t pos;           /* index in the rewritten segment */
	Str text;
} Acc;

typedef struct Iv { int32_t *v; uint32_t n, cap; } Iv;

typedef struct Lc { Str t; uint32_t i; } Lc;
typedef struct Pend { uint32_t *v, n, cap; } Pend;   /* (B, A) pairs */

typedef struct Seg {
	Func *fa, *fb;
	uint32_t a0, a1, b0, b1;    /* [a0, a1) in A, [b0, b1) in B */
	Buf *why;
	uint32_t *orig;             /* A's statements as B should hold
	                             * them: where each one came from */
	uint32_t n;
	Str *konst;                 /* A's constant definitions, by text */
	uint32_t nkonst;
	int32_t *kload;             /* for loads among them: the statement,
	                             * else -1 */
	Dom **adom;                 /* fa's dominance, made when first asked */
	const uint32_t *tally;      /* vtally(fa) */
	int32_t *lastw;             /* regorder's, per register of fa */
	uint32_t *maxr;
	uint8_t *seen;
	int32_t *vscratch;          /* vcopies', 4 per register of fa */
	const uint8_t *xb;          /* per statement of fb: an extra wait */
	int32_t *amap;              /* per statement of fa: where B has it */
	const struct Lc *lc;        /* A's definitions remat=loop may copy,
	                             * sorted by text */
	uint32_t nlc;
	struct Pend *pend;          /* B's copies of them, proven at the end */
	const uint8_t *tm;          /* per register of fa: 1 a tcgen05.ld
	                             * writes it, 2 a tcgen05.st reads it */
	struct Up *up;              /* statements B runs in earlier segments */
	uint32_t seg;               /* this segment's number */
	Stmt *eff;                  /* A's statements as B holds them */
	struct Later *later;        /* wgmma A runs here, B in the next
	                             * segment (see deferred) */
	uint8_t *wx;                /* per statement of fb: 1 such a wgmma,
	                             * 2 the fence or commit of its group */
} Seg;

/* A wgmma.mma_async that A runs in one segment and B in the next, in a
 * group of its own (wgsplit.c): kept until that segment claims it. */
typedef struct Late1 { Str t; uint32_t a, seg; int32_t b; } Late1;
typedef struct Later { Late1 *v; uint32_t n, cap; } Later;
enum { Pup = UINT32_MAX, Plater = UINT32_MAX - 1 };  /* pairup's pos[] */

/* A statement of B with no partner in its segment may be one that A
 * runs in a later segment, moved up across the fixed statements
 * between (across.c's hoist): kept here until A's segment claims it. */
typedef struct Cand {
	Str t;
	uint32_t b, seg, aseg;      /* B's statement and segment; A's segment */
	int32_t a;                  /* A's statement, once claimed, else -1 */
	int soft;                   /* a constant's copy or remat=loop's
	                             * (pending) too: may stay unclaimed */
	int plain;                  /* A's statement as B holds it (copies
	                             * replayed): registers only, no guard */
	Acc x;                      /* and its registers */
} Cand;
typedef struct Up { Cand *v; uint32_t n, cap; } Up;

/* closedrun's last answer: the statements that move across one run
 * are many (64 converts in Triton's softmax), the run is one */
typedef struct Closed { uint32_t lo, hi; int ok; } Closed;

typedef struct Vscoped {
	const Func *f;
	const uint8_t *sc;
	Str *memo;      /* vtext of each statement of f, once asked */
	uint32_t nmemo; /* f's statements when it was made */
} Vscoped;
extern Vscoped vscoped[2];    /* what body() compares: vtext marks
                               * their scope-declared registers */
extern int vparamaddr;        /* see vaccess.c */

/* ---- vaccess.c ---- */
int vhas(Stmt *s, const char *m);
int veffect(Stmt *s);
int vtakesparam(const Func *f);
int vmemorder(Acc *a, Acc *b);
void vcollect(Opnd *o, Iv *v);
void vaccess(Stmt *s, Acc *a);
void accfree(Acc *a);
uint8_t *vbranchtargets(Func *f);
int vptrcmp(const void *, const void *);
uint8_t *vmovables(Func *f);
uint8_t *vscopedregs(Func *f);
Str vtext(Func *f, Stmt *s);
Str vplain(Func *f, Stmt *s);    /* printed and interned, no marks */
int vfail(Buf *why, Func *f, Stmt *s, const char *fmt, const char *x);
uint8_t *vtmemregs(Func *f);
int vtmemtouch(const Acc *a, const uint8_t *tm, int bit);
int vasyncwrite(Stmt *s, const uint8_t *tm);

/* ---- vseg.c ---- */
int vlccmp(const void *a, const void *b);   /* Lc by text */
int vpending(Seg *g, Str t, uint32_t j);
int vlaterpending(const Later *l, uint32_t seg);
int vsegment(Seg *g, uint8_t *mv);
int vwarpop(const Stmt *s, int op);

/* ---- vremat.c ---- */
uint32_t *vwritecount(Func *f, uint32_t *last);
Str *vkonstants(Func *f, uint32_t *writes, const uint8_t *tm, uint32_t *n,
	int32_t **load);
int vextrawait(Func *f, const uint8_t *targets, uint32_t j);
Lc *vloopchains(Func *f, const uint32_t *writes, const uint8_t *tm,
	uint32_t *n);
int vloopvalues(Func *fa, Func *fb, const int32_t *amap,
	const uint32_t *writes, Pend *pd, Buf *why);

/* ---- vspill.c ---- */
Func *unspill(Module *, Func *a, Func *b, Buf *why);

/* ---- vsink.c ---- */
/* How much of a tcgen05.ld group unsink moves back: the part A's group
 * holds, B's whole group, or the load and its wait alone. */
enum { Part, Whole, Bare };
Func *unsink(Module *, Func *a, Func *b, Buf *why, int how);

/* ---- vhoist.c ---- */
int vhoisted(Func *fa, Func *fb, const Cand *c, const uint32_t *aend,
	const uint32_t *astart, const uint32_t *bend, Closed *cl,
	const uint8_t *tm, Buf *why);
