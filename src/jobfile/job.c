/* SPDX-License-Identifier: MIT */
/*
 * From raw option text to struct job: defaults, kb_base, then every value
 * in reading order, then the checks that involve more than one option or
 * more than one job.  Also the --parse-only dump.  Single-value syntax is
 * optvals.c's business, not this file's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"
#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"
#include "util/nodes.h"
#include "verify/verify.h"
#include "workload/blktrace.h"
#include "workload/replay.h"

static const struct origin default_origin = { .kind = ORIGIN_DEFAULT };

const struct origin *job_origin(const struct job *job, unsigned i)
{
	if (!job->origin_slot || !job->origin_slot[i])
		return &default_origin;
	return &job->origin_at[job->origin_slot[i] - 1];
}

void job_set_origin(struct job *job, unsigned i, const struct origin *from, const char *via)
{
	struct origin o = *from;
	unsigned n = job->nr_origins;

	o.via = via;
	if (!job->origin_slot)
		job->origin_slot = xcalloc(opt_rows(), sizeof(*job->origin_slot));
	if (!job->origin_slot[i]) {
		/* Room for the next power of two: doubles when n reaches one. */
		if (!(n & (n - 1)))
			job->origin_at = xrealloc(job->origin_at, sizeof(*job->origin_at) *
									  (n ? 2 * (size_t)n : 1));
		job->origin_slot[i] = (uint16_t)++job->nr_origins;
	}
	job->origin_at[job->origin_slot[i] - 1] = o;
}

static const struct origin *origin_of(const struct job *job, const char *name)
{
	return job_origin(job, opt_index(opt_find(name)));
}

/* Option @name of @job now has the value option @via gave; @via's origin. */
static void origin_via(struct job *job, const char *name, const char *via)
{
	job_set_origin(job, opt_index(opt_find(name)), origin_of(job, via), via);
}

static bool is_set(const struct job *job, const char *name)
{
	return origin_of(job, name)->kind != ORIGIN_DEFAULT;
}

int job_fail_at(const struct job *job, const char *name, char **cause, const char *fmt, ...)
{
	struct strbuf sb = { 0 };
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	origin_format(origin_of(job, name), name, &sb);
	strbuf_addf(&sb, ": [%s] %s", job->name, msg);
	free(msg);
	*cause = strbuf_detach(&sb);
	return -EINVAL;
}

/* Of two options, the one set last (the one to blame in a conflict). */
static const char *later(const struct job *job, const char *a, const char *b)
{
	return origin_of(job, a)->seq >= origin_of(job, b)->seq ? a : b;
}

/* Where a job's conflicts go as they are found, so that one reading
 * reports them all: the checks go on after one that rests on nothing
 * an earlier one refused. */
struct conflicts {
	const struct jobspec *spec;
	struct job_errors *errs;
};

static unsigned blame_seq(const struct job *job, const struct jobspec *spec, const char *msg);

/* Notes *cause, which job_fail_at() just set (@ret is what it returned),
 * as one of @job's conflicts; returns @ret. */
static int noted(struct conflicts *c, const struct job *job, char **cause, int ret)
{
	job_errors_add(c->errs, blame_seq(job, c->spec, *cause), *cause);
	*cause = NULL;
	return ret;
}

static int apply_value(struct job *job, const struct setting *sv, char **cause)
{
	const struct opt_def *o = sv->opt;
	struct strbuf sb = { 0 };
	char *inner = NULL;
	unsigned i;

	if (!opt_apply(o, job, sv->value, sv->bare, &inner)) {
		/* Options that share a field (direct, buffered) share the origin. */
		for (i = 0; i < opt_rows(); i++) {
			const struct opt_def *r = opt_at(i);

			/* Engines' options of one name (hipri, nowait) all take
			 * the value, as fio's of the engine the job names. */
			if (o->engine && r->engine && r->engine != o->engine &&
			    !strcmp(r->name, o->name)) {
				if (!inner && !opt_apply(r, job, sv->value, sv->bare, &inner))
					job_set_origin(job, i, &sv->origin, NULL);
				continue;
			}
			if (r->off != o->off || r->engine != o->engine)
				continue;
			job_set_origin(job, i, &sv->origin, r == o ? NULL : o->name);
		}
		if (!inner)
			return 0;
	}
	origin_format(&sv->origin, o->name, &sb);
	/* file:line: bs: ... but --bs=4q: ... as the flag was typed. */
	if (sv->origin.kind == ORIGIN_FILE)
		strbuf_addf(&sb, ": %s", o->name);
	else if (!sv->bare)
		strbuf_addf(&sb, "=%s", sv->value);
	strbuf_addf(&sb, ": %s", inner);
	if (sv->unset)
		strbuf_addf(&sb, " (%s %s not set, and ${...} of an unset variable is empty)",
			    sv->unset, strchr(sv->unset, ',') ? "are" : "is");
	free(inner);
	*cause = strbuf_detach(&sb);
	return -EINVAL;
}

/* A kb_base setting: the section it was read in, its place, its value. */
struct kb_mark {
	unsigned section, at, base;
};

static int kb_mark_cmp(const void *a, const void *b)
{
	const struct kb_mark *x = a, *y = b;

	if (x->section != y->section)
		return x->section < y->section ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * The kb_base that scales a value read in @section, as in fio: the last one
 * written in that section (wherever in it) or in a section before; @before
 * when none.  A job's kb_base does not rescale sizes that a [global]
 * section above it already gave.  @marks is sorted by section, each base
 * replaced by the last one read up to its section: one halving a lookup.
 */
static unsigned kb_base_for(const struct kb_mark *marks, unsigned n, unsigned section,
			    unsigned before)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (marks[mid].section <= section)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? marks[lo - 1].base : before;
}

/* The kb_base settings among @spec's [@from, @to), for kb_base_for; NULL
 * when none. */
static struct kb_mark *kb_marks(const struct jobspec *spec, unsigned from, unsigned to,
				const struct opt_def *kb, unsigned *n)
{
	struct kb_mark *m = NULL;
	unsigned i, last = 0;

	*n = 0;
	for (i = from; i < to; i++) {
		const struct setting *sv = jobspec_setting(spec, i);

		if (sv->opt != kb)
			continue;
		if (!m)
			m = xcalloc(to - i, sizeof(*m));
		m[*n].section = sv->origin.section;
		m[*n].at = i;
		m[(*n)++].base = (unsigned)strtoul(sv->value, NULL, 10);
	}
	if (!m)
		return NULL;
	qsort(m, *n, sizeof(*m), kb_mark_cmp);
	for (i = 0; i < *n; i++) {
		if (!i || m[i].at > m[last].at)
			last = i;
		m[i].base = m[last].base;
	}
	return m;
}

int job_defaults(struct job *job, char **cause)
{
	const struct opt_def *kb = &opt_table[OPT_KB_BASE];
	unsigned i, n = opt_rows();
	char *inner = NULL;

	memset(job, 0, sizeof(*job));
	job->origin_slot = xcalloc(n, sizeof(*job->origin_slot));
	job->eng_opts = xcalloc(1, engine_opts_size() + 1);
	/* kb_base's first of all, so "4k" always means 4096. */
	opt_apply(kb, job, kb->def, false, &inner);
	for (i = 0; i < n; i++) {
		const struct opt_def *o = opt_at(i);

		if (o->def && opt_apply(o, job, o->def, false, &inner)) {
			/* A default the table cannot parse is a bug, caught by the tests. */
			*cause = xasprintf("internal: default of %s: %s", o->name, inner);
			free(inner);
			return -EINVAL;
		}
	}
	return 0;
}

