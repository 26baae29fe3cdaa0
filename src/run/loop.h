/* SPDX-License-Identifier: MIT */
/*
 * The worker's I/O loop from inside: its state (struct loop) and the
 * calls between worker.c (the loop), worker_pace.c (when the next I/O may
 * go) and worker_setup.c (the loop's state made from the job).  Private
 * to those three files.
 */
#ifndef IOGAUGE_RUN_LOOP_H
#define IOGAUGE_RUN_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include "run/worker.h"
#include "workload/lattarget.h"

struct loop {
	uint64_t limit;	    /* bytes to issue; UINT64_MAX when time-based */
	uint64_t issued;    /* bytes */
	uint64_t ios_left;  /* number_ios: I/Os still to issue; UINT64_MAX: no cap */
	uint64_t deadline;  /* ns; UINT64_MAX: none */
	uint64_t ramp_end;  /* ns; samples before it are discarded */
	bool ramping;	    /* ramp_time not over: the first I/O at ramp_end ends it */
	uint64_t t_measure; /* ns: start of the measured part */
	unsigned inflight;
	unsigned queued;     /* queued since the last commit, in w->pending */
	unsigned batch;	     /* commit after this many */
	unsigned reap_max;   /* most completions taken at once; 0: all there are */
	unsigned sync_every; /* writes between fsyncs; 0: none */
	/* Which clock reads the I/Os need (gtod_reduce and disable_* drop
	 * them, as fio's): a start per I/O, an issue per commit, a
	 * completion per reaped batch.  What is not read is lp->now. */
	bool time_start, time_issue, time_done;
	bool want_lat, want_clat, want_slat; /* recorded, as fio's disable_* say */
	unsigned stale;			     /* batches since the last read, without time_done */
	enum io_op sync_op;
	uint64_t now;		   /* ns: the latest completion time, for the deadline */
	struct workload_rate rate; /* rate, rate_iops: each direction's schedule */
	/* thinktime: reads and writes issued and completed, the count
	 * thinktime_blocks_type names at the last think, when that think
	 * began (thinktime_iotime), the direction of the last I/O issued (the
	 * one a rate_ignore_thinktime think is of), and a think owed. */
	uint64_t nr_issued, nr_done, think_last, think_t;
	unsigned last_dir;
	bool think;
	unsigned low; /* iodepth_low: a full queue drains to it */
	/* rate_min, rate_iops_min: each direction's bytes, I/Os and time at
	 * its last check (as fio's last_rate_check_*), and its I/Os when last
	 * looked at (only a direction that completed I/O since is checked). */
	bool min_rate;
	uint64_t min_t[DDIR_COUNT], min_bytes[DDIR_COUNT], min_ios[DDIR_COUNT];
	uint64_t min_seen[DDIR_COUNT];
	/* The flow held the next I/O back. */
	bool flow_wait;
	/* Each I/O's priority unless cmdprio* picks one: prio, prioclass's. */
	uint16_t ioprio;
	bool verifying; /* a read-back pass: worker_verify_next gives the I/Os */
	bool backlog;	/* verify_backlog writes issued: a read-back pass is owed */
	bool dry;	/* verify_only: the workload's I/Os are not issued, as fio's dry run */
	/* unlink_each_loop: the bytes of a loop, and the bytes issued at which
	 * the next one starts (UINT64_MAX: never); a new loop is due. */
	uint64_t loop_bytes, next_loop;
	bool reloop;
	/* loops above 1 with verify=: a read-back pass after each loop, as
	 * fio's, at each loop's end (next_loop). */
	bool verify_each;
	/* steadystate's sampler reads the progress each second: published at
	 * each completion, not a stats window behind. */
	bool publish_each;
	/* latency_target: the depth the search allows (the engine's
	 * otherwise), the search, what an I/O over the target asked for,
	 * and the read and write I/Os completed. */
	unsigned qd;
	uint8_t *busy; /* serialize_overlap: per slot, in flight; NULL: off */
	bool lt_on;
	struct lat_target lt;
	enum lat_target_act lt_act;
	uint64_t lt_ios;
};

/* The loop's state from the job, its files and engine; @now: when the
 * job started, before its files' cache was dropped. */
void loop_init(struct worker *w, struct loop *lp, uint64_t now);

/* worker.c: completions taken (at least @min, as the engine allows) and
 * counted: their number, or -errno with w->error set; everything queued
 * sent and everything in flight completed; the progress published. */
int loop_reap(struct worker *w, struct loop *lp, unsigned min);
void loop_quiesce(struct worker *w, struct loop *lp);
void loop_publish(struct worker *w, const struct loop *lp);

/* worker_pace.c.  Sleeps and spins until @until (at most the deadline),
 * reaping meanwhile. */
void loop_wait_until(struct worker *w, struct loop *lp, uint64_t until);
/* thinktime: whether one is due now (the count and time then taken as
 * the last think's), and the think itself. */
bool loop_think_due(const struct worker *w, struct loop *lp);
void loop_think(struct worker *w, struct loop *lp);
/* rate_min, rate_iops_min: true when a direction fell below its minimum
 * (w->error says so). */
bool loop_min_rate_failed(struct worker *w, struct loop *lp);
/* flow: the next I/O held back. */
void loop_flow_wait(struct worker *w, struct loop *lp);
/* max_latency: the job fails, naming the I/O. */
void loop_lat_exceeded(struct worker *w, const struct io_req *req, uint64_t lat, uint64_t max);
/* latency_target: an I/O completed at @now; after a round of the loop,
 * the search's next step. */
void loop_lat_target_done(struct worker *w, struct loop *lp, const struct io_req *req,
			  uint64_t now);
void loop_lat_target_step(struct worker *w, struct loop *lp);
/* worker_act.c.  --profile=act: @req closed a slice that failed ACT's
 * criteria; and the last slice judged as the clone ends, @at ns into its
 * measured time, if it was whole.  The job fails (w->error), as fio's
 * thread does. */
void loop_act_failed(struct worker *w, const struct io_req *req);
void loop_act_end(struct worker *w, uint64_t at);

#endif
