/* SPDX-License-Identifier: MIT */
/*
 * fio's JSON output (3.x schema, stat.c show_thread_status_json): the keys
 * fio's consumers read, with fio's units (latency in ns, runtime in ms,
 * bw in KiB/s), and json+'s bins.  What only iogauge measures goes in an
 * "iogauge" object per job.  Nothing but the document is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi/ranks.h"
#include "report/json.h"
#include "report/report.h"
#include "report/scope.h"

static const char *const lat_labels[STATS_LAT_BINS] = {
	"2",  "4",  "10", "20",	 "50",	"100", "250", "500",  "750",  "1000",	"2",
	"4",  "10", "20", "50",	 "100", "250", "500", "750",  "1000", "2",	"4",
	"10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

/* min/max/mean/stddev/N, then percentiles and (json+) bins, as fio. */
static void lat_object(struct json *j, const char *key, const struct hist *h, const struct job *job,
		       bool pcts, bool plus)
{
	char k[32];
	unsigned i;

	json_open(j, key, '{');
	json_u64(j, "min", h->count ? h->min : 0);
	json_u64(j, "max", h->max);
	json_dbl(j, "mean", hist_mean(h));
	json_dbl(j, "stddev", hist_stddev_sample(h));
	json_u64(j, "N", h->count);
	if (pcts && h->count && job->nr_percentiles) {
		json_open(j, "percentile", '{');
		for (i = 0; i < job->nr_percentiles; i++) {
			snprintf(k, sizeof(k), "%f", job->percentile_list[i]);
			json_u64(j, k, hist_percentile(h, job->percentile_list[i]));
		}
		json_close(j, '}');
	}
	if (plus && h->count) {
		json_open(j, "bins", '{');
		for (i = 0; i < HIST_NR; i++) {
			if (!h->bucket[i])
				continue;
			snprintf(k, sizeof(k), "%llu", (unsigned long long)hist_bucket_mid(i));
			json_u64(j, k, h->bucket[i]);
		}
		json_close(j, '}');
	}
	json_close(j, '}');
}

/* fio's "prios": a direction's latency per I/O priority, when two or more
 * priorities have samples (cmdprio*, or a group of jobs of different
 * prio): clat_ns, or lat_ns with lat_percentiles, per priority in fio's
 * order. */
