/* SPDX-License-Identifier: MIT */
/*
 * A sweep's table: text for people, CSV (RFC 4180, a header row) and
 * JSON (libjansson) for programs, each with the knees and crossovers.
 * Pure: appends to a strbuf.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_stats.h"
#include "sweep/sweep.h"

void sweep_mean_ci(const double *v, unsigned n, double *mean, double *half)
{
	double s = 0, ss = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = n ? s / n : 0;
	*half = 0;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*half = cmp_t975(n - 1) * sqrt(ss / (n - 1)) / sqrt(n);
}

void sweep_add_us(struct strbuf *sb, double ns)
{
	strbuf_addf(sb, "%.2f", ns / 1000);
}

/* "iodepth=4 bs=4k" for point @p, the axis @skip left out (-1: none). */
static void point_name(const struct sweep_result *r, unsigned p, int skip, struct strbuf *sb)
{
	unsigned a;

	for (a = 0; a < r->naxes; a++) {
		if ((int)a == skip)
			continue;
		if (sb->len)
			strbuf_addc(sb, ' ');
		strbuf_addf(sb, "%s=%s", r->axes[a].name, r->axes[a].vals[sweep_value_of(r, p, a)]);
	}
}

/* The range of a line's knee (or crossover) over the repeats. */
static void over_repeats(const struct sweep_result *r, const struct sweep_line *l, bool cross,
			 int *lo, int *hi, unsigned *none)
{
	unsigned rep;

	*lo = -1;
	*hi = -1;
	*none = 0;
	for (rep = 0; rep < r->repeat; rep++) {
		int k = cross ? sweep_line_crossover(r, l, (int)rep)
			      : sweep_line_knee(r, l, (int)rep);

		if (k < 0) {
			(*none)++;
			continue;
		}
		if (*lo < 0 || k < *lo)
			*lo = k;
		if (k > *hi)
			*hi = k;
	}
}

static bool is_bs_axis(const struct sweep_result *r, unsigned a)
{
	return r->bs_axis == (int)a;
}

static void text_findings(const struct sweep_result *r, unsigned along, bool cross,
			  struct strbuf *out)
{
	const struct sweep_axis *ax = &r->axes[along];
	struct sweep_line *lines;
	unsigned nl, i;

	lines = sweep_lines(r, along, &nl);
	for (i = 0; i < nl; i++) {
		const struct sweep_line *l = &lines[i];
		struct strbuf fixed = { 0 };
		int k = cross ? sweep_line_crossover(r, l, -1) : sweep_line_knee(r, l, -1);

		point_name(r, l->first, (int)along, &fixed);
		strbuf_addf(out, "%s along %s%s%s%s: ", cross ? "crossover" : "knee", ax->name,
			    fixed.len ? " (" : "", fixed.len ? fixed.buf : "",
			    fixed.len ? ")" : "");
		strbuf_free(&fixed);
		if (k < 0) {
			if (cross)
				strbuf_addf(out,
					    "none (no step after which bandwidth stays within "
					    "+%g%% while it grew before)\n",
					    r->cross_bw);
			else
				strbuf_addf(out,
					    "none (no step where IOPS grew under %g%% while p99 "
					    "grew over %g%% and stayed flat after)\n",
					    r->knee_gain, r->knee_lat);
		} else {
			const struct sweep_metrics *m = &r->avg[l->first + (unsigned)k * l->stride];

			strbuf_addf(out, "%s=%s: %.0f IOPS, %.2f MB/s, p99 ", ax->name, ax->vals[k],
				    m->iops, m->bw / 1e6);
			sweep_add_us(out, m->p99);
			strbuf_adds(out, " us");
			if ((unsigned)k + 1 < l->n) {
				const struct sweep_metrics *n =
					&r->avg[l->first + (unsigned)(k + 1) * l->stride];

				strbuf_addf(out, "; at %s=%s: IOPS %+.1f%%, %s %+.1f%%", ax->name,
					    ax->vals[k + 1],
					    m->iops > 0 ? (n->iops / m->iops - 1) * 100 : 0,
					    cross ? "MB/s" : "p99",
					    cross ? (m->bw > 0 ? (n->bw / m->bw - 1) * 100 : 0)
						  : (m->p99 > 0 ? (n->p99 / m->p99 - 1) * 100 : 0));
			}
			strbuf_addc(out, '\n');
		}
		if (r->repeat > 1) {
			int lo, hi;
			unsigned none;

			over_repeats(r, l, cross, &lo, &hi, &none);
			strbuf_addf(out, "  over the %u repeats: ", r->repeat);
			if (lo >= 0)
				strbuf_addf(out, "%s=%s..%s", ax->name, ax->vals[lo], ax->vals[hi]);
			if (none)
				strbuf_addf(out, "%snone in %u", lo >= 0 ? ", " : "", none);
			strbuf_addc(out, '\n');
		}
	}
	free(lines);
}

