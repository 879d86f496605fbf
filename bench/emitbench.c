/* emitbench.c: parse + check + lossless emit of one file, timed inside
 * one process, so that what is measured is the front end and not the
 * process around it.
 *
 * emitruns.py times whole 'ptxpress emit' processes, and on this kind of
 * virtual machine a process costs 1.7 ms before main (the dynamic
 * loader's cpuid calls trap to the hypervisor): a tenth of a 1 MB
 * file's run.  Here each run reads the file, parses and checks it
 * (loadx, as every command does), emits it losslessly into a buffer and
 * frees everything, timed by the process's CPU clock (user + system:
 * the kernel zeroing fresh pages counts).  The first run is printed
 * apart: later runs find the intern table filled, which a single
 * 'ptxpress emit' never does.
 *
 * With PRIME, that file is parsed and freed once before the first run:
 * the first run then finds its memory made and in the chunk pool, and
 * the intern table holding PRIME's names (a first run of FILE after
 * another file, against one after FILE itself, tells what fresh memory
 * costs apart from what fresh names cost; bench/RESULTS-trust.md,
 * forty-second session).
 *
 * usage: emitbench FILE [RUNS [PRIME]]   (prints one line; exit 2 on
 * bad input) */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "all.h"

const char *progname = "emitbench";

static double
cpunow(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

/* One run: seconds of CPU, or -1 when the file does not load clean. */
static double
once(const char *path, Buf *b, size_t *len)
{
	double t0 = cpunow();
	Diag d;
	char *src;
	Module *m = load(path, &d, &src);

	if (!m || m->nerr) {
		unload(m, src);
		return -1;
	}
	b->n = 0;
	emitlossless(b, m);
	*len = m->len;         /* trailing NULs are not emitted */
	unload(m, src);
	return cpunow() - t0;
}

static int
cmpd(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

int
main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[2]) : 25;
	Buf b = {0};
	size_t len = 0;
	double first, *t;
	const char *base;

	if (argc < 2 || runs < 2) {
		fprintf(stderr, "usage: emitbench FILE [RUNS >= 2 [PRIME]]\n");
		return 2;
	}
	b.cap = 1 << 16;
	b.p = xmalloc(b.cap);
	if (argc > 3 && once(argv[3], &b, &len) < 0)
		return 2;
	if ((first = once(argv[1], &b, &len)) < 0)
		return 2;
	t = xmalloc(runs * sizeof *t);
	for (int i = 0; i < runs; i++)
		if ((t[i] = once(argv[1], &b, &len)) < 0)
			return 2;
	if (b.n != len)         /* lossless: as many bytes as were read */
		die("emitted %zu bytes of %zu", b.n, len);
	qsort(t, runs, sizeof *t, cmpd);
	base = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
	printf("%s: %.2f MB, first run%s %.1f ms (%.0f MB/s); %d more: "
		"min %.1f ms (%.0f MB/s), median %.1f ms (%.0f MB/s), "
		"p90 %.1f ms (%.0f MB/s)\n", base, len / 1e6,
		argc > 3 ? " (primed)" : "", first * 1e3, len / first / 1e6,
		runs,
		t[0] * 1e3, len / t[0] / 1e6,
		t[runs / 2] * 1e3, len / t[runs / 2] / 1e6,
		t[runs * 9 / 10] * 1e3, len / t[runs * 9 / 10] / 1e6);
	free(t);
	free(b.p);
	return 0;
}
