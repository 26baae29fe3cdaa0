/* SPDX-License-Identifier: MIT */
/*
 * Under mpirun: the run seen from one host (its ranks' results summed
 * clone by clone) or from one rank (its own), as a struct run each
 * reporter reads as it reads the whole, for the per-host and per-rank
 * rows of every output format.  No MPI here: rank 0's gathered results
 * (mpi/ranks.h) only.
 */
#ifndef IOGAUGE_REPORT_SCOPE_H
#define IOGAUGE_REPORT_SCOPE_H

#include "run/run.h"

struct report_scope {
	const char *host; /* the host's name (the run's own memory) */
	int rank;	  /* the rank; -1: the host's ranks together */
	unsigned ranks;	  /* ranks in it: the host's, or 1 */
	/* Its clones (rank 0's order and job pointers), duration the
	 * longest of its ranks'; no disks, logs or steadystate, which only
	 * rank 0 has.  nr 0: none of its ranks could start. */
	struct run run;
	bool owned; /* run.results is summed here: report_scopes_free frees it */
};

/* The scopes of @run (rank 0 under mpirun, run->ranks set): one per host
 * in the order of its first rank, then with --per-rank one per rank.
 * Their number (0 without ranks), the array in *@out. */
unsigned report_scopes(const struct run *run, struct report_scope **out);
void report_scopes_free(struct report_scope *v, unsigned n);
/* "NAME@HOST" or "NAME@HOST:RANK", the name terse lines carry. */
char *report_scope_name(const struct report_scope *s, const char *name);

#endif
