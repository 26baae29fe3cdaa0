/* SPDX-License-Identifier: MIT */
/* Shared by the end-to-end tests: run a job file's text, in a scratch folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testrun.h"

char testrun_dir[64];

static atomic_int no_stop;

void run_text(struct ran *r, atomic_int *stop, const char *fmt, ...)
{
	char text[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	memset(r, 0, sizeof(*r));
	jobset_init(&r->js);
	r->ret = jobfile_parse_mem(&r->js, "t.fio", text, strlen(text), &r->cause);
	if (!r->ret)
		r->ret = job_build_all(&r->js, &r->jobs, &r->nr, &r->cause);
	if (r->ret)
		fail_msg("%s\n%s", r->cause, text);
	r->ret = plan_jobs(r->jobs, r->nr, (uint64_t)sysconf(_SC_PAGESIZE), &r->plan, &r->cause);
	if (r->ret)
		return;
	r->ret = run_jobs(&r->plan, stop ? stop : &no_stop, NULL, &r->run, &r->cause);
}

void ran_free(struct ran *r)
{
	if (!r->ret)
		run_free(&r->run);
	plan_free(&r->plan);
	job_free_all(r->jobs, r->nr);
	jobset_free(&r->js);
	free(r->cause);
}

int testrun_setup(void **state)
{
	(void)state;
	snprintf(testrun_dir, sizeof(testrun_dir), "/tmp/iogauge-test-XXXXXX");
	return mkdtemp(testrun_dir) ? 0 : -1;
}

int testrun_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", testrun_dir);
	return system(cmd);
}
