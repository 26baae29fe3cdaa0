/* SPDX-License-Identifier: MIT */
/*
 * --output-format=openmetrics: the run's figures in the OpenMetrics text
 * format, as Prometheus' node_exporter textfile collector reads them:
 * gauges per report entry (a clone, or a group with group_reporting) and
 * direction, the total latency's percentiles as a gauge with a quantile
 * label, and its histogram with cumulative buckets in seconds.  Every
 * family's samples are together, as the format asks; no timestamps (the
 * collector refuses them); "# EOF" ends it.  Not fio's format.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

/* The latency histogram's bucket bounds are 2^k - 1 ns for k from
 * OM_LE_FIRST to OM_LE_LAST (127 ns to about 17 s), then +Inf: 2^k is
 * where a bucket of the histogram starts (hist.h), so each bound ends a
 * bucket and its count is exact, not estimated. */
#define OM_LE_FIRST 7
#define OM_LE_LAST  34

static const double om_quantiles[] = { 0.5, 0.9, 0.99, 0.999, 0.9999, 1 };

/* A label value: backslash, quote and line feed escaped. */
static void label_value(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			strbuf_addc(sb, '\\');
		if (*s == '\n')
			strbuf_adds(sb, "\\n");
		else
			strbuf_addc(sb, *s);
	}
}

struct om_row {
	const struct report_entry *e;
	const struct dir_stats *ds;
	const char *dir;
};

struct om {
	struct report_entries es;
	struct om_row *rows; /* every entry's directions, in report order */
	unsigned nr;
	char host[256];
	struct strbuf *sb;
};

/* "{job=...,group=...,direction=...,host=..." without the closing brace;
 * a clone's entry has its clone number, a group's none; no direction
 * label when @dir is NULL. */
static void labels(const struct om *om, const struct report_entry *e, const char *dir)
{
	strbuf_adds(om->sb, "{job=\"");
	label_value(om->sb, e->r->job->name);
	strbuf_addf(om->sb, "\",group=\"%u\"", e->r->group);
	if (!e->r->job->group_reporting)
		strbuf_addf(om->sb, ",clone=\"%u\"", e->r->clone);
	if (dir)
		strbuf_addf(om->sb, ",direction=\"%s\"", dir);
	strbuf_adds(om->sb, ",host=\"");
	label_value(om->sb, om->host);
	strbuf_addc(om->sb, '"');
}

static void family(const struct om *om, const char *name, const char *type, const char *unit,
		   const char *help)
{
	strbuf_addf(om->sb, "# TYPE %s %s\n", name, type);
	if (unit)
		strbuf_addf(om->sb, "# UNIT %s %s\n", name, unit);
	strbuf_addf(om->sb, "# HELP %s %s\n", name, help);
}

static double om_secs(const struct report_entry *e)
{
	return (double)e->st->elapsed / 1e9;
}

static void gauges(const struct om *om)
{
	unsigned i;

	family(om, "iogauge_iops", "gauge", NULL, "I/Os completed per second of the runtime.");
	for (i = 0; i < om->nr; i++) {
		const struct om_row *r = &om->rows[i];
		double s = om_secs(r->e);

		strbuf_adds(om->sb, "iogauge_iops");
		labels(om, r->e, r->dir);
		strbuf_addf(om->sb, "} %.6f\n", s > 0 ? (double)r->ds->ios / s : 0);
	}
	family(om, "iogauge_bandwidth_bytes_per_second", "gauge", "bytes_per_second",
	       "Bytes moved per second of the runtime.");
	for (i = 0; i < om->nr; i++) {
		const struct om_row *r = &om->rows[i];
		double s = om_secs(r->e);

		strbuf_adds(om->sb, "iogauge_bandwidth_bytes_per_second");
		labels(om, r->e, r->dir);
		strbuf_addf(om->sb, "} %llu\n",
			    (unsigned long long)(s > 0 ? (double)r->ds->bytes / s : 0));
	}
	family(om, "iogauge_io_bytes", "gauge", "bytes", "Bytes moved.");
	for (i = 0; i < om->nr; i++) {
		strbuf_adds(om->sb, "iogauge_io_bytes");
		labels(om, om->rows[i].e, om->rows[i].dir);
		strbuf_addf(om->sb, "} %llu\n", (unsigned long long)om->rows[i].ds->bytes);
	}
	family(om, "iogauge_ios", "gauge", NULL, "I/Os completed.");
	for (i = 0; i < om->nr; i++) {
		strbuf_adds(om->sb, "iogauge_ios");
		labels(om, om->rows[i].e, om->rows[i].dir);
		strbuf_addf(om->sb, "} %llu\n", (unsigned long long)om->rows[i].ds->ios);
	}
	family(om, "iogauge_runtime_seconds", "gauge", "seconds",
	       "Measured time of the entry's I/O; 0 for a direction with no I/O.");
	for (i = 0; i < om->nr; i++) {
		const struct om_row *r = &om->rows[i];

		strbuf_adds(om->sb, "iogauge_runtime_seconds");
		labels(om, r->e, r->dir);
		strbuf_addf(om->sb, "} %.3f\n",
			    r->ds->ios ? (double)(r->e->st->elapsed / 1000000) / 1e3 : 0);
	}
	family(om, "iogauge_errors", "gauge", NULL,
	       "I/O errors passed over (continue_on_error), all directions together.");
	for (i = 0; i < om->es.n; i++) {
		strbuf_adds(om->sb, "iogauge_errors");
		labels(om, &om->es.v[i], NULL);
		strbuf_addf(om->sb, "} %llu\n", (unsigned long long)om->es.v[i].st->errors);
	}
}

