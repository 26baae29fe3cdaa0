/* SPDX-License-Identifier: MIT */
/*
 * The IOPS test's report: the tracked value of every round, the
 * decision, and PTS's table (the steady-state window's mean IOPS per
 * read/write mix and block size), as text or JSON.
 */
#include <jansson.h>
#include <stdio.h>

#include "pts/pts.h"

static double iops_of(const struct pts_cell *c)
{
	return c->iops;
}

void pts_iops_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	static const struct pts_unit u = { "IOPS", 1, 0 };
	const struct pts_part *pt = &r->parts[0];
	char bs[32];
	unsigned i;

	strbuf_addf(out, "iogauge pts iops %s: %llu bytes, logical block %u bytes\n", p->device,
		    (unsigned long long)p->capacity, p->lbs);
	pts_print_prep(p, pt, out);
	pts_bs_name(p->bs[p->tracked_bs], bs, sizeof(bs));
	strbuf_addf(out, "cells: random I/O, %.3f s each, iodepth %u, %s\n",
		    (double)p->cell_ns / 1e9, p->iodepth, p->ioengine);
	strbuf_addf(out, "\nround  tracked IOPS (%u/%u %s)\n", p->mixes[p->tracked_mix],
		    100 - p->mixes[p->tracked_mix], bs);
	for (i = 0; i < pt->rounds; i++)
		strbuf_addf(out, "%5u  %12.0f%s\n", i + 1, pts_tracked(p, pt, i),
			    i >= pt->window_first ? "  (window)" : "");
	pts_print_steady(p, pt, r->stopped, &u, out);
	if (!pt->rounds)
		return;
	strbuf_addf(out, "\nIOPS, the mean over the window (rounds %u-%u)\n", pt->window_first + 1,
		    pt->rounds);
	pts_print_table(p, pt, iops_of, false, 1, 0, out);
}

void pts_iops_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	const struct pts_part *pt = &r->parts[0];
	json_t *doc = json_object(), *rounds = json_array();
	char bs[32], mix[16];
	unsigned i, m, b;

	for (i = 0; i < pt->rounds; i++) {
		json_t *cells = json_array();

		for (m = 0; m < p->nmixes; m++) {
			json_t *row = json_array();

			for (b = 0; b < p->nbs; b++)
				json_array_append_new(row,
						      json_real(pts_cell_at(p, pt, i, m, b)->iops));
			json_array_append_new(cells, row);
		}
		json_array_append_new(rounds,
				      json_pack("{s:i, s:f, s:o}", "round", i + 1, "tracked_iops",
						pts_tracked(p, pt, i), "iops", cells));
	}
	pts_bs_name(p->bs[p->tracked_bs], bs, sizeof(bs));
	snprintf(mix, sizeof(mix), "%u/%u", p->mixes[p->tracked_mix],
		 100 - p->mixes[p->tracked_mix]);
	pts_json_common(p, doc);
	pts_json_part(p, pt, r->stopped, doc);
	json_object_set_new(doc, "tracked", json_pack("{s:s, s:s}", "mix", mix, "bs", bs));
	json_object_set_new(doc, "rounds", rounds);
	json_object_set_new(doc, "table", pts_json_table(p, pt, iops_of, false));
	pts_json_finish(doc, out);
}
