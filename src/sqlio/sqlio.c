/* SPDX-License-Identifier: MIT */
/*
 * SQLIO v1.5.SG's command line and its job file.  Flags are single
 * letters with the value attached (-t4, -frandom, -BH), as in SQLIO;
 * values are read case-blind (-kr is -kR), letters are not (-s is seconds,
 * -S the start block).  Everything is checked here, so that the job file
 * written from it never fails to build: an error names the flag, or the
 * param file's FILE:LINE.
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines/engine.h"
#include "files/files.h"
#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "sqlio/sqlio.h"

#define SQLIO_MAX_THREADS 256 /* SQLIO's maximums */
#define SQLIO_MAX_FILES	  256
#define MB		  (1024ull * 1024)

/* "-x" for each flag, for a "did you mean". */
static const char *const sqlio_flags[] = {
	"-k", "-t", "-s", "-d", "-R", "-f", "-p", "-a",	 "-o",	    "-b",
	"-i", "-m", "-L", "-U", "-B", "-S", "-F", "-64", "-v1.1.1",
};

static int bad(char **cause, const char *arg, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(char **cause, const char *arg, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	*cause = xasprintf("%s: %s", arg, msg);
	free(msg);
	return -EINVAL;
}

/* A decimal number in @lo..@hi, the whole of @s. */
static int number(const char *arg, const char *s, uint64_t lo, uint64_t hi, uint64_t *out,
		  char **cause)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || errno || v < lo || v > hi)
		return bad(cause, arg, "expected a whole number from %llu to %llu%s",
			   (unsigned long long)lo, (unsigned long long)hi,
			   *s ? "" : " attached to the flag");
	*out = v;
	return 0;
}

static int number_u(const char *arg, const char *s, unsigned lo, unsigned hi, unsigned *out,
		    char **cause)
{
	uint64_t v;
	int ret = number(arg, s, lo, hi, &v, cause);

	if (!ret)
		*out = (unsigned)v;
	return ret;
}

/* A CPU mask, decimal or 0x hex, as SQLIO takes it. */
static int cpu_mask(const char *arg, const char *s, uint64_t *out, char **cause)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	char *end;

	errno = 0;
	*out = strtoull(hex ? s + 2 : s, &end, hex ? 16 : 10);
	if (!isxdigit((unsigned char)s[hex ? 2 : 0]) || *end || errno)
		return bad(cause, arg,
			   "expected a CPU mask, decimal or 0x hex (0x3: CPUs 0 and 1)");
	return 0;
}

/* Every CPU of @mask is one this process may run on. */
static int check_mask(const char *arg, uint64_t mask, char **cause)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned c;

	for (c = 0; c < 64; c++)
		if ((mask >> c & 1) && c >= n)
			return bad(cause, arg, "CPU %u is not on this machine (it has %ld, 0-%ld)",
				   c, n, n - 1);
	return 0;
}

/* @path as a job file's filename= spells it: ':' escaped. */
static void add_path(struct strbuf *sb, const char *path)
{
	for (; *path; path++) {
		if (*path == ':')
			strbuf_addc(sb, '\\');
		strbuf_addc(sb, *path);
	}
}

static char *path_check(const char *arg, const char *path, char **cause)
{
	struct strbuf sb = { 0 };
	size_t n;

	if (!*path || strlen(path) > PATH_MAX) {
		bad(cause, arg, "expected a file name");
		return NULL;
	}
	/* A job file would expand $, split at newlines, cut at ; and # (its
	 * comments, as fio's) and trim blanks at the ends. */
	if (strpbrk(path, "$\n\r;#") || isspace((unsigned char)path[0]) ||
	    isspace((unsigned char)path[strlen(path) - 1])) {
		bad(cause, arg,
		    "a file name with '$', ';', '#', a newline, or blanks at either end "
		    "cannot go into a job file");
		return NULL;
	}
	add_path(&sb, path); /* the length it takes in the job file */
	n = sb.len;
	strbuf_free(&sb);
	if (n > jobfile_value_max("filename")) {
		bad(cause, arg, "a file name of %zu bytes cannot go into a job file (at most %zu)",
		    n, jobfile_value_max("filename"));
		return NULL;
	}
	return xstrdup(path);
}

