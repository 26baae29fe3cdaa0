/* SPDX-License-Identifier: MIT */
/*
 * --bundle PATH: the run's bundle, one .tar.gz.  Members:
 *   MANIFEST          what each member is
 *   jobfiles/N-NAME   each job file and include as read (not standard input)
 *   options.ini       every job with each option's final value and origin
 *   report.json       the json+ report (iogauge compare reads it)
 *   report.txt        the normal report
 *   report.html       the HTML page (--output-format=html's)
 *   logs/NAME         the write_*_log files the run wrote (64 MiB at most)
 *   machine.txt       CPU, memory, kernel, the storage under the files
 *   version.txt       iogauge --version
 * Never a byte of the files under test: nothing here opens them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bundle/bundle.h"
#include "jobfile/job.h"
#include "report/report.h"
#include "stats/iolog.h"
#include "run/run.h"
#include "version/version.h"

/* A job file at most this big is taken whole (the reader's own limit is
 * larger; a bundle is for sharing), and logs up to this many bytes in all. */
#define BUNDLE_JOBFILE_MAX (4u << 20)
#define BUNDLE_LOGS_MAX	   (64u << 20)

int bundle_check(const char *path, char **cause)
{
	const char *slash = strrchr(path, '/');
	char *dir =
		slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	struct stat st;
	int ret = 0;

	if (!*path)
		ret = set_cause(cause, "--bundle needs a file name");
	else if (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK))
		ret = set_cause(cause, "--bundle %s: cannot write in %s (%s)", path, dir,
				strerror(errno ? errno : ENOTDIR));
	else if (!stat(path, &st) && S_ISDIR(st.st_mode))
		ret = set_cause(cause, "--bundle %s: a folder (a bundle is a .tar.gz file)", path);
	else if (!stat(path, &st) && !S_ISREG(st.st_mode))
		ret = set_cause(cause,
				"--bundle %s: not a regular file (a device or a pipe): a bundle "
				"is a .tar.gz file, written whole at the end",
				path);
	free(dir);
	return ret;
}

/* A file (a job file, a log) whole, if it is a regular file of at most
 * @max bytes. */
static bool file_text(const char *path, struct strbuf *out, size_t max)
{
	struct stat st;
	char buf[65536];
	ssize_t n;
	int fd;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > max)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(out, buf, (size_t)n);
	close(fd);
	return n == 0;
}

/* "jobfiles/N-base", short enough for a ustar name. */
static char *member_name(unsigned n, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	return xasprintf("jobfiles/%u-%.80s", n, base);
}

/* The write_*_log files the run wrote (report_logs(), before this), whole
 * up to BUNDLE_LOGS_MAX bytes in all; the MANIFEST names any left out. */
static void bundle_logs(struct bundle_tar *t, const struct run *run, struct strbuf *manifest)
{
	struct strbuf text = { 0 };
	size_t total = 0;
	unsigned i, k;
	char *path, *name;

	for (i = 0; i < run->nr; i++) {
		for (k = 0; k <= IOLOG_NR; k++) {
			path = report_log_path(run->results[i].job, k, i + 1);
			if (!path)
				continue;
			text.len = 0;
			if (!file_text(path, &text, BUNDLE_LOGS_MAX - total)) {
				strbuf_addf(manifest,
					    "(left out: the log %s, not there or too big)\n", path);
			} else {
				name = xasprintf("logs/%.90s", strrchr(path, '/')
								       ? strrchr(path, '/') + 1
								       : path);
				bundle_tar_add(t, name, text.buf ? text.buf : "", text.len);
				strbuf_addf(manifest, "%-28s the log %s\n", name, path);
				total += text.len;
				free(name);
			}
			free(path);
		}
	}
	strbuf_free(&text);
}

int bundle_write(const char *path, const struct report_html_about *about, const struct run *run,
		 char **cause)
{
	const struct jobset *js = about->js;
	struct bundle_tar t = { .mtime = (unsigned long long)time(NULL) };
	struct strbuf sb = { 0 }, manifest = { 0 };
	const struct job **jobs = xcalloc(run->nr ? run->nr : 1, sizeof(*jobs));
	unsigned i, nr = 0, files = 0;
	int ret;

	strbuf_adds(&manifest, "An iogauge bundle: one run, to read later or elsewhere.\n"
			       "It holds no data from the files under test.\n\n");
	for (i = 0; i < js->names.n; i++) {
		char *name;

		sb.len = 0;
		if (!file_text(js->names.v[i], &sb, BUNDLE_JOBFILE_MAX))
			continue;
		name = member_name(++files, js->names.v[i]);
		bundle_tar_add(&t, name, sb.buf ? sb.buf : "", sb.len);
		strbuf_addf(&manifest, "%-28s the job file %s, as read\n", name, js->names.v[i]);
		free(name);
	}
	for (i = 0; i < run->nr; i++)
		if (!nr || jobs[nr - 1] != run->results[i].job)
			jobs[nr++] = run->results[i].job;
	sb.len = 0;
	for (i = 0; i < nr; i++) {
		if (i)
			strbuf_addc(&sb, '\n');
		job_dump(jobs[i], &sb);
	}
	bundle_tar_add(&t, "options.ini", sb.buf ? sb.buf : "", sb.len);
	strbuf_adds(&manifest, "options.ini                  every job, each option's final value "
			       "and where it came from (--parse-only)\n");
	sb.len = 0;
	report_json(run, js, true, &sb);
	bundle_tar_add(&t, "report.json", sb.buf, sb.len);
	strbuf_adds(&manifest, "report.json                  the json+ report\n");
	sb.len = 0;
	report_text(run, &sb);
	bundle_tar_add(&t, "report.txt", sb.buf, sb.len);
	strbuf_adds(&manifest, "report.txt                   the normal report\n");
	sb.len = 0;
	report_html(run, about, &sb);
	bundle_tar_add(&t, "report.html", sb.buf, sb.len);
	strbuf_adds(&manifest, "report.html                  the HTML page, self-contained\n");
	bundle_logs(&t, run, &manifest);
	sb.len = 0;
	bundle_machine(jobs, nr, &sb);
	bundle_tar_add(&t, "machine.txt", sb.buf, sb.len);
	strbuf_adds(&manifest, "machine.txt                  CPU, memory, kernel, and the "
			       "filesystem and device under each job's files\n");
	sb.len = 0;
	version_text(&sb);
	bundle_tar_add(&t, "version.txt", sb.buf, sb.len);
	strbuf_adds(&manifest, "version.txt                  iogauge --version\n");
	bundle_tar_add(&t, "MANIFEST", manifest.buf, manifest.len);
	ret = bundle_tar_write_gz(&t, path, cause);
	strbuf_free(&t.data);
	strbuf_free(&sb);
	strbuf_free(&manifest);
	free(jobs);
	return ret;
}
