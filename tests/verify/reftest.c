/* reftest.c: the CPU side of ptxpress verify that needs no launch file:
 * half and bfloat16 rounding, and the float64 reference attention on
 * a case small enough to do by hand.  Prints each failure; exit 1 if
 * any. */
#include <math.h>
#include <stdio.h>

#include "verify.h"

static int fails;

#define CHECK(c) check((c), #c, __LINE__)

static void
check(int ok, const char *what, int line)
{
	if (!ok) {
		fprintf(stderr, "reftest.c:%d: failed: %s\n", line, what);
		fails++;
	}
}

static void
conversions(void)
{
	CHECK(vf2h(1.0f) == 0x3c00);
	CHECK(vf2h(-2.0f) == 0xc000);
	CHECK(vf2h(65504.0f) == 0x7bff);
	CHECK(vf2h(65519.0f) == 0x7bff);	/* just under the halfway point */
	CHECK(vf2h(65520.0f) == 0x7c00);	/* halfway rounds to even: inf */
	CHECK(vf2h(0x1p-24f) == 0x0001);	/* smallest subnormal */
	CHECK(vf2h(0x1p-25f) == 0x0000);	/* tie to even: zero */
	CHECK(vf2h(0x3p-25f) == 0x0002);	/* tie to even: 2 */
	CHECK(vf2h(0x1p-14f) == 0x0400);	/* smallest normal */
	CHECK(vf2h(1.0f + 0x1p-11f) == 0x3c00);	/* tie, even stays */
	CHECK(vf2h(1.0f + 0x3p-11f) == 0x3c02);	/* tie, odd rounds up */
	CHECK(isnan(vh2f(vf2h(NAN))));
	CHECK(vh2f(0x0001) == 0x1p-24f);
	CHECK(vh2f(0x7bff) == 65504.0f);
	CHECK(vh2f(0xfc00) == -INFINITY);
	CHECK(vf2bf(1.0f) == 0x3f80);
	CHECK(vf2bf(1.0f + 0x1p-8f) == 0x3f80);	/* tie, even stays */
	CHECK(vf2bf(1.0f + 0x3p-8f) == 0x3f82);	/* tie, odd rounds up */
	CHECK(vf2bf(-3.0f) == 0xc040);
	CHECK(isnan(vbf2f(vf2bf(NAN))));
	CHECK(vbf2f(0x3f81) == 1.0f + 0x1p-7f);
}

/* q = (1, 0); keys (1, 0), (0, 1); values (1, 2), (3, 4); scale 1 in
 * the log2 domain: scores 1 and 0, weights 2^0 and 2^-1, so
 * o = ((1, 2) + (3, 4) / 2) / 1.5 = (5/3, 8/3). */
static void
byhand(void)
{
	static const float q[2] = { 1, 0 }, k[4] = { 1, 0, 0, 1 };
	static const float v[4] = { 1, 2, 3, 4 };
	static const Vtype t[3] = { Vf32, Vf32, Vf32 };
	double o[2], s[2];

	vrefrow(o, s, t, q, k, v, 2, 2, 0, 0, 1.0);
	CHECK(fabs(o[0] - 5.0 / 3) < 1e-15);
	CHECK(fabs(o[1] - 8.0 / 3) < 1e-15);
}

/* The same in f16 storage, second head, scale 2: scores 2 and 0,
 * weights 1 and 1/4: o = ((1, 2) + (3, 4) / 4) / 1.25 = (1.4, 2.4). */
static void
halves(void)
{
	uint16_t q[4], k[8], v[8];
	static const float qf[4] = { 9, 9, 1, 0 };
	static const float kf[8] = { 9, 9, 9, 9, 1, 0, 0, 1 };
	static const float vf[8] = { 9, 9, 9, 9, 1, 2, 3, 4 };
	static const Vtype t[3] = { Vf16, Vf16, Vf16 };
	double o[2], s[2];
	int i;

	for (i = 0; i < 8; i++) {
		if (i < 4)
			q[i] = vf2h(qf[i]);
		k[i] = vf2h(kf[i]);
		v[i] = vf2h(vf[i]);
	}
	vrefrow(o, s, t, q, k, v, 2, 2, 1, 2, 2.0);
	CHECK(fabs(o[0] - 1.4) < 1e-15);
	CHECK(fabs(o[1] - 2.4) < 1e-15);
}

/* Large scores must not overflow: the max is subtracted first. */
static void
stable(void)
{
	static const float q[1] = { 1000 }, k[2] = { 1000, 999 };
	static const float v[2] = { 1, 0 };
	static const Vtype t[3] = { Vf32, Vf32, Vf32 };
	double o[1], s[2];

	vrefrow(o, s, t, q, k, v, 2, 1, 0, 0, 1.0);
	/* scores 1e6 and 999000: the second weighs 2^-1000 */
	CHECK(fabs(o[0] - 1.0) < 1e-15);
}

int
main(void)
{
	conversions();
	byhand();
	halves();
	stable();
	if (!fails)
		printf("reftest: all passed\n");
	return fails != 0;
}
