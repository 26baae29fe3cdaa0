/* SPDX-License-Identifier: MIT */
/*
 * The statistics of iogauge compare (see cmp_stats.h).
 */
#include <math.h>
#include <stdlib.h>

#include "compare/cmp_stats.h"
#include "workload/rand.h"

#define BOOT_RESAMPLES 2000
#define Z975	       1.959964

double cmp_t975(double df)
{
	/* t(0.975, df) for df 1..30, then 1.96 + (t - 1.96) shrinking as 1/df. */
	static const double t[30] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
				      2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
				      2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
				      2.060,  2.056, 2.052, 2.048, 2.045, 2.042 };
	unsigned k;

	if (df < 1)
		df = 1;
	if (df <= 30) {
		k = (unsigned)floor(df);
		if (k >= 30)
			return t[29];
		/* Linear between whole degrees of freedom. */
		return t[k - 1] + (t[k] - t[k - 1]) * (df - k);
	}
	return Z975 + (t[29] - Z975) * 30.0 / df;
}

static int dbl_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static double mean_of(const double *v, unsigned n)
{
	double s = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

bool cmp_boot_ratio(const double *a, unsigned na, const double *b, unsigned nb, double *lo,
		    double *hi)
{
	double *r, sa, sb;
	struct rng g;
	unsigned i, k;

	if (na < 2 || nb < 2 || mean_of(a, na) <= 0 || mean_of(b, nb) <= 0)
		return false;
	r = malloc(BOOT_RESAMPLES * sizeof(*r));
	if (!r)
		return false;
	rng_seed(&g, 0x636f6d70617265ull); /* "compare" */
	for (i = 0; i < BOOT_RESAMPLES; i++) {
		sa = sb = 0;
		for (k = 0; k < na; k++)
			sa += a[rng_below(&g, na)];
		for (k = 0; k < nb; k++)
			sb += b[rng_below(&g, nb)];
		r[i] = sa > 0 ? (sb / nb) / (sa / na) : INFINITY;
	}
	qsort(r, BOOT_RESAMPLES, sizeof(*r), dbl_cmp);
	*lo = r[(unsigned)(0.025 * BOOT_RESAMPLES)];
	*hi = r[(unsigned)(0.975 * BOOT_RESAMPLES) - 1];
	free(r);
	return isfinite(*hi);
}

bool cmp_delta_ratio(double ma, double sda, double na, double mb, double sdb, double nb, double *lo,
		     double *hi)
{
	double va, vb, se, df, t;

	if (na < 2 || nb < 2 || ma <= 0 || mb <= 0)
		return false;
	/* Var(log m) ~ sd^2 / (n m^2); Welch-Satterthwaite for the degrees. */
	va = sda * sda / (na * ma * ma);
	vb = sdb * sdb / (nb * mb * mb);
	se = sqrt(va + vb);
	df = va + vb > 0 ? (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1)) : 1e9;
	t = cmp_t975(df);
	*lo = mb / ma * exp(-t * se);
	*hi = mb / ma * exp(t * se);
	return true;
}

/* The value of the @k-th smallest sample (from 1). */
static double at_rank(const struct cmp_bin *bins, unsigned nr, double k)
{
	double cum = 0;
	unsigned i;

	for (i = 0; i < nr; i++) {
		cum += (double)bins[i].count;
		if (cum >= k)
			return (double)bins[i].ns;
	}
	return nr ? (double)bins[nr - 1].ns : 0;
}

bool cmp_bins_pct_ci(const struct cmp_bin *bins, unsigned nr, double p, double *lo, double *hi)
{
	double n = 0, r, d;
	unsigned i;

	for (i = 0; i < nr; i++)
		n += (double)bins[i].count;
	if (n < 1)
		return false;
	p /= 100.0;
	r = n * p;
	d = Z975 * sqrt(n * p * (1 - p));
	*lo = at_rank(bins, nr, fmax(1, floor(r - d))) / (1 + CMP_BIN_ERR);
	*hi = at_rank(bins, nr, fmin(n, ceil(r + d) + 1)) * (1 + CMP_BIN_ERR);
	return true;
}

bool cmp_bins_mw(const struct cmp_bin *a, unsigned na, const struct cmp_bin *b, unsigned nb,
		 double *auc, double *se)
{
	double n1 = 0, n2 = 0, u = 0, below = 0, ties = 0, n, t;
	unsigned i = 0, j = 0;

	for (i = 0; i < na; i++)
		n1 += (double)a[i].count;
	for (j = 0; j < nb; j++)
		n2 += (double)b[j].count;
	if (n1 < 1 || n2 < 1)
		return false;
	/* Both sorted by value: walk them together. */
	for (i = 0, j = 0; j < nb; j++) {
		double eq = 0;

		while (i < na && a[i].ns < b[j].ns)
			below += (double)a[i++].count;
		if (i < na && a[i].ns == b[j].ns)
			eq = (double)a[i].count;
		u += (double)b[j].count * (below + eq / 2);
		t = (double)b[j].count + eq;
		ties += t * t * t - t;
	}
	/* A's values that B has none of are ties among themselves. */
	for (i = 0, j = 0; i < na; i++) {
		while (j < nb && b[j].ns < a[i].ns)
			j++;
		if (j >= nb || b[j].ns != a[i].ns) {
			t = (double)a[i].count;
			ties += t * t * t - t;
		}
	}
	n = n1 + n2;
	*auc = u / (n1 * n2);
	*se = sqrt(n1 * n2 / 12.0 * ((n + 1) - ties / (n * (n - 1)))) / (n1 * n2);
	return true;
}
