/* SPDX-License-Identifier: MIT */
/*
 * --summary: the run in one line a new user can read, after the report:
 * per job and direction the I/Os per second, the bandwidth, the average
 * and 99th-percentile latency (and the syncs: a commit's cost), then
 * whether the page cache was in the way.
 * A job's clones are added together (rates summed, latencies merged).
 */
#include <string.h>

#include "report/report.h"

static const char *const summary_verb[] = { "reads", "writes", "trims", "syncs" };

/* A latency in the unit that reads best: us below a millisecond. */
static void summary_lat(double ns, struct strbuf *sb)
{
	if (ns < 1e6)
		strbuf_addf(sb, "%.1f us", ns / 1e3);
	else
		strbuf_addf(sb, "%.2f ms", ns / 1e6);
}

/* Job @k's direction @d over its clones: 0 when it did no such I/O. */
static void summary_dir(const struct run *run, unsigned k, unsigned d, struct strbuf *sb,
			bool *first)
{
	struct hist lat;
	double iops = 0, bw = 0;
	uint64_t ios = 0, bs = 0;
	const char *name = NULL;
	unsigned i;

	hist_init(&lat);
	for (i = 0; i < run->nr; i++) {
		const struct run_result *r = &run->results[i];
		const struct dir_stats *ds = &r->stats.dir[d];
		double secs = r->stats.elapsed / 1e9;

		if (r->job_index != k || !ds->ios)
			continue;
		name = r->job->name;
		ios += ds->ios;
		bs += ds->bytes;
		if (secs > 0) {
			iops += ds->ios / secs;
			bw += ds->bytes / secs;
		}
		hist_merge(&lat, &ds->lat);
	}
	if (ios && d == STAT_SYNC) {
		strbuf_addf(sb, "%s%s %s %.0f/s, latency ", *first ? "" : "; ", name,
			    summary_verb[d], iops);
	} else if (ios) {
		strbuf_addf(sb, "%s%s %s %.0f/s (%.1f MiB/s, %llu KiB each on average), latency ",
			    *first ? "" : "; ", name, summary_verb[d], iops, bw / 1048576.0,
			    (unsigned long long)(bs / ios / 1024));
	}
	if (ios) {
		summary_lat(hist_mean(&lat), sb);
		strbuf_adds(sb, " average, 99% within ");
		summary_lat((double)hist_percentile(&lat, 99), sb);
		*first = false;
	}
	hist_free(&lat);
}

void report_summary(const struct run *run, struct strbuf *sb)
{
	unsigned i, d, direct = 0, jobs = 0, last = ~0u;
	bool first = true;

	strbuf_adds(sb, "\nSummary: ");
	for (i = 0; i < run->nr; i++) {
		if (run->results[i].job_index == last)
			continue;
		last = run->results[i].job_index;
		jobs++;
		direct += run->results[i].job->direct;
		for (d = STAT_READ; d <= STAT_SYNC; d++)
			summary_dir(run, last, d, sb, &first);
	}
	if (first)
		strbuf_adds(sb, "no reads, writes or trims were done");
	if (jobs && direct == jobs)
		strbuf_adds(sb, ".  Direct I/O (O_DIRECT): the storage's own speed, not the "
				"page cache's.\n");
	else if (!direct)
		strbuf_adds(sb, ".  Buffered I/O: the page cache (memory) served some of it, "
				"so the storage may be slower than this.\n");
	else
		strbuf_adds(sb, ".  Some jobs direct (O_DIRECT), some through the page cache.\n");
}
