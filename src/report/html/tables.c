/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's tables: an entry's DiskSpd-style table (a row per
 * direction and a total), the summary of every entry's total row, an
 * entry's CPU line, fio's group totals and the disks' counters.  The figures are the JSON report's (bytes over the entry's
 * measured time, total latency): each cell also carries its exact value
 * in a data- attribute, so that a test or a script reads them unrounded.
 */
#include <stdlib.h>
#include <string.h>

#include "report/html/html.h"

/* The columns' percentiles, whatever percentile_list says. */
static const double table_pcts[] = { 50, 90, 99, 99.9, 99.99 };
static const char *const table_pct_names[] = { "p50", "p90", "p99", "p99.9", "p99.99" };

/* A latency cell: µs with 1 decimal; @ns in data-v. */
static void lat_cell(struct strbuf *sb, const char *key, double ns, bool any)
{
	if (!any) {
		strbuf_addf(sb, "<td data-k=\"%s\">-</td>", key);
		return;
	}
	strbuf_addf(sb, "<td data-k=\"%s\" data-v=\"%.3f\">%.1f</td>", key, ns, ns / 1e3);
}

/* The figures of one row, after its first cell: the I/Os and latencies
 * in @ds over @secs. */
static void figures(struct strbuf *sb, const struct dir_stats *ds, const struct hist *lat,
		    double secs)
{
	double bw = secs > 0 ? (double)ds->bytes / secs : 0;
	double iops = secs > 0 ? (double)ds->ios / secs : 0;
	bool any = lat->count > 0;
	unsigned i;

	strbuf_addf(sb, "<td data-k=\"ios\" data-v=\"%llu\">%llu</td>", (unsigned long long)ds->ios,
		    (unsigned long long)ds->ios);
	strbuf_addf(sb, "<td data-k=\"bytes\" data-v=\"%llu\">%.2f</td>",
		    (unsigned long long)ds->bytes, (double)ds->bytes / 1048576.0);
	/* bw_bytes and iops as the JSON has them: whole bytes, 6 decimals. */
	strbuf_addf(sb, "<td data-k=\"bw_bytes\" data-v=\"%llu\">%.2f</td>", (unsigned long long)bw,
		    bw / 1048576.0);
	strbuf_addf(sb, "<td data-k=\"iops\" data-v=\"%.6f\">%.1f</td>", iops, iops);
	lat_cell(sb, "mean", hist_mean(lat), any);
	for (i = 0; i < ARRAY_SIZE(table_pcts); i++)
		lat_cell(sb, table_pct_names[i], (double)hist_percentile(lat, table_pcts[i]), any);
	lat_cell(sb, "max", (double)lat->max, any);
	strbuf_adds(sb, "</tr>\n");
}

/* One row, named @name, of the I/Os and latencies in @ds over @secs. */
static void dir_row(struct strbuf *sb, const char *name, const struct dir_stats *ds,
		    const struct hist *lat, double secs)
{
	strbuf_addf(sb, "<tr class=\"%s\" data-dir=\"%s\"><td class=\"name\">%s</td>", name, name,
		    name);
	figures(sb, ds, lat, secs);
}

/* The table's header row, its first column titled @first. */
static void head(struct strbuf *sb, const char *cls, const char *first)
{
	unsigned i;

	strbuf_addf(sb,
		    "<div class=\"scroll\"><table class=\"num %s\"><tr><th>%s</th>"
		    "<th>I/Os</th><th>MiB</th><th>MiB/s</th><th>IOPS</th>"
		    "<th>lat avg (\u00b5s)</th>",
		    cls, first);
	for (i = 0; i < ARRAY_SIZE(table_pcts); i++)
		strbuf_addf(sb, "<th>%s (\u00b5s)</th>", table_pct_names[i]);
	strbuf_adds(sb, "<th>max (\u00b5s)</th></tr>\n");
}

/* Reads, writes and trims of @st as one direction, into @total (free its
 * lat after). */
static void sum_dirs(const struct run_stats *st, struct dir_stats *total)
{
	unsigned d;

	memset(total, 0, sizeof(*total));
	hist_init(&total->lat);
	for (d = STAT_READ; d <= STAT_TRIM; d++) {
		total->ios += st->dir[d].ios;
		total->bytes += st->dir[d].bytes;
		hist_merge(&total->lat, &st->dir[d].lat);
	}
}

/* The DiskSpd-style table of @st. */
static void perf_table(struct strbuf *sb, const struct run_stats *st)
{
	static const char *const names[] = { "read", "write", "trim" };
	double secs = (double)st->elapsed / 1e9;
	struct dir_stats total;
	unsigned d;

	head(sb, "perf", "direction");
	/* Reads and writes always, as DiskSpd; trims when there were any. */
	for (d = STAT_READ; d <= STAT_TRIM; d++)
		if (d < STAT_TRIM || st->dir[d].ios)
			dir_row(sb, names[d], &st->dir[d], &st->dir[d].lat, secs);
	sum_dirs(st, &total);
	dir_row(sb, "total", &total, &total.lat, secs);
	hist_free(&total.lat);
	strbuf_adds(sb, "</table></div>\n");
}

void html_entry_table(struct strbuf *sb, const struct report_entry *e)
{
	perf_table(sb, e->st);
}

void html_group_tables(struct strbuf *sb, const struct report_entries *es)
{
	unsigned i, j, n;

	for (i = 0; i < es->n; i = j) {
		struct run_stats m;

		/* A group's entries are one after another, as its clones. */
		for (j = i, n = 0; j < es->n && es->v[j].r->group == es->v[i].r->group; j++)
			n++;
		if (n < 2)
			continue;
		stats_init(&m);
		for (j = i; j < i + n; j++)
			stats_merge(&m, es->v[j].st);
		strbuf_addf(sb,
			    "<h3 id=\"group-%u\">Group %u: its %u entries together</h3>\n"
			    "<div data-group=\"%u\">\n",
			    es->v[i].r->group, es->v[i].r->group, n, es->v[i].r->group);
		perf_table(sb, &m);
		strbuf_adds(sb, "</div>\n");
		stats_free(&m);
	}
}

