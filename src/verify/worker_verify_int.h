/* SPDX-License-Identifier: MIT */
/*
 * What worker_verify.c and verify_async.c share inside src/verify: the
 * check of one block read back, the rule for passing verify errors over,
 * and the checking threads' side.  Not for use outside src/verify.
 */
#ifndef IOGAUGE_WORKER_VERIFY_INT_H
#define IOGAUGE_WORKER_VERIFY_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "run/worker.h"

#define VERIFY_LISTED 10 /* mismatches whose offsets the error lists */

/* Checks the block read into @req's buffer, written as generation @gen
 * (0: unknown); NULL when it is right, else what is wrong (and what
 * verify_dump wrote), formatted.  Reads the worker's job and files only:
 * a checking thread may call it. */
char *verify_check_block(struct worker *w, const struct io_req *req, uint64_t gen);
/* continue_on_error=verify or all, or ignore_error's verify list naming
 * EILSEQ: a mismatch is counted and passed over. */
bool verify_passes_over(const struct job *job);

/* verify_async: @req (a block read back, generation @gen) copied to the
 * next thread's ring; false when that ring is full (the caller checks it
 * itself).  A mismatch a thread found first becomes w->error here. */
bool verify_async_submit(struct worker *w, const struct io_req *req, uint64_t gen);
/* The threads finish what was queued and are joined; their counts,
 * offsets and first mismatch join the worker's. */
void verify_async_stop(struct worker *w);
/* Their memory let go (after verify_async_stop). */
void verify_async_free(struct worker *w);

#endif
