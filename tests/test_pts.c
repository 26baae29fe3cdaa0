/* SPDX-License-Identifier: MIT */
/* Tests of iogauge pts's steady-state rule (pts/steady.c) on synthetic
 * windows whose answers are worked out by hand: stable, drifting, noisy,
 * each limit just met and just missed, and the degenerate ones; and of
 * what the three tests share (run.c, report.c): the tracked value each
 * test reads, the window's means and maximums, the decision. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pts/pts.h"

#define N(a) (unsigned)(sizeof(a) / sizeof((a)[0]))

static bool judge(const double *y, unsigned n, struct pts_steady *s)
{
	return pts_steady_judge(y, n, 20, 10, s);
}

static void test_stable(void **state)
{
	const double y[] = { 1000, 1010, 990, 1005, 995 };
	struct pts_steady s;

	(void)state;
	assert_true(judge(y, N(y), &s));
	assert_true(fabs(s.avg - 1000) < 1e-9);
	assert_true(fabs(s.range - 20) < 1e-9);
	assert_true(fabs(s.range_pct - 2) < 1e-9);
	/* x 0..4, y - 1000 = 0, 10, -10, 5, -5: sum xy = 0+10-20+15-20 = -15,
	 * sum (x-2)^2 = 10: slope -1.5, excursion 6 (0.6%). */
	assert_true(fabs(s.slope + 1.5) < 1e-9);
	assert_true(fabs(s.excursion - 6) < 1e-9);
	assert_true(fabs(s.excursion_pct - 0.6) < 1e-9);
}

static void test_drifting(void **state)
{
	/* 3% a round: range 12% of 1060 (within 20%), but the line rises 120,
	 * 11.3% of the average: not steady on the slope alone. */
	const double y[] = { 1000, 1030, 1060, 1090, 1120 };
	struct pts_steady s;

	(void)state;
	assert_false(judge(y, N(y), &s));
	assert_true(fabs(s.avg - 1060) < 1e-9);
	assert_true(s.range_pct <= 20);
	assert_true(fabs(s.slope - 30) < 1e-9);
	assert_true(fabs(s.excursion - 120) < 1e-9);
	assert_true(s.excursion_pct > 10);
	/* 2% a round: the line rises 80 of 1040, 7.7%: steady. */
	{
		const double y2[] = { 1000, 1020, 1040, 1060, 1080 };

		assert_true(judge(y2, N(y2), &s));
		assert_true(fabs(s.excursion - 80) < 1e-9);
	}
	/* Falling counts the same as rising. */
	{
		const double y3[] = { 1120, 1090, 1060, 1030, 1000 };

		assert_false(judge(y3, N(y3), &s));
		assert_true(fabs(s.slope + 30) < 1e-9);
	}
}

static void test_noisy(void **state)
{
	/* No trend (slope 0: symmetric), but a range of 300 of 1000: 30%. */
	const double y[] = { 1000, 1150, 850, 850, 1150 };
	const double y2[] = { 1000, 850, 1150, 1150, 850 };
	struct pts_steady s;

	(void)state;
	assert_false(judge(y, N(y), &s));
	assert_true(fabs(s.range_pct - 30) < 1e-9);
	assert_true(fabs(s.slope) < 1e-9);
	assert_false(judge(y2, N(y2), &s));
}

static void test_limits(void **state)
{
	/* A range of exactly 20% of the average is within it. */
	const double at[] = { 900, 1100, 1000, 1000, 1000 };
	const double past[] = { 899, 1101, 1000, 1000, 1000 };
	struct pts_steady s;

	(void)state;
	/* slope: sum (x-2)(y-1000) = -2*-100 + -1*100 = 100, /10 = 10: 4% */
	assert_true(judge(at, N(at), &s));
	assert_true(fabs(s.range_pct - 20) < 1e-9);
	assert_true(fabs(s.excursion - 40) < 1e-9);
	assert_false(judge(past, N(past), &s));
	/* Tighter limits given: the same stable window fails at 1%. */
	{
		const double y[] = { 1000, 1010, 990, 1005, 995 };

		assert_false(pts_steady_judge(y, N(y), 1, 10, &s));
		assert_true(pts_steady_judge(y, N(y), 2, 10, &s));
		assert_false(pts_steady_judge(y, N(y), 20, 0.5, &s));
	}
}

