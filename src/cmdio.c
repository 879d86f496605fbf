/* cmdio.c: the check and emit commands, and the input handling every
 * command shares: reading a file or stdin, NUL-terminated CuTe DSL
 * dumps, .version newer than ptxas. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

/* Reads, parses and checks: every command refuses what check calls an
 * error (m->nerr counts them, m->nparse the parse errors among them);
 * warnings are printed when warn says so.  Returns NULL, having said why,
 * when the file cannot be read.  The caller owns *src (freefile) and the
 * module (afree(m->a)). */
Module *
loadx(const char *path, Diag *d, char **src, int warn)
{
	size_t n;
	Module *m;

	*src = readfile(path, &n);
	if (!*src) {
		fprintf(stderr, "%s: error: cannot read '%s'\n", progname, path);
		return 0;
	}
	memset(d, 0, sizeof *d);
	d->path = strcmp(path, "-") ? path : "<stdin>";
	m = parseflags(d->path, *src, n, d, Pinplace);
	if (!m->nerr && !m->nitem) {
		diag(d, "error", (Pos){1, 1}, 0, 0, "empty input: no PTX here");
		m->nerr = d->nerr;
	}
	m->nparse = m->nerr;
	if (!m->nerr) {
		d->nowarn = !warn;
		check(m, d);
		d->nowarn = 0;
		m->nerr = d->nerr;
	}
	return m;
}

Module *
load(const char *path, Diag *d, char **src)
{
	return loadx(path, d, src, 0);
}

void
unload(Module *m, char *src)
{
	if (m)
		afree(m->a);
	freefile(src);
}

/* Parses "9.0" into major and minor. */
int
parseversion(const char *s, int *maj, int *min)
{
	char *e;

	*maj = (int)strtol(s, &e, 10);
	if (*e != '.' || e == s)
		return -1;
	*min = (int)strtol(e + 1, &e, 10);
	return *e ? -1 : 0;
}

/* Lowers .version to maj.min when it is newer; says so.  Returns 1 if
 * it changed the module. */
int
clampversion(Module *m, int maj, int min, const char *why)
{
	for (uint32_t i = 0; i < m->nitem; i++) {
		Item *it = &m->item[i];
		if (it->kind != Iver)
			continue;
		if (m->vmaj < maj || (m->vmaj == maj && m->vmin <= min))
			return 0;
		char buf[32];
		snprintf(buf, sizeof buf, "%d.%d", maj, min);
		fprintf(stderr, "%s: note: %s: .version %s lowered to %s%s\n",
			progname, m->path, it->s, buf, why);
		it->s = interns(buf);
		it->dirty = 1;
		m->vmaj = maj;
		m->vmin = min;
		return 1;
	}
	return 0;
}

static int
helpcheck(FILE *f)
{
	fprintf(f,
"usage: ptxpress check [-q] FILE...\n"
"\n"
"Parses each PTX file and validates what the grammar cannot, as ptxas\n"
"does: registers used but never declared or declared twice, branches to\n"
"labels that do not exist, labels defined twice, unbalanced { } scopes,\n"
"instructions the .target lacks, mov packs and unpacks whose widths do\n"
"not match, immediates of the wrong kind (add.f32 %%f1, %%f2, 1: write\n"
"1.0), registers of the wrong type (add.f32 of a .u32 register, ld.f32\n"
"into one, shl by a .u64, setp writing a .b32; ld, st and cvt take\n"
"wider integer and .b registers, as ptxas does), a guard that is no\n"
"predicate, an address in a float register, an operand too few or too\n"
"many, a type the opcode lacks (add.b32), a special register outside\n"
"mov and integer cvt (add.u32 %%r1, %%tid.x, 1), a missing or wrong\n"
"rounding (cvt.f32.s32, fma.f32, ex2.f32), .ftz or .sat on a type\n"
"that takes none, a number as an address outside .local ([0]; each\n"
"rule held to ptxas by tools/typeprobe.py), a header other than\n"
".version, .target, [.address_size 32|64], functions or variables\n"
"defined twice, parameters and variables named twice in one scope, 0\n"
"in .maxntid/.reqntid/.maxnreg/.minnctapersm.\n"
"A call to a function no earlier .func declares is a warning (OptiX\n"
"programs call runtime functions no file declares).  Opcodes, modifiers,\n"
"register types and directives newer than ptxpress's tables are\n"
"warnings, not errors: they are kept as written, and every pass holds\n"
"an unknown instruction or directive in its place.\n"
"It also warns about register budgets that silently vanish: warp roles\n"
"at a launch budget of 128 registers or less with no setmaxnreg, or with\n"
"a setmaxnreg ptxas will ignore (see 'ptxpress pressure').\n"
"\n"
"Diagnostics go to stderr as file:line:col: error: message, with the\n"
"source line and a caret.  At most 20 errors are reported per file.\n"
"\n"
"  -q       print only the summary line per file\n"
"\n"
"Exit status: 0 clean (warnings allowed), 1 some file has errors after\n"
"parsing, 2 some file could not be read or parsed.\n");
	return f == stdout ? 0 : 2;
}

