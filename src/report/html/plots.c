/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's plots (latency by percentile, IOPS and bandwidth over
 * time, a latency histogram per direction, latency over time as a heat
 * map where write_hist_log kept the histogram log, SQLIO's millisecond
 * histogram as bars), drawn by plot.h's SVG
 * functions and put inline: each in a <div class="plot" data-plot="KIND">,
 * without the SVG file's XML declaration (HTML has none).
 */
#include <stdlib.h>
#include <string.h>

#include "report/html/html.h"
#include "report/plot.h"

/* @svg (a whole SVG file) inline, in a div named @kind. */
static void inline_svg(struct strbuf *sb, const char *kind, const struct strbuf *svg)
{
	const char *s = svg->buf ? svg->buf : "";
	const char *end;

	if (!strncmp(s, "<?xml", 5) && (end = strstr(s, "?>")))
		s = end + 2 + (end[2] == '\n');
	strbuf_addf(sb, "<div class=\"plot\" data-plot=\"%s\">\n", kind);
	strbuf_adds(sb, s);
	strbuf_adds(sb, "</div>\n");
}

/* Every direction's latency (and sync's) on one exceedance plot. */
static void latency_cdf(struct strbuf *sb, const struct report_entry *e)
{
	static const char *const dnames[STAT_NR] = { "read", "write", "trim", "sync" };
	struct plot_dist ds[STAT_NR];
	struct strbuf svg = { 0 };
	unsigned d, n = 0;

	for (d = 0; d < STAT_NR; d++)
		if (e->st->dir[d].ios)
			ds[n++] = (struct plot_dist){ dnames[d], &e->st->dir[d].lat };
	plot_cdf_svg(&svg, "latency by percentile", ds, n);
	inline_svg(sb, "cdf", &svg);
	strbuf_free(&svg);
}

/* Latency over time per direction, where write_hist_log kept the
 * histogram log: the clones of a group summed window by window. */
static void latency_heat(struct strbuf *sb, const struct report_entry *e)
{
	static const char *const dnames[2] = { "read", "write" };
	const struct iolog_hist **heads = xcalloc(e->threads, sizeof(*heads));
	struct strbuf svg = { 0 };
	unsigned i, d, any = 0;
	char *title, *kind;

	for (i = 0; i < e->threads; i++)
		if (e->r[i].logs && (heads[i] = e->r[i].logs->hist_head))
			any++;
	for (d = 0; d < 2 && any; d++) {
		if (!e->st->dir[d].ios)
			continue;
		title = xasprintf("%s latency over time (%u ms windows)", dnames[d],
				  e->r->job->log_hist_msec);
		kind = xasprintf("heat-%s", dnames[d]);
		svg.len = 0;
		plot_heat_svg(&svg, title, heads, e->threads, (int)d);
		inline_svg(sb, kind, &svg);
		free(title);
		free(kind);
	}
	strbuf_free(&svg);
	free(heads);
}

void html_entry_plots(struct strbuf *sb, const struct report_entry *e)
{
	static const char *const dnames[STAT_NR] = { "read", "write", "trim", "sync" };
	static const double pcts[] = { 50, 90, 99, 99.9, 99.99 };
	const struct job *job = e->r->job;
	const struct run_stats *st = e->st;
	struct strbuf svg = { 0 };
	struct plot_point *pts[4];
	struct plot_series s[2];
	char *title, *kind;
	unsigned d, ns, k;
	size_t n;

	strbuf_adds(sb, "<div class=\"plots\">\n");
	latency_cdf(sb, e);
	report_entry_series(e, pts, &n);
	for (k = 0; k < 2; k++) {
		ns = 0;
		for (d = 0; d < 2; d++)
			if (job_does(job, (enum ddir)d))
				s[ns++] = (struct plot_series){ dnames[d], pts[k * 2 + d], n };
		title = xasprintf("%s over time (500 ms windows)", k ? "bandwidth" : "IOPS");
		svg.len = 0;
		plot_lines_svg(&svg, title, k ? "MiB/s" : "IOPS", s, ns);
		inline_svg(sb, k ? "bw" : "iops", &svg);
		free(title);
	}
	for (k = 0; k < 4; k++)
		free(pts[k]);
	for (d = 0; d < STAT_NR; d++) {
		if (!st->dir[d].ios)
			continue;
		title = xasprintf("%s latency (%llu I/Os)", dnames[d],
				  (unsigned long long)st->dir[d].ios);
		svg.len = 0;
		/* The table's percentiles (not percentile_list's 17): the markers match it. */
		plot_hist_svg(&svg, title, &st->dir[d].lat, pcts, ARRAY_SIZE(pcts));
		kind = xasprintf("lat-%s", dnames[d]);
		inline_svg(sb, kind, &svg);
		free(kind);
		free(title);
	}
	latency_heat(sb, e);
	/* SQLIO's histogram: what a SQLIO user looks for first. */
	svg.len = 0;
	report_ms_svg(e, "latency in whole milliseconds, reads and writes", &svg);
	inline_svg(sb, "ms", &svg);
	strbuf_adds(sb, "</div>\n");
	strbuf_free(&svg);
}
