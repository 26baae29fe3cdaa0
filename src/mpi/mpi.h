/* SPDX-License-Identifier: MIT */
/*
 * Scale-out over MPI (issue 25): the ranks of one run, the gate every rank
 * starts each stonewall group at, and the reduction of every rank's
 * results to rank 0, which reports them.  The rest of iogauge calls only
 * these.  Two implementations: with MPI (comm.c, gate.c, gather.c,
 * capture.c), or without it (single.c: one rank, nothing to wait for).
 * The MPI build started without mpirun is one rank too, MPI left
 * uninitialised.  Nothing here prints but the replay of a rank's own
 * messages (capture.c); the hot path never calls in.
 */
#ifndef IOGAUGE_MPI_H
#define IOGAUGE_MPI_H

#include <stdatomic.h>
#include <stdbool.h>

struct run;
struct run_watch;

/*
 * Joins the MPI job when mpirun (or srun) started this process.  A rank
 * other than 0 then writes nothing on standard output and holds its
 * standard error until mpi_finish (rank 0 prints; a rank's own refusal
 * is replayed once, named).  0, or -errno with *cause.
 */
int mpi_start(int *argc, char ***argv, char **cause);
unsigned mpi_rank(void);
unsigned mpi_size(void);
/* This rank's host name (MPI's processor name, or gethostname). */
const char *mpi_host(void);

/*
 * Before any I/O: every rank's @status (0 ready, else the exit status it
 * would end with).  The worst of them, so that no rank runs unless all
 * can; a rank that never calls it (it ended before) counts as refusing.
 */
int mpi_agree(int status);

/*
 * The run's hooks: mpi_run_begin sets @watch's gate (every rank starts
 * each stonewall group together) and watches for a rank that fails or is
 * stopped, which stores SIGTERM in *@stop on every rank; with
 * @rank_stonewall (--rank-stonewall) a rank that finishes its jobs stops
 * the others too, as IOR's stonewall, and that is no interruption.  mpi_run_end,
 * after run_jobs returned @ret: every rank's results sent to rank 0,
 * which sums them into @run (each clone's counters and histograms, as
 * numjobs clones add) and keeps each rank's in run->ranks (@per_rank:
 * their rows in the report).  Returns @ret; *@failed (rank 0; free it)
 * names each rank that failed with its host and cause, one a line, or
 * is NULL.
 */
void mpi_run_begin(atomic_int *stop, struct run_watch *watch, bool rank_stonewall);
int mpi_run_end(int ret, const char *cause, struct run *run, bool per_rank, char **failed);

/* The end, with this rank's exit @status: the one to exit with. */
int mpi_finish(int status);

#endif
