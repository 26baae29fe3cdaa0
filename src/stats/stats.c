/* SPDX-License-Identifier: MIT */
/*
 * Per-worker statistics: initialisation, merging after the run, fio's
 * latency buckets and the summary of interval samples.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>

#include "stats/stats.h"
#include "util/util.h"

/* Upper bounds of fio's latency_ns, latency_us and latency_ms buckets. */
const uint64_t stats_lat_bin_hi[STATS_LAT_BINS] = {
	2,	  4,	     10,	20,	   50,	      100,	  250,	      500,
	750,	  1000,	     2000,	4000,	   10000,     20000,	  50000,      100000,
	250000,	  500000,    750000,	1000000,   2000000,   4000000,	  10000000,   20000000,
	50000000, 100000000, 250000000, 500000000, 750000000, 1000000000, 2000000000, UINT64_MAX,
};

uint8_t stats_lat_bin_of_hist[HIST_NR];
static pthread_once_t lat_bins_once = PTHREAD_ONCE_INIT;

static void lat_bins_build(void)
{
	unsigned i, b = 0;

	for (i = 0; i < HIST_NR; i++) {
		while (hist_bucket_lo(i) >= stats_lat_bin_hi[b])
			b++;
		stats_lat_bin_of_hist[i] = (uint8_t)b;
	}
}

void stats_init(struct run_stats *s)
{
	unsigned d;

	pthread_once(&lat_bins_once, lat_bins_build);
	memset(s, 0, sizeof(*s));
	for (d = 0; d < STAT_NR; d++) {
		hist_init(&s->dir[d].slat);
		hist_init(&s->dir[d].clat);
		hist_init(&s->dir[d].resp);
		hist_init(&s->dir[d].lag);
		hist_init(&s->dir[d].lat);
	}
}

void stats_prepare(struct run_stats *s, unsigned d, unsigned which)
{
	struct dir_stats *ds = &s->dir[d];

	if (which & STATS_H_SLAT)
		hist_prepare(&ds->slat);
	if (which & STATS_H_CLAT)
		hist_prepare(&ds->clat);
	if (which & STATS_H_LAT)
		hist_prepare(&ds->lat);
	if (which & STATS_H_RATE) {
		hist_prepare(&ds->resp);
		hist_prepare(&ds->lag);
	}
}

/* The histograms of @s, in a fixed order (the one stats_save writes). */
#define STATS_HISTS (STAT_NR * 5)
static struct hist *hist_at(struct run_stats *s, unsigned k)
{
	struct dir_stats *ds = &s->dir[k / 5];
	struct hist *const v[5] = { &ds->slat, &ds->clat, &ds->lat, &ds->resp, &ds->lag };

	return v[k % 5];
}

void stats_free(struct run_stats *s)
{
	unsigned k;

	for (k = 0; k < STATS_HISTS; k++)
		free(hist_at(s, k)->bucket);
	for (k = 0; k < STAT_NR; k++)
		prio_stats_free(s->dir[k].prio);
	act_free(s->act);
	stats_init(s);
}

/* One non-zero bucket as stats_save writes it. */
struct saved_bucket {
	uint32_t idx;
	uint64_t count;
};

int stats_hist_save(const struct hist *h, int fd)
{
	struct saved_bucket b;
	uint32_t n = 0;
	unsigned i;
	int ret;

	for (i = 0; h->bucket && i < HIST_NR; i++)
		n += h->bucket[i] != 0;
	ret = util_write_all(fd, &n, sizeof(n));
	for (i = 0; h->bucket && i < HIST_NR && !ret; i++) {
		if (!h->bucket[i])
			continue;
		memset(&b, 0, sizeof(b));
		b.idx = i;
		b.count = h->bucket[i];
		ret = util_write_all(fd, &b, sizeof(b));
	}
	return ret;
}

int stats_hist_load(struct hist *h, int fd)
{
	struct saved_bucket b;
	uint32_t n, j;
	int ret = util_read_all(fd, &n, sizeof(n));

	h->bucket = NULL;
	if (!ret && (n > HIST_NR || (!n && h->count)))
		ret = -EIO;
	if (!ret && n)
		hist_prepare(h);
	for (j = 0; j < n && !ret; j++) {
		ret = util_read_all(fd, &b, sizeof(b));
		if (!ret && b.idx >= HIST_NR)
			ret = -EIO;
		if (!ret)
			h->bucket[b.idx] = b.count;
	}
	return ret;
}

/* The struct as it is (its bucket pointers mean nothing to the reader),
 * then per histogram the number of non-zero buckets and those buckets:
 * a clone's few dozen rather than 20 x 18.5 KiB; then each direction's
 * per-priority histograms. */
