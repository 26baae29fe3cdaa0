/* SPDX-License-Identifier: MIT */
/*
 * The statistics of iogauge compare: 95% intervals of a ratio B/A, from
 * repeated runs (bootstrap), from means with their spread (the delta
 * method on the log, Welch's degrees of freedom), or from two latency
 * histograms (order-statistic intervals of a percentile, widened by the
 * bin error; Mann-Whitney on the bins).  Pure functions.
 */
#ifndef IOGAUGE_CMP_STATS_H
#define IOGAUGE_CMP_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "compare/compare.h"

/* The relative error of a json+ bin's value: fio's latency histogram has
 * 64 bins per power of two, so a value is known to within 1/64 of it. */
#define CMP_BIN_ERR (1.0 / 64)

/* Student's t, 97.5% point, for @df degrees of freedom (1.96 as df grows). */
double cmp_t975(double df);

/* The 95% interval of mean(b)/mean(a) by a percentile bootstrap of the
 * runs (2000 resamples, a fixed seed: the same input, the same answer).
 * False when a side has fewer than 2 values or a mean is not positive. */
bool cmp_boot_ratio(const double *a, unsigned na, const double *b, unsigned nb, double *lo,
		    double *hi);

/* The 95% interval of mb/ma from each side's mean, standard deviation and
 * count.  False when a count is below 2 or a mean is not positive. */
bool cmp_delta_ratio(double ma, double sda, double na, double mb, double sdb, double nb, double *lo,
		     double *hi);

/* The 95% interval of percentile @p (0-100) of a histogram: the values at
 * the ranks n p -/+ 1.96 sqrt(n p (1-p)), widened by CMP_BIN_ERR.  False
 * for an empty one. */
bool cmp_bins_pct_ci(const struct cmp_bin *bins, unsigned nr, double p, double *lo, double *hi);

/* Mann-Whitney on two histograms: P(B > A) + P(B = A) / 2, and its
 * standard error (ties corrected), under no difference.  False when one
 * is empty. */
bool cmp_bins_mw(const struct cmp_bin *a, unsigned na, const struct cmp_bin *b, unsigned nb,
		 double *auc, double *se);

#endif