/* Makes @to a copy of @from with memory of its own (job_free_all frees it). */
static void job_copy(struct job *to, const struct job *from)
{
	unsigned i, n = opt_rows();

	*to = *from;
	/* The engines' options: a block of values, copied before their
	 * strings (exec's program) are given memory of their own below. */
	to->eng_opts = xmalloc(engine_opts_size() + 1);
	memcpy(to->eng_opts, from->eng_opts, engine_opts_size() + 1);
	for (i = 0; i < n; i++)
		if (opt_at(i)->kind->own)
			opt_at(i)->kind->own(opt_at(i), to);
	to->origin_slot = xmalloc(n * sizeof(*to->origin_slot));
	memcpy(to->origin_slot, from->origin_slot, n * sizeof(*to->origin_slot));
	to->origin_at = NULL;
	if (from->nr_origins) {
		/* Room as job_set_origin keeps it: the next power of two. */
		for (i = 1; i < from->nr_origins; i *= 2)
			;
		to->origin_at = xmalloc(i * sizeof(*to->origin_at));
		memcpy(to->origin_at, from->origin_at, from->nr_origins * sizeof(*to->origin_at));
	}
}

/* Applies one setting; a bad value is added to @errs (at its place in
 * reading order) and the job keeps the value it had. */
static int apply_noting(struct job *job, const struct setting *sv, struct job_errors *errs)
{
	char *cause = NULL;

	if (!apply_value(job, sv, &cause))
		return 0;
	job_errors_add(errs, sv->origin.seq, cause);
	return -EINVAL;
}

/*
 * Applies @spec's settings [@from, @to) to @job, which holds those before
 * @from: kb_base first (checked, and its origin noted, even with no size),
 * then the others in reading order, each scaled by its kb_base.  *@last_section
 * is the highest section applied so far; -EAGAIN when a setting in the
 * range comes from a section not after it, so kb_base could reach across
 * (the caller then builds the job from its start).  Every bad value is
 * added to @errs, and the others still applied: -EINVAL then.
 */
static int apply_range(struct job *job, const struct jobspec *spec, unsigned from, unsigned to,
		       unsigned *last_section, struct job_errors *errs)
{
	const struct opt_def *kb = opt_find("kb_base"), *name = opt_find("name");
	unsigned i, before = job->kb_base, after, nr_marks, top = *last_section;
	struct kb_mark *marks;
	int ret = 0;

	for (i = from; i < to; i++) {
		unsigned section = jobspec_setting(spec, i)->origin.section;

		if (from && section <= *last_section)
			return -EAGAIN;
		top = section > top ? section : top;
	}
	for (i = from; i < to; i++)
		if (jobspec_setting(spec, i)->opt == kb)
			ret |= apply_noting(job, jobspec_setting(spec, i), errs);
	if (ret) /* sizes would be scaled by a kb_base that is not there */
		return -EINVAL;
	after = job->kb_base;
	marks = kb_marks(spec, from, to, kb, &nr_marks);
	for (i = from; i < to; i++) {
		const struct setting *sv = jobspec_setting(spec, i);

		/* fio's name= in a global section names no job. */
		if (sv->opt == kb ||
		    (sv->opt == name && sv->origin.global && sv->origin.kind == ORIGIN_FILE))
			continue;
		job->kb_base = kb_base_for(marks, nr_marks, sv->origin.section, before);
		ret |= apply_noting(job, sv, errs);
	}
	free(marks);
	job->kb_base = after;
	*last_section = top;
	return ret ? -EINVAL : 0;
}

/*
 * The inherited part of the jobs being built: a [global] block's first
 * @n settings applied once, then copied into each job that shares them, so
 * building is linear in the settings and not in jobs times [global].
 */
struct job_base {
	const struct settings *from; /* NULL: nothing built yet */
	unsigned n;
	unsigned last_section;
	bool bad; /* a value was refused (and noted once) */
	struct job job;
};

static void job_free(struct job *job);

static void base_clear(struct job_base *base)
{
	if (base->from)
		job_free(&base->job);
	base->from = NULL;
}

/* Brings @base to @spec's inherited settings: extended when it holds a
 * start of them, else built anew.  0, -EAGAIN, or -EINVAL when a value
 * it holds was refused (each noted in @errs once, for every job). */
static int base_update(struct job_base *base, const struct jobspec *spec, struct job_errors *errs,
		       char **cause)
{
	int ret;

	if (base->from != spec->inherited || base->n > spec->nr_inherited) {
		base_clear(base);
		ret = job_defaults(&base->job, cause);
		if (ret) {
			job_free(&base->job);
			return ret;
		}
		base->from = spec->inherited;
		base->n = 0;
		base->last_section = 0;
		base->bad = false;
	}
	ret = apply_range(&base->job, spec, base->n, spec->nr_inherited, &base->last_section, errs);
	if (ret == -EAGAIN) {
		base_clear(base);
		return ret;
	}
	base->n = spec->nr_inherited;
	base->bad |= ret == -EINVAL;
	return base->bad ? -EINVAL : 0;
}

/* Builds @spec into @job.  0; -EINVAL with the bad values in @errs (the
 * job is built, without them); or -ENOMEM-like failures with *cause. */
static int job_build(const struct jobspec *spec, struct job_base *base, struct job *job,
		     struct job_errors *errs, char **cause)
{
	unsigned nr = jobspec_nr_settings(spec), last = 0;
	int ret = spec->inherited ? base_update(base, spec, errs, cause) : -EAGAIN;
	bool bad = ret == -EINVAL;

	if (!ret || bad) {
		job_copy(job, &base->job);
		last = base->last_section;
		ret = apply_range(job, spec, spec->nr_inherited, nr, &last, errs);
		if (ret == -EAGAIN)
			job_free(job);
	} else if (ret != -EAGAIN) {
		return ret;
	}
	/* Sections out of order (or nothing inherited): all of it, in one go. */
	if (ret == -EAGAIN) {
		last = 0;
		bad = false;
		ret = job_defaults(job, cause);
		if (ret)
			return ret;
		ret = apply_range(job, spec, 0, nr, &last, errs);
	}
	if (!job->name) {
		job->name = xstrdup(spec->name);
		job_set_origin(job, opt_index(opt_find("name")), &spec->where, NULL);
	}
	return bad ? -EINVAL : ret;
}

void job_bs_bounds(const struct job *job, enum ddir d, uint64_t *lo, uint64_t *hi)
{
	unsigned i;

	*lo = *hi = job->bs[d];
	if (job->bsrange_max[d]) {
		*lo = job->bsrange_min[d];
		*hi = job->bsrange_max[d];
	}
	if (job->nr_bssplit[d]) {
		*lo = UINT64_MAX;
		*hi = 0;
		for (i = 0; i < job->nr_bssplit[d]; i++) {
			uint64_t bs = job->bssplit[d][i].bs;

			*lo = bs < *lo ? bs : *lo;
			*hi = bs > *hi ? bs : *hi;
		}
	}
}

void job_bs_span(const struct job *job, uint64_t *lo, uint64_t *hi)
{
	uint64_t l, h;
	unsigned d;

	*lo = UINT64_MAX;
	*hi = 0;
	for (d = 0; d < DDIR_COUNT; d++) {
		if (!job_does(job, (enum ddir)d))
			continue;
		job_bs_bounds(job, (enum ddir)d, &l, &h);
		*lo = l < *lo ? l : *lo;
		*hi = h > *hi ? h : *hi;
	}
}

