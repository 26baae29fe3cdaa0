/* SPDX-License-Identifier: MIT */
/*
 * Tests of the latency histogram in hist.c: fio's bucket layout, the
 * relative error bound, the range past fio's 17 s, merging, and
 * percentiles, mean and stddev against an exact computation; fio's
 * latency_ns/us/ms buckets and the batch buckets built on it; the lazy
 * buckets of a worker's stats and their hand-off through a descriptor.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "stats/hist.h"
#include "stats/stats.h"
#include "util/util.h"

#define FIO_NR (29 * 64) /* fio's FIO_IO_U_PLAT_NR */

/*
 * fio's plat_val_to_idx and plat_idx_to_val, written again from the
 * formulas in fio's stat.c (msb, error_bits, base, offset; the midpoint
 * in floating point), so that hist.c is checked against them.
 */
static unsigned fio_val_to_idx(uint64_t val)
{
	unsigned msb = val ? 63 - (unsigned)__builtin_clzll(val) : 0;
	unsigned error_bits, base, offset;

	if (msb <= 6)
		return (unsigned)val;
	error_bits = msb - 6;
	base = (error_bits + 1) << 6;
	offset = (unsigned)(63 & (val >> error_bits));
	return base + offset < FIO_NR - 1 ? base + offset : FIO_NR - 1;
}

static uint64_t fio_idx_to_val(unsigned idx)
{
	unsigned error_bits, k;
	uint64_t base;

	if (idx < 128)
		return idx;
	error_bits = (idx >> 6) - 1;
	base = 1ull << (error_bits + 6);
	k = idx % 64;
	return base + (uint64_t)((k + 0.5) * (double)(1ull << error_bits));
}

/* The representative value of @v's bucket, read through the public API:
 * with a smaller and a larger sample around it, p50 is v's bucket's
 * middle, unclamped. */
static uint64_t rep_of(struct hist *h, uint64_t v)
{
	uint64_t p;

	hist_init(h);
	hist_prepare(h);
	hist_record(h, 0);
	hist_record(h, v);
	hist_record(h, UINT64_MAX);
	p = hist_percentile(h, 50);
	hist_free(h);
	return p;
}

