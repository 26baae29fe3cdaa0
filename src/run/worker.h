/* SPDX-License-Identifier: MIT */
/*
 * One job clone: its engine, files, buffers, offset generators and stats.
 * worker_setup() does everything that can fail before I/O; worker_run() is
 * the I/O loop, one loop for every engine: queue until the depth is full,
 * commit, reap, record.  The loop allocates nothing and takes no locks.
 */
#ifndef IOGAUGE_WORKER_H
#define IOGAUGE_WORKER_H

#include <sys/uio.h>
#include <stdatomic.h>

#include "engines/engine.h"
#include "files/files.h"
#include "plan/plan.h"
#include "run/flow.h"
#include "run/payload.h"
#include "stats/interval.h"
#include "stats/iolog.h"
#include "stats/iotrace.h"
#include "stats/stats.h"
#include "util/runclock.h"
#include "workload/rand.h"
#include "workload/replay.h"
#include "workload/workload.h"

struct run_watch;
struct status_area;
struct verify_async;

/* A running worker's progress, published every stats window for the live
 * status line; read by another thread, hence atomic (relaxed). */
struct worker_progress {
	_Atomic uint64_t issued;   /* bytes handed to the engine, ramp included */
	_Atomic uint64_t bytes[3]; /* measured read, write, trim bytes */
	_Atomic uint64_t ios[2];
	_Atomic uint64_t t_start; /* ns: the I/O loop's start; 0 before */
	_Atomic uint64_t limit;	  /* bytes the job may issue; UINT64_MAX: time-bound */
	_Atomic int state;	  /* 0 waiting, 1 running, 2 done */
};

/* MAP: every block written; RING: every write not yet read back; BATCH:
 * verify_backlog_batch of them, the oldest first. */
enum verify_pass { VERIFY_PASS_NONE, VERIFY_PASS_MAP, VERIFY_PASS_RING, VERIFY_PASS_BATCH };

/* verify=: see worker_verify.c. */
struct worker_verify {
	bool stamp;	  /* writes carry verify_stamp, and are mapped */
	bool check_reads; /* a read job: every read is checked (no generations known) */
	uint64_t unit;	  /* bytes per map entry */
	uint64_t *map;	  /* per unit of the regions: the generation written there */
	uint64_t *base;	  /* per file: its first map entry; [files.n]: the count */
	uint64_t n;	  /* map entries */
	uint64_t *ring;	  /* verify_backlog: map entries of the writes not yet read back */
	unsigned ring_n;
	enum verify_pass pass; /* the read-back pass under way */
	uint64_t pos;	       /* its next map entry, or ring slot */
	unsigned ring_at;      /* the oldest write's slot in the ring (a FIFO of ring_n) */
	unsigned left;	       /* ring entries the pass under way may still take */
	char *first;	       /* the first mismatch, formatted */
	uint64_t bad_off[10];  /* bytes: where the first mismatches were */
	/* trim_percentage: the map entries picked and not yet trimmed (a
	 * FIFO: how many, the oldest's slot, how many the pass under way
	 * may still take), the writes mapped and not yet read back (fio's
	 * io_hist_len), and the draws that pick. */
	uint64_t *trimq;
	unsigned trim_n, trim_at, trim_left;
	uint64_t hist;
	struct rng trim_rng;
	struct verify_async *async; /* verify_async: the checking threads */
	uint64_t state_writes;	    /* verify_state_load: the writes the state saved; 0: no limit */
	unsigned thread;	    /* the clone's place in the run, from 1: the state file's */
	uint64_t *order;	    /* experimental_verify: block starts in the order written */
	uint64_t order_n;
};

