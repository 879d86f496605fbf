/* opt.h: what the parts of opt share (not for other commands): the
 * pipelines (pipe.c), the variants the search tries and their figures
 * (rank.c), the search (search.c), the command (opt.c). */

#include <pthread.h>

/* ---- pipelines ---- */

enum { Maxpass = 24 };

typedef struct Pass {
	char name[80];
	int moves;          /* the moves pass, not a scheduler */
	int budget;         /* the budget pass: its step, 0 if not; -1:
	                     * budget=V1/V2/...: the counts set[0..nset) */
	int nset;
	short set[16];
	int rank;           /* budget: grow the rank-th neediest role;
	                     * pin=dup:K: K */
	int remat;          /* the remat pass: 1 + its mode (Rplain...),
	                     * 0 if not */
	int wgwait;         /* the wgwait pass; 2 wgsplit */
	int xspill;         /* the xspill pass; 2 xspill=all */
	int across;         /* 1 tsink, 2 hoist (across.c), 3 early,
	                     * 4 tsink=far (tfar.c), 5 pin, 6 pin=cvt,
	                     * 7 pin=ld, 8 pin=loop, 9 pin=loopall,
	                     * 10 pin=st, 11 pin=base, 12 pin=dup */
	Sched s;
} Pass;

typedef struct Pipe {
	Pass p[Maxpass];
	int n;
	char text[384];
	int parent;         /* a pick with pin=loop or pin=loopall after
	                     * it: the pick's variant (refinements), else 0 */
	int from;           /* refinements: 1 + the variant of the pick it
	                     * perturbs or extends, else 0 */
	char add[80];       /* the pass word withpass put after that pick,
	                     * "" for a perturbation */
} Pipe;

/* ---- variants and their figures ---- */

typedef struct Fig {
	long spill, stack;
	int regs, ok;
	int serial;         /* ptxas: its wgmmas are serialized */
	int pinned;         /* the pipeline pins (pin, pin=cvt, pin=ld) */
	long loop, local;   /* nvdisasm: SASS in loops, local memory of
	                     * those (-1: not known) */
	long out;           /* local memory outside loops */
	long exposed;       /* spills of loads in flight, in loops */
	long xb;            /* of spill: xspill's own local array traffic */
} Fig;

typedef struct Var {
	Pipe pipe;
	char path[4096];
	Pxres res;
	int done;
	int sass;           /* --sass-guard: 1 nvdisasm wanted, 2 asked */
	struct { const char *fn; long bytes; } xb[4];   /* xspill's array
	                     * traffic, per function that has one */
	int nxb;
} Var;

typedef struct Pool {
	Var *v;
	int n, next;
	const char *ptxas, *arch;
	const char *const *args;
	const char *nvdisasm;       /* set: keep cubins, or (sass) read them */
	int sass;
	pthread_mutex_t mu;
} Pool;

enum { Maxvar = 256 };

typedef struct Kern {
	Str name;
	int best;           /* variant index */
	Fig before, after;
	int alt;            /* the best variant whose wgmmas ptxas does not
	                     * serialize (0: none) */
	Fig altf;
	int veto;           /* --sass-guard: the best variant it refused */
	Fig vetof;
	int vetopar;        /* the pick it extends, when refused against
	                     * that one (pinloopier) */
	Fig vetoparf;
	int nrank;          /* the variants worth taking, best first: */
	int *rank;          /* when the pick is not proven, the next one */
	Fig *rankf;         /* (both rounds; room for 2 * Maxvar, in the
	                     * block kerns() allocates) */
} Kern;

/* pipe.c */
int pipeparse(const char *text, uint64_t seed, Pipe *pp);
uint32_t runpipe(Module *m, Pipe *pp, const Scope *sc, const char *only);

/* search.c */
int writetmp(const char *path, const char *t, size_t n);
int withpass(const Optreq *o, const Pipe *p, const char *w, Pipe *out);
int inplace(const Pipe *p);
Module *sharedcopy(const Module *orig);
int sharedok(Module *orig, uint64_t sum, const char *at);

/* budround.c */
int budgetround(Optreq *o, const char *src, size_t n, Kern *k, int nk,
	Var *var, Pipe *v, int nv, int room, const char *dir,
	const char *ptxas, int maj, int min, int rf);

/* rank.c */
void varfree(int cubins, Var *v);
void cubinpath(const Var *v, char *c, size_t cap);
void runall(Pool *p, int jobs);
Fig figure(Var *v, const char *fn);
int better(Fig a, Fig b, int unserial);
int worth(Optreq *o, Fig g, Fig b);
Kern *kerns(Module *m);
int rankall(Optreq *o, Module *orig, Var *var, int nv, Kern *k);
void listvariants(Optreq *o, Str kname, Var *var, int nv);

/* search.c */
int search(Optreq *o, const char *src, size_t n, Module *orig, Kern **kp,
	Pipe *v, int *nvp);

/* opt.c: m written into text and proven against orig (0), then freed */
int proven(Optreq *o, Module *orig, Module *m, Buf *text);