const struct engine_ops *job_engine(const struct job *job)
{
	return job->ioengine && !(job->ioengine->flags & ENGINE_F_ABSENT) ? job->ioengine : NULL;
}

static const char *bs_option(const struct job *job)
{
	if (is_set(job, "bssplit"))
		return "bssplit";
	if (is_set(job, "bsrange"))
		return "bsrange";
	return "bs";
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* verify_interval, verify_offset, verify_only: the bytes each header
 * covers (fio's default: the block, or with block sizes that vary, the
 * largest size that divides them all) and where in them it goes. */
static int check_verify_chunks(struct job *job, const char *kind, struct conflicts *c, char **cause)
{
	enum ddir d = job_does(job, DDIR_WRITE) ? DDIR_WRITE : DDIR_READ;
	uint64_t lo, hi, g, chunk;
	unsigned i;

	job_bs_bounds(job, d, &lo, &hi);
	g = gcd64(lo, hi);
	for (i = 0; i < job->nr_bssplit[d]; i++)
		g = gcd64(g, job->bssplit[d][i].bs);
	if (job->verify_interval && g % job->verify_interval)
		return job_fail_at(job, "verify_interval", cause,
				   "verify_interval=%u does not divide every block size (%s=%llu): "
				   "fio would quietly use %llu instead: set that",
				   job->verify_interval, bs_option(job),
				   (unsigned long long)(lo == hi ? lo : g),
				   (unsigned long long)(job->verify_interval > lo ? lo : g));
	if (!job->verify_interval && lo != hi)
		job->verify_interval = (unsigned)g;
	chunk = job->verify_interval ? job->verify_interval : lo;
	if (job->verify_offset && verify_has_header(job->verify) &&
	    (job->verify_offset < sizeof(struct verify_hdr) ||
	     job->verify_offset + sizeof(struct verify_hdr) > chunk))
		return job_fail_at(job, "verify_offset", cause,
				   "verify_offset=%u: verify=%s's %zu-byte header must fit at that "
				   "offset in each %llu bytes it covers, after a header's length "
				   "(from %zu to %llu)",
				   job->verify_offset, kind, sizeof(struct verify_hdr),
				   (unsigned long long)chunk, sizeof(struct verify_hdr),
				   (unsigned long long)(chunk - sizeof(struct verify_hdr)));
	if (job->trim_percentage && job->rw != RW_TRIMWRITE && job->rw != RW_RANDTRIMWRITE)
		noted(c, job, cause,
		      job_fail_at(job, later(job, "trim_percentage", "rw"), cause,
				  "trim_percentage trims blocks written: it needs rw=trimwrite or "
				  "randtrimwrite (fio 3.33 aborts on an assertion with rw=%s)",
				  opt_enum_name(OPT_RW, (int)job->rw)));
	if (job->trim_percentage && !job->trim_backlog)
		noted(c, job, cause,
		      job_fail_at(
			      job, "trim_percentage", cause,
			      "trim_percentage=%u needs trim_backlog=N, how many writes between "
			      "trims (without it fio trims nothing)",
			      job->trim_percentage));
	if (job->verify_state_load && !job->verify_only)
		noted(c, job, cause,
		      job_fail_at(job, "verify_state_load", cause,
				  "verify_state_load limits a verify_only run to the writes a run "
				  "before saved: it needs verify_only=1"));
	if (job->verify_only && job->time_based)
		noted(c, job, cause,
		      job_fail_at(job, later(job, "verify_only", "time_based"), cause,
				  "verify_only reads back what the workload would write: not a "
				  "time_based workload (fio does not support it either)"));
	if (job->verify_only && !job->do_verify)
		noted(c, job, cause,
		      job_fail_at(job, later(job, "verify_only", "do_verify"), cause,
				  "verify_only with do_verify=0 would neither write nor verify"));
	return 0;
}

/* verify=: what this version computes, and what it needs of the job.
 * verify_pattern alone means verify=pattern, as in fio. */
static int check_verify(struct job *job, const struct engine_ops *ops, struct conflicts *c,
			char **cause)
{
	const char *kind;
	uint64_t lo, hi;
	unsigned d;

	if (is_set(job, "verify_pattern") && !is_set(job, "verify")) {
		job->verify = VERIFY_PATTERN;
		origin_via(job, "verify", "verify_pattern");
	}
	if (job->verify == VERIFY_NONE && job->verify_only)
		return job_fail_at(job, "verify_only", cause,
				   "verify_only reads back and checks blocks: it needs verify=");
	if (job->verify == VERIFY_NONE && job->trim_percentage)
		return job_fail_at(
			job, "trim_percentage", cause,
			"trim_percentage trims blocks written with verify and checks them: "
			"it needs verify=");
	if (job->verify == VERIFY_NONE)
		return 0;
	kind = opt_enum_name(OPT_VERIFY, (int)job->verify);
	if ((job->verify == VERIFY_PATTERN || job->verify == VERIFY_PATTERN_HDR) &&
	    !job->verify_pattern.len)
		return job_fail_at(job, "verify", cause, "verify=%s needs verify_pattern=", kind);
	if (job_does(job, DDIR_TRIM) && !job_does(job, DDIR_WRITE))
		return job_fail_at(job, later(job, "verify", "rw"), cause,
				   "verify=%s checks written blocks: rw=%s writes none", kind,
				   opt_enum_name(OPT_RW, (int)job->rw));
	if (ops && (ops->flags & ENGINE_F_NOFILES))
		return job_fail_at(
			job, later(job, "verify", "ioengine"), cause,
			"ioengine=%s stores nothing, so verify=%s has nothing to read back",
			ops->name, kind);
	if (job->sub_blocks > 1)
		return job_fail_at(
			job, later(job, "verify", "sub_blocks"), cause,
			"verify=%s checks whole blocks: it cannot be used with sub_blocks", kind);
	for (d = DDIR_READ; d <= DDIR_WRITE && verify_has_header(job->verify); d++) {
		if (!job_does(job, d))
			continue;
		job_bs_bounds(job, d, &lo, &hi);
		if (lo < sizeof(struct verify_hdr))
			return job_fail_at(
				job, is_set(job, bs_option(job)) ? bs_option(job) : "verify", cause,
				"verify=%s starts each block with a %zu-byte header: the "
				"block size %llu is smaller",
				kind, sizeof(struct verify_hdr), (unsigned long long)lo);
	}
	return check_verify_chunks(job, kind, c, cause);
}

/* The pacing options' rules, as fio's: a minimum rate and a minimum IOPS
 * are one or the other, and a cap below its own minimum cannot be met.
 * Notes whether the job sets an I/O priority. */
static int check_pacing(struct job *job, char **cause)
{
	static const char *const dname[DDIR_COUNT] = { "read", "write", "trim" };
	bool min_bw = false, min_iops = false;
	unsigned d;

	for (d = 0; d < DDIR_COUNT; d++) {
		min_bw |= job->rate_min[d] != 0;
		min_iops |= job->rate_iops_min[d] != 0;
		if (job->rate[d] && job->rate[d] < job->rate_min[d])
			return job_fail_at(
				job, later(job, "rate", "rate_min"), cause,
				"rate_min=%llu is above rate=%llu for %ss: it cannot be met",
				(unsigned long long)job->rate_min[d],
				(unsigned long long)job->rate[d], dname[d]);
		if (job->rate_iops[d] && job->rate_iops[d] < job->rate_iops_min[d])
			return job_fail_at(
				job, later(job, "rate_iops", "rate_iops_min"), cause,
				"rate_iops_min=%llu is above rate_iops=%llu for %ss: it cannot be met",
				(unsigned long long)job->rate_iops_min[d],
				(unsigned long long)job->rate_iops[d], dname[d]);
	}
	if (min_bw && min_iops)
		return job_fail_at(job, later(job, "rate_min", "rate_iops_min"), cause,
				   "rate_min and rate_iops_min are one or the other (as in fio)");
	/* As fio: with thinktime_iotime, thinktime_blocks counts only when given. */
	job->thinktime_iotime_only = job->thinktime_iotime && !is_set(job, "thinktime_blocks");
	/* As fio: the clone's I/O priority is set only when one is given. */
	job->ioprio_set = is_set(job, "prio") || is_set(job, "prioclass");
	return 0;
}

/* As fio's gtod_reduce callback: it disables every latency and the
 * percentiles, but a part set after it keeps its own value, since fio
 * applies options in order. */
static void apply_gtod_reduce(struct job *job)
{
	static const struct {
		const char *name;
		size_t off;
		bool val;
	} parts[] = {
		{ "disable_lat", offsetof(struct job, disable_lat), true },
		{ "disable_clat", offsetof(struct job, disable_clat), true },
		{ "disable_slat", offsetof(struct job, disable_slat), true },
		{ "disable_bw_measurement", offsetof(struct job, disable_bw), true },
		{ "clat_percentiles", offsetof(struct job, clat_percentiles), false },
		{ "lat_percentiles", offsetof(struct job, lat_percentiles), false },
	};
	unsigned i;

	if (!job->gtod_reduce)
		return;
	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		if (strcmp(later(job, "gtod_reduce", parts[i].name), "gtod_reduce"))
			continue;
		*(bool *)((char *)job + parts[i].off) = parts[i].val;
		origin_via(job, parts[i].name, "gtod_reduce");
	}
}

