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
};

struct run_ranks {
	struct rank_run *v; /* by rank */
	unsigned n;
	unsigned hosts; /* distinct host names */
	bool per_rank;	/* --per-rank: a row per rank too */
};

#endif
