/* SPDX-License-Identifier: MIT */
/*
 * The latency histogram: fio's log-linear bucket layout (6 bits of
 * mantissa, 64 buckets per power of two) carried from 29 to 37 groups,
 * with exact count, min, max, sum and sum of squares beside it.
 * It is not a reporter: it prints nothing and knows no units but ns.
 * It is not thread-safe: each worker records into its own and the
 * results are merged afterwards.
 *
 * Layout, as fio's plat_val_to_idx / plat_idx_to_val:
 *   values 0..127 have one bucket each (groups 0 and 1);
 *   group g >= 2 holds [2^(g+5), 2^(g+6)) in 64 buckets of width 2^(g-1).
 * The last group ends at 2^42 ns; larger values share the last bucket.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "util/util.h"

#define HIST_EXACT (2 * HIST_VAL) /* below this, one bucket per value */

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_prepare(struct hist *h)
{
	if (!h->bucket)
		h->bucket = xcalloc(HIST_NR, sizeof(*h->bucket));
}

void hist_free(struct hist *h)
{
	free(h->bucket);
	hist_init(h);
}

/*
 * fio's plat_val_to_idx on 64 bits: drop all but the top 7 bits (the
 * leading one and 6 more); the number of dropped bits picks the group.
 */
unsigned hist_index(uint64_t ns)
{
	unsigned shift, idx;

	if (ns < HIST_EXACT)
		return (unsigned)ns;
	shift = (unsigned)(63 - __builtin_clzll(ns)) - HIST_BITS;
	idx = ((shift + 1) << HIST_BITS) + (unsigned)((ns >> shift) & (HIST_VAL - 1));
	return idx < HIST_NR ? idx : HIST_NR - 1;
}

/* Hot path: one clz, one shift, a few adds and a 64x64->128 multiply. */
void hist_record(struct hist *h, uint64_t ns)
{
	hist_record_at(h, ns, hist_index(ns));
}

void hist_record_at(struct hist *h, uint64_t ns, unsigned idx)
{
	h->bucket[idx]++;
	h->count++;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->sum += ns;
	h->sum_sq += (unsigned __int128)ns * ns;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	if (src->bucket) {
		hist_prepare(dst);
		for (i = 0; i < HIST_NR; i++)
			dst->bucket[i] += src->bucket[i];
	}
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->sum += src->sum;
	dst->sum_sq += src->sum_sq;
}

/* An @idx past the end is read as the last bucket. */
uint64_t hist_bucket_lo(unsigned idx)
{
	unsigned shift;

	if (idx >= HIST_NR)
		idx = HIST_NR - 1;
	if (idx < HIST_EXACT)
		return idx;
	shift = (idx >> HIST_BITS) - 1;
	return (uint64_t)(HIST_VAL + (idx & (HIST_VAL - 1))) << shift;
}

/* The last bucket also holds every larger value, so it ends at UINT64_MAX. */
uint64_t hist_bucket_hi(unsigned idx)
{
	if (idx >= HIST_NR - 1)
		return UINT64_MAX;
	if (idx < HIST_EXACT)
		return idx;
	return hist_bucket_lo(idx) + (1ull << ((idx >> HIST_BITS) - 1)) - 1;
}

/*
 * fio's plat_idx_to_val: the middle of the bucket, lo + width / 2, which
 * is base + (k + 0.5) * 2^shift in fio's words.  For the last bucket it
 * is the middle of its nominal range, below 2^42, as fio does.
 */
uint64_t hist_bucket_mid(unsigned idx)
{
	if (idx < HIST_EXACT)
		return idx;
	return hist_bucket_lo(idx) + (1ull << ((idx >> HIST_BITS) - 2));
}

/*
 * The rank of the @p percentile among @n samples: ceil(p / 100 * n),
 * at least 1.  p is first rounded to a millionth of a percent and the
 * rest is integer arithmetic, so a decimal p means what it says: in
 * doubles 99.9 / 100 * 1000000 is 999000.0000000001, whose ceil is one
 * sample too far.
 */
static uint64_t pct_rank(uint64_t n, double p)
{
	const uint64_t scale = 100000000; /* 100% in millionths of a percent */
	uint64_t micro = p > 0 ? (uint64_t)(p * 1e6 + 0.5) : 0;
	unsigned __int128 r;

	if (micro > scale)
		micro = scale;
	r = ((unsigned __int128)micro * n + scale - 1) / scale;
	return r ? (uint64_t)r : 1;
}

/*
 * fio's rule (calc_clat_percentiles): walk the buckets from the lowest,
 * summing counts; the answer is the first bucket where the running sum
 * reaches the rank ceil(p / 100 * count).  Its middle is returned,
 * clamped to [min, max]: a bucket's middle may lie outside what was seen,
 * and the clamp is what makes the last bucket's clamped values readable.
 * p >= 100 is max exactly; p <= 0 (or NaN) reads as the lowest rank.
 */
uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, v;
	unsigned i;

	if (!h->count)
		return 0;
	if (p >= 100)
		return h->max;
	rank = pct_rank(h->count, p);
	for (i = 0; i < HIST_NR - 1; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	v = hist_bucket_mid(i);
	if (v < h->min)
		return h->min;
	if (v > h->max)
		return h->max;
	return v;
}

double hist_mean(const struct hist *h)
{
	if (!h->count)
		return 0;
	return (double)h->sum / (double)h->count;
}

/*
 * Population stddev, sqrt((sum_sq - sum^2 / n) / n).  The subtraction is
 * done in 128-bit integers (sum^2 < 2^128 as sum is 64-bit), so the
 * cancellation that ruins sum_sq / n - mean^2 in doubles does not occur.
 */
double hist_stddev(const struct hist *h)
{
	unsigned __int128 sq, q;
	double m2;

	if (h->count < 2)
		return 0;
	sq = (unsigned __int128)h->sum * h->sum;
	q = sq / h->count;
	if (h->sum_sq < q) /* only after an overflow */
		return 0;
	m2 = (double)(h->sum_sq - q) - (double)(sq % h->count) / (double)h->count;
	return m2 > 0 ? sqrt(m2 / (double)h->count) : 0;
}

double hist_stddev_sample(const struct hist *h)
{
	if (h->count < 2)
		return 0;
	return hist_stddev(h) * sqrt((double)h->count / (double)(h->count - 1));
}