/* The error types passed over (fio's continue_on_error bits): those
 * continue_on_error names, and, unless it was set after ignore_error,
 * each type ignore_error lists errnos for, as fio's. */
static void error_types(struct job *job)
{
	static const unsigned coe_bits[] = {
		[COE_NONE] = 0, [COE_READ] = 1,	  [COE_WRITE] = 2,
		[COE_IO] = 3,	[COE_VERIFY] = 4, [COE_ALL] = 7,
	};
	unsigned t;

	job->continue_types = coe_bits[job->continue_on_error];
	if (is_set(job, "continue_on_error") &&
	    !strcmp(later(job, "continue_on_error", "ignore_error"), "continue_on_error") &&
	    is_set(job, "ignore_error"))
		return;
	for (t = 0; t < ERR_TYPE_COUNT; t++)
		if (job->ignore_error.nr[t])
			job->continue_types |= 1u << t;
}

/* Whether engine @ops has an option called @name. */
static bool engine_has_option(const struct engine_ops *ops, const char *name)
{
	unsigned i;

	for (i = 0; ops->options && ops->options[i].name; i++)
		if (!strcmp(ops->options[i].name, name))
			return true;
	return false;
}

/* opendir: every regular file below @dir, recursively, in the order the
 * directory gives them (as fio's), added to the job's files.  0 or -errno. */
static int add_dir_files(struct job *job, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat st;
	int ret = 0;

	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		char *path;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(path, &st) < 0) {
			ret = errno == ENOENT ? 0 : -errno;
			free(path);
		} else if (S_ISREG(st.st_mode)) {
			str_list_push(&job->filename, path);
		} else {
			if (S_ISDIR(st.st_mode))
				ret = add_dir_files(job, path);
			free(path);
		}
	}
	closedir(d);
	return ret;
}

/* Where the I/O goes and its sizes.  zonemode, zonesize, zonerange,
 * zoneskip: as fio 3.33, zonesize needs
 * zonemode=strided (its default none refuses one), and zonerange
 * defaults to zonesize.  bs_is_seq_rand in a random job with read and
 * write sizes apart is refused: fio 3.33 cuts such a job short (its
 * random map counts blocks of one size, its offsets step by the other). */
static int check_offsets(struct job *job, struct conflicts *c, char **cause)
{
	uint64_t lo, hi;

	if (job->bs_unaligned && job->direct)
		noted(c, job, cause,
		      job_fail_at(job, later(job, "bs_unaligned", "direct"), cause,
				  "bs_unaligned=1 makes block sizes of any byte count, which "
				  "direct=1 cannot do (fio's runs fail with EINVAL)"));
	if (job->bs_is_seq_rand && job_is_random(job->rw) &&
	    (job->bs[DDIR_READ] != job->bs[DDIR_WRITE] || job->nr_bssplit[0] ||
	     job->nr_bssplit[1] || job->bsrange_max[0] || job->bsrange_max[1]))
		noted(c, job, cause,
		      job_fail_at(job, "bs_is_seq_rand", cause,
				  "bs_is_seq_rand with rw=%s needs one fixed block size for reads "
				  "and writes: fio 3.33 ends such a job after a few I/Os (its "
				  "random offsets step by one size, its random map by the other)",
				  opt_enum_name(OPT_RW, (int)job->rw)));

	if (job->zonemode == ZONE_NONE && job->zonesize)
		return noted(
			c, job, cause,
			job_fail_at(
				job,
				is_set(job, "zonemode") ? later(job, "zonemode", "zonesize")
							: "zonesize",
				cause,
				"zonesize=%llu needs zonemode=strided (zonemode=none refuses it, "
				"as in fio)",
				(unsigned long long)job->zonesize));
	if (job->zonemode == ZONE_NONE)
		return 0;
	if (!job->zonesize)
		return noted(
			c, job, cause,
			job_fail_at(job, "zonemode", cause, "zonemode=strided needs zonesize="));
	if (!job->zonerange)
		job->zonerange = job->zonesize;
	job_bs_span(job, &lo, &hi);
	if (job->zonerange < hi)
		return noted(
			c, job, cause,
			job_fail_at(
				job, is_set(job, "zonerange") ? "zonerange" : "zonesize", cause,
				"a zone's span of %llu bytes is smaller than the block size %llu",
				(unsigned long long)job->zonerange, (unsigned long long)hi));
	if (job->random_distribution.kind != RDIST_RANDOM || job->stride || job->rw_seq_add < 0)
		return noted(
			c, job, cause,
			job_fail_at(job, "zonemode", cause,
				    "zonemode=strided goes with random_distribution=random, no "
				    "stride and no backwards rw=...:N gap"));
	return 0;
}

/* numa_cpu_nodes, numa_mem_policy: read by libnuma, against this
 * machine's nodes, as fio reads them when it parses the job. */
static int check_numa(const struct job *job, char **cause)
{
	const char *name = job->numa_cpu_nodes ? "numa_cpu_nodes" : "numa_mem_policy";
	const char *val = job->numa_cpu_nodes ? job->numa_cpu_nodes : job->numa_mem_policy;
	char *why = NULL;
	int ret = 0;

	if (job->numa_cpu_nodes)
		ret = nodes_check_list(job->numa_cpu_nodes, &why);
	if (!ret && job->numa_mem_policy) {
		name = "numa_mem_policy";
		val = job->numa_mem_policy;
		ret = nodes_check_policy(job->numa_mem_policy, &why);
	}
	if (ret) {
		ret = job_fail_at(job, name, cause, "%s=%s: %s", name, val, why);
		free(why);
	}
	return ret;
}

