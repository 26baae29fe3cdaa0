/* SPDX-License-Identifier: MIT */
/*
 * mpi.h with MPI: joining the job (only when mpirun or srun started the
 * process), the ranks' names, the agreement before any I/O, the end, and
 * the small waits gate.c and gather.c are built from.  Errors return
 * (MPI_ERRORS_RETURN): a failed call is a message, never an abort.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/comm.h"
#include "mpi/host.h"
#include "mpi/mpi.h"
#include "util/util.h"

#define DEFAULT_TIMEOUT_S 300

struct mpi_world mpi_world = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* What mpi_agree or mpi_finish learnt: was rank 0 refusing too? */
static int rank0_status;
static int own_status;
static bool agreed;
/* Rank 0: every rank's host name, gathered once the run is agreed, so
 * that a rank that never sends its result is still named with its host. */
#define HOST_LEN 256
static char (*hosts)[HOST_LEN];
/* ... and every rank's process id, to tell a rank on rank 0's host that
 * is gone (killed) from one that is only late. */
static int *pids;

uint64_t mpi_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A launcher's variables: Open MPI's mpirun, PMIx (srun --mpi=pmix), PMI. */
static bool launched(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

int mpi_start(int *argc, char ***argv, char **cause)
{
	char name[MPI_MAX_PROCESSOR_NAME + 1] = "";
	const char *t = getenv("IOGAUGE_MPI_TIMEOUT");
	int provided = 0, len = 0, null;

	mpi_world.timeout_ns = DEFAULT_TIMEOUT_S * 1000000000ull;
	if (t && atoi(t) > 0)
		mpi_world.timeout_ns = (uint64_t)atoi(t) * 1000000000ull;
	if (!launched()) {
		mpi_host_init(NULL);
		return 0;
	}
	if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
		*cause = xasprintf("MPI_Init_thread failed");
		return -EIO;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &mpi_world.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &mpi_world.size);
	if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS)
		name[0] = '\0';
	mpi_host_init(name);
	mpi_world.on = true;
	if (provided < MPI_THREAD_SERIALIZED) {
		*cause = xasprintf("this MPI library gives thread level %d; iogauge needs "
				   "MPI_THREAD_SERIALIZED or more",
				   provided);
		return -ENOTSUP;
	}
	/* Rank 0 alone prints reports and the help; the others hold their
	 * messages (capture.c). */
	if (mpi_world.rank > 0 && mpi_world.size > 1) {
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			fflush(stdout);
			dup2(null, STDOUT_FILENO);
			close(null);
		}
		mpi_capture_start();
	}
	/* After the capture: a bad value is told by rank 0 alone. */
	if (mpi_beat_limit(getenv("IOGAUGE_MPI_HEARTBEAT"), cause))
		return -EINVAL;
	return 0;
}

unsigned mpi_rank(void)
{
	return (unsigned)mpi_world.rank;
}

unsigned mpi_size(void)
{
	return mpi_world.on ? (unsigned)mpi_world.size : 1;
}

const char *mpi_host(void)
{
	return mpi_host_name();
}

/* The phases a rank can be in when it meets the others' allreduce: about
 * to run, or at its end (it refused, or had nothing to run). */
enum { PHASE_RUN = 1, PHASE_EXIT = 2 };

/* Every rank's {status, phase, rank 0's status}: the worst of each. */
static int reduce(int status, int phase, int out[3])
{
	int in[3] = { status, phase, mpi_world.rank == 0 ? status : 0 };
	int rc;

	pthread_mutex_lock(&mpi_world.lock);
	rc = MPI_Allreduce(in, out, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	pthread_mutex_unlock(&mpi_world.lock);
	agreed = true;
	own_status = status;
	rank0_status = rc == MPI_SUCCESS ? out[2] : 0;
	return rc;
}

int mpi_agree(int status)
{
	int out[3];

	if (!mpi_world.on)
		return status;
	if (reduce(status, PHASE_RUN, out) != MPI_SUCCESS)
		return status ? status : 1;
	/* A rank already at its end ran nothing: nor does any other. */
	if (!out[0] && out[1] == PHASE_EXIT)
		out[0] = 2;
	mpi_world.ran = !out[0];
	if (mpi_world.ran) {
		char own[HOST_LEN] = "";

		strncpy(own, mpi_host(), HOST_LEN - 1);
		int pid = (int)getpid();

		if (mpi_world.rank == 0) {
			hosts = xcalloc((size_t)mpi_world.size, sizeof(*hosts));
			pids = xcalloc((size_t)mpi_world.size, sizeof(*pids));
		}
		pthread_mutex_lock(&mpi_world.lock);
		if (MPI_Gather(own, HOST_LEN, MPI_CHAR, hosts, HOST_LEN, MPI_CHAR, 0,
			       MPI_COMM_WORLD) != MPI_SUCCESS &&
		    hosts)
			memset(hosts, 0, (size_t)mpi_world.size * sizeof(*hosts));
		if (MPI_Gather(&pid, 1, MPI_INT, pids, 1, MPI_INT, 0, MPI_COMM_WORLD) !=
			    MPI_SUCCESS &&
		    pids)
			memset(pids, 0, (size_t)mpi_world.size * sizeof(*pids));
		pthread_mutex_unlock(&mpi_world.lock);
	}
	return out[0];
}

const char *mpi_host_of(int r)
{
	return hosts && r >= 0 && r < mpi_world.size && hosts[r][0] ? hosts[r] : "?";
}

bool mpi_rank_gone(int r)
{
	char path[64], buf[512], *p;
	FILE *f;
	bool zombie = false;

	if (!pids || r <= 0 || r >= mpi_world.size || pids[r] <= 0 ||
	    strcmp(mpi_host_of(r), mpi_host()))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", pids[r]);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT;
	/* Dead but not reaped yet: state Z, after the name's closing ')'. */
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[1] == ' ')
		zombie = p[2] == 'Z';
	fclose(f);
	return zombie;
}

