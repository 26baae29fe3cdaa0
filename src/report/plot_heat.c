/* SPDX-License-Identifier: MIT */
/*
 * Latency over time as a heat map, from the histogram log's lines (fio's
 * write_hist_log, kept in memory as struct iolog_hist): a column per
 * window, a row per tenth of a decade of latency, the colour the number of
 * I/Os in the cell on a log scale.  Pure: lines in, SVG text out.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "report/plot_svg.h"

#define ROWS_PER_DECADE 10
#define COLUMNS_MAX	345 /* two px each, at least, in the plot area */
#define LEGEND_STEPS	20

/* Viridis at five stops: dark (few) to yellow (many), readable in grey. */
static void heat_color(double k, char out[8])
{
	static const unsigned char stop[5][3] = {
		{ 0x44, 0x01, 0x54 }, { 0x3b, 0x52, 0x8b }, { 0x21, 0x91, 0x8c },
		{ 0x5e, 0xc9, 0x62 }, { 0xfd, 0xe7, 0x25 },
	};
	double pos = svg_clamp01(k) * 4, w;
	unsigned i = pos >= 4 ? 3 : (unsigned)pos, c, v[3];

	w = pos - i;
	for (c = 0; c < 3; c++)
		v[c] = (unsigned)lround(stop[i][c] + (stop[i + 1][c] - stop[i][c]) * w);
	snprintf(out, 8, "#%02x%02x%02x", v[0], v[1], v[2]);
}

/* The share of the colour scale of a count @n of at most @most (> 0). */
static double heat_k(uint64_t n, uint64_t most)
{
	return most > 1 ? log((double)n) / log((double)most) : 1;
}

/* More than COLUMNS_MAX columns (@bins, ends @t) merged, @per adjacent
 * ones into one that ends where its last did; returns how many are left. */
static size_t heat_merge(uint64_t *bins, uint64_t *t, size_t n)
{
	size_t per = (n + COLUMNS_MAX - 1) / COLUMNS_MAX, k, out;
	unsigned b;

	if (per <= 1)
		return n;
	for (out = 0; out * per < n; out++) {
		uint64_t *dst = bins + out * IOLOG_HIST_BINS;

		if (out)
			memcpy(dst, bins + out * per * IOLOG_HIST_BINS,
			       IOLOG_HIST_BINS * sizeof(uint64_t));
		for (k = out * per + 1; k < (out + 1) * per && k < n; k++)
			for (b = 0; b < IOLOG_HIST_BINS; b++)
				dst[b] += bins[k * IOLOG_HIST_BINS + b];
		t[out] = t[k - 1];
	}
	return out;
}

/* The columns: the k-th window of each list (lines with one t) summed,
 * of direction @dir or all when @dir < 0.  *@t gets each column's end
 * (ms, the latest of the lists'); returns the number of columns. */
static size_t heat_columns(const struct iolog_hist *const *heads, unsigned nheads, int dir,
			   uint64_t **bins, uint64_t **t)
{
	const struct iolog_hist *h;
	size_t most = 0, k, cap = 0;
	unsigned i, b;

	*bins = NULL;
	*t = NULL;
	for (i = 0; i < nheads; i++) {
		for (k = 0, h = heads[i]; h; k++) {
			uint64_t t0 = h->t;

			if (k >= cap) {
				size_t ncap = cap ? cap * 2 : 16;

				*bins = xrealloc(*bins, ncap * IOLOG_HIST_BINS * sizeof(uint64_t));
				*t = xrealloc(*t, ncap * sizeof(uint64_t));
				memset(*bins + cap * IOLOG_HIST_BINS, 0,
				       (ncap - cap) * IOLOG_HIST_BINS * sizeof(uint64_t));
				memset(*t + cap, 0, (ncap - cap) * sizeof(uint64_t));
				cap = ncap;
			}
			for (; h && h->t == t0; h = h->next)
				if (dir < 0 || h->dir == (unsigned)dir)
					for (b = 0; b < IOLOG_HIST_BINS; b++)
						(*bins)[k * IOLOG_HIST_BINS + b] += h->bins[b];
			(*t)[k] = t0 > (*t)[k] ? t0 : (*t)[k];
		}
		most = k > most ? k : most;
	}
	return heat_merge(*bins, *t, most);
}

