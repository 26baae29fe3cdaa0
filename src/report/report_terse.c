/* SPDX-License-Identifier: MIT */
/*
 * fio's terse output, versions 2 to 5 (stat.c show_thread_status_terse_all):
 * one ';'-separated line per entry, in fio's field order and formats, so
 * scripts that cut fields by number read ours.  v3 has no trim section; v2
 * has no version string; v5 adds the bandwidth and IOPS sample counts.
 */
#include <stdlib.h>

#include "report/report.h"
#include "report/scope.h"

#define TERSE_PCTS 20 /* fio's FIO_IO_U_LIST_MAX_LEN */

/* min;max;mean;dev in microseconds, as fio. */
static void lat_us(const struct hist *h, struct strbuf *sb)
{
	if (!h->count) {
		strbuf_addf(sb, ";0;0;%f;%f", 0.0, 0.0);
		return;
	}
	strbuf_addf(sb, ";%llu;%llu;%f;%f", (unsigned long long)(h->min / 1000),
		    (unsigned long long)(h->max / 1000), hist_mean(h) / 1000,
		    hist_stddev_sample(h) / 1000);
}

/* Direction @d of @e, or with @d STAT_NR its mixed one, in terse version @ver. */
static void direction(const struct run *run, const struct report_entry *e, unsigned d, unsigned ver,
		      struct strbuf *sb)
{
	const struct dir_stats *ds = d < STAT_NR ? &e->st->dir[d] : e->mixed;
	const struct job *job = e->r->job;
	double secs = (double)e->st->elapsed / 1e9, mean, p;
	unsigned i, n = job->clat_percentiles || job->lat_percentiles ? job->nr_percentiles : 0;
	/* fio's percentiles come from clat unless only lat_percentiles is set. */
	const struct hist *ph = job->clat_percentiles ? &ds->clat : &ds->lat;

	strbuf_addf(sb, ";%llu;%llu;%llu;%llu", (unsigned long long)(ds->bytes >> 10),
		    (unsigned long long)(secs > 0 ? (double)ds->bytes / secs / 1024 : 0),
		    (unsigned long long)(secs > 0 ? (double)ds->ios / secs : 0),
		    (unsigned long long)(ds->ios ? e->st->elapsed / 1000000 : 0));
	lat_us(&ds->slat, sb);
	lat_us(&ds->clat, sb);
	for (i = 0; i < TERSE_PCTS; i++) {
		if (i >= n || !ph->count)
			strbuf_addf(sb, ";0%%=0");
		else
			strbuf_addf(
				sb, ";%f%%=%llu", job->percentile_list[i],
				(unsigned long long)(hist_percentile(ph, job->percentile_list[i]) /
						     1000));
	}
	lat_us(&ds->lat, sb);
	if (!ds->bw.n) {
		strbuf_addf(sb, ";0;0;%f%%;%f;%f", 0.0, 0.0, 0.0);
	} else {
		mean = stats_sample_mean(&ds->bw);
		/* fio's terse reads 100% when the group's aggregate is 0. */
		p = d < STAT_NR ? report_bw_share(run, e, d, 100) : report_mixed_share(run, e, 100);
		strbuf_addf(sb, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)ds->bw.min,
			    (unsigned long long)ds->bw.max, p, mean, stats_sample_stddev(&ds->bw));
	}
	if (ver != 5)
		return;
	strbuf_addf(sb, ";%llu", (unsigned long long)ds->bw.n);
	if (!ds->iops.n)
		strbuf_addf(sb, ";0;0;%f;%f;0", 0.0, 0.0);
	else
		strbuf_addf(sb, ";%llu;%llu;%f;%f;%llu", (unsigned long long)ds->iops.min,
			    (unsigned long long)ds->iops.max, stats_sample_mean(&ds->iops),
			    stats_sample_stddev(&ds->iops), (unsigned long long)ds->iops.n);
}

