/* SPDX-License-Identifier: MIT */
/*
 * Where the report goes: standard output, or the file --output names.
 * That file is not touched until there is a report: it is written under a
 * temporary name beside it and renamed over it.  Not a reporter: the
 * reporters fill a buffer, this puts the buffer in place.
 */
#ifndef IOGAUGE_OUTPUT_H
#define IOGAUGE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

/* { .path = NULL, .fd = -1 }: standard output, without output_open()'s check. */
struct output {
	const char *path; /* as given to --output; NULL: standard output */
	char *target;	  /* the file renamed over: @path, or where its symlink leads */
	char *tmp;	  /* ".NAME.iogauge-XXXXXX" beside @target; NULL: none */
	int fd;		  /* the temporary, or a device or FIFO written in place; -1 */
	bool truncate;	  /* @fd is the file itself, emptied before the report */
};

/*
 * Before the run: checks that the report can be written (standard output
 * open for writing; a folder that takes the temporary, made here) and for
 * a device or a FIFO opens it.  0, or -EINVAL (bad input) with *cause
 * naming --output=PATH or standard output and the reason.
 */
int output_open(struct output *o, const char *path, char **cause);
/*
 * Writes @len bytes of @buf, flushed, and renames the temporary over the
 * file.  0, or -errno (a failure of the system) with *cause naming the
 * file and the errno text: then the old file is as it was.
 */
int output_commit(struct output *o, const char *buf, size_t len, char **cause);
/*
 * A report before the last (--status-interval, SIGUSR1): @len bytes of
 * @buf written, and the temporary renamed over the file at the first, so
 * that the file grows as the run goes, as fio's does; output_commit then
 * adds the last report.  0, or -errno with *cause naming the file.
 */
int output_append(struct output *o, const char *buf, size_t len, char **cause);
/* Removes the temporary (no report came) and frees @o; also after a commit. */
void output_abandon(struct output *o);
/* Whether --output=@path is the existing regular file @in (the same inode,
 * through any link): the report would replace an input it is made from. */
bool output_is_input(const char *path, const char *in);

#endif
