/* SPDX-License-Identifier: MIT */
/*
 * The worker's I/O loop, one job clone's from first I/O to last.  It serves
 * sync and async engines alike (queue / commit / reap) and does no
 * allocation, locking or stdio; errors are formatted once, when they stop
 * the worker.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "files/filelock.h"
#include "jobfile/options.h"
#include "run/loop.h"
#include "run/run.h"
#include "run/status.h"
#include "run/worker.h"
#include "workload/lattarget.h"

/* sub_block_io=copy: a write's bytes gathered from the slot's pieces, a
 * read's scattered into them: SQLIO's copy mode, a memcpy per I/O. */
static void sub_copy(const struct worker *w, const struct io_req *req, bool in)
{
	const struct iovec *v = &w->iov[(size_t)req->idx * w->job->sub_blocks];
	char *p = req->buf;
	unsigned k;

	for (k = 0; k < w->job->sub_blocks; k++, p += v[k - 1].iov_len)
		if (in)
			memcpy(p, v[k].iov_base, v[k].iov_len);
		else
			memcpy(v[k].iov_base, p, v[k].iov_len);
}

/* The stats direction of an op: read, write, trim (as fio's ddir), sync. */
static unsigned op_dir(enum io_op op)
{
	switch (op) {
	case IO_OP_READ:
		return STAT_READ;
	case IO_OP_WRITE:
		return STAT_WRITE;
	case IO_OP_TRIM:
		return STAT_TRIM;
	default:
		return STAT_SYNC;
	}
}

/*
 * The rate's schedule (rate, rate_iops, rate_process): the I/O's intended
 * start, from the arrival process alone, as fio's usec_for_io: linear
 * steps of one I/O's time at the rate, or, with poisson, exponential gaps
 * of that mean.  A late I/O keeps its place: the schedule does not wait
 * for the generator, so its lag and response time show a stall.
 */
static void schedule(struct worker *w, struct loop *lp, struct io_req *req)
{
	unsigned d = op_dir(req->op);
	double gap = lp->rate.ns_per_io[d] ? lp->rate.ns_per_io[d]
					   : lp->rate.ns_per_byte[d] * (double)req->len;

	if (gap == 0)
		return; /* this direction has no cap (t_intended stays 0) */
	if (w->job->rate_process == RATE_POISSON)
		gap *= -log(1.0 - rng_unit(&w->rate_rng));
	req->t_intended = lp->rate.due[d];
	lp->rate.due[d] += (uint64_t)gap;
}

/* With error_dump, the errors passed over are listed after the first, in
 * its text, up to this many bytes (a clone in a process hands its text
 * back through a slot of 4 KiB). */
#define ERROR_DUMP_MAX 3072

/* An I/O failed.  continue_on_error and ignore_error say whether it is
 * counted and passed over (a sync's and a trim's count as a write's, an
 * EILSEQ as a verify's, as fio's) or stops the job. */
static void fail_io(struct worker *w, const struct io_req *req)
{
	const char *why = req->res < 0 ? strerror((int)-req->res) : "short transfer (end of file)";
	int err = req->res < 0 ? (int)-req->res : EIO;
	enum error_type t = job_error_type(req->op == IO_OP_READ, err);
	bool go_on = job_error_passes(w->job, t, err);
	char *msg;

	if (w->error)
		return; /* stopped already */
	if (go_on) {
		w->stats.errors_listed += job_error_listed(w->job, t, err);
		if (w->stats.errors++ && !w->job->error_dump)
			return; /* passed over after the first */
		if (w->first_error && strlen(w->first_error) > ERROR_DUMP_MAX)
			return; /* the list is full: the count has them */
	}
	if (req->op == IO_OP_FSYNC || req->op == IO_OP_FDATASYNC)
		/* A sync covers every write before it: no offset of its own. */
		msg = xasprintf("%s: %s: %s", w->files.v[req->file].path, io_op_names[req->op],
				why);
	else
		/* A file operation's engine names its own operation. */
		msg = xasprintf("%s: %s at offset %llu, size %zu: %s", w->files.v[req->file].path,
				req->fake ? w->eng.ops->name : io_op_names[req->op],
				(unsigned long long)req->off, req->len, why);
	if (go_on && w->first_error) {
		size_t n = strlen(w->first_error) + strlen(msg);
		char *all = xasprintf("%s\n  then: %s%s", w->first_error, msg,
				      n > ERROR_DUMP_MAX ? "\n  (the rest are counted, not listed)"
							 : "");

		free(w->first_error);
		free(msg);
		w->first_error = all;
	} else if (go_on) {
		w->first_error = msg;
		w->first_error_no = err;
	} else {
		w->error = msg;
		w->error_no = err;
	}
}

