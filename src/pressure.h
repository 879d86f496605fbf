/* pressure.h: what the pressure command (cmdpressure.c) and its
 * --compare (pcompare.c) share. */

enum { Maxtop = 64, Maxgroup = 12, Maxsrc = 4 };

typedef struct Popt {
	const char *in, *kernel, *svg, *html, *arch, *compare;
	int top, json, noptxas, dumplive, dumppress;
} Popt;

/* The source a statement comes from: the .loc before it. */
typedef struct Src {
	const Stmt **loc;       /* per statement, or 0 */
	struct { uint32_t num; Str name; } *file;   /* the .file table */
	uint32_t nfile;
} Src;

/* Values live at a peak that share a definition site. */
typedef struct Group {
	Str op;                 /* "ex2.approx" */
	Str type;
	const Stmt *dloc, *uloc;
	Str uop;
	int count, units;
	uint32_t until;
} Group;

typedef struct Kern {
	Func *f;
	Region reg[Maxtop];
	uint32_t nreg;
	Role role[16];
	uint32_t nrole;
	Finding lint[4];
	uint32_t nlint;
	const Pxfn *px;
	int spill;              /* press > cap somewhere */
	uint32_t spillat;
} Kern;

/* The source lines of a region, most instructions first. */
typedef struct Srcn { const Stmt *l; int n; } Srcn;

/* cmdpressure.c */
int runptxas(Module *m, const char *arch, Pxres *r);
void srcinit(Src *S, Module *m, Func *f);
const char *base(const char *p);
Str fname(Src *S, uint32_t k);
void locstr(Src *S, const Stmt *l, char *out, size_t n);
void opname(const Stmt *s, char *out, size_t n);
uint32_t groups(Func *f, Src *S, uint32_t at, Group *g, uint32_t max);
uint32_t sources(Func *f, Src *S, Region *r, Srcn *out, uint32_t max);
void analyse(Module *m, Func *f, Kern *k, int top, const Pxres *px);
int capmin(Func *f);
int capmax(Func *f);
void printgroups(FILE *o, Func *f, Src *S, uint32_t at);
void jstr(FILE *o, const char *s);
void jregion(FILE *o, Func *f, Src *S, Region *r);
void textpeak(FILE *o, const char *lead, const Sasspeak *pk);
void jpeak(FILE *o, const Sasspeak *pk);

/* pcompare.c */
int cmpmain(Popt *o);
