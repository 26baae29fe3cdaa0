/* SPDX-License-Identifier: MIT */
/*
 * What iogauge pts prints: PTS's table (the steady-state window's mean
 * IOPS per read/write mix and block size), the tracked value of every
 * round and the decision, as text or JSON; and the steady-state plot
 * (the tracked values by round, the window's average, 110% and 90% of
 * it and the least-squares line), drawn by sweep/svg.c.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pts/pts.h"
#include "report/output.h"
#include "sweep/sweep.h"

static double at(const struct pts_plan *p, const struct pts_result *r, unsigned round, unsigned m,
		 unsigned b)
{
	return r->iops[((size_t)round * p->nmixes + m) * p->nbs + b];
}

static double tracked(const struct pts_plan *p, const struct pts_result *r, unsigned round)
{
	return at(p, r, round, p->tracked_mix, p->tracked_bs);
}

/* The mean of cell (@m, @b) over the window. */
static double window_mean(const struct pts_plan *p, const struct pts_result *r, unsigned m,
			  unsigned b)
{
	double sum = 0;
	unsigned i;

	for (i = r->window_first; i < r->rounds; i++)
		sum += at(p, r, i, m, b);
	return r->rounds > r->window_first ? sum / (r->rounds - r->window_first) : 0;
}

static const char *decision(const struct pts_plan *p, const struct pts_result *r)
{
	if (r->ss.steady)
		return "reached";
	if (r->stopped)
		return "not reached (stopped)";
	if (r->rounds < p->max_rounds)
		return "not reached (the run failed)";
	return "not reached";
}

void pts_print_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	char bs[32];
	unsigned i, m, b;

	strbuf_addf(out, "iogauge pts iops %s: %llu bytes, logical block %u bytes\n", p->device,
		    (unsigned long long)p->capacity, p->lbs);
	strbuf_addf(out, "purge: %s\n", r->purge_note ? r->purge_note : "not done");
	if (!p->precondition_loops)
		strbuf_adds(out, "precondition: none (--precondition-loops=0)\n");
	else
		strbuf_addf(out, "precondition: %s%u x %llu bytes of 128k sequential writes\n",
			    r->preconditioned ? "" : "NOT DONE: ", p->precondition_loops,
			    (unsigned long long)p->capacity);
	pts_bs_name(p->bs[p->tracked_bs], bs, sizeof(bs));
	strbuf_addf(out, "cells: random I/O, %.3f s each, iodepth %u, %s\n",
		    (double)p->cell_ns / 1e9, p->iodepth, p->ioengine);
	strbuf_addf(out, "\nround  tracked IOPS (%u/%u %s)\n", p->mixes[p->tracked_mix],
		    100 - p->mixes[p->tracked_mix], bs);
	for (i = 0; i < r->rounds; i++)
		strbuf_addf(out, "%5u  %12.0f%s\n", i + 1, tracked(p, r, i),
			    i >= r->window_first ? "  (window)" : "");
	strbuf_addf(out, "\nsteady state: %s after %u round%s (at most %u)\n", decision(p, r),
		    r->rounds, r->rounds == 1 ? "" : "s", p->max_rounds);
	if (!r->rounds)
		return;
	strbuf_addf(out,
		    "window rounds %u-%u: "
		    "average %.0f IOPS, range %.0f (%.1f%%, at most %g%%),\n"
		    "  slope excursion %.0f (%.1f%%, at most %g%%)\n",
		    r->window_first + 1, r->rounds, r->ss.avg, r->ss.range, r->ss.range_pct,
		    p->range_pct, r->ss.excursion, r->ss.excursion_pct, p->excursion_pct);
	strbuf_addf(out, "\nIOPS, the mean over the window (rounds %u-%u)\n", r->window_first + 1,
		    r->rounds);
	strbuf_adds(out, "R/W mix ");
	for (b = 0; b < p->nbs; b++) {
		pts_bs_name(p->bs[b], bs, sizeof(bs));
		strbuf_addf(out, " %10s", bs);
	}
	strbuf_addc(out, '\n');
	for (m = 0; m < p->nmixes; m++) {
		char mix[16];

		snprintf(mix, sizeof(mix), "%u/%u", p->mixes[m], 100 - p->mixes[m]);
		strbuf_addf(out, "%-8s", mix);
		for (b = 0; b < p->nbs; b++)
			strbuf_addf(out, " %10.0f", window_mean(p, r, m, b));
		strbuf_addc(out, '\n');
	}
}

