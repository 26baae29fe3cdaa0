/* SPDX-License-Identifier: MIT */
/*
 * stats/act.c: --profile=act's slices.  The bands by fio's rule (whole
 * microseconds over 1000, 8000, 64000; the highest only), the slice an
 * I/O lands in (and the last keeping the end's), the judgement as a
 * slice closes (a share at its limit fails, as fio's perm < max_perm
 * passes), the end's judgement of a whole slice only, the failure's
 * text, merging slice by slice, and the hand-off through a file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "stats/act.h"

#define S 1000000000ull /* ns: the slices' length here */

static void test_bands(void **state)
{
	static const struct {
		uint64_t lat_ns;
		int band; /* -1: none */
	} cases[] = {
		{ 0, -1 },
		{ 1000999, -1 },      /* 1000 us: not over */
		{ 1001000, 0 },	      /* 1001 us */
		{ 8000999, 0 },	      /* 8000 us: over 1 ms only */
		{ 8001000, 1 },	      /* the highest band alone */
		{ 64000999, 1 },      /* 64000 us */
		{ 64001000, 2 },      /* 64001 us */
		{ 5000000000ull, 2 }, /* 5 s */
	};
	unsigned i, b;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct act_slices *a = act_new(1, S);

		assert_false(act_record(a, 0, cases[i].lat_ns));
		assert_int_equal(a->v[0].ios, 1);
		for (b = 0; b < ACT_BANDS; b++)
			assert_int_equal(a->v[0].over[b], (int)b == cases[i].band);
		act_free(a);
	}
}

static void test_slices(void **state)
{
	struct act_slices *a = act_new(3, S);

	(void)state;
	assert_null(act_new(0, S));
	assert_int_equal(a->end, S);
	assert_false(act_record(a, 0, 10));
	assert_false(act_record(a, S - 1, 10));
	/* The I/O that ends past the slice is counted in it and closes it,
	 * as fio's act_io_u_lat counts it. */
	assert_false(act_record(a, S, 10));
	assert_int_equal(a->cur, 1);
	assert_int_equal(a->end, 2 * S);
	assert_false(act_record(a, S + 1, 10));
	/* Past the last slice: the run's end, counted in the last. */
	assert_false(act_record(a, 5 * S, 10));
	assert_int_equal(a->cur, 2);
	assert_int_equal(a->end, UINT64_MAX);
	assert_false(act_record(a, 9 * S, 10));
	assert_int_equal(a->v[0].ios, 3);
	assert_int_equal(a->v[1].ios, 2);
	assert_int_equal(a->v[2].ios, 1);
	assert_int_equal(a->failed, 0);
	act_free(a);
}

/* 100 I/Os in slice 0, @over of them at 2 ms, the last one ending past
 * the slice and closing it: whether it failed. */
static bool first_slice_with(unsigned over)
{
	struct act_slices *a = act_new(2, S);
	unsigned i;
	bool failed = false;

	for (i = 0; i < 99; i++)
		failed |= act_record(a, i, i < over ? 2000000 : 1000);
	failed |= act_record(a, S, 1000);
	act_free(a);
	return failed;
}

static void test_judge(void **state)
{
	struct act_slices *a = act_new(3, S);
	char *text;
	unsigned i;

	(void)state;
	/* 5% of a slice over 1 ms fails it; 4% does not. */
	assert_false(first_slice_with(4));
	assert_true(first_slice_with(5));
	/* 0.1% over 64 ms: 1 of 1000 fails. */
	for (i = 0; i < 998; i++)
		assert_false(act_record(a, i, 1000));
	assert_false(act_record(a, 998, 70000000));
	/* Slice 1 is skipped (no I/O: nothing to fail); slice 0 fails as its
	 * 1000th I/O, ending in slice 2, closes it. */
	assert_true(act_record(a, 2 * S, 1000));
	assert_int_equal(a->failed, 1);
	assert_int_equal(a->failed_band, 2);
	text = act_fail_text(a);
	assert_string_equal(text, "act: 0.100000% exceeds pass criteria of 0.100000% "
				  "(slice 1: 1 of its 1000 I/Os over 64 ms)");
	free(text);
	act_free(a);
}

static void test_close(void **state)
{
	struct act_slices *a = act_new(2, S);

	(void)state;
	assert_false(act_record(a, S, 1000));	     /* closes slice 0 */
	assert_false(act_record(a, S + 1, 9000000)); /* slice 1, 100% over 8 ms */
	/* Not judged before it has lasted its length, as fio's. */
	assert_false(act_close(a, 2 * S - 1));
	assert_int_equal(a->failed, 0);
	assert_true(act_close(a, 2 * S));
	assert_int_equal(a->failed, 2);
	assert_int_equal(a->failed_band, 1);
	act_free(a);
}

static void test_merge_save(void **state)
{
	struct act_slices *a = act_new(2, S), *b = act_new(3, S), *m = NULL, *back = NULL;
	FILE *f = tmpfile();
	int fd;

	(void)state;
	assert_non_null(f);
	fd = fileno(f);
	act_record(a, 0, 2000000);
	act_record(b, 0, 1000);
	act_record(b, 2 * S, 1000); /* closes b's slice 0, counted in it */
	act_record(b, 2 * S + 1, 9000000);
	act_merge(&m, NULL);
	assert_null(m);
	act_merge(&m, a);
	act_merge(&m, b); /* grows to b's three slices */
	assert_int_equal(m->nr, 3);
	assert_int_equal(m->v[0].ios, 3);
	assert_int_equal(m->v[0].over[0], 1);
	assert_int_equal(m->v[2].over[1], 1);
	assert_int_equal(act_save(m, fd), 0);
	assert_int_equal(act_save(NULL, fd), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(act_load(&back, fd), 0);
	assert_non_null(back);
	assert_memory_equal(back, m, sizeof(*m) + 3 * sizeof(struct act_slice));
	act_free(back);
	assert_int_equal(act_load(&back, fd), 0);
	assert_null(back);
	/* Cut short: an error, nothing made. */
	assert_int_equal(ftruncate(fd, 20), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_not_equal(act_load(&back, fd), 0);
	assert_null(back);
	fclose(f);
	act_free(m);
	act_free(a);
	act_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bands),	   cmocka_unit_test(test_slices),
		cmocka_unit_test(test_judge),	   cmocka_unit_test(test_close),
		cmocka_unit_test(test_merge_save),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
