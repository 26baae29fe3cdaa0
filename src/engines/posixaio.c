/* SPDX-License-Identifier: MIT */
/*
 * posixaio: POSIX asynchronous I/O, aio_read(3) and aio_write(3), up to
 * iodepth in flight, as fio's posixaio.  Each I/O is handed to the C
 * library as it is queued; a reap asks aio_error(3) of each one in flight
 * and waits in aio_suspend(3) while fewer than it needs have ended.  glibc
 * does the I/O in threads of its own, with pread and pwrite.  fsync and
 * fdatasync are aio_fsync(O_SYNC), as fio's (fdatasync too); a trim waits
 * for what is in flight and is done at once.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "util/util.h"

struct posixaio_priv {
	struct aiocb *cbs;	      /* by io_req idx */
	struct io_req **flight;	      /* in flight, in no order */
	const struct aiocb **waitfor; /* aio_suspend's list */
	unsigned inflight;
};

static int posixaio_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	struct posixaio_priv *p = xcalloc(1, sizeof(*p));

	(void)s;
	(void)cause;
	p->cbs = xcalloc(e->depth, sizeof(*p->cbs));
	p->flight = xcalloc(e->depth, sizeof(*p->flight));
	p->waitfor = xcalloc(e->depth, sizeof(*p->waitfor));
	e->priv = p;
	return 0;
}

static enum engine_q posixaio_queue(struct engine *e, struct io_req *req)
{
	struct posixaio_priv *p = e->priv;
	struct aiocb *cb = &p->cbs[req->idx];
	int r;

	if (req->op == IO_OP_TRIM || req->op == IO_OP_SYNC_FILE_RANGE) {
		if (p->inflight)
			return ENGINE_Q_BUSY;
		/* sync_file_range: POSIX AIO has none; done here, between batches. */
		req->res = req->op == IO_OP_TRIM ? engine_trim_now(req) : engine_sync_now(req);
		return ENGINE_Q_DONE;
	}
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = req->fd;
	cb->aio_buf = req->buf;
	cb->aio_nbytes = req->len;
	cb->aio_offset = (off_t)req->off;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	if (req->op == IO_OP_READ)
		r = aio_read(cb);
	else if (req->op == IO_OP_WRITE)
		r = aio_write(cb);
	else
		r = aio_fsync(O_SYNC, cb);
	if (r) {
		/* Out of the library's room: what is in flight goes first. */
		if (errno == EAGAIN && p->inflight)
			return ENGINE_Q_BUSY;
		req->res = -errno;
		return ENGINE_Q_DONE;
	}
	p->flight[p->inflight++] = req;
	return ENGINE_Q_QUEUED;
}

/* Submitted as queued: nothing is left to send. */
static int posixaio_commit(struct engine *e)
{
	(void)e;
	return 0;
}

static int posixaio_reap(struct engine *e, unsigned min, unsigned max, struct io_req **done)
{
	struct posixaio_priv *p = e->priv;
	unsigned n = 0, i, nwait;
	int err;

	for (;;) {
		nwait = 0;
		for (i = 0; i < p->inflight && n < max;) {
			struct io_req *req = p->flight[i];
			struct aiocb *cb = &p->cbs[req->idx];

			err = aio_error(cb);
			if (err == EINPROGRESS) {
				p->waitfor[nwait++] = cb;
				i++;
				continue;
			}
			req->res = err ? -err : (int64_t)aio_return(cb);
			done[n++] = req;
			p->flight[i] = p->flight[--p->inflight];
		}
		if (n >= min || n >= max || !nwait)
			return (int)n;
		/* Some must end before the reap returns: wait for one. */
		if (aio_suspend(p->waitfor, (int)nwait, NULL) && errno != EINTR && errno != EAGAIN)
			return n ? (int)n : -errno;
	}
}

static void posixaio_cleanup(struct engine *e)
{
	struct posixaio_priv *p = e->priv;
	unsigned i;

	/* Nothing may land in a buffer about to be freed. */
	for (i = 0; i < p->inflight; i++) {
		const struct aiocb *cb = &p->cbs[p->flight[i]->idx];

		while (aio_error(cb) == EINPROGRESS)
			aio_suspend(&cb, 1, NULL);
	}
	free(p->cbs);
	free(p->flight);
	free(p->waitfor);
	free(p);
	e->priv = NULL;
}

const struct engine_ops posixaio_engine_ops = {
	.name = "posixaio",
	.desc = "POSIX aio_read/aio_write, iodepth in flight",
	.help = "aio_read(3) and aio_write(3) as each I/O is queued, up to iodepth in\n"
		"flight; completions found with aio_error(3), waited for in\n"
		"aio_suspend(3).  glibc does the I/O in its own threads.  fsync and\n"
		"fdatasync are aio_fsync(O_SYNC), as in fio.",
	.init = posixaio_init,
	.queue = posixaio_queue,
	.commit = posixaio_commit,
	.reap = posixaio_reap,
	.cleanup = posixaio_cleanup,
};
