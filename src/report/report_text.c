/* SPDX-License-Identifier: MIT */
/*
 * The native text report, modelled on SQLIO's: per entry (a job clone, or
 * a group with group_reporting) and direction, IOs/sec, MBs/sec (MiB, as
 * SQLIO), latency min/avg/max in microseconds with decimals, a percentile
 * line, and SQLIO's histogram of 1 ms buckets 0..23 and 24+ in percent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/options.h"
#include "report/report.h"

static const char *const dir_names[STAT_NR] = { "read", "write", "trim", "sync" };
static const double short_pcts[] = { 50, 90, 99, 99.9, 99.99, 100 };

/* The most columns a histogram row has. */
#define HIST_ROW_MAX 32

/* @name, when not "", before the word: "clat prio 1/0 percentiles(us):". */
static void percentiles(const struct job *job, const struct hist *h, const char *name,
			struct strbuf *sb)
{
	const double *p = short_pcts;
	unsigned i, n = ARRAY_SIZE(short_pcts);

	/* percentile_list, when the job sets it, replaces the short line. */
	if (job_origin(job, OPT_PERCENTILE_LIST)->kind != ORIGIN_DEFAULT) {
		p = job->percentile_list;
		n = job->nr_percentiles;
	}
	strbuf_addf(sb, "  %s%spercentiles(us):", name, *name ? " " : "");
	for (i = 0; i < n; i++) {
		if (p[i] >= 100)
			strbuf_addf(sb, " max=%.2f", hist_percentile(h, 100) / 1e3);
		else
			strbuf_addf(sb, " p%g=%.2f", p[i], hist_percentile(h, p[i]) / 1e3);
	}
	strbuf_addc(sb, '\n');
}

static void min_avg_max(const char *name, const struct hist *h, struct strbuf *sb)
{
	strbuf_addf(sb, "  %s(us): min=%.2f avg=%.2f max=%.2f\n", name, h->min / 1e3,
		    hist_mean(h) / 1e3, h->max / 1e3);
}

/* cmdprio*, or a group of jobs of different prio: fio's "clat prio 1/0"
 * lines, per I/O priority with samples when two or more have them, each
 * with its share of the direction's I/Os; "lat prio" with lat_percentiles,
 * whose total latencies they then hold. */
static void prio_lines(const struct job *job, const struct dir_stats *d, struct strbuf *sb)
{
	const struct prio_stats *p = d->prio;
	const struct hist *whole = job->lat_percentiles ? &d->lat : &d->clat;
	char name[48];
	unsigned i;

	if (prio_stats_used(p) < 2)
		return;
	for (i = 0; i < p->nr; i++) {
		const struct hist *h = &p->h[i];

		if (!h->count)
			continue;
		snprintf(name, sizeof(name), "%s prio %u/%u", job->lat_percentiles ? "lat" : "clat",
			 PRIO_CLASS(p->ioprio[i]), PRIO_LEVEL(p->ioprio[i]));
		strbuf_addf(sb, "  %s(us): min=%.2f avg=%.2f max=%.2f, %.2f%% of I/Os\n", name,
			    h->min / 1e3, hist_mean(h) / 1e3, h->max / 1e3,
			    whole->count ? 100.0 * (double)h->count / (double)whole->count : 0.0);
		if (job->clat_percentiles || job->lat_percentiles)
			percentiles(job, h, name, sb);
	}
}

/* fio's "IO depths": the share of I/Os queued with 1, 2-3, 4-7 ... in flight. */
static void depths(const struct run_stats *st, struct strbuf *sb)
{
	static const char *const names[STATS_DEPTHS] = { "1", "2", "4", "8", "16", "32", ">=64" };
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < STATS_DEPTHS; i++)
		total += st->depth[i];
	strbuf_addf(sb, "IO depths:");
	for (i = 0; i < STATS_DEPTHS; i++)
		strbuf_addf(sb, " %s=%.1f%%", names[i], total ? 100.0 * st->depth[i] / total : 0.0);
	strbuf_addc(sb, '\n');
}