static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Log-uniform between 1 us and 100 ms: a latency-like spread. */
static uint64_t latency_sample(uint64_t *s)
{
	double u = (double)(xorshift64(s) >> 11) / 9007199254740992.0; /* [0, 1) */

	return (uint64_t)exp(log(1e3) + u * log(1e8 / 1e3));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static double rel_err(double got, double want)
{
	return want ? fabs(got - want) / want : fabs(got);
}

static void test_empty(void **state)
{
	static struct hist h;

	(void)state;
	hist_init(&h);
	assert_int_equal(h.count, 0);
	assert_int_equal(h.min, UINT64_MAX);
	assert_int_equal(h.max, 0);
	assert_int_equal(hist_percentile(&h, 50), 0);
	assert_int_equal(hist_percentile(&h, 100), 0);
	assert_true(hist_mean(&h) == 0);
	assert_true(hist_stddev(&h) == 0);
}

static void test_bucket_bounds(void **state)
{
	unsigned idx;

	(void)state;
	assert_int_equal(hist_bucket_lo(0), 0);
	for (idx = 0; idx < HIST_NR; idx++) {
		uint64_t lo = hist_bucket_lo(idx), hi = hist_bucket_hi(idx);

		if (lo > hi)
			fail_msg("bucket %u: lo %llu > hi %llu", idx, (unsigned long long)lo,
				 (unsigned long long)hi);
		if (idx < 128 && (lo != idx || hi != idx))
			fail_msg("bucket %u is not exact", idx);
		if (idx + 1 < HIST_NR && hist_bucket_lo(idx + 1) != hi + 1)
			fail_msg("bucket %u: next lo %llu, hi + 1 %llu", idx,
				 (unsigned long long)hist_bucket_lo(idx + 1),
				 (unsigned long long)hi + 1);
		if (hist_index(lo) != idx || hist_index(hi) != idx)
			fail_msg("bucket %u: index(lo) %u index(hi) %u", idx, hist_index(lo),
				 hist_index(hi));
		/* Width 2^(g-1) in group g >= 2: 64 buckets per power of two. */
		if (idx >= 128 && idx < HIST_NR - 1 &&
		    hi - lo + 1 != 1ull << ((idx / HIST_VAL) - 1))
			fail_msg("bucket %u: width %llu", idx, (unsigned long long)(hi - lo + 1));
	}
	/* The last group ends at 2^42; the last bucket takes all above. */
	assert_int_equal(hist_bucket_lo(HIST_NR - 1), (1ull << 42) - (1ull << 35));
	assert_int_equal(hist_bucket_hi(HIST_NR - 2), (1ull << 42) - (1ull << 35) - 1);
	assert_true(hist_bucket_hi(HIST_NR - 1) == UINT64_MAX);
}

struct fio_case {
	uint64_t ns;
	unsigned idx; /* fio's plat_val_to_idx, worked by hand */
	uint64_t val; /* fio's plat_idx_to_val(idx) */
};

static const struct fio_case fio_cases[] = {
	{ 0, 0, 0 },
	{ 1, 1, 1 },
	{ 127, 127, 127 },
	{ 128, 128, 129 },
	{ 1000, 317, 1004 },
	{ 1000000, 954, 1003520 },
	{ 17179869183ull, 1855, 17112760320ull }, /* 2^34 - 1: fio's last bucket */
};

static void test_fio_index(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	uint64_t v, s = 42;
	size_t i;

	(void)state;
	assert_non_null(h);
	for (i = 0; i < ARRAY_SIZE(fio_cases); i++) {
		const struct fio_case *c = &fio_cases[i];

		assert_int_equal(hist_index(c->ns), c->idx);
		assert_int_equal(fio_val_to_idx(c->ns), c->idx);
		assert_int_equal(fio_idx_to_val(c->idx), c->val);
		assert_int_equal(rep_of(h, c->ns), c->val);
	}
	/* Every power of two and its neighbours, then random values, below 2^34. */
	for (i = 1; i < 34; i++) {
		for (v = (1ull << i) - 1; v <= (1ull << i) + 1; v++)
			assert_int_equal(hist_index(v), fio_val_to_idx(v));
	}
	for (i = 0; i < 100000; i++) {
		unsigned shift = 30 + (unsigned)(xorshift64(&s) % 34);

		v = xorshift64(&s) >> shift; /* below 2^34 */
		if (hist_index(v) != fio_val_to_idx(v))
			fail_msg("%llu: index %u, fio %u", (unsigned long long)v, hist_index(v),
				 fio_val_to_idx(v));
	}
	for (i = 0; i < FIO_NR; i++)
		assert_int_equal(rep_of(h, hist_bucket_lo((unsigned)i)),
				 fio_idx_to_val((unsigned)i));
	free(h);
}

/*
 * The middle of any bucket is within 1/128 of every value in it.  The
 * worst case is exactly 1/128, at the first value of each group from 128
 * on (128 reads as 129): the bound is "at most", not "below".
 */
static void test_relative_error(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	double worst = 0, e;
	uint64_t v, worst_v = 0, rep;
	unsigned k;

	(void)state;
	assert_non_null(h);
	for (v = 1; v < (1ull << 42);) {
		rep = rep_of(h, v);
		if ((rep > v ? rep - v : v - rep) * 128 > v)
			fail_msg("%llu reads as %llu", (unsigned long long)v,
				 (unsigned long long)rep);
		if (v < 128)
			assert_int_equal(rep, v);
		e = rel_err((double)rep, (double)v);
		if (e > worst) {
			worst = e;
			worst_v = v;
		}
		v = v < 10000 ? v + 1 : v + v / 997;
	}
	for (k = 7; k < 42; k++) {
		v = 1ull << k;
		assert_int_equal(rep_of(h, v) - v, v / 128);
	}
	print_message("worst relative error %.7f (1/128 = %.7f) at %llu ns\n", worst, 1.0 / 128,
		      (unsigned long long)worst_v);
	assert_true(worst <= 1.0 / 128);
	free(h);
}

static void test_range(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	const uint64_t hour = 3600ull * 1000000000ull, big = 1ull << 50;
	unsigned idx = hist_index(hour);

	(void)state;
	assert_non_null(h);
	assert_true(idx < HIST_NR - 1);
	assert_true(hist_bucket_lo(idx) <= hour && hour <= hist_bucket_hi(idx));
	assert_true(rel_err((double)rep_of(h, hour), (double)hour) <= 0.008);

	hist_init(h);
	hist_prepare(h);
	hist_record(h, 1000);
	hist_record(h, big);
	assert_int_equal(hist_index(big), HIST_NR - 1);
	assert_int_equal(h->bucket[HIST_NR - 1], 1);
	assert_int_equal(h->count, 2);
	assert_int_equal(h->max, big);
	assert_int_equal(h->sum, big + 1000);
	assert_true(h->sum_sq == (unsigned __int128)big * big + 1000000);
	assert_int_equal(hist_percentile(h, 100), big);
	/* As fio pins at 17113 ms, a rank in the last bucket reads as its
	 * nominal middle, below 2^42; only p100 gives the exact max. */
	assert_int_equal(hist_percentile(h, 99), hist_bucket_lo(HIST_NR - 1) + (1ull << 34));
	assert_int_equal(hist_percentile(h, 50), 1004); /* its bucket's middle */
	assert_true(hist_mean(h) == (double)(big + 1000) / 2);
	assert_int_equal(hist_index(UINT64_MAX), HIST_NR - 1);
	hist_free(h);
	free(h);
}

/* The same counts and the same buckets (a missing bucket array reads as
 * all zeros). */
static void assert_hist_equal(const struct hist *a, const struct hist *b)
{
	unsigned i;

	assert_int_equal(a->count, b->count);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sum_sq == b->sum_sq);
	for (i = 0; i < HIST_NR; i++)
		if ((a->bucket ? a->bucket[i] : 0) != (b->bucket ? b->bucket[i] : 0))
			fail_msg("bucket %u: %llu, want %llu", i,
				 (unsigned long long)(a->bucket ? a->bucket[i] : 0),
				 (unsigned long long)(b->bucket ? b->bucket[i] : 0));
}

