/* SPDX-License-Identifier: MIT */
/*
 * iogauge compare's tables as one self-contained HTML page: the same rows
 * as the text table, and per job and direction the runs' completion
 * latency by percentile overlaid (plot_cdf_svg, from the json+ bins of
 * each side, a folder's runs summed).  Inline CSS and SVG only: no
 * script, no font or file from elsewhere.  Pure: it fills a strbuf.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_stats.h"
#include "compare/compare.h"
#include "report/html/html.h"
#include "report/plot.h"

static const char style[] =
	"body{font-family:sans-serif;margin:1em;color:#222;max-width:75em}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
	".scroll{overflow-x:auto}"
	"table{border-collapse:collapse;font-size:.9em}"
	"th,td{border-bottom:1px solid #ddd;padding:.25em .6em;text-align:left;white-space:nowrap}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"tr.faster td.v{color:#17692b;font-weight:bold}tr.slower td.v{color:#b21f1f;"
	"font-weight:bold}tr.inconclusive td.v{color:#8a6d00}"
	"svg{max-width:100%;height:auto}code{word-break:break-all}"
	"@media print{.scroll{overflow:visible}h2{break-after:avoid}svg{break-inside:avoid}}";

static void cell(struct strbuf *out, const char *cls, const char *text)
{
	strbuf_addf(out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_text(out, text);
	strbuf_adds(out, "</td>");
}

static void table_html(const struct cmp_table *tb, unsigned k, struct strbuf *out)
{
	static const char *const head[] = { "job", "dir",    "metric",	     "unit",	"A",
					    "B",   "change", "95% interval", "verdict", "how" };
	unsigned i, c;

	strbuf_addf(out, "<section class=\"comparison\" id=\"comparison-%u\">\n<h2>", k + 1);
	strbuf_adds(out, "B against A</h2>\n<p>A: <code>");
	html_text(out, tb->a_path);
	strbuf_adds(out, "</code><br>B: <code>");
	html_text(out, tb->b_path);
	strbuf_addf(out,
		    "</code></p>\n<p>The change is B against A; the interval is its 95%% "
		    "confidence interval; differences within %.1f%% count as the same.</p>\n"
		    "<div class=\"scroll\"><table>\n<thead><tr>",
		    tb->threshold * 100);
	for (c = 0; c < ARRAY_SIZE(head); c++)
		strbuf_addf(out, "<th>%s</th>", head[c]);
	strbuf_adds(out, "</tr></thead>\n<tbody>\n");
	for (i = 0; i < tb->nr; i++) {
		const struct cmp_row *r = &tb->rows[i];
		struct cmp_cells v;

		cmp_row_cells(r, &v);
		strbuf_addf(out, "<tr class=\"%s\">",
			    r->verdict == CMP_NONE ? "none" : cmp_verdict_names[r->verdict]);
		cell(out, NULL, r->job);
		cell(out, NULL, cmp_dir_names[r->dir]);
		cell(out, NULL, r->metric);
		cell(out, NULL, r->unit);
		cell(out, "n", v.a);
		cell(out, "n", v.b);
		cell(out, "n", v.change);
		cell(out, "n", v.interval);
		cell(out, "v", cmp_verdict_names[r->verdict]);
		cell(out, NULL, r->how);
		strbuf_adds(out, "</tr>\n");
	}
	strbuf_adds(out, "</tbody></table></div>\n</section>\n");
}

/* Side @s's json+ bins of job @job, direction @d, summed over its runs,
 * as a histogram; false when a run has none. */
