/* SPDX-License-Identifier: MIT */
/*
 * --profile=act's slice table and verdict, as fio 3.33 prints them before
 * its report: per slice, the share of I/Os whose total latency (lat) is
 * over 1 ms but not 8, over 8 but not 64, and over 64 ms (fio counts each
 * I/O in the highest band only), printed twice (fio's "trans" and "device"
 * columns are the same figures), then PASSED or FAILED.  Every job of the
 * run counts, as in fio.  Read from the latency histograms after the run:
 * a bucket counts as over a bound when its middle is (so an I/O within
 * 1/128 of a bound may land in the band next to it).  Only one hour-long
 * slice is built (profiles.c refuses a longer --test-duration).
 */
#include "report/report.h"
#include "run/run.h"
#include "stats/hist.h"

#define ACT_BANDS 3

/* fio's criteria: a band fails at this share of I/Os, in tenths of a %. */
static const struct {
	uint64_t over_ns;  /* lat above this many whole microseconds, in ns */
	unsigned max_perm; /* per mille */
} act_bands[ACT_BANDS] = {
	{ 1001000, 50 },
	{ 8001000, 10 },
	{ 64001000, 1 },
};

/* Adds @h's counts by band to @band (the highest each is over) and its total. */
static void act_count(const struct hist *h, uint64_t band[ACT_BANDS], uint64_t *total)
{
	unsigned i, b;

	*total += h->count;
	if (!h->bucket)
		return;
	for (i = 0; i < HIST_NR; i++) {
		uint64_t mid = hist_bucket_mid(i);

		if (!h->bucket[i])
			continue;
		for (b = ACT_BANDS; b-- > 0;)
			if (mid >= act_bands[b].over_ns) {
				band[b] += h->bucket[i];
				break;
			}
	}
}

void report_act(const struct run *run, bool count, struct strbuf *sb)
{
	uint64_t band[ACT_BANDS] = { 0 }, total = 0;
	unsigned i, d, fails = 0;
	double pct[ACT_BANDS];

	for (i = 0; count && i < run->nr; i++)
		for (d = STAT_READ; d <= STAT_TRIM; d++)
			act_count(&run->results[i].stats.dir[d].lat, band, &total);
	strbuf_adds(sb, "        trans                   device\n"
			"        %>(ms)                  %>(ms)\n"
			" slice\t  1\t  8\t 64\t  1\t  8\t 64\n"
			" -----  -----   -----  ------   -----   -----  ------\n"
			"    1");
	for (i = 0; i < ACT_BANDS; i++) {
		pct[i] = total ? 100.0 * (double)band[i] / (double)total : 0.0;
		if (pct[i] * 10.0 >= act_bands[i].max_perm)
			fails++;
		strbuf_addf(sb, "\t%2.2f", pct[i]);
	}
	for (i = 0; i < ACT_BANDS; i++)
		strbuf_addf(sb, "\t%2.2f", pct[i]);
	strbuf_addf(sb, "\n\nact: test complete, device(s): %s\n", fails ? "FAILED" : "PASSED");
}
