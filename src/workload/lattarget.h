/* SPDX-License-Identifier: MIT */
/*
 * latency_target, as fio's: the search for the deepest queue whose I/Os
 * meet the target.  The depth starts at 1 and doubles after each
 * latency_window in which latency_percentile of the I/Os completed within
 * the target; a failed window (or with latency_percentile=100 one I/O
 * over) halves back towards the last depth that held, and the search
 * bisects between the two.  When a window leaves the depth as it was, one
 * more window runs at it with fresh stats and the job ends (unless
 * latency_run: then it keeps searching).  Pure: the I/O loop gives it the
 * times and counts and does what it answers.
 */
#ifndef IOGAUGE_LATTARGET_H
#define IOGAUGE_LATTARGET_H

#include <stdbool.h>
#include <stdint.h>

enum lat_target_act {
	LT_NONE,
	LT_QUIESCE, /* let the I/Os in flight complete, then lat_target_cycle */
	LT_FINAL,   /* the same, and the stats start over: the last window */
	LT_DONE,    /* the job ends */
	LT_FATAL,   /* an I/O over the target at depth 1: the job fails */
};

struct lat_target {
	unsigned qd, qd_low, qd_high, stable;
	unsigned max;	    /* iodepth */
	bool end_run;	    /* the last window at the found depth is running */
	bool done;	    /* ... and has ended: nothing changes any more */
	uint64_t t_cycle;   /* ns: the window's start */
	uint64_t ios_cycle; /* I/Os completed before the window */
	uint64_t failed;    /* I/Os of the window over the target */
};

/* @iodepth: the most; @now, @ios: the clock and the I/Os completed. */
void lat_target_init(struct lat_target *lt, unsigned iodepth, uint64_t now, uint64_t ios);
/* A new window starts at @now with @ios I/Os completed. */
void lat_target_cycle(struct lat_target *lt, uint64_t now, uint64_t ios);
/* An I/O completed over the target: LT_NONE, LT_QUIESCE or LT_FATAL. */
enum lat_target_act lat_target_over(struct lat_target *lt, double percentile);
/* After the I/O loop's round: whether the window (@window ns) is over and
 * what follows; LT_NONE also when the depth changed without a quiesce.
 * LT_FATAL (a failed window at depth 1) is to be ignored, as fio does:
 * the window goes on. */
enum lat_target_act lat_target_check(struct lat_target *lt, uint64_t now, uint64_t ios,
				     uint64_t window, double percentile, bool latency_run);

#endif