static void prios(struct json *j, const struct prio_stats *p, const struct job *job, bool plus)
{
	unsigned i;

	if (prio_stats_used(p) < 2)
		return;
	json_open(j, "prios", '[');
	for (i = 0; i < p->nr; i++) {
		if (!p->h[i].count)
			continue;
		json_open(j, NULL, '{');
		json_u64(j, "prioclass", PRIO_CLASS(p->ioprio[i]));
		json_u64(j, "prio", PRIO_LEVEL(p->ioprio[i]));
		lat_object(j, job->lat_percentiles ? "lat_ns" : "clat_ns", &p->h[i], job,
			   job->clat_percentiles || job->lat_percentiles, plus);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* Direction @d of @e, or with @d STAT_NR its mixed one. */
static void direction(struct json *j, const char *key, const struct report_entry *e,
		      const struct run *run, unsigned d, bool plus)
{
	const struct dir_stats *ds = d < STAT_NR ? &e->st->dir[d] : e->mixed;
	const struct job *job = e->r->job;
	uint64_t ms = e->st->elapsed / 1000000;
	double secs = (double)e->st->elapsed / 1e9, bw, agg;

	bw = secs > 0 ? (double)ds->bytes / secs : 0;
	agg = d == STAT_NR ? report_mixed_share(run, e, 0)
	      : d < 2	   ? report_bw_share(run, e, d, 0)
			   : 0;
	json_open(j, key, '{');
	json_u64(j, "io_bytes", ds->bytes);
	json_u64(j, "io_kbytes", ds->bytes / 1024);
	json_u64(j, "bw_bytes", (uint64_t)bw);
	json_u64(j, "bw", (uint64_t)(bw / 1024));
	json_dbl(j, "iops", secs > 0 ? (double)ds->ios / secs : 0);
	json_u64(j, "runtime", ds->ios ? ms : 0);
	json_u64(j, "total_ios", ds->ios);
	json_u64(j, "short_ios", 0);
	json_u64(j, "drop_ios", 0);
	lat_object(j, "slat_ns", &ds->slat, job, false, plus);
	lat_object(j, "clat_ns", &ds->clat, job, job->clat_percentiles, plus);
	lat_object(j, "lat_ns", &ds->lat, job, job->lat_percentiles, plus);
	prios(j, ds->prio, job, plus);
	json_u64(j, "bw_min", (uint64_t)ds->bw.min);
	json_u64(j, "bw_max", (uint64_t)ds->bw.max);
	json_dbl(j, "bw_agg", agg);
	json_dbl(j, "bw_mean", stats_sample_mean(&ds->bw));
	json_dbl(j, "bw_dev", stats_sample_stddev(&ds->bw));
	json_u64(j, "bw_samples", ds->bw.n);
	json_u64(j, "iops_min", (uint64_t)ds->iops.min);
	json_u64(j, "iops_max", (uint64_t)ds->iops.max);
	json_dbl(j, "iops_mean", stats_sample_mean(&ds->iops));
	json_dbl(j, "iops_stddev", stats_sample_stddev(&ds->iops));
	json_u64(j, "iops_samples", ds->iops.n);
	json_close(j, '}');
}

/* fio's percentages of the latency buckets: a non-zero share below
 * 0.01% reads 0.01. */
static double share(uint64_t n, uint64_t total)
{
	double p = total ? 100.0 * (double)n / (double)total : 0;

	return n && p < 0.01 ? 0.01 : p;
}

static void lat_maps(struct json *j, const struct run_stats *st)
{
	static const char *const names[3] = { "latency_ns", "latency_us", "latency_ms" };
	static const unsigned from[4] = { 0, 10, 20, STATS_LAT_BINS };
	uint64_t bins[STATS_LAT_BINS], total = report_lat_bins(st, bins);
	unsigned g, i;

	for (g = 0; g < 3; g++) {
		json_open(j, names[g], '{');
		for (i = from[g]; i < from[g + 1]; i++)
			json_dbl(j, lat_labels[i], share(bins[i], total));
		json_close(j, '}');
	}
}

/* The settings of @spec as written: from [global] (@global) or from the
 * job's own section; a later value of the same option replaces the
 * earlier one in place. */
static void options_object(struct json *j, const char *key, const struct jobspec *spec, bool global)
{
	unsigned i, nr = jobspec_nr_settings(spec), *last = xcalloc(opt_rows(), sizeof(*last));
	bool any = false;

	/* Where each option is written last (+1): one pass, not one per setting. */
	for (i = 0; i < nr; i++) {
		const struct setting *s = jobspec_setting(spec, i);

		if (s->origin.global == global)
			last[opt_index(s->opt)] = i + 1;
	}
	for (i = 0; i < nr; i++) {
		const struct setting *s = jobspec_setting(spec, i);

		if (s->origin.global != global || last[opt_index(s->opt)] != i + 1)
			continue; /* a later one wins */
		if (!any)
			json_open(j, key, '{');
		any = true;
		json_str(j, s->opt->name, s->value);
	}
	free(last);
	if (any)
		json_close(j, '}');
	else if (!global)
		json_open(j, key, '{'), json_close(j, '}');
}

static void dist(struct json *j, const char *key, const uint64_t *v,
		 const char *const names[STATS_DEPTHS])
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < STATS_DEPTHS; i++)
		total += v[i];
	json_open(j, key, '{');
	for (i = 0; i < STATS_DEPTHS; i++)
		json_dbl(j, names[i], total ? 100.0 * (double)v[i] / (double)total : 0);
	json_close(j, '}');
}

