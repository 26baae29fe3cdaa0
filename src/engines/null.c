/* SPDX-License-Identifier: MIT */
/*
 * null: no I/O at all.  Every I/O completes as if it had moved its bytes,
 * through the async path (queue, commit, reap) at the job's iodepth, as
 * fio's null engine: what it measures is iogauge's own cost per I/O.  No
 * file is laid out or opened.
 */
#include <stdlib.h>

#include "engines/engine.h"
#include "util/util.h"

struct null_priv {
	struct io_req **ring; /* depth slots, FIFO */
	unsigned head;	      /* next to reap */
	unsigned nr_pending;  /* queued, not committed */
	unsigned nr_ready;    /* committed, not reaped */
};

static int null_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	struct null_priv *p = xcalloc(1, sizeof(*p));

	(void)s;
	(void)cause;
	p->ring = xcalloc(e->depth, sizeof(*p->ring));
	e->priv = p;
	return 0;
}

static enum engine_q null_queue(struct engine *e, struct io_req *req)
{
	struct null_priv *p = e->priv;
	unsigned n = p->nr_ready + p->nr_pending;

	if (n >= e->depth)
		return ENGINE_Q_BUSY;
	req->res = req->op == IO_OP_READ || req->op == IO_OP_WRITE || req->op == IO_OP_TRIM
			   ? (int64_t)req->len
			   : 0;
	p->ring[(p->head + n) % e->depth] = req;
	p->nr_pending++;
	return ENGINE_Q_QUEUED;
}

static int null_commit(struct engine *e)
{
	struct null_priv *p = e->priv;

	p->nr_ready += p->nr_pending;
	p->nr_pending = 0;
	return 0;
}

static int null_reap(struct engine *e, unsigned min, unsigned max, struct io_req **done)
{
	struct null_priv *p = e->priv;
	unsigned n = 0;

	(void)min; /* everything committed is complete already */
	while (n < max && p->nr_ready) {
		done[n++] = p->ring[p->head];
		p->head = (p->head + 1) % e->depth;
		p->nr_ready--;
	}
	return (int)n;
}

static void null_cleanup(struct engine *e)
{
	struct null_priv *p = e->priv;

	free(p->ring);
	free(p);
	e->priv = NULL;
}

const struct engine_ops null_engine_ops = {
	.name = "null",
	.desc = "no I/O: measures iogauge's own cost per I/O",
	.help = "Completes every I/O at once without touching a file, through the same\n"
		"queue/commit/reap path as the async engines, at the job's iodepth.  No file\n"
		"is created or opened; the job needs size= to know how much to \"move\".",
	.flags = ENGINE_F_NOFILES,
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};
