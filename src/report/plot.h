/* SPDX-License-Identifier: MIT */
/*
 * Self-contained SVG plots: a line chart of time series (bandwidth, IOPS,
 * latency over a run), a latency histogram on a log axis, a latency
 * exceedance plot (CDF), a heat map of latency over time and a bar chart.
 * The SVG uses no script, no stylesheet and no font from outside, so a
 * browser shows it as it is.  Pure: the plots are appended to a strbuf; no
 * file I/O, no globals.  Every string from the caller is XML-escaped;
 * control bytes, which XML 1.0 cannot carry at all, are written as '?'.
 * Other text is passed through and should be UTF-8.
 *
 * Hooks for tests and scripts: each series is a <polyline class="series"
 * data-name="...">, each histogram bar a <rect class="bar" data-pct="...">
 * (its share of I/Os in percent), each percentile marker a
 * <g class="pct" data-p="99" data-ns="..."> holding its line, and its
 * label a <g class="pct-label" data-p="99"> (markers of one value share
 * the first one's).  Every <text> carries data-box="x y w h": the box it
 * may cover (the font's line box, a little wider than DejaVu Sans draws
 * it), so that a test can check that no two texts overlap.
 */
#ifndef IOGAUGE_PLOT_H
#define IOGAUGE_PLOT_H

#include <stddef.h>

#include "stats/hist.h"
#include "stats/iolog.h"
#include "util/util.h"

struct plot_point {
	double t; /* s since the job started */
	double v; /* in the chart's y unit, >= 0 */
};

/* A histogram's y axis: the share of I/Os in percent, or its log10. */
enum plot_scale { PLOT_SCALE_LINEAR, PLOT_SCALE_LOG };

/* One latency distribution of plot_cdf_svg. */
struct plot_dist {
	const char *name;     /* legend text; NULL reads as "(unnamed)" */
	const struct hist *h; /* with buckets, or empty */
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
 * ..., labelled in ns/us/ms/s), y the share of I/Os in percent on a log
 * axis (PLOT_SCALE_LOG below), as bars of 1/20 decade each (fio's buckets
 * merged, each by its middle clamped to min..max; a bar holding any I/O
 * is at least 1 px tall).  For each of @pcts in (0, 100] a vertical
 * marker is drawn at hist_percentile(h, p), labelled "pNN value"; others
 * are skipped.  A caption gives min, mean, max and the count.  An empty
 * @h gives a valid SVG that says "no samples".  @pcts may be NULL when
 * @npcts is 0.
 */
void plot_hist_svg(struct strbuf *sb, const char *title, const struct hist *h, const double *pcts,
		   unsigned npcts);
/*
 * The same with the y axis @yscale: PLOT_SCALE_LOG (what plot_hist_svg
 * draws) has decades of percent from one below the smallest bar's share
 * to the largest's, so a 0.01% tail is a decade tall or more;
 * PLOT_SCALE_LINEAR is from 0.  The percentile labels never overlap:
 * markers of one value share one label ("p99/p99.9 1.2ms"), and each
 * label goes in the first row from the top where it touches no other
 * (the plot is made taller when @npcts rows would not fit).
 */
void plot_hist_scale_svg(struct strbuf *sb, const char *title, const struct hist *h,
			 const double *pcts, unsigned npcts, enum plot_scale yscale);

/*
 * Appends a latency exceedance plot of @d to @sb, as HdrHistogram's:
 * x is the percentile p on a log axis of 1/(1 - p/100) (ticks 0%, 90%,
 * 99%, 99.9% ... up to the last the largest count reaches), y the latency
 * on a log axis (decades in ns/us/ms/s).  One polyline per distribution,
 * <polyline class="series" data-name="..."> with a point for every
 * non-empty bucket (x the percent of I/Os at or below it, y its middle
 * clamped to min..max, as hist_percentile reads it), the same points also
 * given as numbers in data-p="p1 p2 ..." and data-ns="ns1 ns2 ..." (the
 * last, 100%, is drawn at the right edge).  A legend; empty
 * distributions are listed as "(no samples)".
 * @d may be NULL when @n is 0.
 */
void plot_cdf_svg(struct strbuf *sb, const char *title, const struct plot_dist *d, unsigned n);

/*
 * Appends a heat map of latency over time to @sb, from histogram-log
 * lines (struct iolog_hist, fio's bins): @heads holds @nheads lists, one
 * a clone, summed column by column (the k-th window of each list, lines
 * of one window share their t).  Only lines of direction @dir (0 read,
 * 1 write) count, or of every direction when @dir < 0.  Columns are the
 * windows (x: time in s; past 345 windows, adjacent ones are merged so
 * that a column is 2 px at least), rows 1/10 decade of latency (y: log
 * axis), the
 * colour the count in the cell on a log scale, with a legend.  Each
 * non-empty cell is a <rect class="cell" data-t="ms" data-lo="ns"
 * data-hi="ns" data-n="count">.  No lines gives a chart that says
 * "no samples".
 */
void plot_heat_svg(struct strbuf *sb, const char *title, const struct iolog_hist *const *heads,
		   unsigned nheads, int dir);

/*
 * Appends a bar chart of @n @values (>= 0) to @sb, each labelled
 * @labels[i] under its bar and with its value above it (as "%.*f" with
 * @decimals), bars of equal width, a y axis @ylabel from 0, @xlabel under
 * the labels.  Labels that would not fit beside each other are written
 * every second (or third ...) bar.  Each bar is <rect class="bar"
 * data-label="..." data-v="...">.  For the SQLIO millisecond histogram:
 * labels "0".."24+", values in percent.
 */
void plot_bars_svg(struct strbuf *sb, const char *title, const char *xlabel, const char *ylabel,
		   const char *const *labels, const double *values, unsigned n, int decimals);

#endif
