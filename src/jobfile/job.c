/* SPDX-License-Identifier: MIT */
/*
 * From raw option text to struct job: defaults, kb_base, then every value
 * in reading order, then the checks that involve more than one option or
 * more than one job.  Also the --parse-only dump.  Single-value syntax is
 * optvals.c's business, not this file's.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"
#include "verify/verify.h"

static const struct origin default_origin = { .kind = ORIGIN_DEFAULT };

static struct origin *origin_of(const struct job *job, const char *name)
{
	return &job->origin[opt_index(opt_find(name))];
}

static bool is_set(const struct job *job, const char *name)
{
	return origin_of(job, name)->kind != ORIGIN_DEFAULT;
}

/* Fails with "ORIGIN: message", ORIGIN being where option @name was set. */
static int fail_at(const struct job *job, const char *name, char **cause, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_at(const struct job *job, const char *name, char **cause, const char *fmt, ...)
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

static int apply_value(struct job *job, const struct setting *sv, char **cause)
{
	const struct opt_def *o = sv->opt;
	struct strbuf sb = { 0 };
	char *inner = NULL;
	unsigned i;

	if (!opt_apply(o, job, sv->value, sv->bare, &inner)) {
		/* Options that share a field (direct, buffered) share the origin. */
		for (i = 0; i < opt_count; i++) {
			if (opt_table[i].off != o->off)
				continue;
			job->origin[i] = sv->origin;
			job->origin[i].via = &opt_table[i] == o ? NULL : o->name;
		}
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

/*
 * The kb_base that scales @sv, as in fio: the last one written in @sv's own
 * section (wherever in it) or in a section before.  A job's kb_base does
 * not rescale sizes that a [global] section above it already gave.
 */
static unsigned kb_base_for(const struct settings *vals, const struct setting *sv,
			    const struct opt_def *kb)
{
	unsigned i, base = 1024;

	for (i = 0; i < vals->n; i++)
		if (vals->v[i].opt == kb && vals->v[i].origin.section <= sv->origin.section)
			base = (unsigned)strtoul(vals->v[i].value, NULL, 10);
	return base;
}

int job_defaults(struct job *job, char **cause)
{
	const struct opt_def *kb = opt_find("kb_base");
	char *inner = NULL;
	unsigned i;

	memset(job, 0, sizeof(*job));
	job->origin = xcalloc(opt_count, sizeof(*job->origin));
	/* kb_base's first of all, so "4k" always means 4096. */
	opt_apply(kb, job, kb->def, false, &inner);
	for (i = 0; i < opt_count; i++) {
		job->origin[i] = default_origin;
		if (opt_table[i].def &&
		    opt_apply(&opt_table[i], job, opt_table[i].def, false, &inner)) {
			/* A default the table cannot parse is a bug, caught by the tests. */
			*cause = xasprintf("internal: default of %s: %s", opt_table[i].name, inner);
			free(inner);
			return -EINVAL;
		}
	}
	return 0;
}

static int job_build(const struct jobspec *spec, struct job *job, char **cause)
{
	const struct opt_def *kb = opt_find("kb_base"), *name = opt_find("name");
	unsigned i, final_kb;
	int ret = job_defaults(job, cause);

	if (ret)
		return ret;
	/* kb_base first: checked, and its origin noted, even with no size. */
	for (i = 0; i < spec->vals->n && !ret; i++)
		if (spec->vals->v[i].opt == kb)
			ret = apply_value(job, &spec->vals->v[i], cause);
	final_kb = job->kb_base;
	for (i = 0; i < spec->vals->n && !ret; i++) {
		const struct setting *sv = &spec->vals->v[i];

		/* fio's name= in a global section names no job. */
		if (sv->opt == kb ||
		    (sv->opt == name && sv->origin.global && sv->origin.kind == ORIGIN_FILE))
			continue;
		job->kb_base = kb_base_for(spec->vals, sv, kb);
		ret = apply_value(job, sv, cause);
	}
	job->kb_base = final_kb;
	if (!ret && !job->name) {
		job->name = xstrdup(spec->name);
		job->origin[opt_index(opt_find("name"))] = spec->where;
	}
	return ret;
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
	return engine_find(opt_enum_name("ioengine", (int)job->ioengine));
}

static const char *bs_option(const struct job *job)
{
	if (is_set(job, "bssplit"))
		return "bssplit";
	if (is_set(job, "bsrange"))
		return "bsrange";
	return "bs";
}

/* verify=: what this version computes, and what it needs of the job.
 * verify_pattern alone means verify=pattern, as in fio. */
static int check_verify(struct job *job, const struct engine_ops *ops, char **cause)
{
	const char *kind;
	uint64_t lo, hi;
	unsigned d;

	if (is_set(job, "verify_pattern") && !is_set(job, "verify")) {
		job->verify = VERIFY_PATTERN;
		*origin_of(job, "verify") = *origin_of(job, "verify_pattern");
		origin_of(job, "verify")->via = "verify_pattern";
	}
	if (job->verify == VERIFY_NONE)
		return 0;
	kind = opt_enum_name("verify", (int)job->verify);
	if (!verify_kind_runs(job->verify))
		return fail_at(job, "verify", cause,
			       "verify=%s is a fio checksum this version of iogauge does not "
			       "compute; it has md5, crc64, crc32c, crc32c-intel, crc32, crc16, "
			       "meta, pattern, pattern_hdr and null",
			       kind);
	if ((job->verify == VERIFY_PATTERN || job->verify == VERIFY_PATTERN_HDR) &&
	    !job->verify_pattern.len)
		return fail_at(job, "verify", cause, "verify=%s needs verify_pattern=", kind);
	if (job_does(job, DDIR_TRIM))
		return fail_at(job, later(job, "verify", "rw"), cause,
			       "verify=%s checks written blocks: rw=%s writes none", kind,
			       opt_enum_name("rw", (int)job->rw));
	if (ops && (ops->flags & ENGINE_F_NOFILES))
		return fail_at(job, later(job, "verify", "ioengine"), cause,
			       "ioengine=%s stores nothing, so verify=%s has nothing to read back",
			       ops->name, kind);
	if (job->sub_blocks > 1)
		return fail_at(job, later(job, "verify", "sub_blocks"), cause,
			       "verify=%s checks whole blocks: it cannot be used with sub_blocks",
			       kind);
	for (d = DDIR_READ; d <= DDIR_WRITE && verify_has_header(job->verify); d++) {
		if (!job_does(job, d))
			continue;
		job_bs_bounds(job, d, &lo, &hi);
		if (lo < sizeof(struct verify_hdr))
			return fail_at(job, is_set(job, bs_option(job)) ? bs_option(job) : "verify",
				       cause,
				       "verify=%s starts each block with a %zu-byte header: the "
				       "block size %llu is smaller",
				       kind, sizeof(struct verify_hdr), (unsigned long long)lo);
	}
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
		*origin_of(job, parts[i].name) = *origin_of(job, "gtod_reduce");
		origin_of(job, parts[i].name)->via = "gtod_reduce";
	}
}

static int check_job(struct job *job, char **cause)
{
	/* Each engine-only option, and whose it is. */
	static const struct {
		const char *name, *owner;
	} engine_only[] = {
		{ "hipri", "an io_uring" },	    { "fixedbufs", "an io_uring" },
		{ "registerfiles", "an io_uring" }, { "sqthread_poll", "an io_uring" },
		{ "userspace_reap", "a libaio" },
	};
	const struct engine_ops *ops = job_engine(job);
	uint64_t bs = 0, lo, region = 0;
	const char *limit = NULL;
	unsigned i;

	apply_gtod_reduce(job);
	if (job->clocksource == CLOCKSOURCE_CPU && !clock_have_tsc())
		return fail_at(
			job, "clocksource", cause,
			"clocksource=cpu needs a CPU clock (x86's TSC); this build has none");
	if (is_set(job, "rwmixread") && is_set(job, "rwmixwrite") &&
	    !origin_of(job, "rwmixread")->via && !origin_of(job, "rwmixwrite")->via) {
		if (job->rwmix_read + job->rwmix_write != 100)
			return fail_at(job, later(job, "rwmixread", "rwmixwrite"), cause,
				       "rwmixread=%u and rwmixwrite=%u add up to %u%%, not 100%%",
				       job->rwmix_read, job->rwmix_write,
				       job->rwmix_read + job->rwmix_write);
	} else if (is_set(job, "rwmixwrite")) {
		job->rwmix_read = 100 - job->rwmix_write;
		*origin_of(job, "rwmixread") = *origin_of(job, "rwmixwrite");
		origin_of(job, "rwmixread")->via = "rwmixwrite";
	} else if (is_set(job, "rwmixread")) {
		*origin_of(job, "rwmixwrite") = *origin_of(job, "rwmixread");
		origin_of(job, "rwmixwrite")->via = "rwmixread";
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
		return fail_at(job, is_set(job, bs_option(job)) ? bs_option(job) : limit, cause,
			       "block size %llu is larger than the %s of %llu bytes",
			       (unsigned long long)bs, limit, (unsigned long long)region);

	if (job->iodepth_batch_complete_max &&
	    job->iodepth_batch_complete_min > job->iodepth_batch_complete_max)
		return fail_at(
			job, later(job, "iodepth_batch_complete_min", "iodepth_batch_complete_max"),
			cause,
			"iodepth_batch_complete_min=%u is above iodepth_batch_complete_max=%u",
			job->iodepth_batch_complete_min, job->iodepth_batch_complete_max);
	if (job->iodepth_batch_submit > job->iodepth)
		return fail_at(job, later(job, "iodepth_batch_submit", "iodepth"), cause,
			       "iodepth_batch_submit=%u is above iodepth=%u",
			       job->iodepth_batch_submit, job->iodepth);

	/* An engine this build lacks is refused when the job runs. */
	for (i = 0; ops && i < ARRAY_SIZE(engine_only); i++) {
		const char *name = engine_only[i].name;
		const struct opt_def *o = opt_find(name);

		if (*(const bool *)((const char *)job + o->off) && !engine_takes(ops, name))
			return fail_at(job, name, cause,
				       "%s is %s option; ioengine=%s does not use it", name,
				       engine_only[i].owner, ops->name);
	}
	if (ops && (ops->flags & ENGINE_F_NOFILES) &&
	    (job->size.pct || (!job->size.val && !job->filesize_min) || job->offset.pct ||
	     job->offset_increment.pct))
		return fail_at(job, "ioengine", cause,
			       "ioengine=%s opens no file, so it needs size= (or filesize=) in "
			       "bytes, and offsets in bytes",
			       ops->name);
	if (job->cpus_allowed_set) {
		cpu_set_t avail;

		if (sched_getaffinity(0, sizeof(avail), &avail) < 0)
			CPU_ZERO(&avail);
		for (i = 0; i < JOB_MAX_CPUS; i++)
			if ((job->cpus_allowed[i / 64] >> (i % 64) & 1) &&
			    (i >= CPU_SETSIZE || !CPU_ISSET(i, &avail)))
				return fail_at(
					job, "cpus_allowed", cause,
					"cpus_allowed: CPU %u is not one this program may run "
					"on (%d CPUs: 0-%d)",
					i, CPU_COUNT(&avail), CPU_COUNT(&avail) - 1);
	}
	if (job->thinktime_spin > job->thinktime)
		return fail_at(job, later(job, "thinktime", "thinktime_spin"), cause,
			       "thinktime_spin=%lluus is longer than thinktime=%lluus (the spin is "
			       "part of the think)",
			       (unsigned long long)job->thinktime_spin / 1000,
			       (unsigned long long)job->thinktime / 1000);
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
			why = "needs an engine that does vectored I/O (psync, sync, libaio, "
			      "io_uring)";
		else if (scatter && job->iomem != IOMEM_MALLOC)
			why = "scatters into pieces of their own (malloc), so iomem= would not "
			      "be the memory the device reads or writes; use iomem=malloc";
		else if (job->fixedbufs)
			why = "cannot use fixedbufs (registered buffers are whole)";
		if (why)
			return fail_at(job, "sub_blocks", cause, "sub_blocks=%u %s",
				       job->sub_blocks, why);
	}
	if (job->stride && (job_is_random(job->rw) || job->rw == RW_READWRITE))
		return fail_at(job, later(job, "stride", "rw"), cause,
			       "stride=%u needs rw=read or rw=write (a sequential pattern)",
			       job->stride);
	if (job->stride && (job->rw_seq_add || job->nr_bssplit[0] || job->nr_bssplit[1] ||
			    job->bsrange_max[0] || job->bsrange_max[1]))
		return fail_at(job, "stride", cause,
			       "stride=%u needs one block size and no rw=...:N gap", job->stride);
	if (job->stride && job->stride < job->numjobs)
		return fail_at(job, later(job, "stride", "numjobs"), cause,
			       "stride=%u gives fewer columns than numjobs=%u (SQLIO: -f must be "
			       "at least -t)",
			       job->stride, job->numjobs);
	if (job->hipri && !job->direct)
		return fail_at(job, later(job, "hipri", "direct"), cause,
			       "hipri (polled completions) needs direct=1");
	return check_verify(job, ops, cause);
}

int job_build_all(const struct jobset *js, struct job **jobs, unsigned *nr, char **cause)
{
	struct job *v = xcalloc(js->nr, sizeof(*v));
	unsigned i, j, total = 0;
	int ret = 0;

	for (i = 0; i < js->nr && !ret; i++) {
		ret = job_build(&js->specs[i], &v[i], cause);
		if (!ret)
			ret = check_job(&v[i], cause);
		if (ret)
			break;
		total += v[i].numjobs;
		if (total > JOB_MAX_NUMJOBS)
			ret = fail_at(&v[i], is_set(&v[i], "numjobs") ? "numjobs" : "name", cause,
				      "%u threads in all, more than the limit of %d", total,
				      JOB_MAX_NUMJOBS);
		/* One clock for the run: fio's clocksource is global. */
		if (!ret && v[i].clocksource != v[0].clocksource)
			ret = fail_at(
				&v[i], "clocksource", cause,
				"clocksource=%s, but [%s] has %s: it is one for the whole run",
				opt_enum_name("clocksource", (int)v[i].clocksource), v[0].name,
				opt_enum_name("clocksource", (int)v[0].clocksource));
		if (!ret && v[i].wait_for) {
			for (j = 0; j < i; j++)
				if (!strcmp(v[j].name, v[i].wait_for))
					break;
			if (j == i)
				ret = fail_at(&v[i], "wait_for", cause,
					      "wait_for=%s names no earlier job", v[i].wait_for);
		}
	}
	if (ret) {
		job_free_all(v, i + (i < js->nr));
		return ret;
	}
	*jobs = v;
	*nr = js->nr;
	return 0;
}

static void job_free(struct job *job)
{
	struct str_list *lists[] = { &job->filename, &job->directory };
	char **strs[] = { &job->name,	       &job->description,   &job->filename_format,
			  &job->wait_for,      &job->write_bw_log,  &job->write_iops_log,
			  &job->write_lat_log, &job->write_hist_log };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		str_list_clear(lists[i]);
	for (i = 0; i < ARRAY_SIZE(strs); i++)
		free(*strs[i]);
	free(job->origin);
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
	struct strbuf line = { 0 };
	unsigned i;

	strbuf_addf(sb, "[%s]\n", job->name);
	for (i = 0; i < opt_count; i++) {
		const struct opt_def *o = &opt_table[i];
		const struct origin *from = &job->origin[i];

		if (from->kind == ORIGIN_DEFAULT && !o->def) {
			strbuf_addf(sb, "; %-38s ; not set\n", o->name);
			continue;
		}
		strbuf_addf(&line, "%s=", o->name);
		opt_format(o, job, &line);
		strbuf_addf(sb, "%-40s ; ", line.buf);
		origin_format(from, o->name, sb);
		if (from->global)
			strbuf_addf(sb, " (global)");
		if (from->via)
			strbuf_addf(sb, " (via %s)", from->via);
		strbuf_addc(sb, '\n');
		line.len = 0;
	}
	strbuf_free(&line);
}

bool job_option_is_default(const struct job *job, const char *name)
{
	const struct opt_def *o = opt_find(name);
	struct strbuf have = { 0 }, def = { 0 };
	struct job *scratch;
	char *cause = NULL;
	bool same;

	if (job->origin[opt_index(o)].kind == ORIGIN_DEFAULT)
		return true;
	if (!o->def)
		return false;
	scratch = xcalloc(1, sizeof(*scratch));
	scratch->kb_base = 1024;
	opt_apply(o, scratch, o->def, false, &cause);
	opt_format(o, job, &have);
	opt_format(o, scratch, &def);
	same = !strcmp(have.buf ? have.buf : "", def.buf ? def.buf : "");
	strbuf_free(&have);
	strbuf_free(&def);
	scratch->origin = NULL;
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

		if (job->ioengine == IOENGINE_LIBAIO && !job->direct)
			str_list_push(out, xasprintf("[%s] ioengine=libaio without direct=1: the "
						     "kernel completes buffered I/O inside "
						     "io_submit, so it runs about one I/O at a "
						     "time whatever iodepth says",
						     job->name));
		if (job->ioengine == IOENGINE_MMAP && job->direct)
			str_list_push(out, xasprintf("[%s] ioengine=mmap always goes through the "
						     "page cache: direct=1 does not bypass it",
						     job->name));
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
						opt_enum_name("verify", (int)job->verify)));
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
		if (ops && (ops->flags & ENGINE_F_SYNC) && job->iodepth > 1)
			str_list_push(out, xasprintf("[%s] ioengine=%s does one I/O at a time: "
						     "iodepth=%u has no effect",
						     job->name, ops->name, job->iodepth));
	}
}
