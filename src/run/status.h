/* SPDX-License-Identifier: MIT */
/*
 * Full reports while the jobs run (fio's --status-interval, SIGUSR1 and
 * its fio-dump-status file): a thread of the run's process asks every
 * clone for its stats so far, gathers them into a struct run, and hands
 * that to the watch's report function.
 *
 * The hand-over is one word and two copies per clone, in memory the
 * clones' processes share: the thread raises the request word; a clone
 * sees it at the top of its I/O loop, copies its stats into its live
 * copy (no lock, no allocation) and answers with the request's number;
 * the thread reads the copy only once it is answered, and raises the
 * word again only after it has read it.  A clone that ends writes its
 * last stats into a second copy and flags it.  Nothing here prints.
 */
#ifndef IOGAUGE_STATUS_H
#define IOGAUGE_STATUS_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "run/run.h"
#include "stats/snapshot.h"

/* One clone's side. */
struct status_slot {
	_Atomic uint32_t answered; /* the request its live copy answers */
	atomic_int running;	   /* 1: in its I/O loop, answering */
	uint64_t began;		   /* CLOCK_MONOTONIC ns: its job's time began (status_begin) */
	uint64_t finished;	   /* ... and ended (with fin) */
	atomic_int ended;	   /* 1: fin holds its last stats */
	const char *engine;	   /* its engine's name (static), depth and start, */
	unsigned depth;		   /* ... written with each copy */
	uint64_t t_start;	   /* ns */
	struct stats_snap live, fin;
};

/* The shared mapping: the request word and a slot per clone. */
struct status_area {
	_Atomic uint32_t req;
	unsigned n;
	size_t len; /* of the mapping */
	struct status_slot slot[];
};

/* A mapping for @n clones (untouched pages cost nothing), or NULL when
 * it cannot be made. */
struct status_area *status_area_new(unsigned n);
void status_area_free(struct status_area *a);

/* The worker's side: whether the run's process asks for a copy (one
 * relaxed load), and the copy (@fin: the clone's last, as it ends). */
static inline bool status_asked(const struct status_area *a, uint32_t seen)
{
	return atomic_load_explicit(&a->req, memory_order_relaxed) != seen;
}
/* The clone's job time begins (before its loop's clock is read): the
 * intervals count from the first clone's. */
void status_begin(struct status_area *a, unsigned i);
/* Copies @st (with the engine's @name, @depth and the I/O's start
 * @t_start) into the clone's slot @i, and answers the request; returns
 * the request answered, the worker's new "seen".  Called once as the
 * loop starts (the clone is then awaited), at each request, and with
 * @fin as the clone ends. */
uint32_t status_answer(struct status_area *a, unsigned i, const struct run_stats *st,
		       const char *name, unsigned depth, uint64_t t_start, bool fin);

/* The thread. */
struct status_reporter {
	const struct run_watch *watch;
	struct status_area *area;
	const struct run *run;	/* results' job, clone, group, disks "before" */
	uint64_t next;		/* CLOCK_MONOTONIC ns: the next report due; 0: none (yet) */
	struct run_stats *last; /* per clone: the latest copy read */
	struct run snap;	/* what the report function sees */
	pthread_t tid;
	sem_t own; /* woken when watch->report_now is NULL */
	sem_t *wake;
	atomic_bool quit;
};

/* Starts the thread when @watch asks for reports (a report function);
 * @run's results must have their job, clone and group, its disks their
 * "before".  The intervals count from when the first clone starts its
 * I/O.  True when it runs: status_stop is owed. */
bool status_start(struct status_reporter *sr, const struct run_watch *watch,
		  struct status_area *area, const struct run *run);
/* The jobs have ended: a periodic report due before now is still made,
 * then the thread ends. */
void status_stop(struct status_reporter *sr);

/* fio's dump file: fio-dump-status in $TMPDIR (or $TEMP, or /tmp), whose
 * appearance asks for a report.  Owned by the caller. */
char *status_dump_path(void);

/* CLOCK_MONOTONIC in ns (the status thread's clock, whatever clocksource
 * the jobs read). */
uint64_t status_clock(void);

#endif
