/* SPDX-License-Identifier: MIT */
/*
 * What one worker measured, per direction: I/O and byte counts, errors,
 * the latency histogram and SQLIO's 1 ms buckets.  Kept per thread with no
 * locks and merged after the run.  No I/O, no printing.
 */
#ifndef IOGAUGE_STATS_H
#define IOGAUGE_STATS_H

#include <stdint.h>

#include "iogauge/hist.h"

enum stat_dir { STAT_READ, STAT_WRITE, STAT_SYNC, STAT_NR };

#define STATS_MS_BUCKETS 25 /* SQLIO: 0..23 ms, then 24+ */

struct dir_stats {
	uint64_t ios;
	uint64_t bytes;
	uint64_t ms[STATS_MS_BUCKETS]; /* I/Os by whole milliseconds of latency */
	struct hist lat;	       /* ns, issue to completion */
};

struct run_stats {
	struct dir_stats dir[STAT_NR];
	uint64_t elapsed;   /* ns, measured part of the run */
	uint64_t depth_max; /* most I/Os in flight at once */
};

void stats_init(struct run_stats *s);
static inline void stats_record(struct dir_stats *d, uint64_t lat_ns, uint64_t bytes)
{
	uint64_t ms = lat_ns / 1000000;

	d->ios++;
	d->bytes += bytes;
	d->ms[ms < STATS_MS_BUCKETS - 1 ? ms : STATS_MS_BUCKETS - 1]++;
	hist_record(&d->lat, lat_ns);
}
/* Adds @src's counts to @dst; elapsed becomes the longer of the two. */
void stats_merge(struct run_stats *dst, const struct run_stats *src);

#endif
