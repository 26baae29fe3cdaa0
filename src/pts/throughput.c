/* SPDX-License-Identifier: MIT */
/*
 * The throughput test's report: for each block size (a part: its own
 * purge and preconditioning), every round's MB/s of each mix with the
 * tracked one (0/100, sequential writes), the decision, and PTS's table:
 * the window's mean MB/s per mix.  MB is 10^6 bytes; the JSON keeps
 * bytes/s.
 */
#include <jansson.h>
#include <stdio.h>

#include "pts/pts.h"

static double bw_of(const struct pts_cell *c)
{
	return c->bw;
}

static void part_text(const struct pts_plan *p, const struct pts_part *pt, bool stopped,
		      struct strbuf *out)
{
	static const struct pts_unit u = { "MB/s", 1e6, 1 };
	char bs[32], mix[16];
	unsigned i, m;

	pts_bs_name(p->bs[pt->bs_first], bs, sizeof(bs));
	strbuf_addf(out, "\nblock size %s\n", bs);
	pts_print_prep(p, pt, out);
	strbuf_adds(out, "\nround ");
	for (m = 0; m < p->nmixes; m++) {
		snprintf(mix, sizeof(mix), "%u/%u", p->mixes[m], 100 - p->mixes[m]);
		strbuf_addf(out, " %10s", mix);
	}
	strbuf_adds(out, "  MB/s\n");
	for (i = 0; i < pt->rounds; i++) {
		strbuf_addf(out, "%5u ", i + 1);
		for (m = 0; m < p->nmixes; m++)
			strbuf_addf(out, " %10.1f", pts_cell_at(p, pt, i, m, 0)->bw / 1e6);
		strbuf_adds(out, i >= pt->window_first ? "  (window)\n" : "\n");
	}
	pts_print_steady(p, pt, stopped, &u, out);
	if (!pt->rounds)
		return;
	strbuf_addf(out, "\nMB/s, the mean over the window (rounds %u-%u)\n", pt->window_first + 1,
		    pt->rounds);
	pts_print_table(p, pt, bw_of, false, 1e6, 1, out);
}

void pts_throughput_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	char mix[16];
	unsigned k;

	snprintf(mix, sizeof(mix), "%u/%u", p->mixes[p->tracked_mix],
		 100 - p->mixes[p->tracked_mix]);
	strbuf_addf(out, "iogauge pts throughput %s: %llu bytes, logical block %u bytes\n",
		    p->device, (unsigned long long)p->capacity, p->lbs);
	strbuf_addf(out,
		    "cells: sequential I/O, %.3f s each, iodepth %u, %s; tracked: %s MB/s "
		    "(1 MB = 10^6 bytes)\n",
		    (double)p->cell_ns / 1e9, p->iodepth, p->ioengine, mix);
	for (k = 0; k < r->nparts; k++)
		part_text(p, &r->parts[k], r->stopped && k + 1 == r->nparts, out);
}

void pts_throughput_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	json_t *doc = json_object(), *parts = json_array();
	char bs[32], mix[16];
	unsigned i, k, m;

	for (k = 0; k < r->nparts; k++) {
		const struct pts_part *pt = &r->parts[k];
		json_t *o = json_object(), *rounds = json_array();

		for (i = 0; i < pt->rounds; i++) {
			json_t *cells = json_array();

			for (m = 0; m < p->nmixes; m++)
				json_array_append_new(cells,
						      pts_json_cell(pts_cell_at(p, pt, i, m, 0)));
			json_array_append_new(rounds,
					      json_pack("{s:i, s:f, s:o}", "round", i + 1,
							"tracked_bw_bytes", pts_tracked(p, pt, i),
							"cells", cells));
		}
		pts_bs_name(p->bs[pt->bs_first], bs, sizeof(bs));
		json_object_set_new(o, "bs", json_string(bs));
		pts_json_part(p, pt, r->stopped && k + 1 == r->nparts, o);
		json_object_set_new(o, "rounds", rounds);
		/* A row a mix of one size: flattened to one value a mix. */
		json_object_set_new(o, "table_bw_bytes", json_array());
		for (m = 0; m < p->nmixes && pt->rounds; m++)
			json_array_append_new(json_object_get(o, "table_bw_bytes"),
					      json_real(pts_window_mean(p, pt, m, 0, bw_of)));
		json_array_append_new(parts, o);
	}
	snprintf(mix, sizeof(mix), "%u/%u", p->mixes[p->tracked_mix],
		 100 - p->mixes[p->tracked_mix]);
	pts_json_common(p, doc);
	json_object_set_new(doc, "tracked",
			    json_pack("{s:s, s:s}", "mix", mix, "value", "bw_bytes"));
	json_object_set_new(doc, "parts", parts);
	pts_json_finish(doc, out);
}
