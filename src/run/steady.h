/* SPDX-License-Identifier: MIT */
/*
 * steadystate's sampler: a thread of the run that, every second as fio's
 * helper thread, takes each running clone's measured I/O since the last
 * second, sums it per clone (or per group with group_reporting, as fio),
 * hands it to the judgement (stats/steady.h), and halts the clones whose
 * criterion holds.  It reads the clones' published progress and writes
 * their halt flags, nothing else.
 */
#ifndef IOGAUGE_RUN_STEADY_H
#define IOGAUGE_RUN_STEADY_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "run/clone.h"
#include "run/run.h"
#include "stats/steady.h"

struct steady_clone {
	uint64_t t;	     /* ns: the last sample; 0: none yet */
	uint64_t bytes, ios; /* measured, at the last sample */
	bool ramp_over;	     /* ss_ramp (and a second) has passed */
	unsigned owner;	     /* the slot whose judgement it is part of */
};

struct steady_watch {
	struct slot *slots;
	const struct run_result *res; /* the clones' jobs and groups */
	unsigned n;
	struct ctl *ctl;
	struct steady *ss; /* per slot; dur 0: not judged there */
	struct steady_clone *cl;
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool quit;
};

/* Sets up the judgements of the @n clones' jobs (@res) in @ss (n of them, zeroed
 * by the caller): one per clone, or on the first clone of a group with
 * group_reporting.  True when a job has steadystate. */
bool steady_watch_setup(struct steady *ss, const struct run_result *res, unsigned n);
/* Starts the sampler over @ss (set up as above).  True when it runs:
 * steady_watch_stop is then owed. */
bool steady_watch_start(struct steady_watch *sw, struct slot *slots, const struct run_result *res,
			unsigned n, struct ctl *ctl, struct steady *ss);
void steady_watch_stop(struct steady_watch *sw);

#endif
