/* SPDX-License-Identifier: MIT */
/* What every reporter shares: the entries of a run, per clone or group. */
#include <stdlib.h>

#include "report/report.h"

/* The histogram a direction's per-priority statistics hold, as fio's:
 * total latency with lat_percentiles, clat otherwise. */
static const struct hist *prio_whole(const struct job *job, const struct dir_stats *ds)
{
	return job->lat_percentiles ? &ds->lat : &ds->clat;
}

static bool has_prios(const struct run_stats *st)
{
	unsigned d;

	for (d = STAT_READ; d <= STAT_TRIM; d++)
		if (st->dir[d].prio)
			return true;
	return false;
}

/* A group's statistics per priority, into @m from results [@from, @to),
 * as fio's: kept when a clone's I/Os had more than one priority
 * (cmdprio*) or its jobs had different ones (prio, prioclass); a clone
 * of one priority adds its whole direction under it. */
static void group_prios(const struct run *run, unsigned from, unsigned to, struct run_stats *m)
{
	bool keep = false, first = true;
	unsigned i, d;

	for (i = from; i < to; i++) {
		const struct run_stats *st = &run->results[i].stats;

		if (!run->results[i].job->stats)
			continue;
		keep |= has_prios(st) || (!first && st->ioprio != m->ioprio);
		if (first)
			m->ioprio = st->ioprio;
		first = false;
	}
	for (i = from; i < to && keep; i++) {
		const struct run_stats *st = &run->results[i].stats;

		if (!run->results[i].job->stats)
			continue;
		for (d = STAT_READ; d <= STAT_TRIM; d++)
			prio_stats_merge(&m->dir[d].prio, st->dir[d].prio, st->ioprio,
					 prio_whole(run->results[i].job, &st->dir[d]));
	}
}

/* unified_rw_reporting: the mixed direction's statistics per priority,
 * its directions' summed as fio sums them. */
static void mixed_prios(const struct job *job, const struct run_stats *st, struct dir_stats *mx)
{
	unsigned d;

	for (d = STAT_READ; d <= STAT_TRIM && has_prios(st); d++)
		prio_stats_merge(&mx->prio, st->dir[d].prio, st->ioprio,
				 prio_whole(job, &st->dir[d]));
}

void report_entries(const struct run *run, struct report_entries *out)
{
	unsigned i, j;

	out->v = xcalloc(run->nr ? run->nr : 1, sizeof(*out->v));
	out->merged = xcalloc(run->nr ? run->nr : 1, sizeof(*out->merged));
	out->mixed = xcalloc(run->nr ? run->nr : 1, sizeof(*out->mixed));
	out->n = 0;
	for (i = 0; i < run->nr; i = j) {
		const struct run_result *r = &run->results[i];
		struct report_entry *e = &out->v[out->n];

		/* stats=0: no entry, and no part of its group's, as fio. */
		if (!r->job->stats) {
			j = i + 1;
			continue;
		}
		e->r = r;
		e->err = r->error ? r : NULL;
		if (!r->job->group_reporting) {
			e->threads = 1;
			e->st = &r->stats;
			j = i + 1;
		} else {
			struct run_stats *m = &out->merged[out->n];

			/* group_reporting: every clone of every job in the group, as one. */
			stats_init(m);
			e->threads = 0;
			for (j = i; j < run->nr && run->results[j].group == r->group; j++) {
				if (!run->results[j].job->stats)
					continue;
				stats_merge(m, &run->results[j].stats);
				e->threads++;
				if (!e->err && run->results[j].error)
					e->err = &run->results[j];
			}
			group_prios(run, i, j, m);
			e->st = m;
		}
		if (r->job->unified_rw_reporting != UNIFIED_NONE) {
			struct run_stats *mx = &out->mixed[out->n];
			unsigned d;

			stats_init(mx);
			for (d = STAT_READ; d <= STAT_TRIM; d++)
				stats_dir_merge(&mx->dir[0], &e->st->dir[d]);
			mixed_prios(r->job, e->st, &mx->dir[0]);
			e->mixed = &mx->dir[0];
		}
		out->n++;
	}
}

void report_entries_free(struct report_entries *e)
{
	unsigned i;

	for (i = 0; e->merged && i < e->n; i++) {
		stats_free(&e->merged[i]);
		stats_free(&e->mixed[i]);
	}
	free(e->v);
	free(e->merged);
	free(e->mixed);
	e->v = NULL;
	e->merged = NULL;
	e->mixed = NULL;
	e->n = 0;
}

