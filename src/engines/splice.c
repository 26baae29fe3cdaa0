/* SPDX-License-Identifier: MIT */
/*
 * splice: each I/O moves through a pipe, as fio's splice engine.  A read
 * is splice(2) from the file into the pipe, then vmsplice(2) from the pipe
 * into the I/O's buffer; a write is vmsplice from the buffer into the
 * pipe, then splice from the pipe into the file; 64 KiB at a time (the
 * pipe's default size).  Done before ->queue() returns.  Syncs and trims
 * are the usual calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engines/engine.h"
#include "util/util.h"

/* The most one splice moves: what an empty pipe holds by default. */
#define SPLICE_CHUNK (64u * 1024u)

struct splice_priv {
	int pipe[2]; /* [0] read end, [1] write end */
};

static int splice_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	struct splice_priv *p = xcalloc(1, sizeof(*p));

	(void)s;
	if (pipe2(p->pipe, O_CLOEXEC) < 0) {
		int err = errno;

		free(p);
		return set_cause_errno(cause, err, "pipe");
	}
	e->priv = p;
	return 0;
}

/* @n bytes now in the pipe go to @buf (vmsplice to user memory copies).
 * 0 or -errno. */
static int drain_to(int from, char *buf, size_t n)
{
	struct iovec v = { .iov_base = buf, .iov_len = n };
	ssize_t r;

	while (v.iov_len) {
		r = vmsplice(from, &v, 1, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -ENODATA;
		v.iov_base = (char *)v.iov_base + r;
		v.iov_len -= (size_t)r;
	}
	return 0;
}

static int64_t splice_read(struct splice_priv *p, const struct io_req *req)
{
	loff_t off = (loff_t)req->off;
	size_t done = 0;
	ssize_t r;
	int ret;

	while (done < req->len) {
		size_t left = req->len - done, n = left < SPLICE_CHUNK ? left : SPLICE_CHUNK;

		r = splice(req->fd, &off, p->pipe[1], NULL, n, left > n ? SPLICE_F_MORE : 0);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break; /* end of file: a short read */
		ret = drain_to(p->pipe[0], (char *)req->buf + done, (size_t)r);
		if (ret)
			return ret;
		done += (size_t)r;
	}
	return (int64_t)done;
}

static int64_t splice_write(struct splice_priv *p, const struct io_req *req)
{
	loff_t off = (loff_t)req->off;
	size_t done = 0;
	ssize_t r, out;

	while (done < req->len) {
		size_t left = req->len - done;
		struct iovec v = { .iov_base = (char *)req->buf + done,
				   .iov_len = left < SPLICE_CHUNK ? left : SPLICE_CHUNK };

		/* The pipe is empty here: it takes what fits, without waiting. */
		r = vmsplice(p->pipe[1], &v, 1, SPLICE_F_NONBLOCK);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		while (r) {
			out = splice(p->pipe[0], NULL, req->fd, &off, (size_t)r, 0);
			if (out < 0 && errno == EINTR)
				continue;
			if (out <= 0)
				return out < 0 ? -errno : -EIO;
			r -= out;
			done += (size_t)out;
		}
	}
	return (int64_t)done;
}

static enum engine_q splice_queue(struct engine *e, struct io_req *req)
{
	struct splice_priv *p = e->priv;

	if (req->op == IO_OP_READ)
		req->res = splice_read(p, req);
	else if (req->op == IO_OP_WRITE)
		req->res = splice_write(p, req);
	else
		req->res = engine_io_now(req, true);
	return ENGINE_Q_DONE;
}

static void splice_cleanup(struct engine *e)
{
	struct splice_priv *p = e->priv;

	close(p->pipe[0]);
	close(p->pipe[1]);
	free(p);
	e->priv = NULL;
}

const struct engine_ops splice_engine_ops = {
	.name = "splice",
	.desc = "splice and vmsplice through a pipe, one I/O at a time",
	.help = "Each I/O goes through a pipe, 64 KiB at a time: a read is splice(2)\n"
		"from the file into the pipe and vmsplice(2) from it into the buffer, a\n"
		"write vmsplice from the buffer and splice into the file.",
	.flags = ENGINE_F_SYNC,
	.init = splice_init,
	.queue = splice_queue,
	.cleanup = splice_cleanup,
};