/* sync_file_range=FLAGS[:N], as fio reads it: flags joined by commas,
 * N writes between calls (1 when not given; 0: none). */
static int check_sfr(struct job *job, char **cause)
{
	static const struct {
		const char *name;
		unsigned flag;
	} flags[] = { { "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
		      { "write", SYNC_FILE_RANGE_WRITE },
		      { "wait_after", SYNC_FILE_RANGE_WAIT_AFTER } };
	const char *s = job->sync_file_range, *colon;
	size_t i, n;

	if (!s)
		return 0;
	job->sfr_flags = 0;
	job->sfr_nr = 1;
	colon = strchr(s, ':');
	if (colon) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(colon + 1, &end, 10);
		if (end == colon + 1 || *end || errno || v > UINT32_MAX)
			return job_fail_at(job, "sync_file_range", cause,
					   "sync_file_range=%s: '%s' is not a number of writes", s,
					   colon + 1);
		job->sfr_nr = (unsigned)v;
	}
	while (*s && s != colon) {
		n = strcspn(s, ",:");
		for (i = 0; i < ARRAY_SIZE(flags); i++)
			if (strlen(flags[i].name) == n && !strncmp(s, flags[i].name, n))
				break;
		if (i == ARRAY_SIZE(flags))
			return job_fail_at(
				job, "sync_file_range", cause,
				"sync_file_range=%s: '%.*s' is not wait_before, write or "
				"wait_after",
				job->sync_file_range, (int)n, s);
		job->sfr_flags |= flags[i].flag;
		s += n + (s[n] == ',');
	}
	/* One sync each N writes here: fio's would interleave two kinds. */
	if (job->sfr_nr && (job->fsync || job->fdatasync))
		return job_fail_at(
			job, later(job, "sync_file_range", job->fsync ? "fsync" : "fdatasync"),
			cause, "sync_file_range and %s: iogauge issues one kind of sync",
			job->fsync ? "fsync" : "fdatasync");
	return 0;
}

/* buffer_pattern and dedupe_*, as fio checks them. */
static int check_buffers(struct job *job, char **cause)
{
	uint64_t lo, hi;

	/* As fio's buffer_pattern: scramble_buffers off, unless set after it. */
	if (job->buffer_pattern.len && job->scramble_buffers &&
	    (!is_set(job, "scramble_buffers") ||
	     strcmp(later(job, "buffer_pattern", "scramble_buffers"), "scramble_buffers"))) {
		job->scramble_buffers = false;
		origin_via(job, "scramble_buffers", "buffer_pattern");
	}

	/* A power of two: fio rounds with a mask, which only those make right. */
	if (job->hugepage_size.pct ||
	    (job->hugepage_size.val && (job->hugepage_size.val % iomem_huge_page_size() ||
					(job->hugepage_size.val & (job->hugepage_size.val - 1)))))
		return job_fail_at(job, "hugepage-size", cause,
				   "hugepage-size must be a power of two and a multiple of this "
				   "system's huge page, %zu bytes (/proc/meminfo's Hugepagesize)",
				   iomem_huge_page_size());
	if (job->lockmem.pct)
		return job_fail_at(job, "lockmem", cause,
				   "lockmem takes a size in bytes, not a percentage");
	if (job->buffer_pattern.nr_off)
		return job_fail_at(job, "buffer_pattern", cause,
				   "buffer_pattern takes no %%o (fio's reads no format in it)");
	if (!job->dedupe_percentage || job->dedupe_mode != DEDUPE_WORKING_SET)
		return 0;
	job_bs_bounds(job, DDIR_WRITE, &lo, &hi);
	if (job->size.pct || !job->size.val)
		return job_fail_at(job, is_set(job, "size") ? "size" : "dedupe_mode", cause,
				   "dedupe_mode=working_set needs size= in bytes (its pages are a "
				   "share of it)");
	if (job->nrfiles != 1)
		return job_fail_at(job, later(job, "nrfiles", "dedupe_mode"), cause,
				   "dedupe_mode=working_set takes one file per job, not nrfiles=%u",
				   job->nrfiles);
	if (job->dedupe_percentage + job->dedupe_working_set_percentage > 100)
		return job_fail_at(
			job, later(job, "dedupe_percentage", "dedupe_working_set_percentage"),
			cause,
			"dedupe_percentage=%u and dedupe_working_set_percentage=%u pass 100%% "
			"(the working set's pages are unique ones)",
			job->dedupe_percentage, job->dedupe_working_set_percentage);
	if (job->size.val / 100 * job->dedupe_working_set_percentage < lo)
		return job_fail_at(job, "dedupe_working_set_percentage", cause,
				   "dedupe_working_set_percentage=%u of size=%llu is less than "
				   "one block of %llu bytes",
				   job->dedupe_working_set_percentage,
				   (unsigned long long)job->size.val, (unsigned long long)lo);
	return 0;
}

/*
 * read_iolog: the log decides the files, the size (its bytes), the block
 * size (its largest I/O per direction, for the buffers) and rw (the
 * directions it has).  What would decide them otherwise, or pace the I/O
 * another way, is refused rather than mixed in.
 */
static int check_replay(struct job *job, char **cause)
{
	static const char *const clash[] = { "size",	   "io_size", "filesize", "nrfiles",
					     "time_based", "loops",   "rate",	  "rate_iops",
					     "verify",	   "rw",      "offset",	  "openfiles" };
	struct replay rp;
	unsigned i, d;
	char *inner = NULL;
	int ret;

	for (i = 0; i < ARRAY_SIZE(clash); i++)
		if (is_set(job, clash[i]))
			return job_fail_at(job, clash[i], cause,
					   "%s with read_iolog: the log decides what is done "
					   "(see read_iolog in iogauge-jobfile(5))",
					   clash[i]);
	if (job->filename.n && !job->replay_redirect)
		return job_fail_at(job, "filename", cause,
				   "filename with read_iolog: the log names the files; "
				   "replay_redirect sends its I/O to another one");
	/* fio hands the logs of A:B:... to the clones in turn. */
	if (!job->merge_blktrace_file && strchr(job->read_iolog, ':') &&
	    access(job->read_iolog, F_OK))
		return job_fail_at(job, "read_iolog", cause,
				   "read_iolog=%s: a log per clone (fio's A:B:... list) is not "
				   "replayed; merge_blktrace_file merges blktrace traces into one",
				   job->read_iolog);
	ret = replay_load(&rp, job, &inner);
	if (ret) {
		ret = ret == -EINVAL ? job_fail_at(job, "read_iolog", cause, "%s", inner)
				     : set_cause_errno(cause, -ret, "[%s] %s", job->name, inner);
		free(inner);
		return ret;
	}
	if (rp.bytes[2] && (rp.bytes[0] || rp.bytes[1])) {
		replay_free(&rp);
		return job_fail_at(job, "read_iolog", cause,
				   "read_iolog %s: trims with reads or writes are not replayed",
				   job->read_iolog);
	}
	/* A blktrace's deepest queue, as fio's iodepth unless set (an engine
	 * that does one I/O at a time has no use for it). */
	if (!rp.version && !is_set(job, "iodepth") && job_engine(job) &&
	    !(job_engine(job)->flags & ENGINE_F_SYNC)) {
		job->iodepth = rp.depth;
		origin_via(job, "iodepth", "read_iolog");
	}
	str_list_clear(&job->filename);
	str_list_copy(&job->filename, &rp.files);
	job->nrfiles = rp.files.n;
	job->size.val = rp.bytes[0] + rp.bytes[1] + rp.bytes[2];
	job->size.pct = false;
	for (d = 0; d < 3; d++)
		if (rp.max_len[d])
			job->bs[d] = rp.max_len[d];
	job->rw = rp.bytes[2]		       ? RW_TRIM
		  : rp.bytes[0] && rp.bytes[1] ? RW_READWRITE
		  : rp.bytes[1]		       ? RW_WRITE
					       : RW_READ;
	replay_free(&rp);
	if (!job->replay_redirect)
		origin_via(job, "filename", "read_iolog");
	origin_via(job, "nrfiles", "read_iolog");
	origin_via(job, "size", "read_iolog");
	origin_via(job, "bs", "read_iolog");
	origin_via(job, "rw", "read_iolog");
	return 0;
}