void html_summary(struct strbuf *sb, const struct report_entries *es)
{
	struct dir_stats total;
	unsigned i;

	head(sb, "summary", "job (all directions)");
	for (i = 0; i < es->n; i++) {
		const struct report_entry *e = &es->v[i];

		strbuf_addf(sb,
			    "<tr data-entry=\"%u\" data-dir=\"total\"><td class=\"name\">"
			    "<a href=\"#entry-%u\">",
			    i + 1, i + 1);
		html_text(sb, e->r->job->name);
		strbuf_addf(sb, "</a> <small>(group %u)</small></td>", e->r->group);
		sum_dirs(e->st, &total);
		figures(sb, &total, &total.lat, (double)e->st->elapsed / 1e9);
		hist_free(&total.lat);
	}
	strbuf_adds(sb, "</table></div>\n");
}

void html_entry_cpu(struct strbuf *sb, const struct report_entry *e)
{
	double usr, sys;

	report_cpu(e->st, &usr, &sys);
	strbuf_addf(sb,
		    "<p class=\"cpu\" data-usr=\"%.6f\" data-sys=\"%.6f\">CPU: usr %.2f%%, "
		    "sys %.2f%%, %llu context switches, %llu major and %llu minor page "
		    "faults; runtime %.3f s; engine ",
		    usr, sys, usr, sys, (unsigned long long)e->st->ru.ctx,
		    (unsigned long long)e->st->ru.majf, (unsigned long long)e->st->ru.minf,
		    (double)e->st->elapsed / 1e9);
	html_text(sb, e->r->engine ? e->r->engine : "?");
	strbuf_addf(sb, ", I/O depth %u (at most %llu in flight).</p>\n", e->r->depth,
		    (unsigned long long)e->st->depth_max);
}

/* A group's direction as a row: fio's io, aggregate and per-entry bandwidth, runtimes. */
static void group_row(struct strbuf *sb, unsigned id, const char *name,
		      const struct report_group_dir *g)
{
	strbuf_addf(sb,
		    "<tr data-group=\"%u\" data-dir=\"%s\"><td class=\"name\">%u</td>"
		    "<td class=\"name\">%s</td><td data-v=\"%llu\">%.2f</td>"
		    "<td data-v=\"%llu\">%.2f</td><td>%.2f</td><td>%.2f</td>"
		    "<td>%llu</td><td>%llu</td></tr>\n",
		    id, name, id, name, (unsigned long long)g->bytes, (double)g->bytes / 1048576.0,
		    (unsigned long long)g->agg, (double)g->agg / 1048576.0,
		    (double)g->min_bw / 1048576.0, (double)g->max_bw / 1048576.0,
		    (unsigned long long)g->min_run, (unsigned long long)g->max_run);
}

void html_groups(struct strbuf *sb, const struct run *run, const struct report_entries *es)
{
	static const char *const names[] = { "read", "write", "trim" };
	struct report_group *g;
	unsigned n = report_groups(run, es, &g), i, d;

	strbuf_adds(sb, "<div class=\"scroll\"><table class=\"num groups\"><tr><th>group</th>"
			"<th>direction</th><th>MiB</th><th>MiB/s (all jobs)</th>"
			"<th>MiB/s min</th><th>MiB/s max</th><th>run min (ms)</th>"
			"<th>run max (ms)</th></tr>\n");
	for (i = 0; i < n; i++) {
		unsigned rows = 0;

		for (d = 0; d < 3; d++)
			if (g[i].dir[d].max_run) {
				group_row(sb, g[i].id, names[d], &g[i].dir[d]);
				rows++;
			}
		/* A mix: iogauge's TOTAL line, as the native report's. */
		if (rows > 1)
			group_row(sb, g[i].id, "total", &g[i].total);
	}
	strbuf_adds(sb, "</table></div>\n");
	free(g);
}

void html_disks(struct strbuf *sb, const struct run *run)
{
	unsigned i;

	if (!run->disks.n) {
		strbuf_adds(sb, "<p>No disk under the files is in /proc/diskstats (tmpfs, or no "
				"files).</p>\n");
		return;
	}
	strbuf_adds(sb, "<div class=\"scroll\"><table class=\"num disks\"><tr><th>disk</th>"
			"<th>reads</th><th>writes</th><th>read merges</th><th>write merges</th>"
			"<th>read ticks (ms)</th><th>write ticks (ms)</th><th>in queue (ms)</th>"
			"<th>utilisation</th></tr>\n");
	for (i = 0; i < run->disks.n; i++) {
		struct disk_counters c;
		double util;

		disks_delta(&run->disks.v[i], run->duration / 1000000, &c, &util);
		strbuf_adds(sb, "<tr><td class=\"name\">");
		html_text(sb, run->disks.v[i].name);
		strbuf_addf(sb,
			    "</td><td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td>"
			    "<td>%llu</td><td>%llu</td><td data-v=\"%.4f\">%.2f%%</td></tr>\n",
			    (unsigned long long)c.ios[0], (unsigned long long)c.ios[1],
			    (unsigned long long)c.merges[0], (unsigned long long)c.merges[1],
			    (unsigned long long)c.ticks[0], (unsigned long long)c.ticks[1],
			    (unsigned long long)c.in_queue, util, util);
	}
	strbuf_adds(sb, "</table></div>\n");
}
