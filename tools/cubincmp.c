/* cubincmp A.cubin B.cubin: exit 0 when the two cubins hold the same
 * code (debug sections aside), 1 with the first difference when they
 * do not, 2 when either cannot be read as ELF64. */
#include <stdio.h>

#include "all.h"

int
main(int argc, char **argv)
{
	char why[512];
	int r;

	if (argc != 3) {
		fprintf(stderr, "usage: cubincmp A.cubin B.cubin\n");
		return 2;
	}
	r = cubincmp(argv[1], argv[2], why, sizeof why);
	if (r < 0) {
		fprintf(stderr, "cubincmp: %s\n", why);
		return 2;
	}
	if (r > 0)
		printf("%s\n", why);
	return r;
}
