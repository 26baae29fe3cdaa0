/* SPDX-License-Identifier: MIT */
/*
 * psync: one pread(2) or pwrite(2) per I/O, at the I/O's offset, done
 * before ->queue() returns.  fio's psync.
 */
#include "engines/engine.h"

static enum engine_q psync_queue(struct engine *e, struct io_req *req)
{
	(void)e;
	req->res = engine_io_now(req, true);
	return ENGINE_Q_DONE;
}

const struct engine_ops psync_engine_ops = {
	.name = "psync",
	.desc = "pread/pwrite, one I/O at a time",
	.help = "One pread(2) or pwrite(2) per I/O at its offset, finished before the next\n"
		"starts; iodepth is 1 whatever the job says.  fsync and fdatasync are the\n"
		"system calls of those names.",
	.flags = ENGINE_F_SYNC | ENGINE_F_VECTORED,
	.queue = psync_queue,
};