static void engine_failed(struct worker *w, const char *what, int err)
{
	if (!w->error) {
		w->error = xasprintf("ioengine=%s: %s: %s", w->eng.ops->name, what, strerror(-err));
		w->error_no = -err;
	}
}

/* ---- windows and logs (stats/interval.c), and the status line's progress ---- */

/* What the live status line reads, from another thread. */
void loop_publish(struct worker *w, const struct loop *lp)
{
	unsigned d;

	for (d = 0; d < 2; d++) {
		atomic_store_explicit(&w->prog->bytes[d], w->stats.dir[d].bytes,
				      memory_order_relaxed);
		atomic_store_explicit(&w->prog->ios[d], w->stats.dir[d].ios, memory_order_relaxed);
	}
	atomic_store_explicit(&w->prog->bytes[2], w->stats.dir[STAT_TRIM].bytes,
			      memory_order_relaxed);
	atomic_store_explicit(&w->prog->issued, lp->issued, memory_order_relaxed);
}

/* A window closes (see interval.h); the stats window's also publishes
 * the progress. */
static void tick(struct worker *w, const struct loop *lp, uint64_t now)
{
	if (now >= w->iv.win.next)
		loop_publish(w, lp);
	interval_tick(&w->iv, &w->stats, now);
}

/* fill_device: a write that finds the device or filesystem full ends the
 * job, not as an error; as fio's, it counts as an I/O (no bytes, no
 * latency), and nothing more is issued.  True when @req was that. */
static bool full(struct worker *w, struct loop *lp, struct io_req *req)
{
	if (!w->job->fill_device || req->op != IO_OP_WRITE ||
	    (req->res != -ENOSPC && req->res != -EDQUOT))
		return false;
	w->stats.dir[STAT_WRITE].ios++;
	worker_verify_unwritten(w, req);
	lp->limit = lp->issued;
	w->free_reqs[w->nr_free++] = req;
	return true;
}

/* openfiles: @req's file is opened if it is not (files.lazy).  0, or
 * -errno with w->error set. */
static int lazy_use(struct worker *w, struct io_req *req)
{
	char *cause = NULL;
	int ret = 0;

	if (w->files.v[req->file].fd < 0) {
		ret = files_lazy_open(&w->files, req->file, w->job, &cause);
		if (ret && !w->error) {
			w->error = cause;
			w->error_no = -ret;
		} else if (ret) {
			free(cause);
		}
	}
	req->fd = w->files.v[req->file].fd;
	return ret;
}

/* openfiles: one I/O of @req's file less in flight; the file is closed
 * once none is and the workload is done with it (fio's closing file). */
static void lazy_done(struct worker *w, const struct io_req *req)
{
	if (!--w->file_inflight[req->file] && !(w->wl.fstate[req->file] & WL_FILE_OPEN))
		files_lazy_close(&w->files, req->file, w->job);
}

/* ramp_time ends, as fio 3.33's, at the first I/O started or completed
 * once it has passed (@now), not at the moment it passes: the measured
 * time and the runtime start there (under MPI the end stays agreed).  A device that completes in bursts
 * (blk-throttle: a slice's I/Os every 100 ms) is then not measured with
 * the idle gap before its first burst (86% of its cap here before, where
 * fio read 100%: bench/throttle.py). */
static void ramp_over(struct worker *w, struct loop *lp, uint64_t now)
{
	unsigned d;

	lp->ramping = false;
	lp->ramp_end = lp->t_measure = now;
	/* Under MPI the end stays the agreed moment: every rank ends at once. */
	if (w->job->runtime && !w->t_from)
		lp->deadline = now + w->job->runtime;
	/* A rate's schedule starts again, lag or lead forgotten, as fio
	 * resets its rate counters there. */
	for (d = 0; d < DDIR_COUNT; d++)
		lp->rate.due[d] = now;
	/* The logs' times count from here too: fio 3.33 resets its epoch as
	 * its ramp ends (reset_all_stats), so its first entry is at 0. */
	interval_start(&w->iv, &w->stats, now, now);
}

