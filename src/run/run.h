/* SPDX-License-Identifier: MIT */
/*
 * Running jobs: files laid out, one worker thread per job clone, released
 * together, stonewall and wait_for honoured, results collected.  The
 * results are plain data for a reporter; nothing here prints.
 */
#ifndef IOGAUGE_RUN_H
#define IOGAUGE_RUN_H

#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "files/files.h"
#include "stats/diskstats.h"
#include "stats/iolog.h"
#include "jobfile/job.h"
#include "plan/plan.h"
#include "util/runclock.h"
#include "stats/stats.h"
#include "stats/steady.h"
#include "run/idleprof.h"

struct run_ranks;

/* One job clone's outcome. */
struct run_result {
	const struct job *job;
	unsigned job_index;
	unsigned clone; /* 0..numjobs-1 */
	unsigned group; /* reporting group */
	const char *engine;
	unsigned depth; /* I/Os the engine could keep in flight */
	struct run_stats stats;
	char *error;	   /* NULL, or "file: offset N, size N: errno text" */
	int error_no;	   /* its errno; 0 without an error */
	char *first_error; /* continue_on_error: the first error passed over, or NULL */
	int first_error_no;
	struct run_logs *logs; /* windows and the write_*_log entries */
	uint64_t t_start;      /* ns, CLOCK_MONOTONIC: when the clone's measured I/O began (after
				* ramp_time: the logs' time 0); 0: never */
	uint64_t t_end;	       /* ns, the same clock: when its I/O loop ended; 0: never */
	/* steadystate: the judgement this clone is part of (its own, or its
	 * group's with group_reporting); NULL without steadystate. */
	const struct steady *ss;
};

struct run {
	struct run_result *results;
	unsigned nr;
	bool interrupted;	/* stopped by *stop */
	int64_t epoch_ms;	/* wall clock when the run started, ms since 1970 */
	uint64_t t_start;	/* ns, the run's clock, the same instant */
	enum clocksource clock; /* the clock every time was read from */
	uint64_t duration;	/* ns, start to the last worker's end */
	struct disk_set disks;	/* the block devices under the files, before and after */
	struct steady *steady;	/* per clone: steadystate's judgements (dur 0: none) */
	const struct idleprof_figures *idle; /* --idle-prof's, or NULL */
	const struct run_ranks *ranks;	     /* MPI, rank 0: each rank's results, or NULL */
};

/* Progress of a run, for a live status line. */
struct run_status {
	unsigned total, waiting, running, done; /* job clones */
	uint64_t bytes[2], ios[2];		/* measured read, write so far */
	uint64_t trim_bytes;			/* measured trims so far */
	double frac;				/* 0..1 of the work done */
	uint64_t elapsed;			/* ns since the run started */
	uint64_t eta;				/* ns left; UINT64_MAX: unknown */
};

/* Calls @fn from a thread of the run about every @every ns while jobs run,
 * and @layout (when set) about as often while a file's layout or pre_read
 * has taken longer than @every, then once at its end. */
struct run_watch {
	void (*fn)(const struct run_status *st, void *arg);
	void (*layout)(const struct run_layout *l, void *arg);
	void *arg;
	uint64_t every; /* ns */
	/* --idle-prof (NULL: none): counts from the start of the I/O to the end of the last clone. */
	struct idleprof *idle;
	/* Full reports while the jobs run (run/status.h): @report sees the
	 * stats so far, from its own thread, every @report_every ns (0:
	 * none) counted from the run's start, whenever @report_now (may be
	 * NULL; a signal handler may post it) is posted, and whenever the
	 * file @dump_file (may be NULL) appears: it is removed. */
	void (*report)(const struct run *snap, void *report_arg);
	void *report_arg;
	uint64_t report_every;
	sem_t *report_now;
	const char *dump_file;
	/* Called (may be NULL) before each stonewall batch starts: MPI's
	 * barrier across ranks (mpi/gate.c); it may set the run's stop. */
	void (*gate)(void *gate_arg);
	void *gate_arg;
	/* ns, run_now: the batch's agreed zero the gate set (MPI: every
	 * rank's startdelay, ramp_time and runtime count from it); 0: none,
	 * each clone counts from its own start. */
	uint64_t t_zero;
};

/* The signals that stop a run as Ctrl-C does (the program's handler sets
 * *stop); a clone's process ignores them, the run's process stops it. */
#define RUN_NR_STOP_SIGNALS 4
extern const int run_stop_signals[RUN_NR_STOP_SIGNALS];

/* The stop and halt flags are atomic_int: a signal handler may store to
 * it (C11 7.14.1.1) and the clones' processes share it, as it is lock-free. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_int is not always lock-free");

/*
 * Runs the jobs @plan planned (plan_jobs).  @watch (may be NULL) sees the
 * progress.  *stop (set from a signal handler) ends every worker at the
 * next I/O, and any wait (rate,
 * thinktime, startdelay) within a few run_sleep_until slices; what ran is
 * still in the results.  Returns 0 when every job ran (I/O errors are in
 * the results), or -errno with *cause set when the run could not start (a
 * file, O_DIRECT, alignment): then no job did I/O.  -EINVAL is bad input
 * (the job asks what cannot be done), any other -errno the system's.
 * *stop set while a file is laid out or pre-read ends that at once:
 * -EINTR, and the files the run created are removed.
 */
int run_jobs(const struct run_plan *plan, atomic_int *stop, const struct run_watch *watch,
	     struct run *out, char **cause);
void run_free(struct run *r);

#endif
