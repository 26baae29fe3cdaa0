/* SPDX-License-Identifier: MIT */
/*
 * What the SVG plots share (plot.c, plot_cdf.c, plot_heat.c, plot_bars.c):
 * the canvas and its plot area, linear and log axes, text with the box it
 * may cover, escaping, colours.  Internal to src/report: the plots' own
 * interface is plot.h.  Pure, as the plots: everything goes to a strbuf.
 */
#ifndef IOGAUGE_PLOT_SVG_H
#define IOGAUGE_PLOT_SVG_H

#include <stdbool.h>

#include "util/util.h"

#define SVG_NCOLORS	10
#define SVG_LEGEND_STEP 20 /* px between legend rows */

/* The canvas and, inside it, the plot area (px). */
struct frame {
	int w, h;
	double l, r, t, b;
};

/* A linear axis from 0 to @hi in ticks of @step (both > 0). */
struct axis {
	double hi, step;
};

/* A rectangle (px): the box a text may cover. */
struct svg_box {
	double x, y, w, h;
};

extern const char *const svg_colors[SVG_NCOLORS];

void svg_puts(struct strbuf *sb, const char *s);
/* @s escaped for XML text or an attribute value; control bytes as '?'. */
void svg_escape(struct strbuf *sb, const char *s);

/* How wide @text (UTF-8) is drawn at @size px, a little more than the
 * widest of the generic sans-serif fonts (DejaVu Sans, Liberation Sans). */
double svg_text_width(const char *text, double size, bool bold);
/* The box of @text drawn at (@x, @y), baseline y, with text-anchor @anchor
 * ("start", "middle" or "end"). */
struct svg_box svg_text_box(double x, double y, const char *anchor, double size, bool bold,
			    const char *text);
/* Whether @a and @b, each grown by @gap px on every side, intersect. */
bool svg_box_hit(const struct svg_box *a, const struct svg_box *b, double gap);
/*
 * A whole <text> element: at (@x, @y), @anchor, font-size @size, with
 * data-box of svg_text_box and @attrs (raw attribute text, "" or starting
 * with a space), holding @text escaped.
 */
void svg_text(struct strbuf *sb, double x, double y, const char *anchor, double size,
	      const char *attrs, const char *text);

/* <?xml ...><svg ...><title>@title</title>, the white ground and @title on top. */
void svg_open(struct strbuf *sb, const struct frame *f, const char *title);
/* The plot area's border and the axis titles: @ylabel turned upright. */
void svg_frame(struct strbuf *sb, const struct frame *f, const char *xlabel, const char *ylabel);
void svg_no_samples(struct strbuf *sb, const struct frame *f);
/* A light gridline from (@x1, @y1) to (@x2, @y2). */
void svg_grid(struct strbuf *sb, double x1, double y1, double x2, double y2);

/* Round ticks, 1, 2 or 5 times a power of ten, about five of them, from 0
 * to @max * @headroom or a little more; a @max of 0 or less reads as 1. */
struct axis svg_axis_nice(double max, double headroom);
/* Gridlines and labels of a linear axis: vertical ones when @is_x. */
void svg_axis_ticks(struct strbuf *sb, const struct frame *f, const struct axis *a, bool is_x);

/* The y of latency @ns on a log axis of decades @lo..@hi (10^lo ns at the bottom). */
double svg_ns_y(const struct frame *f, double ns, int lo, int hi);
/* Gridlines and labels of that axis: every decade, and 2 and 5 when it
 * spans at most two decades. */
void svg_ns_ticks_y(struct strbuf *sb, const struct frame *f, int lo, int hi);
/* A legend right of the plot area: a swatch of svg_colors[i] and @names[i]
 * ("(unnamed)" for NULL), " (no samples)" after it where @empty[i]. */
void svg_legend(struct strbuf *sb, const struct frame *f, const char *const *names,
		const bool *empty, unsigned n);

/* @ns with a unit and three or four significant digits, "950ns", "1.23ms";
 * as a @tick, which is a whole number in its unit, "1us", "20ms". */
void svg_fmt_ns(struct strbuf *sb, double ns, bool tick);
/* log10 of a latency, with 0 ns (or less than 1) read as 1 ns. */
double svg_lg(double ns);
double svg_clamp01(double x);

#endif
