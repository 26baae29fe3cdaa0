/* SPDX-License-Identifier: MIT */
/*
 * The parts every SVG plot is made of: canvas, frame, axes, text with its
 * box, escaping.  No plot is drawn here; see plot.c and plot_*.c.
 * Coordinates are SVG user units (px), written with one decimal.
 */
#include <math.h>
#include <string.h>

#include "report/plot_svg.h"

const char *const svg_colors[SVG_NCOLORS] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"
};

void svg_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void svg_escape(struct strbuf *sb, const char *s)
{
	static const char special[] = "&<>\"'";
	static const char *const entity[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	const char *e;

	for (; *s; s++) {
		if ((e = strchr(special, *s)))
			svg_puts(sb, entity[e - special]);
		else if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
			strbuf_addc(sb, '?'); /* XML 1.0 cannot carry these, not even as &#n; */
		else if ((unsigned char)*s == 0x7f)
			strbuf_addc(sb, '?'); /* HTML allows no control byte */
		else
			strbuf_addc(sb, *s);
	}
}

/* Advance widths in em, rounded up from DejaVu Sans (Debian's sans-serif,
 * the widest of the common ones): narrow punctuation and i/l/j/t/f/r,
 * wide m/w/M/W, other capitals, and the rest (digits are 0.636). */
double svg_text_width(const char *text, double size, bool bold)
{
	double em = 0;
	const unsigned char *p;

	for (p = (const unsigned char *)text; *p; p++) {
		if ((*p & 0xc0) == 0x80)
			continue; /* a UTF-8 continuation byte: counted with its lead */
		if (strchr(" .,:;'|!()[]/ijltfr", *p))
			em += 0.42;
		else if (strchr("mwMW%", *p))
			em += 1.0;
		else if (*p >= 'A' && *p <= 'Z')
			em += 0.78;
		else
			em += 0.66;
	}
	return em * size * (bold ? 1.12 : 1);
}

struct svg_box svg_text_box(double x, double y, const char *anchor, double size, bool bold,
			    const char *text)
{
	struct svg_box b;

	b.w = svg_text_width(text, size, bold);
	/* The font's line box, as a browser's getBBox gives it (DejaVu Sans). */
	b.h = size * 1.17;
	b.y = y - size * 0.93;
	b.x = !strcmp(anchor, "middle") ? x - b.w / 2 : !strcmp(anchor, "end") ? x - b.w : x;
	return b;
}

bool svg_box_hit(const struct svg_box *a, const struct svg_box *b, double gap)
{
	return a->x - gap < b->x + b->w && b->x - gap < a->x + a->w && a->y - gap < b->y + b->h &&
	       b->y - gap < a->y + a->h;
}

static void box_attr(struct strbuf *sb, const struct svg_box *b)
{
	strbuf_addf(sb, " data-box=\"%.1f %.1f %.1f %.1f\"", b->x, b->y, b->w, b->h);
}

void svg_text(struct strbuf *sb, double x, double y, const char *anchor, double size,
	      const char *attrs, const char *text)
{
	struct svg_box b = svg_text_box(x, y, anchor, size, false, text);

	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y, anchor);
	if (size != 12)
		strbuf_addf(sb, " font-size=\"%g\"", size);
	box_attr(sb, &b);
	svg_puts(sb, attrs);
	strbuf_addc(sb, '>');
	svg_escape(sb, text);
	svg_puts(sb, "</text>\n");
}

void svg_grid(struct strbuf *sb, double x1, double y1, double x2, double y2)
{
	strbuf_addf(sb,
		    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
		    x1, y1, x2, y2);
}

void svg_open(struct strbuf *sb, const struct frame *f, const char *title)
{
	const char *t = title ? title : "";
	double size = 16, w = svg_text_width(t, 16, true);
	struct svg_box b;

	if (w > f->w - 20) /* a long title is made smaller, down to 8 px, to stay on the canvas */
		size = fmax(8, floor(16 * (f->w - 20) / w * 10) / 10);
	b = svg_text_box(f->w / 2.0, 28, "middle", size, true, t);

	strbuf_addf(sb,
		    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n<title>",
		    f->w, f->h, f->w, f->h);
	svg_escape(sb, title ? title : "");
	strbuf_addf(sb,
		    "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n"
		    "<text x=\"%d\" y=\"28\" text-anchor=\"middle\" font-size=\"%g\" "
		    "font-weight=\"bold\"",
		    f->w, f->h, f->w / 2, size);
	box_attr(sb, &b);
	strbuf_addc(sb, '>');
	svg_escape(sb, title ? title : "");
	svg_puts(sb, "</text>\n");
}

