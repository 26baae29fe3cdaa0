/* SPDX-License-Identifier: MIT */
/*
 * Self-contained SVG plots: a line chart of time series (bandwidth, IOPS,
 * latency over a run) and a latency histogram on a log axis.  The SVG uses
 * no script, no stylesheet and no font from outside, so a browser shows it
 * as it is.  Pure: the plots are appended to a strbuf; no file I/O, no
 * globals.  Every string from the caller is XML-escaped; control bytes,
 * which XML 1.0 cannot carry at all, are written as '?'.  Other text is
 * passed through and should be UTF-8.
 *
 * Hooks for tests and scripts: each series is a <polyline class="series"
 * data-name="...">, each histogram bar a <rect class="bar" data-pct="...">
 * (its share of I/Os in percent) and each percentile marker a
 * <g class="pct" data-p="99" data-ns="..."> holding its line and label.
 */
#ifndef IOGAUGE_PLOT_H
#define IOGAUGE_PLOT_H

#include <stddef.h>

#include "stats/hist.h"
#include "util/util.h"

struct plot_point {
	double t; /* s since the job started */
	double v; /* in the chart's y unit, >= 0 */
};

struct plot_series {
	const char *name;	    /* legend text; NULL reads as "(unnamed)" */
	const struct plot_point *p; /* in the order they are joined, usually by t */
	size_t n;
};

/*
 * Appends a line chart to @sb: one polyline per series, with every point
 * of it (no thinning), a legend, an x axis "time (s)" from 0 to the last
 * t, and a y axis @ylabel with round-numbered ticks from 0 to a little
 * above the largest v; @title on top.  Series with n == 0 are listed in
 * the legend as "(no samples)" and drawn as nothing; with no point at all
 * the chart says "no samples".  Values below 0 are drawn on the axis.
 * Inputs must be free of NaN and infinity; all-zero values, a single
 * point and equal t are fine.  @s may be NULL when @nseries is 0.
 */
void plot_lines_svg(struct strbuf *sb, const char *title, const char *ylabel,
		    const struct plot_series *s, unsigned nseries);

/*
 * Appends the latency histogram of @h to @sb: x is latency on a log10
 * scale over the whole decades that hold min..max (ticks at 1, 10, 100 ns
 * ..., labelled in ns/us/ms/s), y the share of I/Os in percent, as bars of
 * 1/20 decade each (fio's buckets merged, each by its middle clamped to
 * min..max; a bar holding any I/O is at least 1 px tall).  For each of @pcts in (0, 100] a vertical marker is drawn at
 * hist_percentile(h, p), labelled "pNN value"; others are skipped.  A
 * caption gives min, mean, max and the count.  An empty @h gives a valid
 * SVG that says "no samples".  @pcts may be NULL when @npcts is 0.
 */
void plot_hist_svg(struct strbuf *sb, const char *title, const struct hist *h, const double *pcts,
		   unsigned npcts);

#endif
