/* SPDX-License-Identifier: MIT */
/*
 * libaio: Linux native AIO through io_setup(2), io_submit(2) and
 * io_getevents(2), up to iodepth I/Os in flight.  fsync and fdatasync wait
 * for every I/O in flight, then run synchronously, as in fio (the kernel's
 * IOCB_CMD_FSYNC is not supported by most filesystems).  Buffered I/O is
 * accepted, but the kernel completes it inside io_submit: see job_warnings.
 * Completions are reaped with io_getevents, one call per reap, as fio's;
 * with userspace_reap and iodepth_batch_complete_min=0, a reap that need
 * not wait reads the context's ring from user space instead (fio's spins
 * on the ring for one that must wait too; here that is io_getevents).
 */
#include <errno.h>
#include <libaio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines/cmdprio.h"
#include "engines/engine.h"
#include "jobfile/options.h"
#include "util/util.h"

/* linux/aio_abi.h's, which cannot be included beside libaio.h. */
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

extern const struct engine_ops libaio_engine_ops;

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x08 /* linux/fs.h */
#endif

/* libaio's own job options. */
struct aio_opts {
	bool userspace_reap; /* a reap that need not wait reads the ring */
	struct cmdprio_opts cmdprio;
	bool nowait; /* RWF_NOWAIT on each read and write */
};

/* clang-format off */
static const struct opt_def aio_options[] = {
	CMDPRIO_ROWS(libaio_engine_ops, struct aio_opts, cmdprio, "libaio"),
	{ .name = "nowait", .kind = &opt_kind_bool, .engine = &libaio_engine_ops,
	  .off = offsetof(struct aio_opts, nowait), .def = "0",
	  .help = "libaio: RWF_NOWAIT (fail with EAGAIN instead of waiting)" },
	{ .name = "userspace_reap", .kind = &opt_kind_bool, .engine = &libaio_engine_ops,
	  .off = offsetof(struct aio_opts, userspace_reap), .def = "0", .flags = OPTF_BARE,
	  .help = "libaio: a reap that need not wait reads the AIO ring from user space" },
	{ .name = NULL },
};
/* clang-format on */

/* The completion ring the kernel maps at the context's address (fs/aio.c,
 * a stable ABI: libaio and fio read it too).  Only tail is the kernel's to
 * move while we read; head is ours, as no one else reaps this context. */
struct aio_ring_abi {
	unsigned id, nr, head, tail, magic, compat_features, incompat_features, header_length;
	struct io_event events[];
};
#define AIO_RING_MAGIC 0xa10a10a1u

struct aio_priv {
	io_context_t ctx;
	struct iocb *iocbs;	 /* by io_req idx */
	struct iocb **pending;	 /* queued, not yet submitted */
	struct io_event *events; /* depth */
	struct io_req **failed;	 /* refused by io_submit: reaped first */
	/* userspace_reap, and the kernel's ring layout is the one we know:
	 * NULL otherwise (io_getevents only). */
	struct aio_ring_abi *ring;
	unsigned nr_pending, nr_failed, inflight;
	struct cmdprio cp;
	int rwf; /* RWF_* of every read and write */
};

/* Up to max completions from the ring without a system call. */
static unsigned ring_reap(struct aio_ring_abi *ring, struct io_event *ev, unsigned max)
{
	unsigned head = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
	unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	unsigned n = 0;

	while (head != tail && n < max) {
		ev[n++] = ring->events[head];
		head = head + 1 == ring->nr ? 0 : head + 1;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return n;
}

/* What fio refuses of the options, refused when the job is read. */
static int aio_check(const struct job *job, const void *o, const struct opt_def **blame,
		     char **cause)
{
	const struct aio_opts *opts = o;

	(void)job;
	return cmdprio_check(&opts->cmdprio, &aio_options[1], blame, cause);
}

static int aio_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	const struct aio_opts *opts = s->opts;
	struct aio_priv *p = xcalloc(1, sizeof(*p));
	int r;

	r = io_setup((int)e->depth, &p->ctx);
	if (r < 0) {
		free(p);
		if (r == -EAGAIN)
			return set_cause_errno(cause, EAGAIN,
					       "io_setup(%u): the system's AIO limit is reached "
					       "(fs.aio-max-nr); lower iodepth or numjobs",
					       e->depth);
		*cause = xasprintf("io_setup(%u): %s; use ioengine=io_uring or psync", e->depth,
				   strerror(-r));
		return r;
	}
	cmdprio_init(&p->cp, &opts->cmdprio, s->job);
	cmdprio_list(&p->cp, s->job, e);
	p->iocbs = xcalloc(e->depth, sizeof(*p->iocbs));
	p->pending = xcalloc(e->depth, sizeof(*p->pending));
	p->events = xcalloc(e->depth, sizeof(*p->events));
	p->failed = xcalloc(e->depth, sizeof(*p->failed));
	/* As fio: the ring is read only with iodepth_batch_complete_min=0. */
	p->ring = opts->userspace_reap && !s->job->iodepth_batch_complete_min
			  ? (struct aio_ring_abi *)p->ctx
			  : NULL;
	if (p->ring && (p->ring->magic != AIO_RING_MAGIC || p->ring->incompat_features ||
			p->ring->header_length != sizeof(*p->ring)))
		p->ring = NULL;
	p->rwf = opts->nowait ? RWF_NOWAIT : 0;
	e->priv = p;
	return 0;
}

