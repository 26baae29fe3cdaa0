/* SPDX-License-Identifier: MIT */
/* A run_stats copied in and out of fixed-size memory (see snapshot.h). */
#include <string.h>

#include "stats/snapshot.h"
#include "util/util.h"

#if defined(__x86_64__)
/* A field added to run_stats is copied as it is: a pointer would reach
 * the reader as the worker's (another process's) address.  Look at
 * stats_snap_put and stats_snap_get, then set the new size here. */
_Static_assert(sizeof(struct run_stats) == 3904, "run_stats changed: see snapshot.c");
#endif

/* The histograms of @s in a fixed order. */
static struct hist *snap_hist(struct run_stats *s, unsigned k)
{
	struct dir_stats *ds = &s->dir[k / 5];
	struct hist *const v[5] = { &ds->slat, &ds->clat, &ds->lat, &ds->resp, &ds->lag };

	return v[k % 5];
}

/* The buckets @h has samples in: every sample is between min's and max's. */
static uint32_t snap_span(const struct hist *h, uint32_t *lo)
{
	if (!h->count || !h->bucket) {
		*lo = 0;
		return 0;
	}
	*lo = hist_index(h->min);
	return hist_index(h->max) - *lo + 1;
}

static void snap_keep(struct stats_snap *dst, struct snap_range *r, const struct hist *h)
{
	r->n = snap_span(h, &r->lo);
	r->at = dst->used;
	if (!r->n) /* maybe no buckets at all */
		return;
	memcpy(dst->pool + r->at, h->bucket + r->lo, (size_t)r->n * sizeof(uint64_t));
	dst->used += r->n;
}

void stats_snap_put(struct stats_snap *dst, const struct run_stats *src)
{
	unsigned k, d, i;
	uint32_t lo, need;

	dst->st = *src;
	dst->used = 0;
	/* These fit whatever their spans: the pool has a whole range each. */
	for (k = 0; k < SNAP_HISTS; k++)
		snap_keep(dst, &dst->r[k], snap_hist((struct run_stats *)src, k));
	for (d = 0; d < STAT_NR; d++) {
		const struct prio_stats *p = src->dir[d].prio;

		dst->has_prio[d] = false;
		if (!p)
			continue;
		for (i = 0, need = 0; i < p->nr; i++)
			need += snap_span(&p->h[i], &lo);
		if (need > SNAP_POOL - dst->used)
			continue;
		dst->prio[d] = *p;
		for (i = 0; i < p->nr; i++)
			snap_keep(dst, &dst->prio_r[d][i], &p->h[i]);
		dst->has_prio[d] = true;
	}
}

/* @h (its buckets allocated) given the buckets @r of @src's pool. */
static void snap_fill(struct hist *h, const struct stats_snap *src, const struct snap_range *r)
{
	hist_prepare(h);
	memset(h->bucket, 0, HIST_NR * sizeof(uint64_t));
	if (r->n && r->lo < HIST_NR && r->n <= HIST_NR - r->lo && r->at <= SNAP_POOL &&
	    r->n <= SNAP_POOL - r->at)
		memcpy(h->bucket + r->lo, src->pool + r->at, (size_t)r->n * sizeof(uint64_t));
}

void stats_snap_get(struct run_stats *dst, const struct stats_snap *src)
{
	uint64_t *keep[SNAP_HISTS];
	unsigned k, d, i;

	for (k = 0; k < SNAP_HISTS; k++)
		keep[k] = snap_hist(dst, k)->bucket;
	for (d = 0; d < STAT_NR; d++)
		prio_stats_free(dst->dir[d].prio);
	act_free(dst->act);
	*dst = src->st;
	for (k = 0; k < SNAP_HISTS; k++) {
		struct hist *h = snap_hist(dst, k);

		h->bucket = keep[k];
		if (src->r[k].n || h->bucket)
			snap_fill(h, src, &src->r[k]);
	}
	for (d = 0; d < STAT_NR; d++) {
		struct prio_stats *p;

		/* The worker's pointer: never the reader's to follow. */
		dst->dir[d].prio = NULL;
		if (!src->has_prio[d])
			continue;
		p = xcalloc(1, sizeof(*p));
		*p = src->prio[d];
		for (i = 0; i < PRIO_STATS_MAX; i++) {
			p->h[i].bucket = NULL;
			if (i < p->nr)
				snap_fill(&p->h[i], src, &src->prio_r[d][i]);
		}
		dst->dir[d].prio = p;
	}
	/* --profile=act's slices are the run's end's, not a status report's. */
	dst->act = NULL;
}
