/* SPDX-License-Identifier: MIT */
/* Per-worker statistics: initialisation and merging after the run. */
#include <string.h>

#include "iogauge/stats.h"

void stats_init(struct run_stats *s)
{
	unsigned d;

	memset(s, 0, sizeof(*s));
	for (d = 0; d < STAT_NR; d++) {
		hist_init(&s->dir[d].slat);
		hist_init(&s->dir[d].clat);
		hist_init(&s->dir[d].lat);
	}
}

void stats_merge(struct run_stats *dst, const struct run_stats *src)
{
	unsigned d, i;

	for (d = 0; d < STAT_NR; d++) {
		dst->dir[d].ios += src->dir[d].ios;
		dst->dir[d].bytes += src->dir[d].bytes;
		for (i = 0; i < STATS_MS_BUCKETS; i++)
			dst->dir[d].ms[i] += src->dir[d].ms[i];
		hist_merge(&dst->dir[d].slat, &src->dir[d].slat);
		hist_merge(&dst->dir[d].clat, &src->dir[d].clat);
		hist_merge(&dst->dir[d].lat, &src->dir[d].lat);
	}
	for (i = 0; i < STATS_DEPTHS; i++)
		dst->depth[i] += src->depth[i];
	if (src->elapsed > dst->elapsed)
		dst->elapsed = src->elapsed;
	if (src->depth_max > dst->depth_max)
		dst->depth_max = src->depth_max;
}
