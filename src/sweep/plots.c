/* SPDX-License-Identifier: MIT */
/*
 * The files of sweep --plot DIR: iops.svg (IOPS against the first axis),
 * latency.svg (p99 against IOPS: the hockey stick), both with the knee
 * marked, and bandwidth.svg (MB/s against the block size, the crossover
 * marked; against the first axis when no axis is the block size).  Each
 * is written whole to a temporary and renamed (report/output.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/output.h"
#include "sweep/sweep.h"

enum plot_kind { PLOT_IOPS, PLOT_LAT, PLOT_BW };

static bool axis_logx(const struct sweep_axis *a)
{
	double lo = INFINITY, hi = 0;
	unsigned i;

	if (!a->numeric)
		return false;
	for (i = 0; i < a->n; i++) {
		lo = fmin(lo, a->x[i]);
		hi = fmax(hi, a->x[i]);
	}
	return lo > 0 && hi / lo >= 8;
}

static void plot_make(const struct sweep_result *r, enum plot_kind kind, unsigned along,
		      struct strbuf *sb)
{
	const struct sweep_axis *ax = &r->axes[along];
	bool cross = (int)along == r->bs_axis;
	struct sweep_series *s;
	struct sweep_line *lines;
	double *xs, *ys;
	char **names, **labels;
	unsigned nl, i, k, a;

	lines = sweep_lines(r, along, &nl);
	s = xcalloc(nl + 1, sizeof(*s));
	names = xcalloc(nl + 1, sizeof(*names));
	labels = xcalloc(nl + 1, sizeof(*labels));
	xs = xcalloc((size_t)nl * ax->n + 1, sizeof(double));
	ys = xcalloc((size_t)nl * ax->n + 1, sizeof(double));
	for (i = 0; i < nl; i++) {
		const struct sweep_line *l = &lines[i];
		struct strbuf name = { 0 };
		unsigned n = 0;
		int mark;

		for (k = 0; k < l->n && l->first + k * l->stride < r->done; k++) {
			const struct sweep_metrics *m = &r->avg[l->first + k * l->stride];

			xs[i * ax->n + k] = kind == PLOT_LAT ? m->iops : ax->x[k];
			ys[i * ax->n + k] = kind == PLOT_IOPS  ? m->iops
					    : kind == PLOT_LAT ? m->p99 / 1e3
							       : m->bw / 1e6;
			n++;
		}
		for (a = 0; a < r->naxes; a++) {
			if (a == along)
				continue;
			strbuf_addf(&name, "%s%s=%s", name.len ? " " : "", r->axes[a].name,
				    r->axes[a].vals[sweep_value_of(r, l->first, a)]);
		}
		if (!name.len)
			strbuf_adds(&name, kind == PLOT_LAT    ? "p99"
					   : kind == PLOT_IOPS ? "IOPS"
							       : "MB/s");
		mark = cross ? sweep_line_crossover(r, l, -1)
			     : (r->bs_axis == (int)along ? -1 : sweep_line_knee(r, l, -1));
		names[i] = strbuf_detach(&name);
		labels[i] = mark < 0 ? NULL
				     : xasprintf("%s %s=%s", cross ? "crossover" : "knee", ax->name,
						 ax->vals[mark]);
		s[i] = (struct sweep_series){ .name = names[i],
					      .x = &xs[i * ax->n],
					      .y = &ys[i * ax->n],
					      .n = n,
					      .mark = mark,
					      .mark_label = labels[i] };
	}
	if (kind == PLOT_IOPS)
		sweep_svg(sb, "IOPS", ax->name, "IOPS", axis_logx(ax), s, nl);
	else if (kind == PLOT_LAT)
		sweep_svg(sb, "p99 completion latency against IOPS", "IOPS", "p99 latency (us)",
			  false, s, nl);
	else
		sweep_svg(sb, "Bandwidth", ax->name, "MB/s", axis_logx(ax), s, nl);
	for (i = 0; i < nl; i++) {
		free(names[i]);
		free(labels[i]);
	}
	free(names);
	free(labels);
	free(xs);
	free(ys);
	free(s);
	free(lines);
}

static int plot_file(const char *dir, const char *file, const struct strbuf *sb, char **cause)
{
	struct output o = { .path = NULL, .fd = -1 };
	char *path = xasprintf("%s/%s", dir, file);
	int ret = output_open(&o, path, cause);

	if (!ret)
		ret = output_commit(&o, sb->buf, sb->len, cause);
	output_abandon(&o);
	free(path);
	/* output's messages name --output=; this file is --plot's. */
	if (ret && *cause && !strncmp(*cause, "--output=", 9)) {
		char *was = *cause;

		*cause = xasprintf("--plot: %s", was + 9);
		free(was);
	}
	return ret;
}

int sweep_plots_write(const struct sweep_result *r, const char *dir, char **cause)
{
	static const char *const files[] = { "iops.svg", "latency.svg", "bandwidth.svg" };
	unsigned k;
	int ret = 0;

	for (k = 0; k < 3 && !ret; k++) {
		struct strbuf sb = { 0 };

		plot_make(r, (enum plot_kind)k,
			  k == PLOT_BW && r->bs_axis >= 0 ? (unsigned)r->bs_axis : 0, &sb);
		ret = plot_file(dir, files[k], &sb, cause);
		strbuf_free(&sb);
	}
	return ret;
}