static void iodepths(struct json *j, const struct run_stats *st)
{
	static const char *const level[STATS_DEPTHS] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch[STATS_DEPTHS] = { "0", "4", "8", "16", "32", "64", ">=64" };

	dist(j, "iodepth_level", st->depth, level);
	dist(j, "iodepth_submit", st->submit, batch);
	dist(j, "iodepth_complete", st->complete, batch);
}

/* What only iogauge measures: SQLIO's 1 ms histogram, the clock, and the
 * rate's response times. */
static void extras(struct json *j, const struct report_entry *e, const struct run *run)
{
	static const char *const dirs[STAT_NR] = { "read", "write", "trim", "sync" };
	const struct run_stats *st = e->st;
	bool opened = false;
	unsigned d, i;

	json_open(j, "iogauge", '{');
	json_str(j, "ioengine", e->r->engine);
	json_u64(j, "iodepth", e->r->depth);
	json_u64(j, "iodepth_max", st->depth_max);
	json_u64(j, "threads", e->threads);
	json_str(j, "clock",
		 run->clock == CLOCKSOURCE_CPU		  ? "TSC"
		 : run->clock == CLOCKSOURCE_GETTIMEOFDAY ? "gettimeofday"
							  : "CLOCK_MONOTONIC");
	json_u64(j, "runtime_ns", st->elapsed);
	/* When the (first) clone's I/O began, from the run's start: startdelay,
	 * wait_for and stonewall show here (fio 3.33 has no job_start). */
	json_u64(j, "start_ns", e->r->t_start > run->t_start ? e->r->t_start - run->t_start : 0);
	json_i64(j, "interrupted", run->interrupted);
	if (e->err)
		json_str(j, "error", e->err->error);
	/* continue_on_error: fio's total_err and first_error, and the text. */
	json_u64(j, "total_err", st->errors);
	json_i64(j, "first_error", e->r->first_error_no);
	if (e->r->first_error)
		json_str(j, "first_error_text", e->r->first_error);
	if (e->r->job->verify != VERIFY_NONE) {
		json_open(j, "verify", '{');
		json_str(j, "kind", opt_enum_name(OPT_VERIFY, (int)e->r->job->verify));
		json_u64(j, "blocks_checked", st->verified + st->verify_bad);
		json_u64(j, "bytes_ok", st->verify_bytes);
		json_u64(j, "mismatched", st->verify_bad);
		json_u64(j, "not_checkable", st->verify_skipped);
		json_i64(j, "cut_by_runtime", (int64_t)st->verify_cut);
		json_close(j, '}');
	}
	json_open(j, "histogram_ms", '{');
	for (d = 0; d < STAT_NR; d++) {
		const struct dir_stats *ds = &st->dir[d];

		if (!ds->ios)
			continue;
		json_open(j, dirs[d], '[');
		for (i = 0; i < STATS_MS_BUCKETS; i++)
			json_u64(j, NULL, ds->ms[i]);
		json_close(j, ']');
	}
	json_close(j, '}');
	/* rate, rate_iops: the target, what was kept, and latency from each
	 * I/O's intended start (resp_ns) and the lag behind the schedule. */
	for (d = STAT_READ; d <= STAT_TRIM; d++) {
		const struct job *job = e->r->job;
		struct report_rate rr;

		if (!report_rate(job, d, e->threads, &st->dir[d], st->elapsed, &rr))
			continue;
		if (!opened) {
			json_open(j, "rate", '{');
			opened = true;
		}
		json_open(j, dirs[d], '{');
		json_str(j, "unit", rr.iops ? "iops" : "bytes/s");
		json_str(j, "process", job->rate_process == RATE_POISSON ? "poisson" : "linear");
		json_dbl(j, "target", rr.target);
		json_dbl(j, "achieved", rr.achieved);
		json_i64(j, "kept", rr.kept);
		lat_object(j, "resp_ns", &st->dir[d].resp, job, true, false);
		lat_object(j, "lag_ns", &st->dir[d].lag, job, true, false);
		json_close(j, '}');
	}
	if (opened)
		json_close(j, '}');
	json_close(j, '}');
}

