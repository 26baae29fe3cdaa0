/* SPDX-License-Identifier: MIT */
/* Tests of iogauge sweep's pure parts: the knee and crossover rules
 * (sweep/knee.c) on synthetic curves whose answers are known, the axes'
 * lists and ranges (sweep/axis.c), the repeats' interval and slo's
 * latency targets (sweep/target.c). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sweep/knee.h"
#include "sweep/slo.h"
#include "sweep/sweep.h"

#define N(a) (unsigned)(sizeof(a) / sizeof((a)[0]))

static int knee(const double *iops, const double *lat, unsigned n)
{
	return sweep_knee(iops, lat, n, 10, 20);
}

static void test_knee_hockey_stick(void **state)
{
	/* A device of 2000 IOPS and 2 ms a read: depth 1, 2, 4, 8, 16. */
	static const double iops[] = { 500, 1000, 2000, 2000, 2000 };
	static const double lat[] = { 2e6, 2e6, 2e6, 4e6, 8e6 };
	/* Slightly noisy near the top still bends at depth 4. */
	static const double iops2[] = { 480, 990, 1940, 2010, 1995, 2003 };
	static const double lat2[] = { 2.1e6, 2.0e6, 2.2e6, 4.1e6, 7.9e6, 16e6 };

	(void)state;
	assert_int_equal(knee(iops, lat, N(iops)), 2);
	assert_int_equal(knee(iops2, lat2, N(iops2)), 2);
}

static void test_knee_saturated_at_once(void **state)
{
	/* Flat IOPS from the first point while latency doubles: point 0. */
	static const double iops[] = { 2000, 2010, 1995, 2000 };
	static const double lat[] = { 0.5e6, 1e6, 2e6, 4e6 };

	(void)state;
	assert_int_equal(knee(iops, lat, N(iops)), 0);
}

static void test_knee_none(void **state)
{
	/* Flat: nothing changes. */
	static const double flat_iops[] = { 1000, 1000, 1000, 1000, 1000 };
	static const double flat_lat[] = { 1e6, 1e6, 1e6, 1e6, 1e6 };
	/* Monotone: IOPS double each step, latency flat or growing slowly. */
	static const double mono_iops[] = { 100, 200, 400, 800, 1600, 3200 };
	static const double mono_lat[] = { 1e5, 1e5, 1.1e5, 1.2e5, 1.3e5, 1.4e5 };
	/* Diminishing gains that stay above 10%, latency up 30% a step. */
	static const double dim_iops[] = { 1000, 1500, 1800, 2000, 2200 };
	static const double dim_lat[] = { 1e5, 1.3e5, 1.7e5, 2.2e5, 2.9e5 };
	/* Noise around a flat device: +-4% IOPS, +-8% latency. */
	static const double noisy_iops[] = { 1000, 1040, 985, 1010, 962, 1003, 1030, 990 };
	static const double noisy_lat[] = {
		1e6, 1.08e6, 0.95e6, 1.02e6, 0.93e6, 1.0e6, 1.07e6, 1e6
	};
	/* A bend that was noise: the IOPS rise again after it. */
	static const double again_iops[] = { 100, 200, 205, 400, 800 };
	static const double again_lat[] = { 1e5, 1e5, 2e5, 1e5, 1e5 };

	(void)state;
	assert_int_equal(knee(flat_iops, flat_lat, N(flat_iops)), -1);
	assert_int_equal(knee(mono_iops, mono_lat, N(mono_iops)), -1);
	assert_int_equal(knee(dim_iops, dim_lat, N(dim_iops)), -1);
	assert_int_equal(knee(noisy_iops, noisy_lat, N(noisy_iops)), -1);
	assert_int_equal(knee(again_iops, again_lat, N(again_iops)), -1);
	assert_int_equal(knee(flat_iops, flat_lat, 1), -1);
	assert_int_equal(knee(flat_iops, flat_lat, 0), -1);
}

static void test_knee_margins(void **state)
{
	/* IOPS +8%, p99 +25%: bent under 10/20, not under 5/20 or 10/30. */
	static const double iops[] = { 1000, 2000, 2160 };
	static const double lat[] = { 1e6, 1e6, 1.25e6 };
	/* A start at 0 IOPS counts as a rise. */
	static const double zero_iops[] = { 0, 100, 100 };
	static const double zero_lat[] = { 0, 1e6, 3e6 };

	(void)state;
	assert_int_equal(sweep_knee(iops, lat, 3, 10, 20), 1);
	assert_int_equal(sweep_knee(iops, lat, 3, 5, 20), -1);
	assert_int_equal(sweep_knee(iops, lat, 3, 10, 30), -1);
	assert_int_equal(knee(zero_iops, zero_lat, 3), 1);
}