void svg_frame(struct strbuf *sb, const struct frame *f, const char *xlabel, const char *ylabel)
{
	struct svg_box b;

	strbuf_addf(sb,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		    "stroke=\"#000\"/>\n",
		    f->l, f->t, f->r - f->l, f->b - f->t);
	svg_text(sb, (f->l + f->r) / 2, f->b + 36, "middle", 12, "", xlabel);
	/* Upright: the box of the text turned a quarter, about its anchor. */
	b = svg_text_box(0, 0, "middle", 12, false, ylabel ? ylabel : "");
	b = (struct svg_box){ 20 + b.y, (f->t + f->b) / 2 - b.w / 2, b.h, b.w };
	strbuf_addf(sb, "<text transform=\"translate(20 %.1f) rotate(-90)\" text-anchor=\"middle\"",
		    (f->t + f->b) / 2);
	box_attr(sb, &b);
	strbuf_addc(sb, '>');
	svg_escape(sb, ylabel ? ylabel : "");
	svg_puts(sb, "</text>\n");
}

void svg_no_samples(struct strbuf *sb, const struct frame *f)
{
	svg_text(sb, (f->l + f->r) / 2, (f->t + f->b) / 2, "middle", 14, " fill=\"#666\"",
		 "no samples");
}

struct axis svg_axis_nice(double max, double headroom)
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

double svg_clamp01(double x)
{
	return x < 0 ? 0 : x > 1 ? 1 : x;
}

void svg_axis_ticks(struct strbuf *sb, const struct frame *f, const struct axis *a, bool is_x)
{
	struct strbuf label = { 0 };
	double v, pos;
	unsigned k;

	for (k = 0; (v = k * a->step) <= a->hi * (1 + 1e-9); k++) {
		label.len = 0;
		tick_label(&label, v, a);
		if (is_x) {
			pos = f->l + (f->r - f->l) * v / a->hi;
			svg_grid(sb, pos, f->t, pos, f->b);
			svg_text(sb, pos, f->b + 19, "middle", 12, "", label.buf);
		} else {
			pos = f->b - (f->b - f->t) * v / a->hi;
			svg_grid(sb, f->l, pos, f->r, pos);
			svg_text(sb, f->l - 6, pos + 4, "end", 12, "", label.buf);
		}
	}
	strbuf_free(&label);
}

void svg_fmt_ns(struct strbuf *sb, double ns, bool tick)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	double div = 1;
	unsigned u = 0;

	while (u < 3 && ns >= div * 1000) {
		div *= 1000;
		u++;
	}
	if (tick && ns / div >= 1000) { /* past 1000 s: "1e4s", as narrow as the others */
		int e = (int)floor(log10(ns / div));

		strbuf_addf(sb, "%.0fe%ds", ns / div / pow(10, e), e);
	} else if (!u || tick)
		strbuf_addf(sb, "%.0f%s", ns / div, unit[u]);
	else
		strbuf_addf(sb, "%.*f%s", ns / div < 10 ? 2 : 1, ns / div, unit[u]);
}

double svg_lg(double ns)
{
	return log10(ns < 1 ? 1 : ns);
}

double svg_ns_y(const struct frame *f, double ns, int lo, int hi)
{
	return f->b - (f->b - f->t) * svg_clamp01((svg_lg(ns) - lo) / (hi - lo));
}

void svg_ns_ticks_y(struct strbuf *sb, const struct frame *f, int lo, int hi)
{
	/* Every decade labelled where 12 px labels fit, else every second ... */
	int every = (int)ceil((12 * 1.17 + 2) / ((f->b - f->t) / (hi - lo)));
	struct strbuf label = { 0 };
	double y;
	int d, m;

	every = every > 1 ? every : 1;
	for (d = lo; d <= hi; d++) {
		y = svg_ns_y(f, pow(10, d), lo, hi);
		svg_grid(sb, f->l, y, f->r, y);
		label.len = 0;
		svg_fmt_ns(&label, pow(10, d), true);
		if ((d - lo) % every == 0)
			svg_text(sb, f->l - 6, y + 4, "end", 12, "", label.buf);
		for (m = 2; d < hi && m < 10; m++) {
			y = svg_ns_y(f, m * pow(10, d), lo, hi);
			strbuf_addf(sb,
				    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				    "stroke=\"#000\"/>\n",
				    f->l - 4, y, f->l, y);
			if (hi - lo <= 2 && (m == 2 || m == 5)) {
				label.len = 0;
				svg_fmt_ns(&label, m * pow(10, d), true);
				svg_text(sb, f->l - 6, y + 4, "end", 10, " fill=\"#555\"",
					 label.buf);
			}
		}
	}
	strbuf_free(&label);
}

void svg_legend(struct strbuf *sb, const struct frame *f, const char *const *names,
		const bool *empty, unsigned n)
{
	struct strbuf name = { 0 };
	double y;
	unsigned i;

	svg_puts(sb, "<g class=\"legend\">\n");
	for (i = 0; i < n; i++) {
		y = f->t + 10 + (double)SVG_LEGEND_STEP * i;
		strbuf_addf(sb,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"3\"/>\n",
			    f->r + 16, y, f->r + 40, y, svg_colors[i % SVG_NCOLORS]);
		name.len = 0;
		svg_puts(&name, names[i] ? names[i] : "(unnamed)");
		if (empty[i])
			svg_puts(&name, " (no samples)");
		svg_text(sb, f->r + 46, y + 4, "start", 12, "", name.buf);
	}
	svg_puts(sb, "</g>\n");
	strbuf_free(&name);
}
