/* SPDX-License-Identifier: MIT */
/* fio's steady-state judgement over a ring of samples (see steady.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/steady.h"
#include "util/util.h"

void steady_init(struct steady *s, const struct steady_spec *spec, unsigned dur)
{
	memset(s, 0, sizeof(*s));
	s->spec = *spec;
	s->dur = dur;
	s->iops = xcalloc(dur, sizeof(*s->iops));
	s->bw = xcalloc(dur, sizeof(*s->bw));
}

void steady_free(struct steady *s)
{
	free(s->iops);
	free(s->bw);
	s->iops = s->bw = NULL;
}

/* The judged value of slot @k. */
static uint64_t judged(const struct steady *s, unsigned k)
{
	return s->spec.kind == STEADY_IOPS || s->spec.kind == STEADY_IOPS_SLOPE ? s->iops[k]
										: s->bw[k];
}

bool steady_add(struct steady *s, uint64_t iops, uint64_t bw)
{
	bool slope = s->spec.kind == STEADY_IOPS_SLOPE || s->spec.kind == STEADY_BW_SLOPE;
	double n = s->dur, sum_y = 0, sum_xy = 0, sum_x, sum_xx, mean, v;
	unsigned i, k;

	s->iops[s->next] = iops;
	s->bw[s->next] = bw;
	s->next = (s->next + 1) % s->dur;
	if (++s->samples < s->dur)
		return false;
	/* x: 0 for the oldest sample of the window, dur - 1 for this one. */
	for (i = 0; i < s->dur; i++) {
		k = (s->next + i) % s->dur;
		sum_y += (double)judged(s, k);
		sum_xy += (double)i * (double)judged(s, k);
	}
	mean = sum_y / n;
	if (slope) {
		sum_x = n * (n - 1) / 2;
		sum_xx = (n - 1) * n * (2 * n - 1) / 6;
		s->slope = (sum_xy - sum_x * sum_y / n) / (sum_xx - sum_x * sum_x / n);
		v = s->slope;
	} else {
		s->deviation = 0;
		for (i = 0; i < s->dur; i++)
			s->deviation = fmax(s->deviation, fabs((double)judged(s, i) - mean));
		v = s->deviation;
	}
	s->criterion = s->spec.pct ? 100.0 * v / mean : v;
	/* As fio: a slope counts by its size.  A window without I/O has a
	 * percentage of 0/0, which fio 3.33 takes as held (its run of it
	 * ends, with a criterion of -nan%). */
	s->attained = (s->spec.pct && mean == 0) || fabs(s->criterion) < s->spec.limit;
	return s->attained;
}

void steady_sample(const struct steady *s, unsigned i, uint64_t *iops, uint64_t *bw)
{
	/* Until the ring is full it is reported from its first slot. */
	unsigned k = s->samples < s->dur ? i : (s->next + i) % s->dur;

	*iops = s->iops[k];
	*bw = s->bw[k];
}

uint64_t steady_iops_mean(const struct steady *s)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < s->dur; i++)
		sum += s->iops[i];
	return sum / s->dur;
}

uint64_t steady_bw_mean(const struct steady *s)
{
	uint64_t sum = 0;
	unsigned i;

	for (i = 0; i < s->dur; i++)
		sum += s->bw[i];
	return sum / s->dur;
}

const char *steady_kind_name(enum steady_kind k)
{
	static const char *const names[] = { "iops", "iops_slope", "bw", "bw_slope" };

	return names[k];
}
