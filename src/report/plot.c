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
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "report/plot.h"
#include "report/plot_svg.h"

#define BINS_PER_DECADE 20
#define DECADES_MAX	20 /* 10^20 ns > UINT64_MAX */
#define LABEL_SIZE	11 /* px, the percentile labels */
#define LABEL_STEP	15 /* px between rows of percentile labels */

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
	if (f.t + 10 + (double)SVG_LEGEND_STEP * nseries > f.h - 10)
		f.h = (int)(f.t + 20 + (double)SVG_LEGEND_STEP * nseries);
	ax = svg_axis_nice(tmax, 1);
	ay = svg_axis_nice(vmax, 1.05);
	svg_open(sb, &f, title);
	svg_axis_ticks(sb, &f, &ax, true);
	svg_axis_ticks(sb, &f, &ay, false);
	if (!drawn)
		svg_no_samples(sb, &f);
	for (i = 0; i < nseries; i++) {
		const char *color = svg_colors[i % SVG_NCOLORS];

		if (!s[i].n)
			continue;
		svg_puts(sb, "<polyline class=\"series\" data-name=\"");
		svg_escape(sb, s[i].name ? s[i].name : "(unnamed)");
		strbuf_addf(sb,
			    "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" "
			    "stroke-linejoin=\"round\" points=\"",
			    color);
		for (j = 0; j < s[i].n; j++) {
			x = f.l + (f.r - f.l) * svg_clamp01(s[i].p[j].t / ax.hi);
			y = f.b - (f.b - f.t) * svg_clamp01(s[i].p[j].v / ay.hi);
			strbuf_addf(sb, "%s%.1f,%.1f", j ? " " : "", x, y);
		}
		svg_puts(sb, "\"/>\n");
		if (s[i].n == 1) /* a polyline of one point draws nothing */
			strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				    x, y, color);
	}
	svg_frame(sb, &f, "time (s)", ylabel);
	{
		const char **names = xcalloc(nseries ? nseries : 1, sizeof(*names));
		bool *empty = xcalloc(nseries ? nseries : 1, sizeof(*empty));

		for (i = 0; i < nseries; i++) {
			names[i] = s[i].name;
			empty[i] = !s[i].n;
		}
		svg_legend(sb, &f, names, empty, nseries);
		free(names);
		free(empty);
	}
	svg_puts(sb, "</svg>\n");
}

/* The x of log10 @l on an axis of decades @lo..@hi. */
static double hist_x(const struct frame *f, double l, int lo, int hi)
{
	return f->l + (f->r - f->l) * svg_clamp01((l - lo) / (hi - lo));
}

/* Decade ticks with labels and gridlines; 2..9 as short ticks, labelled
 * 2 and 5 when there are at most two decades to read from. */
static void hist_x_ticks(struct strbuf *sb, const struct frame *f, int lo, int hi)
{
	struct strbuf label = { 0 };
	double x, widest = 0;
	int d, m, every;

	/* Every decade labelled where the labels fit, else every second ... */
	for (d = lo; d <= hi; d++) {
		label.len = 0;
		svg_fmt_ns(&label, pow(10, d), true);
		x = svg_text_width(label.buf, 12, false);
		widest = x > widest ? x : widest;
	}
	every = (int)ceil((widest + 6) / ((f->r - f->l) / (hi - lo)));
	for (d = lo; d <= hi; d++) {
		x = hist_x(f, d, lo, hi);
		svg_grid(sb, x, f->t, x, f->b);
		label.len = 0;
		svg_fmt_ns(&label, pow(10, d), true);
		if ((d - lo) % every == 0)
			svg_text(sb, x, f->b + 19, "middle", 12, "", label.buf);
		for (m = 2; d < hi && m < 10; m++) {
			x = hist_x(f, d + log10(m), lo, hi);
			strbuf_addf(sb,
				    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				    "stroke=\"#000\"/>\n",
				    x, f->b, x, f->b + 4);
			if (hi - lo <= 2 && (m == 2 || m == 5)) {
				label.len = 0;
				svg_fmt_ns(&label, m * pow(10, d), true);
				svg_text(sb, x, f->b + 17, "middle", 10, " fill=\"#555\"",
					 label.buf);
			}
		}
	}
	strbuf_free(&label);
}

/* The y axis of a histogram: linear from 0 (@a), or decades of percent
 * @ylo..@yhi when @log. */
struct hist_y {
	bool log;
	struct axis a;
	int ylo, yhi;
};

static double hist_y(const struct frame *f, const struct hist_y *ys, double pct)
{
	double k = ys->log ? (log10(pct) - ys->ylo) / (ys->yhi - ys->ylo) : pct / ys->a.hi;

	return f->b - (f->b - f->t) * svg_clamp01(k);
}