static void complete(struct worker *w, struct loop *lp, struct io_req *req, uint64_t now)
{
	bool rw = req->op == IO_OP_READ || req->op == IO_OP_WRITE || req->op == IO_OP_TRIM;
	unsigned sd = op_dir(req->op);

	lp->now = now;
	if (w->file_inflight)
		lazy_done(w, req);
	if (lp->busy)
		lp->busy[req->idx] = 0;

	if (req->res < 0 || (rw && (uint64_t)req->res != req->len)) {
		if (full(w, lp, req))
			return;
		fail_io(w, req);
		worker_verify_unwritten(w, req);
		w->free_reqs[w->nr_free++] = req;
		return;
	}
	if (w->sub_copy && req->op == IO_OP_READ)
		sub_copy(w, req, false);
	if (req->op == IO_OP_READ && (lp->verifying || w->v.check_reads))
		worker_verify_read(w, req);
	lp->nr_done += rw;
	if (now >= lp->ramp_end) {
		uint64_t slat;

		if (lp->ramping)
			ramp_over(w, lp, now);
		slat = req->queued && lp->want_slat ? req->t_issue - req->t_start : UINT64_MAX;

		/* A file operation's engine (see io_req): its time is
		 * recorded unless disable_lat, as fio's. */
		if (req->fake)
			stats_record(&w->stats.dir[sd], UINT64_MAX,
				     lp->want_lat ? req->op_ns : UINT64_MAX, UINT64_MAX, req->len);
		else
			stats_record(&w->stats.dir[sd], slat,
				     lp->want_clat ? now - req->t_issue : UINT64_MAX,
				     lp->want_lat ? now - req->t_start : UINT64_MAX,
				     rw ? req->len : 0);
		/* cmdprio*: clat (lat with lat_percentiles) per priority, as fio. */
		if (w->stats.dir[sd].prio)
			prio_stats_record(
				w->stats.dir[sd].prio, req->ioprio,
				now - (w->job->lat_percentiles ? req->t_start : req->t_issue));
		/* A rate's schedule only: read_iolog's times are not one. */
		if (req->t_intended && lp->rate.on) {
			hist_record(&w->stats.dir[sd].resp, now - req->t_intended);
			hist_record(&w->stats.dir[sd].lag, req->t_start - req->t_intended);
		}
		/* --profile=act: fio counts the total latency, when measured. */
		if (w->stats.act && rw && lp->want_lat &&
		    act_record(w->stats.act, now - lp->t_measure, now - req->t_start))
			loop_act_failed(w, req);
		/* op_dir again rather than sd: sd kept live across
		 * stats_record costs the hot path registers. */
		if (w->iv.log_each && rw)
			interval_log_io(&w->iv, op_dir(req->op), req->len, req->off, req->t_start,
					req->t_issue, now, slat, req->ioprio);
	}
	/* As fio: max_latency is judged on the total latency, when it is
	 * measured (not with disable_lat). */
	if (lp->lt_on && rw)
		loop_lat_target_done(w, lp, req, now);
	if (rw && lp->want_lat && w->job->max_latency[sd] &&
	    now - req->t_start > w->job->max_latency[sd])
		loop_lat_exceeded(w, req, now - req->t_start, w->job->max_latency[sd]);
	if (now >= w->iv.tick_next)
		tick(w, lp, now);
	else if (lp->publish_each)
		loop_publish(w, lp);
	/* sync_file_range: as fio's, the span the writes since the last
	 * one covered (in the file of the write that calls it). */
	if (req->op == IO_OP_WRITE && lp->sync_op == IO_OP_SYNC_FILE_RANGE) {
		if (req->off < w->sfr_lo)
			w->sfr_lo = req->off;
		if (req->off + req->len > w->sfr_hi)
			w->sfr_hi = req->off + req->len;
	}
	if (req->op == IO_OP_WRITE && lp->sync_every && ++w->writes_since_sync >= lp->sync_every) {
		/* The slot carries the sync; it goes out before any new I/O. */
		w->writes_since_sync = 0;
		req->op = lp->sync_op;
		req->len = 0;
		if (lp->sync_op == IO_OP_SYNC_FILE_RANGE) {
			req->off = w->sfr_lo;
			req->len = (size_t)(w->sfr_hi - w->sfr_lo);
			req->sfr_flags = w->job->sfr_flags;
			w->sfr_lo = UINT64_MAX;
			w->sfr_hi = 0;
		}
		req->t_start = now;
		req->t_intended = 0;
		w->held = req;
		return;
	}
	w->free_reqs[w->nr_free++] = req;
}

