/* fuzzopt.c: libFuzzer target over opt's passes, the validator as the
 * oracle (oracle.h).  The input is PTX (the seeds are the corpus and
 * the tests, as they are); a hash of it picks the pipeline and the
 * seed.  A rewrite one side makes and the other refuses aborts here;
 * crashes, leaks, UB and hangs in either count too. */
#include "oracle.h"

const char *progname = "fuzzopt";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	if (!n || n > 65536)
		return 0;
	uint64_t h = fnv((const char *)data, n);
	const char *pipe = pipes[h % countof(pipes)];
	uint64_t seed = h / countof(pipes) % 1000;
	char *src = xmalloc(n);
	Buf why = {0};

	memcpy(src, data, n);
	if (oracle(src, n, pipe, seed, &why) > 0) {
		fprintf(stderr, "fuzzopt: %s", why.p ? why.p : "");
		abort();
	}
	free(why.p);
	free(src);
	return 0;
}
