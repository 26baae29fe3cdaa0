/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: the job-file reader on arbitrary bytes, then, when a
 * file reads, the jobs built from it and printed back as --parse-only
 * does, and that print read again.  Whatever the input, the reader must
 * return 0 or an error with a message, never crash, leak or loop.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "plan/plan.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jobset js, again;
	struct job *jobs = NULL;
	struct strbuf dump = { 0 };
	char *cause = NULL;
	unsigned nr = 0, i;

	jobset_init(&js);
	if (jobfile_parse_mem(&js, "fuzz.fio", (const char *)data, size, &cause)) {
		if (!cause || !*cause)
			abort(); /* an error must say what it is */
		free(cause);
		cause = NULL;
		/* As main.c: the jobs are built all the same, for their own
		 * errors, and refused with the reader's. */
		if (!job_build_all(&js, &jobs, &nr, &cause) || !cause || !*cause)
			abort();
		free(cause);
		jobset_free(&js);
		return 0;
	}
	if (job_build_all(&js, &jobs, &nr, &cause)) {
		if (!cause || !*cause)
			abort();
		free(cause);
		jobset_free(&js);
		return 0;
	}
	/* Whatever builds is planned, or refused with a message. */
	{
		struct run_plan plan;

		if (plan_jobs(jobs, nr, 4096, &plan, &cause)) {
			if (!cause || !*cause)
				abort();
			free(cause);
			cause = NULL;
		} else {
			plan_free(&plan);
		}
	}
	for (i = 0; i < nr; i++)
		job_dump(&jobs[i], &dump);
	/* The dump is a job file of its own ("; ..." lines are comments). */
	jobset_init(&again);
	/* Formatting can lengthen a value past the line limit of the system's
	 * libinih (bs=1k prints as bs=1024,...): that refusal is by design.
	 * And a job file has no escape for '$': a section named "a$ncpus"
	 * prints as name=a$ncpus, which expands when read. */
	if (dump.len && !memchr(dump.buf, '$', dump.len) &&
	    jobfile_parse_mem(&again, "dump.fio", dump.buf, dump.len, &cause) &&
	    !strstr(cause, "line too long")) {
		fprintf(stderr, "the --parse-only print of the jobs fails: %s\n%s", cause,
			dump.buf);
		abort();
	}
	free(cause);
	jobset_free(&again);
	strbuf_free(&dump);
	job_free_all(jobs, nr);
	jobset_free(&js);
	return 0;
}
