/* SPDX-License-Identifier: MIT */
/*
 * stats/steady.c: the steady-state judgement over windows of samples
 * whose deviation and slope are worked out by hand, and fio 3.33's own
 * figures for a window it reported (iops:5%, samples 2001, 2002, 2001:
 * max_deviation 0.666667, criterion 0.033311%).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/steady.h"

static void feed(struct steady *s, const uint64_t *iops, unsigned n, bool *last)
{
	unsigned i;

	for (i = 0; i < n; i++)
		*last = steady_add(s, iops[i], iops[i] * 4096);
}

static void test_deviation(void **state)
{
	struct steady_spec spec = { .kind = STEADY_IOPS, .limit = 5, .pct = true };
	static const uint64_t v[] = { 2001, 2002, 2001 };
	struct steady s;
	uint64_t io, bw;
	bool held = false;

	(void)state;
	steady_init(&s, &spec, 3);
	assert_false(steady_add(&s, v[0], 0)); /* not full yet */
	steady_sample(&s, 0, &io, &bw);
	assert_int_equal(io, 2001);
	steady_sample(&s, 2, &io, &bw);
	assert_int_equal(io, 0); /* not filled: 0, as fio reports it */
	feed(&s, v + 1, 2, &held);
	assert_true(held && s.attained);
	assert_true(fabs(s.deviation - 0.666667) < 1e-5);
	assert_true(fabs(s.criterion - 0.033311) < 1e-5);
	assert_int_equal(steady_iops_mean(&s), 2001);
	steady_free(&s);
}

static void test_slope(void **state)
{
	struct steady_spec pct = { .kind = STEADY_BW_SLOPE, .limit = 60, .pct = true };
	struct steady_spec abs = { .kind = STEADY_IOPS_SLOPE, .limit = 1, .pct = false };
	static const uint64_t rising[] = { 100, 1, 2, 3 };
	struct steady s;
	uint64_t io, bw;
	bool held = false;

	(void)state;
	/* 1, 2, 3 after a sample that has left the window: slope 1 per
	 * second, 50% of the mean 2. */
	steady_init(&s, &pct, 3);
	feed(&s, rising, 4, &held);
	assert_true(held);
	assert_true(fabs(s.slope - 4096) < 1e-6);
	assert_true(fabs(s.criterion - 50) < 1e-9);
	steady_sample(&s, 0, &io, &bw);
	assert_int_equal(io, 1); /* oldest first */
	steady_free(&s);
	/* Absolute: slope 1 is not below 1; a falling one counts by its size. */
	steady_init(&s, &abs, 3);
	feed(&s, rising, 4, &held);
	assert_false(held);
	steady_free(&s);
	{
		static const uint64_t falling[] = { 10, 9, 8, 8, 8 };

		steady_init(&s, &abs, 3);
		feed(&s, falling, 3, &held);
		assert_false(held); /* slope -1 */
		feed(&s, falling + 3, 2, &held);
		assert_true(held); /* 8, 8, 8 */
		steady_free(&s);
	}
}

static void test_zeros(void **state)
{
	struct steady_spec spec = { .kind = STEADY_IOPS, .limit = 10, .pct = true };
	static const uint64_t z[] = { 0, 0 };
	struct steady s;
	bool held = true;

	(void)state;
	/* A window of no I/O: its percentage is 0/0, which fio 3.33 takes as
	 * held (its job ends there). */
	steady_init(&s, &spec, 2);
	feed(&s, z, 2, &held);
	assert_true(held);
	steady_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deviation),
		cmocka_unit_test(test_slope),
		cmocka_unit_test(test_zeros),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