/* Submits what was queued and stamps it: the I/Os reached the kernel now.
 * One read for the batch, after the engine's commit, as fio's engines
 * stamp issue_time; none when neither clat nor slat is wanted (fio's
 * fio_fill_issue_time), and t_issue stays the I/O's start. */
static void commit(struct worker *w, struct loop *lp)
{
	int r = w->eng.ops->commit(&w->eng);
	uint64_t now;
	unsigned i;

	if (r < 0)
		engine_failed(w, "submitting I/O", r);
	if (lp->queued)
		w->stats.submit[stats_batch_bucket(lp->queued)]++;
	if (lp->time_issue) {
		now = run_now();
		for (i = 0; i < lp->queued; i++)
			w->pending[i]->t_issue = now;
	}
	lp->queued = 0;
}

/* The completion time of what a reap (or a sync queue) just returned:
 * one read for the batch, as fio's init_icd (every I/O of the batch had
 * completed when the reap returned; a read per I/O would only add the
 * time spent counting the ones before it).  Without per-I/O times
 * (gtod_reduce), a read every 64 batches keeps the deadline and the
 * windows going, as fio's ts_cache (its mask is 63 then). */
static uint64_t done_time(struct loop *lp)
{
	if (lp->time_done || !(++lp->stale & 63))
		lp->now = run_now();
	return lp->now;
}

/* fio's IO depths: the I/Os in flight once this one is queued; as fio,
 * not counted during ramp_time. */
static void note_depth(struct worker *w, const struct loop *lp, const struct io_req *req,
		       unsigned n)
{
	if (req->t_start >= lp->ramp_end)
		w->stats.depth[stats_depth_bucket(n)]++;
	if (n > w->stats.depth_max)
		w->stats.depth_max = n;
}

/* Whether @req's bytes meet those of an I/O in flight (@busy) on its file. */
static bool overlaps_in_flight(const struct worker *w, const struct io_req *req,
			       const uint8_t *busy)
{
	unsigned k;

	for (k = 0; k < w->eng.depth; k++) {
		const struct io_req *o = &w->reqs[k];

		if (busy[k] && o != req && o->file == req->file && o->off < req->off + req->len &&
		    req->off < o->off + o->len)
			return true;
	}
	return false;
}

/* read_iolog: the next logged I/O, where the log put it. */
static void replay_next(struct worker *w, struct io_req *req)
{
	const struct replay_io *io = &w->replay.v[w->replay_pos++];
	const struct run_file *f = &w->files.v[io->file];

	req->op = (enum io_op)io->op;
	req->discard = io->op == IO_OP_TRIM && f->blkdev;
	req->fd = f->fd;
	req->file = io->file;
	req->off = io->off;
	req->len = io->len;
}

/* Hands I/Os to the engine until it is full, the job has issued all it
 * may, or (sync engines) depth I/Os have run, so the stop flag and the
 * deadline are looked at between them. */
