/* SPDX-License-Identifier: MIT */
/*
 * A copy of a worker's run_stats in memory of fixed size, which a clone
 * in a process of its own can share with the run's process: the struct
 * as it is, then each histogram's buckets from its lowest to its highest
 * non-empty one, packed in one pool; the per-priority histograms (prio.h)
 * too, as far as the pool holds them.  Writing it allocates nothing; who
 * may read it when is the caller's protocol (run/status.c), not this
 * file's.
 */
#ifndef IOGAUGE_SNAPSHOT_H
#define IOGAUGE_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/stats.h"

#define SNAP_HISTS (STAT_NR * 5) /* slat, clat, lat, resp, lag of each direction */
/* Every histogram's whole range, and as much again in part for the
 * priorities' (theirs are a few hundred buckets each in practice). */
#define SNAP_POOL ((SNAP_HISTS + 16) * HIST_NR)

struct snap_range {
	uint32_t at, lo, n; /* buckets [lo, lo + n) are pool[at..] */
};

struct stats_snap {
	struct run_stats st; /* its pointers mean nothing here */
	struct snap_range r[SNAP_HISTS];
	/* Per direction: its per-priority histograms, when it has them and
	 * the pool held them (a periodic report goes without otherwise). */
	bool has_prio[STAT_NR];
	struct prio_stats prio[STAT_NR]; /* bucket pointers mean nothing */
	struct snap_range prio_r[STAT_NR][PRIO_STATS_MAX];
	uint32_t used; /* of the pool */
	uint64_t pool[SNAP_POOL];
};

/* @src copied into @dst: no allocation, no lock, about 1 KiB per
 * histogram a run records into. */
void stats_snap_put(struct stats_snap *dst, const struct run_stats *src);
/* @dst made a copy of @src, reusing the buckets @dst has (allocating
 * those it lacks; its per-priority lists are made anew); @dst is a
 * run_stats stats_init or an earlier stats_snap_get made, for
 * stats_free. */
void stats_snap_get(struct run_stats *dst, const struct stats_snap *src);

#endif
