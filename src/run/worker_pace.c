/* SPDX-License-Identifier: MIT */
/*
 * When the worker's next I/O may go, and what a completion's latency
 * asks of the loop: thinktime, rate_ignore_thinktime, rate_min, flow,
 * max_latency and latency_target's search.  Called from the loop in
 * worker.c only when the job asks for them; no allocation, locking or
 * stdio but the error text that ends a job.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/loop.h"
#include "run/run.h"

/* max_latency: the job fails with ETIMEDOUT, naming the I/O. */
void loop_lat_exceeded(struct worker *w, const struct io_req *req, uint64_t lat, uint64_t max)
{
	if (w->error)
		return;
	w->error_no = ETIMEDOUT;
	w->error = xasprintf("%s: %s at offset %llu, size %zu: latency of %llu ns is above "
			     "max_latency=%llu ns: %s",
			     w->files.v[req->file].path, io_op_names[req->op],
			     (unsigned long long)req->off, req->len, (unsigned long long)lat,
			     (unsigned long long)max, strerror(ETIMEDOUT));
}

/* latency_target: an I/O completed.  One over the target at depth 1
 * fails the job as fio's; others are the search's to weigh. */
void loop_lat_target_done(struct worker *w, struct loop *lp, const struct io_req *req, uint64_t now)
{
	uint64_t lat = now - req->t_start;
	enum lat_target_act act;

	lp->lt_ios++;
	if (!lp->want_lat || lat <= w->job->latency_target)
		return;
	act = lat_target_over(&lp->lt, w->job->latency_percentile);
	if (act == LT_FATAL && !w->error) {
		w->error_no = ETIMEDOUT;
		w->error =
			xasprintf("%s: %s at offset %llu, size %zu: latency of %llu ns is above "
				  "latency_target=%llu ns at iodepth 1: %s",
				  w->files.v[req->file].path, io_op_names[req->op],
				  (unsigned long long)req->off, req->len, (unsigned long long)lat,
				  (unsigned long long)w->job->latency_target, strerror(ETIMEDOUT));
	} else if (act != LT_NONE && lp->lt_act == LT_NONE) {
		lp->lt_act = act;
	}
}

/* thinktime, as fio's handle_thinktime: whether a think is due, after
 * thinktime_blocks I/Os issued or completed (thinktime_blocks_type)
 * since the last, or thinktime_iotime since the last began.  When it is,
 * the count and the time are taken as the last think's. */
bool loop_think_due(const struct worker *w, struct loop *lp)
{
	const struct job *job = w->job;
	uint64_t b = job->thinktime_blocks_type == THINK_ISSUE ? lp->nr_issued : lp->nr_done;
	uint64_t now = 0;
	bool due = false;

	if (job->thinktime_iotime) {
		now = run_now();
		due = now - lp->think_t >= job->thinktime_iotime + job->thinktime;
		if (!due && job->thinktime_iotime_only)
			return false;
	}
	if (!due && b < lp->think_last + job->thinktime_blocks)
		return false;
	lp->think_last = b;
	if (job->thinktime_iotime)
		lp->think_t = now;
	return true;
}

/* Until @until: sleep, then spin the last stretch (a sleep overshoots by
 * tens of us), polling completions meanwhile so that they are stamped
 * when they come.  Ends at the deadline, however far @until is (a rate of
 * a few bytes a second puts the next I/O hours away), or on a stop. */
void loop_wait_until(struct worker *w, struct loop *lp, uint64_t until)
{
	uint64_t now = run_now();

	if (until > lp->deadline)
		until = lp->deadline;
	while (now < until && !worker_stopped(w) && !w->error) {
		uint64_t wake = until - 50000, sample;

		if (lp->inflight)
			loop_reap(w, lp, 0);
		/* The bw and iops samples' windows close on time meanwhile. */
		sample = interval_samples_tick(&w->iv, &w->stats, now);
		if (sample < wake)
			wake = sample;
		/* Asleep for at most 20 us with I/Os in flight: their
		 * completions wait that long at most to be stamped. */
		if (until - now > 60000)
			now = run_sleep_until(lp->inflight ? now + 20000 : wake, w->stop, w->halt);
		else
			now = run_now();
	}
	lp->now = now;
}

/* rate_ignore_thinktime, as fio's: the I/Os the rate would have issued
 * in a think of @ns are not owed after it (the direction's schedule
 * moves on by the think, less one I/O's time so the next goes at once):
 * the think lowers the rate instead of being caught up in a burst. */
static void rate_skip(const struct worker *w, struct loop *lp, uint64_t ns)
{
	unsigned d = lp->last_dir;
	uint64_t lo, hi, gap;

	if (d >= DDIR_COUNT)
		return;
	job_bs_bounds(w->job, (enum ddir)d, &lo, &hi);
	gap = (uint64_t)(lp->rate.ns_per_io[d] ? lp->rate.ns_per_io[d]
					       : lp->rate.ns_per_byte[d] * (double)lo);
	if (!gap)
		return; /* this direction has no cap */
	lp->rate.due[d] += gap <= ns ? ns - gap : ns;
}