/* fio's steadystate block: the criterion, whether it held, and the
 * window's samples, oldest first. */
static void steady_object(struct json *j, const struct steady *s)
{
	const char *pct = s->spec.pct ? "%" : "";
	uint64_t iops, bw;
	char buf[96];
	unsigned i, k;

	json_open(j, "steadystate", '{');
	snprintf(buf, sizeof(buf), "%s:%f%s", steady_kind_name(s->spec.kind),
		 (double)(float)s->spec.limit, pct);
	json_str(j, "ss", buf);
	json_u64(j, "duration", s->dur);
	json_u64(j, "attained", s->attained);
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)s->criterion, pct);
	json_str(j, "criterion", buf);
	json_dbl(j, "max_deviation", s->deviation);
	json_dbl(j, "slope", s->slope);
	json_open(j, "data", '{');
	json_u64(j, "bw_mean", steady_bw_mean(s));
	json_u64(j, "iops_mean", steady_iops_mean(s));
	for (k = 0; k < 2; k++) {
		json_open(j, k ? "bw" : "iops", '[');
		for (i = 0; i < s->dur; i++) {
			steady_sample(s, i, &iops, &bw);
			json_u64(j, NULL, k ? bw : iops);
		}
		json_close(j, ']');
	}
	json_close(j, '}');
	json_close(j, '}');
}

/* @name: the jobname, or NULL for the job's; @host (mpirun, may be NULL):
 * fio's client info, "hostname" and "port" (here the rank). */
static void job_object(struct json *j, const struct report_entry *e, const struct run *run,
		       const struct jobset *js, bool plus, const char *name,
		       const struct rank_run *host)
{
	const struct run_stats *st = e->st;
	const struct job *job = e->r->job;
	double usr, sys;

	json_open(j, NULL, '{');
	json_str(j, "jobname", name ? name : job->name);
	json_u64(j, "groupid", e->r->group);
	json_i64(j, "error", e->err ? e->err->error_no : 0);
	json_u64(j, "eta", 0);
	json_u64(j, "elapsed", (run->duration + 500000000) / 1000000000);
	if (e->r->job_index < js->nr)
		options_object(j, "job options", &js->specs[e->r->job_index], false);
	if (job->description)
		json_str(j, "desc", job->description);
	/* unified_rw_reporting=mixed: one "mixed" object and no sync, as fio;
	 * both: "mixed" after the others. */
	if (job->unified_rw_reporting == UNIFIED_MIXED) {
		direction(j, "mixed", e, run, STAT_NR, plus);
	} else {
		direction(j, "read", e, run, STAT_READ, plus);
		direction(j, "write", e, run, STAT_WRITE, plus);
		direction(j, "trim", e, run, STAT_TRIM, plus);
		json_open(j, "sync", '{');
		json_u64(j, "total_ios", st->dir[STAT_SYNC].ios);
		lat_object(j, "lat_ns", &st->dir[STAT_SYNC].lat, job, true, plus);
		json_close(j, '}');
	}
	if (job->unified_rw_reporting == UNIFIED_BOTH)
		direction(j, "mixed", e, run, STAT_NR, plus);
	json_u64(j, "job_runtime", st->runtime_sum);
	report_cpu(st, &usr, &sys);
	json_dbl(j, "usr_cpu", usr);
	json_dbl(j, "sys_cpu", sys);
	json_u64(j, "ctx", st->ru.ctx);
	json_u64(j, "majf", st->ru.majf);
	json_u64(j, "minf", st->ru.minf);
	iodepths(j, st);
	lat_maps(j, st);
	/* As fio: the target in ns, the window in us. */
	json_u64(j, "latency_depth", st->latency_depth ? st->latency_depth : job->iodepth);
	json_u64(j, "latency_target", job->latency_target);
	json_dbl(j, "latency_percentile", job->latency_percentile);
	json_u64(j, "latency_window", job->latency_window / 1000);
	if (e->r->ss)
		steady_object(j, e->r->ss);
	extras(j, e, run);
	if (host) {
		json_str(j, "hostname", host->host);
		json_u64(j, "port", host->rank);
	}
	json_close(j, '}');
}

