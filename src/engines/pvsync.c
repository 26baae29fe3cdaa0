/* SPDX-License-Identifier: MIT */
/*
 * pvsync: one preadv(2) or pwritev(2) per I/O at its offset, done before
 * ->queue() returns.  fio's pvsync: psync through the vectored calls, one
 * iovec (or sub_blocks' pieces).
 */
#include "engines/engine.h"

static enum engine_q pvsync_queue(struct engine *e, struct io_req *req)
{
	(void)e;
	if (req->op == IO_OP_READ || req->op == IO_OP_WRITE)
		req->res = engine_rwv_now(req, false, 0);
	else
		req->res = engine_io_now(req, true);
	return ENGINE_Q_DONE;
}

const struct engine_ops pvsync_engine_ops = {
	.name = "pvsync",
	.desc = "preadv/pwritev, one I/O at a time",
	.help = "One preadv(2) or pwritev(2) per I/O at its offset, finished before the\n"
		"next starts; iodepth is 1 whatever the job says.  fsync and fdatasync\n"
		"are the system calls of those names.",
	.flags = ENGINE_F_SYNC | ENGINE_F_VECTORED,
	.queue = pvsync_queue,
};