static void fill(struct worker *w, struct loop *lp)
{
	const struct engine_ops *ops = w->eng.ops;
	unsigned n;

	for (n = 0; n < w->eng.depth && !w->error; n++) {
		struct io_req *req = w->held;
		enum engine_q q;

		if (!req && lp->verifying) {
			if (!w->nr_free || !worker_verify_next(w, w->free_reqs[w->nr_free - 1]))
				break;
			req = w->free_reqs[--w->nr_free];
			req->t_start = 0;
			req->t_intended = 0;
			req->ioprio = lp->ioprio;
		} else if (!req && w->v.trim_left) {
			/* trim_percentage: blocks written are trimmed again, once
			 * their writes have completed (none may land after). */
			if (lp->inflight || !w->nr_free ||
			    !worker_verify_trim_next(w, w->free_reqs[w->nr_free - 1]))
				break;
			req = w->free_reqs[--w->nr_free];
			req->t_start = 0;
			req->t_intended = 0;
			req->ioprio = lp->ioprio;
		} else if (!req) {
			if (!w->nr_free || lp->issued >= lp->limit || lp->inflight >= lp->qd ||
			    (w->replay.n && w->replay_pos >= w->replay.n))
				break;
			if (w->flow && flow_held(w->flow, &w->flow_mine, w->job->flow)) {
				lp->flow_wait = true;
				break;
			}
			if (lp->issued >= lp->next_loop) {
				lp->next_loop += lp->loop_bytes;
				lp->reloop = true;
				break;
			}
			req = w->free_reqs[--w->nr_free];
			if (w->replay.n) {
				replay_next(w, req);
			} else if (!workload_next(&w->wl, req, &lp->rate, &lp->limit, lp->issued)) {
				w->nr_free++; /* no I/O: the workload has ended */
				lp->limit = lp->issued;
				break;
			}
			if (req->op == IO_OP_WRITE) {
				w->pl.writes++;
				if (w->pl.refill || w->pl.scramble)
					payload_write(&w->pl, req, w->iov);
				if (w->v.stamp && worker_verify_written(w, req))
					lp->backlog = true;
				if (w->sub_copy)
					sub_copy(w, req, true);
			}
			lp->issued += req->len;
			lp->nr_issued++;
			lp->last_dir = op_dir(req->op);
			req->ioprio = lp->ioprio;
			/* number_ios reached: the job has issued all it may. */
			if (lp->ios_left != UINT64_MAX && !--lp->ios_left)
				lp->limit = lp->issued;
			req->t_start = 0;
			req->t_intended = 0;
			if (lp->rate.on)
				schedule(w, lp, req);
			/* read_iolog's times: held until due, as a rate's I/O is. */
			if (w->replay_t0)
				req->t_intended =
					w->replay_t0 + w->replay.v[w->replay_pos - 1].t * 1000;
		}
		if (!req->t_start) {
			/* fio stamps start_time here, once the I/O is made (not
			 * with disable_lat); pacing needs the time too. */
			uint64_t now =
				lp->time_start || lp->rate.on || w->replay_t0 ? run_now() : lp->now;

			/* Not due yet: held, and the loop waits for it. */
			if (req->t_intended > now) {
				w->held = req;
				break;
			}
			req->t_start = now;
			if (lp->ramping && now >= lp->ramp_end) {
				ramp_over(w, lp, now);
				/* This I/O is the new schedule's first. */
				if (lp->rate.on)
					schedule(w, lp, req);
			}
		}
		req->t_issue = req->t_start;
		req->queued = false;
		if (w->file_inflight && lazy_use(w, req)) {
			if (req != w->held)
				w->free_reqs[w->nr_free++] = req;
			break;
		}
		/* serialize_overlap: as fio's, an I/O over one in flight waits. */
		if (lp->busy && lp->inflight && overlaps_in_flight(w, req, lp->busy)) {
			w->held = req;
			break;
		}
		if (lp->dry && !lp->verifying) {
			/* verify_only: the I/O is made, mapped and counted, not issued;
			 * verify_state_load: up to the writes the state saved. */
			req->res = (int64_t)req->len;
			q = ENGINE_Q_DONE;
			if (w->v.state_writes && w->pl.writes >= w->v.state_writes)
				lp->limit = lp->issued;
		} else if (w->job->lockfile && w->files.v[req->file].lock) {
			/* As fio: the file's lock is held around the queue call. */
			struct files_lock *l = w->files.v[req->file].lock;

			files_lock(l, w->job->lockfile, req->op == IO_OP_READ);
			q = ops->queue(&w->eng, req);
			files_unlock(l, w->job->lockfile);
		} else {
			q = ops->queue(&w->eng, req);
		}
		if (q == ENGINE_Q_BUSY) {
			w->held = req;
			break;
		}
		w->held = NULL;
		if (w->file_inflight)
			w->file_inflight[req->file]++;
		/* write_iolog: an I/O the engine took, as fio logs it in td_io_queue. */
		if (w->trace.on)
			iotrace_add(&w->trace, req->t_start, req->file, req->op, req->off,
				    req->len);
		if (q == ENGINE_Q_DONE) {
			/* As fio: a sync I/O is a submission and a reap of one. */
			w->stats.submit[1]++;
			w->stats.complete[1]++;
			note_depth(w, lp, req, lp->inflight + 1);
			complete(w, lp, req, done_time(lp));
		} else {
			req->queued = true;
			if (lp->busy)
				lp->busy[req->idx] = 1;
			w->pending[lp->queued++] = req;
			note_depth(w, lp, req, ++lp->inflight);
			if (lp->queued >= lp->batch)
				commit(w, lp);
		}
		if (lp->backlog)
			break;
		if (w->eng.think && !lp->verifying) {
			lp->think = true; /* the engine's own pause (cpuio) */
			break;
		}
		if (w->job->thinktime && !lp->verifying && loop_think_due(w, lp)) {
			lp->think = true;
			break;
		}
	}
}