static void test_merge(void **state)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *all = malloc(sizeof(*all));
	uint64_t s = 7, v;
	unsigned i;

	(void)state;
	assert_true(a && b && all);
	hist_init(a);
	hist_init(b);
	hist_init(all);
	hist_prepare(a);
	hist_prepare(b);
	hist_prepare(all);
	for (i = 0; i < 100000; i++) {
		v = latency_sample(&s);
		if (i % 1000 == 0)
			v = xorshift64(&s) >> 14; /* a few beyond 2^42 */
		hist_record(xorshift64(&s) & 1 ? a : b, v);
		hist_record(all, v);
	}
	hist_merge(a, b);
	assert_hist_equal(a, all);

	/* An empty histogram merges as nothing, either way, and one that was
	 * never prepared gets its buckets only from a merge that brings some. */
	hist_free(b);
	assert_null(b->bucket);
	hist_merge(a, b);
	assert_hist_equal(a, all);
	hist_merge(b, b);
	assert_null(b->bucket);
	hist_merge(b, all);
	assert_non_null(b->bucket);
	assert_hist_equal(b, all);
	hist_free(a);
	hist_free(b);
	hist_free(all);
	free(a);
	free(b);
	free(all);
}

struct rank_case {
	double p;
	uint64_t want; /* over the samples 1..100, each in its own bucket */
};

