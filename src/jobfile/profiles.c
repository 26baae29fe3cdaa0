/* SPDX-License-Identifier: MIT */
/*
 * fio 3.33's built-in benchmarks, --profile=tiobench and --profile=act, as
 * the job-file text each adds.  Facts about fio, written here: fio loads a
 * profile after every job file, as one [global] block (starting from the
 * defaults the last job file left) and its jobs.  This file is the profiles and
 * nothing else: the jobs it adds are read, checked and run as any other.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/profiles.h"
#include "stats/act.h"

struct profile {
	const char *name;
	const char *const *opts; /* the profile's own options, NULL-ended */
	/* What fio makes of the profile's options given on the command line:
	 * NULL when it reads them, else why they are refused. */
	const char *ignored;
	/* Appends the job-file text; 0, or -EINVAL with *cause. */
	int (*build)(const struct str_list *flags, struct strbuf *sb, char **cause);
};

/*
 * tiobench: fio 3.33 stores its options (dir, size, block, numruns,
 * threads) in a struct the profile never reads, and its size is found as
 * the generic size first: the jobs are always these, 4 KiB per MiB of RAM
 * over four files in the current directory.
 */
static const char *const tiobench_opts[] = { "dir", "size", "block", "numruns", "threads", NULL };

static const char *const tiobench_text[] = {
	"[global]",	 "buffered=0",	"size=4*1024*$mb_memory",
	"bs=4096",	 "loops=1",	"directory=./",
	"numjobs=1",	 "timeout=600", "group_reporting",
	"thread",	 "overwrite=1", "filename=.fio.tio.1:.fio.tio.2:.fio.tio.3:.fio.tio.4",
	"ioengine=sync", "[seqwrite]",	"rw=write",
	"end_fsync=1",	 "[randwrite]", "stonewall",
	"rw=randwrite",	 "end_fsync=1", "[seqread]",
	"stonewall",	 "rw=read",	"[randread]",
	"stonewall",	 "rw=randread", NULL,
};

static int tiobench_build(const struct str_list *flags, struct strbuf *sb, char **cause)
{
	unsigned i;

	(void)flags;
	(void)cause;
	for (i = 0; tiobench_text[i]; i++) {
		/* overwrite lays the files out before seqwrite writes them: same
		 * bytes moved, same files after; left out while this build has
		 * no overwrite option. */
		if (!strcmp(tiobench_text[i], "overwrite=1") && !opt_find("overwrite"))
			continue;
		strbuf_adds(sb, tiobench_text[i]);
		strbuf_addc(sb, '\n');
	}
	return 0;
}

/*
 * act: fio 3.33's Aerospike ACT benchmark.  Per device of --device-names
 * (split at commas; a colon stays inside one filename, as in fio) a job of
 * threads-per-queue readers and one writer, rate-limited, for
 * --test-duration seconds; with --prep, a zeroing pass and a salting pass
 * instead.  --slice-duration (iogauge's) sets the slice's length, fio's
 * an hour.  Its slices are counted by stats/act.h, printed by
 * report/report_act.c.
 */
static const char *const act_opts[] = { "device-names",
					"load",
					"test-duration",
					"threads-per-queue",
					"read-req-num-512-blocks",
					"large-block-op-kbytes",
					"prep",
					"slice-duration",
					NULL };

/* fio's ACT loads at 1x: reads and writes per second per device. */
#define ACT_READ_LOAD  2000u
#define ACT_WRITE_LOAD 1000u
/* fio's slice: an hour (iogauge's --slice-duration sets another). */
#define ACT_SLICE_SECS 3600ull
/* The longest --slice-duration: a year. */
#define ACT_SLICE_SECS_MAX (365ull * 86400)

/* act's flags as read; secs 0: no --test-duration. */
struct act_args {
	unsigned long long load, secs, threads, blocks, wsize, slice;
	const char *devs;
	bool prep;
};

/* @flag's value as a whole number in [@min, @max]: 0, or -EINVAL with *cause. */
static int act_uint(const char *flag, const char *val, unsigned long long min,
		    unsigned long long max, unsigned long long *out, char **cause)
{
	char *end;

	errno = 0;
	*out = strtoull(val, &end, 10);
	if (!*val || *end || errno || *val == '-' || *out < min || *out > max) {
		*cause = xasprintf("%s: a whole number from %llu to %llu expected", flag, min, max);
		return -EINVAL;
	}
	return 0;
}