void sweep_print_text(const struct sweep_result *r, struct strbuf *out)
{
	unsigned a, p;

	for (a = 0; a < r->naxes; a++)
		strbuf_addf(out, "%-10s ", r->axes[a].name);
	strbuf_addf(out, "%22s %10s %10s %10s %10s %10s %10s\n",
		    r->repeat > 1 ? "IOPS (95% CI)" : "IOPS", "MB/s", "mean(us)", "p50(us)",
		    "p99(us)", "p99.9(us)", "CPU/IO(us)");
	for (p = 0; p < r->done; p++) {
		const struct sweep_metrics *m = &r->avg[p];
		struct strbuf cell = { 0 };

		for (a = 0; a < r->naxes; a++)
			strbuf_addf(out, "%-10s ", r->axes[a].vals[sweep_value_of(r, p, a)]);
		strbuf_addf(&cell, "%.0f", m->iops);
		if (r->repeat > 1)
			strbuf_addf(&cell, " +-%.0f", r->iops_ci[p]);
		strbuf_addf(out, "%22s %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f\n", cell.buf,
			    m->bw / 1e6, m->mean / 1e3, m->p50 / 1e3, m->p99 / 1e3, m->p999 / 1e3,
			    m->cpu_per_io / 1e3);
		strbuf_free(&cell);
	}
	if (!is_bs_axis(r, 0))
		text_findings(r, 0, false, out);
	if (r->bs_axis >= 0)
		text_findings(r, (unsigned)r->bs_axis, true, out);
}

static void csv_cell(struct strbuf *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		strbuf_adds(out, s);
		return;
	}
	strbuf_addc(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addc(out, '"');
		strbuf_addc(out, *s);
	}
	strbuf_addc(out, '"');
}

/* Whether point @p is the knee (crossover) of its line. */
static bool point_is(const struct sweep_result *r, unsigned p, bool cross)
{
	unsigned along = cross ? (unsigned)r->bs_axis : 0, nl, i;
	struct sweep_line *lines;
	bool yes = false;

	if (cross ? r->bs_axis < 0 : is_bs_axis(r, 0))
		return false;
	lines = sweep_lines(r, along, &nl);
	for (i = 0; i < nl && !yes; i++) {
		int k = cross ? sweep_line_crossover(r, &lines[i], -1)
			      : sweep_line_knee(r, &lines[i], -1);

		yes = k >= 0 && lines[i].first + (unsigned)k * lines[i].stride == p;
	}
	free(lines);
	return yes;
}

void sweep_print_csv(const struct sweep_result *r, struct strbuf *out)
{
	unsigned a, p;

	for (a = 0; a < r->naxes; a++) {
		csv_cell(out, r->axes[a].name);
		strbuf_addc(out, ',');
	}
	strbuf_adds(out,
		    "repeats,iops,iops_ci95,bw_bytes,mb_s,lat_mean_us,p50_us,p99_us,p99_ci95_us,"
		    "p99.9_us,cpu_per_io_us,knee,crossover\r\n");
	for (p = 0; p < r->done; p++) {
		const struct sweep_metrics *m = &r->avg[p];

		for (a = 0; a < r->naxes; a++) {
			csv_cell(out, r->axes[a].vals[sweep_value_of(r, p, a)]);
			strbuf_addc(out, ',');
		}
		strbuf_addf(out, "%u,%.3f,%.3f,%.0f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d\r\n",
			    r->repeat, m->iops, r->iops_ci[p], m->bw, m->bw / 1e6, m->mean / 1e3,
			    m->p50 / 1e3, m->p99 / 1e3, r->p99_ci[p] / 1e3, m->p999 / 1e3,
			    m->cpu_per_io / 1e3, point_is(r, p, false), point_is(r, p, true));
	}
}

