/* SPDX-License-Identifier: MIT */
/*
 * --output-format=openmetrics: the run's figures in the OpenMetrics text
 * format, as Prometheus' node_exporter textfile collector reads them:
 * gauges per report entry (a clone, or a group with group_reporting) and
 * direction, the total latency's percentiles as a gauge with a quantile
 * label, and its histogram with cumulative buckets in seconds.  Every
 * family's samples are together, as the format asks; no timestamps (the
 * collector refuses them); "# EOF" ends it.  Under mpirun the ranks' sum,
 * each host's and (--per-rank) each rank's samples share the families,
 * labelled scope, host and rank.  Not fio's format.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "report/scope.h"

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

/* A report entry and whose it is: under mpirun the ranks' sum (@sc
 * NULL), a host's or a rank's; NULL without mpirun. */
struct om_entry {
	const struct report_entry *e;
	const struct report_scope *sc;
};

struct om_row {
	const struct report_entry *e;
	const struct dir_stats *ds;
	const char *dir;
	const struct report_scope *sc;
};

struct om {
	struct report_entries es;
	struct report_entries *scope_es; /* mpirun: each scope's entries */
	struct report_scope *scopes;
	unsigned nr_scopes;
	struct om_entry *ents; /* every entry, the sum's then the scopes' */
	unsigned nr_ents;
	struct om_row *rows; /* every entry's directions, in report order */
	unsigned nr;
	char host[256];
	bool mpi;
	struct strbuf *sb;
};

/* "{job=...,group=...,direction=...,host=..." without the closing brace;
 * a clone's entry has its clone number, a group's none; no direction
 * label when @dir is NULL.  Under mpirun "scope" tells the ranks' sum
 * ("all", host ""), a host's ("host") and a rank's ("rank", with "rank"). */
static void labels(const struct om *om, const struct report_entry *e, const char *dir,
		   const struct report_scope *sc)
{
	strbuf_adds(om->sb, "{job=\"");
	label_value(om->sb, e->r->job->name);
	strbuf_addf(om->sb, "\",group=\"%u\"", e->r->group);
	if (!e->r->job->group_reporting)
		strbuf_addf(om->sb, ",clone=\"%u\"", e->r->clone);
	if (dir)
		strbuf_addf(om->sb, ",direction=\"%s\"", dir);
	strbuf_adds(om->sb, ",host=\"");
	label_value(om->sb, sc ? sc->host : om->mpi ? "" : om->host);
	strbuf_addc(om->sb, '"');
	if (om->mpi)
		strbuf_addf(om->sb, ",scope=\"%s\"", !sc ? "all" : sc->rank < 0 ? "host" : "rank");
	if (sc && sc->rank >= 0)
		strbuf_addf(om->sb, ",rank=\"%d\"", sc->rank);
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
		labels(om, r->e, r->dir, r->sc);
		strbuf_addf(om->sb, "} %.6f\n", s > 0 ? (double)r->ds->ios / s : 0);
	}
	family(om, "iogauge_bandwidth_bytes_per_second", "gauge", "bytes_per_second",
	       "Bytes moved per second of the runtime.");
	for (i = 0; i < om->nr; i++) {
		const struct om_row *r = &om->rows[i];
		double s = om_secs(r->e);

		strbuf_adds(om->sb, "iogauge_bandwidth_bytes_per_second");
		labels(om, r->e, r->dir, r->sc);
		strbuf_addf(om->sb, "} %llu\n",
			    (unsigned long long)(s > 0 ? (double)r->ds->bytes / s : 0));
	}
	family(om, "iogauge_io_bytes", "gauge", "bytes", "Bytes moved.");
	for (i = 0; i < om->nr; i++) {
		strbuf_adds(om->sb, "iogauge_io_bytes");
		labels(om, om->rows[i].e, om->rows[i].dir, om->rows[i].sc);
		strbuf_addf(om->sb, "} %llu\n", (unsigned long long)om->rows[i].ds->bytes);
	}
	family(om, "iogauge_ios", "gauge", NULL, "I/Os completed.");
	for (i = 0; i < om->nr; i++) {
		strbuf_adds(om->sb, "iogauge_ios");
		labels(om, om->rows[i].e, om->rows[i].dir, om->rows[i].sc);
		strbuf_addf(om->sb, "} %llu\n", (unsigned long long)om->rows[i].ds->ios);
	}
	family(om, "iogauge_runtime_seconds", "gauge", "seconds",
	       "Measured time of the entry's I/O; 0 for a direction with no I/O.");
	for (i = 0; i < om->nr; i++) {
		const struct om_row *r = &om->rows[i];

		strbuf_adds(om->sb, "iogauge_runtime_seconds");
		labels(om, r->e, r->dir, r->sc);
		strbuf_addf(om->sb, "} %.3f\n",
			    r->ds->ios ? (double)(r->e->st->elapsed / 1000000) / 1e3 : 0);
	}
	family(om, "iogauge_errors", "gauge", NULL,
	       "I/O errors passed over (continue_on_error), all directions together.");
	for (i = 0; i < om->nr_ents; i++) {
		strbuf_adds(om->sb, "iogauge_errors");
		labels(om, om->ents[i].e, NULL, om->ents[i].sc);
		strbuf_addf(om->sb, "} %llu\n", (unsigned long long)om->ents[i].e->st->errors);
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
			labels(om, r->e, r->dir, r->sc);
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
			labels(om, om->rows[i].e, om->rows[i].dir, om->rows[i].sc);
			strbuf_addf(om->sb, ",le=\"%.9f\"} %llu\n", (double)((1ull << k) - 1) / 1e9,
				    (unsigned long long)seen);
		}
		strbuf_adds(om->sb, "iogauge_latency_seconds_bucket");
		labels(om, om->rows[i].e, om->rows[i].dir, om->rows[i].sc);
		strbuf_addf(om->sb, ",le=\"+Inf\"} %llu\n", (unsigned long long)h->count);
		strbuf_adds(om->sb, "iogauge_latency_seconds_count");
		labels(om, om->rows[i].e, om->rows[i].dir, om->rows[i].sc);
		strbuf_addf(om->sb, "} %llu\n", (unsigned long long)h->count);
		strbuf_adds(om->sb, "iogauge_latency_seconds_sum");
		labels(om, om->rows[i].e, om->rows[i].dir, om->rows[i].sc);
		strbuf_addf(om->sb, "} %.9f\n", (double)h->sum / 1e9);
	}
}

