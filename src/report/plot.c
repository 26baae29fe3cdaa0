/* SPDX-License-Identifier: MIT */
/*
 * SVG plots: a line chart of time series and a latency histogram on a log
 * axis, written as plain SVG with inline attributes only (no script, no
 * CSS, a generic font family), so any browser shows them as they are.
 * It is not a reporter: it chooses no series, opens no file and prints
 * nothing; it turns numbers into a strbuf.  Coordinates are SVG user
 * units (px), written with one decimal.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "report/plot.h"

#define BINS_PER_DECADE 20
#define DECADES_MAX	20 /* 10^20 ns > UINT64_MAX */
#define LEGEND_STEP	20 /* px between legend rows */

/* The canvas and, inside it, the plot area (px). */
struct frame {
	int w, h;
	double l, r, t, b;
};

/* A linear axis from 0 to @hi in ticks of @step (both > 0). */
struct axis {
	double hi, step;
};

static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
				      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };

static void sb_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

static void xml_escape(struct strbuf *sb, const char *s)
{
	static const char special[] = "&<>\"'";
	static const char *const entity[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	const char *e;

	for (; *s; s++) {
		if ((e = strchr(special, *s)))
			sb_puts(sb, entity[e - special]);
		else if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
			strbuf_addc(sb, '?'); /* XML 1.0 cannot carry these, not even as &#n; */
		else
			strbuf_addc(sb, *s);
	}
}

/* A light gridline, then an open <text> at (@tx, @ty) for its label. */
static void grid_line(struct strbuf *sb, double x1, double y1, double x2, double y2, double tx,
		      double ty, const char *anchor)
{
	strbuf_addf(sb,
		    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n"
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
		    x1, y1, x2, y2, tx, ty, anchor);
}

static void svg_open(struct strbuf *sb, const struct frame *f, const char *title)
{
	strbuf_addf(sb,
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n<title>",
		    f->w, f->h, f->w, f->h);
	xml_escape(sb, title ? title : "");
	strbuf_addf(sb,
		    "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n"
		    "<text x=\"%d\" y=\"28\" text-anchor=\"middle\" font-size=\"16\" "
		    "font-weight=\"bold\">",
		    f->w, f->h, f->w / 2);
	xml_escape(sb, title ? title : "");
	sb_puts(sb, "</text>\n");
}

/* The plot area's border, and the axis titles: @ylabel turned upright. */
static void svg_frame(struct strbuf *sb, const struct frame *f, const char *xlabel,
		      const char *ylabel)
{
	strbuf_addf(sb,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		    "stroke=\"#000\"/>\n",
		    f->l, f->t, f->r - f->l, f->b - f->t);
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (f->l + f->r) / 2,
		    f->b + 36);
	xml_escape(sb, xlabel);
	strbuf_addf(sb,
		    "</text>\n<text transform=\"translate(20 %.1f) rotate(-90)\" "
		    "text-anchor=\"middle\">",
		    (f->t + f->b) / 2);
	xml_escape(sb, ylabel ? ylabel : "");
	sb_puts(sb, "</text>\n");
}

static void svg_no_samples(struct strbuf *sb, const struct frame *f)
{
	strbuf_addf(sb,
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"14\" "
		    "fill=\"#666\">no samples</text>\n",
		    (f->l + f->r) / 2, (f->t + f->b) / 2);
}

/* Round ticks, 1, 2 or 5 times a power of ten, about five of them, from 0
 * to @max * @headroom or a little more; a @max of 0 or less reads as 1. */
static struct axis axis_nice(double max, double headroom)
{
	struct axis a;
	double raw, mag, m;

	if (!(max > 0))
		max = 1;
	max *= headroom;
	raw = max / 5;
	mag = pow(10, floor(log10(raw)));
	m = raw / mag;
	a.step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
	a.hi = ceil(max / a.step - 1e-9) * a.step; /* max / step is in [0.5, 5] */
	return a;
}

/* @v as a tick label of @a: k/M/G past 10^4, as many decimals as the step needs. */
static void tick_label(struct strbuf *sb, double v, const struct axis *a)
{
	double scale = a->hi >= 1e10 ? 1e9 : a->hi >= 1e7 ? 1e6 : a->hi >= 1e4 ? 1e3 : 1;
	const char *sfx = scale == 1e9 ? "G" : scale == 1e6 ? "M" : scale == 1e3 ? "k" : "";
	double st = a->step / scale;
	int dec = st >= 1 ? 0 : (int)ceil(-log10(st) - 1e-9);

	if (v == 0)
		strbuf_addc(sb, '0');
	else
		strbuf_addf(sb, "%.*f%s", dec < 6 ? dec : 6, v / scale, sfx);
}

