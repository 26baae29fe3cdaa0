/* SPDX-License-Identifier: MIT */
/*
 * mpi_logs_merge on its own (the MPI run is tests/cli/mpi_logs.py):
 * three ranks whose clones started 30 ms after and 40 ms before rank 0's.
 * Averaged iops entries land in rank 0's nearest window and add up, a
 * rank's last partial window goes to a window of its own; per-I/O entries
 * come in time order with their values, a time before rank 0's start is
 * 0; histogram lines of one window add their bins; the 500 ms stats
 * windows add up likewise; a rank with no result adds nothing; rank 0's
 * own logs are kept as its rank's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jobfile/job.h"
#include "mpi/logmerge.h"
#include "mpi/ranks.h"
#include "run/run.h"

#define MS 1000000ull
#define T0 (1000 * MS) /* rank 0's clone's log time 0, on its run clock */

static char prefix[] = "m"; /* the logs' name: the job takes a char * */

struct fixture {
	struct job job;
	struct run_result own, res[3];
	struct run run;
	struct rank_run ranks[4];
};

static void add(struct run_logs *lg, unsigned k, uint64_t t, uint64_t val)
{
	iolog_add(&lg->log[k], t, val, 0, 4096, 0);
}

static void add_hist(struct run_logs *lg, uint64_t t, uint64_t bin, uint64_t count)
{
	struct iolog_hist *h = calloc(1, sizeof(*h));

	h->t = t;
	h->bs = 4096;
	h->bins[bin] = count;
	if (lg->hist_tail)
		lg->hist_tail->next = h;
	else
		lg->hist_head = h;
	lg->hist_tail = h;
}

/* A stats window ending @t s after the clone's start, @iops and 4 KiB each. */
static void add_window(struct run_logs *lg, double t, double iops)
{
	struct iolog_window w = { t, { 4 * iops, 0, 0 }, { iops, 0, 0 } };

	iolog_add_window(lg, &w);
}

/* Rank q's clone: its log time 0 @shift_ms after rank 0's. */
static struct run_logs *rank_logs(struct fixture *f, unsigned q, int shift_ms)
{
	struct run_result *r = q ? &f->res[q - 1] : &f->own;

	r->job = &f->job;
	r->logs = calloc(1, sizeof(*r->logs));
	r->t_start = (uint64_t)((int64_t)T0 + shift_ms * (int64_t)MS);
	return r->logs;
}

static void setup(struct fixture *f)
{
	struct run_logs *lg;
	unsigned q;

	memset(f, 0, sizeof(*f));
	f->job.stats = true;
	f->job.write_iops_log = prefix;
	f->job.write_lat_log = prefix;
	f->job.write_hist_log = prefix;
	f->job.log_avg_msec = 200;
	f->job.log_hist_msec = 100;

	/* Rank 0: windows at 200, 400, 600; I/Os at 1, 5, 9 ms. */
	lg = rank_logs(f, 0, 0);
	add(lg, IOLOG_IOPS, 200, 100);
	add(lg, IOLOG_IOPS, 400, 101);
	add(lg, IOLOG_IOPS, 600, 102);
	add(lg, IOLOG_LAT, 1, 10);
	add(lg, IOLOG_LAT, 5, 50);
	add(lg, IOLOG_LAT, 9, 90);
	add_hist(lg, 100, 3, 7);
	/* Rank 1, 30 ms late: its 200, 400, 600 are 230, 430, 630 (nearest
	 * 200, 400, 600); its partial last window at 610 (640) is 800's. */
	lg = rank_logs(f, 1, 30);
	add(lg, IOLOG_IOPS, 200, 10);
	add(lg, IOLOG_IOPS, 400, 11);
	add(lg, IOLOG_IOPS, 600, 12);
	add(lg, IOLOG_IOPS, 610, 5);
	add(lg, IOLOG_LAT, 0, 20); /* 30 */
	add(lg, IOLOG_LAT, 4, 60); /* 34 */
	add_hist(lg, 80, 3, 2);	   /* 110: window 100 */
	add_hist(lg, 180, 5, 1);   /* 210: window 200 */
	/* Rank 2, 40 ms early: its 200 is 160 (200's), an I/O at 10 ms is
	 * before rank 0's start (0), one at 45 is 5. */
	lg = rank_logs(f, 2, -40);
	add(lg, IOLOG_IOPS, 200, 1000);
	add(lg, IOLOG_LAT, 10, 70);
	add(lg, IOLOG_LAT, 45, 80);
	/* Rank 3: no result (its run could not start). */

	f->run.results = &f->own;
	f->run.nr = 1;
	for (q = 0; q < 4; q++)
		f->ranks[q].rank = q;
	f->ranks[0].results = calloc(1, sizeof(struct run_result));
	f->ranks[0].nr = 1;
	f->ranks[1].results = &f->res[0];
	f->ranks[1].nr = 1;
	f->ranks[2].results = &f->res[1];
	f->ranks[2].nr = 1;
}

static void teardown(struct fixture *f)
{
	unsigned q;

	run_logs_free(f->own.logs);
	for (q = 0; q < 3; q++)
		run_logs_free(f->res[q].logs);
	run_logs_free(f->ranks[0].results[0].logs);
	free(f->ranks[0].results);
}