/* iogauge's own, as fio has none (its client is its host): per host its
 * ranks' entries summed, under "jobs" as a run without MPI has them. */
static void host_stats(struct json *j, const struct run *run, const struct jobset *js, bool plus)
{
	struct report_entries es;
	struct report_scope *sc;
	unsigned k, i, n = report_scopes(run, &sc);

	json_open(j, "host_stats", '[');
	for (k = 0; k < n; k++) {
		if (sc[k].rank >= 0)
			continue;
		json_open(j, NULL, '{');
		json_str(j, "hostname", sc[k].host);
		json_u64(j, "ranks", sc[k].ranks);
		json_open(j, "jobs", '[');
		report_entries(&sc[k].run, &es);
		for (i = 0; i < es.n; i++)
			job_object(j, &es.v[i], &sc[k].run, js, plus, NULL, NULL);
		report_entries_free(&es);
		json_close(j, ']');
		json_close(j, '}');
	}
	json_close(j, ']');
	report_scopes_free(sc, n);
}

/* ns: the last rank's I/O end less the first's (0: none ended). */
static int64_t end_spread(const struct run_ranks *rk)
{
	int64_t lo = -1, hi = -1;
	unsigned r;

	for (r = 0; r < rk->n; r++) {
		if (rk->v[r].done_ns < 0)
			continue;
		if (lo < 0 || rk->v[r].done_ns < lo)
			lo = rk->v[r].done_ns;
		if (rk->v[r].done_ns > hi)
			hi = rk->v[r].done_ns;
	}
	return lo < 0 ? 0 : hi - lo;
}

/* Under mpirun, fio's client/server shape: each rank's entries with its
 * host, then the summed ones named "All clients" (with the last rank's
 * host, as fio); ranks whose run could not start in "failed_ranks". */
static void clients(struct json *j, const struct run *run, const struct jobset *js, bool plus)
{
	const struct run_ranks *rk = run->ranks;
	struct report_entries es;
	struct run one;
	unsigned r, i;

	json_open(j, "client_stats", '[');
	for (r = 0; r < rk->n; r++) {
		one = *run;
		one.results = rk->v[r].results;
		one.nr = rk->v[r].nr;
		one.duration = rk->v[r].duration;
		one.ranks = NULL;
		report_entries(&one, &es);
		for (i = 0; i < es.n; i++)
			job_object(j, &es.v[i], &one, js, plus, NULL, &rk->v[r]);
		report_entries_free(&es);
	}
	report_entries(run, &es);
	for (i = 0; i < es.n; i++)
		job_object(j, &es.v[i], run, js, plus, "All clients", &rk->v[rk->n - 1]);
	report_entries_free(&es);
	json_close(j, ']');
	/* iogauge's own: the ranks' clocks, their start and the sum's cost. */
	json_open(j, "mpi", '{');
	json_u64(j, "ranks", rk->n);
	json_u64(j, "hosts", rk->hosts);
	json_u64(j, "gather_wait_us", rk->wait_ns / 1000);
	json_u64(j, "gather_sum_us", rk->sum_ns / 1000);
	json_u64(j, "gather_add_us", rk->add_ns / 1000);
	json_u64(j, "rank_stonewall", rk->rank_stonewall);
	json_u64(j, "stonewalled", rk->stonewalled);
	json_i64(j, "end_spread_ns", end_spread(rk));
	json_open(j, "clocks", '[');
	for (r = 0; r < rk->n; r++) {
		json_open(j, NULL, '{');
		json_u64(j, "rank", rk->v[r].rank);
		json_str(j, "hostname", rk->v[r].host);
		json_i64(j, "clock_offset_ns", rk->v[r].clock_offset_ns);
		json_u64(j, "clock_rtt_ns", rk->v[r].rtt_ns);
		json_i64(j, "start_skew_ns", rk->v[r].start_skew_ns);
		json_i64(j, "done_ns", rk->v[r].done_ns);
		json_u64(j, "stopped", rk->v[r].stopped);
		json_close(j, '}');
	}
	json_close(j, ']');
	host_stats(j, run, js, plus);
	json_close(j, '}');
	json_open(j, "failed_ranks", '[');
	for (r = 0; r < rk->n; r++) {
		if (!rk->v[r].error)
			continue;
		json_open(j, NULL, '{');
		json_u64(j, "rank", rk->v[r].rank);
		json_str(j, "hostname", rk->v[r].host);
		json_str(j, "error", rk->v[r].error);
		json_close(j, '}');
	}
	json_close(j, ']');
}

