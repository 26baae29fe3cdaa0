/* SPDX-License-Identifier: MIT */
/*
 * The latency test's report: the tracked value of every round (the mean
 * completion latency of 4k random writes, one I/O in flight), the
 * decision, and PTS's tables over the steady-state window for each mix
 * and block size: the mean of the rounds' average, 99.99% and 99.999%
 * latencies, the largest of their maximums, and the mean IOPS.  Text in
 * microseconds; the JSON keeps nanoseconds.
 */
#include <jansson.h>
#include <stdio.h>

#include "pts/pts.h"

static double mean_of(const struct pts_cell *c)
{
	return c->mean;
}

static double max_of(const struct pts_cell *c)
{
	return c->max;
}

static double p9999_of(const struct pts_cell *c)
{
	return c->p9999;
}

static double p99999_of(const struct pts_cell *c)
{
	return c->p99999;
}

static double iops_of(const struct pts_cell *c)
{
	return c->iops;
}

static const struct {
	const char *title, *key;
	double (*get)(const struct pts_cell *);
	bool largest;
} tables[] = {
	{ "Average latency, us: the mean over the window", "mean_ns", mean_of, false },
	{ "Maximum latency, us: the largest over the window", "max_ns", max_of, true },
	{ "99.99% latency, us: the mean over the window", "p99_99_ns", p9999_of, false },
	{ "99.999% latency (five nines), us: the mean over the window", "p99_999_ns", p99999_of,
	  false },
};

void pts_latency_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	static const struct pts_unit u = { "us", 1e3, 1 };
	const struct pts_part *pt = &r->parts[0];
	char bs[32];
	unsigned i, t;

	strbuf_addf(out, "iogauge pts latency %s: %llu bytes, logical block %u bytes\n", p->device,
		    (unsigned long long)p->capacity, p->lbs);
	pts_print_prep(p, pt, out);
	pts_bs_name(p->bs[p->tracked_bs], bs, sizeof(bs));
	strbuf_addf(out, "cells: random I/O, %.3f s each, iodepth %u, one thread, %s\n",
		    (double)p->cell_ns / 1e9, p->iodepth, p->ioengine);
	strbuf_addf(out, "\nround  tracked mean latency, us (%u/%u %s)\n", p->mixes[p->tracked_mix],
		    100 - p->mixes[p->tracked_mix], bs);
	for (i = 0; i < pt->rounds; i++)
		strbuf_addf(out, "%5u  %12.1f%s\n", i + 1, pts_tracked(p, pt, i) / 1e3,
			    i >= pt->window_first ? "  (window)" : "");
	pts_print_steady(p, pt, r->stopped, &u, out);
	if (!pt->rounds)
		return;
	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		strbuf_addf(out, "\n%s (rounds %u-%u)\n", tables[t].title, pt->window_first + 1,
			    pt->rounds);
		pts_print_table(p, pt, tables[t].get, tables[t].largest, 1e3, 1, out);
	}
	strbuf_addf(out, "\nIOPS, the mean over the window (rounds %u-%u)\n", pt->window_first + 1,
		    pt->rounds);
	pts_print_table(p, pt, iops_of, false, 1, 0, out);
}

void pts_latency_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	const struct pts_part *pt = &r->parts[0];
	json_t *doc = json_object(), *rounds = json_array(), *table = json_object();
	char bs[32], mix[16];
	unsigned i, m, b, t;

	for (i = 0; i < pt->rounds; i++) {
		json_t *cells = json_array();

		for (m = 0; m < p->nmixes; m++) {
			json_t *row = json_array();

			for (b = 0; b < p->nbs; b++)
				json_array_append_new(row,
						      pts_json_cell(pts_cell_at(p, pt, i, m, b)));
			json_array_append_new(cells, row);
		}
		json_array_append_new(rounds, json_pack("{s:i, s:f, s:o}", "round", i + 1,
							"tracked_mean_ns", pts_tracked(p, pt, i),
							"cells", cells));
	}
	for (t = 0; t < ARRAY_SIZE(tables); t++)
		json_object_set_new(table, tables[t].key,
				    pts_json_table(p, pt, tables[t].get, tables[t].largest));
	json_object_set_new(table, "iops", pts_json_table(p, pt, iops_of, false));
	pts_bs_name(p->bs[p->tracked_bs], bs, sizeof(bs));
	snprintf(mix, sizeof(mix), "%u/%u", p->mixes[p->tracked_mix],
		 100 - p->mixes[p->tracked_mix]);
	pts_json_common(p, doc);
	pts_json_part(p, pt, r->stopped, doc);
	json_object_set_new(doc, "tracked",
			    json_pack("{s:s, s:s, s:s}", "mix", mix, "bs", bs, "value", "mean_ns"));
	json_object_set_new(doc, "rounds", rounds);
	json_object_set_new(doc, "table", table);
	pts_json_finish(doc, out);
}
