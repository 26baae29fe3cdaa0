/* SPDX-License-Identifier: MIT */
/*
 * Shared by the end-to-end tests: a job file's text parsed, built and run
 * in a temporary folder, and that folder made and removed.
 */
#ifndef IOGAUGE_TESTRUN_H
#define IOGAUGE_TESTRUN_H

#include <signal.h>

#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "run/run.h"

struct ran {
	struct jobset js;
	struct job *jobs;
	unsigned nr;
	struct run_plan plan;
	struct run run;
	char *cause;
	int ret; /* plan_jobs()'s, then run_jobs()'s */
};

/* The temporary folder, made by testrun_setup. */
extern char testrun_dir[64];

/* Parses @fmt (printf-style) as a job file, builds and runs it; a parse
 * error fails the test.  @stop: NULL for none. */
void run_text(struct ran *r, atomic_int *stop, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ran_free(struct ran *r);

/* cmocka group set-up and tear-down: a fresh folder under /tmp, removed. */
int testrun_setup(void **state);
int testrun_teardown(void **state);

#endif
