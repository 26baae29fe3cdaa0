/* SPDX-License-Identifier: MIT */
/*
 * fio 3.33's built-in benchmarks, --profile=tiobench and --profile=act, as
 * the job-file text each adds.  Facts about fio, written here: fio loads a
 * profile after every job file, as one [global] block (starting from the
 * defaults the last job file left) and its jobs.  This file is the profiles and
 * nothing else: the jobs it adds are read, checked and run as any other.
 */
#include <stdlib.h>
#include <string.h>

#include "jobfile/profiles.h"

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