/* A rate-limited direction: the target and what was kept, and latency
 * from each I/O's intended start (response) beside the service latency
 * above, with the generator's lag behind the schedule. */
static void rate_lines(const struct job *job, const struct dir_stats *d, unsigned dd,
		       unsigned threads, uint64_t elapsed, struct strbuf *sb)
{
	struct report_rate rr;

	if (!report_rate(job, dd, threads, d, elapsed, &rr) || !d->resp.count)
		return;
	strbuf_addf(sb, "  rate (%s): ", job->rate_process == RATE_POISSON ? "poisson" : "linear");
	if (rr.iops)
		strbuf_addf(sb, "target %.0f IOPS, achieved %.2f", rr.target, rr.achieved);
	else if (job->unit_base == 1) /* in bits, as the rates below */
		strbuf_addf(sb, "target %.2f Mbits/sec, achieved %.2f", rr.target * 8 / 1048576.0,
			    rr.achieved * 8 / 1048576.0);
	else
		strbuf_addf(sb, "target %.2f MBs/sec, achieved %.2f", rr.target / 1048576.0,
			    rr.achieved / 1048576.0);
	strbuf_addf(sb, ": %s\n", rr.kept ? "kept" : "NOT KEPT (the job fell behind its schedule)");
	min_avg_max("resp", &d->resp, sb);
	strbuf_addf(sb, "  resp percentiles(us): p50=%.2f p90=%.2f p99=%.2f p99.9=%.2f\n",
		    hist_percentile(&d->resp, 50) / 1e3, hist_percentile(&d->resp, 90) / 1e3,
		    hist_percentile(&d->resp, 99) / 1e3, hist_percentile(&d->resp, 99.9) / 1e3);
	strbuf_addf(sb, "  lag(us): avg=%.2f p99=%.2f max=%.2f\n", hist_mean(&d->lag) / 1e3,
		    hist_percentile(&d->lag, 99) / 1e3, d->lag.max / 1e3);
}

/* Whole percentages of @c[0..n) that add up to 100 (none when there is
 * nothing): each rounded down, then the points left over go to the largest
 * remainders (the largest-remainder method). */
