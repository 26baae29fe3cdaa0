/* SPDX-License-Identifier: MIT */
/*
 * The ranks' heartbeat: from the run's start to the end, a thread of its
 * own on every rank but 0 sends rank 0 a beat every BEAT_PERIOD, whatever
 * the I/O is doing; rank 0's waits take them in, and a beat taken in
 * tells the rank that rank 0 is alive.  A wait gives up on a rank only when its beats stop
 * for the limit (IOGAUGE_MPI_HEARTBEAT): a rank that is merely slower is
 * waited for as long as it takes, a stopped or hung one is found in
 * seconds.  Not the I/O path: the worker loop never calls in.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "mpi/comm.h"
#include "run/forkgate.h"
#include "util/util.h"

#define DEFAULT_LIMIT_S 10.0
#define BEAT_PERIOD_NS	250000000ull /* at most; a quarter of a smaller limit */

static uint64_t limit_ns, period_ns;
static _Atomic uint64_t *last; /* by rank: mpi_now() of its last beat seen */
/* By rank: given up (mpi_beat_drop): nothing more is sent to it, as a
 * send to a dead rank over TCP makes Open MPI abort the sender. */
static atomic_bool *dropped;
/* A rank other than 0: mpi_now() when its beat thread last ran. */
static _Atomic uint64_t tick;
static pthread_t beater;
static atomic_bool beating;
/* The beat thread's nap, cut short by mpi_beat_stop. */
static pthread_mutex_t nap_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nap_cond = PTHREAD_COND_INITIALIZER;

int mpi_beat_limit(const char *text, char **cause)
{
	char *end;
	double s = text ? strtod(text, &end) : DEFAULT_LIMIT_S;

	if (text && (end == text || *end || !isfinite(s) || s < 0.01 || s > 86400.0)) {
		*cause = xasprintf("IOGAUGE_MPI_HEARTBEAT='%s': give the seconds without a "
				   "heartbeat after which a rank counts as hung (0.01 to 86400)",
				   text);
		return -EINVAL;
	}
	limit_ns = (uint64_t)(s * 1e9);
	period_ns = limit_ns / 4 < BEAT_PERIOD_NS ? limit_ns / 4 : BEAT_PERIOD_NS;
	return 0;
}

double mpi_beat_limit_s(void)
{
	return (double)limit_ns / 1e9;
}

void mpi_beat_seen(int src)
{
	if (last && src >= 0 && src < mpi_world.size)
		atomic_store(&last[src], mpi_now());
}

void mpi_beat_drain_locked(void)
{
	MPI_Status st;
	int flag = 1, v;

	while (flag) {
		if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_BEAT, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS)
			return;
		if (!flag)
			return;
		if (MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, TAG_BEAT, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return;
		mpi_beat_seen(st.MPI_SOURCE);
	}
}

void mpi_beat_drop(int r)
{
	if (dropped && r >= 0 && r < mpi_world.size)
		atomic_store(&dropped[r], true);
}

bool mpi_beat_dropped(int r)
{
	return dropped && r >= 0 && r < mpi_world.size && atomic_load(&dropped[r]);
}

/* How long ago @then was at @now: 0 when another thread stored a later
 * beat between the two reads (the unsigned difference would wrap to
 * 2^64 and count a live rank as lost). */
static uint64_t age(uint64_t now, uint64_t then)
{
	return then > now ? 0 : now - then;
}

bool mpi_beat_fresh(int r)
{
	return last && r >= 0 && r < mpi_world.size &&
	       age(mpi_now(), atomic_load(&last[r])) <= 3 * period_ns;
}

bool mpi_beat_lost(int r)
{
	uint64_t now = mpi_now();

	if (!last || r < 0 || r >= mpi_world.size || r == mpi_world.rank)
		return false;
	/* A rank's view of rank 0: only while its own beat thread runs on
	 * time, so that a rank that was itself stopped (SIGSTOP, then
	 * SIGCONT) does not take its own pause for rank 0's and abort the
	 * job a second time (two aborts at once crashed mpirun). */
	if (r == 0 && age(now, atomic_load(&tick)) > 3 * period_ns)
		return false;
	return age(now, atomic_load(&last[r])) > limit_ns;
}