void pts_print_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	json_t *doc = json_object(), *mixes = json_array(), *bss = json_array(),
	       *rounds = json_array(), *table = json_array(), *ss;
	char bs[32], mix[16];
	unsigned i, m, b;
	char *text;

	for (m = 0; m < p->nmixes; m++) {
		snprintf(mix, sizeof(mix), "%u/%u", p->mixes[m], 100 - p->mixes[m]);
		json_array_append_new(mixes, json_string(mix));
	}
	for (b = 0; b < p->nbs; b++) {
		pts_bs_name(p->bs[b], bs, sizeof(bs));
		json_array_append_new(bss, json_string(bs));
	}
	for (i = 0; i < r->rounds; i++) {
		json_t *cells = json_array();

		for (m = 0; m < p->nmixes; m++) {
			json_t *row = json_array();

			for (b = 0; b < p->nbs; b++)
				json_array_append_new(row, json_real(at(p, r, i, m, b)));
			json_array_append_new(cells, row);
		}
		json_array_append_new(rounds,
				      json_pack("{s:i, s:f, s:o}", "round", i + 1, "tracked_iops",
						tracked(p, r, i), "iops", cells));
	}
	for (m = 0; m < p->nmixes && r->rounds; m++) {
		json_t *row = json_array();

		for (b = 0; b < p->nbs; b++)
			json_array_append_new(row, json_real(window_mean(p, r, m, b)));
		json_array_append_new(table, row);
	}
	ss = json_pack("{s:b, s:s, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "reached",
		       r->ss.steady, "decision", decision(p, r), "window_first_round",
		       r->window_first + 1, "window_last_round", r->rounds, "average", r->ss.avg,
		       "range", r->ss.range, "range_pct", r->ss.range_pct, "range_limit_pct",
		       p->range_pct, "slope", r->ss.slope, "excursion", r->ss.excursion,
		       "excursion_pct", r->ss.excursion_pct, "excursion_limit_pct",
		       p->excursion_pct);
	pts_bs_name(p->bs[p->tracked_bs], bs, sizeof(bs));
	snprintf(mix, sizeof(mix), "%u/%u", p->mixes[p->tracked_mix],
		 100 - p->mixes[p->tracked_mix]);
	json_object_set_new(doc, "test", json_string("iops"));
	json_object_set_new(doc, "device", json_string(p->device));
	json_object_set_new(doc, "capacity_bytes", json_integer((json_int_t)p->capacity));
	json_object_set_new(doc, "logical_block_size", json_integer(p->lbs));
	json_object_set_new(doc, "purge",
			    json_pack("{s:b, s:s}", "done", r->purged, "how",
				      r->purge_note ? r->purge_note : "not done"));
	json_object_set_new(doc, "precondition",
			    json_pack("{s:b, s:i, s:i, s:I}", "done", r->preconditioned, "loops",
				      p->precondition_loops, "bs", 131072, "bytes_written",
				      (json_int_t)p->capacity * p->precondition_loops));
	json_object_set_new(doc, "cell_time_s", json_real((double)p->cell_ns / 1e9));
	json_object_set_new(doc, "iodepth", json_integer(p->iodepth));
	json_object_set_new(doc, "ioengine", json_string(p->ioengine));
	json_object_set_new(doc, "max_rounds", json_integer(p->max_rounds));
	json_object_set_new(doc, "mixes", mixes);
	json_object_set_new(doc, "bs", bss);
	json_object_set_new(doc, "tracked", json_pack("{s:s, s:s}", "mix", mix, "bs", bs));
	json_object_set_new(doc, "rounds", rounds);
	json_object_set_new(doc, "steady_state", ss);
	json_object_set_new(doc, "table", table);
	text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	strbuf_adds(out, text);
	strbuf_addc(out, '\n');
	free(text);
	json_decref(doc);
}

int pts_plot_write(const struct pts_plan *p, const struct pts_result *r, const char *dir,
		   char **cause)
{
	struct output o = { .path = NULL, .fd = -1 };
	struct sweep_series s[5];
	struct strbuf sb = { 0 };
	double *x, *y, *avg, *hi, *lo, *fit;
	unsigned n = r->rounds, w = n - r->window_first, i;
	char *path, label[64];
	int ret;

	/* The label is drawn right of its point: at the window's start it
	 * stays clear of the legend. */
	snprintf(label, sizeof(label), "steady state: rounds %u-%u", r->window_first + 1, n);
	x = xcalloc(n + 1, sizeof(double));
	y = xcalloc(n + 1, sizeof(double));
	avg = xcalloc(n + 1, sizeof(double));
	hi = xcalloc(n + 1, sizeof(double));
	lo = xcalloc(n + 1, sizeof(double));
	fit = xcalloc(n + 1, sizeof(double));
	for (i = 0; i < n; i++) {
		x[i] = i + 1;
		y[i] = tracked(p, r, i);
	}
	/* The window's lines: the fit passes through the mean at its middle. */
	for (i = 0; i < w; i++) {
		double mid = (w - 1) / 2.0;

		avg[i] = r->ss.avg;
		hi[i] = 1.1 * r->ss.avg;
		lo[i] = 0.9 * r->ss.avg;
		fit[i] = r->ss.avg + r->ss.slope * (i - mid);
	}
	s[0] = (struct sweep_series){ .name = "tracked IOPS",
				      .x = x,
				      .y = y,
				      .n = n,
				      .mark = r->ss.steady ? (int)r->window_first : -1,
				      .mark_label = label };
	s[1] = (struct sweep_series){
		.name = "window average", .x = x + r->window_first, .y = avg, .n = w, .mark = -1
	};
	s[2] = (struct sweep_series){
		.name = "110% of average", .x = x + r->window_first, .y = hi, .n = w, .mark = -1
	};
	s[3] = (struct sweep_series){
		.name = "90% of average", .x = x + r->window_first, .y = lo, .n = w, .mark = -1
	};
	s[4] = (struct sweep_series){
		.name = "least-squares fit", .x = x + r->window_first, .y = fit, .n = w, .mark = -1
	};
	sweep_svg(&sb, "PTS IOPS steady state (4k random writes)", "round", "IOPS", false, s, 5);
	path = xasprintf("%s/steady-state.svg", dir);
	ret = output_open(&o, path, cause);
	if (!ret)
		ret = output_commit(&o, sb.buf, sb.len, cause);
	output_abandon(&o);
	free(path);
	strbuf_free(&sb);
	free(x);
	free(y);
	free(avg);
	free(hi);
	free(lo);
	free(fit);
	return ret;
}
