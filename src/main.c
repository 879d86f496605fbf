/* main.c: the ptxpress command, git style: one table of subcommands. */
#include <stdlib.h>
#include <string.h>
#include "all.h"

const char *progname = "ptxpress";

typedef struct Cmd {
	const char *name;
	int (*run)(int, char **);
	const char *summary;
} Cmd;

static const Cmd cmds[] = {
	{"check", cmdcheck, "parse and validate PTX, print diagnostics"},
	{"emit", cmdemit, "write PTX back: losslessly, or canonically"},
	{"pressure", cmdpressure, "register pressure, caps and roles per "
		"kernel"},
	{"opt", cmdopt, "rewrite PTX so that ptxas spills less"},
	{"validate", cmdvalidate, "prove a rewrite computes what the "
		"original does"},
	{"verify", cmdverify, "run original and rewritten PTX on the GPU, "
		"compare, time"},
	{"dump", cmddump, "rewrite a CuTe DSL or Triton dump folder"},
	{"cache", cmdcache, "show or clear ptxpress-ptxas's result cache"},
};

static void
usage(FILE *f)
{
	fprintf(f,
"usage: ptxpress <command> [options] FILE...\n"
"\n"
"ptxpress reads the PTX that nvcc, Triton and the CuTe DSL emit, shows\n"
"where register pressure makes ptxas spill, rewrites the PTX to lower\n"
"it, and proves the rewrite computes the same thing.\n"
"\n"
"commands:\n");
	for (size_t i = 0; i < countof(cmds); i++)
		fprintf(f, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f,
"\n"
"'ptxpress <command> --help' explains each.  FILE may be - for standard\n"
"input; -o - writes standard output.  Exit status: 0 success, 1 the\n"
"check found problems, 2 bad input or usage.\n");
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")
	|| !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		/* which ptxas the commands and ptxpress-ptxas would run */
		char *p = ptxasfind(0), *v = p ? ptxasversion(p) : 0;
		const char *r = v ? strstr(v, "release ") : 0;
		printf("ptxpress %s\n", PTXPRESS_VERSION);
		if (!p)
			printf("ptxas: none found (set PTXPRESS_PTXAS or PATH)\n");
		else
			printf("ptxas: %s (%.*s)\n", p, r ? (int)strcspn(r, "\n")
				: 7, r ? r : "unknown");
		free(v);
		free(p);
		return 0;
	}
	for (size_t i = 0; i < countof(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].run(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s'\n\n", progname, argv[1]);
	usage(stderr);
	return 2;
}
