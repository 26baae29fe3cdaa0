/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness: the value parsers.  The first two bytes pick an
 * option of the table (little-endian), the rest is its value, applied to a job holding the
 * defaults and printed back; the same text also goes through the unit
 * parsers, ${VAR} expansion and the $(( )) evaluator.  A refusal must
 * carry a message; an accepted value must print back to one that parses
 * to the same text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"
#include "jobfile/units.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct job *defaults(void)
{
	struct job *job = xcalloc(1, sizeof(*job));
	char *cause = NULL;

	if (job_defaults(job, &cause))
		abort();
	return job;
}

static void drop(struct job *job)
{
	struct job *one = xcalloc(1, sizeof(*one));

	*one = *job;
	job_free_all(one, 1);
	free(job);
}

static void refused(int ret, char **cause)
{
	if (ret && (!*cause || !**cause))
		abort(); /* a refusal says why */
	free(*cause);
	*cause = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct opt_def *o;
	struct job *job, *back;
	struct strbuf a = { 0 }, b = { 0 };
	char *val, *cause = NULL, *x, *unset = NULL;
	uint64_t u;
	long long ll;
	double dbl;
	bool flag;
	int ret;

	if (size < 2)
		return 0;
	o = opt_at((data[0] | (unsigned)data[1] << 8) % opt_rows());
	val = xstrndup((const char *)data + 2, size - 2); /* up to a NUL, as a line would */
	job = defaults();
	ret = opt_apply(o, job, val, false, &cause);
	if (!ret) {
		opt_format(o, job, &a);
		back = defaults();
		if (opt_apply(o, back, a.buf ? a.buf : "", false, &cause)) {
			/* What was printed must read again. */
			fprintf(stderr, "%s='%s' printed as '%s', which fails: %s\n", o->name, val,
				a.buf ? a.buf : "", cause);
			abort();
		}
		opt_format(o, back, &b);
		if (strcmp(a.buf ? a.buf : "", b.buf ? b.buf : "")) {
			fprintf(stderr, "%s='%s' printed as '%s', then as '%s'\n", o->name, val,
				a.buf ? a.buf : "", b.buf ? b.buf : "");
			abort();
		}
		drop(back);
	}
	refused(ret, &cause);
	drop(job);
	refused(units_parse_size(val, 1024, &u, &flag, &cause), &cause);
	refused(units_parse_time(val, 1000, &u, &cause), &cause);
	refused(units_parse_bool(val, &flag, &cause), &cause);
	refused(units_parse_uint(val, &u, &cause), &cause);
	refused(units_parse_double(val, &dbl, &cause), &cause);
	refused(expr_eval(val, &ll, &cause), &cause);
	x = jobfile_expand(val, &unset, &cause);
	refused(!x, &cause);
	free(x);
	free(unset);
	strbuf_free(&a);
	strbuf_free(&b);
	free(val);
	return 0;
}
