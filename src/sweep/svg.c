/* SPDX-License-Identifier: MIT */
/*
 * The sweep's charts: y against x for each line of points, on a linear
 * or log2 x axis, with the knee or crossover marked.  Self-contained SVG
 * (no script, stylesheet or outside font); names are XML-escaped.  Pure.
 */
#include <math.h>
#include <stdbool.h>

#include "sweep/sweep.h"

#define W      720.0
#define H      440.0
#define LEFT   80.0
#define RIGHT  180.0
#define TOP    40.0
#define BOTTOM 56.0
#define PLOT_W (W - LEFT - RIGHT)
#define PLOT_H (H - TOP - BOTTOM)

static const char *const colours[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd",
				       "#ff7f0e", "#8c564b", "#e377c2", "#17becf" };

static void escaped(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '<')
			strbuf_adds(sb, "&lt;");
		else if (c == '>')
			strbuf_adds(sb, "&gt;");
		else if (c == '&')
			strbuf_adds(sb, "&amp;");
		else if (c == '"')
			strbuf_adds(sb, "&quot;");
		else if (c < 0x20)
			strbuf_addc(sb, '?');
		else
			strbuf_addc(sb, (char)c);
	}
}

/* A tick label: whole binary multiples as 4k, 1m; else %g. */
static void tick_text(struct strbuf *sb, double v)
{
	static const char suffix[] = "kmgt";
	int s = -1;

	if (v >= 1024 && v == floor(v)) {
		while (s < 3 && fmod(v, 1024) == 0 && v >= 1024) {
			v /= 1024;
			s++;
		}
	}
	strbuf_addf(sb, "%g", v);
	if (s >= 0)
		strbuf_addc(sb, suffix[s]);
}

/* A round step that gives about 5 ticks up to @max. */
static double nice_step(double max)
{
	double raw = max / 5, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

struct frame {
	bool logx;
	double x0, x1, ymax;
};

static double px(const struct frame *f, double x)
{
	double v = f->logx ? log2(x > 0 ? x : 1e-300) : x;

	if (f->x1 <= f->x0)
		return LEFT + PLOT_W / 2;
	return LEFT + (v - f->x0) / (f->x1 - f->x0) * PLOT_W;
}

static double py(const struct frame *f, double y)
{
	return TOP + PLOT_H - (y > 0 ? y : 0) / f->ymax * PLOT_H;
}

void sweep_svg(struct strbuf *sb, const char *title, const char *xlabel, const char *ylabel,
	       bool logx, const struct sweep_series *s, unsigned ns)
{
	struct frame f = { .logx = logx, .x0 = INFINITY, .x1 = -INFINITY, .ymax = 0 };
	double step, v;
	unsigned i, k;

	for (i = 0; i < ns; i++) {
		for (k = 0; k < s[i].n; k++) {
			double x = s[i].x[k];

			if (logx && x <= 0)
				f.logx = logx = false;
			if (s[i].y[k] > f.ymax)
				f.ymax = s[i].y[k];
		}
	}
	for (i = 0; i < ns; i++) {
		for (k = 0; k < s[i].n; k++) {
			double x = logx ? log2(s[i].x[k]) : s[i].x[k];

			f.x0 = fmin(f.x0, x);
			f.x1 = fmax(f.x1, x);
		}
	}
	if (!(f.x0 <= f.x1))
		f.x0 = f.x1 = 0;
	if (!logx && f.x0 > 0)
		f.x0 = 0;
	step = nice_step(f.ymax > 0 ? f.ymax : 1);
	f.ymax = ceil((f.ymax > 0 ? f.ymax * 1.05 : 1) / step) * step;

	strbuf_addf(sb,
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		    "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		    W, H, W, H);
	strbuf_addf(sb, "<text x=\"%.0f\" y=\"22\" font-size=\"15\" text-anchor=\"middle\">",
		    LEFT + PLOT_W / 2);
	escaped(sb, title);
	strbuf_adds(sb, "</text>\n");
	/* Axes, ticks and grid. */
	strbuf_addf(
		sb,
		"<g class=\"axes\" stroke=\"#333\" fill=\"none\"><path d=\"M%.1f %.1fV%.1fH%.1f\"/></g>\n",
		LEFT, TOP, TOP + PLOT_H, LEFT + PLOT_W);
	for (v = 0; v <= f.ymax + step / 2; v += step) {
		strbuf_addf(
			sb,
			"<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			LEFT, LEFT + PLOT_W, py(&f, v), py(&f, v), LEFT - 6, py(&f, v) + 4);
		strbuf_addf(sb, "%g</text>\n", v);
	}
	if (logx) {
		double t;

		for (t = pow(2, ceil(f.x0)); log2(t) <= f.x1 + 1e-9; t *= 2) {
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				    px(&f, t), TOP + PLOT_H + 18);
			tick_text(sb, t);
			strbuf_adds(sb, "</text>\n");
		}
	} else {
		double xs = nice_step(f.x1 > f.x0 ? f.x1 - f.x0 : 1);

		for (v = f.x0; v <= f.x1 + xs / 2; v += xs) {
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				    px(&f, v), TOP + PLOT_H + 18);
			tick_text(sb, v);
			strbuf_adds(sb, "</text>\n");
		}
	}
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", LEFT + PLOT_W / 2,
		    H - 14);
	escaped(sb, xlabel);
	strbuf_adds(sb, logx ? " (log scale)</text>\n" : "</text>\n");
	strbuf_addf(sb,
		    "<text transform=\"translate(18 %.1f) rotate(-90)\" text-anchor=\"middle\">",
		    TOP + PLOT_H / 2);
	escaped(sb, ylabel);
	strbuf_adds(sb, "</text>\n");
	/* The series, their points and the legend. */
	for (i = 0; i < ns; i++) {
		const char *c = colours[i % (sizeof(colours) / sizeof(colours[0]))];

		strbuf_addf(sb, "<polyline class=\"series\" data-name=\"");
		escaped(sb, s[i].name);
		strbuf_addf(sb, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
		for (k = 0; k < s[i].n; k++)
			strbuf_addf(sb, "%s%.1f,%.1f", k ? " " : "", px(&f, s[i].x[k]),
				    py(&f, s[i].y[k]));
		strbuf_adds(sb, "\"/>\n");
		for (k = 0; k < s[i].n; k++)
			strbuf_addf(
				sb,
				"<circle class=\"point\" data-x=\"%g\" data-y=\"%g\" cx=\"%.1f\" "
				"cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				s[i].x[k], s[i].y[k], px(&f, s[i].x[k]), py(&f, s[i].y[k]), c);
		strbuf_addf(sb,
			    "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			    "<text x=\"%.1f\" y=\"%.1f\">",
			    W - RIGHT + 16, TOP + 18.0 * i, c, W - RIGHT + 34, TOP + 18.0 * i + 10);
		escaped(sb, s[i].name);
		strbuf_adds(sb, "</text>\n");
	}
	for (i = 0; i < ns; i++) {
		int m = s[i].mark;

		if (m < 0 || (unsigned)m >= s[i].n)
			continue;
		strbuf_addf(
			sb,
			"<g class=\"mark\" data-x=\"%g\" data-y=\"%g\"><circle cx=\"%.1f\" "
			"cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">",
			s[i].x[m], s[i].y[m], px(&f, s[i].x[m]), py(&f, s[i].y[m]),
			px(&f, s[i].x[m]) + 10, py(&f, s[i].y[m]) - 10.0 - 14.0 * i);
		escaped(sb, s[i].mark_label);
		strbuf_adds(sb, "</text></g>\n");
	}
	strbuf_adds(sb, "</svg>\n");
}
