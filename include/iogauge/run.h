/* SPDX-License-Identifier: MIT */
/*
 * Running jobs: files laid out, one worker thread per job clone, released
 * together, stonewall and wait_for honoured, results collected.  The
 * results are plain data for a reporter; nothing here prints.
 */
#ifndef IOGAUGE_RUN_H
#define IOGAUGE_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "iogauge/job.h"
#include "iogauge/stats.h"

struct run_file {
	char *path;
	int fd;
	uint64_t size;	/* bytes the job may use from offset 0 of the file */
	uint64_t start; /* bytes: first byte of the I/O region (offset) */
	uint64_t len;	/* bytes: length of the I/O region */
	bool created;	/* this run created it: unlink may remove it */
};

/* One job clone's outcome. */
struct run_result {
	const struct job *job;
	unsigned job_index;
	unsigned clone; /* 0..numjobs-1 */
	unsigned group; /* reporting group */
	const char *engine;
	unsigned depth; /* I/Os the engine could keep in flight */
	struct run_stats stats;
	char *error; /* NULL, or "file: offset N, size N: errno text" */
};

struct run {
	struct run_result *results;
	unsigned nr;
	bool interrupted; /* stopped by *stop */
};

/*
 * Runs @jobs.  *stop (set from a signal handler) ends every worker at the
 * next I/O; what ran is still in the results.  Returns 0 when every job ran
 * (I/O errors are in the results), or -errno with *cause set when the run
 * could not start (a file, O_DIRECT, alignment): then no job did I/O.
 */
int run_jobs(const struct job *jobs, unsigned nr, volatile sig_atomic_t *stop, struct run *out,
	     char **cause);
void run_free(struct run *r);

/* Now, in ns, from CLOCK_MONOTONIC. */
uint64_t run_now(void);

#endif