static int check_job(struct job *job, struct conflicts *c, char **cause)
{
	const struct engine_ops *ops = job_engine(job);
	uint64_t bs = 0, lo, region = 0;
	const char *limit = NULL;
	unsigned i;

	if (job->opendir) {
		int err = add_dir_files(job, job->opendir);

		if (err)
			return job_fail_at(job, "opendir", cause, "opendir=%s: %s", job->opendir,
					   strerror(-err));
		if (!job->filename.n)
			return job_fail_at(job, "opendir", cause,
					   "opendir=%s: no regular file below it", job->opendir);
	}
	apply_gtod_reduce(job);
	error_types(job);
	if (job->merge_blktrace_file && !job->read_iolog)
		return job_fail_at(job, "merge_blktrace_file", cause,
				   "merge_blktrace_file merges the blktrace traces of read_iolog, "
				   "and there is none");
	/* As fio's atomic: O_DIRECT whatever direct or buffered say. */
	if (job->atomic && !job->direct) {
		job->direct = true;
		origin_via(job, "direct", "atomic");
	}
	if (job->read_iolog) {
		int ret = check_replay(job, cause);

		if (ret)
			return ret;
	}
	if (job->clocksource == CLOCKSOURCE_CPU && !clock_have_tsc())
		noted(c, job, cause,
		      job_fail_at(
			      job, "clocksource", cause,
			      "clocksource=cpu needs a CPU clock (x86's TSC); this build has none"));
	if (is_set(job, "rwmixread") && is_set(job, "rwmixwrite") &&
	    !origin_of(job, "rwmixread")->via && !origin_of(job, "rwmixwrite")->via) {
		if (job->rwmix_read + job->rwmix_write != 100)
			noted(c, job, cause,
			      job_fail_at(
				      job, later(job, "rwmixread", "rwmixwrite"), cause,
				      "rwmixread=%u and rwmixwrite=%u add up to %u%%, not 100%%",
				      job->rwmix_read, job->rwmix_write,
				      job->rwmix_read + job->rwmix_write));
	} else if (is_set(job, "rwmixwrite")) {
		job->rwmix_read = 100 - job->rwmix_write;
		origin_via(job, "rwmixread", "rwmixwrite");
	} else if (is_set(job, "rwmixread")) {
		origin_via(job, "rwmixwrite", "rwmixread");
	}
	job->rwmix_write = 100 - job->rwmix_read;

	job_bs_span(job, &lo, &bs);
	if (!job->size.pct && job->size.val) {
		region = job->size.val;
		limit = "size";
	} else if (job->filesize_min) {
		region = job->filesize_min;
		limit = "filesize";
	}
	/* Blame the block size when it was written, else the limit. */
	if (limit && bs > region)
		noted(c, job, cause,
		      job_fail_at(job, is_set(job, bs_option(job)) ? bs_option(job) : limit, cause,
				  "block size %llu is larger than the %s of %llu bytes",
				  (unsigned long long)bs, limit, (unsigned long long)region));

	if (job->iodepth_batch_complete_max &&
	    job->iodepth_batch_complete_min > job->iodepth_batch_complete_max)
		noted(c, job, cause,
		      job_fail_at(
			      job,
			      later(job, "iodepth_batch_complete_min",
				    "iodepth_batch_complete_max"),
			      cause,
			      "iodepth_batch_complete_min=%u is above iodepth_batch_complete_max=%u",
			      job->iodepth_batch_complete_min, job->iodepth_batch_complete_max));
	if (job->iodepth_batch_submit > job->iodepth)
		noted(c, job, cause,
		      job_fail_at(job, later(job, "iodepth_batch_submit", "iodepth"), cause,
				  "iodepth_batch_submit=%u is above iodepth=%u",
				  job->iodepth_batch_submit, job->iodepth));

	/* An engine this build lacks is refused when the job runs. */
	for (i = OPT_NR; ops && i < opt_rows(); i++) {
		const struct opt_def *o = opt_at(i);
		const char *owner = o->engine->name;

		if (o->engine != ops && !engine_has_option(ops, o->name) &&
		    !job_option_is_default(job, o))
			noted(c, job, cause,
			      job_fail_at(job, o->name, cause,
					  "%s is %s %s option; ioengine=%s does not use it",
					  o->name, strchr("aeiou", owner[0]) ? "an" : "a", owner,
					  ops->name));
	}
	if (ops && ops->check) {
		const struct opt_def *blame = &opt_table[OPT_IOENGINE];
		char *why = NULL;
		int ret = ops->check(job, engine_opts_of(job, ops), &blame, &why);

		if (ret) {
			noted(c, job, cause, job_fail_at(job, blame->name, cause, "%s", why));
			free(why);
		}
	}
	if (ops && (ops->flags & ENGINE_F_HOLDSFILES) && job->openfiles &&
	    job->openfiles < (job->filename.n ? job->filename.n : job->nrfiles))
		noted(c, job, cause,
		      job_fail_at(job, later(job, "openfiles", "ioengine"), cause,
				  "ioengine=%s keeps every file open (mapped), so openfiles=%u "
				  "cannot be below the number of files",
				  ops->name, job->openfiles));
	/* cpuio moves nothing: one block is all the region its offsets need. */
	if (ops && (ops->flags & ENGINE_F_NOIO) && !job->size.val && !job->size.pct &&
	    !job->filesize_min)
		job->size.val = bs;
	if (ops && (ops->flags & ENGINE_F_NOFILES) &&
	    (job->size.pct ||
	     (!job->size.val && !job->filesize_min && !(ops->flags & ENGINE_F_BLOCKFILE)) ||
	     job->offset.pct || job->offset_increment.pct))
		noted(c, job, cause,
		      job_fail_at(job, "ioengine", cause,
				  "ioengine=%s opens no file, so it needs size= (or filesize=) in "
				  "bytes, and offsets in bytes",
				  ops->name));
	/* As fio: cpumask and cpus_allowed set one mask, the later wins. */
	if (is_set(job, "cpumask") && (!is_set(job, "cpus_allowed") ||
				       !strcmp(later(job, "cpumask", "cpus_allowed"), "cpumask"))) {
		memset(job->cpus_allowed, 0, sizeof(job->cpus_allowed));
		job->cpus_allowed[0] = job->cpumask;
		job->cpus_allowed_set = true;
		origin_via(job, "cpus_allowed", "cpumask");
	}
	if (job->cpus_allowed_set) {
		const char *mask_opt =
			origin_of(job, "cpus_allowed")->via ? "cpumask" : "cpus_allowed";
		cpu_set_t avail;

		if (sched_getaffinity(0, sizeof(avail), &avail) < 0)
			CPU_ZERO(&avail);
		for (i = 0; i < JOB_MAX_CPUS; i++)
			if ((job->cpus_allowed[i / 64] >> (i % 64) & 1) &&
			    (i >= CPU_SETSIZE || !CPU_ISSET(i, &avail))) {
				noted(c, job, cause,
				      job_fail_at(job, mask_opt, cause,
						  "%s: CPU %u is not one this program may run "
						  "on (%d CPUs: 0-%d)",
						  mask_opt, i, CPU_COUNT(&avail),
						  CPU_COUNT(&avail) - 1));
				break;
			}
	}
	if (check_numa(job, cause))
		noted(c, job, cause, -EINVAL);
	if (check_buffers(job, cause))
		noted(c, job, cause, -EINVAL);
	if (check_sfr(job, cause))
		noted(c, job, cause, -EINVAL);
	job->uid_set = is_set(job, "uid");
	job->gid_set = is_set(job, "gid");
	if (job->thinktime_spin > job->thinktime)
		noted(c, job, cause,
		      job_fail_at(
			      job, later(job, "thinktime", "thinktime_spin"), cause,
			      "thinktime_spin=%lluus is longer than thinktime=%lluus (the spin is "
			      "part of the think)",
			      (unsigned long long)job->thinktime_spin / 1000,
			      (unsigned long long)job->thinktime / 1000));
	if (check_pacing(job, cause))
		noted(c, job, cause, -EINVAL);
	if (job->sub_blocks > 1) {
		bool scatter = job->sub_block_io == SUBIO_SCATTER;
		const char *why = NULL;

		if (job->nr_bssplit[0] || job->nr_bssplit[1] || job->bsrange_max[0] ||
		    job->bsrange_max[1])
			why = "needs one block size (no bsrange or bssplit)";
		else if (job->bs[0] % job->sub_blocks || job->bs[1] % job->sub_blocks)
			why = "must divide the block size";
		/* copy does its I/O from the contiguous buffer: only scatter
		 * hands the pieces to the device. */
		else if (scatter && job->direct && (bs / job->sub_blocks) % 512)
			why = "with direct=1 needs pieces of a multiple of 512 bytes";
		else if (scatter && ops && !(ops->flags & ENGINE_F_VECTORED))
			why = "needs an engine that does vectored I/O (psync, sync, pvsync, "
			      "pvsync2, libaio, io_uring)";
		else if (scatter && job->iomem != IOMEM_MALLOC)
			why = "scatters into pieces of their own (malloc), so iomem= would not "
			      "be the memory the device reads or writes; use iomem=malloc";
		if (why)
			noted(c, job, cause,
			      job_fail_at(job, "sub_blocks", cause, "sub_blocks=%u %s",
					  job->sub_blocks, why));
	}
	if (job->stride && (job_is_random(job->rw) || job->rw == RW_READWRITE))
		noted(c, job, cause,
		      job_fail_at(job, later(job, "stride", "rw"), cause,
				  "stride=%u needs rw=read or rw=write (a sequential pattern)",
				  job->stride));
	if (job->stride && (job->rw_seq_add || job->nr_bssplit[0] || job->nr_bssplit[1] ||
			    job->bsrange_max[0] || job->bsrange_max[1]))
		noted(c, job, cause,
		      job_fail_at(job, "stride", cause,
				  "stride=%u needs one block size and no rw=...:N gap",
				  job->stride));
	if (job->stride && job->stride < job->numjobs)
		noted(c, job, cause,
		      job_fail_at(
			      job, later(job, "stride", "numjobs"), cause,
			      "stride=%u gives fewer columns than numjobs=%u (SQLIO: -f must be "
			      "at least -t)",
			      job->stride, job->numjobs));
	check_offsets(job, c, cause);
	if (check_verify(job, ops, c, cause))
		noted(c, job, cause, -EINVAL);
	return 0;
}

