/* SPDX-License-Identifier: MIT */
/*
 * SQLIO's -U table: /proc/stat and /proc/interrupts read from fixtures and
 * from this machine, the Linux-to-Windows mapping, and the layout byte for
 * byte against SQLIO's own output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/sysutil.h"

static char *data(const char *sub)
{
	const char *root = getenv("IOGAUGE_TESTDATA");

	return xasprintf("%s/sysutil/%s", root ? root : "tests/data", sub);
}

static void must_read(struct sysutil_snap *s, const char *sub)
{
	char *dir = data(sub), *cause = NULL;

	if (sysutil_snap_read(s, dir, &cause))
		fail_msg("%s: %s", dir, cause);
	free(dir);
}

/* SQLIO v1.5.SG's -Up output (shared/reference/peers.md §1.3). */
static void test_layout_is_sqlios(void **state)
{
	static const double v[SYSUTIL_ROWS][5] = {
		{ 22.30, 24.06, 21.87, 19.79, 23.48 },
		{ 30.19, 28.64, 30.78, 31.87, 29.47 },
		{ 95.35, 95.05, 94.94, 95.93, 95.46 },
		{ 98.99, 98.90, 98.64, 99.27, 99.16 },
		{ 3.64, 3.85, 3.69, 3.33, 3.69 },
		{ 11608.76, 2898.03, 2917.36, 2917.26, 2876.10 },
	};
	static const char want[] =
		"ProcessorNumber:         ALL        0        1        2        3\n"
		"DPCTime(%):             22.30    24.06    21.87    19.79    23.48\n"
		"InterruptTime(%):       30.19    28.64    30.78    31.87    29.47\n"
		"PrivilegedTime(%):      95.35    95.05    94.94    95.93    95.46\n"
		"ProcessorTime(%):       98.99    98.90    98.64    99.27    99.16\n"
		"UserTime(%):             3.64     3.85     3.69     3.33     3.69\n"
		"Interrupts/sec:      11608.76  2898.03  2917.36  2917.26  2876.10\n";
	struct strbuf sb = { 0 };

	(void)state;
	sysutil_table(&v[0][0], 5, 5, &sb);
	assert_string_equal(sb.buf, want);
	strbuf_free(&sb);
	/* -U: the ALL column only. */
	sysutil_table(&v[0][0], 1, 5, &sb);
	assert_string_equal(sb.buf, "ProcessorNumber:         ALL\n"
				    "DPCTime(%):             22.30\n"
				    "InterruptTime(%):       30.19\n"
				    "PrivilegedTime(%):      95.35\n"
				    "ProcessorTime(%):       98.99\n"
				    "UserTime(%):             3.64\n"
				    "Interrupts/sec:      11608.76\n");
	strbuf_free(&sb);
}

/* The fixtures' ALL deltas are SQLIO's sample: softirq 2230, irq 3019,
 * system 4286, user 364, idle 101 of 10000 jiffies; 1160876 interrupts in
 * 100 s.  CPU0: 1000+10000 more interrupts; CPU1 did nothing. */
static void test_fixture_mapping(void **state)
{
	struct sysutil_snap a, b;
	struct strbuf sb = { 0 };
	double *v;

	(void)state;
	must_read(&a, "a");
	must_read(&b, "b");
	assert_int_equal(a.nr_cpus, 2);
	assert_int_equal(a.all.intr, 5000);
	assert_int_equal(a.cpu[0].intr, 44 + 100 + 0 + 1000);
	assert_int_equal(a.cpu[1].intr, 0 + 200 + 0 + 2000);
	assert_int_equal(b.cpu[0].intr, 44 + 1100 + 0 + 11000);
	v = sysutil_table_of(&a, &b, 100.0);
	sysutil_table(v, 3, 3, &sb);
	/* CPU0: user 100 system 1000 idle 950 iowait 50 softirq 500 steal 50
	 * of 2650: steal and iowait are not processor time. */
	assert_string_equal(sb.buf, "ProcessorNumber:         ALL        0        1\n"
				    "DPCTime(%):             22.30    18.87     0.00\n"
				    "InterruptTime(%):       30.19     0.00     0.00\n"
				    "PrivilegedTime(%):      95.35    56.60     0.00\n"
				    "ProcessorTime(%):       98.99    60.38     0.00\n"
				    "UserTime(%):             3.64     3.77     0.00\n"
				    "Interrupts/sec:      11608.76   110.00     0.00\n");
	/* No time passed: zeros, not a division by zero. */
	free(v);
	strbuf_free(&sb);
	v = sysutil_table_of(&a, &a, 0);
	sysutil_table(v, 3, 3, &sb);
	assert_non_null(strstr(sb.buf, "ProcessorTime(%):        0.00     0.00     0.00\n"));
	assert_non_null(strstr(sb.buf, "Interrupts/sec:          0.00     0.00     0.00\n"));
	free(v);
	strbuf_free(&sb);
	sysutil_snap_free(&a);
	sysutil_snap_free(&b);
}

static void test_errors_name_the_file(void **state)
{
	struct sysutil_snap s;
	char *dir = data("nope"), *cause = NULL;

	(void)state;
	assert_true(sysutil_snap_read(&s, dir, &cause) < 0);
	assert_non_null(strstr(cause, "sysutil/nope/stat: No such file"));
	free(cause);
	free(dir);
	dir = data("bad");
	cause = NULL;
	assert_int_equal(sysutil_snap_read(&s, dir, &cause), -22);
	assert_non_null(strstr(cause, "sysutil/bad/stat:2: not in the format"));
	free(cause);
	free(dir);
}

/* This machine: a column per cpuN line, every percentage 0..100. */
static void test_this_machine(void **state)
{
	struct sysutil_snap a, b;
	struct timespec ts = { 0, 200000000 };
	char *cause = NULL;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned r, k;
	double *v;

	(void)state;
	if (sysutil_snap_read(&a, "/proc", &cause))
		fail_msg("/proc: %s", cause);
	nanosleep(&ts, NULL);
	if (sysutil_snap_read(&b, "/proc", &cause))
		fail_msg("/proc: %s", cause);
	assert_int_equal(a.nr_cpus, n);
	v = sysutil_table_of(&a, &b, 0.2);
	for (r = 0; r + 1 < SYSUTIL_ROWS; r++)
		for (k = 0; k <= a.nr_cpus; k++)
			assert_true(v[r * (a.nr_cpus + 1) + k] >= 0 &&
				    v[r * (a.nr_cpus + 1) + k] <= 100.0001);
	/* Time passed on every processor: some of it is idle or busy. */
	for (k = 0; k <= a.nr_cpus; k++)
		assert_true(v[3 * (a.nr_cpus + 1) + k] < 100.0001);
	assert_true(b.all.intr > a.all.intr);
	free(v);
	sysutil_snap_free(&a);
	sysutil_snap_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_is_sqlios),
		cmocka_unit_test(test_fixture_mapping),
		cmocka_unit_test(test_errors_name_the_file),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