int
cmdcheck(int argc, char **argv)
{
	int rc = 0, quiet = 0, nfile = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return helpcheck(stdout);
		if (!strcmp(argv[i], "-q")) {
			quiet = 1;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "%s check: unknown option '%s'\n",
				progname, argv[i]);
			return helpcheck(stderr);
		}
		nfile++;
	}
	if (!nfile)
		return helpcheck(stderr);
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1])
			continue;
		Diag d;
		char *src;
		Module *m = loadx(argv[i], &d, &src, !quiet);
		d.quiet = quiet;
		if (!m) {
			rc = 2;
			continue;
		}
		if (m->nparse) {
			rc = 2;
		} else {
			if (!d.nerr)
				lint(m, &d);  /* register budgets that vanish */
			if (d.nerr && rc < 1)
				rc = 1;
		}
		uint32_t nf = 0, ns = 0;
		for (uint32_t k = 0; k < m->nitem; k++)
			if (m->item[k].kind == Ifunc) {
				nf++;
				ns += m->item[k].fn->nstmt;
			}
		fprintf(stderr, "%s: PTX %d.%d, %s, %u functions, %u statements, "
			"%d errors, %d warnings\n", d.path, m->vmaj, m->vmin,
			m->target ? m->target : "no target", nf, ns, d.nerr,
			d.nwarn);
		unload(m, src);
	}
	return rc;
}

static int
helpemit(FILE *f)
{
	fprintf(f,
"usage: ptxpress emit FILE [-o OUT] [--canonical] [--strip-nul]\n"
"                     [--ptx-version X.Y|auto] [--in-place]\n"
"\n"
"Writes the PTX back.  Without options the output is the input byte\n"
"for byte (comments, whitespace, CRLF, a byte-order mark and all),\n"
"printed from the IR's statements and the trivia between them.\n"
"\n"
"  -o OUT             output file (default: standard output, also -)\n"
"  --canonical        print everything from the IR alone, in ptxpress's\n"
"                     own layout; it assembles to the same cubin\n"
"  --strip-nul        drop the NUL bytes CuTe DSL dumps end with (ptxas\n"
"                     rejects them: \"Unexpected EOF\")\n"
"  --ptx-version V    lower .version to V when the file is newer; 'auto'\n"
"                     takes the highest the ptxas on PATH accepts\n"
"  --in-place         allow OUT to be the input file\n"
"\n"
"The output is written to a temporary file and renamed into place, so a\n"
"failure leaves nothing behind.  Exit status 2 on bad input.\n");
	return f == stdout ? 0 : 2;
}

typedef struct Emitopt {
	const char *in, *out, *ver;
	int canon, stripnul, inplace;
} Emitopt;

static int
emitargs(int argc, char **argv, Emitopt *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return helpemit(stdout) - 1;
		if (!strcmp(a, "-o") && i + 1 < argc)
			o->out = argv[++i];
		else if (!strcmp(a, "--canonical"))
			o->canon = 1;
		else if (!strcmp(a, "--strip-nul"))
			o->stripnul = 1;
		else if (!strcmp(a, "--in-place"))
			o->inplace = 1;
		else if (!strcmp(a, "--ptx-version") && i + 1 < argc)
			o->ver = argv[++i];
		else if (!strncmp(a, "--ptx-version=", 14))
			o->ver = a + 14;
		else if ((a[0] != '-' || !a[1]) && !o->in)
			o->in = a;
		else {
			fprintf(stderr, "%s emit: unexpected argument '%s'\n",
				progname, a);
			return helpemit(stderr);
		}
	}
	if (!o->in)
		return helpemit(stderr);
	return 0;
}

/* The version named by --ptx-version: X.Y, or what ptxas takes. */
static int
targetversion(const char *v, int *maj, int *min)
{
	if (strcmp(v, "auto"))
		return parseversion(v, maj, min);
	char *ptxas = ptxasfind(0);
	if (!ptxas || ptxasisa(ptxas, maj, min)) {
		fprintf(stderr, "%s: error: --ptx-version auto: no usable ptxas "
			"found (set PTXPRESS_PTXAS or PATH)\n", progname);
		free(ptxas);
		return -1;
	}
	free(ptxas);
	return 0;
}

int
cmdemit(int argc, char **argv)
{
	Emitopt o = {0};
	Diag d;
	char *src;
	Buf b = {0};
	int rc, maj, min;

	o.out = "-";
	if ((rc = emitargs(argc, argv, &o)))
		return rc < 0 ? 0 : rc;
	if (o.ver && targetversion(o.ver, &maj, &min)) {
		fprintf(stderr, "%s emit: bad --ptx-version '%s'\n", progname,
			o.ver);
		return 2;
	}
	Module *m = load(o.in, &d, &src);
	if (!m || m->nerr) {
		unload(m, src);
		return 2;
	}
	if (o.ver)
		clampversion(m, maj, min, " for ptxas");
	/* streamed: a 4 MB kernel is not held twice */
	if (!(b.out = outopen(o.out, o.inplace, o.in))) {
		unload(m, src);
		return 2;
	}
	b.cap = 1 << 16;
	b.p = xmalloc(b.cap);
	if (o.canon)
		emitcanon(&b, m);
	else
		emitlossless(&b, m);
	if (m->rawlen > m->len) {
		if (o.stripnul)
			fprintf(stderr, "%s: note: %s: stripped %zu trailing NUL "
				"bytes\n", progname, d.path, m->rawlen - m->len);
		else if (!o.canon)
			bput(&b, m->src + m->len, m->rawlen - m->len);
	}
	bflush(&b);
	rc = outclose(b.out, 1) ? 2 : 0;
	free(b.p);
	unload(m, src);
	return rc;
}