/* Where in reading order a job_fail_at() message belongs: at the option
 * it blames (its text starts with that option's origin), else at the job. */
static unsigned blame_seq(const struct job *job, const struct jobspec *spec, const char *msg)
{
	struct strbuf sb = { 0 };
	unsigned i, seq = spec->where.seq;

	for (i = 0; i < opt_rows(); i++) {
		const struct origin *o = job_origin(job, i);

		if (o->kind == ORIGIN_DEFAULT)
			continue;
		sb.len = 0;
		origin_format(o, opt_at(i)->name, &sb);
		strbuf_adds(&sb, ": [");
		if (!strncmp(msg, sb.buf, sb.len)) {
			seq = o->seq;
			break;
		}
	}
	strbuf_free(&sb);
	return seq;
}

/* A job whose values were all taken gets its conflicts checked: the first
 * of check_job's is noted (a later check may rest on what an earlier one
 * refused), and those with other jobs, which rest on nothing of it. */
static void check_built(struct job *v, unsigned i, const struct jobspec *spec,
			struct job_errors *errs)
{
	struct conflicts c = { .spec = spec, .errs = errs };
	char *cause = NULL;
	unsigned j;

	if (check_job(&v[i], &c, &cause)) {
		job_errors_add(errs, blame_seq(&v[i], spec, cause), cause);
		cause = NULL;
	}
	/* One clock for the run: fio's clocksource is global. */
	if (v[i].clocksource != v[0].clocksource) {
		job_fail_at(&v[i], "clocksource", &cause,
			    "clocksource=%s, but [%s] has %s: it is one for the whole run",
			    opt_enum_name(OPT_CLOCKSOURCE, (int)v[i].clocksource), v[0].name,
			    opt_enum_name(OPT_CLOCKSOURCE, (int)v[0].clocksource));
		job_errors_add(errs, blame_seq(&v[i], spec, cause), cause);
		cause = NULL;
	}
	if (v[i].wait_for) {
		for (j = 0; j < i; j++)
			if (!strcmp(v[j].name, v[i].wait_for))
				break;
		if (j == i) {
			job_fail_at(&v[i], "wait_for", &cause, "wait_for=%s names no earlier job",
				    v[i].wait_for);
			job_errors_add(errs, blame_seq(&v[i], spec, cause), cause);
		}
	}
}

int job_build_all(const struct jobset *js, struct job **jobs, unsigned *nr, char **cause)
{
	struct job *v = xcalloc(js->nr ? js->nr : 1, sizeof(*v));
	struct job_base base = { 0 };
	struct job_errors errs;
	unsigned i, built;
	int ret = 0;

	/* The reader's errors first: a jobset with any does not run.  Jobs
	 * cut short by input that is not text are not built. */
	job_errors_copy(&errs, &js->errors);
	for (i = 0; i < js->nr && !js->stopped; i++) {
		ret = job_build(&js->specs[i], &base, &v[i], &errs, cause);
		if (ret && ret != -EINVAL)
			break;
		if (!ret)
			check_built(v, i, &js->specs[i], &errs);
		ret = 0;
	}
	built = i + (i < js->nr && !js->stopped);
	base_clear(&base);
	if (!ret && errs.total) {
		*cause = job_errors_text(&errs);
		ret = -EINVAL;
	}
	job_errors_clear(&errs);
	if (ret) {
		job_free_all(v, built);
		return ret;
	}
	*jobs = v;
	*nr = js->nr;
	return 0;
}

