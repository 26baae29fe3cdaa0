/* SPDX-License-Identifier: MIT */
/*
 * The run's agreed moments across ranks: at each gate rank 0 reads its
 * wall clock (the batch's zero) and tells it to every rank, translated
 * to that rank's clock through the offset clock.c measured, so that each
 * clone's startdelay, ramp_time and runtime count from one moment on
 * every rank and the ranks end together (run_watch.t_zero).  Also each
 * rank's run clock against its wall clock, for the times it sends back.
 * Not the gate itself (gate.c) nor the offsets' measure (clock.c).
 */
#include "mpi/comm.h"
#include "run/run.h"
#include "util/runclock.h"

/* ns: this rank's wall clock minus its run clock, read together. */
int64_t mpi_run_clock_delta(void)
{
	uint64_t a = run_now();
	int64_t real = mpi_realtime();
	uint64_t b = run_now();

	return real - (int64_t)(a + (b - a) / 2);
}

/* Rank 0: the batch's zero (its wall clock, ns) to rank @r, on @r's clock. */
int mpi_zero_send(int r, int64_t zero_real)
{
	int64_t offset, v;
	uint64_t rtt;
	int rc;

	mpi_clock_of(r, &offset, &rtt);
	v = zero_real + offset;
	pthread_mutex_lock(&mpi_world.lock);
	rc = MPI_Send(&v, 1, MPI_INT64_T, r, TAG_ZERO, MPI_COMM_WORLD);
	pthread_mutex_unlock(&mpi_world.lock);
	return rc;
}

/* A rank: the zero rank 0 sent before its go (so it is here already). */
static int zero_recv(int64_t *zero_real)
{
	MPI_Status st;
	int rc;

	if (mpi_wait_msg(0, TAG_ZERO, &st, mpi_now() + 1000000000ull, &mpi_world.aborted,
			 NAP_PING) != 1)
		return -1;
	pthread_mutex_lock(&mpi_world.lock);
	rc = MPI_Recv(zero_real, 1, MPI_INT64_T, 0, TAG_ZERO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	pthread_mutex_unlock(&mpi_world.lock);
	return rc == MPI_SUCCESS ? 0 : -1;
}

void mpi_zero_set(struct run_watch *watch, int64_t zero_real)
{
	int64_t zero_run = zero_real - mpi_run_clock_delta();

	watch->t_zero = zero_run > 0 ? (uint64_t)zero_run : 1;
}

void mpi_zero_take(struct run_watch *watch)
{
	int64_t zero_real;

	/* Without it (an abort on the way), each clone counts from its start. */
	if (zero_recv(&zero_real))
		watch->t_zero = 0;
	else
		mpi_zero_set(watch, zero_real);
}

int64_t mpi_io_end_real(const struct run *run)
{
	uint64_t end = 0;
	unsigned i;

	for (i = 0; i < run->nr; i++)
		if (run->results[i].t_end > end)
			end = run->results[i].t_end;
	return end ? (int64_t)end + mpi_run_clock_delta() : mpi_realtime();
}