bool report_rate(const struct job *job, unsigned d, unsigned threads, const struct dir_stats *ds,
		 uint64_t elapsed, struct report_rate *out)
{
	double secs = elapsed / 1e9;

	if (d > STAT_TRIM || (!job->rate_iops[d] && !job->rate[d]))
		return false;
	out->iops = job_rate_in_iops(job, d);
	out->target = (double)(out->iops ? job->rate_iops[d] : job->rate[d]) * threads;
	out->achieved = secs > 0 ? (double)(out->iops ? ds->ios : ds->bytes) / secs : 0;
	out->kept = out->achieved >= 0.99 * out->target;
	return true;
}

void report_passed_over(const struct run_stats *st, const char *first, struct strbuf *sb)
{
	strbuf_addf(sb, "%llu I/O%s failed and passed over (continue_on_error)%s%s",
		    (unsigned long long)st->errors, st->errors == 1 ? "" : "s",
		    first ? "; the first: " : "", first ? first : "");
}

void report_verify(const struct job *job, const struct run_stats *st, struct strbuf *sb)
{
	const char *kind = opt_enum_name(OPT_VERIFY, (int)job->verify);

	if (st->verify_cut) {
		strbuf_addf(sb,
			    "verify=%s: not run: the runtime ended the write phase before the "
			    "read-back could start (as in fio)",
			    kind);
		return;
	}
	if (job->time_based && job_does(job, DDIR_WRITE) && !job->verify_backlog) {
		strbuf_addf(sb,
			    "verify=%s: not run: a time_based write phase takes all of the "
			    "runtime (as in fio)",
			    kind);
		return;
	}
	strbuf_addf(sb, "verify=%s: %llu block%s (%.2f MiB) %s and checked, %llu mismatched", kind,
		    (unsigned long long)(st->verified + st->verify_bad),
		    st->verified + st->verify_bad == 1 ? "" : "s",
		    (double)st->verify_bytes / 1048576.0,
		    job_does(job, DDIR_WRITE) ? "read back" : "read",
		    (unsigned long long)st->verify_bad);
	if (st->verify_skipped)
		strbuf_addf(sb, ", %llu partly overwritten by later blocks and not checkable",
			    (unsigned long long)st->verify_skipped);
}

double report_group_bw(const struct run *run, unsigned group, unsigned d)
{
	uint64_t bytes = 0, elapsed = 0;
	unsigned i;

	for (i = 0; i < run->nr; i++) {
		const struct run_stats *st = &run->results[i].stats;

		if (run->results[i].group != group || !run->results[i].job->stats)
			continue;
		bytes += st->dir[d].bytes;
		if (st->elapsed > elapsed)
			elapsed = st->elapsed;
	}
	return elapsed ? (double)bytes * 1e9 / (double)elapsed : 0;
}

void report_cpu(const struct run_stats *st, double *usr_pct, double *sys_pct)
{
	/* ru is summed over a group's clones: so is the time, as fio's. */
	double t = (double)st->runtime_sum * 1e6;

	*usr_pct = t > 0 ? (double)st->ru.usr * 100 / t : 0;
	*sys_pct = t > 0 ? (double)st->ru.sys * 100 / t : 0;
}

uint64_t report_lat_bins(const struct run_stats *st, uint64_t bins[STATS_LAT_BINS])
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < STATS_LAT_BINS; i++) {
		bins[i] = st->dir[STAT_READ].lat_bins[i] + st->dir[STAT_WRITE].lat_bins[i] +
			  st->dir[STAT_TRIM].lat_bins[i];
		total += bins[i];
	}
	return total;
}

double report_mixed_share(const struct run *run, const struct report_entry *e, double if_no_agg)
{
	double agg = report_group_bw(run, e->r->group, STAT_READ);
	double p;

	/* mixed: the group's all directions; both: fio divides by its reads'. */
	if (e->r->job->unified_rw_reporting == UNIFIED_MIXED)
		agg += report_group_bw(run, e->r->group, STAT_WRITE) +
		       report_group_bw(run, e->r->group, STAT_TRIM);
	agg /= 1024;
	p = agg > 0 ? stats_sample_mean(&e->mixed->bw) * 100 / agg : if_no_agg;
	return p > 100 ? 100 : p;
}

double report_bw_share(const struct run *run, const struct report_entry *e, unsigned d,
		       double if_no_agg)
{
	double agg = report_group_bw(run, e->r->group, d) / 1024;
	double p = agg > 0 ? stats_sample_mean(&e->st->dir[d].bw) * 100 / agg : if_no_agg;

	return p > 100 ? 100 : p;
}
