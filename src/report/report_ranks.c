/* SPDX-License-Identifier: MIT */
/*
 * Under mpirun, after the summed report: a row per host (and with
 * --per-rank per rank) of what its ranks did, from the results rank 0
 * gathered (mpi/ranks.h).  Each row's percentile is read from the row's
 * own summed histogram.
 */
#include <string.h>

#include "mpi/ranks.h"
#include "report/report.h"

/* One row's figures, summed over its ranks' clones. */
struct row {
	uint64_t ios[2], bytes[2];
	uint64_t elapsed; /* ns, the longest clone's */
	uint64_t errors;  /* clones that ended in an error, and I/Os passed over */
	unsigned ranks, failed;
	struct hist lat; /* reads and writes: total latency, or completion's without it */
};

static void row_add(struct row *w, const struct rank_run *rr)
{
	unsigned i, d;

	w->ranks++;
	w->failed += rr->error != NULL;
	for (i = 0; i < rr->nr; i++) {
		const struct run_stats *st = &rr->results[i].stats;

		for (d = 0; d < 2; d++) {
			const struct dir_stats *ds = &st->dir[d];

			w->ios[d] += ds->ios;
			w->bytes[d] += ds->bytes;
			hist_merge(&w->lat, ds->lat.count ? &ds->lat : &ds->clat);
		}
		if (st->elapsed > w->elapsed)
			w->elapsed = st->elapsed;
		w->errors += st->errors + (rr->results[i].error != NULL);
	}
}

/* @rr (may be NULL): a rank's row, with its clock's offset (and the
 * measure's error, half the round trip) and its start after rank 0's. */
static void row_print(const char *name, const struct row *w, const struct rank_run *rr,
		      struct strbuf *sb)
{
	double secs = (double)w->elapsed / 1e9;
	unsigned d;

	strbuf_addf(sb, "  %-20s %5u", name, w->ranks);
	for (d = 0; d < 2; d++)
		strbuf_addf(sb, " %11.0f", secs > 0 ? (double)w->ios[d] / secs : 0);
	for (d = 0; d < 2; d++)
		strbuf_addf(sb, " %11.2f",
			    secs > 0 ? (double)w->bytes[d] / secs / (1024.0 * 1024.0) : 0);
	strbuf_addf(sb, " %12llu %10.2f %10.2f", (unsigned long long)(w->ios[0] + w->ios[1]),
		    hist_mean(&w->lat) / 1000.0, (double)hist_percentile(&w->lat, 99.0) / 1000.0);
	if (w->failed)
		strbuf_addf(sb, "  %u failed", w->failed);
	else
		strbuf_addf(sb, " %7llu", (unsigned long long)w->errors);
	if (rr)
		strbuf_addf(sb, " %+9.1f %8.1f %+9.1f", (double)rr->clock_offset_ns / 1000.0,
			    (double)rr->rtt_ns / 2000.0, (double)rr->start_skew_ns / 1000.0);
	strbuf_addc(sb, '\n');
}

/* elbencho's pair: when the first rank and the last one were done. */
static void done_lines(const struct run_ranks *rk, struct strbuf *sb)
{
	int first = -1, last = -1;
	unsigned r;

	for (r = 0; r < rk->n; r++) {
		if (rk->v[r].done_ns < 0)
			continue;
		if (first < 0 || rk->v[r].done_ns < rk->v[first].done_ns)
			first = (int)r;
		if (last < 0 || rk->v[r].done_ns > rk->v[last].done_ns)
			last = (int)r;
	}
	if (first < 0)
		return;
	strbuf_addf(sb,
		    "Done: first rank %d (%s) at %.4f s, last rank %d (%s) at %.4f s, after rank "
		    "0's start on its clock\n",
		    first, rk->v[first].host, (double)rk->v[first].done_ns / 1e9, last,
		    rk->v[last].host, (double)rk->v[last].done_ns / 1e9);
	/* runtime counts from the agreed zero on every rank (mpi/zero.c). */
	strbuf_addf(sb, "End spread: %.3f ms between the first rank's I/O end and the last's\n",
		    (double)(rk->v[last].done_ns - rk->v[first].done_ns) / 1e6);
	if (rk->stonewalled)
		strbuf_addf(sb,
			    "--rank-stonewall: rank %d finished its jobs first and stopped the "
			    "others, the last %.3f ms later (the wear-out); the figures are the "
			    "ranks' sum to then\n",
			    first, (double)(rk->v[last].done_ns - rk->v[first].done_ns) / 1e6);
}

static const char header[] = "  %-20s %5s %11s %11s %11s %11s %12s %10s %10s %7s";

void report_ranks(const struct run *run, struct strbuf *sb)
{
	const struct run_ranks *rk = run->ranks;
	struct row w;
	char name[300];
	unsigned r, k;

	if (!rk)
		return;
	strbuf_addf(sb, "\nHosts: %u ranks on %u host%s\n", rk->n, rk->hosts,
		    rk->hosts == 1 ? "" : "s");
	strbuf_addf(sb, header, "host", "ranks", "read IOPS", "write IOPS", "read MiB/s",
		    "write MiB/s", "I/Os", "lat mean", "lat p99", "errors");
	strbuf_addc(sb, '\n');
	for (r = 0; r < rk->n; r++) {
		/* The first rank of each host gathers the host's. */
		for (k = 0; k < r && strcmp(rk->v[k].host, rk->v[r].host); k++)
			;
		if (k < r)
			continue;
		memset(&w, 0, sizeof(w));
		hist_init(&w.lat);
		for (k = r; k < rk->n; k++)
			if (!strcmp(rk->v[k].host, rk->v[r].host))
				row_add(&w, &rk->v[k]);
		row_print(rk->v[r].host, &w, NULL, sb);
		hist_free(&w.lat);
	}
	done_lines(rk, sb);
	if (!rk->per_rank)
		goto units;
	strbuf_addf(sb, "\nRanks:\n");
	strbuf_addf(sb, header, "rank (host)", "ranks", "read IOPS", "write IOPS", "read MiB/s",
		    "write MiB/s", "I/Os", "lat mean", "lat p99", "errors");
	strbuf_addf(sb, " %9s %8s %9s\n", "clock", "+-", "start");
	for (r = 0; r < rk->n; r++) {
		memset(&w, 0, sizeof(w));
		hist_init(&w.lat);
		row_add(&w, &rk->v[r]);
		snprintf(name, sizeof(name), "%u (%s)", rk->v[r].rank, rk->v[r].host);
		row_print(name, &w, &rk->v[r], sb);
		hist_free(&w.lat);
	}
units:
	strbuf_addf(sb,
		    "  (latencies in us: reads and writes, from each row's summed histogram%s)\n",
		    rk->per_rank ? "; clock: the rank's wall clock less rank 0's, +- its error;"
				   " start: when it started less rank 0's, in us"
				 : "");
}
