/* SPDX-License-Identifier: MIT */
/*
 * The test-only engine of tests/engines/count.c, from a job file: it is
 * found by name, its own option is read into its own struct and acted on,
 * another engine refuses that option, and the worker's loop gives it
 * exactly the I/Os the job asks for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engines/engine.h"
#include "jobfile/options.h"
#include "stats/stats.h"
#include "testrun.h"

extern unsigned long count_engine_ios[IO_OP_TRIM + 1];

static void test_listed_with_its_option(void **state)
{
	const struct engine_ops *ops = engine_find("count");
	const struct opt_def *o = opt_find("count_fail_after");

	(void)state;
	assert_non_null(ops);
	assert_int_equal(engine_ops_check(ops), 0);
	assert_non_null(o);
	assert_ptr_equal(o->engine, ops);
	assert_true(engine_takes(ops, o));
	assert_false(engine_takes(engine_find("null"), o));
}

static void test_counts_the_job(void **state)
{
	struct ran r;

	(void)state;
	memset(count_engine_ios, 0, sizeof(count_engine_ios));
	run_text(&r, NULL,
		 "[c]\nioengine=count\nthread=1\nsize=1m\nbs=4k\nrw=randrw\n"
		 "rwmixread=25\nfsync=8\n");
	assert_int_equal(r.ret, 0);
	assert_null(r.run.results[0].error);
	assert_int_equal(count_engine_ios[IO_OP_READ] + count_engine_ios[IO_OP_WRITE], 256);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, count_engine_ios[IO_OP_READ]);
	assert_int_equal(r.run.results[0].stats.dir[STAT_WRITE].ios, count_engine_ios[IO_OP_WRITE]);
	assert_true(count_engine_ios[IO_OP_READ] > 0 && count_engine_ios[IO_OP_WRITE] > 0);
	assert_int_equal(count_engine_ios[IO_OP_FSYNC], count_engine_ios[IO_OP_WRITE] / 8);
	ran_free(&r);
}

/* count_fail_after, read from the job file into the engine's own struct. */
static void test_its_option_acts(void **state)
{
	struct ran r;

	(void)state;
	memset(count_engine_ios, 0, sizeof(count_engine_ios));
	run_text(&r, NULL,
		 "[c]\nioengine=count\nthread=1\nsize=1m\nbs=4k\nrw=read\n"
		 "count_fail_after=10\n");
	assert_non_null(r.run.results[0].error);
	if (!strstr(r.run.results[0].error, "Input/output error"))
		fail_msg("error: %s", r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 10);
	assert_int_equal(count_engine_ios[IO_OP_READ], 11);
	ran_free(&r);
}

static void test_refused_elsewhere(void **state)
{
	struct jobset js;
	struct job *jobs = NULL;
	unsigned nr = 0;
	char *cause = NULL;
	static const char text[] = "[c]\nioengine=null\nsize=1m\ncount_fail_after=3\n";
	int ret;

	(void)state;
	jobset_init(&js);
	ret = jobfile_parse_mem(&js, "t.fio", text, strlen(text), &cause);
	assert_int_equal(ret, 0);
	ret = job_build_all(&js, &jobs, &nr, &cause);
	assert_int_not_equal(ret, 0);
	if (!strstr(cause, "t.fio:4: [c] count_fail_after is a count option; ioengine=null "
			   "does not use it"))
		fail_msg("cause: %s", cause);
	free(cause);
	jobset_free(&js);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listed_with_its_option),
		cmocka_unit_test(test_counts_the_job),
		cmocka_unit_test(test_its_option_acts),
		cmocka_unit_test(test_refused_elsewhere),
	};

	return cmocka_run_group_tests(tests, testrun_setup, testrun_teardown);
}