/* Log @k's entries as (t, val) pairs into @out; their count. */
static unsigned entries(const struct iolog *l, uint64_t out[][2], unsigned max)
{
	const struct iolog_chunk *c;
	unsigned n = 0, i;

	for (c = l->head; c; c = c->next)
		for (i = 0; i < c->n && n < max; i++, n++) {
			out[n][0] = c->e[i].t;
			out[n][1] = c->e[i].val;
		}
	return n;
}

static void test_windows_summed(void **state)
{
	static const uint64_t want[][2] = { { 200, 1110 }, { 400, 112 }, { 600, 114 }, { 800, 5 } };
	struct fixture f;
	uint64_t got[16][2];
	unsigned n, i;

	(void)state;
	setup(&f);
	mpi_logs_merge(&f.run, f.ranks, 4);
	n = entries(&f.own.logs->log[IOLOG_IOPS], got, 16);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_int_equal(got[i][0], want[i][0]);
		assert_int_equal(got[i][1], want[i][1]);
	}
	teardown(&f);
}

static void test_per_io_in_order(void **state)
{
	static const uint64_t want[][2] = { { 0, 70 }, { 1, 10 },  { 5, 50 }, { 5, 80 },
					    { 9, 90 }, { 30, 20 }, { 34, 60 } };
	struct fixture f;
	uint64_t got[16][2];
	unsigned n, i;

	(void)state;
	setup(&f);
	mpi_logs_merge(&f.run, f.ranks, 4);
	n = entries(&f.own.logs->log[IOLOG_LAT], got, 16);
	assert_int_equal(n, 7);
	for (i = 0; i < n; i++) {
		assert_int_equal(got[i][0], want[i][0]);
		assert_int_equal(got[i][1], want[i][1]);
	}
	teardown(&f);
}

static void test_hist_bins_added(void **state)
{
	const struct iolog_hist *h;
	struct fixture f;

	(void)state;
	setup(&f);
	mpi_logs_merge(&f.run, f.ranks, 4);
	h = f.own.logs->hist_head;
	assert_non_null(h);
	assert_int_equal(h->t, 100);
	assert_int_equal(h->bins[3], 9);
	h = h->next;
	assert_non_null(h);
	assert_int_equal(h->t, 200);
	assert_int_equal(h->bins[5], 1);
	assert_null(h->next);
	teardown(&f);
}

static void test_own_kept(void **state)
{
	uint64_t got[16][2];
	struct fixture f;
	struct run_logs *before;

	(void)state;
	setup(&f);
	before = f.own.logs;
	mpi_logs_merge(&f.run, f.ranks, 4);
	assert_ptr_equal(f.ranks[0].results[0].logs, before);
	assert_ptr_not_equal(f.own.logs, before);
	assert_int_equal(entries(&before->log[IOLOG_IOPS], got, 16), 3);
	assert_int_equal(got[2][1], 102);
	teardown(&f);
}

/* The 500 ms stats windows: rank 1's (30 ms late) and rank 2's (40 ms
 * early) in rank 0's nearest, added; rank 2's last is a window of its own. */
static void test_stats_windows(void **state)
{
	static const double want[][2] = { { 0.5, 111 }, { 1.0, 222 }, { 1.5, 200 } };
	const struct run_logs *m;
	struct fixture f;
	unsigned k;

	(void)state;
	setup(&f);
	add_window(f.own.logs, 0.5002, 100);
	add_window(f.own.logs, 1.0004, 200);
	add_window(f.res[0].logs, 0.5001, 10);
	add_window(f.res[0].logs, 1.0003, 20);
	add_window(f.res[1].logs, 0.5403, 1);
	add_window(f.res[1].logs, 1.0401, 2);
	add_window(f.res[1].logs, 1.0802, 200); /* its last, partial: 1.0402 */
	mpi_logs_merge(&f.run, f.ranks, 4);
	m = f.own.logs;
	assert_int_equal(m->nr_win, 3);
	for (k = 0; k < 3; k++) {
		assert_true(m->win[k].t == want[k][0]);
		assert_true(m->win[k].iops[0] == want[k][1]);
		assert_true(m->win[k].bw[0] == 4 * want[k][1]);
	}
	teardown(&f);
}

/* Without a write_*_log: no entries (only the stats windows). */
static void test_no_logs_asked(void **state)
{
	struct fixture f;
	struct run_logs *before;
	unsigned k;

	(void)state;
	setup(&f);
	f.job.write_iops_log = f.job.write_lat_log = f.job.write_hist_log = NULL;
	before = f.own.logs;
	mpi_logs_merge(&f.run, f.ranks, 4);
	assert_ptr_equal(f.ranks[0].results[0].logs, before);
	for (k = 0; k < IOLOG_NR; k++)
		assert_int_equal(f.own.logs->log[k].n, 0);
	assert_null(f.own.logs->hist_head);
	teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_windows_summed),	cmocka_unit_test(test_per_io_in_order),
		cmocka_unit_test(test_hist_bins_added), cmocka_unit_test(test_own_kept),
		cmocka_unit_test(test_stats_windows),	cmocka_unit_test(test_no_logs_asked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
