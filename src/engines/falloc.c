/* SPDX-License-Identifier: MIT */
/*
 * falloc: no bytes move; each I/O is a fallocate(2) of its range, as
 * fio's falloc engine: a read reserves the blocks without changing the
 * size (FALLOC_FL_KEEP_SIZE), a write reserves them and grows the file to
 * the range's end (mode 0), a trim punches a hole (FALLOC_FL_PUNCH_HOLE |
 * FALLOC_FL_KEEP_SIZE).  Each counts as the direction's I/O of its length.
 */
#include <errno.h>
#include <fcntl.h>

#include "engines/engine.h"
#include "engines/fileop.h"

static int falloc_check(const struct job *job, const void *opts, const struct opt_def **blame,
			char **cause)
{
	(void)opts;
	return fileop_refuse_verify(job, blame, cause);
}

static enum engine_q falloc_queue(struct engine *e, struct io_req *req)
{
	int mode = 0;

	(void)e;
	if (req->op == IO_OP_READ)
		mode = FALLOC_FL_KEEP_SIZE;
	else if (req->op == IO_OP_TRIM)
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
	if (req->op == IO_OP_FSYNC || req->op == IO_OP_FDATASYNC ||
	    req->op == IO_OP_SYNC_FILE_RANGE)
		req->res = engine_sync_now(req);
	else if (fallocate(req->fd, mode, (off_t)req->off, (off_t)req->len) < 0)
		req->res = -errno;
	else
		req->res = (int64_t)req->len;
	return ENGINE_Q_DONE;
}

const struct engine_ops falloc_engine_ops = {
	.name = "falloc",
	.desc = "fallocate(2) each I/O's range instead of moving bytes",
	.help = "No data moves: a read is fallocate(FALLOC_FL_KEEP_SIZE) over its range, a\n"
		"write fallocate(0) (the file grows to the range's end), a trim a punched hole\n"
		"(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE), as fio's falloc engine.  Each\n"
		"counts as an I/O of its length; iodepth is 1.",
	.flags = ENGINE_F_SYNC | ENGINE_F_MODIFIES,
	.check = falloc_check,
	.queue = falloc_queue,
};
