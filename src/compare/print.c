/* SPDX-License-Identifier: MIT */
/*
 * iogauge compare's tables as text (aligned columns, one block per B) or
 * as one JSON document.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/cmp_stats.h"
#include "compare/compare.h"
#include "report/json.h"

const char *const cmp_dir_names[3] = { "read", "write", "trim" };

static void pct_of(char *buf, size_t n, double ratio)
{
	snprintf(buf, n, "%+.1f%%", (ratio - 1) * 100);
}

void cmp_row_cells(const struct cmp_row *r, struct cmp_cells *c)
{
	int dec = !strcmp(r->unit, "us") || !strcmp(r->unit, "MiB/s") ? 2 : 1;

	snprintf(c->a, sizeof(c->a), "%.*f", dec, r->a);
	snprintf(c->b, sizeof(c->b), "%.*f", dec, r->b);
	pct_of(c->change, sizeof(c->change), r->ratio);
	if (r->lo == 0 && r->hi == 0) {
		snprintf(c->interval, sizeof(c->interval), "-");
	} else {
		char lo[24], hi[24];

		pct_of(lo, sizeof(lo), r->lo);
		pct_of(hi, sizeof(hi), r->hi);
		snprintf(c->interval, sizeof(c->interval), "[%s, %s]", lo, hi);
	}
}

void cmp_print_text(const struct cmp_table *t, unsigned nr, struct strbuf *out)
{
	unsigned k, i;
	size_t jw;

	for (k = 0; k < nr; k++) {
		const struct cmp_table *tb = &t[k];

		if (k)
			strbuf_addc(out, '\n');
		strbuf_addf(out, "A: %s\nB: %s\n", tb->a_path, tb->b_path);
		strbuf_addf(out,
			    "change is B against A; the interval is its 95%% confidence interval; "
			    "differences within %.1f%% count as the same\n\n",
			    tb->threshold * 100);
		for (i = 0, jw = 4; i < tb->nr; i++)
			if (strlen(tb->rows[i].job) + 2 > jw)
				jw = strlen(tb->rows[i].job) + 2;
		strbuf_addf(out, "%-*s%-7s%-13s%-7s%-13s%-13s%-9s%-20s%-14s%s\n", (int)jw, "job",
			    "dir", "metric", "unit", "A", "B", "change", "95% interval", "verdict",
			    "how");
		for (i = 0; i < tb->nr; i++) {
			const struct cmp_row *r = &tb->rows[i];
			struct cmp_cells c;

			cmp_row_cells(r, &c);
			strbuf_addf(out, "%-*s%-7s%-13s%-7s%-13s%-13s%-9s%-20s%-14s%s\n", (int)jw,
				    r->job, cmp_dir_names[r->dir], r->metric, r->unit, c.a, c.b,
				    c.change, c.interval, cmp_verdict_names[r->verdict], r->how);
		}
		/* The same run on both sides (a bundle and its own report): say so. */
		for (i = 0; i < tb->nr && tb->rows[i].a == tb->rows[i].b; i++)
			;
		if (tb->nr && i == tb->nr)
			strbuf_adds(out, "\nno difference: every figure of B is A's\n");
	}
	strbuf_addf(out,
		    "\njson+ latency bins are read as fio writes them: each value known to "
		    "within %.1f%%, which the percentile intervals include.\n",
		    CMP_BIN_ERR * 100);
}

void cmp_print_json(const struct cmp_table *t, unsigned nr, struct strbuf *out)
{
	struct json j;
	unsigned k, i;

	json_init(&j, out);
	json_open(&j, NULL, '{');
	json_dbl(&j, "bin_error_pct", CMP_BIN_ERR * 100);
	json_open(&j, "comparisons", '[');
	for (k = 0; k < nr; k++) {
		const struct cmp_table *tb = &t[k];

		json_open(&j, NULL, '{');
		json_str(&j, "a", tb->a_path);
		json_str(&j, "b", tb->b_path);
		json_dbl(&j, "threshold_pct", tb->threshold * 100);
		json_open(&j, "rows", '[');
		for (i = 0; i < tb->nr; i++) {
			const struct cmp_row *r = &tb->rows[i];
			bool iv = r->lo != 0 || r->hi != 0;

			json_open(&j, NULL, '{');
			json_str(&j, "job", r->job);
			json_str(&j, "direction", cmp_dir_names[r->dir]);
			json_str(&j, "metric", r->metric);
			json_str(&j, "unit", r->unit);
			json_dbl(&j, "a", r->a);
			json_dbl(&j, "b", r->b);
			json_dbl(&j, "ratio", r->ratio);
			json_dbl(&j, "change_pct", (r->ratio - 1) * 100);
			if (iv) {
				json_dbl(&j, "ratio_low", r->lo);
				json_dbl(&j, "ratio_high", r->hi);
			}
			json_str(&j, "verdict", cmp_verdict_names[r->verdict]);
			json_str(&j, "method", r->how);
			json_close(&j, '}');
		}
		json_close(&j, ']');
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_close(&j, '}');
	strbuf_addc(out, '\n');
}
