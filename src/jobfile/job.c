/* SPDX-License-Identifier: MIT */
/*
 * From raw option text to struct job: defaults, kb_base, then every value
 * in reading order, then (jobcheck.c) the checks that involve more than one
 * option or more than one job.  Also the --parse-only dump and the
 * warnings.  Single-value syntax is optvals.c's business, not this file's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "jobfile/job.h"
#include "jobfile/job_int.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"
#include "verify/verify.h"
#include "workload/blktrace.h"

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

const struct origin *job_origin_of(const struct job *job, const char *name)
{
	return job_origin(job, opt_index(opt_find(name)));
}

/* Option @name of @job now has the value option @via gave; @via's origin. */
void job_origin_via(struct job *job, const char *name, const char *via)
{
	job_set_origin(job, opt_index(opt_find(name)), job_origin_of(job, via), via);
}

bool job_is_set(const struct job *job, const char *name)
{
	return job_origin_of(job, name)->kind != ORIGIN_DEFAULT;
}

int job_fail_at(const struct job *job, const char *name, char **cause, const char *fmt, ...)
{
	struct strbuf sb = { 0 };
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	origin_format(job_origin_of(job, name), name, &sb);
	strbuf_addf(&sb, ": [%s] %s", job->name, msg);
	free(msg);
	*cause = strbuf_detach(&sb);
	return -EINVAL;
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
			job_check_built(v, i, &js->specs[i], &errs);
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
					   job_is_set(&jobs[i], "numjobs") ? "numjobs" : "name",
					   cause, "%u threads in all, more than the limit of %d",
					   total, JOB_MAX_NUMJOBS);
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
