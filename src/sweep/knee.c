/* SPDX-License-Identifier: MIT */
/*
 * The knee and crossover rules of knee.h.  Pure: no I/O, no allocation.
 */
#include <stdbool.h>

#include "sweep/knee.h"

/* The growth from @a to @b in percent; a start of 0 or less grows
 * without bound when the end is above 0 (and not at all otherwise). */
static double growth_pct(double a, double b)
{
	if (a <= 0)
		return b > 0 ? 1e300 : 0;
	return (b / a - 1) * 100;
}

int sweep_knee(const double *iops, const double *lat, unsigned n, double gain_pct, double lat_pct)
{
	int knee = -1;
	unsigned i;

	for (i = 1; i < n; i++) {
		double gain = growth_pct(iops[i - 1], iops[i]);

		if (gain >= gain_pct)
			knee = -1; /* it rose again: an earlier bend was noise */
		else if (knee < 0 && growth_pct(lat[i - 1], lat[i]) > lat_pct)
			knee = (int)i - 1;
	}
	return knee;
}

int sweep_crossover(const double *bw, unsigned n, double bw_pct)
{
	bool rose = false;
	int cross = -1;
	unsigned i;

	for (i = 1; i < n; i++) {
		if (growth_pct(bw[i - 1], bw[i]) >= bw_pct) {
			rose = true;
			cross = -1;
		} else if (cross < 0 && rose) {
			cross = (int)i - 1;
		}
	}
	return cross;
}
