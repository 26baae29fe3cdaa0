/* SPDX-License-Identifier: MIT */
/*
 * The shape of a sweep's points (which values a point has, the lines
 * along an axis) and the knee and crossover of each line, on the means
 * or on one repeat's figures.
 */
#include <stdlib.h>

#include "sweep/knee.h"
#include "sweep/sweep.h"

static unsigned stride_of(const struct sweep_result *r, unsigned a)
{
	unsigned s = 1, i;

	for (i = 0; i < a; i++)
		s *= r->axes[i].n;
	return s;
}

unsigned sweep_value_of(const struct sweep_result *r, unsigned p, unsigned a)
{
	return (p / stride_of(r, a)) % r->axes[a].n;
}

struct sweep_line *sweep_lines(const struct sweep_result *r, unsigned along, unsigned *nr)
{
	unsigned stride = stride_of(r, along), n = r->axes[along].n, p;
	struct sweep_line *l = xcalloc(r->npoints / n, sizeof(*l));

	*nr = 0;
	for (p = 0; p < r->npoints; p++) {
		if (sweep_value_of(r, p, along))
			continue;
		l[*nr].first = p;
		l[*nr].stride = stride;
		l[*nr].n = n;
		(*nr)++;
	}
	return l;
}

/* The line's points measured (all, or none when the last is not). */
static unsigned line_len(const struct sweep_result *r, const struct sweep_line *l)
{
	return l->first + (l->n - 1) * l->stride < r->done ? l->n : 0;
}

static const struct sweep_metrics *at(const struct sweep_result *r, unsigned p, int rep)
{
	return rep < 0 ? &r->avg[p] : &r->m[p * r->repeat + (unsigned)rep];
}

int sweep_line_knee(const struct sweep_result *r, const struct sweep_line *l, int rep)
{
	unsigned n = line_len(r, l), i;
	double *iops = xcalloc(n + 1, sizeof(double)), *lat = xcalloc(n + 1, sizeof(double));
	int k;

	for (i = 0; i < n; i++) {
		iops[i] = at(r, l->first + i * l->stride, rep)->iops;
		lat[i] = at(r, l->first + i * l->stride, rep)->p99;
	}
	k = sweep_knee(iops, lat, n, r->knee_gain, r->knee_lat);
	free(iops);
	free(lat);
	return k;
}

int sweep_line_crossover(const struct sweep_result *r, const struct sweep_line *l, int rep)
{
	unsigned n = line_len(r, l), i;
	double *bw = xcalloc(n + 1, sizeof(double));
	int k;

	for (i = 0; i < n; i++)
		bw[i] = at(r, l->first + i * l->stride, rep)->bw;
	k = sweep_crossover(bw, n, r->cross_bw);
	free(bw);
	return k;
}
