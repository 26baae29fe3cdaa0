/* SPDX-License-Identifier: MIT */
/*
 * What the MPI files share: the world's state, the lock every MPI call
 * is made under (the gate runs in the main thread, the watcher in its
 * own), the message tags, and waits that end at a deadline or an abort.
 * Every wait polls: a blocking MPI call could not be given up.
 */
#ifndef IOGAUGE_MPI_COMM_H
#define IOGAUGE_MPI_COMM_H

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Point-to-point tags; between two ranks MPI keeps each sender's order. */
enum mpi_tag {
	TAG_READY = 1, /* rank -> 0: at gate N */
	TAG_GO,	       /* 0 -> rank: start batch N */
	TAG_ABORT,     /* 0 -> rank: stop the run */
	TAG_FAIL,      /* rank -> 0: my run cannot go on (its rank, MPI_FAIL_* bits) */
	TAG_RESULT,    /* rank -> 0: gather.c's bytes */
	TAG_FINAL,     /* 0 -> rank: everything received */
	TAG_PING,      /* 0 -> rank: clock.c's, rank 0's wall clock */
	TAG_PONG,      /* rank -> 0: the rank's wall clock */
	TAG_ZERO,      /* 0 -> rank, before TAG_GO: the batch's zero on the rank's clock */
	TAG_BEAT,      /* rank -> 0: beat.c's, alive */
};

#define FAIL_STOPPED 0x10000 /* with the rank: stopped by a signal, not failed */
#define FAIL_DONE    0x20000 /* with the rank: done first (--rank-stonewall) */

struct mpi_world {
	bool on; /* started by mpirun with more than one rank */
	int rank, size;
	pthread_mutex_t lock;
	atomic_int *stop;    /* the run's, while it lasts */
	atomic_bool aborted; /* rank 0 told every rank to stop (or this rank was told) */
	bool ran;	     /* mpi_agree let the run go */
	uint64_t timeout_ns; /* IOGAUGE_MPI_TIMEOUT */
	bool must_abort;     /* a rank did not answer: MPI_Finalize would wait for it */
	int64_t start_real;  /* CLOCK_REALTIME ns when this rank passed its first gate; 0: not */
	int64_t end_real;    /* ... when its run ended */
	bool rank_stonewall; /* --rank-stonewall */
	atomic_bool stonewalled; /* rank 0: a rank done first stopped the rest */
	atomic_bool stop_ours;	 /* the run's stop was stored by the abort, not a signal */
};

extern struct mpi_world mpi_world;

/* CLOCK_MONOTONIC ns. */
uint64_t mpi_now(void);
/* Sends one int to @dst under the lock.  0, or an MPI error code. */
int mpi_send_int(int dst, int tag, int v);
/* Sends 0 to @dst with @tag, not waited for: to a rank that may be dead,
 * where a blocking send over TCP never returns. */
void mpi_post_zero(int dst, int tag);
/* Waits for a message from @src with @tag (MPI_ANY_SOURCE, MPI_ANY_TAG
 * allowed) until mpi_now() reaches @deadline, or *@give_up turns true
 * (may be NULL), looking every @nap_ns.  1 with *st filled, 0 when it
 * gave up or timed out, -1 on an MPI error. */
int mpi_wait_msg(int src, int tag, MPI_Status *st, uint64_t deadline, const atomic_bool *give_up,
		 uint64_t nap_ns);

/* How often a wait looks: at a gate (the ranks' start spread), for a
 * clock's ping (its error), and when nothing is in a hurry (64 ranks on
 * two CPUs would otherwise take them from rank 0 as it adds). */
#define NAP_GATE 200000ull
#define NAP_PING 20000ull
#define NAP_IDLE 5000000ull
/* Receives the int message *st announced. */
int mpi_recv_int(const MPI_Status *st, int *v);
/* Rank 0: rank @r's host name as mpi_agree gathered it, or "?". */
const char *mpi_host_of(int r);
/* Rank 0: rank @r runs on rank 0's host and its process has ended. */
bool mpi_rank_gone(int r);
/* Rank 0: every rank told to stop, and this one stopped (once). */
void mpi_abort_all(void);

/*
 * beat.c, the heartbeat.  mpi_beat_limit: IOGAUGE_MPI_HEARTBEAT's @text
 * (NULL: the default) read; 0, or -EINVAL with *cause.  mpi_beat_start
 * (with the run) and mpi_beat_stop (at the end) start and end the beat
 * thread.  mpi_beat_drain_locked (under the lock) takes in every beat
 * waiting; mpi_beat_seen records one; mpi_beat_lost: rank @r's beats have
 * stopped for the limit (never before mpi_beat_start, never this rank).
 * mpi_wait_alive waits as mpi_wait_msg does, but with no deadline: it
 * gives up (0) when *@give_up turns true, or when a rank @awaited marks
 * (NULL: rank 0) stops beating.
 */
int mpi_beat_limit(const char *text, char **cause);
double mpi_beat_limit_s(void);
void mpi_beat_start(void);
void mpi_beat_stop(void);
void mpi_beat_drain_locked(void);
void mpi_beat_seen(int src);
bool mpi_beat_lost(int r);
/* Rank 0: rank @r beat within the last three periods. */
bool mpi_beat_fresh(int r);
/* Rank 0: rank @r given up (lost, gone): no more beats, abort or final
 * word sent to it; whether it was. */
void mpi_beat_drop(int r);
bool mpi_beat_dropped(int r);
int mpi_wait_alive(int src, int tag, MPI_Status *st, const bool *awaited,
		   const atomic_bool *give_up, uint64_t nap_ns);

/* gate.c's watcher thread ended (gather.c, before the results go). */
void mpi_watch_end(void);

/* clock.c: CLOCK_REALTIME in ns; each rank's offset from rank 0 measured
 * (every rank calls it, before the run); rank @r's offset and round trip
 * (rank 0; 0 when not measured); the figures let go. */
int64_t mpi_realtime(void);
void mpi_clock_measure(void);
void mpi_clock_of(int r, int64_t *offset, uint64_t *rtt);
void mpi_clock_free(void);

/* zero.c: this rank's wall clock minus its run clock (ns); rank 0's
 * batch zero (its wall clock) sent to rank @r on @r's clock, before its
 * go (0, or an MPI error); the zero put in @watch as a run-clock moment
 * (mpi_zero_set: rank 0's own; mpi_zero_take: a rank's, received, or 0);
 * the wall clock when @run's last clone's I/O ended (now, if none ran). */
struct run;
struct run_watch;
int64_t mpi_run_clock_delta(void);
int mpi_zero_send(int r, int64_t zero_real);
void mpi_zero_set(struct run_watch *watch, int64_t zero_real);
void mpi_zero_take(struct run_watch *watch);
int64_t mpi_io_end_real(const struct run *run);

/* logs.c: a clone's logs (and its start on the wall clock) after its
 * stats in a rank's result (0, or -errno); read back by rank 0, its start
 * put on rank 0's run clock through the rank's clock @offset (0, or
 * -errno).  logmerge.h merges them. */
struct run_result;
int mpi_logs_put(int fd, const struct run_result *r);
int mpi_logs_get(int fd, struct run_result *r, int64_t offset);

/* gather.c's copy of every rank's results let go (mpi_finish). */
void mpi_gathered_free(void);

/* Standard error held (capture.c): rank > 0 from mpi_start on. */
void mpi_capture_start(void);
/* Held text written out, each line after "rank N (HOST): ", or dropped. */
void mpi_capture_end(bool replay);

#endif
