/* SPDX-License-Identifier: MIT */
/*
 * What the file-operation engines (filecreate, filestat, filedelete)
 * share, as fio's: no bytes move; the first I/O of each pass over a file
 * performs the engine's operation on the file's path, timed, its time
 * recorded as that I/O's clat, and every I/O counts as a read or write of
 * its length with no latency of its own.
 */
#ifndef IOGAUGE_FILEOP_H
#define IOGAUGE_FILEOP_H

#include "engines/engine.h"

/* The operation on @path: 0 or -errno.  @opts: the engine's options. */
typedef int (*fileop_fn)(const char *path, const void *opts);

/* What an engine does to each path. */
struct fileop_kind {
	fileop_fn op;	   /* timed, at the first I/O of each pass over the file */
	fileop_fn prepare; /* NULL, or at set-up, on every path (the directories to use) */
	fileop_fn remove;  /* NULL, or with unlink=1 at the end, on every path */
};

/* Set-up (@k->prepare on each path) and release (@k->remove, with
 * unlink=1) of the per-file pass counts and the engine's operation.  0,
 * or -errno with *cause naming the path. */
int fileop_init(struct engine *e, const struct engine_setup *s, const struct fileop_kind *k,
		char **cause);
void fileop_cleanup(struct engine *e);
enum engine_q fileop_queue(struct engine *e, struct io_req *req);
/* For the engines that move no data (these, falloc, ftruncate): verify
 * would read back bytes never written, so a job with it is refused. */
int fileop_refuse_verify(const struct job *job, const struct opt_def **blame, char **cause);
/* What the three refuse of a job: trims and mixed directions (fio times
 * the operation as the job's one direction). */
int fileop_check(const struct job *job, const void *opts, const struct opt_def **blame,
		 char **cause);

#endif
