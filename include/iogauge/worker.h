/* SPDX-License-Identifier: MIT */
/*
 * One job clone: its engine, files, buffers, offset generators and stats.
 * worker_setup() does everything that can fail before I/O; worker_run() is
 * the I/O loop, one loop for every engine: queue until the depth is full,
 * commit, reap, record.  The loop allocates nothing and takes no locks.
 */
#ifndef IOGAUGE_WORKER_H
#define IOGAUGE_WORKER_H

#include <signal.h>

#include "iogauge/engine.h"
#include "iogauge/files.h"
#include "iogauge/rand.h"
#include "iogauge/run.h"

struct worker {
	const struct job *job;
	unsigned clone;
	volatile sig_atomic_t *stop;
	struct engine eng;
	struct run_files files;
	struct offgen *offgen; /* one per file (random patterns) */
	uint64_t unit;	       /* bytes: random offsets are multiples of it */
	uint64_t *cursor;      /* bytes: next sequential offset, per file */
	struct rng rng;	       /* read/write mix and block size choice */
	void *bufmem;
	size_t buf_size;	   /* bytes per slot */
	struct io_req *reqs;	   /* depth slots */
	struct io_req **free_reqs; /* stack of free slots */
	struct io_req **done;	   /* reap results */
	struct io_req **pending;   /* queued since the last commit */
	struct io_req *held;	   /* refused BUSY (or a sync due): goes out first */
	bool eng_ready;		   /* ->init() succeeded: ->cleanup() is owed */
	unsigned nr_free;
	unsigned next_file;
	uint64_t writes_since_sync;
	struct run_stats stats;
	char *error;
};

/* 0, or -errno with *cause set; on error nothing is left open. */
int worker_setup(struct worker *w, const struct job *job, unsigned clone,
		 volatile sig_atomic_t *stop, char **cause);
/* Runs the job's I/O; an I/O error stops it and is left in w->error. */
void worker_run(struct worker *w);
/* Releases everything; with @remove_created, removes the files this run
 * created (unlink=1, or a run that never started). */
void worker_cleanup(struct worker *w, bool remove_created);

#endif