static void heat_legend(struct strbuf *sb, const struct frame *f, uint64_t most)
{
	double step = (f->b - f->t) / 2 / LEGEND_STEPS, y;
	char color[8], label[32];
	unsigned s;

	for (s = 0; s < LEGEND_STEPS; s++) {
		y = f->t + 20 + step * (LEGEND_STEPS - 1 - s);
		heat_color((s + 0.5) / LEGEND_STEPS, color);
		strbuf_addf(sb,
			    "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"%.1f\" "
			    "fill=\"%s\"/>\n",
			    f->r + 20, y, step + 0.5, color);
	}
	svg_text(sb, f->r + 20, f->t + 10, "start", 11, "", "I/Os per cell");
	snprintf(label, sizeof(label), "%" PRIu64, most);
	svg_text(sb, f->r + 42, f->t + 20 + 9, "start", 11, " class=\"legend-max\"", label);
	if (most >= 100) {
		snprintf(label, sizeof(label), "%.0f", sqrt((double)most));
		svg_text(sb, f->r + 42, f->t + 20 + step * LEGEND_STEPS / 2 + 4, "start", 11, "",
			 label);
	}
	svg_text(sb, f->r + 42, f->t + 20 + step * LEGEND_STEPS, "start", 11, "", "1");
}

void plot_heat_svg(struct strbuf *sb, const char *title, const struct iolog_hist *const *heads,
		   unsigned nheads, int dir)
{
	static const struct frame f = { 900, 460, 80, 770, 50, 380 };
	uint64_t *bins, *t, *cells, most = 0, lo_ns = UINT64_MAX, hi_ns = 0, n;
	size_t ncol = heat_columns(heads, nheads, dir, &bins, &t), k;
	int lo, hi, nrows, r;
	double x0, x1, y0, y1;
	char color[8];
	struct axis ax;
	unsigned b;

	for (k = 0; k < ncol; k++)
		for (b = 0; b < IOLOG_HIST_BINS; b++)
			if (bins[k * IOLOG_HIST_BINS + b]) {
				uint64_t v = hist_bucket_mid(b);

				lo_ns = v < lo_ns ? v : lo_ns;
				hi_ns = v > hi_ns ? v : hi_ns;
			}
	lo = hi_ns ? (int)floor(svg_lg((double)lo_ns)) : 3;
	hi = hi_ns ? (int)floor(svg_lg((double)hi_ns)) + 1 : 6;
	nrows = (hi - lo) * ROWS_PER_DECADE;
	cells = xcalloc(ncol * (size_t)nrows + 1, sizeof(*cells));
	for (k = 0; k < ncol; k++)
		for (b = 0; b < IOLOG_HIST_BINS; b++) {
			if (!(n = bins[k * IOLOG_HIST_BINS + b]))
				continue;
			r = (int)floor((svg_lg((double)hist_bucket_mid(b)) - lo) * ROWS_PER_DECADE);
			r = r < 0 ? 0 : r >= nrows ? nrows - 1 : r;
			cells[k * (size_t)nrows + (size_t)r] += n;
			most = cells[k * (size_t)nrows + (size_t)r] > most
				       ? cells[k * (size_t)nrows + (size_t)r]
				       : most;
		}
	ax = svg_axis_nice(ncol ? (double)t[ncol - 1] / 1000 : 0, 1);
	svg_open(sb, &f, title);
	svg_axis_ticks(sb, &f, &ax, true);
	svg_ns_ticks_y(sb, &f, lo, hi);
	if (!most)
		svg_no_samples(sb, &f);
	for (k = 0; k < ncol; k++) {
		x0 = f.l + (f.r - f.l) * svg_clamp01(k ? (double)t[k - 1] / 1000 / ax.hi : 0);
		x1 = f.l + (f.r - f.l) * svg_clamp01((double)t[k] / 1000 / ax.hi);
		for (r = 0; r < nrows; r++) {
			if (!(n = cells[k * (size_t)nrows + (size_t)r]))
				continue;
			y0 = f.b - (f.b - f.t) * (r + 1) / nrows;
			y1 = f.b - (f.b - f.t) * r / nrows;
			heat_color(heat_k(n, most), color);
			strbuf_addf(sb,
				    "<rect class=\"cell\" data-t=\"%" PRIu64 "\" data-lo=\"%.0f\" "
				    "data-hi=\"%.0f\" data-n=\"%" PRIu64 "\" x=\"%.1f\" y=\"%.1f\" "
				    "width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
				    t[k], pow(10, lo + (double)r / ROWS_PER_DECADE),
				    pow(10, lo + (double)(r + 1) / ROWS_PER_DECADE), n, x0, y0,
				    x1 - x0 > 0.5 ? x1 - x0 : 0.5, y1 - y0, color);
		}
	}
	svg_frame(sb, &f, "time (s)", "latency (log scale)");
	if (most)
		heat_legend(sb, &f, most);
	svg_puts(sb, "</svg>\n");
	free(cells);
	free(bins);
	free(t);
}