static void hist_y_ticks(struct strbuf *sb, const struct frame *f, const struct hist_y *ys)
{
	char label[32];
	double y;
	int d;

	if (!ys->log) {
		svg_axis_ticks(sb, f, &ys->a, false);
		return;
	}
	for (d = ys->ylo; d <= ys->yhi; d++) {
		y = hist_y(f, ys, pow(10, d));
		svg_grid(sb, f->l, y, f->r, y);
		snprintf(label, sizeof(label), "%.*f", d < 0 ? -d : 0, pow(10, d));
		svg_text(sb, f->l - 6, y + 4, "end", 12, "", label);
	}
}

/* A percentile marker: its value and, once laid out, its label. */
struct marker {
	double p, x;
	uint64_t ns;
	struct strbuf text; /* empty: it shares the label of an earlier one */
	struct svg_box box;
	double tx, ty;
	const char *anchor;
};

/* Orders markers by value, then by p. */
static int marker_cmp(const void *a, const void *b)
{
	const struct marker *m = a, *n = b;

	if (m->ns != n->ns)
		return m->ns < n->ns ? -1 : 1;
	return m->p < n->p ? -1 : m->p > n->p;
}

/*
 * Lays the labels of @m (sorted) out in rows from the top of @f: markers
 * of one value share a label ("p50/p60 100us"); each label goes beside
 * its line (left of it near the right edge) in the first row where it
 * touches no label already placed.  Every label fits in a row of its own,
 * and the caller made room for @n rows, so none overlap.
 */
static void layout_labels(struct marker *m, unsigned n, const struct frame *f)
{
	unsigned i, j, first = 0, row;
	bool hit;

	for (i = 0; i < n; i++) {
		if (i && m[i].ns == m[first].ns) {
			strbuf_addf(&m[first].text, "/p%g", m[i].p);
			continue;
		}
		first = i;
		strbuf_addf(&m[i].text, "p%g", m[i].p);
	}
	for (i = 0; i < n; i++) {
		if (!m[i].text.len)
			continue;
		strbuf_addc(&m[i].text, ' ');
		svg_fmt_ns(&m[i].text, (double)m[i].ns, false);
		m[i].anchor = "start";
		m[i].tx = m[i].x + 4;
		if (m[i].tx + svg_text_width(m[i].text.buf, LABEL_SIZE, false) > f->r - 2) {
			m[i].anchor = "end";
			m[i].tx = m[i].x - 4;
			if (m[i].tx - svg_text_width(m[i].text.buf, LABEL_SIZE, false) < f->l + 2) {
				m[i].anchor = "start";
				m[i].tx = f->l + 2;
			}
		}
		for (row = 0;; row++) {
			m[i].ty = f->t + 14 + (double)LABEL_STEP * row;
			m[i].box = svg_text_box(m[i].tx, m[i].ty, m[i].anchor, LABEL_SIZE, false,
						m[i].text.buf);
			for (hit = false, j = 0; j < i && !hit; j++)
				hit = m[j].text.len && svg_box_hit(&m[i].box, &m[j].box, 1);
			if (!hit)
				break;
		}
	}
}

void plot_hist_svg(struct strbuf *sb, const char *title, const struct hist *h, const double *pcts,
		   unsigned npcts)
{
	plot_hist_scale_svg(sb, title, h, pcts, npcts, PLOT_SCALE_LOG);
}

