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
#define STATS_DEPTHS	 7  /* fio's "IO depths": 1, 2, 4, 8, 16, 32, >=64 */

/* Latencies as fio defines them (the stamps are described in engine.h). */
struct dir_stats {
	uint64_t ios;
	uint64_t bytes;
	uint64_t ms[STATS_MS_BUCKETS]; /* I/Os by whole milliseconds of total latency */
	struct hist slat;	       /* ns, built to submitted: async engines only */
	struct hist clat;	       /* ns, submitted to completed */
	struct hist lat;	       /* ns, built to completed: the total */
};

struct run_stats {
	struct dir_stats dir[STAT_NR];
	uint64_t depth[STATS_DEPTHS]; /* I/Os by I/Os in flight once each was queued */
	uint64_t elapsed;	      /* ns, measured part of the run */
	uint64_t depth_max;	      /* most I/Os in flight at once */
};

void stats_init(struct run_stats *s);
/* Records one I/O; @slat_ns is UINT64_MAX when the engine has none. */
static inline void stats_record(struct dir_stats *d, uint64_t slat_ns, uint64_t clat_ns,
				uint64_t lat_ns, uint64_t bytes)
{
	uint64_t ms = lat_ns / 1000000;

	d->ios++;
	d->bytes += bytes;
	d->ms[ms < STATS_MS_BUCKETS - 1 ? ms : STATS_MS_BUCKETS - 1]++;
	if (slat_ns != UINT64_MAX)
		hist_record(&d->slat, slat_ns);
	hist_record(&d->clat, clat_ns);
	hist_record(&d->lat, lat_ns);
}
/* fio's IO-depth bucket for @n I/Os in flight: 1, 2-3, 4-7, ..., >=64. */
static inline unsigned stats_depth_bucket(unsigned n)
{
	unsigned b = 0;

	while (n > 1 && b + 1 < STATS_DEPTHS) {
		n >>= 1;
		b++;
	}
	return b;
}
/* Adds @src's counts to @dst; elapsed becomes the longer of the two. */
void stats_merge(struct run_stats *dst, const struct run_stats *src);

#endif
