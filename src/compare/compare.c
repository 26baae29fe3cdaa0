/* SPDX-License-Identifier: MIT */
/*
 * The rows of iogauge compare: per job and direction, IOPS, bandwidth,
 * the mean completion latency and its 50/90/99/99.9th percentiles, B
 * against A, each with a 95% interval of the ratio and a verdict:
 *   - repeated runs on both sides: a bootstrap over the runs;
 *   - otherwise, means: the delta method, from fio's per-window samples of
 *     a single run (iops_mean, iops_stddev, iops_samples) or from the
 *     runs' spread; percentiles: order-statistic intervals of the json+
 *     histograms, and a Mann-Whitney row on the whole distributions.
 * The verdict weighs the interval against the threshold: outside it and
 * excluding 1 is faster or slower; inside it is the same; else
 * inconclusive.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_stats.h"
#include "compare/compare.h"

const char *const cmp_verdict_names[] = { "-", "same", "faster", "slower", "inconclusive" };

static const char *const pct_names[CMP_NR_PCT] = { "clat p50", "clat p90", "clat p99",
						   "clat p99.9" };

enum metric { M_IOPS, M_BW, M_LAT, M_PCT0 };

/* Metric @m of one run's direction. */
static double value(const struct cmp_dir *d, unsigned m)
{
	switch (m) {
	case M_IOPS:
		return d->iops;
	case M_BW:
		return d->bw / (1024.0 * 1024.0);
	case M_LAT:
		return d->lat_mean / 1000.0;
	default:
		return d->pct[m - M_PCT0] / 1000.0;
	}
}

static enum cmp_verdict verdict(double ratio, double lo, double hi, bool higher_better, double thr)
{
	bool up;

	if (lo == 0 && hi == 0)
		return CMP_NONE;
	up = ratio > 1;
	if ((lo > 1 || hi < 1) && fabs(ratio - 1) > thr)
		return up == higher_better ? CMP_BETTER : CMP_WORSE;
	if (lo >= 1 - thr && hi <= 1 + thr)
		return CMP_SAME;
	return CMP_INCONCLUSIVE;
}

/* A side's mean, spread and count of metric @m (IOPS, bandwidth or mean
 * latency) for the delta method: a single run's own samples, or the runs'. */
static bool spread(const struct cmp_side *s, unsigned job, unsigned dir, unsigned m, double *mean,
		   double *sd, double *n)
{
	const struct cmp_dir *d = &s->runs[0].jobs[job].dir[dir];
	double sum = 0, sq = 0, v;
	unsigned i;

	if (s->nr == 1) {
		if (m == M_IOPS) {
			*mean = d->iops_mean, *sd = d->iops_sd, *n = (double)d->iops_samples;
		} else if (m == M_BW) {
			/* KiB/s samples, as MiB/s. */
			*mean = d->bw_mean / 1024, *sd = d->bw_sd / 1024,
			*n = (double)d->bw_samples;
		} else {
			*mean = d->lat_mean / 1000, *sd = d->lat_sd / 1000, *n = (double)d->lat_n;
		}
		return *n >= 2;
	}
	for (i = 0; i < s->nr; i++) {
		v = value(&s->runs[i].jobs[job].dir[dir], m);
		sum += v;
		sq += v * v;
	}
	*n = s->nr;
	*mean = sum / s->nr;
	*sd = sqrt(fmax(0, (sq - sum * sum / s->nr) / (s->nr - 1)));
	return true;
}

static void add_row(struct cmp_table *t, const struct cmp_row *r)
{
	t->rows = xrealloc(t->rows, (t->nr + 1) * sizeof(*t->rows));
	t->rows[t->nr++] = *r;
}