int job_check_threads(const struct job *jobs, unsigned nr, char **cause)
{
	unsigned i, total = 0;

	for (i = 0; i < nr; i++) {
		total += jobs[i].numjobs; /* each at most JOB_MAX_NUMJOBS: no wrap */
		if (total > JOB_MAX_NUMJOBS)
			return job_fail_at(&jobs[i],
					   is_set(&jobs[i], "numjobs") ? "numjobs" : "name", cause,
					   "%u threads in all, more than the limit of %d", total,
					   JOB_MAX_NUMJOBS);
	}
	return 0;
}

static void job_free(struct job *job)
{
	unsigned i;

	/* A job whose build failed early has no engines' block. */
	for (i = 0; i < opt_rows(); i++)
		if (opt_at(i)->kind->release && (job->eng_opts || !opt_at(i)->engine))
			opt_at(i)->kind->release(opt_at(i), job);
	free(job->eng_opts);
	job->eng_opts = NULL;
	free(job->origin_slot);
	free(job->origin_at);
	job->origin_slot = NULL;
	job->origin_at = NULL;
}

void job_free_all(struct job *jobs, unsigned nr)
{
	unsigned i;

	for (i = 0; i < nr; i++)
		job_free(&jobs[i]);
	free(jobs);
}

void job_dump(const struct job *job, struct strbuf *sb)
{
	unsigned i;

	strbuf_addf(sb, "[%s]\n", job->name);
	/* Padded by hand: --parse-only of many jobs is mostly this loop. */
	for (i = 0; i < opt_rows(); i++) {
		const struct opt_def *o = opt_at(i);
		const struct origin *from = job_origin(job, i);
		size_t start = sb->len;

		if (from->kind == ORIGIN_DEFAULT && !o->def) {
			strbuf_adds(sb, "; ");
			strbuf_adds(sb, o->name);
			strbuf_pad(sb, start + 40, ' ');
			strbuf_adds(sb, " ; not set\n");
			continue;
		}
		strbuf_adds(sb, o->name);
		strbuf_addc(sb, '=');
		opt_format(o, job, sb);
		strbuf_pad(sb, start + 40, ' ');
		strbuf_adds(sb, " ; ");
		origin_format(from, o->name, sb);
		if (from->global)
			strbuf_adds(sb, " (global)");
		if (from->via)
			strbuf_addf(sb, " (via %s)", from->via);
		strbuf_addc(sb, '\n');
	}
}

bool job_option_is_default(const struct job *job, const struct opt_def *o)
{
	struct strbuf have = { 0 }, def = { 0 };
	struct job *scratch;
	char *cause = NULL;
	bool same;

	if (job_origin(job, opt_index(o))->kind == ORIGIN_DEFAULT)
		return true;
	if (!o->def)
		return false;
	scratch = xcalloc(1, sizeof(*scratch));
	scratch->eng_opts = xcalloc(1, engine_opts_size() + 1);
	scratch->kb_base = 1024;
	opt_apply(o, scratch, o->def, false, &cause);
	opt_format(o, job, &have);
	opt_format(o, scratch, &def);
	same = !strcmp(have.buf ? have.buf : "", def.buf ? def.buf : "");
	strbuf_free(&have);
	strbuf_free(&def);
	job_free_all(scratch, 1);
	free(cause);
	return same;
}

void job_warnings(const struct job *jobs, unsigned nr, struct str_list *out)
{
	unsigned i, d;

	for (i = 0; i < nr; i++) {
		const struct job *job = &jobs[i];
		const struct engine_ops *ops = job_engine(job);

		if (ops && (ops->flags & ENGINE_F_ASYNC_DIRECT) && !job->direct)
			str_list_push(out, xasprintf("[%s] ioengine=%s without direct=1: the "
						     "kernel completes buffered I/O inside its "
						     "submission, so it runs about one I/O at a "
						     "time whatever iodepth says",
						     job->name, ops->name));
		if (ops && (ops->flags & ENGINE_F_PAGECACHE) && job->direct)
			str_list_push(out, xasprintf("[%s] ioengine=%s always goes through the "
						     "page cache: direct=1 does not bypass it",
						     job->name, ops->name));
		for (d = DDIR_READ; d <= DDIR_WRITE; d++)
			if (job->rate[d] && job->rate_iops[d])
				str_list_push(out, xasprintf("[%s] rate and rate_iops both cap the "
							     "%s: rate is used, as in fio",
							     job->name,
							     d == DDIR_READ ? "reads" : "writes"));
		if (job->verify != VERIFY_NONE && job->do_verify && job->time_based &&
		    !job->verify_backlog && job_does(job, DDIR_WRITE))
			str_list_push(out,
				      xasprintf("[%s] verify=%s: the write phase is time_based "
						"and takes all of the runtime, so the "
						"read-back never starts (as in fio); "
						"verify_backlog=N reads back as it goes",
						job->name,
						opt_enum_name(OPT_VERIFY, (int)job->verify)));
		if (job->atomic)
			str_list_push(out, xasprintf("[%s] atomic=1: Linux has no O_ATOMIC; as fio "
						     "3.33 does there, the job runs with direct=1 "
						     "and nothing more (fio adds an open flag, "
						     "0x800000, that the kernel ignores)",
						     job->name));
		if (job->cgroup_weight && !job->cgroup)
			str_list_push(out, xasprintf("[%s] cgroup_weight=%u without cgroup= does "
						     "nothing (as in fio)",
						     job->name, job->cgroup_weight));
		if (job->write_barrier)
			str_list_push(out, xasprintf("[%s] write_barrier=%u does nothing with "
						     "these engines (fio marks barrier writes for "
						     "its libpmem engine only)",
						     job->name, job->write_barrier));
		if (job->io_submit_mode == SUBMIT_OFFLOAD)
			str_list_push(out, xasprintf("[%s] io_submit_mode=offload: iogauge submits "
						     "from the job's own thread (inline); the "
						     "I/Os, their pace and their latencies are "
						     "the same, the submitting thread is not",
						     job->name));
		/* As fio, which says so and uses it all the same. */
		if (i == 0 && job->clocksource == CLOCKSOURCE_CPU && !clock_tsc_reliable())
			str_list_push(out, xasprintf("[%s] clocksource=cpu: /proc/cpuinfo does not "
						     "show constant_tsc and nonstop_tsc, so the "
						     "TSC may not be reliable",
						     job->name));
		if (job->zonemode == ZONE_STRIDED && (job->nrfiles > 1 || job->filename.n > 1))
			str_list_push(out,
				      xasprintf("[%s] zonemode=strided works on one file: with "
						"several, the zones are off (as in fio)",
						job->name));
		if (job->replay_skip && job->read_iolog && !job->merge_blktrace_file &&
		    !blktrace_is(job->read_iolog))
			str_list_push(out, xasprintf("[%s] replay_skip acts on blktrace traces "
						     "only: %s is fio's iolog, replayed whole "
						     "(as in fio)",
						     job->name, job->read_iolog));
		if (ops && (ops->flags & ENGINE_F_SYNC) && job->iodepth > 1)
			str_list_push(out, xasprintf("[%s] ioengine=%s does one I/O at a time: "
						     "iodepth=%u has no effect",
						     job->name, ops->name, job->iodepth));
	}
}