static const struct rank_case rank_cases[] = {
	{ 0.0001, 1 }, /* rank 1 at least */
	{ 1, 1 },      /* ceil(1) */
	{ 1.5, 2 },    /* ceil(1.5) */
	{ 7, 7 },      /* in doubles 7 / 100.0 * 100 is 7.000000000000001 */
	{ 50, 50 },    /* the lower median, as fio */
	{ 50.1, 51 },  /* ceil(50.1) */
	{ 99, 99 },    /* ceil(99) */
	{ 99.5, 100 }, /* ceil(99.5) */
	{ 100, 100 },  /* max */
	{ 0, 1 },      /* outside (0, 100]: the nearest end */
	{ -5, 1 },     /* ... */
	{ 150, 100 },  /* ... */
};

/* The rank rule, seen where buckets are exact: ceil(p / 100 * n), at least 1. */
static void test_percentile_rank(void **state)
{
	static struct hist h;
	size_t i;
	uint64_t v;

	(void)state;
	hist_init(&h);
	hist_prepare(&h);
	for (v = 1; v <= 100; v++)
		hist_record(&h, v);
	for (i = 0; i < ARRAY_SIZE(rank_cases); i++) {
		v = hist_percentile(&h, rank_cases[i].p);
		if (v != rank_cases[i].want)
			fail_msg("p%g: %llu, want %llu", rank_cases[i].p, (unsigned long long)v,
				 (unsigned long long)rank_cases[i].want);
	}
	/* One sample: every percentile is that sample, not its bucket's middle. */
	hist_free(&h);
	hist_prepare(&h);
	hist_record(&h, 1000);
	assert_int_equal(hist_percentile(&h, 1), 1000);
	assert_int_equal(hist_percentile(&h, 100), 1000);
	assert_true(hist_stddev(&h) == 0);
	hist_free(&h);
}

/* p in thousandths of a percent, so the exact rank is integer arithmetic. */
static const unsigned pct_milli[] = {
	1000, 5000, 10000, 50000, 90000, 99000, 99900, 99990, 100000
};

static void test_percentiles_vs_sort(void **state)
{
	const size_t n = 1000000;
	uint64_t *v = malloc(n * sizeof(*v)), s = 0x9e3779b97f4a7c15ull;
	struct hist *h = malloc(sizeof(*h));
	long double mean = 0, m2 = 0;
	double worst = 0;
	size_t i;

	(void)state;
	assert_true(v && h);
	hist_init(h);
	hist_prepare(h);
	for (i = 0; i < n; i++) {
		v[i] = latency_sample(&s);
		hist_record(h, v[i]);
		mean += v[i];
	}
	mean /= n;
	for (i = 0; i < n; i++)
		m2 += (v[i] - mean) * (v[i] - mean);
	assert_true(rel_err(hist_mean(h), (double)mean) < 1e-12);
	assert_true(rel_err(hist_stddev(h), (double)sqrtl(m2 / n)) < 1e-9);

	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);
	for (i = 0; i < ARRAY_SIZE(pct_milli); i++) {
		double p = pct_milli[i] / 1000.0;
		size_t rank = (size_t)(((uint64_t)pct_milli[i] * n + 99999) / 100000);
		uint64_t got = hist_percentile(h, p), want = v[rank - 1];
		double e = rel_err((double)got, (double)want);

		if (e > 0.008)
			fail_msg("p%g: %llu, exact %llu (%.4f%%)", p, (unsigned long long)got,
				 (unsigned long long)want, 100 * e);
		if (e > worst)
			worst = e;
	}
	assert_int_equal(hist_percentile(h, 100), v[n - 1]);
	print_message("percentiles of %zu samples: worst relative error %.5f%%\n", n, 100 * worst);
	free(v);
	hist_free(h);
	free(h);
}