/* thinktime: what is in flight completes (as fio's io_u_quiesce), then
 * thinktime_spin of spinning and the rest asleep; not part of any I/O's
 * latency. */
void loop_think(struct worker *w, struct loop *lp)
{
	const struct job *job = w->job;
	uint64_t t0, spin_end, end;

	lp->think = false;
	loop_quiesce(w, lp);
	t0 = run_now();
	/* An engine's pause replaces the job's think, as cpuio's does fio's. */
	spin_end = t0 + (w->eng.think ? 0 : job->thinktime_spin);
	end = t0 + (w->eng.think ? w->eng.think : job->thinktime);
	if (spin_end > lp->deadline)
		spin_end = lp->deadline;
	while (run_now() < spin_end && !worker_stopped(w))
		;
	loop_wait_until(w, lp, end);
	if (job->rate_ignore_thinktime)
		rate_skip(w, lp, lp->now - t0);
}

/* rate_min, rate_iops_min, as fio's check_min_rate: after 2 s of settling,
 * each direction that completed I/O since the last look is measured over
 * at least rate_cycle ms (the first look only starts the count).  True
 * when one is below its minimum: w->error says so, with fio's words. */
bool loop_min_rate_failed(struct worker *w, struct loop *lp)
{
	static const char *const dname[DDIR_COUNT] = { "reads", "writes", "trims" };
	const struct job *job = w->job;
	uint64_t now = lp->now, ms, got;
	unsigned d;

	if (now < lp->t_measure + 2000000000ull)
		return false;
	for (d = 0; d < DDIR_COUNT; d++) {
		const struct dir_stats *ds = &w->stats.dir[d];

		if ((!job->rate_min[d] && !job->rate_iops_min[d]) || ds->ios == lp->min_seen[d])
			continue;
		lp->min_seen[d] = ds->ios;
		if (lp->min_bytes[d] || lp->min_ios[d]) {
			ms = (now - lp->min_t[d]) / 1000000;
			if (!ms || ms < job->rate_cycle)
				continue;
			got = job->rate_min[d] ? (ds->bytes - lp->min_bytes[d]) * 1000 / ms
					       : (ds->ios - lp->min_ios[d]) * 1000 / ms;
			if (job->rate_min[d] && got < job->rate_min[d])
				w->error = xasprintf("rate_min=%lluB/s not met, got %lluB/s (%s, "
						     "over %llu ms)",
						     (unsigned long long)job->rate_min[d],
						     (unsigned long long)got, dname[d],
						     (unsigned long long)ms);
			else if (!job->rate_min[d] && got < job->rate_iops_min[d])
				w->error = xasprintf(
					"rate_iops_min=%llu not met, got %llu IOPS (%s, "
					"over %llu ms)",
					(unsigned long long)job->rate_iops_min[d],
					(unsigned long long)got, dname[d], (unsigned long long)ms);
			if (w->error) {
				w->error_no = EIO; /* as fio's */
				return true;
			}
		}
		lp->min_bytes[d] = ds->bytes;
		lp->min_ios[d] = ds->ios;
		lp->min_t[d] = now;
	}
	return false;
}

/* flow: the next I/O held back, as fio's: with flow_sleep, what is in
 * flight completes and the clone sleeps that long; without, it takes
 * what has completed and tries again at once. */
void loop_flow_wait(struct worker *w, struct loop *lp)
{
	lp->flow_wait = false;
	if (w->job->flow_sleep) {
		loop_quiesce(w, lp);
		loop_wait_until(w, lp, run_now() + w->job->flow_sleep);
		return;
	}
	if (lp->inflight)
		loop_reap(w, lp, 0);
	lp->now = run_now();
}

/*
 * latency_target, after a round of the loop: what an I/O over the target
 * asked for, or the window's verdict.  A lower depth waits for the I/Os
 * in flight first, as fio's; the last window starts with fresh stats
 * (the report is of it alone, as fio's); the end stops new I/O.
 */
void loop_lat_target_step(struct worker *w, struct loop *lp)
{
	const struct job *job = w->job;
	enum lat_target_act act = lp->lt_act;
	uint64_t now = run_now();

	lp->lt_act = LT_NONE;
	if (act == LT_NONE && now >= lp->ramp_end)
		act = lat_target_check(&lp->lt, now, lp->lt_ios, job->latency_window,
				       job->latency_percentile, job->latency_run);
	if (act == LT_DONE) {
		lp->limit = lp->issued;
	} else if (act == LT_QUIESCE || act == LT_FINAL) {
		loop_quiesce(w, lp);
		now = run_now();
		if (act == LT_FINAL) {
			stats_free(&w->stats);
			stats_init(&w->stats);
			worker_hists_prepare(w);
			lp->ramp_end = lp->t_measure = now;
			lp->ramping = false;
			interval_start(&w->iv, &w->stats, w->iv.t0, now);
			loop_publish(w, lp);
		}
		lat_target_cycle(&lp->lt, now, lp->lt_ios);
	}
	lp->qd = lp->lt.qd;
}
