/* SPDX-License-Identifier: MIT */
/*
 * A clone's windows and logs over time (see interval.h): once per window,
 * or once per I/O when each is logged.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/interval.h"
#include "util/util.h"

void interval_init(struct interval *iv, const struct job *job)
{
	unsigned d;

	memset(iv, 0, sizeof(*iv));
	iv->job = job;
	iv->logs = xcalloc(1, sizeof(*iv->logs));
	iv->log_each = !job->log_avg_msec &&
		       (job->write_bw_log || job->write_iops_log || job->write_lat_log);
	if (job->write_hist_log && job->log_hist_msec)
		for (d = 0; d < DDIR_COUNT; d++)
			iv->hist_before[d] = xcalloc(HIST_NR, sizeof(uint64_t));
}

void interval_free(struct interval *iv)
{
	unsigned i;

	for (i = 0; i < DDIR_COUNT; i++)
		free(iv->hist_before[i]);
	run_logs_free(iv->logs);
	iv->logs = NULL;
	iv->hist_before[0] = iv->hist_before[1] = iv->hist_before[2] = NULL;
}

void interval_log_io(struct interval *iv, unsigned d, uint64_t len, uint64_t off, uint64_t t_start,
		     uint64_t t_issue, uint64_t now, uint64_t slat, uint16_t prio)
{
	const struct job *job = iv->job;
	struct iolog *lg = iv->logs->log;
	uint64_t t = (now - iv->t0) / 1000000, clat = now - t_issue;
	uint32_t bs = (uint32_t)len;

	if (job->write_bw_log && !job->disable_bw)
		iolog_add_io(&lg[IOLOG_BW], t, clat ? len * 1000000ull / clat : 0, d, bs, off,
			     prio);
	if (job->write_iops_log)
		iolog_add_io(&lg[IOLOG_IOPS], t, 1, d, bs, off, prio);
	if (job->write_lat_log) {
		if (!job->disable_lat)
			iolog_add_io(&lg[IOLOG_LAT], t, now - t_start, d, bs, off, prio);
		if (!job->disable_clat)
			iolog_add_io(&lg[IOLOG_CLAT], t, clat, d, bs, off, prio);
		if (slat != UINT64_MAX)
			iolog_add_io(&lg[IOLOG_SLAT], t, slat, d, bs, off, prio);
	}
}

static void window_open(const struct run_stats *st, struct interval_window *win, uint64_t now)
{
	const struct hist *h[3];
	unsigned d, k;

	win->t = now;
	for (d = 0; d < DDIR_COUNT; d++) {
		const struct dir_stats *ds = &st->dir[d];

		win->ios[d] = ds->ios;
		win->bytes[d] = ds->bytes;
		h[0] = &ds->lat;
		h[1] = &ds->clat;
		h[2] = &ds->slat;
		for (k = 0; k < 3; k++) {
			win->sum[k][d] = h[k]->sum;
			win->cnt[k][d] = h[k]->count;
		}
	}
}

/* The 500 ms window closes: --plot's point of IOPS and bandwidth. */
static void stats_window(struct interval *iv, struct run_stats *st, uint64_t now)
{
	struct iolog_window iw = { (double)(now - iv->t0) / 1e9, { 0, 0 }, { 0, 0 } };
	double secs = (double)(now - iv->win.t) / 1e9;
	unsigned d;

	for (d = 0; d < DDIR_COUNT; d++) {
		if (!job_does(iv->job, (enum ddir)d))
			continue;
		iw.bw[d] = (double)(st->dir[d].bytes - iv->win.bytes[d]) / 1024 / secs;
		iw.iops[d] = (double)(st->dir[d].ios - iv->win.ios[d]) / secs;
	}
	iolog_add_window(iv->logs, &iw);
	window_open(st, &iv->win, now);
	iv->win.next = now + STATS_WINDOW;
}

/* A sample window closes (bwavgtime's @bw, else iopsavgtime's): one
 * sample per direction the job does, as fio.  Whole numbers worked out
 * as fio's (KiB/s and I/Os per s over the window's whole ms, rounded
 * down): the report's integer min and max then bound the mean. */
static void sample_window(struct interval *iv, struct run_stats *st, uint64_t now, bool bw)
{
	struct interval_window *win = bw ? &iv->bwin : &iv->iwin;
	uint64_t ms = (now - win->t) / 1000000;
	unsigned d;

	for (d = 0; d < DDIR_COUNT; d++) {
		uint64_t n = bw ? st->dir[d].bytes - win->bytes[d] : st->dir[d].ios - win->ios[d];

		/* As fio: a window in which the direction did nothing is no
		 * sample ("no entries for interval"). */
		if (!job_does(iv->job, (enum ddir)d) || !n)
			continue;
		/* n * 1000 fits: at most 2^54 bytes moved in one window. */
		if (bw)
			stats_sample(&st->dir[d].bw, ms ? (double)(n * 1000 / ms / 1024) : 0);
		else
			stats_sample(&st->dir[d].iops, ms ? (double)(n * 1000 / ms) : 0);
	}
	window_open(st, win, now);
	win->next = now + (uint64_t)(bw ? iv->job->bwavgtime : iv->job->iopsavgtime) * 1000000;
}

/* The log_avg_msec window closes (or the run ends): one averaged entry
 * per direction and log, stamped at the window's end, as fio. */
