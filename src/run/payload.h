/* SPDX-License-Identifier: MIT */
/*
 * What the bytes of a clone's writes are: its buffers' first contents and
 * each write's, made as fio makes them (random, compressible, zeros,
 * scrambled, buffer_pattern, dedupe_percentage's repeats).  Not where the
 * buffers are (the worker's) nor verify='s stamps (verify.c); a verify
 * pattern turns refill and scramble off.
 */
#ifndef IOGAUGE_PAYLOAD_H
#define IOGAUGE_PAYLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "engines/engine.h"
#include "jobfile/job.h"
#include "workload/rand.h"

struct payload {
	const struct job *job;
	struct rng data_rng; /* buffer contents */
	bool refill;	     /* new contents for every write (refill_buffers, compression) */
	bool scramble;	     /* scramble_buffers: offset and sequence into each 512 bytes */
	uint64_t writes;     /* writes issued: the scramble's sequence number */
	size_t scramble_at;  /* where in each 512 bytes the stamp goes */
	uint64_t scramble_key[2];
	/* dedupe_percentage: each write's buffer is made from one seed, a
	 * new one (seeds) or, for a duplicate, one made before. */
	struct rng dedupe_rng; /* duplicate or not, and which page of the set */
	struct rng seeds;      /* the seeds of unique buffers, in turn */
	uint64_t next_seed;    /* the next unique buffer's */
	uint64_t *ws;	       /* working_set: the pages' seeds; owned */
	uint64_t nr_ws;
};

/* Sets up @pl for @job, its draws from the clone's @seed; @thread: the
 * clone's place in the run (from 1), which sets its unique buffers apart
 * from other jobs' when dedupe_percentage is set.  It allocates only for
 * dedupe_mode=working_set (payload_free). */
void payload_init(struct payload *pl, const struct job *job, uint64_t seed, unsigned thread);
void payload_free(struct payload *pl);
/* dedupe_global: the working sets of @n clones' payloads (@pls, in run
 * order) made of pages of all of them, as fio spreads them: each clone's
 * set is blocks of its own unique buffers, then the next clone's, and so
 * on round the run.  Before any of them writes. */
void payload_dedupe_share(struct payload *const *pls, unsigned n);
/* A write's new contents when the job refills: payload_fill, or with
 * dedupe_percentage a buffer that is unique or a repeat of another. */
void payload_refill(struct payload *pl, char *p, size_t len);
/*
 * Buffer contents, as fio makes them: random bytes (not dedupable, not
 * compressible); zeros with zero_buffers; with
 * buffer_compress_percentage=P, each buffer_compress_chunk bytes are
 * (100 - P)% random then P% zeros, so that the data compresses to about
 * (100 - P)% of its size.
 */
void payload_fill(struct payload *pl, char *p, size_t len);
/* scramble_buffers (fio's default): 16 bytes of each 512-byte block of a
 * write become its file offset and the write's sequence number, so that no
 * two blocks written are the same.  Both go through a keyed bijection, and
 * the place is the worker's own (16-byte aligned, drawn at set-up), so the
 * stamps look like the random data around them (no compressor finds them)
 * and do not pile up. */
void payload_scramble(struct payload *pl, char *p, size_t len, uint64_t off);
/* A write's contents, before it is queued: refilled or scrambled, in
 * the buffer or, with @iov (sub_blocks: the clone's iovecs, sub_blocks per
 * slot), in the pieces that the engine will write.  Inline: the loop
 * calls it for every write. */
static inline void payload_write(struct payload *pl, const struct io_req *req,
				 const struct iovec *iov)
{
	const struct iovec *v;
	uint64_t off = req->off;
	unsigned k;

	if (!iov) {
		if (pl->refill)
			payload_refill(pl, req->buf, req->len);
		else
			payload_scramble(pl, req->buf, req->len, off);
		return;
	}
	/* sub_blocks: the pieces hold the data (copy mode gathers them after). */
	v = &iov[(size_t)req->idx * pl->job->sub_blocks];
	for (k = 0; k < pl->job->sub_blocks; off += v[k].iov_len, k++)
		if (pl->refill)
			payload_refill(pl, v[k].iov_base, v[k].iov_len);
		else
			payload_scramble(pl, v[k].iov_base, v[k].iov_len, off);
}

#endif
