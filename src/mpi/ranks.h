/* SPDX-License-Identifier: MIT */
/*
 * Each rank's results as rank 0 gathered them: plain data for the
 * reporters (the per-host and per-rank tables, JSON's client_stats).
 * No MPI here.
 */
#ifndef IOGAUGE_RANKS_H
#define IOGAUGE_RANKS_H

#include <stdbool.h>
#include <stdint.h>

struct run_result;

struct rank_run {
	unsigned rank;
	char *host;
	/* Its clones, in rank 0's order and with rank 0's job pointers; no
	 * logs.  NULL (nr 0) for a rank whose run could not start. */
	struct run_result *results;
	unsigned nr;
	uint64_t duration; /* ns, its run's */
	char *error;	   /* why its run could not start, or NULL */
	/* ns: its wall clock (CLOCK_REALTIME) minus rank 0's, measured by
	 * the ping with the shortest round trip (rtt_ns) before the run. */
	int64_t clock_offset_ns;
	uint64_t rtt_ns;
	/* ns: when it passed the first gate, on rank 0's clock, minus when
	 * rank 0 did: how together the ranks started; 0 if it did not. */
	int64_t start_skew_ns;
	/* ns: when its run ended, on rank 0's clock, after rank 0's start;
	 * -1: not known (it did not start). */
	int64_t done_ns;
	bool stopped; /* its run was stopped (a signal, a failed rank, --rank-stonewall) */
};

struct run_ranks {
	struct rank_run *v; /* by rank */
	unsigned n;
	unsigned hosts;	     /* distinct host names */
	bool per_rank;	     /* --per-rank: a row per rank too */
	uint64_t wait_ns;    /* rank 0's wait for the last rank's results */
	uint64_t sum_ns;     /* rank 0's time receiving, reading and adding them */
	uint64_t add_ns;     /* of it, reading and adding: no MPI, no wait */
	bool rank_stonewall; /* --rank-stonewall was given */
	bool stonewalled;    /* ... and a rank done first stopped the others */
};

#endif
