/* SPDX-License-Identifier: MIT */
/* A run_stats copied in and out of fixed-size memory (see snapshot.h). */
#include <string.h>

#include "stats/snapshot.h"

/* The histograms of @s in a fixed order. */
static struct hist *snap_hist(struct run_stats *s, unsigned k)
{
	struct dir_stats *ds = &s->dir[k / 5];
	struct hist *const v[5] = { &ds->slat, &ds->clat, &ds->lat, &ds->resp, &ds->lag };

	return v[k % 5];
}

void stats_snap_put(struct stats_snap *dst, const struct run_stats *src)
{
	unsigned k, lo, hi;

	dst->st = *src;
	for (k = 0; k < SNAP_HISTS; k++) {
		const struct hist *h = snap_hist((struct run_stats *)src, k);

		dst->lo[k] = dst->n[k] = 0;
		if (!h->count || !h->bucket)
			continue;
		/* Every sample is between min's bucket and max's. */
		lo = hist_index(h->min);
		hi = hist_index(h->max);
		dst->lo[k] = lo;
		dst->n[k] = hi - lo + 1;
		memcpy(dst->bucket[k], h->bucket + lo, (size_t)(hi - lo + 1) * sizeof(uint64_t));
	}
}

void stats_snap_get(struct run_stats *dst, const struct stats_snap *src)
{
	uint64_t *keep[SNAP_HISTS];
	unsigned k;

	for (k = 0; k < SNAP_HISTS; k++)
		keep[k] = snap_hist(dst, k)->bucket;
	*dst = src->st;
	for (k = 0; k < SNAP_HISTS; k++) {
		struct hist *h = snap_hist(dst, k);

		h->bucket = keep[k];
		if (!src->n[k] && !h->bucket)
			continue;
		hist_prepare(h);
		memset(h->bucket, 0, HIST_NR * sizeof(uint64_t));
		if (src->n[k] && src->lo[k] < HIST_NR && src->n[k] <= HIST_NR - src->lo[k])
			memcpy(h->bucket + src->lo[k], src->bucket[k],
			       (size_t)src->n[k] * sizeof(uint64_t));
	}
}