/* @flags read into @a: 0, or -EINVAL with *cause. */
static int act_read(const struct str_list *flags, struct act_args *a, char **cause)
{
	const char *dur_flag = NULL;
	unsigned i;

	*a = (struct act_args){
		.load = 1, .threads = 8, .blocks = 3, .wsize = 131072, .slice = ACT_SLICE_SECS
	};
	for (i = 0; i < flags->n; i++) {
		const char *f = flags->v[i], *eq = strchr(f, '=');
		const char *v = eq ? eq + 1 : "";
		size_t klen = eq ? (size_t)(eq - f) : strlen(f);
		int ret = 0;

#define ACT_KEY(k) (klen == strlen("--" k) && !strncmp(f, "--" k, klen))
		if (ACT_KEY("device-names")) {
			a->devs = v;
		} else if (ACT_KEY("prep")) {
			a->prep = true;
		} else if (ACT_KEY("load")) {
			ret = act_uint(f, v, 0, 1000000, &a->load, cause);
		} else if (ACT_KEY("threads-per-queue")) {
			ret = act_uint(f, v, 1, 4096, &a->threads, cause);
		} else if (ACT_KEY("read-req-num-512-blocks")) {
			ret = act_uint(f, v, 1, 1u << 21, &a->blocks, cause);
		} else if (ACT_KEY("large-block-op-kbytes")) {
			ret = act_uint(f, v, 1, 1u << 30, &a->wsize, cause);
		} else if (ACT_KEY("slice-duration")) {
			ret = act_uint(f, v, 1, ACT_SLICE_SECS_MAX, &a->slice, cause);
		} else if (ACT_KEY("test-duration")) {
			/* fio runs runtime=<value>s, but scales a unit to
			 * microseconds first: "2s" would be 2000000 s. */
			/* At most runtime='s limit, 2^62 ns: past it the job's line
			 * was blamed, not the flag. */
			ret = act_uint(f, v, 1, (1ull << 62) / 1000000000ull, &a->secs, cause);
			if (ret) {
				free(*cause);
				*cause = xasprintf("%s: a whole number of seconds from 1 to %llu "
						   "expected (fio 3.33 reads a unit as "
						   "microseconds and runs that many seconds)",
						   f, (1ull << 62) / 1000000000ull);
			}
			dur_flag = f;
		}
#undef ACT_KEY
		if (ret)
			return ret;
	}
	if (a->secs && (a->secs + a->slice - 1) / a->slice > ACT_SLICES_MAX) {
		*cause = xasprintf("%s: %llu slices of %llu s: at most %u are kept (see "
				   "--slice-duration)",
				   dur_flag, (a->secs + a->slice - 1) / a->slice, a->slice,
				   ACT_SLICES_MAX);
		return -EINVAL;
	}
	return 0;
}

