/* SPDX-License-Identifier: MIT */
/*
 * iogauge compare's command line: the flags, the reports read, the table
 * written where --output says.  Returns the exit status for main.c:
 * 0, 1 (the output could not be written), 2 (bad input: nothing written).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "jobfile/units.h"
#include "report/output.h"

static const char usage[] =
	"usage: iogauge compare [--output-format=text|json|html] [--output=FILE]\n"
	"                       [--threshold=PCT] A B [C...]\n"
	"\n"
	"Compares runs: B (and C...) against A, per job and direction: IOPS, bandwidth,\n"
	"mean completion latency and its 50/90/99/99.9th percentiles, with the change,\n"
	"its 95% confidence interval and a verdict (faster, slower, same, inconclusive).\n"
	"Each of A, B, ... is a JSON report of iogauge or fio (json or json+), or a folder\n"
	"of *.json reports of repeated runs.  --threshold: a change within it is the same\n"
	"(default 5).  See iogauge-compare(1).\n";

int compare_main(int argc, char **argv)
{
	struct output dest = { .path = NULL, .fd = -1 };
	struct cmp_side *sides = NULL;
	struct cmp_table *tables = NULL;
	struct strbuf out = { 0 };
	const char *output = NULL, *v, **paths = xcalloc((size_t)argc, sizeof(*paths));
	char *cause = NULL;
	double thr = 5;
	enum { TEXT, JSON, HTML } format = TEXT;
	unsigned n = 0, i, loaded = 0, made = 0;
	int status = 0, bad = 0;

	for (i = 1; i < (unsigned)argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			free(paths);
			return 0;
		} else if ((v = util_flag_value(a, "--output-format"))) {
			if (!strcmp(v, "json")) {
				format = JSON;
			} else if (!strcmp(v, "html")) {
				format = HTML;
			} else if (!strcmp(v, "text") || !strcmp(v, "normal")) {
				format = TEXT;
			} else {
				fprintf(stderr,
					"iogauge compare: --output-format=%s: text, json or html\n",
					v);
				bad = 1;
			}
		} else if ((v = util_flag_value(a, "--output"))) {
			output = v;
		} else if ((v = util_flag_value(a, "--threshold"))) {
			if (units_parse_double(v, &thr, &cause) || thr < 0 || thr >= 100) {
				fprintf(stderr,
					"iogauge compare: --threshold=%s: a percentage from 0 to below "
					"100\n",
					v);
				free(cause);
				cause = NULL;
				bad = 1;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr,
				"iogauge compare: %s: unknown option (iogauge compare --help)\n",
				a);
			bad = 1;
		} else {
			paths[n++] = a;
		}
	}
	if (!bad && n < 2) {
		fprintf(stderr, "iogauge compare: two reports or folders at least (A B)\n%s",
			usage);
		bad = 1;
	}
	sides = xcalloc(n ? n : 1, sizeof(*sides));
	/* Every input is read, so that each bad one is named at once. */
	for (i = 0; i < n && n >= 2; i++) {
		if (cmp_load(paths[i], &sides[i], &cause)) {
			fprintf(stderr, "iogauge compare: %s\n", cause);
			free(cause);
			cause = NULL;
			bad = 1;
		}
	}
	loaded = n;
	tables = xcalloc(n ? n : 1, sizeof(*tables));
	for (i = 1; i < n && !bad; i++) {
		if (cmp_table_make(&sides[0], &sides[i], thr / 100, &tables[i - 1], &cause)) {
			fprintf(stderr, "iogauge compare: %s\n", cause);
			free(cause);
			cause = NULL;
			bad = 1;
		} else {
			made = i;
		}
	}
	for (i = 0; i < n && !bad; i++)
		if (output_is_input(output, paths[i])) {
			fprintf(stderr,
				"iogauge compare: --output=%s is %s, a report compared: it would "
				"be replaced\n",
				output, paths[i]);
			bad = 1;
		}
	if (!bad && output_open(&dest, output, &cause)) {
		fprintf(stderr, "iogauge compare: %s\n", cause);
		free(cause);
		cause = NULL;
		bad = 1;
	}
	if (bad) {
		status = 2;
	} else {
		if (format == JSON)
			cmp_print_json(tables, n - 1, &out);
		else if (format == HTML)
			cmp_print_html(tables, n - 1, sides, n, &out);
		else
			cmp_print_text(tables, n - 1, &out);
		if (output_commit(&dest, out.buf, out.len, &cause)) {
			fprintf(stderr, "iogauge compare: %s\n", cause);
			free(cause);
			status = 1;
		}
		output_abandon(&dest);
	}
	strbuf_free(&out);
	for (i = 0; i < made; i++)
		cmp_table_free(&tables[i]);
	for (i = 0; i < loaded; i++)
		cmp_side_free(&sides[i]);
	free(tables);
	free(sides);
	free(paths);
	return status;
}
