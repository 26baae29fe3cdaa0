/* SPDX-License-Identifier: MIT */
/*
 * The checks of a built job that involve more than one option (and those
 * between jobs: clocksource, wait_for): each conflict reported at the
 * option set last, with its file:line, all of a job's independent ones in
 * one reading.  Also what those checks settle: gtod_reduce's disable_*,
 * the error types, directory listings for opendir, the sizes a replayed
 * log gives.  job.c builds the job first.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"
#include "jobfile/job.h"
#include "jobfile/job_int.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"
#include "util/nodes.h"
#include "verify/verify.h"
#include "workload/blktrace.h"
#include "workload/replay.h"

/* Of two options, the one set last (the one to blame in a conflict). */
static const char *later(const struct job *job, const char *a, const char *b)
{
	return job_origin_of(job, a)->seq >= job_origin_of(job, b)->seq ? a : b;
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

/* Where a job's conflicts go as they are found, so that one reading
 * reports them all: the checks go on after one that rests on nothing
 * an earlier one refused. */
struct conflicts {
	const struct jobspec *spec;
	struct job_errors *errs;
};

/* Notes *cause, which job_fail_at() just set (@ret is what it returned),
 * as one of @job's conflicts; returns @ret. */
static int noted(struct conflicts *c, const struct job *job, char **cause, int ret)
{
	job_errors_add(c->errs, blame_seq(job, c->spec, *cause), *cause);
	*cause = NULL;
	return ret;
}

static const char *bs_option(const struct job *job)
{
	if (job_is_set(job, "bssplit"))
		return "bssplit";
	if (job_is_set(job, "bsrange"))
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

	if (job_is_set(job, "verify_pattern") && !job_is_set(job, "verify")) {
		job->verify = VERIFY_PATTERN;
		job_origin_via(job, "verify", "verify_pattern");
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
				job, job_is_set(job, bs_option(job)) ? bs_option(job) : "verify",
				cause,
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
	job->thinktime_iotime_only = job->thinktime_iotime && !job_is_set(job, "thinktime_blocks");
	/* As fio: the clone's I/O priority is set only when one is given. */
	job->ioprio_set = job_is_set(job, "prio") || job_is_set(job, "prioclass");
	/* As fio's init.c: an averaged bw or iops log not given its sample
	 * window takes log_avg_msec's. */
	if (job->write_bw_log && job->log_avg_msec && !job_is_set(job, "bwavgtime"))
		job->bwavgtime = job->log_avg_msec;
	if (job->write_iops_log && job->log_avg_msec && !job_is_set(job, "iopsavgtime"))
		job->iopsavgtime = job->log_avg_msec;
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
		job_origin_via(job, parts[i].name, "gtod_reduce");
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
	if (job_is_set(job, "continue_on_error") &&
	    !strcmp(later(job, "continue_on_error", "ignore_error"), "continue_on_error") &&
	    job_is_set(job, "ignore_error"))
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
				job_is_set(job, "zonemode") ? later(job, "zonemode", "zonesize")
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
				job, job_is_set(job, "zonerange") ? "zonerange" : "zonesize", cause,
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
	    (!job_is_set(job, "scramble_buffers") ||
	     strcmp(later(job, "buffer_pattern", "scramble_buffers"), "scramble_buffers"))) {
		job->scramble_buffers = false;
		job_origin_via(job, "scramble_buffers", "buffer_pattern");
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
		return job_fail_at(job, job_is_set(job, "size") ? "size" : "dedupe_mode", cause,
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
		if (job_is_set(job, clash[i]))
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
	if (!rp.version && !job_is_set(job, "iodepth") && job_engine(job) &&
	    !(job_engine(job)->flags & ENGINE_F_SYNC)) {
		job->iodepth = rp.depth;
		job_origin_via(job, "iodepth", "read_iolog");
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
		job_origin_via(job, "filename", "read_iolog");
	job_origin_via(job, "nrfiles", "read_iolog");
	job_origin_via(job, "size", "read_iolog");
	job_origin_via(job, "bs", "read_iolog");
	job_origin_via(job, "rw", "read_iolog");
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
		job_origin_via(job, "direct", "atomic");
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
	if (job_is_set(job, "rwmixread") && job_is_set(job, "rwmixwrite") &&
	    !job_origin_of(job, "rwmixread")->via && !job_origin_of(job, "rwmixwrite")->via) {
		if (job->rwmix_read + job->rwmix_write != 100)
			noted(c, job, cause,
			      job_fail_at(
				      job, later(job, "rwmixread", "rwmixwrite"), cause,
				      "rwmixread=%u and rwmixwrite=%u add up to %u%%, not 100%%",
				      job->rwmix_read, job->rwmix_write,
				      job->rwmix_read + job->rwmix_write));
	} else if (job_is_set(job, "rwmixwrite")) {
		job->rwmix_read = 100 - job->rwmix_write;
		job_origin_via(job, "rwmixread", "rwmixwrite");
	} else if (job_is_set(job, "rwmixread")) {
		job_origin_via(job, "rwmixwrite", "rwmixread");
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
		      job_fail_at(job, job_is_set(job, bs_option(job)) ? bs_option(job) : limit,
				  cause, "block size %llu is larger than the %s of %llu bytes",
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
	     job->offset.pct || job->offset_increment.pct || job->offset_rank_increment.pct))
		noted(c, job, cause,
		      job_fail_at(job, "ioengine", cause,
				  "ioengine=%s opens no file, so it needs size= (or filesize=) in "
				  "bytes, and offsets in bytes",
				  ops->name));
	/* As fio: cpumask and cpus_allowed set one mask, the later wins. */
	if (job_is_set(job, "cpumask") &&
	    (!job_is_set(job, "cpus_allowed") ||
	     !strcmp(later(job, "cpumask", "cpus_allowed"), "cpumask"))) {
		memset(job->cpus_allowed, 0, sizeof(job->cpus_allowed));
		job->cpus_allowed[0] = job->cpumask;
		job->cpus_allowed_set = true;
		job_origin_via(job, "cpus_allowed", "cpumask");
	}
	if (job->cpus_allowed_set) {
		const char *mask_opt =
			job_origin_of(job, "cpus_allowed")->via ? "cpumask" : "cpus_allowed";
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
	job->uid_set = job_is_set(job, "uid");
	job->gid_set = job_is_set(job, "gid");
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

/* A job whose values were all taken gets its conflicts checked: the first
 * of check_job's is noted (a later check may rest on what an earlier one
 * refused), and those with other jobs, which rest on nothing of it. */
void job_check_built(struct job *v, unsigned i, const struct jobspec *spec, struct job_errors *errs)
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
