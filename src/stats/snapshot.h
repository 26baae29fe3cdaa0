/* SPDX-License-Identifier: MIT */
/*
 * A copy of a worker's run_stats in memory of fixed size, which a clone
 * in a process of its own can share with the run's process: the struct
 * as it is, then each histogram's buckets from its lowest to its highest
 * non-empty one.  Writing it allocates nothing; who may read it when is
 * the caller's protocol (run/status.c), not this file's.
 */
#ifndef IOGAUGE_SNAPSHOT_H
#define IOGAUGE_SNAPSHOT_H

#include <stdint.h>

#include "stats/stats.h"

#define SNAP_HISTS (STAT_NR * 5) /* slat, clat, lat, resp, lag of each direction */

struct stats_snap {
	struct run_stats st;			/* its bucket pointers mean nothing here */
	uint32_t lo[SNAP_HISTS], n[SNAP_HISTS]; /* each histogram's buckets copied */
	uint64_t bucket[SNAP_HISTS][HIST_NR];
};

/* @src copied into @dst: no allocation, no lock, about 1 KiB per
 * histogram a run records into. */
void stats_snap_put(struct stats_snap *dst, const struct run_stats *src);
/* @dst made a copy of @src, reusing the buckets @dst has (allocating
 * those it lacks); @dst is a run_stats stats_init or an earlier
 * stats_snap_get made, for stats_free. */
void stats_snap_get(struct run_stats *dst, const struct stats_snap *src);

#endif
