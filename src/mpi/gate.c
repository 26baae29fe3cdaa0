/* SPDX-License-Identifier: MIT */
/*
 * The run's lockstep across ranks: a barrier before each stonewall batch
 * (every rank has laid out its files; rank 0 says go to all at once), and
 * a watcher thread that carries a failure or a stop from one rank to the
 * others: a rank whose run cannot go on tells rank 0, which tells every
 * rank to stop.  Rank 0 counts the arrivals itself rather than call
 * MPI_Barrier, which could not be given up: a wait ends at the abort or
 * when a rank awaited stops beating (beat.c), never at a deadline.
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "mpi/comm.h"
#include "mpi/mpi.h"
#include "run/forkgate.h"
#include "run/run.h"
#include "util/util.h"

static pthread_t watcher;
static atomic_bool watching;
static int batch; /* gates passed */

/* Rank 0: a rank's failure or stop ends the run everywhere.  Another
 * rank: rank 0's abort, or its own stop told to rank 0. */
static void *watch_ranks(void *arg)
{
	struct timespec nap = { 0, 5000000 }; /* 5 ms */
	bool told = false;
	MPI_Status st;
	int v, got;

	(void)arg;
	while (atomic_load(&watching)) {
		/* MPI calls may allocate: no clone is forked meanwhile (forkgate.h). */
		forkgate_hold();
		if (mpi_world.rank == 0) {
			got = mpi_wait_msg(MPI_ANY_SOURCE, TAG_FAIL, &st, 0, NULL, 0);
			if (got == 1 && mpi_recv_int(&st, &v) == MPI_SUCCESS) {
				if (v & FAIL_DONE)
					atomic_store(&mpi_world.stonewalled, true);
				mpi_abort_all();
			} else if (atomic_load(mpi_world.stop)) {
				mpi_abort_all(); /* Ctrl-C on rank 0's terminal */
			} else {
				/* A rank whose heartbeat stopped: gather.c names it. */
				for (v = 1; v < mpi_world.size; v++)
					if (mpi_beat_lost(v))
						mpi_abort_all();
			}
		} else {
			got = mpi_wait_msg(0, TAG_ABORT, &st, 0, NULL, 0);
			if (got == 1 && mpi_recv_int(&st, &v) == MPI_SUCCESS) {
				atomic_store(&mpi_world.aborted, true);
				if (!atomic_load(mpi_world.stop)) {
					atomic_store(&mpi_world.stop_ours, true);
					atomic_store(mpi_world.stop, SIGTERM);
				}
			} else if (!told && atomic_load(mpi_world.stop) &&
				   !atomic_load(&mpi_world.aborted)) {
				told = true;
				mpi_send_int(0, TAG_FAIL, mpi_world.rank | FAIL_STOPPED);
			} else if (mpi_beat_lost(0) && !atomic_load(&mpi_world.aborted)) {
				/* Rank 0 stopped or hung: no one would gather. */
				atomic_store(&mpi_world.aborted, true);
				if (!atomic_load(mpi_world.stop)) {
					atomic_store(&mpi_world.stop_ours, true);
					atomic_store(mpi_world.stop, SIGTERM);
				}
			}
		}
		forkgate_release();
		if (got != 1)
			nanosleep(&nap, NULL);
	}
	return NULL;
}

/* Rank 0: every other rank at this gate, then go; an abort, or a rank
 * not there whose heartbeat stopped, ends the wait and the run. */
static void gate_root(struct run_watch *watch)
{
	bool *awaited = xcalloc((size_t)mpi_world.size, sizeof(*awaited));
	int need = mpi_world.size - 1, v, r;
	int64_t zero;
	MPI_Status st;

	for (r = 1; r < mpi_world.size; r++)
		awaited[r] = true;
	while (need > 0 && !atomic_load(&mpi_world.aborted)) {
		if (mpi_wait_alive(MPI_ANY_SOURCE, TAG_READY, &st, awaited, &mpi_world.aborted,
				   NAP_GATE) != 1)
			break;
		if (mpi_recv_int(&st, &v) == MPI_SUCCESS && awaited[st.MPI_SOURCE]) {
			awaited[st.MPI_SOURCE] = false;
			need--;
		}
	}
	free(awaited);
	if (need > 0) {
		mpi_abort_all();
		return;
	}
	/* The batch's zero (zero.c), each rank's ahead of its go. */
	zero = mpi_realtime();
	mpi_zero_set(watch, zero);
	for (r = 1; r < mpi_world.size; r++) {
		mpi_zero_send(r, zero);
		mpi_send_int(r, TAG_GO, batch);
	}
}

static void gate_rank(struct run_watch *watch)
{
	MPI_Status st;
	int v;

	if (mpi_send_int(0, TAG_READY, batch) != MPI_SUCCESS ||
	    mpi_wait_alive(0, TAG_GO, &st, NULL, &mpi_world.aborted, NAP_GATE) != 1 ||
	    mpi_recv_int(&st, &v) != MPI_SUCCESS) {
		/* No go: this rank does not start alone. */
		if (!atomic_load(mpi_world.stop))
			atomic_store(mpi_world.stop, SIGTERM);
		return;
	}
	mpi_zero_take(watch);
}

static void gate(void *arg)
{
	if (atomic_load(mpi_world.stop))
		return;
	if (mpi_world.rank == 0)
		gate_root(arg);
	else
		gate_rank(arg);
	if (!batch && !atomic_load(mpi_world.stop))
		mpi_world.start_real = mpi_realtime();
	batch++;
}

void mpi_run_begin(atomic_int *stop, struct run_watch *watch, bool rank_stonewall)
{
	if (!mpi_world.on || mpi_world.size < 2)
		return;
	mpi_world.stop = stop;
	mpi_world.rank_stonewall = rank_stonewall;
	mpi_clock_measure();
	mpi_beat_start();
	watch->gate = gate;
	watch->gate_arg = watch;
	atomic_store(&watching, true);
	if (forkgate_thread(&watcher, watch_ranks, NULL))
		atomic_store(&watching, false);
}

void mpi_watch_end(void)
{
	if (atomic_exchange(&watching, false))
		pthread_join(watcher, NULL);
}
