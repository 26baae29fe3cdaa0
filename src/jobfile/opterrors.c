/* SPDX-License-Identifier: MIT */
/*
 * ignore_error's value kind, and which I/O errors a job passes over; and
 * a CPU list kept in a field of its own (verify_async_cpus).
 * fio's syntax: up to three lists, for read, write and verify errors,
 * separated by commas; the errnos of a list separated by colons, each a
 * name fio knows (EPERM to ERANGE) or a number.  What the worker does with
 * an error passed over is in run/worker.c and verify/worker_verify.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/options.h"

/* The names fio 3.33 reads: errnos 1 to 34, as Linux numbers them. */
static const struct {
	const char *name;
	int err;
} errno_names[] = {
	{ "EPERM", EPERM },   { "ENOENT", ENOENT },   { "ESRCH", ESRCH },
	{ "EINTR", EINTR },   { "EIO", EIO },	      { "ENXIO", ENXIO },
	{ "E2BIG", E2BIG },   { "ENOEXEC", ENOEXEC }, { "EBADF", EBADF },
	{ "ECHILD", ECHILD }, { "EAGAIN", EAGAIN },   { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EFAULT", EFAULT },   { "ENOTBLK", ENOTBLK },
	{ "EBUSY", EBUSY },   { "EEXIST", EEXIST },   { "EXDEV", EXDEV },
	{ "ENODEV", ENODEV }, { "ENOTDIR", ENOTDIR }, { "EISDIR", EISDIR },
	{ "EINVAL", EINVAL }, { "ENFILE", ENFILE },   { "EMFILE", EMFILE },
	{ "ENOTTY", ENOTTY }, { "ETXTBSY", ETXTBSY }, { "EFBIG", EFBIG },
	{ "ENOSPC", ENOSPC }, { "ESPIPE", ESPIPE },   { "EROFS", EROFS },
	{ "EMLINK", EMLINK }, { "EPIPE", EPIPE },     { "EDOM", EDOM },
	{ "ERANGE", ERANGE },
};

static const char *const type_names[ERR_TYPE_COUNT] = { "read", "write", "verify" };

/* One errno of a list: a name, or a number (negative made positive, as
 * fio's).  0, or -EINVAL with *cause set. */
static int parse_errno(const char *s, size_t n, const char *val, unsigned type, int *out,
		       char **cause)
{
	char word[24], *end;
	long v;
	size_t i;

	if (n >= sizeof(word))
		goto bad;
	memcpy(word, s, n);
	word[n] = '\0';
	if (word[0] == 'E') {
		for (i = 0; i < ARRAY_SIZE(errno_names); i++)
			if (!strcmp(word, errno_names[i].name)) {
				*out = errno_names[i].err;
				return 0;
			}
		goto bad;
	}
	errno = 0;
	v = strtol(word, &end, 10);
	if (end == word || *end || errno || v == 0 || v > 4095 || v < -4095)
		goto bad;
	*out = (int)(v < 0 ? -v : v);
	return 0;
bad:
	return set_cause(cause,
			 "'%s': '%.*s' in the %s list is not an errno: a number from 1 to 4095, "
			 "or one of the names fio knows, EPERM to ERANGE (EIO, ENOSPC, ...)",
			 val, (int)n, s, type_names[type]);
}

static int errors_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	struct ignore_errors ie;
	const char *p = val, *end;
	unsigned type = 0;

	memset(&ie, 0, sizeof(ie));
	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (;;) {
		const char *stop = memchr(p, ',', (size_t)(end - p));
		const char *e = stop ? stop : end;

		if (type == ERR_TYPE_COUNT)
			return set_cause(cause,
					 "'%s': more than three lists (read,write,verify errors)",
					 val);
		/* As fio: a list ends at its first empty entry. */
		while (p < e && *p != ':') {
			const char *c = memchr(p, ':', (size_t)(e - p));
			size_t n = (size_t)((c ? c : e) - p);

			if (ie.nr[type] == JOB_MAX_IGNORE_ERRORS)
				return set_cause(cause, "'%s': more than %d errors in the %s list",
						 val, JOB_MAX_IGNORE_ERRORS, type_names[type]);
			if (parse_errno(p, n, val, type, &ie.err[type][ie.nr[type]], cause))
				return -EINVAL;
			ie.nr[type]++;
			p += n;
			if (p < e)
				p++; /* the colon */
		}
		if (!stop)
			break;
		p = stop + 1;
		type++;
	}
	*(struct ignore_errors *)opt_field(o, job, o->off) = ie;
	return 0;
}

