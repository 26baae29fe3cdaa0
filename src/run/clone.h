/* SPDX-License-Identifier: MIT */
/*
 * The hand-off between the run's process and its clones: the control
 * block and the slots, in memory that forked clones share with the run's
 * process; a batch of clones started behind a closed gate (threads, or
 * processes that make their engine again and hand back their stats, error
 * texts and logs), released together, and joined.  What a clone does once
 * released is the worker's.
 */
#ifndef IOGAUGE_CLONE_H
#define IOGAUGE_CLONE_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "run/worker.h"

struct status_area;

/* The run's control block, shared with the clones in processes. */
struct ctl {
	/* Robust (runlock.h): a clone's process killed holding it leaves
	 * left[] to be counted again from the slots' counted flags. */
	pthread_mutex_t lock;
	pthread_cond_t cond;	   /* a job's last clone ended, or clones were halted */
	pthread_cond_t ready_cond; /* a clone is past its set-up: the run's process waits */
	/* The gate of the current batch: 0 closed, 1 open.  A futex word,
	 * written by the run's process only; clones wait on it without the
	 * lock. */
	_Atomic uint32_t gate;
	/* The current batch, slots [from, to), and how many of its clones
	 * are past their set-up (or gone): under lock. */
	unsigned batch_from, batch_to, nready;
	/* Clones' processes about to exit, each having set its slot's
	 * ending; and (the run's process's own count) how many of those it
	 * has collected.  More of the first: there are processes to reap. */
	_Atomic unsigned ended;
	unsigned ended_collected;
	unsigned *left; /* per job: clones not yet finished */
	/* per clone: set when exitall (or exitall_on_error) ends it */
	atomic_int *halt;
	struct slot *slots;
	unsigned n;
	bool exitall; /* a job sets it: as in fio, it then holds for every job */
	/* The run's stop, copied here by the run's process for the clones in
	 * processes (their signals are the run's process's to take). */
	atomic_int stop;
	/* ns, run_now: the batch's agreed zero (run_watch.t_zero, MPI), set
	 * before its gate opens; 0: none. */
	uint64_t t_zero;
	/* Where the status reports ask the clones for their stats (run/status.h),
	 * another shared mapping; NULL without them. */
	struct status_area *status;
	size_t len; /* of the shared mapping this is the start of */
};

/* What a clone in a process hands back through its slot. */
#define PROC_TEXT 4096

/* One clone of the run: its worker and its side of the hand-off. */
struct slot {
	struct worker w;
	struct ctl *ctl;
	const struct job *jobs;
	unsigned job;
	unsigned group;	   /* reporting group */
	unsigned wait_job; /* index of wait_for's job, or ~0u */
	pthread_t tid;
	bool running;
	/* A clone in a process: its pid while it runs, the memfd its stats
	 * and logs come back through, and what it wrote into the slot
	 * (besides the worker's t0 and errnos, which it writes there). */
	pid_t pid;
	int logfd;
	bool ready, done;
	bool ending; /* the process is past everything it does: about to exit */
	/* Taken off c->left[job]: the clone ended, failed to get ready, or
	 * its process is gone.  Set before left[] is lowered, so that a
	 * process killed between the two is counted once (ctl_repair). */
	bool counted;
	char error[PROC_TEXT], first_error[PROC_TEXT];
};

/* The control block, the slots, the per-job counts and the per-clone
 * halt flags for @nr jobs of @n clones in all, in one mapping that forked
 * clones share with the run's process; zeroed, in *@out.  Aborts as xmalloc
 * does when there is no memory; 0, or -errno with *cause set when the lock
 * cannot be made. */
int clone_ctl_new(unsigned nr, unsigned n, struct ctl **out, char **cause);
void clone_ctl_free(struct ctl *c);
/* Before the first clone starts: every slot's engine and buffers, which
 * set-up made to check that all can be made at once, let go (each clone
 * makes its own again, in its thread or process), and the heap tidied,
 * so that a clone's process inherits neither. */
void clone_prepare(struct slot *slots, unsigned n);
/* Starts slots [from, to) behind a closed gate, waits until they are
 * past their set-up, passes @watch's gate (MPI's: every rank's clones
 * are ready; @watch may be NULL), then opens it.  0, or -errno with
 * *cause set (then the clones started end at once). */
int clone_start_batch(struct slot *slots, unsigned from, unsigned to, struct ctl *c,
		      const struct run_watch *watch, char **cause);
/* Waits for every clone started of the @n slots: the processes first,
 * handing each the run's stop as it comes (@stop), then the threads.
 * The processes are looked for while some have said they are ending and
 * are not collected yet, and every 100 ms for one that died without
 * saying so: not every one of them every 10 ms. */
void clone_join_all(struct slot *slots, unsigned n, struct ctl *c, atomic_int *stop);

#endif