/* @es's entries and their directions added to @om's lists, as @sc's. */
static void add_entries(struct om *om, const struct report_entries *es,
			const struct report_scope *sc)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	unsigned i, d;

	for (i = 0; i < es->n; i++) {
		const struct report_entry *e = &es->v[i];
		enum unified_rw u = e->r->job->unified_rw_reporting;

		om->ents[om->nr_ents++] = (struct om_entry){ e, sc };
		/* unified_rw_reporting: mixed in place of the three, or after them (both). */
		for (d = STAT_READ; u != UNIFIED_MIXED && d <= STAT_TRIM; d++)
			om->rows[om->nr++] = (struct om_row){ e, &e->st->dir[d], dirs[d], sc };
		if (u != UNIFIED_NONE)
			om->rows[om->nr++] = (struct om_row){ e, e->mixed, "mixed", sc };
	}
}

void report_openmetrics(const struct run *run, struct strbuf *sb)
{
	struct om om = { .sb = sb, .mpi = run->ranks != NULL };
	unsigned k, ents;

	if (gethostname(om.host, sizeof(om.host) - 1))
		strcpy(om.host, "unknown");
	report_entries(run, &om.es);
	ents = om.es.n;
	/* mpirun: each host's samples (and with --per-rank each rank's) in
	 * the same families as the sum's, told apart by their labels. */
	om.nr_scopes = report_scopes(run, &om.scopes);
	om.scope_es = xcalloc(om.nr_scopes + 1, sizeof(*om.scope_es));
	for (k = 0; k < om.nr_scopes; k++) {
		report_entries(&om.scopes[k].run, &om.scope_es[k]);
		ents += om.scope_es[k].n;
	}
	om.ents = xcalloc(ents + 1, sizeof(*om.ents));
	om.rows = xcalloc(ents * (STAT_TRIM + 2) + 1, sizeof(*om.rows));
	add_entries(&om, &om.es, NULL);
	for (k = 0; k < om.nr_scopes; k++)
		add_entries(&om, &om.scope_es[k], &om.scopes[k]);
	gauges(&om);
	latency(&om);
	strbuf_adds(sb, "# EOF\n");
	free(om.rows);
	free(om.ents);
	for (k = 0; k < om.nr_scopes; k++)
		report_entries_free(&om.scope_es[k]);
	free(om.scope_es);
	report_scopes_free(om.scopes, om.nr_scopes);
	report_entries_free(&om.es);
}
