/* SPDX-License-Identifier: MIT */
/*
 * The live status: a thread of the run that, every run_watch.every ns,
 * sums the clones' published progress into a run_status and hands it to
 * the watch's function.  It reads the clones' atomics and nothing else.
 */
#ifndef IOGAUGE_WATCH_H
#define IOGAUGE_WATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "run/clone.h"
#include "run/run.h"

struct watcher {
	const struct run_watch *watch;
	struct slot *slots;
	unsigned n;
	uint64_t t_start; /* ns */
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool quit;
};

/* Starts @wt's thread over the @n @slots, the run having started at
 * @t_start (ns), when @watch asks for one (non-NULL, a function and a
 * period).  True when the thread runs: watch_stop is then owed. */
bool watch_start(struct watcher *wt, const struct run_watch *watch, struct slot *slots, unsigned n,
		 uint64_t t_start);
/* Ends the thread and waits for it. */
void watch_stop(struct watcher *wt);

#endif
