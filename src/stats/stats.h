/* SPDX-License-Identifier: MIT */
/*
 * What one worker measured, per direction: I/O and byte counts, errors,
 * the latency histogram and SQLIO's 1 ms buckets.  Kept per thread with no
 * locks and merged after the run.  No I/O, no printing.
 */
#ifndef IOGAUGE_STATS_H
#define IOGAUGE_STATS_H

#include <stdint.h>

#include "stats/act.h"
#include "stats/hist.h"
#include "stats/prio.h"

enum stat_dir { STAT_READ, STAT_WRITE, STAT_TRIM, STAT_SYNC, STAT_NR };

#define STATS_MS_BUCKETS 25 /* SQLIO: 0..23 ms, then 24+ */
#define STATS_DEPTHS	 7  /* fio's "IO depths": 1, 2, 4, 8, 16, 32, >=64 */
#define STATS_LAT_BINS	 32 /* fio's latency_ns (10), latency_us (10), latency_ms (12) */

/* Summary of interval samples (IOPS or bandwidth per window): fio's
 * bw_min/max/mean/dev and iops_* fields, kept as fio keeps them (a
 * running mean and sum of squared deviations), so that a group adds its
 * clones' as fio does. */
struct sample_agg {
	uint64_t n;
	double min, max, mean, m2;
};

/* Latencies as fio defines them (the stamps are described in engine.h). */
struct dir_stats {
	uint64_t ios;
	uint64_t bytes;
	uint64_t ms[STATS_MS_BUCKETS]; /* I/Os by whole milliseconds of total latency */
	uint64_t ms_sum;	       /* those whole milliseconds, added: SQLIO's average */
	struct hist slat;	       /* ns, built to submitted: async engines only */
	struct hist clat;	       /* ns, submitted to completed */
	struct hist lat;	       /* ns, built to completed: the total */
	/* Rate-limited jobs only: from each I/O's intended start (its place in
	 * the rate's schedule) to completed, and to built (the lag). */
	struct hist resp;
	struct hist lag;
	/* I/Os by completion latency in fio's latency_ns/us/ms buckets. */
	uint64_t lat_bins[STATS_LAT_BINS];
	struct sample_agg bw;	/* KiB/s per stats window (500 ms, as fio) */
	struct sample_agg iops; /* I/Os per second per stats window */
	/* Latency per I/O priority (prio.h); NULL: the direction's I/Os
	 * all had the job's one priority. */
	struct prio_stats *prio;
};

/* CPU and scheduling of one worker thread (getrusage RUSAGE_THREAD). */
struct run_rusage {
	uint64_t usr, sys; /* ns */
	uint64_t ctx;	   /* voluntary + involuntary context switches */
	uint64_t majf, minf;
};

struct run_stats {
	struct dir_stats dir[STAT_NR];
	uint64_t depth[STATS_DEPTHS];	 /* I/Os by I/Os in flight once each was queued */
	uint64_t submit[STATS_DEPTHS];	 /* submissions by I/Os submitted at once */
	uint64_t complete[STATS_DEPTHS]; /* reaps by I/Os reaped at once */
	uint64_t elapsed;		 /* ns, measured part of the run */
	uint64_t depth_max;		 /* most I/Os in flight at once */
	uint64_t errors; /* I/O errors passed over (continue_on_error), as fio's total_err */
	/* Of them, errnos ignore_error names itself: no failure, as fio's. */
	uint64_t errors_listed;
	/* ms: each clone's elapsed in whole ms, summed over a group (fio's
	 * total_run_time: job_runtime and the CPU shares are over it). */
	uint64_t runtime_sum;
	/* verify=: blocks read back and found right, their bytes, blocks
	 * found wrong, blocks partly overwritten by a later block (not
	 * checkable), and whether the runtime ended the write phase before
	 * the read-back could start (1; 0 otherwise). */
	uint64_t verified, verify_bytes, verify_bad, verify_skipped, verify_cut;
	uint64_t latency_depth; /* latency_target: the depth the search ended at; 0: none */
	uint16_t ioprio;	/* the job's I/O priority (prio, prioclass); 0: none */
	struct run_rusage ru;
	struct act_slices *act; /* --profile=act's slices (act.h); NULL: none */
};

/* fio's latency buckets: labels are upper bounds ("below X"), the last
 * is ">=2000" ms.  @i < STATS_LAT_BINS. */
extern const uint64_t stats_lat_bin_hi[STATS_LAT_BINS]; /* ns; UINT64_MAX for the last */

