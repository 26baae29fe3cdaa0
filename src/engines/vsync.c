/* SPDX-License-Identifier: MIT */
/*
 * vsync: readv(2) or writev(2) at the file position after an lseek(2),
 * queueing as fio's vsync does: I/Os that follow each other (same file,
 * same direction, each starting where the one before ended) are gathered,
 * up to iodepth, and ->commit() moves them in one lseek and one readv or
 * writev.  An I/O that does not follow makes the queue go out first
 * (BUSY).  Syncs and trims run alone, done at once.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engines/engine.h"
#include "util/util.h"

struct vsync_priv {
	struct iovec *iov;    /* one per queued I/O */
	struct io_req **reqs; /* queued, in offset order */
	struct io_req **done; /* moved by the last commit, not yet reaped */
	unsigned max;	      /* most gathered: depth, at most IOV_MAX */
	unsigned nr, nr_done; /* queued; done and not reaped */
	uint64_t next;	      /* offset the next I/O must start at to join */
};

static int vsync_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	struct vsync_priv *p = xcalloc(1, sizeof(*p));

	(void)s;
	(void)cause;
	p->max = e->depth < IOV_MAX ? e->depth : IOV_MAX;
	p->iov = xcalloc(p->max, sizeof(*p->iov));
	p->reqs = xcalloc(p->max, sizeof(*p->reqs));
	p->done = xcalloc(e->depth, sizeof(*p->done));
	e->priv = p;
	return 0;
}

static enum engine_q vsync_queue(struct engine *e, struct io_req *req)
{
	struct vsync_priv *p = e->priv;
	const struct io_req *last = p->nr ? p->reqs[p->nr - 1] : NULL;

	if (req->op != IO_OP_READ && req->op != IO_OP_WRITE) {
		if (p->nr)
			return ENGINE_Q_BUSY;
		req->res = engine_io_now(req, true);
		return ENGINE_Q_DONE;
	}
	if (last &&
	    (last->fd != req->fd || last->op != req->op || p->next != req->off || p->nr == p->max))
		return ENGINE_Q_BUSY;
	if (p->nr + p->nr_done >= e->depth)
		return ENGINE_Q_BUSY;
	p->iov[p->nr] = (struct iovec){ .iov_base = req->buf, .iov_len = req->len };
	p->reqs[p->nr++] = req;
	p->next = req->off + req->len;
	return ENGINE_Q_QUEUED;
}

/* One lseek and as many readv or writev calls as a short transfer takes:
 * the bytes moved, or -errno with none moved. */
static int64_t vsync_move(struct vsync_priv *p)
{
	const struct io_req *first = p->reqs[0];
	struct iovec *v = p->iov;
	unsigned n = p->nr;
	int64_t done = 0;
	ssize_t r;

	if (lseek(first->fd, (off_t)first->off, SEEK_SET) < 0)
		return -errno;
	while (n) {
		r = first->op == IO_OP_READ ? readv(first->fd, v, (int)n)
					    : writev(first->fd, v, (int)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return done ? done : -errno;
		if (r == 0)
			break;
		done += r;
		for (; n && (size_t)r >= v->iov_len; v++, n--)
			r -= (ssize_t)v->iov_len;
		if (n) {
			v->iov_base = (char *)v->iov_base + r;
			v->iov_len -= (size_t)r;
		}
	}
	return done;
}

static int vsync_commit(struct engine *e)
{
	struct vsync_priv *p = e->priv;
	int64_t left;
	unsigned i;

	if (!p->nr)
		return 0;
	left = vsync_move(p);
	/* As fio's: each I/O gets its share of the bytes, in order; an
	 * error is every one's. */
	for (i = 0; i < p->nr; i++) {
		struct io_req *req = p->reqs[i];

		if (left < 0) {
			req->res = left;
		} else {
			req->res = left < (int64_t)req->len ? left : (int64_t)req->len;
			left -= req->res;
		}
		p->done[p->nr_done++] = req;
	}
	p->nr = 0;
	return 0;
}

static int vsync_reap(struct engine *e, unsigned min, unsigned max, struct io_req **done)
{
	struct vsync_priv *p = e->priv;
	unsigned n = p->nr_done < max ? p->nr_done : max, i;

	(void)min;
	for (i = 0; i < n; i++)
		done[i] = p->done[i];
	for (i = n; i < p->nr_done; i++)
		p->done[i - n] = p->done[i];
	p->nr_done -= n;
	return (int)n;
}

static void vsync_cleanup(struct engine *e)
{
	struct vsync_priv *p = e->priv;

	free(p->iov);
	free(p->reqs);
	free(p->done);
	free(p);
	e->priv = NULL;
}

const struct engine_ops vsync_engine_ops = {
	.name = "vsync",
	.desc = "lseek then readv/writev, adjacent I/Os gathered up to iodepth",
	.help = "lseek(2) to the offset, then readv(2) or writev(2).  As fio's vsync,\n"
		"I/Os that follow each other in one file and direction are gathered, up\n"
		"to iodepth, into one readv or writev; any other I/O sends them first.",
	.init = vsync_init,
	.queue = vsync_queue,
	.commit = vsync_commit,
	.reap = vsync_reap,
	.cleanup = vsync_cleanup,
};
