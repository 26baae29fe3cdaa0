/* SPDX-License-Identifier: MIT */
/*
 * A bar chart of a few labelled values (the SQLIO millisecond histogram):
 * bars of equal width from 0, the label under each bar where it fits
 * (else every second, third ... one), the value above each bar where it
 * touches no other value.  Pure: numbers in, SVG text out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/plot.h"
#include "report/plot_svg.h"

#define VALUE_SIZE 10 /* px, the values above the bars */

void plot_bars_svg(struct strbuf *sb, const char *title, const char *xlabel, const char *ylabel,
		   const char *const *labels, const double *values, unsigned n, int decimals)
{
	static const struct frame f = { 800, 460, 80, 770, 50, 380 };
	struct svg_box *placed = xcalloc(n ? n : 1, sizeof(*placed)), box;
	double vmax = 0, w, x, y, widest = 0, v;
	unsigned i, j, every, nplaced = 0;
	char text[64];
	struct axis ay;
	bool hit;

	decimals = decimals < 0 ? 0 : decimals > 6 ? 6 : decimals;
	for (i = 0; i < n; i++) {
		vmax = values[i] > vmax ? values[i] : vmax;
		w = svg_text_width(labels[i] ? labels[i] : "", 12, false);
		widest = w > widest ? w : widest;
	}
	ay = svg_axis_nice(vmax, 1.1);
	w = n ? (f.r - f.l) / n : f.r - f.l;
	/* Labels every @every bars, so that each has its share of room. */
	every = (unsigned)ceil((widest + 4) / w);
	every = every ? every : 1;
	svg_open(sb, &f, title);
	svg_axis_ticks(sb, &f, &ay, false);
	if (!n)
		svg_no_samples(sb, &f);
	for (i = 0; i < n; i++) {
		v = values[i] > 0 ? values[i] : 0;
		x = f.l + w * i;
		y = f.b - (f.b - f.t) * svg_clamp01(v / ay.hi);
		if (v > 0 && y > f.b - 1)
			y = f.b - 1;
		strbuf_addf(sb, "<rect class=\"bar\" data-label=\"");
		svg_escape(sb, labels[i] ? labels[i] : "");
		strbuf_addf(sb,
			    "\" data-v=\"%.*f\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" fill=\"#4c78a8\"><title>",
			    decimals, v, x + w * 0.1, y, w * 0.8, f.b - y);
		svg_escape(sb, labels[i] ? labels[i] : "");
		strbuf_addf(sb, ": %.*f</title></rect>\n", decimals, v);
		if (i % every == 0)
			svg_text(sb, x + w / 2, f.b + 19, "middle", 12, " class=\"label\"",
				 labels[i] ? labels[i] : "");
		if (!(v > 0))
			continue;
		snprintf(text, sizeof(text), "%.*f", decimals, v);
		box = svg_text_box(x + w / 2, y - 4, "middle", VALUE_SIZE, false, text);
		for (hit = false, j = 0; j < nplaced && !hit; j++)
			hit = svg_box_hit(&box, &placed[j], 1);
		if (hit)
			continue; /* the value is in the bar's tooltip and data-v */
		placed[nplaced++] = box;
		svg_text(sb, x + w / 2, y - 4, "middle", VALUE_SIZE, " class=\"value\"", text);
	}
	svg_frame(sb, &f, xlabel, ylabel);
	svg_puts(sb, "</svg>\n");
	free(placed);
}