/* Mean and population stddev where the answer is known by hand. */
static void test_mean_stddev(void **state)
{
	static const uint64_t samples[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	static struct hist h;
	size_t i;

	(void)state;
	hist_init(&h);
	hist_prepare(&h);
	for (i = 0; i < ARRAY_SIZE(samples); i++)
		hist_record(&h, samples[i]);
	assert_true(hist_mean(&h) == 5.0);
	assert_true(hist_stddev(&h) == 2.0);

	/* A large offset with a small spread: doubles alone would cancel. */
	hist_free(&h);
	hist_prepare(&h);
	for (i = 0; i < 1000; i++)
		hist_record(&h, 1000000000000ull + (i & 1 ? 1 : 0));
	assert_true(hist_mean(&h) == 1000000000000.5);
	assert_true(hist_stddev(&h) == 0.5);
	hist_free(&h);
}

/* fio's rule, written out: the first label the value is below. */
static unsigned lat_bin_slow(uint64_t ns)
{
	unsigned b = 0;

	while (b + 1 < STATS_LAT_BINS && ns >= stats_lat_bin_hi[b])
		b++;
	return b;
}

static void test_lat_bins(void **state)
{
	static const uint64_t edges[] = { 0,	      1,	 2,	    3,		4,
					  9,	      10,	 249,	    250,	749,
					  750,	      999,	 1000,	    1999,	2000,
					  749999,     750000,	 999999999, 1000000000, 1999999999,
					  2000000000, UINT64_MAX };
	struct run_stats st;
	uint64_t x = 88172645463325252ull, v;
	unsigned i;

	(void)state;
	stats_init(&st); /* fills the table */
	for (i = 0; i < ARRAY_SIZE(edges); i++)
		assert_int_equal(stats_lat_bin(edges[i], hist_index(edges[i])),
				 lat_bin_slow(edges[i]));
	assert_int_equal(stats_lat_bin(1999, hist_index(1999)), 10);		 /* "2" us */
	assert_int_equal(stats_lat_bin(2000000000, hist_index(2000000000)), 31); /* ">=2000" ms */
	/* Every bucket's ends and a million values spread over 40 bits. */
	for (i = 0; i < HIST_NR - 1; i++) {
		v = hist_bucket_lo(i);
		assert_int_equal(stats_lat_bin(v, i), lat_bin_slow(v));
		v = hist_bucket_hi(i);
		assert_int_equal(stats_lat_bin(v, i), lat_bin_slow(v));
	}
	for (i = 0; i < 1000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (24 + x % 40);
		assert_int_equal(stats_lat_bin(v, hist_index(v)), lat_bin_slow(v));
	}
}

static void test_batch_buckets(void **state)
{
	static const unsigned n[] = { 0, 1, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 1000 };
	static const unsigned want[] = { 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6 };
	unsigned i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(n); i++)
		assert_int_equal(stats_batch_bucket(n[i]), want[i]);
}