struct worker {
	const struct job *job;
	const struct job_plan *plan; /* the job's: its sizes, checked */
	unsigned clone;
	atomic_int *stop; /* the run's: Ctrl-C */
	atomic_int *halt; /* exitall ended it (never set outside a run) */
	struct engine eng;
	struct run_files files;
	struct workload wl;	   /* what to do next: offsets, directions, block sizes */
	struct rng rate_rng;	   /* rate_process=poisson's gaps */
	struct payload pl;	   /* what the bytes written are */
	struct iomem bufmem;	   /* the slots' buffers, depth x buf_size */
	void *locked;		   /* lockmem: the clone's mlocked mapping; NULL: none */
	size_t locked_len;	   /* bytes */
	uint64_t sfr_lo;	   /* sync_file_range: the bytes written since the last */
	uint64_t sfr_hi;	   /* ... lo > hi: none */
	size_t buf_size;	   /* bytes per slot */
	void **subs;		   /* sub_blocks: depth x N pieces, each its own allocation */
	struct iovec *iov;	   /* ... and the iovecs over them, N per slot */
	bool sub_copy;		   /* sub_block_io=copy: the worker copies to and from them */
	struct io_req *reqs;	   /* depth slots */
	struct io_req **free_reqs; /* stack of free slots */
	struct io_req **done;	   /* reap results */
	struct io_req **pending;   /* queued since the last commit */
	struct io_req *held;	   /* refused BUSY (or a sync due): goes out first */
	unsigned *file_inflight;   /* openfiles (files.lazy): I/Os in flight per file */
	bool eng_ready;		   /* ->init() succeeded: ->cleanup() is owed */
	unsigned nr_free;
	uint64_t writes_since_sync;
	struct run_stats stats;
	char *error;
	char *first_error;	      /* continue_on_error: the first error passed over */
	int first_error_no;	      /* ... and its errno, as fio's first_error */
	int error_no;		      /* errno of the error, as fio's "error" */
	struct interval iv;	      /* windows and logs: handed to the result after the run */
	struct worker_progress *prog; /* prog_own, or (a clone in a process) the shared one */
	struct worker_progress prog_own;
	struct worker_verify v;
	struct run_flow *flow; /* flow=: the run's shared flow, or NULL */
	uint64_t flow_mine;    /* ... and the I/Os it let this clone issue */
	struct iotrace trace;  /* write_iolog: each I/O issued */
	struct replay replay;  /* read_iolog: the I/Os to issue (n 0: off) */
	uint64_t replay_pos;   /* the next of them */
	uint64_t replay_t0;    /* ns: when the log's time 0 is, 0 without its times */
	/* MPI: the moment (ns, run_now) its ramp_time and runtime count
	 * from: the batch's agreed zero plus its startdelay; 0: its loop's
	 * own start. */
	uint64_t t_from;
	/* --status-interval, SIGUSR1: where the run's process asks for the
	 * stats so far (run/status.h), this clone's slot there, and the
	 * request last answered. */
	struct status_area *status;
	unsigned status_idx;
	uint32_t status_seen;
};

/* Whether the worker is to stop: the run was stopped, or its group halted. */
static inline bool worker_stopped(const struct worker *w)
{
	return atomic_load_explicit(w->stop, memory_order_relaxed) ||
	       atomic_load_explicit(w->halt, memory_order_relaxed);
}

/* The engine's part of worker_setup (its ring, AIO context, mappings,
 * registrations), and its undoing.  A clone run in a process of its own
 * is set up in the run's process, which lets its engine go before the
 * fork; the clone's process makes the engine again for itself, as an AIO
 * context and an io_uring ring belong to the process that made them.
 * Init: 0, or -errno with *cause set. */
int worker_engine_init(struct worker *w, char **cause);
void worker_engine_release(struct worker *w);
/* The I/O buffers let go.  The run's process does so for every clone
 * once all are set up, before it starts any: each clone makes its own,
 * and no clone's process inherits another's. */
void worker_buffers_release(struct worker *w);
/* The slots' I/O buffers (and sub-block pieces), allocated, and with
 * @touch filled: every page written.  0, or -errno with *cause set; what
 * was made before the failure is left for worker_cleanup to release. */
int worker_buffers_make(struct worker *w, bool touch, char **cause);
/* The buffers let go and made again, filled, by the clone's own thread or
 * process before its clock starts: so that no page of them is first
 * touched (and faulted in, or copied on write from the run's process)
 * inside the measured time, as fio's processes make their own. */
