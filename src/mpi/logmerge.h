/* SPDX-License-Identifier: MIT */
/*
 * The ranks' write_*_log entries merged on rank 0 (logmerge.c), in every
 * build: it needs no MPI, only each rank's results (ranks.h).
 */
#ifndef IOGAUGE_MPI_LOGMERGE_H
#define IOGAUGE_MPI_LOGMERGE_H

#include <stdbool.h>

struct job;
struct run;
struct rank_run;

/* Whether @job keeps a write_*_log whose entries go to rank 0. */
bool mpi_logs_wanted(const struct job *job);

/*
 * Each clone of @run (rank 0's) gets every rank's entries: @ranks[q]'s
 * clone i (q from 1; @n ranks) with its t_start on @run's clock.  Rank
 * 0's own logs are moved to @ranks[0]'s clone (or freed without one).
 */
void mpi_logs_merge(struct run *run, struct rank_run *ranks, unsigned n);

#endif