int mpi_finish(int status)
{
	int out[3];

	if (!mpi_world.on)
		return status;
	if (!agreed && reduce(status, PHASE_EXIT, out) == MPI_SUCCESS && !status)
		status = out[0]; /* rank 0 tells the others' refusal too */
	/* A run that ran sent its failures to rank 0 (gather.c); before it,
	 * a refusal is told here only when rank 0 did not tell its own. */
	if (mpi_world.rank > 0 && mpi_world.size > 1) {
		/* Rank 0 stopped or hung: no one would tell it; rank 1 does. */
		bool root_lost = mpi_world.rank == 1 && mpi_world.must_abort && mpi_beat_lost(0);

		if (root_lost)
			fprintf(stderr,
				"rank 0 took in no heartbeat for %g s (IOGAUGE_MPI_HEARTBEAT): "
				"stopped or hung; the job is aborted\n",
				mpi_beat_limit_s());
		mpi_capture_end(root_lost || (!mpi_world.ran && own_status && !rank0_status));
	}
	mpi_beat_stop();
	mpi_gathered_free();
	free(hosts);
	hosts = NULL;
	free(pids);
	pids = NULL;
	if (mpi_world.must_abort) {
		fflush(stdout);
		fflush(stderr);
		MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
	}
	MPI_Finalize();
	/* Rank 0's status is the run's (it gathered every rank's failures):
	 * another rank's non-zero one would make mpirun kill rank 0 as it
	 * reports, and print its own lines about it. */
	return mpi_world.rank > 0 && mpi_world.size > 1 ? 0 : status;
}

int mpi_send_int(int dst, int tag, int v)
{
	int rc;

	pthread_mutex_lock(&mpi_world.lock);
	rc = MPI_Send(&v, 1, MPI_INT, dst, tag, MPI_COMM_WORLD);
	pthread_mutex_unlock(&mpi_world.lock);
	return rc;
}

void mpi_post_zero(int dst, int tag)
{
	static const int zero;
	MPI_Request req;

	pthread_mutex_lock(&mpi_world.lock);
	if (MPI_Isend(&zero, 1, MPI_INT, dst, tag, MPI_COMM_WORLD, &req) == MPI_SUCCESS)
		MPI_Request_free(&req);
	pthread_mutex_unlock(&mpi_world.lock);
}

int mpi_wait_msg(int src, int tag, MPI_Status *st, uint64_t deadline, const atomic_bool *give_up,
		 uint64_t nap_ns)
{
	struct timespec nap = { (time_t)(nap_ns / 1000000000ull), (long)(nap_ns % 1000000000ull) };
	int flag = 0, rc;

	for (;;) {
		pthread_mutex_lock(&mpi_world.lock);
		/* Beats come at any time: taken in (and counted) as each wait
		 * looks, and never returned to a wait for any tag. */
		if (tag != TAG_BEAT)
			mpi_beat_drain_locked();
		rc = MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, st);
		if (rc == MPI_SUCCESS && flag && tag == MPI_ANY_TAG && st->MPI_TAG == TAG_BEAT) {
			mpi_beat_drain_locked();
			flag = 0;
		}
		pthread_mutex_unlock(&mpi_world.lock);
		if (rc != MPI_SUCCESS)
			return -1;
		if (flag)
			return 1;
		if ((give_up && atomic_load(give_up)) || mpi_now() >= deadline)
			return 0;
		nanosleep(&nap, NULL);
	}
}

int mpi_recv_int(const MPI_Status *st, int *v)
{
	int rc;

	pthread_mutex_lock(&mpi_world.lock);
	rc = MPI_Recv(v, 1, MPI_INT, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD,
		      MPI_STATUS_IGNORE);
	pthread_mutex_unlock(&mpi_world.lock);
	if (rc == MPI_SUCCESS && st->MPI_TAG == TAG_BEAT)
		mpi_beat_seen(st->MPI_SOURCE);
	return rc;
}

void mpi_abort_all(void)
{
	bool outside;
	int r;

	if (atomic_exchange(&mpi_world.aborted, true))
		return;
	/* A stop signal from outside: mpirun's, as it ends the job when a
	 * rank died, or a user's.  A rank whose beats are not fresh may be
	 * the dead one: nothing is sent to it (mpirun signals it anyway). */
	outside =
		mpi_world.stop && atomic_load(mpi_world.stop) && !atomic_load(&mpi_world.stop_ours);
	if (mpi_world.stop && !atomic_load(mpi_world.stop)) {
		atomic_store(&mpi_world.stop_ours, true);
		atomic_store(mpi_world.stop, SIGTERM);
	}
	for (r = 1; r < mpi_world.size; r++)
		if (!mpi_beat_dropped(r) && !mpi_beat_lost(r) && (!outside || mpi_beat_fresh(r)))
			mpi_post_zero(r, TAG_ABORT);
}