static void log_window(struct interval *iv, const struct run_stats *st, uint64_t now, uint64_t t_ms)
{
	static const enum iolog_kind lat_kinds[3] = { IOLOG_LAT, IOLOG_CLAT, IOLOG_SLAT };
	const struct job *job = iv->job;
	struct iolog *lg = iv->logs->log;
	double secs = (double)(now - iv->lwin.t) / 1e9;
	unsigned d, k;

	for (d = 0; d < DDIR_COUNT && secs > 0; d++) {
		const struct dir_stats *ds = &st->dir[d];
		const struct hist *h[3] = { &ds->lat, &ds->clat, &ds->slat };
		uint64_t ios = ds->ios - iv->lwin.ios[d];

		if (!job_does(job, (enum ddir)d))
			continue;
		if (job->write_bw_log)
			iolog_add(&lg[IOLOG_BW], t_ms,
				  (uint64_t)((double)(ds->bytes - iv->lwin.bytes[d]) / 1024 / secs),
				  d, 0, 0);
		if (job->write_iops_log)
			iolog_add(&lg[IOLOG_IOPS], t_ms, (uint64_t)((double)ios / secs), d, 0, 0);
		for (k = 0; k < 3 && job->write_lat_log; k++) {
			uint64_t n = h[k]->count - iv->lwin.cnt[k][d];

			if (n)
				iolog_add(&lg[lat_kinds[k]], t_ms,
					  (h[k]->sum - iv->lwin.sum[k][d]) / n, d, 0, 0);
		}
	}
	window_open(st, &iv->lwin, now);
}

static void hist_window(struct interval *iv, const struct run_stats *st, uint64_t now)
{
	uint64_t lo, hi;
	unsigned d;

	for (d = 0; d < DDIR_COUNT; d++) {
		if (!job_does(iv->job, (enum ddir)d))
			continue;
		job_bs_bounds(iv->job, (enum ddir)d, &lo, &hi);
		iolog_add_hist(iv->logs, (now - iv->t0) / 1000000, d, (uint32_t)hi,
			       &st->dir[d].clat, iv->hist_before[d]);
		if (st->dir[d].clat.bucket) /* none without clat (disable_clat) */
			memcpy(iv->hist_before[d], st->dir[d].clat.bucket,
			       sizeof(uint64_t) * HIST_NR);
	}
}

/* The earliest of the windows that close: the one time complete() checks. */
static void set_tick_next(struct interval *iv)
{
	iv->tick_next = iv->win.next < iv->lwin.next ? iv->win.next : iv->lwin.next;
	if (iv->hist_next < iv->tick_next)
		iv->tick_next = iv->hist_next;
	if (iv->bwin.next < iv->tick_next)
		iv->tick_next = iv->bwin.next;
	if (iv->iwin.next < iv->tick_next)
		iv->tick_next = iv->iwin.next;
}

void interval_tick(struct interval *iv, struct run_stats *st, uint64_t now)
{
	const struct job *job = iv->job;
	uint64_t avg = (uint64_t)job->log_avg_msec * 1000000;

	if (now >= iv->win.next)
		stats_window(iv, st, now);
	if (now >= iv->bwin.next)
		sample_window(iv, st, now, true);
	if (now >= iv->iwin.next)
		sample_window(iv, st, now, false);
	if (now >= iv->lwin.next) {
		log_window(iv, st, now, (now - iv->t0) / avg * job->log_avg_msec);
		iv->lwin.next = iv->t0 + ((now - iv->t0) / avg + 1) * avg;
	}
	if (now >= iv->hist_next) {
		hist_window(iv, st, now);
		iv->hist_next = now + (uint64_t)job->log_hist_msec * 1000000;
	}
	set_tick_next(iv);
}

uint64_t interval_samples_tick(struct interval *iv, struct run_stats *st, uint64_t now)
{
	if (now >= iv->bwin.next)
		sample_window(iv, st, now, true);
	if (now >= iv->iwin.next)
		sample_window(iv, st, now, false);
	set_tick_next(iv);
	return iv->bwin.next < iv->iwin.next ? iv->bwin.next : iv->iwin.next;
}

void interval_start(struct interval *iv, const struct run_stats *st, uint64_t now,
		    uint64_t ramp_end)
{
	const struct job *job = iv->job;
	uint64_t avg = (uint64_t)job->log_avg_msec * 1000000;

	iv->t0 = now;
	window_open(st, &iv->win, ramp_end);
	iv->win.next = ramp_end + STATS_WINDOW;
	window_open(st, &iv->bwin, ramp_end);
	iv->bwin.next = ramp_end + (uint64_t)job->bwavgtime * 1000000;
	window_open(st, &iv->iwin, ramp_end);
	iv->iwin.next = ramp_end + (uint64_t)job->iopsavgtime * 1000000;
	iv->lwin.next = UINT64_MAX;
	iv->hist_next = UINT64_MAX;
	if (avg) {
		window_open(st, &iv->lwin, ramp_end);
		iv->lwin.next = iv->t0 + ((ramp_end - iv->t0) / avg + 1) * avg;
	}
	if (iv->hist_before[0])
		iv->hist_next = ramp_end + (uint64_t)job->log_hist_msec * 1000000;
	set_tick_next(iv);
}

void interval_end(struct interval *iv, const struct run_stats *st, uint64_t now, uint64_t ramp_end)
{
	iv->t_end = now;
	if (iv->lwin.next != UINT64_MAX &&
	    st->dir[0].ios + st->dir[1].ios > iv->lwin.ios[0] + iv->lwin.ios[1])
		log_window(iv, st, now, (now - iv->t0) / 1000000);
	if (iv->hist_next != UINT64_MAX && now > ramp_end)
		hist_window(iv, st, now);
}
