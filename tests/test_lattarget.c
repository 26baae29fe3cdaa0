/* SPDX-License-Identifier: MIT */
/*
 * workload/lattarget.c: fio's depth search against a device whose windows
 * hold up to a depth: the depths it tries, the last window and the end;
 * latency_run; a window without I/O; an I/O over at depth 1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "workload/lattarget.h"

#define WIN 1000ull

/* Runs windows of 100 I/Os, all within the target when the depth is at
 * most @holds, else all over it; the depths tried into @tried.  The
 * act that ended it. */
static enum lat_target_act search(struct lat_target *lt, unsigned iodepth, unsigned holds,
				  double pct, bool run, unsigned *tried, unsigned *n, unsigned most)
{
	uint64_t now = 0, ios = 0;
	enum lat_target_act act = LT_NONE;
	unsigned i;

	lat_target_init(lt, iodepth, now, ios);
	*n = 0;
	while (*n < most) {
		tried[(*n)++] = lt->qd;
		for (i = 0; i < 100; i++) {
			ios++;
			if (lt->qd > holds && (act = lat_target_over(lt, pct)) != LT_NONE)
				break;
		}
		now += WIN;
		if (act == LT_NONE)
			act = lat_target_check(lt, now, ios, WIN, pct, run);
		if (act == LT_QUIESCE || act == LT_FINAL)
			lat_target_cycle(lt, now, ios);
		if (act == LT_DONE || act == LT_FATAL)
			return act;
		act = LT_NONE;
	}
	return act;
}

static void test_search(void **state)
{
	static const unsigned want[] = { 1, 2, 4, 8, 6, 5, 5 };
	struct lat_target lt;
	unsigned tried[64], n, i;

	(void)state;
	/* Up by doubling to 8, which fails; bisect 6 (fails), 5 (holds,
	 * unchanged): a last window at 5, then the end. */
	assert_int_equal(search(&lt, 32, 5, 90, false, tried, &n, 64), LT_DONE);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < n; i++)
		assert_int_equal(tried[i], want[i]);
	assert_int_equal(lt.qd, 5);
	/* Everything holds: up to iodepth, then its last window. */
	assert_int_equal(search(&lt, 8, 1000, 100, false, tried, &n, 64), LT_DONE);
	assert_int_equal(lt.qd, 8);
	assert_int_equal(n, 5); /* 1 2 4 8 8 */
	/* latency_run: never ends by itself. */
	assert_int_equal(search(&lt, 32, 5, 100, true, tried, &n, 40), LT_NONE);
	assert_int_equal(n, 40);
	/* Over the target at depth 1 with 100%: the job fails. */
	assert_int_equal(search(&lt, 32, 0, 100, false, tried, &n, 64), LT_FATAL);
}

static void test_empty_window(void **state)
{
	struct lat_target lt;

	(void)state;
	/* No I/O in a window: 0/0 never holds.  At depth 1 the answer is
	 * LT_FATAL, which the loop, as fio's lat_target_check, ignores: the
	 * window goes on. */
	lat_target_init(&lt, 16, 0, 0);
	assert_int_equal(lat_target_check(&lt, 10, 0, 5, 99, false), LT_FATAL);
	lat_target_init(&lt, 16, 0, 0);
	assert_int_equal(lat_target_check(&lt, 4, 0, 5, 99, false), LT_NONE); /* too soon */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_empty_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
