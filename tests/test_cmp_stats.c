/* SPDX-License-Identifier: MIT */
/* Tests of iogauge compare's statistics (compare/cmp_stats.c) on inputs
 * whose answers are known in closed form. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "compare/cmp_stats.h"

static void test_t975(void **state)
{
	(void)state;
	assert_true(fabs(cmp_t975(1) - 12.706) < 1e-9);
	assert_true(fabs(cmp_t975(10) - 2.228) < 1e-9);
	assert_true(fabs(cmp_t975(30) - 2.042) < 1e-9);
	/* Between whole degrees, and towards the normal's 1.96. */
	assert_true(cmp_t975(10.5) < 2.228 && cmp_t975(10.5) > 2.201);
	assert_true(fabs(cmp_t975(1e9) - 1.96) < 1e-3);
	assert_true(cmp_t975(60) > 1.96 && cmp_t975(60) < 2.042);
}

static void test_delta(void **state)
{
	double lo, hi;

	(void)state;
	/* No spread: the interval is the ratio itself. */
	assert_true(cmp_delta_ratio(100, 0, 10, 50, 0, 10, &lo, &hi));
	assert_true(fabs(lo - 0.5) < 1e-12 && fabs(hi - 0.5) < 1e-12);
	/* 10% spread, 100 samples each: se(log) = sqrt(2) * 0.1 / 10, df ~ 198. */
	assert_true(cmp_delta_ratio(100, 10, 100, 100, 10, 100, &lo, &hi));
	assert_true(fabs(log(hi) - cmp_t975(198) * sqrt(2.0) * 0.01) < 1e-3);
	assert_true(fabs(log(lo) + log(hi)) < 1e-12); /* symmetric on the log */
	/* Too few samples or no mean: none. */
	assert_false(cmp_delta_ratio(100, 1, 1, 100, 1, 10, &lo, &hi));
	assert_false(cmp_delta_ratio(0, 1, 10, 100, 1, 10, &lo, &hi));
}

static void test_boot(void **state)
{
	const double a[] = { 10, 10, 10 }, b[] = { 5, 5, 5, 5 };
	const double c[] = { 90, 100, 110 }, d[] = { 180, 200, 220 };
	double lo, hi, lo2, hi2;

	(void)state;
	assert_true(cmp_boot_ratio(a, 3, b, 4, &lo, &hi));
	assert_true(lo == 0.5 && hi == 0.5);
	/* Spread: the interval holds 2 and lies within the extremes' ratios;
	 * the seed is fixed, so the answer is too. */
	assert_true(cmp_boot_ratio(c, 3, d, 3, &lo, &hi));
	assert_true(lo < 2 && hi > 2 && lo >= 180.0 / 110 && hi <= 220.0 / 90);
	assert_true(cmp_boot_ratio(c, 3, d, 3, &lo2, &hi2));
	assert_true(lo == lo2 && hi == hi2);
	assert_false(cmp_boot_ratio(a, 1, b, 4, &lo, &hi));
}

static void test_pct_ci(void **state)
{
	struct cmp_bin bins[100];
	double lo, hi;
	unsigned i;

	(void)state;
	/* 100 values 1000..100000 ns, 100 samples each: n = 10000, the median's
	 * ranks are floor(5000 - 98) = 4902 (the 50th value, 50000) and
	 * ceil(5000 + 98) + 1 = 5099 (the 51st, 51000), then the bin error. */
	for (i = 0; i < 100; i++)
		bins[i] = (struct cmp_bin){ (i + 1) * 1000ull, 100 };
	assert_true(cmp_bins_pct_ci(bins, 100, 50, &lo, &hi));
	assert_true(fabs(lo - 50000 / (1 + CMP_BIN_ERR)) < 1e-6);
	assert_true(fabs(hi - 51000 * (1 + CMP_BIN_ERR)) < 1e-6);
	assert_true(cmp_bins_pct_ci(bins, 100, 99.9, &lo, &hi));
	assert_true(hi == 100000 * (1 + CMP_BIN_ERR)); /* capped at the largest */
	assert_false(cmp_bins_pct_ci(bins, 0, 50, &lo, &hi));
}

static void test_mw(void **state)
{
	const struct cmp_bin a[] = { { 10, 50 }, { 20, 50 } };
	const struct cmp_bin hi[] = { { 30, 40 }, { 40, 60 } };
	const struct cmp_bin mid[] = { { 20, 100 } };
	double auc, se;

	(void)state;
	/* The same: one half.  All of B above A: one. */
	assert_true(cmp_bins_mw(a, 2, a, 2, &auc, &se));
	assert_true(fabs(auc - 0.5) < 1e-12 && se > 0);
	assert_true(cmp_bins_mw(a, 2, hi, 2, &auc, &se));
	assert_true(fabs(auc - 1) < 1e-12);
	assert_true(cmp_bins_mw(hi, 2, a, 2, &auc, &se));
	assert_true(fabs(auc) < 1e-12);
	/* B all at 20: above A's 10s (half of A), tied with its 20s (half
	 * counts half): 0.5 + 0.25. */
	assert_true(cmp_bins_mw(a, 2, mid, 1, &auc, &se));
	assert_true(fabs(auc - 0.75) < 1e-12);
	/* The standard error with ties (every value here is a tie group):
	 * sqrt(n1 n2 / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1)))) / (n1 n2). */
	assert_true(cmp_bins_mw(a, 2, hi, 2, &auc, &se));
	{
		double ties =
			2 * (50.0 * 50 * 50 - 50) + (40.0 * 40 * 40 - 40) + (60.0 * 60 * 60 - 60);
		double want = sqrt(100.0 * 100 / 12 * (201 - ties / (200.0 * 199))) / (100.0 * 100);

		assert_true(fabs(se - want) < 1e-12);
	}
	assert_false(cmp_bins_mw(a, 0, hi, 2, &auc, &se));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t975), cmocka_unit_test(test_delta),
		cmocka_unit_test(test_boot), cmocka_unit_test(test_pct_ci),
		cmocka_unit_test(test_mw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