/* The count reaped, or -errno (then w->error says so). */
int loop_reap(struct worker *w, struct loop *lp, unsigned min)
{
	/* As fio: at most iodepth_batch_complete_max, which is never below
	 * the min (so by default one: reap one, queue one, the queue stays
	 * full); both 0 polls for whatever is there. */
	unsigned max = lp->reap_max && lp->reap_max < lp->inflight ? lp->reap_max : lp->inflight;
	int n = w->eng.ops->reap(&w->eng, min < max ? min : max, max, w->done);
	uint64_t now;
	int i;

	if (n < 0) {
		engine_failed(w, "reaping completions", n);
		return n;
	}
	if (n <= 0)
		return n;
	w->stats.complete[stats_batch_bucket((unsigned)n)]++;
	now = done_time(lp);
	for (i = 0; i < n; i++) {
		lp->inflight--;
		complete(w, lp, w->done[i], now);
	}
	return n;
}

/* What is queued goes out, and what is in flight completes and is counted
 * (after an error too, so that no I/O still lands in a buffer about to be
 * freed).  An engine that returns nothing (its submit failed) ends it. */
void loop_quiesce(struct worker *w, struct loop *lp)
{
	if (lp->queued)
		commit(w, lp);
	while (lp->inflight && loop_reap(w, lp, lp->inflight) > 0)
		;
}

/* unlink_each_loop: a new loop starts, as fio's: what is in flight
 * completes, the engine lets go of the files, which are removed and opened
 * again (files_reloop), and the engine is set up anew on them. */
static void reloop(struct worker *w, struct loop *lp)
{
	char *cause = NULL;
	int ret;

	lp->reloop = false;
	loop_quiesce(w, lp);
	if (w->error)
		return;
	worker_engine_release(w);
	ret = files_reloop(&w->files, job_modifies(w->job), &cause);
	if (!ret)
		ret = worker_engine_init(w, &cause);
	if (ret) {
		w->error = cause;
		w->error_no = -ret;
	}
}

static void status_copy(struct worker *w, const struct loop *lp, const struct rusage *ru0,
			bool fin);

/* A read-back pass (verify=): what is in flight completes, then the blocks
 * worker_verify_next hands out are read and checked, at the job's depth,
 * until there are none.  A stop or an error ends it early. */
static void verify_pass(struct worker *w, struct loop *lp, enum verify_pass pass)
{
	/* A write the engine refused goes out first (fill stops after it while
	 * the backlog is owed): no block is read while its write is pending. */
	while (w->held && !w->error && !worker_stopped(w)) {
		fill(w, lp);
		if (lp->queued && !w->error)
			commit(w, lp);
		if (w->held && lp->inflight && !w->error)
			loop_reap(w, lp, 1);
	}
	lp->backlog = false;
	loop_quiesce(w, lp);
	worker_verify_begin(w, pass);
	lp->verifying = true;
	while (!worker_stopped(w) && !w->error) {
		if (w->status && status_asked(w->status, w->status_seen))
			status_copy(w, lp, NULL, false);
		fill(w, lp);
		if (lp->queued && !w->error)
			commit(w, lp);
		if (lp->inflight && !w->error)
			loop_reap(w, lp, 1);
		else if (!w->held && w->v.pass == VERIFY_PASS_NONE)
			break;
	}
	loop_quiesce(w, lp);
	lp->verifying = false;
}

/* The windows open (after ramp_time), and the status line learns the
 * clone's start and limit. */
static void windows_init(struct worker *w, const struct loop *lp)
{
	atomic_store_explicit(&w->prog->limit, lp->limit, memory_order_relaxed);
	atomic_store_explicit(&w->prog->t_start, lp->now, memory_order_relaxed);
	interval_start(&w->iv, &w->stats, lp->now, lp->ramp_end);
}

/* The logs' partial windows written, and the progress published. */
static void windows_end(struct worker *w, const struct loop *lp, uint64_t now)
{
	interval_end(&w->iv, &w->stats, now, lp->ramp_end);
	loop_publish(w, lp);
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000;
}

