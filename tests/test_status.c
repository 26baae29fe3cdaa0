/* SPDX-License-Identifier: MIT */
/*
 * The status reports' pieces on their own: a worker's stats through the
 * fixed-size snapshot and back (every bucket, the per-priority lists,
 * nothing of the worker's pointers kept), and the status line's numbers
 * as fio 3.33's num2str writes them in each unit_base and kb_base.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/report.h"
#include "stats/snapshot.h"

static void assert_hist_same(const struct hist *a, const struct hist *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sum_sq == b->sum_sq);
	if (!a->count)
		return;
	assert_non_null(b->bucket);
	assert_ptr_not_equal(a->bucket, b->bucket);
	assert_memory_equal(a->bucket, b->bucket, HIST_NR * sizeof(uint64_t));
	assert_int_equal(hist_percentile(a, 99.9), hist_percentile(b, 99.9));
}

static void test_snapshot(void **state)
{
	static const uint64_t ns[] = {
		900, 15000, 15100, 2000000, 47000000000ull, 1ull << 43
	};			     /* the last past the last bucket */
	const uint16_t hi = 1 << 13; /* realtime, level 0 */
	struct stats_snap *snap = calloc(1, sizeof(*snap));
	struct run_stats s, d;
	unsigned i;

	(void)state;
	assert_non_null(snap);
	stats_init(&s);
	stats_init(&d);
	stats_prepare(&s, STAT_READ, STATS_H_CLAT | STATS_H_LAT);
	stats_prepare(&s, STAT_WRITE, STATS_H_CLAT);
	s.dir[STAT_READ].prio = prio_stats_new(0, &hi, 1);
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		stats_record(&s.dir[STAT_READ], UINT64_MAX, ns[i], ns[i] + 100, 4096);
		prio_stats_record(s.dir[STAT_READ].prio, i & 1 ? hi : 0, ns[i]);
	}
	stats_record(&s.dir[STAT_WRITE], UINT64_MAX, 5000, UINT64_MAX, 512);
	s.elapsed = 123456789;
	s.ru.ctx = 42;

	/* Twice: the second reuses the buckets the first made. */
	for (i = 0; i < 2; i++) {
		stats_snap_put(snap, &s);
		stats_snap_get(&d, snap);
		assert_int_equal(d.dir[STAT_READ].ios, 6);
		assert_int_equal(d.dir[STAT_READ].bytes, 6 * 4096);
		assert_int_equal(d.dir[STAT_WRITE].ios, 1);
		assert_int_equal(d.elapsed, 123456789);
		assert_int_equal(d.ru.ctx, 42);
		assert_memory_equal(d.dir[STAT_READ].lat_bins, s.dir[STAT_READ].lat_bins,
				    sizeof(s.dir[STAT_READ].lat_bins));
		assert_hist_same(&s.dir[STAT_READ].clat, &d.dir[STAT_READ].clat);
		assert_hist_same(&s.dir[STAT_READ].lat, &d.dir[STAT_READ].lat);
		assert_hist_same(&s.dir[STAT_WRITE].clat, &d.dir[STAT_WRITE].clat);
		assert_int_equal(d.dir[STAT_READ].slat.count, 0);
		/* The priorities: a list of the reader's own. */
		assert_non_null(d.dir[STAT_READ].prio);
		assert_ptr_not_equal(d.dir[STAT_READ].prio, s.dir[STAT_READ].prio);
		assert_int_equal(d.dir[STAT_READ].prio->nr, 2);
		assert_int_equal(d.dir[STAT_READ].prio->ioprio[1], hi);
		assert_hist_same(&s.dir[STAT_READ].prio->h[0], &d.dir[STAT_READ].prio->h[0]);
		assert_hist_same(&s.dir[STAT_READ].prio->h[1], &d.dir[STAT_READ].prio->h[1]);
		assert_null(d.dir[STAT_WRITE].prio);
	}
	/* An empty worker's: nothing, and the old buckets emptied. */
	stats_free(&s);
	stats_snap_put(snap, &s);
	stats_snap_get(&d, snap);
	assert_int_equal(d.dir[STAT_READ].ios, 0);
	assert_int_equal(d.dir[STAT_READ].clat.count, 0);
	assert_null(d.dir[STAT_READ].prio);
	stats_free(&d);
	free(snap);
}

/* The status line for @bytes and @ios in one second. */
static char *line(uint64_t bytes, uint64_t ios, unsigned units)
{
	struct run_status st = { .total = 1, .running = 1, .elapsed = 1000000000ull };
	struct strbuf sb = { 0 };

	st.bytes[0] = bytes;
	st.ios[0] = ios;
	report_status(&st, NULL, units, &sb);
	return sb.buf;
}

static void test_status_line(void **state)
{
	/* What fio 3.33's num2str(n, 4, ...) makes of the same numbers. */
	static const struct {
		uint64_t bytes, ios;
		unsigned units;
		const char *rate, *iops;
	} cases[] = {
		{ 1600 * 1024, 7152, 0, "[r=1600KiB/s,", "[r=7152," },
		{ 1600 * 1024, 14600, REPORT_UNITS_BITS, "[r=12.5Mibit/s,", "[r=14.6k," },
		{ 1638400, 99999, REPORT_UNITS_SI, "[r=1638kB/s,", "[r=100.0k," },
		{ 1638400, 3608123, REPORT_UNITS_SI | REPORT_UNITS_BITS, "[r=13.1Mbit/s,",
		  "[r=3608k," },
		{ 1234567ull * 1024, 0, 0, "[r=1206MiB/s,", "[r=0," },
		{ 0, 0, 0, "[r=0KiB/s,w=0KiB/s]", "[r=0,w=0 IOPS]" },
		{ 14470000ull * 1024, 999, 0, "[r=13.8GiB/s,", "[r=999," },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = line(cases[i].bytes, cases[i].ios, cases[i].units);

		if (!strstr(s, cases[i].rate) || !strstr(s, cases[i].iops))
			fail_msg("case %u: %s: want %s and %s", i, s, cases[i].rate, cases[i].iops);
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_status_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
