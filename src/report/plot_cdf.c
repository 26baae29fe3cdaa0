/* SPDX-License-Identifier: MIT */
/*
 * The latency exceedance plot (a CDF turned so the tail gets the room),
 * as HdrHistogram draws it: x is 1/(1 - p) on a log axis, so 90%, 99%,
 * 99.9% ... are equally spaced; y is latency on a log axis.  Read from the
 * histogram buckets, so each step is one bucket (within 1/128 of every
 * value in it).  Pure, as every plot: numbers in, SVG text out.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/plot.h"
#include "report/plot_svg.h"

#define NINES_MAX 7 /* 99.99999%: wider ticks would not fit between decades */

/* The x of the share @p (0..1) of I/Os at or below, on @nines decades. */
static double cdf_x(const struct frame *f, double p, int nines)
{
	if (p >= 1)
		return f->r;
	return f->l + (f->r - f->l) * svg_clamp01(-log10(1 - p) / nines);
}

static void cdf_x_ticks(struct strbuf *sb, const struct frame *f, int nines)
{
	char label[32];
	double x;
	int d, m;

	for (d = 0; d <= nines; d++) {
		x = cdf_x(f, 1 - pow(10, -d), nines);
		svg_grid(sb, x, f->t, x, f->b);
		snprintf(label, sizeof(label), "%.*f%%", d > 2 ? d - 2 : 0,
			 100 * (1 - pow(10, -d)));
		svg_text(sb, x, f->b + 19, "middle", 12, "", label);
		for (m = 2; d < nines && m < 10; m++) {
			x = cdf_x(f, 1 - 1.0 / (m * pow(10, d)), nines);
			strbuf_addf(sb,
				    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				    "stroke=\"#000\"/>\n",
				    x, f->b, x, f->b + 4);
		}
	}
}

/* The value hist_percentile gives for the share that ends at bucket @i
 * (@last: the whole count, which is max exactly). */
static uint64_t step_ns(const struct hist *h, unsigned i, int last)
{
	uint64_t v = hist_bucket_mid(i);

	if (last)
		return h->max;
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

static void cdf_series(struct strbuf *sb, const struct frame *f, const struct plot_dist *d,
		       const char *color, int nines, int lo, int hi)
{
	const struct hist *h = d->h;
	struct strbuf ps = { 0 }, ns = { 0 };
	uint64_t cum = 0, v;
	unsigned i;
	double y;

	svg_puts(sb, "<polyline class=\"series\" data-name=\"");
	svg_escape(sb, d->name ? d->name : "(unnamed)");
	strbuf_addf(sb,
		    "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" "
		    "stroke-linejoin=\"round\" points=\"",
		    color);
	for (i = 0; i < HIST_NR; i++) {
		if (!h->bucket[i])
			continue;
		/* A step: every share from the one before this bucket to the
		 * one after it reads the same value. */
		v = step_ns(h, i, cum + h->bucket[i] == h->count);
		y = svg_ns_y(f, (double)v, lo, hi);
		strbuf_addf(sb, "%s%.1f,%.1f %.1f,%.1f", cum ? " " : "",
			    cdf_x(f, (double)cum / (double)h->count, nines), y,
			    cdf_x(f, (double)(cum + h->bucket[i]) / (double)h->count, nines), y);
		cum += h->bucket[i];
		strbuf_addf(&ps, "%s%.10g", ps.len ? " " : "",
			    100.0 * (double)cum / (double)h->count);
		strbuf_addf(&ns, "%s%" PRIu64, ns.len ? " " : "", v);
		if (cum == h->count)
			break;
	}
	strbuf_addf(sb, "\" data-p=\"%s\" data-ns=\"%s\"/>\n", ps.buf, ns.buf);
	strbuf_free(&ps);
	strbuf_free(&ns);
}

void plot_cdf_svg(struct strbuf *sb, const char *title, const struct plot_dist *d, unsigned n)
{
	struct frame f = { 900, 460, 80, 700, 50, 380 };
	uint64_t most = 0, min = UINT64_MAX, max = 0;
	const char **names = xcalloc(n ? n : 1, sizeof(*names));
	bool *empty = xcalloc(n ? n : 1, sizeof(*empty));
	int nines, lo, hi;
	unsigned i;

	for (i = 0; i < n; i++) {
		const struct hist *h = d[i].h;

		names[i] = d[i].name;
		empty[i] = !h->count || !h->bucket;
		if (empty[i])
			continue;
		most = h->count > most ? h->count : most;
		min = h->min < min ? h->min : min;
		max = h->max > max ? h->max : max;
	}
	if (f.t + 10 + (double)SVG_LEGEND_STEP * n > f.h - 10)
		f.h = (int)(f.t + 20 + (double)SVG_LEGEND_STEP * n);
	/* Decades of 1/(1 - p) up to the count: the last step but one is at
	 * 1 - 1/count. */
	nines = most > 1 ? (int)ceil(log10((double)most) - 1e-9) : 1;
	nines = nines < 1 ? 1 : nines > NINES_MAX ? NINES_MAX : nines;
	lo = most ? (int)floor(svg_lg((double)min)) : 3;
	hi = most ? (int)ceil(svg_lg((double)max)) : 6;
	hi = hi > lo ? hi : lo + 1;
	svg_open(sb, &f, title);
	cdf_x_ticks(sb, &f, nines);
	svg_ns_ticks_y(sb, &f, lo, hi);
	if (!most)
		svg_no_samples(sb, &f);
	for (i = 0; i < n; i++)
		if (!empty[i])
			cdf_series(sb, &f, &d[i], svg_colors[i % SVG_NCOLORS], nines, lo, hi);
	svg_frame(sb, &f, "percentile (log scale of 1/(1-p))", "latency (log scale)");
	svg_legend(sb, &f, names, empty, n);
	svg_puts(sb, "</svg>\n");
	free(names);
	free(empty);
}