static void shares(const uint64_t *c, unsigned n, unsigned *pct)
{
	unsigned __int128 total = 0, rem[HIST_ROW_MAX];
	unsigned i, left = 100, best;

	for (i = 0; i < n; i++)
		total += c[i];
	for (i = 0; i < n; i++) {
		pct[i] = total ? (unsigned)((unsigned __int128)c[i] * 100 / total) : 0;
		rem[i] = total ? (unsigned __int128)c[i] * 100 % total : 0;
		left -= pct[i];
	}
	while (total && left--) {
		for (i = 1, best = 0; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		pct[best]++;
		rem[best] = 0;
	}
}

/* Two rows, the labels over the shares, each column as wide as its wider
 * cell: "  ms:  0  1 ..." over "  %:  99  0 ...". */
static void hist_rows(const char *what, const char *const *labels, const uint64_t *c, unsigned n,
		      struct strbuf *sb)
{
	unsigned pct[HIST_ROW_MAX], w[HIST_ROW_MAX], i;
	char cell[24];

	shares(c, n, pct);
	for (i = 0; i < n; i++) {
		w[i] = (unsigned)snprintf(cell, sizeof(cell), "%u", pct[i]);
		if (strlen(labels[i]) > w[i])
			w[i] = (unsigned)strlen(labels[i]);
	}
	strbuf_addf(sb, "  %-3s", what);
	for (i = 0; i < n; i++)
		strbuf_addf(sb, " %*s", (int)w[i], labels[i]);
	strbuf_addf(sb, "\n  %-3s", "%:");
	for (i = 0; i < n; i++)
		strbuf_addf(sb, " %*u", (int)w[i], pct[i]);
	strbuf_addc(sb, '\n');
}

/* The latency histograms: log-spaced microsecond buckets (each up to its
 * label, so that an SSD's shape shows), from the latency histogram at its
 * buckets' midpoints (within 1/64 of the value), then SQLIO's whole
 * milliseconds.  Both in percent of the I/Os, adding up to 100. */
static void histograms(const struct dir_stats *d, struct strbuf *sb)
{
	static const char *const us_labels[] = { "<=1",	  "2",	   "5",	    "10",    "20",   "50",
						 "100",	  "200",   "500",   "1000",  "2000", "5000",
						 "10000", "20000", "50000", ">50000" };
	static const uint64_t us_hi[] = { 1,   2,    5,	   10,	 20,	50,    100,  200,
					  500, 1000, 2000, 5000, 10000, 20000, 50000 };
	const char *ms_labels[STATS_MS_BUCKETS];
	char ms_names[STATS_MS_BUCKETS][8];
	const struct hist *h = d->lat.count ? &d->lat : &d->clat;
	uint64_t us[ARRAY_SIZE(us_labels)] = { 0 };
	unsigned i, k;

	for (i = 0; i < STATS_MS_BUCKETS; i++) {
		snprintf(ms_names[i], sizeof(ms_names[i]), i + 1 < STATS_MS_BUCKETS ? "%u" : "%u+",
			 i);
		ms_labels[i] = ms_names[i];
	}
	strbuf_addf(sb, "  histogram (%% of I/Os by latency; us: each column up to its label):\n");
	if (h->count && h->bucket) {
		for (i = 0; i < HIST_NR; i++) {
			uint64_t mid = hist_bucket_mid(i);

			if (!h->bucket[i])
				continue;
			for (k = 0; k < ARRAY_SIZE(us_hi) && mid > us_hi[k] * 1000; k++)
				;
			us[k] += h->bucket[i];
		}
		hist_rows("us:", us_labels, us, ARRAY_SIZE(us_labels), sb);
	}
	/* SQLIO's row counts total latency, which disable_lat leaves unmeasured. */
	for (i = 0, k = 0; i < STATS_MS_BUCKETS; i++)
		k |= d->ms[i] != 0;
	if (k)
		hist_rows("ms:", ms_labels, d->ms, STATS_MS_BUCKETS, sb);
}

/* iogauge's own: a mix's reads, writes and trims together, "read+write:"
 * with their I/Os and bytes per second (unified_rw_reporting gives fio's
 * mixed direction instead, with its latencies). */
static void combined(const struct job *job, const struct run_stats *st, struct strbuf *sb)
{
	double secs = st->elapsed / 1e9;
	uint64_t ios = 0, bytes = 0;
	unsigned d, n = 0;

	for (d = 0; d < STAT_SYNC; d++) {
		if (!st->dir[d].ios)
			continue;
		strbuf_addf(sb, "%s%s", n++ ? "+" : "", dir_names[d]);
		ios += st->dir[d].ios;
		bytes += st->dir[d].bytes;
	}
	strbuf_addf(sb, ":\n  IOs/sec: %.2f\n", secs > 0 ? ios / secs : 0.0);
	if (job->unit_base == 1)
		strbuf_addf(sb, "  Mbits/sec: %.2f\n",
			    secs > 0 ? bytes * 8.0 / secs / 1048576.0 : 0.0);
	else
		strbuf_addf(sb, "  MBs/sec: %.2f\n", secs > 0 ? bytes / secs / 1048576.0 : 0.0);
}

/* Direction @dd (STAT_NR: the mixed one of unified_rw_reporting). */
static void direction(const struct job *job, const struct dir_stats *d, unsigned dd,
		      unsigned threads, uint64_t elapsed, struct strbuf *sb)
{
	const char *name = dd < STAT_NR ? dir_names[dd] : "mixed";
	double secs = elapsed / 1e9;

	strbuf_addf(sb, "%s:\n", name);
	strbuf_addf(sb, "  IOs/sec: %.2f\n", secs > 0 ? d->ios / secs : 0.0);
	/* unit_base=1: in bits, as fio's Mibit/s. */
	if ((d->bytes || strcmp(name, "sync")) && job->unit_base == 1)
		strbuf_addf(sb, "  Mbits/sec: %.2f\n",
			    secs > 0 ? d->bytes * 8.0 / secs / 1048576.0 : 0.0);
	else if (d->bytes || strcmp(name, "sync"))
		strbuf_addf(sb, "  MBs/sec: %.2f\n", secs > 0 ? d->bytes / secs / 1048576.0 : 0.0);
	strbuf_addf(sb, "  Min_Latency(us): %.2f\n", d->lat.count ? d->lat.min / 1e3 : 0.0);
	strbuf_addf(sb, "  Avg_Latency(us): %.2f\n", hist_mean(&d->lat) / 1e3);
	strbuf_addf(sb, "  Max_Latency(us): %.2f\n", d->lat.max / 1e3);
	/* An engine with a submission step: the total's two parts, as fio. */
	if (d->slat.count) {
		min_avg_max("slat", &d->slat, sb);
		min_avg_max("clat", &d->clat, sb);
	}
	if (job->clat_percentiles || job->lat_percentiles)
		percentiles(job, &d->lat, "", sb);
	prio_lines(job, d, sb);
	rate_lines(job, d, dd, threads, elapsed, sb);
	histograms(d, sb);
}

static void entry(const struct run_result *r, unsigned threads, const struct run_stats *st,
		  const struct dir_stats *mixed, struct strbuf *sb)
{
	const struct job *job = r->job;
	double usr, sys;
	unsigned d, n;

	strbuf_addf(sb, "\n[%s]", job->name);
	if (job->numjobs > 1 && threads == 1)
		strbuf_addf(sb, " clone %u of %u,", r->clone + 1, job->numjobs);
	/* As fio: each clone a process unless the job sets thread. */
	strbuf_addf(sb, " %u %s%s, %s, iodepth %u, rw=", threads,
		    job->thread ? "thread" : "process",
		    threads == 1  ? ""
		    : job->thread ? "s"
				  : "es",
		    r->engine, r->depth);
	opt_format(&opt_table[OPT_RW], job, sb);
	strbuf_addf(sb, ", bs=");
	opt_format(&opt_table[job->nr_bssplit[0]    ? OPT_BSSPLIT
			      : job->bsrange_max[0] ? OPT_BSRANGE
						    : OPT_BS],
		   job, sb);
	strbuf_addf(sb, ", %s%s, %.2f s\n", job->direct ? "direct" : "buffered",
		    job->sync == SYNC_SYNC    ? " O_SYNC"
		    : job->sync == SYNC_DSYNC ? " O_DSYNC"
					      : "",
		    st->elapsed / 1e9);
	depths(st, sb);
	report_cpu(st, &usr, &sys);
	strbuf_addf(sb, "cpu: usr=%.2f%% sys=%.2f%% ctx=%llu majf=%llu minf=%llu\n", usr, sys,
		    (unsigned long long)st->ru.ctx, (unsigned long long)st->ru.majf,
		    (unsigned long long)st->ru.minf);
	/* unified_rw_reporting=mixed: reads, writes and trims as one; both:
	 * each, then all as one.  Syncs apart, as fio. */
	for (d = 0, n = 0; d < STAT_SYNC && job->unified_rw_reporting != UNIFIED_MIXED; d++)
		if (st->dir[d].ios) {
			direction(job, &st->dir[d], d, threads, st->elapsed, sb);
			n++;
		}
	if (n > 1 && job->unified_rw_reporting == UNIFIED_NONE)
		combined(job, st, sb);
	if (mixed && mixed->ios)
		direction(job, mixed, STAT_NR, threads, st->elapsed, sb);
	if (st->dir[STAT_SYNC].ios)
		direction(job, &st->dir[STAT_SYNC], STAT_SYNC, threads, st->elapsed, sb);
	if (job->verify != VERIFY_NONE) {
		report_verify(job, st, sb);
		strbuf_addc(sb, '\n');
	}
	if (job->latency_target)
		strbuf_addf(
			sb,
			"latency_target: depth %llu (target %llu us, window %llu us, %g%% of I/Os)\n",
			(unsigned long long)st->latency_depth,
			(unsigned long long)job->latency_target / 1000,
			(unsigned long long)job->latency_window / 1000, job->latency_percentile);
	if (r->ss) {
		const struct steady *ss = r->ss;
		bool slope = ss->spec.kind == STEADY_IOPS_SLOPE || ss->spec.kind == STEADY_BW_SLOPE;

		/* fio's steadystate line: the window's means and the criterion. */
		strbuf_addf(sb,
			    "steadystate: attained=%s, %s%s=%.3f%s (limit %g%s), over %u s: "
			    "%llu IOPS, %llu bytes/s\n",
			    ss->attained ? "yes" : "no",
			    ss->spec.kind <= STEADY_IOPS_SLOPE ? "iops" : "bw",
			    slope ? " slope" : " mean dev", ss->criterion, ss->spec.pct ? "%" : "",
			    ss->spec.limit, ss->spec.pct ? "%" : "", ss->dur,
			    (unsigned long long)steady_iops_mean(ss),
			    (unsigned long long)steady_bw_mean(ss));
	}
	if (st->errors) {
		strbuf_addf(sb, "errors: ");
		report_passed_over(st, r->first_error, sb);
		strbuf_addc(sb, '\n');
	}
	if (r->error)
		strbuf_addf(sb, "error: %s\n", r->error);
}

void report_text(const struct run *run, struct strbuf *sb)
{
	struct report_entries es;
	struct report_group *groups;
	unsigned i, n;

	strbuf_addf(sb, "iogauge %s%s\n", IOGAUGE_VERSION,
		    run->interrupted ? " (interrupted: partial results)" : "");
	report_entries(run, &es);
	for (i = 0; i < es.n; i++)
		entry(es.v[i].r, es.v[i].threads, es.v[i].st, es.v[i].mixed, sb);
	/* fio's group totals, after the entries as fio prints them. */
	n = report_groups(run, &es, &groups);
	for (i = 0; i < n; i++)
		report_group_lines(&groups[i], sb);
	free(groups);
	report_entries_free(&es);
	if (run->disks.n)
		strbuf_addf(sb, "\nDisk stats (read/write):\n");
	for (i = 0; i < run->disks.n; i++) {
		struct disk_counters c;
		double util;

		disks_delta(&run->disks.v[i], run->duration / 1000000, &c, &util);
		strbuf_addf(sb,
			    "  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, "
			    "util=%.2f%%\n",
			    run->disks.v[i].name, (unsigned long long)c.ios[0],
			    (unsigned long long)c.ios[1], (unsigned long long)c.merges[0],
			    (unsigned long long)c.merges[1], (unsigned long long)c.ticks[0],
			    (unsigned long long)c.ticks[1], (unsigned long long)c.in_queue, util);
	}
	if (run->idle)
		report_idle(run->idle, sb);
	report_ranks(run, sb); /* mpirun: per host, per rank */
}

void report_idle(const struct idleprof_figures *f, struct strbuf *sb)
{
	unsigned i;

	strbuf_addf(sb, "%sCPU idleness:\n", f->mode == IDLEPROF_CALIBRATE ? "" : "\n");
	if (f->mode != IDLEPROF_CALIBRATE)
		strbuf_addf(sb, "  system: %3.2f%%\n", f->system);
	for (i = 0; f->mode == IDLEPROF_PERCPU && i < f->nr_cpus; i++)
		strbuf_addf(sb, "%s%3.2f%%%s", i ? ", " : "  percpu: ", f->cpu[i],
			    i + 1 == f->nr_cpus ? "\n" : "");
	strbuf_addf(sb, "  unit work: mean=%3.2fus, stddev=%3.2f\n", f->unit_mean, f->unit_stddev);
}

/*
 * @num as fio's status line writes its numbers (its num2str with four
 * digits): at most four digits, else the next prefix up (@step each,
 * from @prefix[@from]) with as many decimals as the four leave room for,
 * then @unit.
 */
static void num4(uint64_t num, unsigned step, const char *const *prefix, unsigned nr, unsigned from,
		 const char *unit, struct strbuf *sb)
{
	uint64_t modulo = UINT64_MAX;
	unsigned at = from, digits;
	char frac[32];

	while (at < nr && num > 9999) {
		modulo = num % step;
		num /= step;
		at++;
	}
	if (at >= nr)
		at = from; /* beyond the last prefix: fio's fallback, never reached */
	digits = (unsigned)snprintf(frac, sizeof(frac), "%llu", (unsigned long long)num);
	if (modulo == UINT64_MAX || digits >= 3) {
		/* No room for a decimal: rounded, as fio's carry. */
		if (modulo != UINT64_MAX && modulo >= step / 2)
			num++;
		strbuf_addf(sb, "%llu%s%s", (unsigned long long)num, prefix[at], unit);
		return;
	}
	snprintf(frac, sizeof(frac), "%.*f", (int)(3 - digits), (double)modulo / step);
	if (frac[0] == '1')
		num++;
	strbuf_addf(sb, "%llu.%s%s%s", (unsigned long long)num, frac + 2, prefix[at], unit);
}

/* A rate as fio's status line prints it (1600KiB/s, 12.5MiB/s), in bits
 * (Kibit/s) and SI prefixes (kB/s, kbit/s) as @units ask. */
static void rate(double bytes_s, unsigned units, struct strbuf *sb)
{
	static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	bool bits = units & REPORT_UNITS_BITS, dec = units & REPORT_UNITS_SI;
	unsigned step = dec ? 1000 : 1024;
	/* In K (fio's rate is in KiB/s, whole), then bits. */
	uint64_t k = bytes_s > 0 ? (uint64_t)(bytes_s / step) : 0;

	num4(bits ? k * 8 : k, step, dec ? si : bin, ARRAY_SIZE(bin), 1, bits ? "bit/s" : "B/s",
	     sb);
}

unsigned report_status_units(const struct job *jobs, unsigned nr)
{
	unsigned i, units = nr ? REPORT_UNITS_SI : 0;

	/* As fio: binary when any job's kb_base is, the last job's unit_base. */
	for (i = 0; i < nr; i++)
		if (jobs[i].kb_base != 1000)
			units &= ~(unsigned)REPORT_UNITS_SI;
	if (nr && jobs[nr - 1].unit_base == 1)
		units |= REPORT_UNITS_BITS;
	return units;
}

/* IOPS as fio's status line prints them: 7152, 14.6k. */
static void count(double v, struct strbuf *sb)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };

	num4(v > 0 ? (uint64_t)v : 0, 1000, si, ARRAY_SIZE(si), 0, "", sb);
}

