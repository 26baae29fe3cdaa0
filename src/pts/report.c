/* SPDX-License-Identifier: MIT */
/*
 * What every PTS test's report shares: a part's purge, preconditioning
 * and steady-state decision as text and JSON, the window's means, the
 * run's common JSON members, and the steady-state plot of each part (the
 * tracked values by round, the window's average, 110% and 90% of it and
 * the least-squares line), drawn by sweep/svg.c.  The tests' own tables
 * are in iops.c, throughput.c and latency.c.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pts/pts.h"
#include "report/output.h"
#include "sweep/sweep.h"

double pts_window_mean(const struct pts_plan *p, const struct pts_part *pt, unsigned m, unsigned b,
		       double (*get)(const struct pts_cell *))
{
	double sum = 0;
	unsigned i;

	for (i = pt->window_first; i < pt->rounds; i++)
		sum += get(pts_cell_at(p, pt, i, m, b));
	return pt->rounds > pt->window_first ? sum / (pt->rounds - pt->window_first) : 0;
}

double pts_window_max(const struct pts_plan *p, const struct pts_part *pt, unsigned m, unsigned b,
		      double (*get)(const struct pts_cell *))
{
	double hi = 0;
	unsigned i;

	for (i = pt->window_first; i < pt->rounds; i++)
		hi = fmax(hi, get(pts_cell_at(p, pt, i, m, b)));
	return hi;
}

const char *pts_decision(const struct pts_plan *p, const struct pts_part *pt, bool stopped)
{
	if (pt->ss.steady)
		return "reached";
	if (stopped)
		return "not reached (stopped)";
	if (pt->rounds < p->max_rounds)
		return "not reached (the run failed)";
	return "not reached";
}

void pts_print_prep(const struct pts_plan *p, const struct pts_part *pt, struct strbuf *out)
{
	char bs[32];

	pts_bs_name(pt->precondition_bs, bs, sizeof(bs));
	strbuf_addf(out, "purge: %s\n", pt->purge_note ? pt->purge_note : "not done");
	if (!p->precondition_loops)
		strbuf_adds(out, "precondition: none (--precondition-loops=0)\n");
	else
		strbuf_addf(out, "precondition: %s%u x %llu bytes of %s sequential writes\n",
			    pt->preconditioned ? "" : "NOT DONE: ", p->precondition_loops,
			    (unsigned long long)p->capacity, bs);
}

void pts_print_steady(const struct pts_plan *p, const struct pts_part *pt, bool stopped,
		      const struct pts_unit *u, struct strbuf *out)
{
	const struct pts_steady *s = &pt->ss;

	strbuf_addf(out, "\nsteady state: %s after %u round%s (at most %u)\n",
		    pts_decision(p, pt, stopped), pt->rounds, pt->rounds == 1 ? "" : "s",
		    p->max_rounds);
	if (!pt->rounds)
		return;
	strbuf_addf(out,
		    "window rounds %u-%u: "
		    "average %.*f %s, range %.*f (%.1f%%, at most %g%%),\n"
		    "  slope excursion %.*f (%.1f%%, at most %g%%)\n",
		    pt->window_first + 1, pt->rounds, u->digits, s->avg / u->scale, u->unit,
		    u->digits, s->range / u->scale, s->range_pct, p->range_pct, u->digits,
		    s->excursion / u->scale, s->excursion_pct, p->excursion_pct);
}

void pts_print_table(const struct pts_plan *p, const struct pts_part *pt,
		     double (*get)(const struct pts_cell *), bool largest, double scale, int digits,
		     struct strbuf *out)
{
	char name[32];
	unsigned m, b;

	strbuf_adds(out, "R/W mix ");
	for (b = 0; b < pt->nbs; b++) {
		pts_bs_name(p->bs[pt->bs_first + b], name, sizeof(name));
		strbuf_addf(out, " %10s", name);
	}
	strbuf_addc(out, '\n');
	for (m = 0; m < p->nmixes; m++) {
		snprintf(name, sizeof(name), "%u/%u", p->mixes[m], 100 - p->mixes[m]);
		strbuf_addf(out, "%-8s", name);
		for (b = 0; b < pt->nbs; b++)
			strbuf_addf(out, " %10.*f", digits,
				    (largest ? pts_window_max : pts_window_mean)(p, pt, m, b, get) /
					    scale);
		strbuf_addc(out, '\n');
	}
}

json_t *pts_json_table(const struct pts_plan *p, const struct pts_part *pt,
		       double (*get)(const struct pts_cell *), bool largest)
{
	json_t *table = json_array();
	unsigned m, b;

	for (m = 0; m < p->nmixes && pt->rounds; m++) {
		json_t *row = json_array();

		for (b = 0; b < pt->nbs; b++)
			json_array_append_new(
				row, json_real((largest ? pts_window_max
							: pts_window_mean)(p, pt, m, b, get)));
		json_array_append_new(table, row);
	}
	return table;
}

json_t *pts_json_cell(const struct pts_cell *c)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I}", "iops", c->iops,
			 "bw_bytes", c->bw, "mean_ns", c->mean, "max_ns", c->max, "p99_99_ns",
			 c->p9999, "p99_999_ns", c->p99999, "ios", (json_int_t)c->ios, "read_bytes",
			 (json_int_t)c->rbytes, "write_bytes", (json_int_t)c->wbytes);
}

void pts_json_part(const struct pts_plan *p, const struct pts_part *pt, bool stopped, json_t *o)
{
	json_object_set_new(o, "purge",
			    json_pack("{s:b, s:s}", "done", pt->purged, "how",
				      pt->purge_note ? pt->purge_note : "not done"));
	json_object_set_new(o, "precondition",
			    json_pack("{s:b, s:i, s:I, s:I}", "done", pt->preconditioned, "loops",
				      p->precondition_loops, "bs", (json_int_t)pt->precondition_bs,
				      "bytes_written",
				      (json_int_t)p->capacity * p->precondition_loops));
	json_object_set_new(
		o, "steady_state",
		json_pack("{s:b, s:s, s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "reached",
			  pt->ss.steady, "decision", pts_decision(p, pt, stopped),
			  "window_first_round", pt->window_first + 1, "window_last_round",
			  pt->rounds, "average", pt->ss.avg, "range", pt->ss.range, "range_pct",
			  pt->ss.range_pct, "range_limit_pct", p->range_pct, "slope", pt->ss.slope,
			  "excursion", pt->ss.excursion, "excursion_pct", pt->ss.excursion_pct,
			  "excursion_limit_pct", p->excursion_pct));
}

void pts_json_common(const struct pts_plan *p, json_t *o)
{
	json_t *mixes = json_array(), *bss = json_array();
	char name[32];
	unsigned i;

	for (i = 0; i < p->nmixes; i++) {
		snprintf(name, sizeof(name), "%u/%u", p->mixes[i], 100 - p->mixes[i]);
		json_array_append_new(mixes, json_string(name));
	}
	for (i = 0; i < p->nbs; i++) {
		pts_bs_name(p->bs[i], name, sizeof(name));
		json_array_append_new(bss, json_string(name));
	}
	json_object_set_new(o, "test", json_string(pts_test_name(p->test)));
	json_object_set_new(o, "device", json_string(p->device));
	json_object_set_new(o, "capacity_bytes", json_integer((json_int_t)p->capacity));
	json_object_set_new(o, "logical_block_size", json_integer(p->lbs));
	json_object_set_new(o, "cell_time_s", json_real((double)p->cell_ns / 1e9));
	json_object_set_new(o, "iodepth", json_integer(p->iodepth));
	json_object_set_new(o, "ioengine", json_string(p->ioengine));
	json_object_set_new(o, "max_rounds", json_integer(p->max_rounds));
	json_object_set_new(o, "mixes", mixes);
	json_object_set_new(o, "bs", bss);
}

void pts_json_finish(json_t *o, struct strbuf *out)
{
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_REAL_PRECISION(10));

	strbuf_adds(out, text);
	strbuf_addc(out, '\n');
	free(text);
	json_decref(o);
}

void pts_print_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	if (p->test == PTS_THROUGHPUT)
		pts_throughput_text(p, r, out);
	else if (p->test == PTS_LATENCY)
		pts_latency_text(p, r, out);
	else
		pts_iops_text(p, r, out);
}

void pts_print_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out)
{
	if (p->test == PTS_THROUGHPUT)
		pts_throughput_json(p, r, out);
	else if (p->test == PTS_LATENCY)
		pts_latency_json(p, r, out);
	else
		pts_iops_json(p, r, out);
}

/* One part's plot, in @path. */
static int plot_part(const struct pts_plan *p, const struct pts_part *pt, const char *path,
		     const char *title, const char *name, const struct pts_unit *u, char **cause)
{
	struct output o = { .path = NULL, .fd = -1 };
	struct sweep_series s[5];
	struct strbuf sb = { 0 };
	double *x, *y, *avg, *hi, *lo, *fit;
	unsigned n = pt->rounds, w = n - pt->window_first, i;
	char label[64];
	int ret;

	/* The label is drawn right of its point: at the window's start it
	 * stays clear of the legend. */
	snprintf(label, sizeof(label), "steady state: rounds %u-%u", pt->window_first + 1, n);
	x = xcalloc(n + 1, sizeof(double));
	y = xcalloc(n + 1, sizeof(double));
	avg = xcalloc(n + 1, sizeof(double));
	hi = xcalloc(n + 1, sizeof(double));
	lo = xcalloc(n + 1, sizeof(double));
	fit = xcalloc(n + 1, sizeof(double));
	for (i = 0; i < n; i++) {
		x[i] = i + 1;
		y[i] = pts_tracked(p, pt, i) / u->scale;
	}
	/* The window's lines: the fit passes through the mean at its middle. */
	for (i = 0; i < w; i++) {
		double mid = (w - 1) / 2.0, a = pt->ss.avg / u->scale;

		avg[i] = a;
		hi[i] = 1.1 * a;
		lo[i] = 0.9 * a;
		fit[i] = a + pt->ss.slope / u->scale * (i - mid);
	}
	s[0] = (struct sweep_series){ .name = name,
				      .x = x,
				      .y = y,
				      .n = n,
				      .mark = pt->ss.steady ? (int)pt->window_first : -1,
				      .mark_label = label };
	s[1] = (struct sweep_series){
		.name = "window average", .x = x + pt->window_first, .y = avg, .n = w, .mark = -1
	};
	s[2] = (struct sweep_series){
		.name = "110% of average", .x = x + pt->window_first, .y = hi, .n = w, .mark = -1
	};
	s[3] = (struct sweep_series){
		.name = "90% of average", .x = x + pt->window_first, .y = lo, .n = w, .mark = -1
	};
	s[4] = (struct sweep_series){
		.name = "least-squares fit", .x = x + pt->window_first, .y = fit, .n = w, .mark = -1
	};
	sweep_svg(&sb, title, "round", u->unit, false, s, 5);
	ret = output_open(&o, path, cause);
	if (!ret)
		ret = output_commit(&o, sb.buf, sb.len, cause);
	output_abandon(&o);
	strbuf_free(&sb);
	free(x);
	free(y);
	free(avg);
	free(hi);
	free(lo);
	free(fit);
	return ret;
}