/* The rows of one job's direction. */
static void dir_rows(struct cmp_table *t, const struct cmp_side *a, const struct cmp_side *b,
		     unsigned job, unsigned dir)
{
	const struct cmp_dir *da = &a->runs[0].jobs[job].dir[dir];
	const struct cmp_dir *db = &b->runs[0].jobs[job].dir[dir];
	double *va = xcalloc(a->nr, sizeof(double)), *vb = xcalloc(b->nr, sizeof(double));
	unsigned m, i;

	for (m = 0; m < M_PCT0 + CMP_NR_PCT; m++) {
		struct cmp_row r = { .job = a->runs[0].jobs[job].name, .dir = dir };
		double ma, sa, na, mb, sb, nb;
		bool lat = m != M_IOPS && m != M_BW;

		r.metric = m == M_IOPS	? "IOPS"
			   : m == M_BW	? "bandwidth"
			   : m == M_LAT ? "clat mean"
					: pct_names[m - M_PCT0];
		r.unit = m == M_IOPS ? "IOPS" : m == M_BW ? "MiB/s" : "us";
		for (i = 0; i < a->nr; i++)
			va[i] = value(&a->runs[i].jobs[job].dir[dir], m);
		for (i = 0; i < b->nr; i++)
			vb[i] = value(&b->runs[i].jobs[job].dir[dir], m);
		for (i = 0, r.a = 0; i < a->nr; i++)
			r.a += va[i] / a->nr;
		for (i = 0, r.b = 0; i < b->nr; i++)
			r.b += vb[i] / b->nr;
		r.ratio = r.a > 0 ? r.b / r.a : 0;
		if (a->nr >= 2 && b->nr >= 2) {
			if (cmp_boot_ratio(va, a->nr, vb, b->nr, &r.lo, &r.hi))
				r.how = "bootstrap over runs";
		} else if (m < M_PCT0) {
			if (spread(a, job, dir, m, &ma, &sa, &na) &&
			    spread(b, job, dir, m, &mb, &sb, &nb) &&
			    cmp_delta_ratio(ma, sa, na, mb, sb, nb, &r.lo, &r.hi)) {
				/* The interval's width, about the ratio reported. */
				double c = r.ratio / (mb / ma);

				r.lo *= c;
				r.hi *= c;
				r.how = a->nr == 1 && b->nr == 1
						? (m == M_LAT ? "per-I/O spread"
							      : "per-window samples")
						: "spread of runs";
			}
		} else if (a->nr == 1 && b->nr == 1 && da->bins && db->bins) {
			double alo, ahi, blo, bhi;

			if (cmp_bins_pct_ci(da->bins, da->nr_bins, cmp_pcts[m - M_PCT0], &alo,
					    &ahi) &&
			    cmp_bins_pct_ci(db->bins, db->nr_bins, cmp_pcts[m - M_PCT0], &blo,
					    &bhi) &&
			    alo > 0) {
				r.lo = blo / ahi;
				r.hi = bhi / alo;
				r.how = "json+ bins, order statistics";
			}
		}
		if (!r.how) {
			r.lo = r.hi = 0;
			r.how = a->nr == 1 && b->nr == 1 && m >= M_PCT0
					? "no interval: needs json+ or repeated runs"
					: "no interval: too few samples";
		}
		r.verdict = verdict(r.ratio, r.lo, r.hi, !lat, t->threshold);
		add_row(t, &r);
	}
	if (a->nr == 1 && b->nr == 1 && da->bins && db->bins) {
		struct cmp_row r = { .job = a->runs[0].jobs[job].name,
				     .dir = dir,
				     .metric = "P(B slower)",
				     .unit = "%",
				     .how = "Mann-Whitney on json+ bins" };
		double auc, se;

		if (cmp_bins_mw(da->bins, da->nr_bins, db->bins, db->nr_bins, &auc, &se)) {
			r.a = 50;
			r.b = 100 * auc;
			r.ratio = auc / 0.5;
			r.lo = (auc - 1.959964 * se) / 0.5;
			r.hi = (auc + 1.959964 * se) / 0.5;
			r.verdict = verdict(r.ratio, r.lo, r.hi, false, t->threshold);
			add_row(t, &r);
		}
	}
	free(va);
	free(vb);
}

int cmp_table_make(const struct cmp_side *a, const struct cmp_side *b, double threshold,
		   struct cmp_table *t, char **cause)
{
	const struct cmp_run *ra = &a->runs[0], *rb = &b->runs[0];
	unsigned i, d;

	memset(t, 0, sizeof(*t));
	t->a_path = a->path;
	t->b_path = b->path;
	t->threshold = threshold;
	if (ra->nr != rb->nr)
		return set_cause(cause,
				 "%s has %u jobs and %s %u: they are not runs of the same jobs",
				 ra->path, ra->nr, rb->path, rb->nr);
	for (i = 0; i < ra->nr; i++) {
		if (strcmp(ra->jobs[i].name, rb->jobs[i].name))
			return set_cause(
				cause,
				"%s: job %u is '%s', in %s it is '%s': they are not runs of "
				"the same jobs",
				ra->path, i + 1, ra->jobs[i].name, rb->path, rb->jobs[i].name);
		for (d = 0; d < 3; d++) {
			static const char *const verb[3] = { "read", "write", "trim" };

			if (ra->jobs[i].dir[d].present == rb->jobs[i].dir[d].present)
				continue;
			return set_cause(
				cause,
				"%s: job '%s' has %s%ss, in %s it has %s: they are not runs "
				"of the same jobs",
				ra->path, ra->jobs[i].name, ra->jobs[i].dir[d].present ? "" : "no ",
				verb[d], rb->path, ra->jobs[i].dir[d].present ? "none" : "some");
		}
	}
	for (i = 0; i < ra->nr; i++)
		for (d = 0; d < 3; d++)
			if (ra->jobs[i].dir[d].present)
				dir_rows(t, a, b, i, d);
	return 0;
}

void cmp_table_free(struct cmp_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