void report_status(const struct run_status *st, const struct run_status *prev, unsigned units,
		   struct strbuf *sb)
{
	double dt = prev && st->elapsed > prev->elapsed
			    ? (double)(st->elapsed - prev->elapsed) / 1e9
			    : (double)st->elapsed / 1e9;
	uint64_t eta = st->eta / 1000000000ull;
	unsigned d;

	strbuf_addf(sb, "Jobs: %u (done %u of %u): [%.1f%%][", st->running, st->done, st->total,
		    st->frac * 100);
	for (d = 0; d < 2; d++) {
		strbuf_addf(sb, d ? ",w=" : "r=");
		rate(dt > 0 ? (double)(st->bytes[d] - (prev ? prev->bytes[d] : 0)) / dt : 0, units,
		     sb);
	}
	strbuf_addf(sb, "][");
	for (d = 0; d < 2; d++) {
		strbuf_addf(sb, d ? ",w=" : "r=");
		count(dt > 0 ? (double)(st->ios[d] - (prev ? prev->ios[d] : 0)) / dt : 0, sb);
	}
	if (st->eta == UINT64_MAX)
		strbuf_addf(sb, " IOPS][eta --m:--s]");
	else if (eta >= 3600)
		strbuf_addf(sb, " IOPS][eta %02lluh:%02llum:%02llus]",
			    (unsigned long long)eta / 3600, (unsigned long long)eta / 60 % 60,
			    (unsigned long long)eta % 60);
	else
		strbuf_addf(sb, " IOPS][eta %02llum:%02llus]", (unsigned long long)eta / 60,
			    (unsigned long long)eta % 60);
}
