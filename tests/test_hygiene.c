/* SPDX-License-Identifier: MIT */
/*
 * Hygiene: 1,000 runs in one process (parse, build, run, report, free)
 * leave the descriptors and the heap as they were.  The null engine for
 * most, and a real file with io_uring or psync for some, so that files,
 * rings and threads are opened and closed too.
 */
#include <dirent.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engines/engine.h"
#include "report/report.h"
#include "testrun.h"

static unsigned open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	unsigned n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the one opendir holds */
}

static void one_run(unsigned i)
{
	struct strbuf sb = { 0 };
	struct ran r;

	if (i % 50 == 49)
		run_text(&r, NULL,
			 "[f]\nfilename=%s/h.dat\nsize=256k\nrw=randrw\nbs=4k\nioengine=%s\n"
			 "iodepth=4\nverify=crc32c\nwrite_iops_log=%s/h\n",
			 testrun_dir, engine_find("io_uring") ? "io_uring" : "psync", testrun_dir);
	else
		run_text(&r, NULL,
			 "[n]\nioengine=null\nsize=1m\nbs=4k\nrw=randrw\nnumjobs=2\n"
			 "[m]\nioengine=null\nsize=1m\nbs=4k\nrw=read\nstonewall\n");
	assert_int_equal(r.ret, 0);
	assert_null(r.run.results[0].error);
	report_text(&r.run, &sb);
	report_json(&r.run, &r.js, true, &sb);
	strbuf_free(&sb);
	ran_free(&r);
}

static void test_thousand_runs(void **state)
{
	unsigned i, fds;
	size_t heap;

	(void)state;
	for (i = 0; i < 50; i++) /* warm-up: one-time tables and caches */
		one_run(i);
	fds = open_fds();
	heap = mallinfo2().uordblks;
	for (i = 0; i < 1000; i++)
		one_run(i);
	assert_int_equal(open_fds(), fds);
	/* In-use heap (glibc's count; under ASan the leak checker takes over):
	 * at most a few KiB of allocator noise, not 1,000 runs' worth. */
	if (mallinfo2().uordblks > heap + 64 * 1024)
		fail_msg("heap in use grew from %zu to %zu bytes over 1,000 runs", heap,
			 mallinfo2().uordblks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thousand_runs),
	};

	return cmocka_run_group_tests(tests, testrun_setup, testrun_teardown);
}
