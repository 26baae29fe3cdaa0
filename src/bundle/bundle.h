/* SPDX-License-Identifier: MIT */
/*
 * --bundle PATH: one .tar.gz that holds what is needed to read a run
 * later or elsewhere: the job files as written, every job's resolved
 * options, the json+ report, the text report and a description of the
 * machine and of the storage under the job's files.  Never a byte of the
 * files under test.
 */
#ifndef IOGAUGE_BUNDLE_H
#define IOGAUGE_BUNDLE_H

#include <stddef.h>

#include "util/util.h"

struct job;
struct jobset;
struct report_html_about;
struct run;

/* A tar archive being built in memory (ustar). */
struct bundle_tar {
	struct strbuf data;
	unsigned long long mtime; /* s since 1970, every member's */
};

/* Adds a regular file @name (< 100 bytes) holding @len bytes of @p. */
void bundle_tar_add(struct bundle_tar *t, const char *name, const void *p, size_t len);
/* Ends the archive and writes it gzip'ed at @path (through a temporary
 * beside it, renamed at the end).  0, or -errno with *cause naming @path. */
int bundle_tar_write_gz(struct bundle_tar *t, const char *path, char **cause);
/*
 * Member @name of the gzip'ed tar at @path into @out.  0; -ENOENT when the
 * archive has no such member; -EINVAL when @path is no gzip'ed tar;
 * -errno when it cannot be read.  *cause says which.
 */
int bundle_tar_read_member(const char *path, const char *name, struct strbuf *out, char **cause);

/* The machine and the storage under @jobs' files, "key: value" lines. */
void bundle_machine(const struct job *const *jobs, unsigned nr, struct strbuf *sb);

/* Whether a bundle can be written at @path (checked before the run): 0,
 * or -EINVAL with *cause. */
int bundle_check(const char *path, char **cause);
/*
 * Writes the bundle of @run at @path: the job files @js read, @run's jobs'
 * options, its json+, text and HTML reports (@about: the command line
 * the page shows), the machine.  0, or -errno with *cause.
 */
int bundle_write(const char *path, const struct report_html_about *about, const struct run *run,
		 char **cause);

#endif
