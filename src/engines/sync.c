/* SPDX-License-Identifier: MIT */
/*
 * sync: lseek(2) to the I/O's offset, then read(2) or write(2), done
 * before ->queue() returns.  fio's sync: one more system call per I/O than
 * psync, as old programs do it.
 */
#include "engines/engine.h"

static enum engine_q sync_queue(struct engine *e, struct io_req *req)
{
	(void)e;
	req->res = engine_io_now(req, false);
	return ENGINE_Q_DONE;
}

const struct engine_ops sync_engine_ops = {
	.name = "sync",
	.desc = "lseek then read/write, one I/O at a time",
	.help = "lseek(2) to the offset, then read(2) or write(2): two system calls per I/O,\n"
		"finished before the next starts; iodepth is 1 whatever the job says.",
	.flags = ENGINE_F_SYNC | ENGINE_F_VECTORED,
	.queue = sync_queue,
};