static void errors_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct ignore_errors *ie = opt_field(o, job, o->off);
	unsigned t, k, last = 0;
	size_t i;

	for (t = 0; t < ERR_TYPE_COUNT; t++)
		if (ie->nr[t])
			last = t;
	for (t = 0; t <= last; t++) {
		if (t)
			strbuf_addc(sb, ',');
		for (k = 0; k < ie->nr[t]; k++) {
			const char *name = NULL;

			for (i = 0; i < ARRAY_SIZE(errno_names); i++)
				if (errno_names[i].err == ie->err[t][k])
					name = errno_names[i].name;
			if (k)
				strbuf_addc(sb, ':');
			if (name)
				strbuf_adds(sb, name);
			else
				strbuf_addu(sb, (unsigned)ie->err[t][k]);
		}
	}
}

const struct opt_kind opt_kind_errors = {
	.syntax = "errnos",
	.parse = errors_parse,
	.format = errors_format,
};

enum error_type job_error_type(bool read, int err)
{
	if (err == EILSEQ)
		return ERR_TYPE_VERIFY;
	return read ? ERR_TYPE_READ : ERR_TYPE_WRITE;
}

bool job_error_listed(const struct job *job, enum error_type t, int err)
{
	unsigned k;

	for (k = 0; k < job->ignore_error.nr[t]; k++)
		if (job->ignore_error.err[t][k] == err)
			return true;
	return false;
}

bool job_error_passes(const struct job *job, enum error_type t, int err)
{
	if (!(job->continue_types & 1u << t))
		return false;
	if (job->ignore_error.nr[t])
		return job_error_listed(job, t, err);
	return err == EIO || err == EILSEQ;
}

/* ---- a CPU list into a struct cpu_list (verify_async_cpus) ---- */

static int cpu_list_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	struct cpu_list cl;
	const char *p = val;

	memset(&cl, 0, sizeof(cl));
	while (*p) {
		char *end;
		unsigned long lo, hi, c;

		errno = 0;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (end != p && *end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
		}
		if (end == p || errno || lo > hi || hi >= JOB_MAX_CPUS || (*end && *end != ',') ||
		    (*end == ',' && !end[1]))
			return set_cause(cause,
					 "'%s': not a CPU list such as 0,5,8-15 (CPUs 0 to %d, "
					 "low first)",
					 val, JOB_MAX_CPUS - 1);
		for (c = lo; c <= hi; c++)
			cl.mask[c / 64] |= 1ull << (c % 64);
		p = *end ? end + 1 : end;
	}
	if (!val[0])
		return set_cause(cause, "an empty CPU list");
	cl.set = true;
	*(struct cpu_list *)opt_field(o, job, o->off) = cl;
	return 0;
}

static void cpu_list_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct cpu_list *cl = opt_field(o, job, o->off);
	unsigned c = 0, end;
	bool first = true;

	while (cl->set && c < JOB_MAX_CPUS) {
		if (!(cl->mask[c / 64] >> (c % 64) & 1)) {
			c++;
			continue;
		}
		for (end = c;
		     end + 1 < JOB_MAX_CPUS && cl->mask[(end + 1) / 64] >> ((end + 1) % 64) & 1;
		     end++)
			;
		strbuf_addf(sb, first ? "%u" : ",%u", c);
		if (end > c)
			strbuf_addf(sb, "-%u", end);
		first = false;
		c = end + 1;
	}
}

const struct opt_kind opt_kind_cpu_list = {
	.syntax = "cpu-list",
	.parse = cpu_list_parse,
	.format = cpu_list_format,
};
