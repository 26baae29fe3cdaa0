/* SPDX-License-Identifier: MIT */
/*
 * An entry's SQLIO millisecond histogram as a bar chart (plot_bars_svg),
 * for the --plot files and the HTML page alike: report_sqlio.c's buckets
 * (whole ms of total latency, 0 to 23, then 24+) of reads and writes
 * together, in percent of their I/Os.
 */
#include <stdio.h>

#include "report/plot.h"
#include "report/report.h"

void report_ms_svg(const struct report_entry *e, const char *title, struct strbuf *sb)
{
	char names[STATS_MS_BUCKETS][8];
	const char *labels[STATS_MS_BUCKETS];
	double pct[STATS_MS_BUCKETS];
	uint64_t ios = 0, n;
	unsigned k, d;

	for (d = STAT_READ; d <= STAT_WRITE; d++)
		ios += e->st->dir[d].ios;
	for (k = 0; k < STATS_MS_BUCKETS; k++) {
		for (n = 0, d = STAT_READ; d <= STAT_WRITE; d++)
			n += e->st->dir[d].ms[k];
		pct[k] = ios ? 100.0 * (double)n / (double)ios : 0;
		snprintf(names[k], sizeof(names[k]), k + 1 < STATS_MS_BUCKETS ? "%u" : "%u+", k);
		labels[k] = names[k];
	}
	plot_bars_svg(sb, title, "latency (ms, as SQLIO's histogram)", "share of I/Os (%)", labels,
		      pct, STATS_MS_BUCKETS, 1);
}
