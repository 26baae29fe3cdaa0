/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's pieces on their own: html_text() makes every string
 * inert (markup, quotes, control bytes) and leaves UTF-8 alone, and the
 * DiskSpd table's total row is reads and writes together.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/html/html.h"

static void test_text(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "", "" },
		{ "plain job-1", "plain job-1" },
		{ "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "a & b", "a &amp; b" },
		{ "\"q\" 'r'", "&quot;q&quot; &apos;r&apos;" },
		{ "&amp;", "&amp;amp;" },
		{ "tab\tline\nret\r", "tab\tline\nret\r" },
		{ "bell\a esc\x1b del\x7f", "bell? esc? del?" },
		{ "\xc2\xb5s caf\xc3\xa9", "\xc2\xb5s caf\xc3\xa9" }, /* UTF-8 passes */
	};
	unsigned i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = { 0 };

		html_text(&sb, cases[i].in);
		assert_string_equal(sb.buf ? sb.buf : "", cases[i].want);
		strbuf_free(&sb);
	}
}

/* The value of data-k=@k in the row of direction @dir, or -1. */
static double cell(const char *html, const char *dir, const char *k)
{
	char *pat = xasprintf("data-dir=\"%s\"", dir),
	     *kp = xasprintf("data-k=\"%s\" data-v=\"", k);
	const char *row = strstr(html, pat), *end = row ? strstr(row, "</tr>") : NULL;
	const char *at = row ? strstr(row, kp) : NULL;
	double v = at && at < end ? strtod(at + strlen(kp), NULL) : -1;

	free(pat);
	free(kp);
	return v;
}

static void test_table(void **state)
{
	struct run_stats st;
	struct report_entry e = { .st = &st, .threads = 1 };
	struct strbuf sb = { 0 };
	unsigned i;

	(void)state;
	stats_init(&st);
	stats_prepare(&st, STAT_READ, ~0u);
	stats_prepare(&st, STAT_WRITE, ~0u);
	for (i = 1; i <= 300; i++)
		stats_record(&st.dir[STAT_READ], 0, 1000 * i, 1000 * i, 4096);
	for (i = 1; i <= 100; i++)
		stats_record(&st.dir[STAT_WRITE], 0, 400000 + 1000 * i, 400000 + 1000 * i, 8192);
	st.elapsed = 2000000000ull; /* 2 s */
	html_entry_table(&sb, &e);
	assert_true(cell(sb.buf, "read", "ios") == 300);
	assert_true(cell(sb.buf, "write", "ios") == 100);
	assert_true(cell(sb.buf, "total", "ios") == 400);
	assert_true(cell(sb.buf, "total", "bytes") == 300 * 4096 + 100 * 8192);
	assert_true(cell(sb.buf, "total", "iops") == 200);
	assert_true(cell(sb.buf, "total", "bw_bytes") == (300 * 4096 + 100 * 8192) / 2);
	assert_true(cell(sb.buf, "read", "max") == 300000);
	assert_true(cell(sb.buf, "total", "max") == 500000);
	assert_true(cell(sb.buf, "read", "mean") == 150500);
	assert_true(cell(sb.buf, "write", "mean") == 450500);
	/* Weighted by I/Os: (150500 * 300 + 450500 * 100) / 400. */
	assert_true(cell(sb.buf, "total", "mean") == 225500);
	/* p50 of the total is among the reads, p99 among the writes. */
	assert_true(cell(sb.buf, "total", "p50") < 300000 * 1.01);
	assert_true(cell(sb.buf, "total", "p99") > 400000);
	/* No trims: no trim row. */
	assert_null(strstr(sb.buf, "data-dir=\"trim\""));
	strbuf_free(&sb);
	stats_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