static void rusage_delta(struct run_rusage *out, const struct rusage *a, const struct rusage *b)
{
	out->usr = tv_ns(&b->ru_utime) - tv_ns(&a->ru_utime);
	out->sys = tv_ns(&b->ru_stime) - tv_ns(&a->ru_stime);
	out->ctx = (uint64_t)(b->ru_nvcsw - a->ru_nvcsw) + (uint64_t)(b->ru_nivcsw - a->ru_nivcsw);
	out->majf = (uint64_t)(b->ru_majflt - a->ru_majflt);
	out->minf = (uint64_t)(b->ru_minflt - a->ru_minflt);
}

/* The run's process asks for the stats so far (run/status.h): the
 * measured time and CPU up to now (@ru0 NULL: the CPU as last copied),
 * copied with them; @fin as it ends. */
static void status_copy(struct worker *w, const struct loop *lp, const struct rusage *ru0, bool fin)
{
	struct rusage ru;
	uint64_t now = run_now();

	if (!fin) {
		w->stats.elapsed = now > lp->t_measure ? now - lp->t_measure : 0;
		w->stats.runtime_sum = w->stats.elapsed / 1000000;
	}
	if (!fin && ru0) {
		getrusage(RUSAGE_THREAD, &ru);
		rusage_delta(&w->stats.ru, ru0, &ru);
	}
	w->status_seen = status_answer(w->status, w->status_idx, &w->stats, w->eng.ops->name,
				       w->eng.depth, w->iv.t0, fin);
}

/* write_iolog's file, after the run; a failure is the job's error. */
static void trace_write(struct worker *w, uint64_t t0, uint64_t t_end)
{
	const char **paths = xcalloc(w->files.n ? w->files.n : 1, sizeof(*paths));
	char *cause = NULL;
	unsigned i;
	int ret;

	for (i = 0; i < w->files.n; i++)
		paths[i] = w->files.v[i].path;
	ret = iotrace_write(&w->trace, w->job->write_iolog, paths, w->files.n, t0, t_end, &cause);
	free(paths);
	if (ret && !w->error) {
		w->error_no = -ret;
		w->error = cause;
	} else {
		free(cause);
	}
}

