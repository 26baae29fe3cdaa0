/* SPDX-License-Identifier: MIT */
/*
 * The engine interface: fio's lifecycle with a tenth of the surface.  The
 * worker fills a struct io_req and calls ->queue(), which answers DONE
 * (finished now; sync engines), QUEUED (returned later by ->reap()) or
 * BUSY (no room: ->commit() and ->reap() first).  Engines see only the
 * job and io_reqs: never stats, reports or the option table.  Adding an
 * engine is one file in src/engines/ and one line in engine.c's table.
 */
#ifndef IOGAUGE_ENGINE_H
#define IOGAUGE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "iogauge/job.h"

enum io_op { IO_OP_READ, IO_OP_WRITE, IO_OP_FSYNC, IO_OP_FDATASYNC };

struct io_req {
	enum io_op op;
	int fd;
	void *buf;
	size_t len;	  /* bytes */
	uint64_t off;	  /* bytes */
	uint64_t t_issue; /* ns, CLOCK_MONOTONIC, set by the worker before ->queue() */
	int64_t res;	  /* bytes moved, or -errno; set by the engine */
	unsigned idx;	  /* stable slot 0..depth-1, for engine-private arrays */
	unsigned file;	  /* the worker's file index, for messages */
};

enum engine_q {
	ENGINE_Q_DONE,	 /* completed; req->res is valid */
	ENGINE_Q_QUEUED, /* will come back from ->reap() */
	ENGINE_Q_BUSY,	 /* no room: commit and reap, then queue again */
};

#define ENGINE_F_SYNC (1u << 0) /* ->queue() always answers DONE */

struct engine {
	const struct engine_ops *ops;
	void *priv;
	unsigned depth; /* I/Os the worker may keep in flight */
};

struct engine_ops {
	const char *name;
	const char *desc; /* one line */
	unsigned flags;
	/* Optional.  0 or -errno. */
	int (*init)(struct engine *e, const struct job *job);
	enum engine_q (*queue)(struct engine *e, struct io_req *req);
	/* Async only: submit what was queued.  0 or -errno. */
	int (*commit)(struct engine *e);
	/* Async only: wait for at least @min completions, return up to @max in
	 * @done.  The count, or -errno. */
	int (*reap)(struct engine *e, unsigned min, unsigned max, struct io_req **done);
	/* Optional. */
	void (*cleanup)(struct engine *e);
};

/* The engine called @name, or NULL when this build has none by that name. */
const struct engine_ops *engine_find(const char *name);
/* Engine @i of this build in table order, or NULL past the end. */
const struct engine_ops *engine_at(unsigned i);
/* fio's rules for an ops table: queue, and commit and reap unless SYNC. */
int engine_ops_check(const struct engine_ops *ops);

extern const struct engine_ops psync_engine_ops;

#endif