/* The fio latency bucket of @ns, whose histogram bucket is @idx: a table
 * lookup and one compare, as no histogram bucket spans two fio labels.
 * The table is filled by stats_init(). */
extern uint8_t stats_lat_bin_of_hist[HIST_NR];
static inline unsigned stats_lat_bin(uint64_t ns, unsigned idx)
{
	unsigned b = stats_lat_bin_of_hist[idx];

	return b + (ns >= stats_lat_bin_hi[b] && b + 1 < STATS_LAT_BINS);
}
/* Adds one window's @v to @a. */
void stats_sample(struct sample_agg *a, double v);
double stats_sample_mean(const struct sample_agg *a);
double stats_sample_stddev(const struct sample_agg *a); /* sample stddev, as fio */

/* Empty, with no histogram buckets: see stats_prepare. */
void stats_init(struct run_stats *s);
/* Which histograms of a direction, for stats_prepare. */
enum {
	STATS_H_SLAT = 1u << 0,
	STATS_H_CLAT = 1u << 1,
	STATS_H_LAT = 1u << 2,
	STATS_H_RATE = 1u << 3, /* resp and lag */
};
/* The buckets of direction @d's histograms that a run will record into
 * (STATS_H_* bits in @which) allocated, before its clock starts. */
void stats_prepare(struct run_stats *s, unsigned d, unsigned which);
/* Every histogram's buckets let go: @s is as stats_init left it, its
 * counts lost. */
void stats_free(struct run_stats *s);
/* @s written to @fd, histograms as their non-zero buckets only, and read
 * back into @s (which owns the buckets then; empty on error), for a clone
 * in a process of its own.  0, or -errno (-EIO: the data ended early or
 * is not stats_save's). */
int stats_save(const struct run_stats *s, int fd);
int stats_load(struct run_stats *s, int fd);
/* One histogram's buckets, the non-zero ones, as stats_save writes them
 * (@h itself is written by the caller), and read back into @h, which
 * owns them then.  0, or -errno (-EIO: not what stats_hist_save wrote). */
int stats_hist_save(const struct hist *h, int fd);
int stats_hist_load(struct hist *h, int fd);
/* Records one I/O; a latency that is UINT64_MAX is not recorded (the
 * engine has no slat, or disable_slat/clat/lat).  As fio, the latency
 * map (lat_bins) follows clat, and the ms buckets follow lat. */
static inline void stats_record(struct dir_stats *d, uint64_t slat_ns, uint64_t clat_ns,
				uint64_t lat_ns, uint64_t bytes)
{
	uint64_t ms = lat_ns / 1000000;
	unsigned idx;

	d->ios++;
	d->bytes += bytes;
	if (lat_ns != UINT64_MAX) {
		d->ms[ms < STATS_MS_BUCKETS - 1 ? ms : STATS_MS_BUCKETS - 1]++;
		d->ms_sum += ms;
		hist_record(&d->lat, lat_ns);
	}
	if (slat_ns != UINT64_MAX)
		hist_record(&d->slat, slat_ns);
	if (clat_ns != UINT64_MAX) {
		idx = hist_index(clat_ns);
		hist_record_at(&d->clat, clat_ns, idx);
		d->lat_bins[stats_lat_bin(clat_ns, idx)]++;
	}
}
/* fio's IO-depth bucket for @n I/Os in flight: 1, 2-3, 4-7, ..., >=64. */
static inline unsigned stats_depth_bucket(unsigned n)
{
	unsigned b = 0;

	while (n > 1 && b + 1 < STATS_DEPTHS) {
		n >>= 1;
		b++;
	}
	return b;
}
/* fio's submit/complete bucket for @n I/Os at once: 0, 1-4, 5-8, 9-16,
 * 17-32, 33-64, more. */
static inline unsigned stats_batch_bucket(unsigned n)
{
	unsigned b = 1;

	if (!n)
		return 0;
	while (n > 4u << (b - 1) && b + 1 < STATS_DEPTHS)
		b++;
	return b;
}
/* Adds direction @src's counts to @dst, as fio sums two (interval
 * samples: their min, max and mean added). */
void stats_dir_merge(struct dir_stats *dst, const struct dir_stats *src);
/* Adds @src's counts to @dst; elapsed becomes the longer of the two,
 * runtime_sum the sum. */
void stats_merge(struct run_stats *dst, const struct run_stats *src);

#endif
