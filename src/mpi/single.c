/* SPDX-License-Identifier: MIT */
/*
 * mpi.h without MPI (IOGAUGE_WITH_MPI=OFF, or no MPI found): the process
 * is the one rank of its run, so there is no one to wait for or gather
 * from.  Not a stand-in: every call does what it means for one rank.
 */
#include <unistd.h>

#include "mpi/host.h"
#include "mpi/mpi.h"

int mpi_start(int *argc, char ***argv, char **cause)
{
	(void)argc;
	(void)argv;
	(void)cause;
	mpi_host_init(NULL);
	return 0;
}

unsigned mpi_rank(void)
{
	return 0;
}

unsigned mpi_size(void)
{
	return 1;
}

const char *mpi_host(void)
{
	return mpi_host_name();
}

int mpi_agree(int status)
{
	return status;
}

void mpi_run_begin(atomic_int *stop, struct run_watch *watch, bool rank_stonewall)
{
	(void)stop;
	(void)watch;
	(void)rank_stonewall;
}

int mpi_run_end(int ret, const char *cause, struct run *run, bool per_rank, char **failed)
{
	(void)cause;
	(void)run;
	(void)per_rank;
	*failed = NULL;
	return ret;
}

int mpi_finish(int status)
{
	return status;
}