static double clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* Gridlines and labels of a linear axis: vertical ones when @is_x. */
static void axis_ticks(struct strbuf *sb, const struct frame *f, const struct axis *a, int is_x)
{
	double v, pos;
	unsigned k;

	for (k = 0; (v = k * a->step) <= a->hi * (1 + 1e-9); k++) {
		if (is_x) {
			pos = f->l + (f->r - f->l) * v / a->hi;
			grid_line(sb, pos, f->t, pos, f->b, pos, f->b + 16, "middle");
		} else {
			pos = f->b - (f->b - f->t) * v / a->hi;
			grid_line(sb, f->l, pos, f->r, pos, f->l - 6, pos + 4, "end");
		}
		tick_label(sb, v, a);
		sb_puts(sb, "</text>\n");
	}
}

void plot_lines_svg(struct strbuf *sb, const char *title, const char *ylabel,
		    const struct plot_series *s, unsigned nseries)
{
	struct frame f = { 1000, 460, 80, 740, 50, 380 };
	double tmax = 0, vmax = 0, x = 0, y = 0;
	unsigned i, drawn = 0;
	struct axis ax, ay;
	size_t j;

	for (i = 0; i < nseries; i++) {
		for (j = 0; j < s[i].n; j++) {
			tmax = s[i].p[j].t > tmax ? s[i].p[j].t : tmax;
			vmax = s[i].p[j].v > vmax ? s[i].p[j].v : vmax;
		}
		drawn += s[i].n > 0;
	}
	if (f.t + 10 + (double)LEGEND_STEP * nseries > f.h - 10)
		f.h = (int)(f.t + 20 + (double)LEGEND_STEP * nseries);
	ax = axis_nice(tmax, 1);
	ay = axis_nice(vmax, 1.05);
	svg_open(sb, &f, title);
	axis_ticks(sb, &f, &ax, 1);
	axis_ticks(sb, &f, &ay, 0);
	if (!drawn)
		svg_no_samples(sb, &f);
	for (i = 0; i < nseries; i++) {
		const char *color = colors[i % ARRAY_SIZE(colors)];

		if (!s[i].n)
			continue;
		sb_puts(sb, "<polyline class=\"series\" data-name=\"");
		xml_escape(sb, s[i].name ? s[i].name : "(unnamed)");
		strbuf_addf(sb,
			    "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" "
			    "stroke-linejoin=\"round\" points=\"",
			    color);
		for (j = 0; j < s[i].n; j++) {
			x = f.l + (f.r - f.l) * clamp01(s[i].p[j].t / ax.hi);
			y = f.b - (f.b - f.t) * clamp01(s[i].p[j].v / ay.hi);
			strbuf_addf(sb, "%s%.1f,%.1f", j ? " " : "", x, y);
		}
		sb_puts(sb, "\"/>\n");
		if (s[i].n == 1) /* a polyline of one point draws nothing */
			strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				    x, y, color);
	}
	svg_frame(sb, &f, "time (s)", ylabel);
	sb_puts(sb, "<g class=\"legend\">\n");
	for (i = 0; i < nseries; i++) {
		y = f.t + 10 + (double)LEGEND_STEP * i;
		strbuf_addf(sb,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"3\"/>\n<text x=\"%.1f\" y=\"%.1f\">",
			    f.r + 16, y, f.r + 40, y, colors[i % ARRAY_SIZE(colors)], f.r + 46,
			    y + 4);
		xml_escape(sb, s[i].name ? s[i].name : "(unnamed)");
		if (!s[i].n)
			sb_puts(sb, " (no samples)");
		sb_puts(sb, "</text>\n");
	}
	sb_puts(sb, "</g>\n</svg>\n");
}

/* @ns with a unit and three or four significant digits, "950ns", "1.23ms";
 * as a @tick, which is a whole number in its unit, "1us", "20ms". */
static void fmt_ns(struct strbuf *sb, double ns, int tick)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	double div = 1;
	unsigned u = 0;

	while (u < 3 && ns >= div * 1000) {
		div *= 1000;
		u++;
	}
	if (!u || tick)
		strbuf_addf(sb, "%.0f%s", ns / div, unit[u]);
	else
		strbuf_addf(sb, "%.*f%s", ns / div < 10 ? 2 : 1, ns / div, unit[u]);
}

/* log10 of a latency, with 0 ns drawn as 1 ns. */
static double lg(double ns)
{
	return log10(ns < 1 ? 1 : ns);
}

/* The x of log10 @l on an axis of decades @lo..@hi. */
static double hist_x(const struct frame *f, double l, int lo, int hi)
{
	return f->l + (f->r - f->l) * clamp01((l - lo) / (hi - lo));
}

/* Decade ticks with labels and gridlines; 2..9 as short ticks, labelled
 * 2 and 5 when there are at most two decades to read from. */
static void hist_x_ticks(struct strbuf *sb, const struct frame *f, int lo, int hi)
{
	double x;
	int d, m;

	for (d = lo; d <= hi; d++) {
		x = hist_x(f, d, lo, hi);
		grid_line(sb, x, f->t, x, f->b, x, f->b + 16, "middle");
		fmt_ns(sb, pow(10, d), 1);
		sb_puts(sb, "</text>\n");
		for (m = 2; d < hi && m < 10; m++) {
			x = hist_x(f, d + log10(m), lo, hi);
			strbuf_addf(sb,
				    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				    "stroke=\"#000\"/>\n",
				    x, f->b, x, f->b + 4);
			if (hi - lo <= 2 && (m == 2 || m == 5)) {
				strbuf_addf(sb,
					    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
					    "font-size=\"10\" fill=\"#555\">",
					    x, f->b + 15);
				fmt_ns(sb, m * pow(10, d), 1);
				sb_puts(sb, "</text>\n");
			}
		}
	}
}