static struct sqlio_target *add_target(struct sqlio *s)
{
	struct sqlio_target *t;

	s->targets = xrealloc(s->targets, (s->nr_targets + 1) * sizeof(*s->targets));
	t = &s->targets[s->nr_targets++];
	memset(t, 0, sizeof(*t));
	return t;
}

/* -F: "<file> <threads> [<mask> [<size MB>]]" per line, # comments. */
static int param_file(struct sqlio *s, const char *arg, char **cause)
{
	FILE *f = fopen(s->param_file, "r");
	char *line = NULL, *tok[4], *save, *w;
	size_t cap = 0;
	unsigned lineno = 0, n, i;
	int ret = 0;

	if (!f) {
		ret = -errno;
		*cause = xasprintf("%s%s: %s", arg, s->param_file, strerror(errno));
		return ret;
	}
	while (!ret && getline(&line, &cap, f) >= 0) {
		struct sqlio_target *t;
		char *where, *p = line + strspn(line, " \t");

		lineno++;
		p[strcspn(p, "\r\n")] = '\0';
		if (!*p || *p == '#')
			continue;
		n = 0;
		for (w = strtok_r(p, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
			if (n++ < 4)
				tok[n - 1] = w;
		where = xasprintf("%s:%u", s->param_file, lineno);
		if (n < 2 || n > 4) {
			ret = bad(
				cause, where,
				"expected '<file> <threads> [<mask> [<size MB>]]', found %u field%s",
				n, n == 1 ? "" : "s");
		} else if (s->nr_targets == SQLIO_MAX_FILES) {
			ret = bad(cause, where, "more than %d files", SQLIO_MAX_FILES);
		} else {
			t = add_target(s);
			t->path = path_check(where, tok[0], cause);
			ret = t->path ? 0 : -EINVAL;
			if (!ret)
				ret = number_u(where, tok[1], 1, SQLIO_MAX_THREADS, &t->threads,
					       cause);
			if (!ret && n > 2)
				ret = cpu_mask(where, tok[2], &t->mask, cause);
			if (!ret && n > 2)
				ret = check_mask(where, t->mask, cause);
			if (!ret && n > 3)
				ret = number(where, tok[3], 1, UINT64_MAX / MB, &t->size_mb, cause);
		}
		free(where);
	}
	if (!ret && ferror(f))
		ret = -EIO, *cause = xasprintf("%s: %s: read error", arg, s->param_file);
	if (!ret && !s->nr_targets)
		ret = bad(cause, arg, "%s names no file", s->param_file);
	for (i = 0, n = 0; !ret && i < s->nr_targets; i++)
		n += s->targets[i].threads;
	if (!ret && n > SQLIO_MAX_THREADS)
		ret = bad(cause, arg, "%s asks for %u threads in all; SQLIO's maximum is %d",
			  s->param_file, n, SQLIO_MAX_THREADS);
	free(line);
	fclose(f);
	return ret;
}

/* The suggestion for an unknown flag: the same letter in the other case,
 * or the nearest spelling. */
static const char *near_flag(const char *arg)
{
	struct util_nearest near = UTIL_NEAREST_INIT;
	char two[3] = { '-', 0, 0 };
	size_t i;

	if (isalpha((unsigned char)arg[1])) {
		two[1] = (char)(islower((unsigned char)arg[1]) ? toupper((unsigned char)arg[1])
							       : tolower((unsigned char)arg[1]));
		for (i = 0; i < ARRAY_SIZE(sqlio_flags); i++)
			if (!strcmp(sqlio_flags[i], two))
				return sqlio_flags[i];
	}
	for (i = 0; i < ARRAY_SIZE(sqlio_flags); i++)
		util_nearest_offer(&near, arg, sqlio_flags[i]);
	return near.best;
}

static int one_flag(struct sqlio *s, const char *arg, char **cause)
{
	const char *v = arg + 2;
	char c = (char)toupper((unsigned char)*v);
	uint64_t x;
	int ret = 0;

	switch (arg[1]) {
	case 'k':
		if ((c != 'R' && c != 'W') || v[1])
			return bad(cause, arg, "expected -kR (reads) or -kW (writes)");
		s->write = c == 'W';
		return 0;
	case 't':
		return number_u(arg, v, 1, SQLIO_MAX_THREADS, &s->threads, cause);
	case 's':
		return number_u(arg, v, 1, 100000000, &s->secs, cause);
	case 'o':
		return number_u(arg, v, 1, 65536, &s->outstanding, cause);
	case 'b':
		return number_u(arg, v, 1, 1024 * 1024, &s->kb, cause);
	case 'i':
		return number_u(arg, v, 1, UINT_MAX, &s->ios_per_run, cause);
	case 'S':
		return number(arg, v, 0, UINT64_MAX / 2, &s->start_blocks, cause);
	case 'f':
		if (!strcasecmp(v, "random")) {
			s->pattern = SQLIO_RANDOM;
		} else if (!strcasecmp(v, "sequential")) {
			s->pattern = SQLIO_SEQUENTIAL;
		} else if (isdigit((unsigned char)*v)) {
			s->pattern = SQLIO_STRIDE;
			ret = number_u(arg, v, 1, UINT_MAX, &s->stride, cause);
		} else {
			ret = bad(cause, arg,
				  "expected -frandom, -fsequential or a stripe factor in blocks "
				  "(-f64)");
		}
		return ret;
	case 'B':
		if (!strchr("NYHS", c) || !c || v[1])
			return bad(cause, arg,
				   "expected -BN (no caches), -BY (file and disk caches), -BH "
				   "(disk cache only) or -BS (file cache only)");
		s->buffering = c;
		s->buffering_given = true;
		return 0;
	case 'L':
		if ((c != 'S' && c != 'P') ||
		    (v[1] && (tolower((unsigned char)v[1]) != 'i' || v[2])))
			return bad(cause, arg,
				   "expected -LS or -LP, with i for initiation times (-LSi)");
		s->latency = c;
		s->init_latency = v[1] != '\0';
		if (c == 'P')
			str_list_push(&s->notes,
				      xasprintf("%s: Linux has one clock for this: latencies are "
						"read from CLOCK_MONOTONIC, as with -LS",
						arg));
		return 0;
	case 'U':
		if (*v && (tolower((unsigned char)*v) != 'p' || v[1]))
			return bad(cause, arg, "expected -U, or -Up for each processor");
		s->util = *v ? 'P' : 'A';
		return 0;
	case 'm':
		if ((c != 'C' && c != 'S') || !isdigit((unsigned char)v[1]))
			return bad(cause, arg,
				   "expected -mC<n> (copy) or -mS<n> (scatter/gather) with n "
				   "sub-blocks per I/O");
		s->multi = c;
		return number_u(arg, v + 1, 1, 1024, &s->sub_blocks, cause);
	case 'p':
		if (c == 'I') {
			v++;
			str_list_push(&s->notes, xasprintf("%s: Linux has no ideal-processor hint; "
							   "the threads are bound to the CPU",
							   arg));
		}
		ret = number(arg, v, 0, 63, &x, cause);
		if (!ret)
			ret = check_mask(arg, 1ull << x, cause);
		s->cpu = ret ? -1 : (int)x;
		return ret;
	case 'a':
		if (c == 'R') {
			s->round_robin = true;
			v++;
			if (toupper((unsigned char)*v) == 'I') {
				v++;
				str_list_push(
					&s->notes,
					xasprintf("%s: Linux has no ideal-processor hint; each "
						  "thread is bound to its CPU",
						  arg));
			}
		}
		ret = cpu_mask(arg, v, &s->mask, cause);
		if (!ret && !s->mask)
			ret = bad(cause, arg, "the mask names no CPU");
		return ret ? ret : check_mask(arg, s->mask, cause);
	case 'd':
		if (!isalpha((unsigned char)*v) || v[1])
			return bad(cause, arg,
				   "Linux has no drive letters: give the file's path instead "
				   "(-d with one letter is accepted and the path used as given)");
		str_list_push(&s->notes, xasprintf("%s: Linux has no drive letters; the file "
						   "names are used as given",
						   arg));
		return 0;
	case 'R':
		return bad(cause, arg,
			   "Linux has no drive letters or disk numbers: name the block device "
			   "instead (iogauge sqlio ... /dev/sdb); writing to it destroys its data");
	case 'F':
		if (!*v)
			return bad(cause, arg, "expected the param file attached: -Fparam.txt");
		free(s->param_file);
		s->param_file = xstrdup(v);
		return 0;
	case '6':
		if (strcmp(v, "4"))
			break;
		str_list_push(&s->notes, xasprintf("%s: iogauge is a 64-bit program; nothing to "
						   "change",
						   arg));
		return 0;
	case 'v':
		if (strcmp(v, "1.1.1"))
			break;
		s->v111 = true;
		return 0;
	case 'D':
		return bad(cause, arg, "SQLIO's debug levels are not part of iogauge sqlio");
	default:
		break;
	}
	if (near_flag(arg))
		return bad(cause, arg, "unknown SQLIO flag; did you mean '%s'?", near_flag(arg));
	return bad(cause, arg, "unknown SQLIO flag (see iogauge sqlio -?)");
}

/* The bytes each target's I/O covers, and what the run lays out. */
static int size_targets(struct sqlio *s, char **cause)
{
	uint64_t bs = (uint64_t)s->kb * 1024, need;
	unsigned i;

	for (i = 0; i < s->nr_targets; i++) {
		struct sqlio_target *t = &s->targets[i];
		char kind;
		int ret = files_probe(t->path, &kind, &t->size);

		if (ret)
			return set_cause(cause, "%s: %s", t->path, strerror(-ret));
		if (kind == 'o' || kind == 'c')
			return set_cause(cause, "%s: not a regular file or a block device",
					 t->path);
		t->exists = kind != 0;
		if (s->pattern == SQLIO_STRIDE) {
			/* -S blocks, then -i rows of -f blocks; -v1.1.1 shifts each
			 * thread by its share of the columns. */
			need = s->start_blocks + (uint64_t)s->ios_per_run * s->stride;
			if (s->v111)
				need += (uint64_t)(t->threads - 1) * (s->stride / t->threads);
			need *= bs;
		} else if (t->size_mb) {
			need = t->size_mb * MB;
		} else if (t->exists) {
			need = t->size;
		} else {
			need = (uint64_t)s->ios_per_run * 64 * bs;
			str_list_push(
				&s->notes,
				xasprintf("%s does not exist: it is created with %llu MB (-i x "
					  "64 x -b); a size in a -F param file chooses another",
					  t->path, (unsigned long long)(need / MB)));
		}
		if (kind == 'b' && need > t->size)
			return set_cause(
				cause, "%s: the test needs %llu bytes; the device has %llu",
				t->path, (unsigned long long)need, (unsigned long long)t->size);
		t->use = need > t->size ? need : t->size;
		if (s->pattern != SQLIO_STRIDE &&
		    (t->size_mb ? t->size_mb * MB : t->use) < (s->start_blocks + 1) * bs)
			return set_cause(cause, "%s: %llu bytes leave no %u KB block after -S%llu",
					 t->path, (unsigned long long)t->use, s->kb,
					 (unsigned long long)s->start_blocks);
	}
	return 0;
}

static int check_all(struct sqlio *s, bool files_given, char **cause)
{
	unsigned i, total;

	if (s->param_file && files_given)
		return set_cause(cause,
				 "-F%s: the param file names the files; give no file "
				 "name with it",
				 s->param_file);
	if (s->param_file && (s->cpu >= 0 || s->mask))
		return set_cause(cause,
				 "-F%s: the param file's mask column sets the affinity; "
				 "give no -p or -a with it",
				 s->param_file);
	if (s->multi && s->outstanding)
		return set_cause(cause, "-m%c%u: SQLIO does not combine -m with -o", s->multi,
				 s->sub_blocks);
	if (s->multi && (uint64_t)s->kb * 1024 % s->sub_blocks)
		return set_cause(cause, "-m%c%u: -b%u KB is not a whole number of %u sub-blocks",
				 s->multi, s->sub_blocks, s->kb, s->sub_blocks);
	if (s->multi == 'S' && (uint64_t)s->kb * 1024 / s->sub_blocks % 4096)
		return set_cause(
			cause,
			"-mS%u: scatter/gather needs sub-blocks of whole pages (4 KB); -b%u "
			"makes them %llu bytes",
			s->sub_blocks, s->kb, (unsigned long long)s->kb * 1024 / s->sub_blocks);
	if (s->multi == 'S' && s->engine && engine_find(s->engine) &&
	    !(engine_find(s->engine)->flags & ENGINE_F_VECTORED))
		return set_cause(cause,
				 "-mS%u: scatter/gather needs an engine that does vectored I/O; "
				 "--ioengine=%s does not (psync, sync, libaio and io_uring do)",
				 s->sub_blocks, s->engine);
	if (s->v111 && s->pattern != SQLIO_STRIDE)
		return set_cause(cause,
				 "-v1.1.1: the old block reuse needs a stripe factor (-f<N>)");
	for (i = 0, total = 0; i < s->nr_targets; i++)
		total += s->targets[i].threads;
	if (total > JOB_MAX_NUMJOBS)
		return set_cause(cause,
				 "-t%u: with %u files that is %u threads here (each file has its "
				 "own); the limit is %d",
				 s->threads, s->nr_targets, total, JOB_MAX_NUMJOBS);
	for (i = 0; i < s->nr_targets; i++) {
		const struct sqlio_target *t = &s->targets[i];

		if (s->pattern == SQLIO_STRIDE && s->stride < t->threads)
			return set_cause(
				cause,
				"-f%u: the threads split the stripe's %u columns, so it must "
				"be at least the %u threads of %s",
				s->stride, s->stride, t->threads, t->path);
		if (s->v111 && s->stride % t->threads)
			return set_cause(cause,
					 "-v1.1.1: -f%u does not split evenly between %u "
					 "threads",
					 s->stride, t->threads);
		if (s->pattern == SQLIO_STRIDE && t->size_mb)
			return set_cause(
				cause,
				"%s:%u: a file size is for -frandom and -fsequential; -f%u "
				"sets the bytes used itself",
				s->param_file, i + 1, s->stride);
	}
	return 0;
}

int sqlio_parse(struct sqlio *s, int argc, char **argv,
		int (*other)(void *arg, int argc, char **argv, int *i, char **cause), void *arg,
		char **cause)
{
	struct strbuf cmd = { 0 };
	bool files = false;
	unsigned i;
	int a, ret = 0;

	memset(s, 0, sizeof(*s));
	s->threads = 1;
	s->secs = 30;
	s->pattern = SQLIO_STRIDE;
	s->stride = 64;
	s->kb = 2;
	s->ios_per_run = 64;
	s->buffering = 'N';
	s->cpu = -1;
	for (a = 1; a < argc && !ret; a++) {
		const char *p = argv[a];

		int first = a;

		if (!strcmp(p, "-?") || !strcmp(p, "--help")) {
			ret = 1;
		} else if (!strcmp(p, "--job")) {
			s->print_job = true;
		} else if (!strncmp(p, "--ioengine", 10) && (p[10] == '=' || !p[10])) {
			const char *e = p[10] ? p + 11 : a + 1 < argc ? argv[++a] : NULL;

			if (!e || !engine_find(e)) {
				struct util_nearest near = UTIL_NEAREST_INIT;
				unsigned k;

				for (k = 0; e && engine_at(k); k++)
					util_nearest_offer(&near, e, engine_at(k)->name);
				ret = near.best
					      ? set_cause(cause,
							  "--ioengine=%s: no such engine in this "
							  "build; did you mean '%s'?",
							  e, near.best)
					      : set_cause(
							cause,
							"--ioengine needs an engine of this build "
							"(see iogauge --list-engines)");
			} else {
				s->engine = e;
			}
		} else if (!strncmp(p, "--", 2)) {
			ret = other(arg, argc, argv, &a, cause);
			if (!ret)
				ret = set_cause(cause,
						"unknown option '%s' for iogauge sqlio (see "
						"iogauge sqlio --help)",
						p);
			else if (ret > 0)
				ret = 0;
		} else if (p[0] == '-' && p[1]) {
			ret = one_flag(s, p, cause);
		} else if (s->nr_targets == SQLIO_MAX_FILES) {
			ret = set_cause(cause, "%s: more than %d files", p, SQLIO_MAX_FILES);
		} else {
			struct sqlio_target *t = add_target(s);

			t->path = path_check(p, p, cause);
			ret = t->path ? 0 : -EINVAL;
			files = true;
		}
		/* The job file's comment: the words that define the workload. */
		if (strncmp(p, "--", 2) || s->engine == argv[a] || s->engine == p + 11)
			for (; first <= a; first++)
				strbuf_addf(&cmd, "%s%s", cmd.len ? " " : "", argv[first]);
	}
	s->cmdline = strbuf_detach(&cmd);
	if (ret)
		return ret;
	if (s->param_file)
		ret = param_file(s, "-F", cause);
	else if (!s->nr_targets)
		add_target(s)->path = xstrdup("testfile.dat");
	for (i = 0; !ret && !s->param_file && i < s->nr_targets; i++) {
		s->targets[i].threads = s->threads;
		s->targets[i].mask = s->mask;
	}
	if (!ret)
		ret = check_all(s, files, cause);
	if (!ret)
		ret = size_targets(s, cause);
	if (!s->engine)
		s->engine = engine_find("io_uring") ? "io_uring" : "libaio";
	return ret;
}

void sqlio_free(struct sqlio *s)
{
	unsigned i;

	for (i = 0; i < s->nr_targets; i++)
		free(s->targets[i].path);
	free(s->targets);
	free(s->param_file);
	free(s->cmdline);
	str_list_clear(&s->notes);
	memset(s, 0, sizeof(*s));
}

/* "0,2-3" from a CPU mask. */
static void add_cpus(struct strbuf *sb, uint64_t mask)
{
	unsigned c, e, n = 0;

	for (c = 0; c < 64; c++) {
		if (!(mask >> c & 1))
			continue;
		for (e = c; e + 1 < 64 && (mask >> (e + 1) & 1); e++)
			;
		strbuf_addf(sb, "%s%u", n++ ? "," : "", c);
		if (e > c)
			strbuf_addf(sb, "-%u", e);
		c = e;
	}
}

/* A job file value: ':' separates fio file names, so it is escaped. */
static void target_job(const struct sqlio *s, unsigned i, struct strbuf *sb)
{
	const struct sqlio_target *t = &s->targets[i];
	uint64_t bs = (uint64_t)s->kb * 1024, start = s->start_blocks * bs;
	uint64_t region = (t->size_mb ? t->size_mb * MB : t->use) - start;

	if (s->nr_targets == 1)
		strbuf_addf(sb, "\n[sqlio]\n");
	else
		strbuf_addf(sb, "\n[sqlio.%u]\n", i + 1);
	strbuf_addf(sb, "filename=");
	add_path(sb, t->path);
	strbuf_addf(sb, "\nnumjobs=%u\n", t->threads);
	if (start)
		strbuf_addf(sb,
			    "; -S%llu: the I/O starts %llu blocks into the file\n"
			    "offset=%llu\n",
			    (unsigned long long)s->start_blocks,
			    (unsigned long long)s->start_blocks, (unsigned long long)start);
	switch (s->pattern) {
	case SQLIO_STRIDE:
		strbuf_addf(sb, "; -i%u rows of -f%u blocks\nsize=%llu\n", s->ios_per_run,
			    s->stride, (unsigned long long)s->ios_per_run * s->stride * bs);
		if (s->v111)
			strbuf_addf(sb,
				    "; -v1.1.1: each thread starts at its share of the columns\n"
				    "offset_increment=%llu\n",
				    (unsigned long long)(s->stride / t->threads * bs));
		break;
	case SQLIO_RANDOM:
		strbuf_addf(sb, "; every thread over the whole file (%s)\nsize=%llu\n",
			    t->size_mb ? "the param file's size" : "its size when this was written",
			    (unsigned long long)region);
		break;
	case SQLIO_SEQUENTIAL:
		if (t->threads == 1) {
			strbuf_addf(sb, "; the whole file (%s)\nsize=%llu\n",
				    t->size_mb ? "the param file's size"
					       : "its size when this was written",
				    (unsigned long long)region);
			break;
		}
		region = region / t->threads / bs * bs;
		strbuf_addf(sb,
			    "; each thread a slice of the file in turn (SQLIO's threads share "
			    "one position)\nsize=%llu\noffset_increment=%llu\n",
			    (unsigned long long)region, (unsigned long long)region);
		break;
	}
	if (t->mask || s->cpu >= 0) {
		strbuf_addf(sb, "cpus_allowed=");
		add_cpus(sb, s->cpu >= 0 ? 1ull << s->cpu : t->mask);
		strbuf_addc(sb, '\n');
		if (s->round_robin)
			strbuf_addf(sb, "; -aR: one CPU of the mask per thread, in turn\n"
					"cpus_allowed_policy=split\n");
	}
}

void sqlio_jobfile(const struct sqlio *s, struct strbuf *sb)
{
	static const char *const buffering[] = {
		['N'] = "direct=1\nsync=dsync\n",
		['Y'] = "direct=0\n",
		['H'] = "direct=1\n",
		['S'] = "direct=0\nsync=dsync\n",
	};
	uint64_t bs = (uint64_t)s->kb * 1024;
	unsigned i;

	strbuf_addf(sb,
		    "; SQLIO v1.5.SG's test as an iogauge job file, from\n"
		    "; iogauge sqlio %s\n[global]\n",
		    s->cmdline);
	/* SQLIO's workers are threads of one process. */
	strbuf_addf(sb, "thread\nioengine=%s\n", s->engine);
	if (s->pattern == SQLIO_RANDOM) {
		strbuf_addf(sb, "rw=%s\nnorandommap\n", s->write ? "randwrite" : "randread");
	} else if (s->v111) {
		strbuf_addf(sb, "; -v1.1.1: every run goes over the same blocks\nrw=%s:%llu\n",
			    s->write ? "write" : "read", (unsigned long long)(s->stride - 1) * bs);
	} else {
		strbuf_addf(sb, "rw=%s\n", s->write ? "write" : "read");
		if (s->pattern == SQLIO_STRIDE)
			strbuf_addf(sb,
				    "; -f%u: %u blocks between the I/Os of a run; the next "
				    "run is one block on\nstride=%u\n",
				    s->stride, s->stride, s->stride);
	}
	strbuf_addf(sb, "bs=%llu\n", (unsigned long long)bs);
	strbuf_addf(sb,
		    "; -o: I/Os outstanding per thread (SQLIO: per thread per file)\n"
		    "iodepth=%u\n",
		    s->outstanding ? s->outstanding : 1);
	strbuf_addf(sb, "; -B%c\n%s", s->buffering, buffering[(unsigned char)s->buffering]);
	if (s->multi)
		strbuf_addf(sb, "; -m%c%u\nsub_blocks=%u\nsub_block_io=%s\n", s->multi,
			    s->sub_blocks, s->sub_blocks, s->multi == 'S' ? "scatter" : "copy");
	strbuf_addf(sb, "time_based\nruntime=%us\ngroup_reporting\n", s->secs);
	for (i = 0; i < s->nr_targets; i++)
		target_job(s, i, sb);
}