static json_t *metrics_json(const struct sweep_metrics *m)
{
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I}", "iops", m->iops, "bw_bytes",
			 m->bw, "lat_mean_ns", m->mean, "p50_ns", m->p50, "p99_ns", m->p99,
			 "p99.9_ns", m->p999, "cpu_per_io_ns", m->cpu_per_io, "ios",
			 (json_int_t)m->ios);
}

static json_t *findings_json(const struct sweep_result *r, unsigned along, bool cross)
{
	const struct sweep_axis *ax = &r->axes[along];
	json_t *arr = json_array();
	struct sweep_line *lines;
	unsigned nl, i, a;

	lines = sweep_lines(r, along, &nl);
	for (i = 0; i < nl; i++) {
		const struct sweep_line *l = &lines[i];
		int k = cross ? sweep_line_crossover(r, l, -1) : sweep_line_knee(r, l, -1);
		json_t *o = json_object(), *fixed = json_object();

		for (a = 0; a < r->naxes; a++)
			if (a != along)
				json_object_set_new(
					fixed, r->axes[a].name,
					json_string(
						r->axes[a].vals[sweep_value_of(r, l->first, a)]));
		json_object_set_new(o, "along", json_string(ax->name));
		json_object_set_new(o, "fixed", fixed);
		json_object_set_new(o, "value", k < 0 ? json_null() : json_string(ax->vals[k]));
		json_object_set_new(o, "point",
				    k < 0 ? json_null()
					  : json_integer(l->first + (unsigned)k * l->stride));
		if (k >= 0)
			json_object_set_new(
				o, "figures",
				metrics_json(&r->avg[l->first + (unsigned)k * l->stride]));
		if (r->repeat > 1) {
			int lo, hi;
			unsigned none;

			over_repeats(r, l, cross, &lo, &hi, &none);
			json_object_set_new(o, "repeats_lowest",
					    lo < 0 ? json_null() : json_string(ax->vals[lo]));
			json_object_set_new(o, "repeats_highest",
					    hi < 0 ? json_null() : json_string(ax->vals[hi]));
			json_object_set_new(o, "repeats_none", json_integer(none));
		}
		json_array_append_new(arr, o);
	}
	free(lines);
	return arr;
}

void sweep_print_json(const struct sweep_result *r, struct strbuf *out)
{
	json_t *doc = json_object(), *axes = json_array(), *points = json_array();
	unsigned a, p, rep;
	char *text;

	for (a = 0; a < r->naxes; a++) {
		json_t *vals = json_array();
		unsigned v;

		for (v = 0; v < r->axes[a].n; v++)
			json_array_append_new(vals, json_string(r->axes[a].vals[v]));
		json_array_append_new(
			axes, json_pack("{s:s, s:o}", "name", r->axes[a].name, "values", vals));
	}
	for (p = 0; p < r->done; p++) {
		json_t *o = json_object(), *set = json_object(), *runs = json_array();

		for (a = 0; a < r->naxes; a++)
			json_object_set_new(set, r->axes[a].name,
					    json_string(r->axes[a].vals[sweep_value_of(r, p, a)]));
		json_object_set_new(o, "set", set);
		json_t *mj = metrics_json(&r->avg[p]);

		json_object_update(o, mj);
		json_decref(mj);
		json_object_set_new(o, "iops_ci95", json_real(r->iops_ci[p]));
		json_object_set_new(o, "p99_ci95_ns", json_real(r->p99_ci[p]));
		for (rep = 0; rep < r->repeat; rep++)
			json_array_append_new(runs, metrics_json(&r->m[p * r->repeat + rep]));
		json_object_set_new(o, "runs", runs);
		json_array_append_new(points, o);
	}
	json_object_set_new(doc, "axes", axes);
	json_object_set_new(doc, "repeat", json_integer(r->repeat));
	json_object_set_new(doc, "rules",
			    json_pack("{s:f, s:f, s:f}", "knee_iops_gain_pct", r->knee_gain,
				      "knee_p99_growth_pct", r->knee_lat, "crossover_bw_gain_pct",
				      r->cross_bw));
	json_object_set_new(doc, "points", points);
	json_object_set_new(doc, "knees",
			    is_bs_axis(r, 0) ? json_array() : findings_json(r, 0, false));
	json_object_set_new(doc, "crossovers",
			    r->bs_axis < 0 ? json_array()
					   : findings_json(r, (unsigned)r->bs_axis, true));
	text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	strbuf_adds(out, text);
	strbuf_addc(out, '\n');
	free(text);
	json_decref(doc);
}