void plot_hist_svg(struct strbuf *sb, const char *title, const struct hist *h, const double *pcts,
		   unsigned npcts)
{
	static const struct frame f = { 800, 460, 80, 770, 50, 380 };
	uint64_t bins[BINS_PER_DECADE * DECADES_MAX] = { 0 }, bmax = 0, lo_ns, hi_ns, v;
	int lo, hi, b, nbins, drawn = 0;
	double x0, x1, y, pct;
	struct axis ay;
	unsigned i;

	svg_open(sb, &f, title);
	if (!h->count) {
		svg_no_samples(sb, &f);
		svg_frame(sb, &f, "latency (log scale)", "share of I/Os (%)");
		sb_puts(sb, "</svg>\n");
		return;
	}
	lo = (int)floor(lg((double)h->min));
	hi = (int)ceil(lg((double)h->max));
	if (hi <= lo)
		hi = lo + 1;
	nbins = (hi - lo) * BINS_PER_DECADE;
	for (i = 0; i < HIST_NR; i++) {
		if (!h->bucket[i])
			continue;
		lo_ns = hist_bucket_lo(i);
		hi_ns = hist_bucket_hi(i);
		v = lo_ns + (hi_ns - lo_ns) / 2; /* no overflow in the last bucket */
		v = v < h->min ? h->min : v > h->max ? h->max : v;
		b = (int)floor((lg((double)v) - lo) * BINS_PER_DECADE);
		b = b < 0 ? 0 : b >= nbins ? nbins - 1 : b;
		bins[b] += h->bucket[i];
		bmax = bins[b] > bmax ? bins[b] : bmax;
	}
	ay = axis_nice(100.0 * (double)bmax / (double)h->count, 1.05);
	axis_ticks(sb, &f, &ay, 0);
	hist_x_ticks(sb, &f, lo, hi);
	for (b = 0; b < nbins; b++) {
		if (!bins[b])
			continue;
		x0 = hist_x(&f, lo + (double)b / BINS_PER_DECADE, lo, hi);
		x1 = hist_x(&f, lo + (double)(b + 1) / BINS_PER_DECADE, lo, hi);
		pct = 100.0 * (double)bins[b] / (double)h->count;
		y = f.b - (f.b - f.t) * pct / ay.hi;
		if (y > f.b - 1) /* a single I/O in a million still shows */
			y = f.b - 1;
		strbuf_addf(sb,
			    "<rect class=\"bar\" data-pct=\"%.2f\" x=\"%.1f\" y=\"%.1f\" "
			    "width=\"%.1f\" height=\"%.1f\" fill=\"#4c78a8\"><title>",
			    pct, x0 + 0.5, y, x1 - x0 - 1 > 1 ? x1 - x0 - 1 : 1, f.b - y);
		fmt_ns(sb, pow(10, lo + (double)b / BINS_PER_DECADE), 0);
		sb_puts(sb, " to ");
		fmt_ns(sb, pow(10, lo + (double)(b + 1) / BINS_PER_DECADE), 0);
		strbuf_addf(sb, ": %.2f%% (%" PRIu64 " I/O%s)</title></rect>\n", pct, bins[b],
			    bins[b] == 1 ? "" : "s");
	}
	for (i = 0; i < npcts; i++) {
		if (!(pcts[i] > 0 && pcts[i] <= 100))
			continue;
		v = hist_percentile(h, pcts[i]);
		x0 = hist_x(&f, lg((double)v), lo, hi);
		y = f.t + 14 + 15 * (drawn++ % 6); /* staggered: close markers stay readable */
		strbuf_addf(
			sb,
			"<g class=\"pct\" data-p=\"%g\" data-ns=\"%" PRIu64 "\">"
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c0392b\" "
			"stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"#c0392b\" "
			"stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">p%g ",
			pcts[i], v, x0, f.t, x0, f.b, x0 > f.r - 110 ? x0 - 4 : x0 + 4, y,
			x0 > f.r - 110 ? "end" : "start", pcts[i]);
		fmt_ns(sb, (double)v, 0);
		sb_puts(sb, "</text></g>\n");
	}
	svg_frame(sb, &f, "latency (log scale)", "share of I/Os (%)");
	strbuf_addf(sb, "<text class=\"caption\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">min ",
		    (f.l + f.r) / 2, f.h - 14);
	fmt_ns(sb, (double)h->min, 0); /* SVG shows runs of spaces as one */
	sb_puts(sb, ", mean ");
	fmt_ns(sb, hist_mean(h), 0);
	sb_puts(sb, ", max ");
	fmt_ns(sb, (double)h->max, 0);
	strbuf_addf(sb, ", %" PRIu64 " I/Os</text>\n</svg>\n", h->count);
}