static bool side_hist(const struct cmp_side *s, unsigned job, unsigned d, struct hist *h)
{
	unsigned r, i;

	hist_init(h);
	for (r = 0; r < s->nr; r++)
		if (!s->runs[r].jobs[job].dir[d].bins)
			return false;
	hist_prepare(h);
	for (r = 0; r < s->nr; r++) {
		const struct cmp_dir *cd = &s->runs[r].jobs[job].dir[d];

		for (i = 0; i < cd->nr_bins; i++) {
			const struct cmp_bin *b = &cd->bins[i];

			if (!b->count)
				continue;
			h->bucket[hist_index(b->ns)] += b->count;
			h->count += b->count;
			h->sum += b->ns * b->count;
			h->sum_sq += (unsigned __int128)b->ns * b->ns * b->count;
			h->min = b->ns < h->min ? b->ns : h->min;
			h->max = b->ns > h->max ? b->ns : h->max;
		}
	}
	return h->count > 0;
}

/* The sides' CDFs of each job and direction, overlaid. */
static void cdfs_html(const struct cmp_side *sides, unsigned nsides, struct strbuf *out)
{
	const struct cmp_run *first = &sides[0].runs[0];
	struct plot_dist *ds = xcalloc(nsides, sizeof(*ds));
	struct hist *hs = xcalloc(nsides, sizeof(*hs));
	char **names = xcalloc(nsides, sizeof(*names));
	struct strbuf svg = { 0 };
	unsigned j, d, s, have;
	const char *body;

	strbuf_adds(out, "<section class=\"cdfs\">\n<h2>Completion latency by percentile</h2>\n");
	for (s = 0; s < nsides; s++) {
		names[s] = xasprintf("%c", s < 26 ? 'A' + s : '?');
		strbuf_addf(out, "%s%s: <code>", s ? "<br>" : "<p>", names[s]);
		html_text(out, sides[s].path);
		strbuf_addf(out, "</code>%s", s + 1 == nsides ? "</p>\n" : "");
	}
	for (j = 0; j < first->nr; j++)
		for (d = 0; d < 3; d++) {
			char *title;

			if (!first->jobs[j].dir[d].present)
				continue;
			for (s = 0, have = 0; s < nsides; s++) {
				have += side_hist(&sides[s], j, d, &hs[s]);
				ds[s] = (struct plot_dist){ names[s], &hs[s] };
			}
			strbuf_addf(out, "<figure class=\"cdf\" data-job=\"");
			html_text(out, first->jobs[j].name);
			strbuf_addf(out, "\" data-direction=\"%s\">\n", cmp_dir_names[d]);
			if (have == nsides) {
				title = xasprintf("[%s] %s completion latency", first->jobs[j].name,
						  cmp_dir_names[d]);
				svg.len = 0;
				plot_cdf_svg(&svg, title, ds, nsides);
				free(title);
				/* Inline: the XML declaration is for a file of its own. */
				body = strstr(svg.buf, "<svg ");
				strbuf_adds(out, body ? body : svg.buf);
			} else {
				strbuf_adds(out, "<p>[");
				html_text(out, first->jobs[j].name);
				strbuf_addf(out,
					    "] %s: no latency bins in every report; run with "
					    "--output-format=json+ to see the curves here.</p>\n",
					    cmp_dir_names[d]);
			}
			strbuf_adds(out, "</figure>\n");
			for (s = 0; s < nsides; s++)
				hist_free(&hs[s]);
		}
	strbuf_adds(out, "</section>\n");
	for (s = 0; s < nsides; s++)
		free(names[s]);
	strbuf_free(&svg);
	free(names);
	free(hs);
	free(ds);
}

void cmp_print_html(const struct cmp_table *t, unsigned nr, const struct cmp_side *sides,
		    unsigned nsides, struct strbuf *out)
{
	unsigned k;

	strbuf_addf(out,
		    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>iogauge compare</title>\n<style>%s</style>\n</head>\n<body>\n"
		    "<h1>iogauge compare</h1>\n",
		    style);
	for (k = 0; k < nr; k++)
		table_html(&t[k], k, out);
	cdfs_html(sides, nsides, out);
	strbuf_addf(out,
		    "<p class=\"note\">json+ latency bins are read as fio writes them: each "
		    "value known to within %.1f%%, which the percentile intervals "
		    "include.</p>\n</body>\n</html>\n",
		    CMP_BIN_ERR * 100);
}