static int act_build(const struct str_list *flags, struct strbuf *sb, char **cause)
{
	struct act_args a;
	char *list, *dev, *save = NULL;
	const char *devs;
	int ret = act_read(flags, &a, cause);

	if (ret)
		return ret;
	devs = a.devs;
	if (!devs || !*devs) {
		*cause = xstrdup("you need to set IO target(s) with the device-names option.");
		return -EINVAL;
	}
	/* fio adds a job with filename= empty, fails to parse it and runs on
	 * to "you need to specify size=" in each clone. */
	if (devs[0] == ',' || devs[strlen(devs) - 1] == ',' || strstr(devs, ",,")) {
		*cause = xasprintf("--device-names=%s: an empty device name", devs);
		return -EINVAL;
	}
	if (!a.prep && !a.secs) {
		*cause = xstrdup("--test-duration=SECONDS is needed: fio 3.33's default (24h) is "
				 "read as 86400000000 and run as that many seconds");
		return -EINVAL;
	}
	if (a.wsize / (a.blocks * 512) < 1) {
		*cause = xasprintf("--large-block-op-kbytes=%llu is less than one read "
				   "(%llu bytes): fio 3.33 divides by zero",
				   a.wsize, a.blocks * 512);
		return -EINVAL;
	}
	strbuf_adds(sb, "[global]\ndirect=1\nioengine=sync\nrandom_generator=lfsr\n"
			"group_reporting=1\nthread\n");
	list = xstrdup(devs);
	for (dev = strtok_r(list, ",", &save); dev; dev = strtok_r(NULL, ",", &save)) {
		unsigned long long rsize = a.wsize / (a.blocks * 512);

		if (a.prep) {
			strbuf_addf(sb,
				    "[act-prep-zeroes-%s]\nfilename=%s\nbs=1048576\n"
				    "zero_buffers\nrw=write\n",
				    dev, dev);
			strbuf_addf(sb,
				    "[act-prep-salt-%s]\nstonewall\nfilename=%s\nbs=4096\n"
				    "ioengine=libaio\niodepth=64\nrw=randwrite\n",
				    dev, dev);
			continue;
		}
		/* fio adds these before the device's read job's name: from the
		 * second device on they land in the job before, the same. */
		strbuf_addf(sb, "runtime=%llus\ntime_based=1\n", a.secs);
		strbuf_addf(sb,
			    "[act-read-%s]\nfilename=%s\nrw=randread\nnumjobs=%llu\n"
			    "rate_iops=%llu\nbs=%llu\n",
			    dev, dev, a.threads, a.load * ACT_READ_LOAD / a.threads,
			    a.blocks * 512);
		strbuf_addf(sb,
			    "[act-write-%s]\nfilename=%s\nrw=randwrite\nrate_iops=%llu\n"
			    "bs=%llu\n",
			    dev, dev, (a.load * ACT_WRITE_LOAD + rsize - 1) / rsize, a.wsize);
	}
	free(list);
	return 0;
}

static const struct profile profiles[] = {
	{
		.name = "tiobench",
		.opts = tiobench_opts,
		.ignored = "fio 3.33's tiobench profile ignores its options (dir, size, block, "
			   "numruns, threads: it always runs directory=./, "
			   "size=4*1024*$mb_memory, bs=4096, loops=1, numjobs=1); iogauge "
			   "refuses them rather than write elsewhere or other than asked",
		.build = tiobench_build,
	},
	{
		.name = "act",
		.opts = act_opts,
		.ignored = NULL,
		.build = act_build,
	},
};

static const struct profile *profile_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

static bool profile_has_opt(const struct profile *p, const char *key)
{
	unsigned i;

	for (i = 0; p->opts[i]; i++)
		if (!strcmp(p->opts[i], key))
			return true;
	return false;
}

/* The key of "--key=value" or "--key", fresh. */
static char *flag_key(const char *flag)
{
	const char *k = flag + 2, *eq = strchr(k, '=');

	return eq ? xstrndup(k, (size_t)(eq - k)) : xstrdup(k);
}

/* The line of @text that sets option @o ("bs=4096"), or NULL. */
static const char *profile_sets(const char *text, const struct opt_def *o)
{
	const char *line = text;

	while (*line) {
		const char *end = strchr(line, '\n'), *eq = strchr(line, '=');
		size_t len = (eq && eq < end ? eq : end) - line;
		char *key = xstrndup(line, len);
		bool same = line[0] != '[' && opt_find(key) == o;

		free(key);
		if (same)
			return line;
		line = end + 1;
	}
	return NULL;
}

/* Drops the "'key' is ignored" warning of each option @p reads from @flags. */
static void profile_unwarn(struct jobset *js, const struct profile *p, const struct str_list *flags)
{
	unsigned i, w, kept;

	for (i = 0; i < flags->n; i++) {
		char *key = flag_key(flags->v[i]), *ignored;

		ignored = xasprintf("warning: '%s' is ignored: ", key);
		for (w = kept = 0; w < js->warnings.n; w++) {
			if (profile_has_opt(p, key) && strstr(js->warnings.v[w], ignored))
				free(js->warnings.v[w]);
			else
				js->warnings.v[kept++] = js->warnings.v[w];
		}
		js->warnings.n = kept;
		free(ignored);
		free(key);
	}
}

