/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: SQLIO's command line.  The input is split at NUL and
 * newline bytes into arguments after "sqlio"; a line that parses must give
 * a job file that the job-file reader takes and builds jobs from (what
 * `iogauge sqlio` runs); a refusal must say why.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "sqlio/sqlio.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

/* iogauge's own long flags are main.c's: here every one is unknown. */
static int no_other(void *arg, int argc, char **argv, int *i, char **cause)
{
	(void)arg, (void)argc, (void)argv, (void)i, (void)cause;
	return 0;
}

static char prog[] = "sqlio";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = xstrndup((const char *)data, size), *argv[MAX_ARGS + 1], *cause = NULL;
	struct strbuf jf = { 0 };
	struct sqlio s;
	struct jobset js;
	struct job *jobs;
	size_t i, start = 0, len = size;
	unsigned nr;
	int argc = 1, ret;

	/* xstrndup stops at a NUL: split what it kept at newlines too. */
	len = strlen(copy);
	argv[0] = prog;
	for (i = 0; i <= len && argc < MAX_ARGS; i++)
		if (i == len || copy[i] == '\n') {
			copy[i] = '\0';
			argv[argc++] = copy + start;
			start = i + 1;
		}
	argv[argc] = NULL;
	memset(&s, 0, sizeof(s));
	ret = sqlio_parse(&s, argc, argv, no_other, NULL, &cause);
	if (ret) {
		if (ret < 0 && (!cause || !*cause))
			abort(); /* a refusal says why; 1 is -? (help) */
		free(cause);
		sqlio_free(&s);
		free(copy);
		return 0;
	}
	sqlio_jobfile(&s, &jf);
	jobset_init(&js);
	if (jobfile_parse_mem(&js, "sqlio.fio", jf.buf, jf.len, &cause) ||
	    job_build_all(&js, &jobs, &nr, &cause)) {
		/* What sqlio made must read and build. */
		fprintf(stderr, "the job file of this sqlio line fails: %s\n%s", cause, jf.buf);
		abort();
	}
	job_free_all(jobs, nr);
	jobset_free(&js);
	strbuf_free(&jf);
	sqlio_free(&s);
	free(copy);
	return 0;
}
