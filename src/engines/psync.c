/* SPDX-License-Identifier: MIT */
/*
 * psync: one pread(2) or pwrite(2) per I/O, at the I/O's offset, done
 * before ->queue() returns.  Short transfers are continued and EINTR is
 * retried, so a result short of the length means end of file.
 */
#include <errno.h>
#include <unistd.h>

#include "iogauge/engine.h"

static int64_t psync_rw(struct io_req *req)
{
	size_t done = 0;
	ssize_t r;

	while (done < req->len) {
		char *p = (char *)req->buf + done;
		off_t at = (off_t)(req->off + done);

		if (req->op == IO_OP_READ)
			r = pread(req->fd, p, req->len - done, at);
		else
			r = pwrite(req->fd, p, req->len - done, at);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (int64_t)done;
}

static enum engine_q psync_queue(struct engine *e, struct io_req *req)
{
	int r;

	(void)e;
	switch (req->op) {
	case IO_OP_READ:
	case IO_OP_WRITE:
		req->res = psync_rw(req);
		break;
	case IO_OP_FSYNC:
	case IO_OP_FDATASYNC:
		r = req->op == IO_OP_FSYNC ? fsync(req->fd) : fdatasync(req->fd);
		req->res = r < 0 ? -errno : 0;
		break;
	}
	return ENGINE_Q_DONE;
}

const struct engine_ops psync_engine_ops = {
	.name = "psync",
	.desc = "pread/pwrite, one I/O at a time",
	.flags = ENGINE_F_SYNC,
	.queue = psync_queue,
};
