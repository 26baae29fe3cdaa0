/* SPDX-License-Identifier: MIT */
/*
 * The interval logs on their way to rank 0 (issue 25): each rank sends
 * its clones' write_*_log entries after their stats in its result, with
 * the wall-clock moment each clone's log time 0 was; rank 0 puts that
 * moment on its own run clock through the rank's measured offset, for
 * logmerge.c to merge.  No MPI calls here: gather.c sends the bytes.
 */
#include <errno.h>
#include <stdlib.h>

#include "mpi/comm.h"
#include "run/run.h"
#include "util/util.h"

int mpi_logs_put(int fd, const struct run_result *r)
{
	/* The stats windows always (a few a second); the entries when asked. */
	uint64_t has = r->logs != NULL;
	int64_t t0 = r->t_start ? (int64_t)r->t_start + mpi_run_clock_delta() : 0;
	int ret = util_write_all(fd, &has, sizeof(has));

	if (!ret && has)
		ret = util_write_all(fd, &t0, sizeof(t0));
	if (!ret && has)
		ret = run_logs_save(r->logs, fd);
	return ret;
}

int mpi_logs_get(int fd, struct run_result *r, int64_t offset)
{
	uint64_t has;
	int64_t t0, own;
	int ret = util_read_all(fd, &has, sizeof(has));

	r->logs = NULL;
	r->t_start = 0;
	if (ret || !has)
		return ret;
	ret = util_read_all(fd, &t0, sizeof(t0));
	if (ret)
		return ret;
	r->logs = run_logs_load(fd);
	if (!r->logs)
		return -errno;
	/* Its wall clock, less its offset, is rank 0's; then its run clock. */
	own = t0 - offset - mpi_run_clock_delta();
	r->t_start = t0 && own > 0 ? (uint64_t)own : 0;
	return 0;
}