/* A fresh memfd holding @len bytes of @p, read from its start. */
static int memfd_of(const void *p, size_t len)
{
	int fd = memfd_create("test_hist", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(util_write_all(fd, p, len), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* Stats keep no buckets until prepared, and come back from stats_save
 * through stats_load with every count and bucket, the unprepared
 * histograms still without buckets; a short or damaged stream is an
 * error that leaves nothing allocated. */
static void test_stats_handoff(void **state)
{
	struct run_stats a, b;
	char *buf;
	off_t len;
	uint64_t v, x = 12345;
	unsigned i, d;
	int fd;

	(void)state;
	stats_init(&a);
	for (d = 0; d < STAT_NR; d++)
		assert_true(!a.dir[d].slat.bucket && !a.dir[d].clat.bucket &&
			    !a.dir[d].lat.bucket && !a.dir[d].resp.bucket && !a.dir[d].lag.bucket);
	stats_prepare(&a, STAT_WRITE, STATS_H_CLAT | STATS_H_LAT | STATS_H_RATE);
	assert_null(a.dir[STAT_WRITE].slat.bucket);
	assert_non_null(a.dir[STAT_WRITE].resp.bucket);
	assert_null(a.dir[STAT_READ].clat.bucket);
	for (i = 0; i < 5000; i++) {
		v = 20000 + xorshift64(&x) % 5000; /* 20-25 us: a null engine's few buckets */
		stats_record(&a.dir[STAT_WRITE], UINT64_MAX, v, v + 100, 4096);
		hist_record(&a.dir[STAT_WRITE].resp, v * 2);
	}
	a.errors = 3;
	a.depth[2] = 77;

	fd = memfd_create("test_hist", MFD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(stats_save(&a, fd), 0);
	len = lseek(fd, 0, SEEK_END);
	/* Sparse: far less than one histogram's buckets. */
	assert_true(len > (off_t)sizeof(a) && len < (off_t)(sizeof(a) + HIST_NR * 8));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(stats_load(&b, fd), 0);
	close(fd);
	assert_int_equal(b.dir[STAT_WRITE].ios, 5000);
	assert_int_equal(b.dir[STAT_WRITE].bytes, 5000 * 4096);
	assert_int_equal(b.errors, 3);
	assert_int_equal(b.depth[2], 77);
	assert_hist_equal(&b.dir[STAT_WRITE].clat, &a.dir[STAT_WRITE].clat);
	assert_hist_equal(&b.dir[STAT_WRITE].lat, &a.dir[STAT_WRITE].lat);
	assert_hist_equal(&b.dir[STAT_WRITE].resp, &a.dir[STAT_WRITE].resp);
	assert_true(b.dir[STAT_WRITE].clat.bucket != a.dir[STAT_WRITE].clat.bucket);
	assert_null(b.dir[STAT_WRITE].lag.bucket); /* prepared, but nothing in it */
	assert_null(b.dir[STAT_READ].clat.bucket);
	assert_int_equal(hist_percentile(&b.dir[STAT_WRITE].clat, 99),
			 hist_percentile(&a.dir[STAT_WRITE].clat, 99));
	stats_free(&b);

	/* Cut short anywhere past the struct, or a bucket index out of range. */
	fd = memfd_create("test_hist", MFD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(stats_save(&a, fd), 0);
	len = lseek(fd, 0, SEEK_END);
	buf = malloc((size_t)len);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)len, 0), len);
	close(fd);
	for (i = 0; i < 4; i++) {
		off_t cut = i == 0 ? (off_t)sizeof(a) / 2 : i == 1 ? (off_t)sizeof(a) + 2 : len - 1;
		uint32_t n = HIST_NR + 1, keep;

		/* The fourth: the first histogram's count of buckets made too large. */
		memcpy(&keep, buf + sizeof(a), sizeof(keep));
		if (i == 3) {
			memcpy(buf + sizeof(a), &n, sizeof(n));
			cut = len;
		}
		fd = memfd_of(buf, (size_t)cut);
		assert_int_equal(stats_load(&b, fd), -EIO);
		close(fd);
		memcpy(buf + sizeof(a), &keep, sizeof(keep));
		for (d = 0; d < STAT_NR; d++)
			assert_true(!b.dir[d].clat.bucket && !b.dir[d].lat.bucket &&
				    !b.dir[d].resp.bucket && !b.dir[d].ios);
	}
	/* The whole of it loads. */
	fd = memfd_of(buf, (size_t)len);
	assert_int_equal(stats_load(&b, fd), 0);
	close(fd);
	assert_hist_equal(&b.dir[STAT_WRITE].clat, &a.dir[STAT_WRITE].clat);
	stats_free(&b);
	free(buf);
	stats_free(&a);
}

/* Latency per priority: the job's priority first and each other once, in
 * the order given; recorded by priority; summed as fio sums a group's;
 * carried through stats_save and stats_load, a damaged stream refused
 * with nothing left allocated. */
static void test_prio_stats(void **state)
{
	const uint16_t rt0 = 1 << 13, idle = 3 << 13, be5 = 2 << 13 | 5;
	const uint16_t list[] = { rt0, 0, idle, rt0 };
	struct prio_stats *p = prio_stats_new(0, list, 4), *g = NULL;
	struct run_stats a, b;
	struct hist whole;
	char *buf;
	off_t len;
	unsigned i;
	int fd;

	(void)state;
	assert_int_equal(p->nr, 3);
	assert_int_equal(p->ioprio[0], 0);
	assert_int_equal(p->ioprio[1], rt0);
	assert_int_equal(p->ioprio[2], idle);
	for (i = 0; i < 100; i++)
		prio_stats_record(p, i % 4 == 0 ? rt0 : i % 4 == 1 ? idle : 0, 1000 + i);
	prio_stats_record(p, be5, 7); /* not listed: not recorded */
	assert_int_equal(p->h[0].count, 50);
	assert_int_equal(p->h[1].count, 25);
	assert_int_equal(p->h[1].min, 1000);
	assert_int_equal(p->h[2].count, 25);
	assert_int_equal(p->h[2].min, 1001);
	assert_int_equal(prio_stats_used(p), 3);
	assert_int_equal(prio_stats_used(NULL), 0);

	/* A group: this clone's lists, then a clone of one priority (be5)
	 * whose whole direction is added under it, then one of priority 0. */
	hist_init(&whole);
	hist_prepare(&whole);
	for (i = 0; i < 10; i++)
		hist_record(&whole, 500 + i);
	prio_stats_merge(&g, p, 0, NULL);
	prio_stats_merge(&g, NULL, be5, &whole);
	prio_stats_merge(&g, NULL, 0, &whole);
	assert_int_equal(g->nr, 4);
	assert_int_equal(g->ioprio[3], be5);
	assert_int_equal(g->h[3].count, 10);
	assert_int_equal(g->h[0].count, 60);
	assert_int_equal(g->h[0].min, 500);
	hist_free(&whole);
	prio_stats_free(g);

	/* The clone hand-off. */
	stats_init(&a);
	a.dir[STAT_READ].prio = p;
	a.ioprio = 0;
	fd = memfd_create("test_hist", MFD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(stats_save(&a, fd), 0);
	len = lseek(fd, 0, SEEK_END);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(stats_load(&b, fd), 0);
	close(fd);
	assert_non_null(b.dir[STAT_READ].prio);
	assert_null(b.dir[STAT_WRITE].prio);
	assert_int_equal(b.dir[STAT_READ].prio->nr, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(b.dir[STAT_READ].prio->ioprio[i], p->ioprio[i]);
		assert_hist_equal(&b.dir[STAT_READ].prio->h[i], &p->h[i]);
	}
	prio_stats_record(b.dir[STAT_READ].prio, idle, 3);
	assert_int_equal(b.dir[STAT_READ].prio->h[2].min, 3);
	stats_free(&b);

	/* Cut short within the priorities: refused, nothing kept. */
	buf = malloc((size_t)len);
	assert_non_null(buf);
	fd = memfd_create("test_hist", MFD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(stats_save(&a, fd), 0);
	assert_int_equal(pread(fd, buf, (size_t)len, 0), len);
	close(fd);
	fd = memfd_of(buf, (size_t)len - 3);
	assert_int_equal(stats_load(&b, fd), -EIO);
	close(fd);
	for (i = 0; i < STAT_NR; i++)
		assert_null(b.dir[i].prio);
	free(buf);
	stats_free(&a); /* and p with it */
}

/* --output-format=openmetrics's le bounds are 2^k - 1 ns (k 7..34): exact
 * only while a bucket starts at every such 2^k. */
static void test_pow2_starts(void **state)
{
	unsigned k;

	(void)state;
	for (k = 7; k <= 34; k++) {
		assert_int_equal(hist_bucket_lo(hist_index(1ull << k)), 1ull << k);
		assert_int_equal(hist_bucket_hi(hist_index((1ull << k) - 1)), (1ull << k) - 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),		cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_fio_index),	cmocka_unit_test(test_relative_error),
		cmocka_unit_test(test_range),		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_percentile_rank), cmocka_unit_test(test_percentiles_vs_sort),
		cmocka_unit_test(test_mean_stddev),	cmocka_unit_test(test_lat_bins),
		cmocka_unit_test(test_batch_buckets),	cmocka_unit_test(test_stats_handoff),
		cmocka_unit_test(test_prio_stats),	cmocka_unit_test(test_pow2_starts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
