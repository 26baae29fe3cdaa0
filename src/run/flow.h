/* SPDX-License-Identifier: MIT */
/*
 * flow, flow_id, flow_sleep: fio's token scheme between the clones of a
 * run that share a flow_id.  Each flow is a counter of I/Os and a sum of
 * weights in memory that every clone shares (threads and forked
 * processes alike); a clone issues an I/O only while its share of the
 * flow's I/Os is at most its share of the weights.  Not a rate: a flow
 * keeps jobs in proportion to each other, whatever their speed.
 */
#ifndef IOGAUGE_FLOW_H
#define IOGAUGE_FLOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "jobfile/job.h"

struct run_flow {
	unsigned id;
	/* I/Os let through, from 1 (as fio's, so that the first ratio is
	 * defined), and the weights of the clones that hold a part: each
	 * clone of a job with flow= from the run's start to its own end. */
	_Atomic uint64_t count;
	_Atomic uint64_t weight;
};

/* The run's flows, in one shared anonymous mapping; n 0: none. */
struct run_flows {
	struct run_flow *v;
	unsigned n;
	size_t len; /* bytes mapped */
};

/* One flow per flow_id that a job with flow= uses, its weight the sum
 * over the jobs' clones (as fio counts each clone's weight from the start,
 * whether it has started or not).  Aborts as xmalloc when memory cannot
 * be had. */
void flow_make(const struct job *jobs, unsigned nr, struct run_flows *out);
void flow_free(struct run_flows *f);
/* The flow of @job's flow_id, or NULL when the job sets no flow. */
struct run_flow *flow_of(const struct run_flows *f, const struct job *job);

/* Whether a clone of weight @weight that has let @mine I/Os through must
 * hold its next I/O back; when not, the I/O is counted (in *@mine and the
 * flow).  As fio's: a read, a compare and an add, not one atomic step. */
static inline bool flow_held(struct run_flow *fl, uint64_t *mine, unsigned weight)
{
	uint64_t all = atomic_load_explicit(&fl->count, memory_order_relaxed);
	uint64_t weights = atomic_load_explicit(&fl->weight, memory_order_relaxed);

	/* mine / all > weight / weights, without the division. */
	if ((double)*mine * (double)weights > (double)weight * (double)all)
		return true;
	atomic_fetch_add_explicit(&fl->count, 1, memory_order_relaxed);
	++*mine;
	return false;
}

/* A clone is done with its flow: its I/Os and weight leave it, so that
 * the clones still running are no longer held back for it. */
static inline void flow_leave(struct run_flow *fl, uint64_t mine, unsigned weight)
{
	atomic_fetch_sub_explicit(&fl->count, mine, memory_order_relaxed);
	atomic_fetch_sub_explicit(&fl->weight, weight, memory_order_relaxed);
}

#endif
