/* SPDX-License-Identifier: MIT */
/*
 * count: an engine for the tests only, linked into test_count and never
 * into iogauge.  It moves no bytes: it counts the I/Os it is given, by
 * operation, and with count_fail_after=N fails every I/O after the Nth
 * with EIO.  Adding it took this file and one line of engine.c's table.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "engines/engine.h"
#include "jobfile/options.h"
#include "util/util.h"

extern const struct engine_ops count_engine_ops;

struct count_opts {
	unsigned fail_after; /* I/Os; 0: none fails */
};

static const struct opt_def count_options[] = {
	{ .name = "count_fail_after",
	  .kind = &opt_kind_uint,
	  .engine = &count_engine_ops,
	  .off = offsetof(struct count_opts, fail_after),
	  .def = "0",
	  .help = "count: every I/O after this many fails with EIO (0: none)" },
	{ .name = NULL },
};

/* The I/Os given to every count engine of the process, by enum io_op. */
unsigned long count_engine_ios[IO_OP_TRIM + 1];

struct count_priv {
	unsigned fail_after, done;
};

static int count_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	struct count_priv *p = xcalloc(1, sizeof(*p));

	(void)cause;
	p->fail_after = ((const struct count_opts *)s->opts)->fail_after;
	e->priv = p;
	return 0;
}

static enum engine_q count_queue(struct engine *e, struct io_req *req)
{
	struct count_priv *p = e->priv;
	bool rw = req->op == IO_OP_READ || req->op == IO_OP_WRITE || req->op == IO_OP_TRIM;

	__atomic_fetch_add(&count_engine_ios[req->op], 1, __ATOMIC_RELAXED);
	req->res = p->fail_after && p->done >= p->fail_after ? -EIO : rw ? (int64_t)req->len : 0;
	p->done++;
	return ENGINE_Q_DONE;
}

static void count_cleanup(struct engine *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct engine_ops count_engine_ops = {
	.name = "count",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILES,
	.desc = "tests only: counts I/Os, moves no bytes",
	.help = "Counts the I/Os it is given, by operation, and completes them at once\n"
		"without moving a byte.  count_fail_after=N fails every I/O after the Nth.",
	.options = count_options,
	.opts_size = sizeof(struct count_opts),
	.init = count_init,
	.queue = count_queue,
	.cleanup = count_cleanup,
};
