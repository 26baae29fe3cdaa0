/* SPDX-License-Identifier: MIT */
/*
 * --output-format=spreadsheet: CSV for a spreadsheet, a header line, then
 * one row per report entry (a clone, or a group with group_reporting) and
 * direction.  Fields are quoted as RFC 4180 asks (only when they hold
 * a comma, a quote or a line break); lines end in LF.  The figures are
 * the JSON report's, in bytes, nanoseconds and I/Os per second.  Under
 * mpirun: the ranks' sum, then each host's rows and (--per-rank) each
 * rank's, told apart by three last columns, scope, host and rank.  Not fio's
 * "csv", which is its terse format.
 */
#include <string.h>

#include "report/report.h"
#include "report/scope.h"

/* The total latency percentiles of every row, whatever percentile_list says. */
static const double csv_pcts[] = { 50, 90, 99, 99.9, 99.99 };

static const char csv_header[] =
	"jobname,group,clone,clones,direction,ios,bytes,runtime_ms,iops,bw_bytes,"
	"lat_min_ns,lat_mean_ns,lat_p50_ns,lat_p90_ns,lat_p99_ns,lat_p99.9_ns,"
	"lat_p99.99_ns,lat_max_ns,lat_stddev_ns,clat_mean_ns,slat_mean_ns,errors,error";
/* Under mpirun, after those: whose row it is. */
static const char csv_scope_header[] = ",scope,host,rank";

/* @s as one RFC 4180 field: in quotes, its quotes doubled, when it holds
 * a comma, a quote, CR or LF. */
static void field(struct strbuf *sb, const char *s)
{
	const char *p;

	if (!s[strcspn(s, ",\"\r\n")]) {
		strbuf_adds(sb, s);
		return;
	}
	strbuf_addc(sb, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			strbuf_addc(sb, '"');
		strbuf_addc(sb, *p);
	}
	strbuf_addc(sb, '"');
}

/* One row: direction @d of @e (STAT_NR: its mixed one), named @dir; @tail
 * (may be NULL) ends it: the MPI columns. */
static void row(const struct report_entry *e, unsigned d, const char *dir, const char *tail,
		struct strbuf *sb)
{
	const struct dir_stats *ds = d < STAT_NR ? &e->st->dir[d] : e->mixed;
	const struct hist *h = &ds->lat;
	double secs = (double)e->st->elapsed / 1e9;
	unsigned i;

	field(sb, e->r->job->name);
	strbuf_addf(sb, ",%u,", e->r->group);
	/* A group's row is no one clone's. */
	if (!e->r->job->group_reporting)
		strbuf_addu(sb, e->r->clone);
	strbuf_addf(sb, ",%u,%s,%llu,%llu,%llu,%.6f,%llu", e->threads, dir,
		    (unsigned long long)ds->ios, (unsigned long long)ds->bytes,
		    (unsigned long long)(ds->ios ? e->st->elapsed / 1000000 : 0),
		    secs > 0 ? (double)ds->ios / secs : 0,
		    (unsigned long long)(secs > 0 ? (double)ds->bytes / secs : 0));
	strbuf_addf(sb, ",%llu,%.3f", (unsigned long long)(h->count ? h->min : 0), hist_mean(h));
	for (i = 0; i < ARRAY_SIZE(csv_pcts); i++)
		strbuf_addf(sb, ",%llu", (unsigned long long)hist_percentile(h, csv_pcts[i]));
	strbuf_addf(sb, ",%llu,%.3f,%.3f,%.3f,%llu,%d", (unsigned long long)h->max,
		    hist_stddev_sample(h), hist_mean(&ds->clat), hist_mean(&ds->slat),
		    (unsigned long long)e->st->errors, e->err ? e->err->error_no : 0);
	if (tail)
		strbuf_adds(sb, tail);
	strbuf_addc(sb, '\n');
}

/* Every entry of @run, each of its directions a row ending in @tail. */
static void rows(const struct run *run, const char *tail, struct strbuf *sb)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	struct report_entries es;
	unsigned i, d;

	report_entries(run, &es);
	for (i = 0; i < es.n; i++) {
		const struct report_entry *e = &es.v[i];
		enum unified_rw u = e->r->job->unified_rw_reporting;

		/* unified_rw_reporting: mixed in place of the three, or after them (both). */
		for (d = STAT_READ; u != UNIFIED_MIXED && d <= STAT_TRIM; d++)
			row(e, d, dirs[d], tail, sb);
		if (u != UNIFIED_NONE)
			row(e, STAT_NR, "mixed", tail, sb);
	}
	report_entries_free(&es);
}

/* Under mpirun: the ranks' sum (scope "all", no host or rank), then a
 * row per host's entry and direction (scope "host"), then with --per-rank
 * per rank's (scope "rank"), each with the three columns at the end. */
void report_csv(const struct run *run, struct strbuf *sb)
{
	struct report_scope *sc;
	struct strbuf tail = { 0 };
	unsigned k, n;

	strbuf_adds(sb, csv_header);
	if (!run->ranks) {
		strbuf_addc(sb, '\n');
		rows(run, NULL, sb);
		return;
	}
	strbuf_adds(sb, csv_scope_header);
	strbuf_addc(sb, '\n');
	rows(run, ",all,,", sb);
	n = report_scopes(run, &sc);
	for (k = 0; k < n; k++) {
		tail.len = 0;
		strbuf_adds(&tail, sc[k].rank < 0 ? ",host," : ",rank,");
		field(&tail, sc[k].host);
		strbuf_addc(&tail, ',');
		if (sc[k].rank >= 0)
			strbuf_addu(&tail, (unsigned)sc[k].rank);
		rows(&sc[k].run, tail.buf, sb);
	}
	strbuf_free(&tail);
	report_scopes_free(sc, n);
}
