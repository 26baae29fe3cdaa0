/* SPDX-License-Identifier: MIT */
/*
 * What a clone remembers over time, besides its totals: the bandwidth and
 * IOPS samples' windows (bwavgtime, iopsavgtime), the 500 ms windows of
 * --plot's series, the log_avg_msec windows and the
 * histogram lines of the write_*_log files, and the per-I/O entries when
 * they are logged each.  Fed by the I/O loop with its clock and stats;
 * knows nothing of engines or of the run.
 */
#ifndef IOGAUGE_INTERVAL_H
#define IOGAUGE_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "jobfile/job.h"
#include "stats/iolog.h"
#include "stats/stats.h"

#define STATS_WINDOW 500000000ull /* ns: the status line's and --plot's window */

/* Window bookkeeping for the stats samples and the averaged logs. */
struct interval_window {
	uint64_t next;		       /* ns: when it closes */
	uint64_t t;		       /* ns: when it opened */
	uint64_t ios[3], bytes[3];     /* read, write, trim: at the opening */
	uint64_t sum[3][3], cnt[3][3]; /* lat, clat, slat sums and counts at the opening */
};

struct interval {
	const struct job *job;
	struct run_logs *logs;	     /* handed to the result after the run */
	bool log_each;		     /* a write_*_log without log_avg_msec: an entry per I/O */
	uint64_t t0;		     /* ns: the I/O loop's start; log times count from it */
	uint64_t t_end;		     /* ns: the I/O loop's end (interval_end) */
	uint64_t tick_next;	     /* ns: the earliest window that closes */
	struct interval_window win;  /* --plot's series and the status line, 500 ms */
	struct interval_window bwin; /* bandwidth samples, bwavgtime */
	struct interval_window iwin; /* IOPS samples, iopsavgtime */
	struct interval_window lwin; /* averaged logs, log_avg_msec */
	uint64_t hist_next;	     /* ns: next histogram-log line; UINT64_MAX: none */
	uint64_t *hist_before[3];    /* clat buckets at the last histogram-log line */
};

/* Sets up @iv for @job: its logs, empty. */
void interval_init(struct interval *iv, const struct job *job);
/* Releases what interval_init made (the logs too, unless taken: NULL). */
void interval_free(struct interval *iv);
/* The windows open when the measured part starts (@ramp_end, ns, after
 * ramp_time); @now, the loop's start, is t0.  The averaged logs are
 * stamped at multiples of log_avg_msec, as fio. */
void interval_start(struct interval *iv, const struct run_stats *st, uint64_t now,
		    uint64_t ramp_end);
/* An entry per I/O, as fio with log_avg_msec=0 (only with log_each):
 * direction @d, @len bytes at @off, its start, issue and completion
 * times (ns), its slat (UINT64_MAX: none) and the priority it was sent
 * with.  Bandwidth is the I/O's bytes over its completion latency, in
 * bytes per ms as fio writes it. */
void interval_log_io(struct interval *iv, unsigned d, uint64_t len, uint64_t off, uint64_t t_start,
		     uint64_t t_issue, uint64_t now, uint64_t slat, uint16_t prio);
/* Closes the windows due by @now (tick_next tells when one is). */
void interval_tick(struct interval *iv, struct run_stats *st, uint64_t now);
/* The sample windows (bwavgtime, iopsavgtime) due by @now closed, for a
 * worker that waits (rate, thinktime) to close them on time, as fio's
 * helper thread samples, not at its next completion; when the next one
 * closes (ns). */
uint64_t interval_samples_tick(struct interval *iv, struct run_stats *st, uint64_t now);
/* The partial windows of the logs are written at the end, as fio's final
 * flush; the stats window is not a sample: fio 3.33's helper thread
 * samples only running jobs, and nothing samples at their end. */
void interval_end(struct interval *iv, const struct run_stats *st, uint64_t now, uint64_t ramp_end);

#endif