unsigned profile_add(struct jobset *js, const char *name, const struct str_list *flags,
		     struct str_list *job_names)
{
	const struct profile *p = profile_find(name);
	unsigned before = js->errors.total, i;
	struct strbuf sb = { 0 };
	const char *line;
	char *text, *src, *cause = NULL;

	if (!p) {
		jobset_error(js, xasprintf("--profile=%s: no such profile (fio 3.33 has "
					   "tiobench and act)",
					   name));
		return js->errors.total - before;
	}
	for (i = 0; i < flags->n; i++) {
		char *key = flag_key(flags->v[i]);

		if (p->ignored && profile_has_opt(p, key))
			jobset_error(js, xasprintf("%s: %s", flags->v[i], p->ignored));
		free(key);
	}
	if (!p->ignored)
		profile_unwarn(js, p, flags);
	if (p->build(flags, &sb, &cause)) {
		jobset_error(js, xasprintf("--profile=%s: %s", name, cause));
		free(cause);
		strbuf_free(&sb);
		return js->errors.total - before;
	}
	text = strbuf_detach(&sb);
	/* fio lets the profile's [global] override the command line's
	 * defaults without a word: a default it overrides is refused. */
	for (i = 0; i < js->cmdline->n; i++) {
		const struct setting *st = &js->cmdline->v[i];
		struct strbuf at = { 0 };

		if (st->origin.kind != ORIGIN_CMDLINE || !(line = profile_sets(text, st->opt)))
			continue;
		origin_format(&st->origin, st->opt->name, &at);
		jobset_error(js,
			     xasprintf("%s=%s: the %s profile sets %.*s in every job it "
				       "adds (as fio 3.33's does), which would override it",
				       at.buf, st->value, name, (int)strcspn(line, "\n"), line));
		strbuf_free(&at);
	}
	for (line = text; *line; line = strchr(line, '\n') + 1)
		if (line[0] == '[' && strncmp(line, "[global]", 8))
			str_list_push(job_names, xstrndup(line + 1, strcspn(line + 1, "]")));
	src = xasprintf("--profile=%s", name);
	/* fio adds the jobs one by one, from the defaults as the last job file
	 * left them (else the command line's): its first job joins the last
	 * group read before it. */
	if (js->nr_files_read)
		jobfile_parse_more(js, src, text, strlen(text), &cause);
	else
		jobfile_parse_mem(js, src, text, strlen(text), &cause);
	free(cause); /* its errors are in js->errors already */
	free(src);
	free(text);
	return js->errors.total - before;
}

bool profile_act_prep(const char *name, const struct str_list *flags)
{
	unsigned i;

	for (i = 0; i < flags->n && !strcmp(name, "act"); i++)
		if (!strcmp(flags->v[i], "--prep") || !strncmp(flags->v[i], "--prep=", 7))
			return true;
	return false;
}

unsigned profile_own_flags_check(struct jobset *js, const char *name, const struct str_list *flags)
{
	const struct profile *p = name ? profile_find(name) : NULL;
	unsigned i, n = 0;
	const char *why;

	for (i = 0; i < flags->n; i++) {
		char *key = flag_key(flags->v[i]);

		if (fio_option_status(key, &why) == FIO_OPT_UNKNOWN && !opt_find(key) &&
		    (!p || !profile_has_opt(p, key))) {
			jobset_error(js, xasprintf("%s: iogauge's option of --profile=act, and the "
						   "profile is %s",
						   flags->v[i], name ? name : "not given"));
			n++;
		}
		free(key);
	}
	return n;
}

bool profile_act_slicing(const char *name, const struct str_list *flags, uint32_t *rows,
			 uint64_t *slice_ns)
{
	struct act_args a;
	char *cause = NULL;

	if (strcmp(name, "act") || act_read(flags, &a, &cause)) {
		free(cause);
		return false;
	}
	/* --prep without --test-duration: fio's row of zeros. */
	*rows = a.secs ? (uint32_t)((a.secs + a.slice - 1) / a.slice) : 1;
	*slice_ns = a.slice * 1000000000ull;
	return true;
}

bool profile_opt_has_value(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (profile_has_opt(&profiles[i], key))
			return strcmp(key, "prep") != 0;
	return false;
}
