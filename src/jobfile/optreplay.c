/* SPDX-License-Identifier: MIT */
/*
 * The value kinds of the blktrace replay options: replay_skip's list of
 * directions, and merge_blktrace_scalars/_iters' colon-separated numbers
 * (one per trace of read_iolog).  What they do is in workload/blktrace.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/options.h"
#include "jobfile/units.h"

static const char *const skip_names[] = { "read", "write", "trim", "sync" };

/* fio's syntax: names separated by commas, blanks only around the whole. */
static int skip_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	unsigned *field = opt_field(o, job, o->off), mask = 0, i;
	const char *p = val + strspn(val, " \t");
	size_t end = strlen(p);

	while (end && (p[end - 1] == ' ' || p[end - 1] == '\t'))
		end--;
	for (;;) {
		size_t n = strcspn(p, ",");

		if (n > end)
			n = end;
		for (i = 0; i < ARRAY_SIZE(skip_names); i++)
			if (strlen(skip_names[i]) == n && !strncmp(p, skip_names[i], n))
				break;
		if (i == ARRAY_SIZE(skip_names))
			return set_cause(cause,
					 "'%s': '%.*s' is no I/O kind (read, write, trim, sync)",
					 val, (int)n, p);
		mask |= 1u << i;
		if (n == end)
			break;
		p += n + 1;
		end -= n + 1;
	}
	/* As fio's: a job's kinds add to those its global section gave. */
	*field |= mask;
	return 0;
}

static void skip_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	unsigned mask = *(const unsigned *)opt_field(o, job, o->off), i;
	bool first = true;

	for (i = 0; i < ARRAY_SIZE(skip_names); i++) {
		if (!(mask >> i & 1))
			continue;
		if (!first)
			strbuf_addc(sb, ',');
		strbuf_adds(sb, skip_names[i]);
		first = false;
	}
}

const struct opt_kind opt_kind_replay_skip = { .syntax = "read,write,trim,sync",
					       .parse = skip_parse,
					       .format = skip_format };

/*
 * fio reads these as lists of numbers and uses each as a whole number
 * (50.5 acts as 50); a 0 would end its list early, so below 1 is refused.
 */
static int merge_list_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	struct job_merge_list *l = opt_field(o, job, o->off), out = { .nr = 0 };
	const char *p = val;

	for (;;) {
		size_t n = strcspn(p, ":");
		char word[64];
		double d;
		int ret;

		if (out.nr == JOB_MAX_MERGE)
			return set_cause(cause, "'%s': at most %d values", val, JOB_MAX_MERGE);
		if (!n || n >= sizeof(word))
			return set_cause(cause, "'%s': expected N:N:... (a number per trace)", val);
		memcpy(word, p, n);
		word[n] = '\0';
		ret = units_parse_double(word, &d, cause);
		if (ret)
			return ret;
		if (!(d >= 1 && d <= 1e6))
			return set_cause(cause, "'%s': %s is not 1 to 1000000", val, word);
		out.v[out.nr++] = (unsigned)d;
		if (!p[n])
			break;
		p += n + 1;
	}
	*l = out;
	return 0;
}

static void merge_list_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct job_merge_list *l = opt_field(o, job, o->off);
	unsigned i;

	for (i = 0; i < l->nr; i++) {
		if (i)
			strbuf_addc(sb, ':');
		strbuf_addu(sb, l->v[i]);
	}
}

const struct opt_kind opt_kind_merge_list = { .syntax = "N:N:...",
					      .parse = merge_list_parse,
					      .format = merge_list_format };