int stats_save(const struct run_stats *s, int fd)
{
	unsigned k;
	int ret = util_write_all(fd, s, sizeof(*s));

	for (k = 0; k < STATS_HISTS && !ret; k++)
		ret = stats_hist_save(hist_at((struct run_stats *)s, k), fd);
	for (k = 0; k < STAT_NR && !ret; k++)
		ret = prio_stats_save(s->dir[k].prio, fd);
	if (!ret)
		ret = act_save(s->act, fd);
	return ret;
}

int stats_load(struct run_stats *s, int fd)
{
	unsigned k;
	int ret = util_read_all(fd, s, sizeof(*s));

	for (k = 0; k < STATS_HISTS; k++)
		hist_at(s, k)->bucket = NULL;
	for (k = 0; k < STAT_NR; k++)
		s->dir[k].prio = NULL;
	s->act = NULL;
	for (k = 0; k < STATS_HISTS && !ret; k++)
		ret = stats_hist_load(hist_at(s, k), fd);
	for (k = 0; k < STAT_NR && !ret; k++)
		ret = prio_stats_load(&s->dir[k].prio, fd);
	if (!ret)
		ret = act_load(&s->act, fd);
	if (ret)
		stats_free(s);
	return ret;
}

void stats_sample(struct sample_agg *a, double v)
{
	double delta = v - a->mean;

	if (!a->n || v < a->min)
		a->min = v;
	if (!a->n || v > a->max)
		a->max = v;
	a->n++;
	/* Welford's update: no cancellation however long the run. */
	a->mean += delta / (double)a->n;
	a->m2 += delta * (v - a->mean);
}

double stats_sample_mean(const struct sample_agg *a)
{
	return a->mean;
}

/* fio divides by n - 1 for the samples' deviation. */
double stats_sample_stddev(const struct sample_agg *a)
{
	return a->n < 2 || a->m2 <= 0 ? 0 : sqrt(a->m2 / (double)(a->n - 1));
}

/*
 * A group's bandwidth and IOPS are its clones' together, so fio's
 * sum_thread_stats adds their summaries rather than pooling the samples:
 * the mean, min and max are the sums of the clones' (the group's rate),
 * and the samples and squared deviations add up too.
 */
static void sample_merge(struct sample_agg *dst, const struct sample_agg *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->n += src->n;
	dst->mean += src->mean;
	dst->m2 += src->m2;
}

void stats_dir_merge(struct dir_stats *a, const struct dir_stats *b)
{
	unsigned i;

	a->ios += b->ios;
	a->bytes += b->bytes;
	a->ms_sum += b->ms_sum;
	for (i = 0; i < STATS_MS_BUCKETS; i++)
		a->ms[i] += b->ms[i];
	for (i = 0; i < STATS_LAT_BINS; i++)
		a->lat_bins[i] += b->lat_bins[i];
	hist_merge(&a->slat, &b->slat);
	hist_merge(&a->clat, &b->clat);
	hist_merge(&a->resp, &b->resp);
	hist_merge(&a->lag, &b->lag);
	hist_merge(&a->lat, &b->lat);
	sample_merge(&a->bw, &b->bw);
	sample_merge(&a->iops, &b->iops);
}

void stats_merge(struct run_stats *dst, const struct run_stats *src)
{
	unsigned d, i;

	for (d = 0; d < STAT_NR; d++)
		stats_dir_merge(&dst->dir[d], &src->dir[d]);
	for (i = 0; i < STATS_DEPTHS; i++) {
		dst->depth[i] += src->depth[i];
		dst->submit[i] += src->submit[i];
		dst->complete[i] += src->complete[i];
	}
	if (src->elapsed > dst->elapsed)
		dst->elapsed = src->elapsed;
	dst->runtime_sum += src->runtime_sum;
	dst->errors += src->errors;
	dst->errors_listed += src->errors_listed;
	dst->verified += src->verified;
	dst->verify_bytes += src->verify_bytes;
	dst->verify_bad += src->verify_bad;
	dst->verify_skipped += src->verify_skipped;
	dst->verify_cut |= src->verify_cut;
	if (src->depth_max > dst->depth_max)
		dst->depth_max = src->depth_max;
	dst->ru.usr += src->ru.usr;
	dst->ru.sys += src->ru.sys;
	dst->ru.ctx += src->ru.ctx;
	dst->ru.majf += src->ru.majf;
	dst->ru.minf += src->ru.minf;
	act_merge(&dst->act, src->act);
}
