/* SPDX-License-Identifier: MIT */
/*
 * --profile=act's slice table and verdict, as fio 3.33 prints them before
 * its report: per slice (an hour of each clone's time, or
 * --slice-duration), the share of its I/Os whose total latency (lat) is
 * over 1 ms but not 8, over 8 but not 64, and over 64 ms (each I/O in the
 * highest band only), printed twice (fio's "trans" and "device" columns
 * are the same figures), then PASSED or FAILED.  Every clone's slices
 * count, added slice by slice, as fio's threads' are.  The counts are the
 * I/O loop's (stats/act.h), exact.
 */
#include <stdlib.h>

#include "report/report.h"
#include "run/run.h"
#include "stats/act.h"

/* One row: "   %2u" and the six figures; whether it fails the criteria. */
static bool act_row(const struct act_slice *s, unsigned num, struct strbuf *sb)
{
	double pct[ACT_BANDS];
	unsigned b;
	bool failed = false;

	strbuf_addf(sb, "   %2u", num);
	for (b = 0; b < ACT_BANDS; b++) {
		pct[b] = s->ios ? 100.0 * (double)s->over[b] / (double)s->ios : 0.0;
		if (pct[b] * 10.0 >= act_bands[b].max_perm)
			failed = true;
		strbuf_addf(sb, "\t%2.2f", pct[b]);
	}
	for (b = 0; b < ACT_BANDS; b++)
		strbuf_addf(sb, "\t%2.2f", pct[b]);
	strbuf_addc(sb, '\n');
	return failed;
}

void report_act(const struct run *run, unsigned rows, struct strbuf *sb)
{
	struct act_slices *all = NULL;
	static const struct act_slice none;
	unsigned i, b, fails = 0;

	for (i = 0; i < run->nr; i++)
		act_merge(&all, run->results[i].stats.act);
	strbuf_adds(sb, "        trans                   device\n"
			"        %>(ms)                  %>(ms)\n"
			" slice");
	for (i = 0; i < 2; i++)
		for (b = 0; b < ACT_BANDS; b++)
			strbuf_addf(sb, "\t %2u", (unsigned)(act_bands[b].over_us / 1000));
	strbuf_adds(sb, "\n -----  -----   -----  ------   -----   -----  ------\n");
	for (i = 0; i < rows; i++)
		fails += act_row(all && i < all->nr ? &all->v[i] : &none, i + 1, sb);
	strbuf_addf(sb, "\nact: test complete, device(s): %s\n", fails ? "FAILED" : "PASSED");
	act_free(all);
}
