/* SPDX-License-Identifier: MIT */
/*
 * SQLIO v1.5.SG's report, line for line, for the parsers that read it by
 * fixed prefixes and token positions (shared/reference/peers.md §1.4):
 * TAB-indented lines, "thread" or "threads", IOs/sec and MBs/sec as %8.2f
 * (MBs/sec truncated, from the printed IOs/sec as SQLIO's files show),
 * whole-millisecond latencies truncated, and the 25 %3d percentages of the
 * millisecond histogram rounded.  Optional lines appear only when their
 * flag was given, as in SQLIO.
 */
#include <math.h>
#include <string.h>

#include "report/report.h"
#include "run/run.h"
#include "sqlio/sqlio.h"

/* SQLIO's words for the -B modes.  -BH's is SQLIO's own; the others are
 * not on record and are written here in the same form. */
static const char *buffering_text(char b)
{
	switch (b) {
	case 'N':
		return "buffering set to not use file nor disk caches (as is SQL Server)";
	case 'Y':
		return "buffering set to use both file and disk caches";
	case 'H':
		return "buffering set to use hardware disk cache (but not file cache)";
	default:
		return "buffering set to use file cache (but not hardware disk cache)";
	}
}

static void header(const struct sqlio *s, struct strbuf *out)
{
	static const char *const pattern[] = { "stride", "random", "sequential" };
	unsigned i, threads = 0, first = 0;

	strbuf_addf(out, "sqlio v1.5.SG\n");
	/* Every latency is read from CLOCK_MONOTONIC, a nanosecond clock. */
	if (s->latency)
		strbuf_addf(out, "using system counter for latency timings, 1000000000 counts per "
				 "second\n");
	if (s->param_file)
		strbuf_addf(out, "parameter file used: %s\n", s->param_file);
	for (i = 0; i < s->nr_targets; i++) {
		const struct sqlio_target *t = &s->targets[i];

		if (s->param_file)
			strbuf_addf(out,
				    "\tfile %s with %u thread%s (%u-%u) using mask 0x%llx (%llu)\n",
				    t->path, t->threads, t->threads == 1 ? "" : "s", first,
				    first + t->threads - 1, (unsigned long long)t->mask,
				    (unsigned long long)t->mask);
		first += t->threads;
	}
	threads = s->param_file ? first : s->threads;
	strbuf_addf(out, "%u thread%s %s for %u secs %s file%s", threads, threads == 1 ? "" : "s",
		    s->write ? "writing" : "reading", s->secs, s->write ? "to" : "from",
		    s->nr_targets == 1 ? "" : "s");
	for (i = 0; i < s->nr_targets; i++)
		strbuf_addf(out, " %s", s->targets[i].path);
	strbuf_addf(out, "\n\tusing %uKB %s IOs\n", s->kb, pattern[s->pattern]);
	if (s->outstanding)
		strbuf_addf(out, "\tenabling multiple I/Os per thread with %u outstanding\n",
			    s->outstanding);
	if (s->buffering_given)
		strbuf_addf(out, "\t%s\n", buffering_text(s->buffering));
	for (i = 0; i < s->nr_targets; i++) {
		const struct sqlio_target *t = &s->targets[i];

		strbuf_addf(out, "using %s size: %llu MB for file: %s\n",
			    t->size_mb ? "specified" : "current",
			    (unsigned long long)((t->size_mb ? t->size_mb * 1048576 : t->use) /
						 1048576),
			    t->path);
	}
	strbuf_addf(out, "initialization done\n");
}

void report_sqlio(const struct sqlio *s, const struct run *run, const char *util,
		  struct strbuf *out)
{
	struct dir_stats all;
	uint64_t secs_ns = 0, hundredths, ios;
	double iops;
	unsigned i, d;

	memset(&all, 0, sizeof(all));
	hist_init(&all.lat);
	hist_init(&all.slat);
	for (i = 0; i < run->nr; i++) {
		const struct run_stats *st = &run->results[i].stats;

		secs_ns = st->elapsed > secs_ns ? st->elapsed : secs_ns;
		for (d = STAT_READ; d <= STAT_WRITE; d++) {
			all.ios += st->dir[d].ios;
			all.ms_sum += st->dir[d].ms_sum;
			for (unsigned k = 0; k < STATS_MS_BUCKETS; k++)
				all.ms[k] += st->dir[d].ms[k];
			hist_merge(&all.lat, &st->dir[d].lat);
			hist_merge(&all.slat, &st->dir[d].slat);
		}
	}
	ios = all.ios;
	iops = secs_ns ? (double)ios * 1e9 / (double)secs_ns : 0;
	/* MB = 1,048,576 bytes, from the printed IOs/sec, truncated. */
	hundredths = (uint64_t)llround(iops * 100) * s->kb / 1024;

	header(s, out);
	strbuf_addf(out, "CUMULATIVE DATA:\nthroughput metrics:\n");
	strbuf_addf(out, "IOs/sec: %8.2f\n", iops);
	strbuf_addf(out, "MBs/sec: %5llu.%02llu\n", (unsigned long long)(hundredths / 100),
		    (unsigned long long)(hundredths % 100));
	if (util)
		strbuf_addf(out, "%s", util);
	if (!s->latency)
		goto out;
	strbuf_addf(out, "latency metrics:\n");
	if (s->init_latency) {
		/* An engine that submits as it completes (psync) has no
		 * separate initiation: the call is the whole I/O. */
		const struct hist *h = all.slat.count ? &all.slat : &all.lat;

		strbuf_addf(out,
			    "Min_Init_Latency(us): %llu\nAvg_Init_Latency(us): %llu\n"
			    "Max_Init_Latency(us): %llu\n",
			    (unsigned long long)(h->count ? h->min / 1000 : 0),
			    (unsigned long long)(h->count ? h->sum / h->count / 1000 : 0),
			    (unsigned long long)(h->max / 1000));
	}
	strbuf_addf(out, "Min_Latency(ms): %llu\nAvg_Latency(ms): %llu\nMax_Latency(ms): %llu\n",
		    (unsigned long long)(ios ? all.lat.min / 1000000 : 0),
		    (unsigned long long)(ios ? all.ms_sum / ios : 0),
		    (unsigned long long)(all.lat.max / 1000000));
	strbuf_addf(out, "histogram:\nms: 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 "
			 "19 20 21 22 23 24+\n%%:");
	for (i = 0; i < STATS_MS_BUCKETS; i++)
		strbuf_addf(out, "%3d", ios ? (int)((all.ms[i] * 200 + ios) / (ios * 2)) : 0);
	strbuf_addc(out, '\n');
out:
	report_ranks(run, out); /* mpirun: per host, per rank, as the normal report */
	hist_free(&all.lat);
	hist_free(&all.slat);
}
