/* SPDX-License-Identifier: MIT */
/*
 * ftruncate: no bytes move; each write sets the file's size to its offset
 * with ftruncate(2), as fio's ftruncate engine (so a sequential write job
 * grows the file a block at a time, leaving it sparse).  A write counts as
 * a write of its length; only writes are taken (check refuses the rest).
 */
#include <errno.h>
#include <unistd.h>

#include "engines/engine.h"
#include "engines/fileop.h"
#include "jobfile/options.h"
#include "util/util.h"

static int ftruncate_check(const struct job *job, const void *opts, const struct opt_def **blame,
			   char **cause)
{
	(void)opts;
	if (fileop_refuse_verify(job, blame, cause))
		return -EINVAL;
	if (job_does(job, DDIR_READ) || job_does(job, DDIR_TRIM)) {
		*blame = &opt_table[OPT_RW];
		return set_cause(
			cause,
			"ioengine=ftruncate only writes (each write sets the file's size); "
			"rw=%s reads or trims: use rw=write or rw=randwrite",
			opt_enum_name(OPT_RW, (int)job->rw));
	}
	return 0;
}

static enum engine_q ftruncate_queue(struct engine *e, struct io_req *req)
{
	(void)e;
	if (req->op != IO_OP_WRITE)
		req->res = engine_sync_now(req);
	else if (ftruncate(req->fd, (off_t)req->off) < 0)
		req->res = -errno;
	else
		req->res = (int64_t)req->len;
	return ENGINE_Q_DONE;
}

const struct engine_ops ftruncate_engine_ops = {
	.name = "ftruncate",
	.desc = "each write sets the file's size to its offset",
	.help = "No data moves: each write is ftruncate(2) of the file to the write's offset,\n"
		"as fio's ftruncate engine; it counts as a write of its length.  Only writes\n"
		"(rw=write, randwrite); iodepth is 1.",
	.flags = ENGINE_F_SYNC,
	.check = ftruncate_check,
	.queue = ftruncate_queue,
};