int pts_plot_write(const struct pts_plan *p, const struct pts_result *r, const char *dir,
		   char **cause)
{
	static const struct pts_unit iops = { "IOPS", 1, 0 }, mbs = { "MB/s", 1e6, 1 },
				     us = { "us", 1e3, 1 };
	unsigned k;
	int ret = 0;

	for (k = 0; k < r->nparts && !ret; k++) {
		const struct pts_part *pt = &r->parts[k];
		char bs[32], *path, *title;

		if (!pt->rounds)
			continue;
		pts_bs_name(p->bs[pt->bs_first], bs, sizeof(bs));
		if (p->test == PTS_THROUGHPUT) {
			path = xasprintf("%s/steady-state-%s.svg", dir, bs);
			title = xasprintf("PTS throughput steady state (%s sequential writes)", bs);
			ret = plot_part(p, pt, path, title, "tracked MB/s", &mbs, cause);
		} else if (p->test == PTS_LATENCY) {
			path = xasprintf("%s/steady-state.svg", dir);
			title = xstrdup("PTS latency steady state (4k random writes, mean)");
			ret = plot_part(p, pt, path, title, "tracked mean latency", &us, cause);
		} else {
			path = xasprintf("%s/steady-state.svg", dir);
			title = xstrdup("PTS IOPS steady state (4k random writes)");
			ret = plot_part(p, pt, path, title, "tracked IOPS", &iops, cause);
		}
		free(path);
		free(title);
	}
	return ret;
}
