/* ptxasv FILE.ptx [--arch SM] [--ptxas PATH] [--log] [-- PTXAS-ARGS]
 *
 * Prints one line per function ptxas compiled, tab separated:
 * name, registers, spill store bytes, spill load bytes, stack frame
 * bytes ("-" where ptxas printed none). The input is first made
 * acceptable to this ptxas (ptxfixup) in a temporary copy.
 * Exit: 0 ok, 1 ptxas failed, 2 usage or I/O error, 3 ptxas does not
 * know the target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "all.h"

enum { Maxextra = 32 };

static void
num(long v, int last)
{
	if (v < 0)
		printf("-");
	else
		printf("%ld", v);
	putchar(last ? '\n' : '\t');
}

static int
usage(void)
{
	fprintf(stderr, "usage: ptxasv FILE.ptx [--arch SM] [--ptxas PATH]"
		" [--log] [-- PTXAS-ARGS]\n");
	return 2;
}

/* A copy of text acceptable to ptxas in a temporary file, or NULL
 * when the original will do. */
static char *
fixed(const char *file, const char *ptxas, const char *text, size_t n)
{
	int maj, min, changed, fd;
	size_t m;
	char *out, *path;
	const char *d = getenv("TMPDIR");

	if (ptxasisa(ptxas, &maj, &min) < 0) {
		fprintf(stderr, "ptxasv: cannot tell the PTX ISA of %s\n",
			ptxas);
		maj = 99;  /* leave .version alone */
		min = 9;
	}
	out = ptxfixup(text, n, maj, min, &m, &changed);
	if (!out || !changed) {
		free(out);
		return NULL;
	}
	if (changed & Fversion)
		fprintf(stderr, "ptxasv: %s: .version lowered to %d.%d\n",
			file, maj, min);
	if (changed & Fascii)
		fprintf(stderr, "ptxasv: %s: non-ASCII in comments replaced\n",
			file);
	path = malloc(4096);
	snprintf(path, 4096, "%s/ptxasv-XXXXXX", d && *d ? d : "/tmp");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, out, m) != (ssize_t)m) {
		fprintf(stderr, "ptxasv: cannot write %s\n", path);
		exit(2);
	}
	close(fd);
	free(out);
	return path;
}

int
main(int argc, char **argv)
{
	const char *file = NULL, *over = NULL, *extra[Maxextra + 1];
	char *ptxas, *text, *tmp;
	int i, nextra = 0, log = 0, st;
	size_t n;
	Pxopt o = {0};
	Pxres r;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--arch") && i + 1 < argc)
			o.arch = argv[++i];
		else if (!strcmp(argv[i], "--ptxas") && i + 1 < argc)
			over = argv[++i];
		else if (!strcmp(argv[i], "--log"))
			log = 1;
		else if (!strcmp(argv[i], "--")) {
			while (++i < argc && nextra < Maxextra)
				extra[nextra++] = argv[i];
		} else if (argv[i][0] == '-' || file)
			return usage();
		else
			file = argv[i];
	}
	if (!file)
		return usage();
	extra[nextra] = NULL;
	ptxas = ptxasfind(over);
	if (!ptxas) {
		fprintf(stderr, "ptxasv: no ptxas found\n");
		return 2;
	}
	text = pxslurp(file, &n);
	if (!text) {
		perror(file);
		return 2;
	}
	tmp = fixed(file, ptxas, text, n);
	free(text);
	o.ptxas = ptxas;
	o.ptx = tmp ? tmp : file;
	o.args = extra;
	st = ptxasrun(&o, &r);
	if (tmp)
		unlink(tmp);
	if (log || st != 0)
		fputs(r.log ? r.log : "", stderr);
	if (st != 0 && r.log && strstr(r.log, "for option 'gpu-name'")) {
		fprintf(stderr, "ptxasv: %s: this ptxas does not know %s\n",
			file, r.arch);
		st = 3;
	} else if (st != 0)
		st = st < 0 ? 2 : 1;
	for (i = 0; st == 0 && i < r.nfn; i++) {
		printf("%s\t", r.fn[i].name);
		num(r.fn[i].regs, 0);
		num(r.fn[i].spillst, 0);
		num(r.fn[i].spillld, 0);
		num(r.fn[i].stack, 1);
	}
	ptxasfree(&r);
	free(tmp);
	free(ptxas);
	return st;
}
