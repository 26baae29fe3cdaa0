/* SPDX-License-Identifier: MIT */
/*
 * PTS's steady-state rule on a window of rounds: the range of the
 * tracked values within a share of their average, and the rise of the
 * least-squares line over the window within another.  Pure.
 */
#include <math.h>

#include "pts/pts.h"

bool pts_steady_judge(const double *y, unsigned n, double range_pct, double excursion_pct,
		      struct pts_steady *s)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, lo = INFINITY, hi = -INFINITY, d;
	unsigned i;

	*s = (struct pts_steady){ 0 };
	if (!n)
		return false;
	for (i = 0; i < n; i++) {
		sx += i;
		sy += y[i];
		sxx += (double)i * i;
		sxy += i * y[i];
		lo = fmin(lo, y[i]);
		hi = fmax(hi, y[i]);
	}
	s->avg = sy / n;
	s->range = hi - lo;
	d = n * sxx - sx * sx;
	s->slope = d > 0 ? (n * sxy - sx * sy) / d : 0;
	s->excursion = fabs(s->slope) * (n - 1);
	if (s->avg > 0) {
		s->range_pct = 100 * s->range / s->avg;
		s->excursion_pct = 100 * s->excursion / s->avg;
	}
	s->steady = n >= 2 && s->avg > 0 && s->range_pct <= range_pct &&
		    s->excursion_pct <= excursion_pct;
	return s->steady;
}