/*
 * A rank's beat to rank 0 is a synchronous send (MPI_Issend), one at a
 * time: it completes when rank 0 has taken it in, and that is the rank's
 * sign that rank 0 is alive.  Rank 0 sends none: over TCP, a send to a
 * rank that has died wedges Open MPI (it retries the connection and
 * waits on mpirun to print why), so rank 0 sends only what it must.
 */
static void beat_to_root(MPI_Request *req, bool *pending)
{
	static const int zero;
	int done = 0;

	pthread_mutex_lock(&mpi_world.lock);
	if (*pending && MPI_Test(req, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done) {
		*pending = false;
		mpi_beat_seen(0);
	}
	if (!*pending &&
	    MPI_Issend(&zero, 1, MPI_INT, 0, TAG_BEAT, MPI_COMM_WORLD, req) == MPI_SUCCESS)
		*pending = true;
	pthread_mutex_unlock(&mpi_world.lock);
}

static void *beat(void *arg)
{
	struct timespec until;
	MPI_Request req = MPI_REQUEST_NULL;
	bool pending = false;
	uint64_t ns;

	(void)arg;
	while (atomic_load(&beating)) {
		/* After a pause of this process's own (it was stopped), rank 0
		 * is given the limit again from now. */
		if (age(mpi_now(), atomic_load(&tick)) > 3 * period_ns)
			mpi_beat_seen(0);
		atomic_store(&tick, mpi_now());
		/* MPI calls may allocate: no clone is forked meanwhile (forkgate.h). */
		forkgate_hold();
		beat_to_root(&req, &pending);
		forkgate_release();
		clock_gettime(CLOCK_REALTIME, &until);
		ns = (uint64_t)until.tv_nsec + period_ns;
		until.tv_sec += (time_t)(ns / 1000000000ull);
		until.tv_nsec = (long)(ns % 1000000000ull);
		pthread_mutex_lock(&nap_lock);
		if (atomic_load(&beating))
			pthread_cond_timedwait(&nap_cond, &nap_lock, &until);
		pthread_mutex_unlock(&nap_lock);
	}
	/* The last beat, if rank 0 never took it in (it has ended): let go. */
	if (pending) {
		pthread_mutex_lock(&mpi_world.lock);
		if (MPI_Cancel(&req) == MPI_SUCCESS)
			MPI_Request_free(&req);
		pthread_mutex_unlock(&mpi_world.lock);
	}
	return NULL;
}

void mpi_beat_start(void)
{
	uint64_t now = mpi_now();
	int r;

	last = xcalloc((size_t)mpi_world.size, sizeof(*last));
	dropped = xcalloc((size_t)mpi_world.size, sizeof(*dropped));
	for (r = 0; r < mpi_world.size; r++)
		atomic_store(&last[r], now);
	if (mpi_world.rank == 0)
		return; /* it takes beats in, and sends none */
	atomic_store(&tick, now);
	atomic_store(&beating, true);
	if (forkgate_thread(&beater, beat, NULL))
		atomic_store(&beating, false);
}

void mpi_beat_stop(void)
{
	bool was;

	pthread_mutex_lock(&nap_lock);
	was = atomic_exchange(&beating, false);
	pthread_cond_signal(&nap_cond);
	pthread_mutex_unlock(&nap_lock);
	if (was)
		pthread_join(beater, NULL);
	free((void *)last);
	free((void *)dropped);
	last = NULL;
	dropped = NULL;
}

int mpi_wait_alive(int src, int tag, MPI_Status *st, const bool *awaited,
		   const atomic_bool *give_up, uint64_t nap_ns)
{
	int got, r;

	for (;;) {
		got = mpi_wait_msg(src, tag, st, mpi_now() + period_ns, give_up, nap_ns);
		if (got != 0 || (give_up && atomic_load(give_up)))
			return got;
		if (!awaited) {
			if (mpi_beat_lost(0))
				return 0;
			continue;
		}
		for (r = 0; r < mpi_world.size; r++)
			if (awaited[r] && mpi_beat_lost(r))
				return 0;
	}
}
