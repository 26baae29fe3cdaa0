/* SPDX-License-Identifier: MIT */
/*
 * Each rank's wall clock against rank 0's, measured before the run: rank
 * 0 pings each rank a few times and keeps the exchange with the shortest
 * round trip, taking the rank's reading as made halfway through it (the
 * error is at most half that round trip).  The report then tells how far
 * apart the ranks' clocks are and how together they started.
 */
#include <stdlib.h>
#include <time.h>

#include "mpi/comm.h"
#include "util/util.h"

#define PINGS 8

static int64_t *offsets; /* rank 0: per rank, ns */
static uint64_t *rtts;	 /* rank 0: per rank, ns; 0 when not measured */

int64_t mpi_realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int recv_i64(const MPI_Status *st, int64_t *v)
{
	int rc;

	pthread_mutex_lock(&mpi_world.lock);
	rc = MPI_Recv(v, 1, MPI_INT64_T, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD,
		      MPI_STATUS_IGNORE);
	pthread_mutex_unlock(&mpi_world.lock);
	return rc;
}

static int send_i64(int dst, int tag, int64_t v)
{
	int rc;

	pthread_mutex_lock(&mpi_world.lock);
	rc = MPI_Send(&v, 1, MPI_INT64_T, dst, tag, MPI_COMM_WORLD);
	pthread_mutex_unlock(&mpi_world.lock);
	return rc;
}

/* Rank 0: rank @r's offset and best round trip. */
static void measure(int r, uint64_t deadline)
{
	int64_t t0, t1, t2;
	MPI_Status st;
	int i;

	for (i = 0; i < PINGS; i++) {
		t0 = mpi_realtime();
		if (send_i64(r, TAG_PING, t0) != MPI_SUCCESS ||
		    mpi_wait_msg(r, TAG_PONG, &st, deadline, NULL, NAP_PING) != 1 ||
		    recv_i64(&st, &t1) != MPI_SUCCESS)
			return;
		t2 = mpi_realtime();
		if (!rtts[r] || (uint64_t)(t2 - t0) < rtts[r]) {
			rtts[r] = (uint64_t)(t2 - t0) ? (uint64_t)(t2 - t0) : 1;
			offsets[r] = t1 - (t0 + (t2 - t0) / 2);
		}
	}
}

void mpi_clock_measure(void)
{
	uint64_t deadline = mpi_now() + mpi_world.timeout_ns;
	MPI_Status st;
	int64_t v;
	int r, i;

	if (mpi_world.rank == 0) {
		offsets = xcalloc((size_t)mpi_world.size, sizeof(*offsets));
		rtts = xcalloc((size_t)mpi_world.size, sizeof(*rtts));
		for (r = 1; r < mpi_world.size; r++)
			measure(r, deadline);
		return;
	}
	for (i = 0; i < PINGS; i++)
		if (mpi_wait_msg(0, TAG_PING, &st, deadline, NULL, NAP_PING) != 1 ||
		    recv_i64(&st, &v) != MPI_SUCCESS ||
		    send_i64(0, TAG_PONG, mpi_realtime()) != MPI_SUCCESS)
			return;
}

void mpi_clock_of(int r, int64_t *offset, uint64_t *rtt)
{
	*offset = offsets ? offsets[r] : 0;
	*rtt = rtts ? rtts[r] : 0;
}

void mpi_clock_free(void)
{
	free(offsets);
	free(rtts);
	offsets = NULL;
	rtts = NULL;
}
