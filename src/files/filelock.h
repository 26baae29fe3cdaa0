/* SPDX-License-Identifier: MIT */
/*
 * lockfile: one lock per file path of the run, shared by every clone of
 * every job that uses the path, in memory that clones in processes share
 * too: exclusive (a mutex) or readwrite (readers together, a writer
 * alone), held around each I/O's submission as fio holds it (for a sync
 * engine, the I/O itself).
 */
#ifndef IOGAUGE_FILELOCK_H
#define IOGAUGE_FILELOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "jobfile/job.h"

struct files_lock {
	pthread_mutex_t mu;
	pthread_rwlock_t rw;
};

struct filelocks {
	struct files_lock *v; /* cap of them, in a shared mapping */
	char **paths;	      /* the path of each made so far (the run's process only) */
	unsigned n, cap;
};

/* Room for @cap locks.  0, or -errno with *cause set. */
int filelocks_init(struct filelocks *s, unsigned cap, char **cause);
/* The lock of @path, made on first use (both kinds set up); NULL when all
 * cap are taken. */
struct files_lock *filelocks_get(struct filelocks *s, const char *path);
void filelocks_free(struct filelocks *s);

/* Around one I/O: @mode a job's lockfile, @read whether the I/O only reads. */
static inline void files_lock(struct files_lock *l, enum lockfile_mode mode, bool read)
{
	if (mode == LOCKFILE_EXCLUSIVE)
		pthread_mutex_lock(&l->mu);
	else if (read)
		pthread_rwlock_rdlock(&l->rw);
	else
		pthread_rwlock_wrlock(&l->rw);
}

static inline void files_unlock(struct files_lock *l, enum lockfile_mode mode)
{
	if (mode == LOCKFILE_EXCLUSIVE)
		pthread_mutex_unlock(&l->mu);
	else
		pthread_rwlock_unlock(&l->rw);
}

#endif