static void test_degenerate(void **state)
{
	const double zeros[] = { 0, 0, 0, 0, 0 };
	const double one[] = { 1000 };
	struct pts_steady s;

	(void)state;
	assert_false(judge(zeros, N(zeros), &s)); /* a device that did nothing */
	assert_false(judge(one, N(one), &s));
	assert_false(judge(one, 0, &s));
	assert_true(s.avg == 0);
}

/* A plan of 2 mixes (100/0, 0/100) by 2 sizes (8k, 4k) and a part of 6
 * rounds whose cells hold their round, mix and size in every figure. */
static struct pts_cell cells[6 * 2 * 2];

static void fill(struct pts_plan *p, struct pts_part *pt, enum pts_test t)
{
	unsigned r, m, b;

	*p = (struct pts_plan){ .test = t,
				.mixes = { 100, 0 },
				.nmixes = 2,
				.bs = { 8192, 4096 },
				.nbs = 2,
				.tracked_mix = 1,
				.tracked_bs = 1,
				.max_rounds = 6 };
	*pt = (struct pts_part){ .nbs = 2, .cells = cells, .rounds = 6, .window_first = 1 };
	for (r = 0; r < 6; r++)
		for (m = 0; m < 2; m++)
			for (b = 0; b < 2; b++) {
				double v = 100 * (r + 1) + 10 * m + b;

				cells[(r * 2 + m) * 2 + b] = (struct pts_cell){
					.iops = v, .bw = 2 * v, .mean = 3 * v, .max = 4 * v
				};
			}
}

static double iops_of(const struct pts_cell *c)
{
	return c->iops;
}

static double max_of(const struct pts_cell *c)
{
	return c->max;
}

/* Each test tracks its own figure of its own cell. */
static void test_tracked(void **state)
{
	struct pts_plan p;
	struct pts_part pt;

	(void)state;
	fill(&p, &pt, PTS_IOPS);
	assert_true(pts_tracked(&p, &pt, 2) == 311); /* round 3, 0/100, 4k: IOPS */
	fill(&p, &pt, PTS_LATENCY);
	assert_true(pts_tracked(&p, &pt, 2) == 3 * 311); /* its mean latency */
	/* A throughput part has one size, the second here. */
	fill(&p, &pt, PTS_THROUGHPUT);
	pt.bs_first = 1;
	pt.nbs = 1;
	for (unsigned r = 0; r < 6; r++)
		for (unsigned m = 0; m < 2; m++)
			cells[r * 2 + m] = (struct pts_cell){ .bw = 1000 * (r + 1) + m };
	assert_true(pts_tracked(&p, &pt, 2) == 3001); /* round 3, 0/100: bandwidth */
}

/* The window's tables: the mean of rounds 2-6, or the largest. */
static void test_window(void **state)
{
	struct pts_plan p;
	struct pts_part pt;

	(void)state;
	fill(&p, &pt, PTS_LATENCY);
	assert_true(fabs(pts_window_max(&p, &pt, 0, 1, max_of) - 4 * 601) < 1e-9);
	pt.window_first = 4; /* rounds 5 and 6: max 4 x (500 + 10 + 0) and 4 x 610 */
	assert_true(fabs(pts_window_max(&p, &pt, 1, 0, max_of) - 4 * 610) < 1e-9);
	pt.window_first = 1;
	/* IOPS of 0/100 8k over rounds 2-6: 210, 310, ... 610. */
	assert_true(fabs(pts_window_mean(&p, &pt, 1, 0, iops_of) - 410) < 1e-9);
	assert_string_equal(pts_decision(&p, &pt, false), "not reached");
	assert_string_equal(pts_decision(&p, &pt, true), "not reached (stopped)");
	pt.rounds = 3;
	assert_string_equal(pts_decision(&p, &pt, false), "not reached (the run failed)");
	pt.ss.steady = true;
	assert_string_equal(pts_decision(&p, &pt, false), "reached");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stable),	   cmocka_unit_test(test_drifting),
		cmocka_unit_test(test_noisy),	   cmocka_unit_test(test_limits),
		cmocka_unit_test(test_degenerate), cmocka_unit_test(test_tracked),
		cmocka_unit_test(test_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
