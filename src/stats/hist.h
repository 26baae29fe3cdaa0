/* SPDX-License-Identifier: MIT */
/*
 * A log-linear latency histogram in nanoseconds.  Below 2^34 ns (about
 * 17 s) its buckets are exactly fio's (FIO_IO_U_PLAT_BITS = 6, 29 groups);
 * iogauge adds groups up to 2^42 ns (about 73 minutes), so nothing within
 * an hour is clamped.  A bucket's middle is within 1/128 (0.78%) of every
 * value in it, exactly 1/128 at 128 * 2^k; above 2^42 there is no bound.
 * Exact count, min, max, sum and sum of squares are kept beside the
 * buckets.  The buckets (18.5 KiB) are allocated only by hist_prepare (or
 * a merge into it): most of a run's histograms never see a sample, and a
 * run may have thousands of clones.  No I/O, no locks; recording does not
 * allocate.
 */
#ifndef IOGAUGE_HIST_H
#define IOGAUGE_HIST_H

#include <stdint.h>

#define HIST_BITS   6		      /* fio's FIO_IO_U_PLAT_BITS */
#define HIST_VAL    (1u << HIST_BITS) /* buckets per group */
#define HIST_GROUPS 37		      /* fio has 29 */
#define HIST_NR	    (HIST_GROUPS * HIST_VAL)

struct hist {
	uint64_t *bucket; /* HIST_NR counts, or NULL before hist_prepare; never NULL with a count */
	uint64_t count;
	uint64_t min;		  /* ns; UINT64_MAX when empty */
	uint64_t max;		  /* ns */
	uint64_t sum;		  /* ns */
	unsigned __int128 sum_sq; /* ns^2 */
};

/* Empty, with no buckets yet. */
void hist_init(struct hist *h);
/* Its buckets allocated (zeroed), if they are not yet: before the first
 * hist_record, outside the measured time.  Aborts as xmalloc does when
 * there is no memory. */
void hist_prepare(struct hist *h);
/* The buckets let go; @h is empty again. */
void hist_free(struct hist *h);
/* Adds one sample to a prepared @h.  Above the last bucket it lands in
 * the last bucket, and min, max, mean and stddev stay exact. */
void hist_record(struct hist *h, uint64_t ns);
/* The same, when the caller already has hist_index(@ns) in @idx. */
void hist_record_at(struct hist *h, uint64_t ns, unsigned idx);
/* Adds @src to @dst, preparing @dst when @src has buckets. */
void hist_merge(struct hist *dst, const struct hist *src);

/* The bucket @ns falls in, fio's plat_val_to_idx; from 2^42 on, the last. */
unsigned hist_index(uint64_t ns);
/* The lowest and highest ns of bucket @idx (inclusive); the last bucket
 * ends at UINT64_MAX.  An @idx past the end reads as the last bucket. */
uint64_t hist_bucket_lo(unsigned idx);
uint64_t hist_bucket_hi(unsigned idx);
/* fio's plat_idx_to_val: the middle of bucket @idx (json+ bins are keyed by it). */
uint64_t hist_bucket_mid(unsigned idx);

/* The @p percentile (0 < p <= 100), read from the buckets as fio does:
 * the middle of the first bucket where the running count reaches
 * ceil(p / 100 * count), clamped to [min, max].  p = 100 is max exactly;
 * 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);	  /* ns */
double hist_stddev(const struct hist *h); /* ns, population */
/* ns, with n - 1 in the divisor, as fio's JSON and terse stddev. */
double hist_stddev_sample(const struct hist *h);

#endif