void worker_run(struct worker *w)
{
	const struct job *job = w->job;
	struct rusage ru0, ru1;
	struct loop lp;
	uint64_t now = run_now(), min, t0 = now;
	unsigned i;

	/* The job's time starts before its files' cache is dropped, as fio's
	 * runtime does (it invalidates as it opens them, in the measured
	 * time): the drop writes back the dirty pages first, which can take
	 * as long as the I/O that follows. */
	getrusage(RUSAGE_THREAD, &ru0);
	if (w->status)
		status_begin(w->status, w->status_idx);
	/* Dropped as the job starts, not at set-up: an earlier job may have
	 * filled the cache since. */
	if (job->invalidate && !job->pre_read && !(w->eng.ops->flags & ENGINE_F_NOFILES))
		for (i = 0; i < w->files.n; i++)
			posix_fadvise(w->files.v[i].fd, (off_t)w->files.v[i].start,
				      (off_t)w->files.v[i].len, POSIX_FADV_DONTNEED);
	/* fadvise_hint, fio's default: random access (no read-ahead) for a
	 * random job, sequential (more of it) for the others. */
	if (job->fadvise_hint != FADV_HINT_NONE && !(w->eng.ops->flags & ENGINE_F_NOFILES))
		for (i = 0; i < w->files.n; i++)
			posix_fadvise(w->files.v[i].fd, (off_t)w->files.v[i].start,
				      (off_t)w->files.v[i].len,
				      job->fadvise_hint == FADV_HINT_RANDOM ||
						      (job->fadvise_hint == FADV_HINT_WORKLOAD &&
						       job_is_random(job->rw))
					      ? POSIX_FADV_RANDOM
					      : POSIX_FADV_SEQUENTIAL);
	loop_init(w, &lp, now);
	worker_verify_start(w);
	if (job->create_only)
		lp.limit = 0; /* the files are laid out: that was all */
	/* The log's times count from here; replay_no_stall drops them. */
	if (w->replay.n && !job->replay_no_stall)
		w->replay_t0 = lp.now ? lp.now : 1;
	/* Pacing sleeps: wake when asked, not up to 50 us later. */
	if (lp.rate.on || job->thinktime || w->eng.think || job->read_iolog)
		(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	windows_init(w, &lp);
	if (w->status)
		status_copy(w, &lp, &ru0, false);
	for (;;) {
		/* The last completion's clock read serves: no extra read per I/O. */
		if (worker_stopped(w) || w->error || lp.now >= lp.deadline)
			break;
		if (w->status && status_asked(w->status, w->status_seen))
			status_copy(w, &lp, &ru0, false);
		if (lp.min_rate && lp.now >= lp.ramp_end && loop_min_rate_failed(w, &lp))
			break;
		/* As fio: trims trim_percentage owes still go out. */
		if (!w->held && lp.issued >= lp.limit && !lp.inflight && !w->v.trim_left)
			break;
		fill(w, &lp);
		if (lp.queued && !w->error)
			commit(w, &lp);
		if (lp.think && !w->error) {
			loop_think(w, &lp);
			continue;
		}
		if (lp.flow_wait && !w->error) {
			loop_flow_wait(w, &lp);
			continue;
		}
		if (lp.reloop && !w->error) {
			/* A loop has ended: fio reads back what it wrote, then
			 * (unlink_each_loop) starts the next on new files. */
			if (lp.verify_each && !worker_stopped(w))
				verify_pass(w, &lp, w->v.ring ? VERIFY_PASS_RING : VERIFY_PASS_MAP);
			if (job->unlink_each_loop && !w->error)
				reloop(w, &lp);
			lp.reloop = false;
			continue;
		}
		if (lp.backlog && !w->error) {
			verify_pass(w, &lp, VERIFY_PASS_BATCH);
			continue;
		}
		if (w->held && !w->held->t_start && !w->error) {
			loop_wait_until(w, &lp, w->held->t_intended);
			continue;
		}
		if (lp.inflight && !w->error) {
			bool full = lp.inflight >= w->eng.depth;

			min = job->iodepth_batch_complete_min;
			/* 0 (iodepth_batch_complete_min=0) polls without waiting. */
			loop_reap(w, &lp, (unsigned)(min < lp.inflight ? min : lp.inflight));
			/* iodepth_low, as fio's wait_for_completions: a full queue
			 * drains to it, a completion at a time, before it is filled. */
			while (full && lp.inflight > lp.low && !w->error &&
			       loop_reap(w, &lp, 1) > 0)
				;
			/* thinktime_blocks of completions may have come in. */
			if (job->thinktime && job->thinktime_blocks_type == THINK_COMPLETE &&
			    !w->error && loop_think_due(w, &lp)) {
				loop_think(w, &lp);
				continue;
			}
		}
		if (lp.lt_on && !w->error)
			loop_lat_target_step(w, &lp);
	}
	loop_quiesce(w, &lp); /* after Ctrl-C and errors too */
	if (w->stats.act && !worker_stopped(w) && (now = run_now()) > lp.t_measure)
		loop_act_end(w, now - lp.t_measure);
	free(lp.busy);
	lp.busy = NULL;
	if (lp.lt_on)
		w->stats.latency_depth = lp.qd;
	/* As fio: the read-back of what was written, once the write phase
	 * has run to its end; not when time_based or the runtime ended it. */
	if (w->v.stamp && job->do_verify && !job->time_based && !worker_stopped(w) && !w->error) {
		if (lp.issued < lp.limit)
			w->stats.verify_cut = 1;
		else
			verify_pass(w, &lp, w->v.ring ? VERIFY_PASS_RING : VERIFY_PASS_MAP);
	}
	worker_verify_finish(w);
	worker_flow_leave(w);
	now = run_now();
	w->stats.elapsed = now > lp.t_measure ? now - lp.t_measure : 0;
	w->stats.runtime_sum = w->stats.elapsed / 1000000;
	windows_end(w, &lp, now);
	if (w->trace.on)
		trace_write(w, t0, now);
	getrusage(RUSAGE_THREAD, &ru1);
	rusage_delta(&w->stats.ru, &ru0, &ru1);
	/* Outside the measured time, as fio's end_fsync and fsync_on_close. */
	if ((job->end_fsync || job->fsync_on_close) && !w->error && job_does(job, DDIR_WRITE) &&
	    !(w->eng.ops->flags & ENGINE_F_NOFILES))
		for (i = 0; i < w->files.n; i++)
			if (w->files.v[i].fd >= 0 && fsync(w->files.v[i].fd) < 0 && !w->error) {
				w->error_no = errno;
				w->error = xasprintf("%s: fsync at the end: %s", w->files.v[i].path,
						     strerror(w->error_no));
			}
	if (w->status)
		status_copy(w, &lp, &ru0, true);
}