void plot_hist_scale_svg(struct strbuf *sb, const char *title, const struct hist *h,
			 const double *pcts, unsigned npcts, enum plot_scale yscale)
{
	struct frame f = { 800, 460, 80, 770, 50, 380 };
	uint64_t bins[BINS_PER_DECADE * DECADES_MAX] = { 0 }, bmax = 0, bmin = UINT64_MAX, lo_ns,
					hi_ns, v;
	const char *ylabel =
		yscale == PLOT_SCALE_LOG ? "share of I/Os (%, log scale)" : "share of I/Os (%)";
	struct marker *mk = NULL;
	struct hist_y ys = { yscale == PLOT_SCALE_LOG, { 1, 1 }, 0, 0 };
	int lo, hi, b, nbins;
	double x0, x1, y, pct, room;
	unsigned i, nmk = 0;

	if (!h->count) {
		svg_open(sb, &f, title);
		svg_no_samples(sb, &f);
		svg_frame(sb, &f, "latency (log scale)", ylabel);
		svg_puts(sb, "</svg>\n");
		return;
	}
	for (i = 0; i < npcts; i++)
		nmk += pcts[i] > 0 && pcts[i] <= 100;
	/* Room for every label in a row of its own, and the bars below them. */
	room = 14 + (double)LABEL_STEP * nmk + 60;
	if (room > f.b - f.t) {
		f.h += (int)(room - (f.b - f.t));
		f.b = f.t + room;
	}
	svg_open(sb, &f, title);
	lo = (int)floor(svg_lg((double)h->min));
	hi = (int)ceil(svg_lg((double)h->max));
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
		b = (int)floor((svg_lg((double)v) - lo) * BINS_PER_DECADE);
		b = b < 0 ? 0 : b >= nbins ? nbins - 1 : b;
		bins[b] += h->bucket[i];
	}
	for (b = 0; b < nbins; b++) {
		bmax = bins[b] > bmax ? bins[b] : bmax;
		bmin = bins[b] && bins[b] < bmin ? bins[b] : bmin;
	}
	ys.a = svg_axis_nice(100.0 * (double)bmax / (double)h->count, 1.05);
	/* Log: the smallest bar a decade above the floor, so it shows. */
	ys.ylo = (int)floor(log10(100.0 * (double)bmin / (double)h->count)) - 1;
	ys.yhi = (int)ceil(log10(100.0 * (double)bmax / (double)h->count));
	ys.yhi = ys.yhi > ys.ylo + 1 ? ys.yhi : ys.ylo + 2;
	hist_y_ticks(sb, &f, &ys);
	hist_x_ticks(sb, &f, lo, hi);
	for (b = 0; b < nbins; b++) {
		if (!bins[b])
			continue;
		x0 = hist_x(&f, lo + (double)b / BINS_PER_DECADE, lo, hi);
		x1 = hist_x(&f, lo + (double)(b + 1) / BINS_PER_DECADE, lo, hi);
		pct = 100.0 * (double)bins[b] / (double)h->count;
		y = hist_y(&f, &ys, pct);
		if (y > f.b - 1) /* a single I/O in a million still shows */
			y = f.b - 1;
		strbuf_addf(sb,
			    "<rect class=\"bar\" data-pct=\"%.2f\" x=\"%.1f\" y=\"%.1f\" "
			    "width=\"%.1f\" height=\"%.1f\" fill=\"#4c78a8\"><title>",
			    pct, x0 + 0.5, y, x1 - x0 - 1 > 1 ? x1 - x0 - 1 : 1, f.b - y);
		svg_fmt_ns(sb, pow(10, lo + (double)b / BINS_PER_DECADE), false);
		svg_puts(sb, " to ");
		svg_fmt_ns(sb, pow(10, lo + (double)(b + 1) / BINS_PER_DECADE), false);
		strbuf_addf(sb, ": %.2f%% (%" PRIu64 " I/O%s)</title></rect>\n", pct, bins[b],
			    bins[b] == 1 ? "" : "s");
	}
	mk = xcalloc(nmk ? nmk : 1, sizeof(*mk));
	for (i = 0, nmk = 0; i < npcts; i++) {
		if (!(pcts[i] > 0 && pcts[i] <= 100))
			continue;
		mk[nmk].p = pcts[i];
		mk[nmk].ns = hist_percentile(h, pcts[i]);
		mk[nmk].x = hist_x(&f, svg_lg((double)mk[nmk].ns), lo, hi);
		nmk++;
	}
	qsort(mk, nmk, sizeof(*mk), marker_cmp);
	layout_labels(mk, nmk, &f);
	/* The lines first, then the labels on white over every line. */
	for (i = 0; i < nmk; i++)
		strbuf_addf(
			sb,
			"<g class=\"pct\" data-p=\"%g\" data-ns=\"%" PRIu64 "\">"
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#c0392b\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/></g>\n",
			mk[i].p, mk[i].ns, mk[i].x, f.t, mk[i].x, f.b);
	for (i = 0; i < nmk; i++) {
		if (mk[i].text.len)
			strbuf_addf(sb,
				    "<g class=\"pct-label\" data-p=\"%g\"><rect x=\"%.1f\" "
				    "y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fff\" "
				    "fill-opacity=\"0.85\"/>",
				    mk[i].p, mk[i].box.x, mk[i].box.y, mk[i].box.w, mk[i].box.h);
		if (mk[i].text.len) {
			svg_text(sb, mk[i].tx, mk[i].ty, mk[i].anchor, LABEL_SIZE,
				 " class=\"label\" fill=\"#c0392b\"", mk[i].text.buf);
			svg_puts(sb, "</g>\n");
		}
		strbuf_free(&mk[i].text);
	}
	free(mk);
	svg_frame(sb, &f, "latency (log scale)", ylabel);
	{
		struct strbuf cap = { 0 };

		svg_puts(&cap, "min ");
		svg_fmt_ns(&cap, (double)h->min, false); /* SVG shows runs of spaces as one */
		svg_puts(&cap, ", mean ");
		svg_fmt_ns(&cap, hist_mean(h), false);
		svg_puts(&cap, ", max ");
		svg_fmt_ns(&cap, (double)h->max, false);
		strbuf_addf(&cap, ", %" PRIu64 " I/Os", h->count);
		svg_text(sb, (f.l + f.r) / 2, f.h - 14, "middle", 12, " class=\"caption\"",
			 cap.buf);
		strbuf_free(&cap);
	}
	svg_puts(sb, "</svg>\n");
}