static void test_crossover(void **state)
{
	/* bs 4k..512k x2 on a device of 10000 IOPS and 640 MB/s: bandwidth
	 * doubles to 64k (10000 x 64k = 655 MB/s), then stays. */
	static const double bw[] = { 41e6, 82e6, 164e6, 328e6, 640e6, 650e6, 655e6, 652e6 };
	/* Monotone: never bandwidth-bound within the sweep. */
	static const double mono[] = { 10e6, 20e6, 40e6, 80e6, 160e6 };
	/* Flat: bandwidth-bound from the first step. */
	static const double flat[] = { 500e6, 505e6, 498e6, 502e6 };
	/* Noisy but rising: a pause, then it grows again. */
	static const double noisy[] = { 10e6, 20e6, 21e6, 40e6, 80e6 };

	(void)state;
	assert_int_equal(sweep_crossover(bw, N(bw), 10), 4);
	assert_int_equal(sweep_crossover(mono, N(mono), 10), -1);
	assert_int_equal(sweep_crossover(flat, N(flat), 10), -1);
	assert_int_equal(sweep_crossover(noisy, N(noisy), 10), -1);
	assert_int_equal(sweep_crossover(bw, 1, 10), -1);
}

static void axis_is(const char *spec, const char *const *want, unsigned n)
{
	struct sweep_axis a;
	char *cause = NULL;
	unsigned i;

	assert_int_equal(sweep_axis_parse(&a, "x", spec, &cause), 0);
	assert_int_equal(a.n, n);
	for (i = 0; i < n; i++)
		assert_string_equal(a.vals[i], want[i]);
	sweep_axis_free(&a);
}

static void test_axis(void **state)
{
	static const char *const depth[] = { "1", "2", "4", "8", "16", "32", "64", "128", "256" };
	static const char *const bs[] = { "4k", "16k", "64k", "256k", "1m" };
	static const char *const step[] = { "1", "4", "7", "10" };
	static const char *const mixed[] = { "512", "4k", "8k", "read", "70" };
	static const char *const bad[] = { "",	     "1,,2",   "16..1x2", "1..8x1", "1..8x",
					   "1..8+0", "0..8x2", "a..8x2",  "1,",	    "1..1000000" };
	struct sweep_axis a;
	char *cause = NULL;
	unsigned i;

	(void)state;
	axis_is("1..256x2", depth, N(depth));
	axis_is("4k..1mx4", bs, N(bs));
	axis_is("1..10+3", step, N(step));
	axis_is("512,4k..8kx2,read,70", mixed, N(mixed));
	/* Sizes are numbers in bytes; a value that is not a number makes
	 * the axis categorical. */
	assert_int_equal(sweep_axis_parse(&a, "bs", "4k,1m", &cause), 0);
	assert_true(a.numeric && a.x[0] == 4096 && a.x[1] == 1048576);
	sweep_axis_free(&a);
	assert_int_equal(sweep_axis_parse(&a, "rw", "read,randread", &cause), 0);
	assert_true(!a.numeric && a.x[0] == 0 && a.x[1] == 1);
	sweep_axis_free(&a);
	for (i = 0; i < N(bad); i++) {
		assert_int_equal(sweep_axis_parse(&a, "iodepth", bad[i], &cause), -EINVAL);
		assert_non_null(strstr(cause, "--iodepth"));
		free(cause);
		cause = NULL;
	}
}

static void test_mean_ci(void **state)
{
	static const double v[] = { 1, 2, 3 };
	double mean, half;

	(void)state;
	sweep_mean_ci(v, 3, &mean, &half);
	/* t(2) = 4.303, sd 1, sqrt(3). */
	assert_true(fabs(mean - 2) < 1e-12);
	assert_true(fabs(half - 4.303 / sqrt(3.0)) < 1e-3);
	sweep_mean_ci(v, 1, &mean, &half);
	assert_true(mean == 1 && half == 0);
}

static void test_targets(void **state)
{
	static const char *const bad[] = {
		"p101<2ms", "p0<=1ms",	"p100<1s", "99<=2ms", "p99",
		"p99<=",    "p99<=abc", "p99<0",   "pxx<1ms", "p-1<1ms"
	};
	struct slo_target t;
	char *cause = NULL;
	unsigned i;

	(void)state;
	assert_int_equal(slo_target_parse("p99<=2ms", &t, &cause), 0);
	assert_true(t.pct == 99 && t.ns == 2e6 && !t.strict);
	assert_true(slo_target_met(&t, 2e6) && !slo_target_met(&t, 2e6 + 1));
	assert_int_equal(slo_target_parse("p99.9<500us", &t, &cause), 0);
	assert_true(t.pct == 99.9 && t.ns == 5e5 && t.strict);
	assert_true(!slo_target_met(&t, 5e5) && slo_target_met(&t, 4.99e5));
	/* A bare number is in microseconds. */
	assert_int_equal(slo_target_parse("p50<=250", &t, &cause), 0);
	assert_true(t.ns == 250e3);
	for (i = 0; i < N(bad); i++) {
		assert_int_equal(slo_target_parse(bad[i], &t, &cause), -EINVAL);
		assert_non_null(strstr(cause, bad[i]));
		free(cause);
		cause = NULL;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knee_hockey_stick),
		cmocka_unit_test(test_knee_saturated_at_once),
		cmocka_unit_test(test_knee_none),
		cmocka_unit_test(test_knee_margins),
		cmocka_unit_test(test_crossover),
		cmocka_unit_test(test_axis),
		cmocka_unit_test(test_mean_ci),
		cmocka_unit_test(test_targets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