static void disks(struct json *j, const struct run *run)
{
	unsigned i;

	if (!run->disks.n)
		return;
	json_open(j, "disk_util", '[');
	for (i = 0; i < run->disks.n; i++) {
		struct disk_counters c;
		double util;

		disks_delta(&run->disks.v[i], run->duration / 1000000, &c, &util);
		json_open(j, NULL, '{');
		json_str(j, "name", run->disks.v[i].name);
		json_u64(j, "read_ios", c.ios[0]);
		json_u64(j, "write_ios", c.ios[1]);
		json_u64(j, "read_sectors", c.sectors[0]);
		json_u64(j, "write_sectors", c.sectors[1]);
		json_u64(j, "read_merges", c.merges[0]);
		json_u64(j, "write_merges", c.merges[1]);
		json_u64(j, "read_ticks", c.ticks[0]);
		json_u64(j, "write_ticks", c.ticks[1]);
		json_u64(j, "in_queue", c.in_queue);
		json_dbl(j, "util", util);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* --idle-prof: fio's "cpu_idleness", in %, and the unit's time in us. */
static void idleness(struct json *j, const struct idleprof_figures *f)
{
	char key[32];
	unsigned i;

	json_open(j, "cpu_idleness", '{');
	json_dbl(j, "system", f->system);
	for (i = 0; f->mode == IDLEPROF_PERCPU && i < f->nr_cpus; i++) {
		snprintf(key, sizeof(key), "cpu-%u", i);
		json_dbl(j, key, f->cpu[i]);
	}
	json_dbl(j, "unit_mean", f->unit_mean);
	json_dbl(j, "unit_stddev", f->unit_stddev);
	json_close(j, '}');
}

void report_json(const struct run *run, const struct jobset *js, bool plus, struct strbuf *sb)
{
	struct report_entries es;
	struct json j;
	time_t secs = (time_t)(run->epoch_ms / 1000);
	char when[64] = "";
	unsigned i;

	ctime_r(&secs, when);
	when[strcspn(when, "\n")] = '\0';
	json_init(&j, sb);
	json_open(&j, NULL, '{');
	json_str(&j, "fio version", "iogauge-" IOGAUGE_VERSION);
	json_i64(&j, "timestamp", run->epoch_ms / 1000);
	json_i64(&j, "timestamp_ms", run->epoch_ms);
	json_str(&j, "time", when);
	if (js->nr)
		options_object(&j, "global options", &js->specs[0], true);
	if (run->ranks) {
		clients(&j, run, js, plus);
	} else {
		json_open(&j, "jobs", '[');
		report_entries(run, &es);
		for (i = 0; i < es.n; i++)
			job_object(&j, &es.v[i], run, js, plus, NULL, NULL);
		report_entries_free(&es);
		json_close(&j, ']');
	}
	disks(&j, run);
	if (run->idle)
		idleness(&j, run->idle);
	json_close(&j, '}');
}