int worker_buffers_renew(struct worker *w, char **cause);
/* The rest of what the loop writes, faulted in by the clone before its
 * clock starts, as its buffers are: its stats, random maps, verify map
 * and the first chunk of each per-I/O log. */
void worker_prefault(struct worker *w);
/* @jp: the job's plan (plan_jobs), which outlives the worker: its depth,
 * block sizes, slot size and regions, checked.
 * @thread: the clone's place among all clones of the run, from 1 (fio's
 * thread number, which its random seeds follow).  @watch (may be NULL):
 * its layout hook sees a long layout or pre_read, which *@stop ends
 * (-EINTR).  0, or -errno with *cause set; on error nothing is left open. */
int worker_setup(struct worker *w, const struct job_plan *jp, unsigned clone, unsigned thread,
		 atomic_int *stop, const struct run_watch *watch, char **cause);
/* Binds the calling thread to the job's cpus_allowed (one CPU of it with
 * cpus_allowed_policy=split); 0, or -errno with w->error set. */
int worker_pin(struct worker *w);
/* The calling thread's CPU nice value (nice) and, when the job gives
 * prio or prioclass, its I/O priority (run/prio.c); 0, or -errno with
 * w->error set. */
int worker_prio(struct worker *w);
/* The ioprio value of class @prioclass (0: best-effort) and level @prio. */
unsigned worker_ioprio_value(unsigned prioclass, unsigned prio);
/* cmdprio*: the clone's latency histogram per priority of each direction
 * whose I/Os the engine sends with priorities of their own (its
 * cmdprios), when the latency they hold (@which, STATS_H_*: clat, or lat
 * with lat_percentiles) is timed.  Before the run. */
void worker_prio_stats(struct worker *w, unsigned which);
/* flow=: the clone's I/Os and weight leave its flow, once (at the end of
 * worker_run, or when the clone ends without running), so that the
 * others of the flow are not held back for it. */
void worker_flow_leave(struct worker *w);
/* Between worker_setup.c and the loop: the latencies the loop records
 * (STATS_H_* bits, as fio's disable_* say), and the histograms of the
 * directions the job does, made and faulted in. */
unsigned worker_lat_timed(const struct worker *w);
void worker_hists_prepare(struct worker *w);
/* Runs the job's I/O; an I/O error stops it and is left in w->error. */
void worker_run(struct worker *w);
/* verify= (worker_verify.c).  Set-up (@thread: the clone's place among
 * all clones of the run, from 1): 0, or -errno with *cause set. */
int worker_verify_setup(struct worker *w, uint64_t max_bs, unsigned thread, char **cause);
void worker_verify_cleanup(struct worker *w);
/* A write is about to be queued: stamped and mapped.  True when the
 * verify_backlog is full: time to read back. */
bool worker_verify_written(struct worker *w, struct io_req *req);
/* verify_async: its checking threads started, by the clone's own thread
 * as its I/O starts; a failure is left in w->error.  They are joined by
 * worker_verify_finish. */
void worker_verify_start(struct worker *w);
/* trim_percentage: the next block picked to be trimmed, in @req, while a
 * trim pass is under way (w->v.trim_left); false when there is none. */
bool worker_verify_trim_next(struct worker *w, struct io_req *req);
/* A write failed and was passed over: its block is unknown now. */
void worker_verify_unwritten(struct worker *w, const struct io_req *req);
void worker_verify_begin(struct worker *w, enum verify_pass pass);
/* The next block of the pass as a read in @req; false when there is none. */
bool worker_verify_next(struct worker *w, struct io_req *req);
/* A read back (or, in a read job, any read) has completed: checked. */
void worker_verify_read(struct worker *w, const struct io_req *req);
/* After the run: the mismatches become the job's error (or, with
 * continue_on_error=verify, its errors passed over). */
void worker_verify_finish(struct worker *w);
/* Releases everything; with @remove_created, removes the files this run
 * created (unlink=1, or a run that never started). */
void worker_cleanup(struct worker *w, bool remove_created);

#endif