static void latency(const struct om *om)
{
	unsigned i, q, k;

	family(om, "iogauge_latency_percentile_seconds", "gauge", "seconds",
	       "Total latency (submission to completion) percentiles; quantile 1 is the "
	       "maximum.");
	for (i = 0; i < om->nr; i++) {
		const struct om_row *r = &om->rows[i];

		for (q = 0; q < ARRAY_SIZE(om_quantiles); q++) {
			strbuf_adds(om->sb, "iogauge_latency_percentile_seconds");
			labels(om, r->e, r->dir);
			strbuf_addf(om->sb, ",quantile=\"%g\"} %.9f\n", om_quantiles[q],
				    (double)hist_percentile(&r->ds->lat, om_quantiles[q] * 100) /
					    1e9);
		}
	}
	family(om, "iogauge_latency_seconds", "histogram", "seconds",
	       "Total latency (submission to completion) of each I/O.");
	for (i = 0; i < om->nr; i++) {
		const struct hist *h = &om->rows[i].ds->lat;
		uint64_t seen = 0;
		unsigned b = 0;

		for (k = OM_LE_FIRST; k <= OM_LE_LAST; k++) {
			/* The buckets below the one 2^k starts. */
			for (; h->count && b < hist_index(1ull << k); b++)
				seen += h->bucket[b];
			strbuf_adds(om->sb, "iogauge_latency_seconds_bucket");
			labels(om, om->rows[i].e, om->rows[i].dir);
			strbuf_addf(om->sb, ",le=\"%.9f\"} %llu\n", (double)((1ull << k) - 1) / 1e9,
				    (unsigned long long)seen);
		}
		strbuf_adds(om->sb, "iogauge_latency_seconds_bucket");
		labels(om, om->rows[i].e, om->rows[i].dir);
		strbuf_addf(om->sb, ",le=\"+Inf\"} %llu\n", (unsigned long long)h->count);
		strbuf_adds(om->sb, "iogauge_latency_seconds_count");
		labels(om, om->rows[i].e, om->rows[i].dir);
		strbuf_addf(om->sb, "} %llu\n", (unsigned long long)h->count);
		strbuf_adds(om->sb, "iogauge_latency_seconds_sum");
		labels(om, om->rows[i].e, om->rows[i].dir);
		strbuf_addf(om->sb, "} %.9f\n", (double)h->sum / 1e9);
	}
}

void report_openmetrics(const struct run *run, struct strbuf *sb)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	struct om om = { .sb = sb };
	unsigned i, d;

	if (gethostname(om.host, sizeof(om.host) - 1))
		strcpy(om.host, "unknown");
	report_entries(run, &om.es);
	om.rows = xcalloc(om.es.n * (STAT_TRIM + 2) + 1, sizeof(*om.rows));
	for (i = 0; i < om.es.n; i++) {
		const struct report_entry *e = &om.es.v[i];
		enum unified_rw u = e->r->job->unified_rw_reporting;

		/* unified_rw_reporting: mixed in place of the three, or after them (both). */
		for (d = STAT_READ; u != UNIFIED_MIXED && d <= STAT_TRIM; d++)
			om.rows[om.nr++] = (struct om_row){ e, &e->st->dir[d], dirs[d] };
		if (u != UNIFIED_NONE)
			om.rows[om.nr++] = (struct om_row){ e, e->mixed, "mixed" };
	}
	gauges(&om);
	latency(&om);
	strbuf_adds(sb, "# EOF\n");
	free(om.rows);
	report_entries_free(&om.es);
}