static enum engine_q aio_queue(struct engine *e, struct io_req *req)
{
	struct aio_priv *p = e->priv;
	struct iocb *cb = &p->iocbs[req->idx];

	if (req->op == IO_OP_FSYNC || req->op == IO_OP_FDATASYNC ||
	    req->op == IO_OP_SYNC_FILE_RANGE) {
		if (p->nr_pending || p->inflight || p->nr_failed)
			return ENGINE_Q_BUSY;
		req->res = engine_sync_now(req);
		return ENGINE_Q_DONE;
	}
	if (req->op == IO_OP_TRIM) {
		/* As fio's libaio (ASYNCIO_SYNC_TRIM): the AIO ABI has no trim. */
		req->res = engine_trim_now(req);
		return ENGINE_Q_DONE;
	}
	if (p->nr_pending + p->inflight + p->nr_failed >= e->depth)
		return ENGINE_Q_BUSY;
	if (req->nr_iov > 1 && req->op == IO_OP_READ)
		io_prep_preadv(cb, req->fd, req->iov, (int)req->nr_iov, (long long)req->off);
	else if (req->nr_iov > 1)
		io_prep_pwritev(cb, req->fd, req->iov, (int)req->nr_iov, (long long)req->off);
	else if (req->op == IO_OP_READ)
		io_prep_pread(cb, req->fd, req->buf, req->len, (long long)req->off);
	else
		io_prep_pwrite(cb, req->fd, req->buf, req->len, (long long)req->off);
	/* As fio: only an I/O cmdprio* picks carries a priority of its own. */
	if (p->cp.on && cmdprio_pick(&p->cp, req)) {
		cb->aio_reqprio = (short)req->ioprio;
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	cb->aio_rw_flags = p->rwf;
	cb->data = req;
	p->pending[p->nr_pending++] = cb;
	return ENGINE_Q_QUEUED;
}

static int aio_commit(struct engine *e)
{
	struct aio_priv *p = e->priv;
	unsigned done = 0, spins = 0;
	int r;

	while (done < p->nr_pending) {
		r = io_submit(p->ctx, (long)(p->nr_pending - done), p->pending + done);
		if (r > 0) {
			done += (unsigned)r;
			p->inflight += (unsigned)r;
		} else if (r == -EAGAIN || r == -EINTR || r == 0) {
			/* The context is sized to depth, so this is brief.  Given
			 * up, what was not sent stays pending, alone. */
			if (++spins > 100000) {
				memmove(p->pending, p->pending + done,
					(p->nr_pending - done) * sizeof(*p->pending));
				p->nr_pending -= done;
				return -EAGAIN;
			}
			sched_yield();
		} else {
			/* The first iocb was refused (EBADF, EINVAL...): it
			 * completes now with that error; the rest go on. */
			struct io_req *req = p->pending[done]->data;

			req->res = r;
			p->failed[p->nr_failed++] = req;
			done++;
		}
	}
	p->nr_pending = 0;
	return 0;
}

static int aio_reap(struct engine *e, unsigned min, unsigned max, struct io_req **done)
{
	struct aio_priv *p = e->priv;
	unsigned n = 0;
	int r = 0, i;

	while (p->nr_failed && n < max)
		done[n++] = p->failed[--p->nr_failed];
	if (n >= max || !p->inflight)
		return (int)n;
	if (n >= min && p->ring) {
		r = (int)ring_reap(p->ring, p->events, max - n);
	} else {
		/* No wait when nothing is owed: a zero timeout, as fio's. */
		struct timespec zero = { 0, 0 };
		/* Never more than is in flight: a wait for more would not end. */
		unsigned want = n < min ? min - n : 0;

		if (want > p->inflight)
			want = p->inflight;

		do
			r = io_getevents(p->ctx, (long)want, (long)(max - n), p->events,
					 want ? NULL : &zero);
		while (r == -EINTR);
		if (r < 0)
			return n ? (int)n : r;
	}
	for (i = 0; i < r; i++) {
		struct io_req *req = p->events[i].data;

		/* res is unsigned long: an error is -errno cast. */
		req->res = (int64_t)(long)p->events[i].res;
		done[n++] = req;
	}
	p->inflight -= (unsigned)r;
	return (int)n;
}

static void aio_cleanup(struct engine *e)
{
	struct aio_priv *p = e->priv;

	io_destroy(p->ctx);
	free(p->iocbs);
	free(p->pending);
	free(p->events);
	free(p->failed);
	free(p);
	e->priv = NULL;
}

const struct engine_ops libaio_engine_ops = {
	.name = "libaio",
	.flags = ENGINE_F_VECTORED | ENGINE_F_ASYNC_DIRECT,
	.desc = "Linux native AIO (io_submit/io_getevents), iodepth in flight",
	.help = "io_submit(2) and io_getevents(2) through libaio, up to iodepth I/Os in\n"
		"flight.  Asynchronous only with direct=1: buffered I/O is completed inside\n"
		"io_submit, one at a time in practice.  fsync and fdatasync wait for what is\n"
		"in flight, then run as system calls.  Completions are reaped with\n"
		"io_getevents; with userspace_reap and iodepth_batch_complete_min=0, a\n"
		"reap that need not wait reads the AIO ring from user space.",
	.options = aio_options,
	.opts_size = sizeof(struct aio_opts),
	.check = aio_check,
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};