/* @name: the jobname field, or NULL for the job's name. */
static void entry(const struct run *run, const struct report_entry *e, unsigned ver,
		  const char *name, struct strbuf *sb)
{
	const struct run_stats *st = e->st;
	double usr, sys, total;
	uint64_t depths = 0, bins[STATS_LAT_BINS];
	unsigned i;

	if (!name)
		name = e->r->job->name;
	if (ver == 2)
		strbuf_addf(sb, "2;%s;%u;%d", name, e->r->group, e->err ? e->err->error_no : 0);
	else
		strbuf_addf(sb, "%u;iogauge-%s;%s;%u;%d", ver, IOGAUGE_VERSION, name, e->r->group,
			    e->err ? e->err->error_no : 0);
	/* unified_rw_reporting: mixed in place of read, write and trim; both:
	 * after them.  Trim is in every version but 3, as fio's. */
	if (e->r->job->unified_rw_reporting == UNIFIED_MIXED) {
		direction(run, e, STAT_NR, ver, sb);
	} else {
		direction(run, e, STAT_READ, ver, sb);
		direction(run, e, STAT_WRITE, ver, sb);
		if (ver != 3)
			direction(run, e, STAT_TRIM, ver, sb);
	}
	if (e->r->job->unified_rw_reporting == UNIFIED_BOTH)
		direction(run, e, STAT_NR, ver, sb);
	report_cpu(st, &usr, &sys);
	strbuf_addf(sb, ";%f%%;%f%%;%llu;%llu;%llu", usr, sys, (unsigned long long)st->ru.ctx,
		    (unsigned long long)st->ru.majf, (unsigned long long)st->ru.minf);
	for (i = 0; i < STATS_DEPTHS; i++)
		depths += st->depth[i];
	for (i = 0; i < STATS_DEPTHS; i++)
		strbuf_addf(sb, ";%3.1f%%", depths ? 100.0 * (double)st->depth[i] / depths : 0);
	total = (double)report_lat_bins(st, bins);
	/* The ns buckets fold into the first us one, as fio's stat_calc_lat_nu. */
	for (i = 0; i < 10; i++)
		bins[10] += bins[i];
	for (i = 10; i < STATS_LAT_BINS; i++)
		strbuf_addf(sb, ";%3.2f%%", total > 0 ? 100.0 * (double)bins[i] / total : 0);
	/* fio's v2 has no disk util fields. */
	for (i = 0; ver >= 3 && i < run->disks.n; i++) {
		struct disk_counters c;
		double util;

		disks_delta(&run->disks.v[i], run->duration / 1000000, &c, &util);
		strbuf_addf(sb, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
			    run->disks.v[i].name, (unsigned long long)c.ios[0],
			    (unsigned long long)c.ios[1], (unsigned long long)c.merges[0],
			    (unsigned long long)c.merges[1], (unsigned long long)c.ticks[0],
			    (unsigned long long)c.ticks[1], (unsigned long long)c.in_queue, util);
	}
	/* v2 puts the description on a line of its own, as fio does. */
	if (e->r->job->description && *e->r->job->description)
		strbuf_addf(sb, "%s;%s", ver == 2 ? "\n" : "", e->r->job->description);
	strbuf_addc(sb, '\n');
}

/* Under mpirun, as fio's client mode: each host's lines (and with
 * --per-rank each rank's), the jobname field "NAME@HOST" ("NAME@HOST:RANK"),
 * then the sums named "All clients"; without it, the entries as they are. */
void report_terse_version(const struct run *run, unsigned ver, struct strbuf *sb)
{
	struct report_entries es;
	struct report_scope *sc;
	unsigned i, k, n = report_scopes(run, &sc);
	char *name;

	for (k = 0; k < n; k++) {
		report_entries(&sc[k].run, &es);
		for (i = 0; i < es.n; i++) {
			name = report_scope_name(&sc[k], es.v[i].r->job->name);
			entry(&sc[k].run, &es.v[i], ver, name, sb);
			free(name);
		}
		report_entries_free(&es);
	}
	report_scopes_free(sc, n);
	report_entries(run, &es);
	for (i = 0; i < es.n; i++)
		entry(run, &es.v[i], ver, run->ranks ? "All clients" : NULL, sb);
	report_entries_free(&es);
}

void report_terse(const struct run *run, struct strbuf *sb)
{
	report_terse_version(run, 3, sb);
}
