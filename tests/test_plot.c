/* SPDX-License-Identifier: MIT */
/*
 * Tests of the SVG plots in plot.c: every output is checked well-formed
 * by a small checker here (tags nest and close, one <svg> root, quoted
 * attributes, no stray '<', '>' or '&'), then read back through the
 * class/data- hooks the header promises: series polylines and their
 * points, legend text, escaping, histogram bars that add up to 100% and
 * percentile markers that say what hist_percentile says.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/hist.h"
#include "report/plot.h"
#include "util/util.h"

#define CANVAS_MAX 1000.0 /* px; both plots are smaller than this either way */

static size_t name_len(const char *p)
{
	size_t n = 0;

	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
	       (p[n] >= '0' && p[n] <= '9') || p[n] == '-' || p[n] == '_' || p[n] == ':')
		n++;
	return n;
}

/* Whether @p, at an '&', starts one of XML's five entities or &#n; / &#xh;. */
static int entity_ok(const char *p)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ent); i++)
		if (!strncmp(p, ent[i], strlen(ent[i])))
			return 1;
	if (p[1] != '#')
		return 0;
	p += p[2] == 'x' ? 3 : 2;
	if (!*p || *p == ';')
		return 0;
	while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))
		p++;
	return *p == ';';
}

/*
 * Returns NULL when @s is well-formed as far as these plots go, else what
 * is wrong.  Not a full XML parser: no DOCTYPE, CDATA or namespaces.
 */
static const char *xml_check(const char *s)
{
	const char *open[64], *attr[32], *p = s, *q;
	size_t olen[64], alen[32], n, na, i;
	unsigned depth = 0, roots = 0;

	while (*p) {
		if (*p == '&') {
			if (!entity_ok(p))
				return "'&' that is not an entity";
			p++;
			continue;
		}
		if (*p == '>')
			return "stray '>' in text";
		if (*p != '<') {
			if (!depth && *p != ' ' && *p != '\n' && *p != '\t' && *p != '\r')
				return "text outside the root";
			p++;
			continue;
		}
		if (!strncmp(p, "<?", 2) || !strncmp(p, "<!--", 4)) {
			q = strstr(p, p[1] == '?' ? "?>" : "-->");
			if (!q || (p[1] == '?' && p != s))
				return "bad declaration or comment";
			p = q + (p[1] == '?' ? 2 : 3);
			continue;
		}
		if (p[1] == '/') {
			n = name_len(p + 2);
			if (!depth || n != olen[depth - 1] || strncmp(p + 2, open[depth - 1], n) ||
			    p[2 + n] != '>')
				return "close tag that does not match";
			depth--;
			p += 3 + n;
			continue;
		}
		n = name_len(p + 1);
		if (!n)
			return "stray '<'";
		if (!depth && (roots++ || n != 3 || strncmp(p + 1, "svg", 3)))
			return "a root other than one <svg>";
		q = p + 1;
		p += 1 + n;
		for (na = 0;;) {
			int ws = 0;

			while (*p == ' ' || *p == '\n' || *p == '\t') {
				p++;
				ws = 1;
			}
			if (*p == '>' || (p[0] == '/' && p[1] == '>')) {
				if (*p == '>') {
					if (depth == ARRAY_SIZE(open))
						return "nested too deep";
					open[depth] = q;
					olen[depth++] = n;
				}
				p += *p == '>' ? 1 : 2;
				break;
			}
			if (!ws || !(alen[na] = name_len(p)) || na == ARRAY_SIZE(attr))
				return "bad attribute";
			for (i = 0; i < na; i++)
				if (alen[i] == alen[na] && !strncmp(attr[i], p, alen[i]))
					return "duplicate attribute";
			attr[na] = p;
			p += alen[na++];
			if (p[0] != '=' || p[1] != '"')
				return "attribute value not in double quotes";
			for (p += 2; *p != '"'; p++) {
				if (!*p || *p == '<')
					return "'<' or end of text in an attribute value";
				if (*p == '&' && !entity_ok(p))
					return "'&' that is not an entity in an attribute value";
			}
			p++;
		}
	}
	if (depth)
		return "unclosed element";
	return roots ? NULL : "no root";
}

static void assert_well_formed(const char *svg)
{
	const char *why = xml_check(svg);

	if (why)
		fail_msg("not well-formed: %s\n%s", why, svg);
	assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" "));
	assert_non_null(strstr(svg, "viewBox=\"0 0 "));
	assert_non_null(strstr(svg, " width=\""));
	assert_non_null(strstr(svg, " height=\""));
	assert_non_null(strstr(svg, "<title>"));
	assert_null(strstr(svg, "nan"));
	assert_null(strstr(svg, "inf"));
}

static unsigned count(const char *s, const char *needle)
{
	unsigned n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* The '<' of the tag holding the @k-th (from 0) @marker, or NULL. */
static const char *nth_tag(const char *s, const char *marker, unsigned k)
{
	const char *p = s;

	while ((p = strstr(p, marker)) && k--)
		p += strlen(marker);
	if (!p)
		return NULL;
	while (p > s && *p != '<')
		p--;
	return p;
}

/* The value of attribute @name in the tag at @tag, copied to @out. */
static void tag_attr(const char *tag, const char *name, char *out, size_t len)
{
	char key[64];
	const char *end = strchr(tag, '>'), *p, *q;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(tag, key);
	if (!p || !end || p > end)
		fail_msg("no %s in %.80s", name, tag);
	p += strlen(key);
	q = strchr(p, '"');
	if ((size_t)(q - p) >= len)
		fail_msg("%s too long", name);
	memcpy(out, p, (size_t)(q - p));
	out[q - p] = '\0';
}

/* The text after the tag at @tag up to the next '<'. */
static void tag_text(const char *tag, char *out, size_t len)
{
	const char *p = strchr(tag, '>') + 1, *q = strchr(p, '<');

	snprintf(out, len, "%.*s", (int)(q - p), p);
}

/* The number of "x,y" pairs in @points, each checked inside the canvas. */
static size_t count_points(const char *points)
{
	const char *p = points;
	char *end;
	size_t n = 0;
	double x, y;

	while (*p) {
		x = strtod(p, &end);
		assert_true(end != p && *end == ',');
		y = strtod(end + 1, &end);
		assert_true(x >= 0 && x <= CANVAS_MAX && y >= 0 && y <= CANVAS_MAX);
		n++;
		p = *end == ' ' ? end + 1 : end;
		assert_true(*end == ' ' || *end == '\0');
	}
	return n;
}

static char *lines(const char *title, const char *ylabel, const struct plot_series *s, unsigned n)
{
	struct strbuf sb = { 0 };

	plot_lines_svg(&sb, title, ylabel, s, n);
	assert_well_formed(sb.buf);
	return strbuf_detach(&sb);
}

static void test_two_series(void **state)
{
	static const struct plot_point a[] = {
		{ 0, 10 }, { 1, 20 }, { 2, 30 }, { 3, 25 }, { 4, 15 }
	};
	static const struct plot_point b[] = { { 0.5, 5 }, { 2.5, 7.5 }, { 3.5, 6 } };
	const struct plot_series s[] = { { "read", a, ARRAY_SIZE(a) },
					 { "write", b, ARRAY_SIZE(b) } };
	char *svg = lines("bandwidth", "MB/s", s, 2), buf[4096];
	const char *tag;
	unsigned i;

	(void)state;
	assert_int_equal(count(svg, "class=\"series\""), 2);
	for (i = 0; i < 2; i++) {
		tag = nth_tag(svg, "class=\"series\"", i);
		assert_non_null(tag);
		assert_int_equal(strncmp(tag, "<polyline ", 10), 0);
		tag_attr(tag, "data-name", buf, sizeof(buf));
		assert_string_equal(buf, s[i].name);
		tag_attr(tag, "points", buf, sizeof(buf));
		assert_int_equal(count_points(buf), s[i].n);
	}
	assert_non_null(strstr(svg, ">time (s)</text>"));
	assert_non_null(strstr(svg, ">MB/s</text>"));
	assert_non_null(strstr(svg, ">bandwidth</text>"));
	assert_non_null(strstr(svg, ">read</text>"));
	assert_non_null(strstr(svg, ">write</text>"));
	/* Round ticks from 0 past the max of 30: 0, 10, ... 40; time to 4 s. */
	assert_non_null(strstr(svg, ">0</text>"));
	assert_non_null(strstr(svg, ">40</text>"));
	assert_null(strstr(svg, ">50</text>"));
	assert_non_null(strstr(svg, ">4</text>"));
	free(svg);
}

/* A long title is made smaller to stay on the canvas. */
static void test_long_title(void **state)
{
	static const struct plot_point a[] = { { 0, 1 }, { 1, 2 } };
	const struct plot_series s[] = { { "read", a, 2 } };
	char title[121], buf[64];
	char *svg;
	double x, w;

	(void)state;
	memset(title, 'x', sizeof(title) - 1);
	title[sizeof(title) - 1] = '\0';
	svg = lines(title, "v", s, 1);
	tag_attr(strstr(svg, "<text "), "data-box", buf, sizeof(buf));
	assert_int_equal(sscanf(buf, "%lf %*f %lf", &x, &w), 2);
	print_message("a 120-character title: x %.1f, width %.1f\n", x, w);
	assert_true(x >= 0 && x + w <= 1000);
	free(svg);
}

static void test_escaping(void **state)
{
	static const struct plot_point a[] = { { 0, 1 }, { 1, 2 } };
	const struct plot_series s[] = { { "x&y<z>'", a, 2 }, { "\"q\"", NULL, 0 } };
	char *svg = lines("a<&\">'b\x01", "MB/s <\"x\">", s, 2);

	(void)state;
	assert_non_null(strstr(svg, "<title>a&lt;&amp;&quot;&gt;&apos;b?</title>"));
	assert_non_null(strstr(svg, "data-name=\"x&amp;y&lt;z&gt;&apos;\""));
	assert_non_null(strstr(svg, ">MB/s &lt;&quot;x&quot;&gt;</text>"));
	assert_non_null(strstr(svg, ">&quot;q&quot; (no samples)</text>"));
	assert_null(strstr(svg, "<&"));
	assert_null(strstr(svg, "x&y"));
	free(svg);
}

static void test_empty_series(void **state)
{
	static const struct plot_point a[] = { { 0, 3 }, { 1, 4 } };
	const struct plot_series s[] = { { "idle", NULL, 0 }, { "busy", a, 2 }, { NULL, NULL, 0 } };
	char *svg;

	(void)state;
	svg = lines("one empty", "IOPS", s, 3);
	assert_int_equal(count(svg, "class=\"series\""), 1);
	assert_non_null(strstr(svg, ">idle (no samples)</text>"));
	assert_non_null(strstr(svg, ">(unnamed) (no samples)</text>"));
	assert_null(strstr(svg, ">no samples</text>"));
	free(svg);

	svg = lines("all empty", "IOPS", s, 1);
	assert_int_equal(count(svg, "class=\"series\""), 0);
	assert_non_null(strstr(svg, ">no samples</text>"));
	free(svg);

	svg = lines(NULL, NULL, NULL, 0);
	assert_non_null(strstr(svg, "<title></title>"));
	assert_non_null(strstr(svg, ">no samples</text>"));
	free(svg);
}

/* Nothing to divide by: all-zero values, one point, all t equal, t = 0. */
static void test_degenerate_series(void **state)
{
	static const struct plot_point zero[] = { { 0, 0 }, { 1, 0 }, { 2, 0 } };
	static const struct plot_point one[] = { { 7, 42 } };
	static const struct plot_point same_t[] = { { 5, 1 }, { 5, 2 }, { 5, 3 }, { 5, 4 } };
	static const struct plot_point origin[] = { { 0, 0 } };
	static const struct plot_point neg[] = { { -1, -5 }, { 1e9, 1e12 } };
	const struct plot_series s[] = {
		{ "zero", zero, 3 },	 { "one", one, 1 }, { "same t", same_t, 4 },
		{ "origin", origin, 1 }, { "neg", neg, 2 },
	};
	char buf[4096];
	unsigned i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(s); i++) {
		char *svg = lines(s[i].name, "v", &s[i], 1);

		tag_attr(nth_tag(svg, "class=\"series\"", 0), "points", buf, sizeof(buf));
		assert_int_equal(count_points(buf), s[i].n);
		if (s[i].n == 1)
			assert_int_equal(count(svg, "<circle "), 1);
		free(svg);
	}
}

static struct hist *known_hist(void)
{
	struct hist *h = malloc(sizeof(*h));
	unsigned i;

	assert_non_null(h);
	hist_init(h);
	hist_prepare(h);
	for (i = 0; i < 1000; i++)
		hist_record(h, 95000 + 10 * i); /* 95.00 .. 104.99 us */
	for (i = 0; i < 10; i++)
		hist_record(h, 10000000 + 100000 * i); /* 10.0 .. 10.9 ms */
	return h;
}

static char *hist_svg_scale(const char *title, const struct hist *h, const double *p, unsigned n,
			    enum plot_scale y)
{
	struct strbuf sb = { 0 };

	plot_hist_scale_svg(&sb, title, h, p, n, y);
	assert_well_formed(sb.buf);
	return strbuf_detach(&sb);
}

static char *hist_svg(const char *title, const struct hist *h, const double *p, unsigned n)
{
	struct strbuf sb = { 0 };

	plot_hist_svg(&sb, title, h, p, n);
	assert_well_formed(sb.buf);
	return strbuf_detach(&sb);
}

static char *cdf_svg(const char *title, const struct plot_dist *d, unsigned n);

/*
 * Every <text> of @svg carries data-box="x y w h"; no two boxes
 * intersect.  Returns how many texts there are.
 */
static unsigned assert_no_overlap(const char *svg)
{
	double(*box)[4] = NULL;
	unsigned n = count(svg, "<text "), i, j;
	const char *p = svg;
	char buf[128];

	box = calloc(n ? n : 1, sizeof(*box));
	assert_non_null(box);
	for (i = 0; i < n; i++) {
		p = strstr(p, "<text ");
		tag_attr(p, "data-box", buf, sizeof(buf));
		if (sscanf(buf, "%lf %lf %lf %lf", &box[i][0], &box[i][1], &box[i][2],
			   &box[i][3]) != 4)
			fail_msg("data-box \"%s\"", buf);
		assert_true(box[i][2] > 0 && box[i][3] > 0);
		p++;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (box[i][0] < box[j][0] + box[j][2] &&
			    box[j][0] < box[i][0] + box[i][2] &&
			    box[i][1] < box[j][1] + box[j][3] && box[j][1] < box[i][1] + box[i][3])
				fail_msg(
					"text %u (%.1f %.1f %.1f %.1f) overlaps text %u (%.1f %.1f "
					"%.1f %.1f)",
					i, box[i][0], box[i][1], box[i][2], box[i][3], j, box[j][0],
					box[j][1], box[j][2], box[j][3]);
	free(box);
	return n;
}

struct pct_case {
	double p;
	const char *data_p;
	const char *unit; /* of the label, "pNN %.1f<unit>" of hist_percentile */
	double div;	  /* ns per @unit */
};

static const struct pct_case pct_cases[] = {
	{ 50, "50", "us", 1e3 },
	{ 99, "99", "us", 1e3 },
	{ 99.9, "99.9", "ms", 1e6 }, /* rank 1009 of 1010: the slow tail */
};

static void test_hist_known(void **state)
{
	static const double pcts[] = { 50, 99, 99.9, 0, -1, 150 }; /* the last three skipped */
	struct hist *h = known_hist();
	char *svg =
		hist_svg_scale("latency <randread>", h, pcts, ARRAY_SIZE(pcts), PLOT_SCALE_LINEAR);
	char buf[256], want[64];
	double sum = 0, pct[8], height[8], want_h, scale;
	const char *tag, *text;
	unsigned i, nbars, top = 0;

	(void)state;
	assert_non_null(strstr(svg, "<title>latency &lt;randread&gt;</title>"));
	assert_int_equal(count(svg, "class=\"pct\""), ARRAY_SIZE(pct_cases));
	for (i = 0; i < ARRAY_SIZE(pct_cases); i++) {
		const struct pct_case *c = &pct_cases[i];
		uint64_t v = hist_percentile(h, c->p);

		snprintf(want, sizeof(want), "data-p=\"%s\"", c->data_p);
		tag = nth_tag(svg, want, 0);
		assert_non_null(tag);
		tag_attr(tag, "class", buf, sizeof(buf));
		assert_string_equal(buf, "pct");
		tag_attr(tag, "data-ns", buf, sizeof(buf));
		assert_int_equal(strtoull(buf, NULL, 10), v);
		/* Its label, on its own or shared with markers of the same value. */
		snprintf(want, sizeof(want), "class=\"pct-label\" data-p=\"%s\"", c->data_p);
		text = strstr(nth_tag(svg, want, 0), "<text ");
		assert_non_null(text);
		tag_text(text, buf, sizeof(buf));
		snprintf(want, sizeof(want), "p%s %.1f%s", c->data_p, (double)v / c->div, c->unit);
		assert_string_equal(buf, want);
		print_message("%s (%llu ns)\n", buf, (unsigned long long)v);
	}

	/* Bars: shares add up to 100%, heights are proportional to them,
	 * measured against the tallest. */
	nbars = count(svg, "class=\"bar\"");
	assert_true(nbars >= 2 && nbars <= ARRAY_SIZE(pct));
	for (i = 0; i < nbars; i++) {
		tag = nth_tag(svg, "class=\"bar\"", i);
		tag_attr(tag, "data-pct", buf, sizeof(buf));
		pct[i] = strtod(buf, NULL);
		tag_attr(tag, "height", buf, sizeof(buf));
		height[i] = strtod(buf, NULL);
		assert_true(pct[i] > 0 && height[i] > 0);
		if (pct[i] > pct[top])
			top = i;
		sum += pct[i];
	}
	scale = height[top] / pct[top]; /* px per % */
	for (i = 0; i < nbars; i++) {
		want_h = pct[i] * scale > 1 ? pct[i] * scale : 1; /* a bar is 1 px at least */
		if (fabs(height[i] - want_h) > 0.1 + 0.01 * scale)
			fail_msg("bar %u: %.2f%% is %.1f px, want %.1f", i, pct[i], height[i],
				 want_h);
	}
	print_message("%u bars, shares summing to %.2f%%\n", nbars, sum);
	assert_true(fabs(sum - 100) <= 0.005 * nbars);

	/* Decade ticks in units, and the caption. */
	assert_non_null(strstr(svg, ">10us</text>"));
	assert_non_null(strstr(svg, ">100us</text>"));
	assert_non_null(strstr(svg, ">1ms</text>"));
	assert_non_null(strstr(svg, ">10ms</text>"));
	assert_non_null(strstr(svg, ">100ms</text>"));
	snprintf(want, sizeof(want), "min 95.0us, mean %.1fus, max 10.9ms, 1010 I/Os",
		 hist_mean(h) / 1e3);
	tag_text(nth_tag(svg, "class=\"caption\"", 0), buf, sizeof(buf));
	assert_string_equal(buf, want);
	free(svg);
	hist_free(h);
	free(h);
}

/* fio's default percentile list. */
static const double fio_pcts[] = { 1,  5,  10, 20, 30,	 40,   50,    60,   70,
				   80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

/*
 * The case: 17 percentile labels on a tight distribution (all of
 * it within 2% of 100 us, and one I/O in 10,000 at 10 ms).  No two texts
 * overlap, every marker is there, and on the log y axis the 0.01% tail
 * is a bar of a decade or more, where the linear axis gives it 1 px.
 */
static void test_hist_tight(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	double tail_h[2];
	char buf[64];
	unsigned i, k, texts, labels;

	(void)state;
	assert_non_null(h);
	hist_init(h);
	hist_prepare(h);
	for (i = 0; i < 9999; i++)
		hist_record(h, 99000 + (i * 7919) % 2000);
	hist_record(h, 10000000);
	for (k = 0; k < 4; k++) {
		char *svg;
		const char *tail;

		if (k == 2) { /* 100..125 us: most percentiles in buckets of their own */
			hist_free(h);
			hist_prepare(h);
			for (i = 0; i < 9999; i++)
				hist_record(h, 100000 + (i * 7919) % 25000);
			hist_record(h, 10000000);
		}
		svg = hist_svg_scale("tight", h, fio_pcts, ARRAY_SIZE(fio_pcts),
				     k % 2 ? PLOT_SCALE_LINEAR : PLOT_SCALE_LOG);
		assert_int_equal(count(svg, "class=\"pct\""), ARRAY_SIZE(fio_pcts));
		labels = count(svg, "class=\"label\"");
		texts = assert_no_overlap(svg);
		print_message("%s, %s: %u texts, %u percentile labels, none overlap\n",
			      k < 2 ? "99-101us" : "100-125us", k % 2 ? "linear" : "log", texts,
			      labels);
		assert_true(labels >= 2 && labels <= ARRAY_SIZE(fio_pcts));
		/* Every p is named in some label. */
		for (i = 0; i < ARRAY_SIZE(fio_pcts); i++) {
			snprintf(buf, sizeof(buf), "p%g", fio_pcts[i]);
			assert_non_null(strstr(svg, buf));
		}
		tail = nth_tag(svg, "data-pct=\"0.01\"", 0);
		assert_non_null(tail);
		tag_attr(tail, "height", buf, sizeof(buf));
		tail_h[k % 2] = strtod(buf, NULL);
		free(svg);
	}
	print_message("the 0.01%% tail bar: %.1f px on the log axis, %.1f px linear\n", tail_h[0],
		      tail_h[1]);
	assert_true(tail_h[0] >= 50);
	assert_true(tail_h[1] <= 1.05);
	hist_free(h);
	free(h);
}

/* Labels do not overlap on a wide distribution either, nor with few. */
static void test_hist_no_overlap(void **state)
{
	static const double few[] = { 50, 99 };
	struct hist *h = known_hist();
	char *svg;

	(void)state;
	svg = hist_svg("wide", h, fio_pcts, ARRAY_SIZE(fio_pcts));
	assert_no_overlap(svg);
	free(svg);
	svg = hist_svg("few", h, few, ARRAY_SIZE(few));
	assert_no_overlap(svg);
	free(svg);
	hist_free(h);
	free(h);
}

static void test_hist_empty(void **state)
{
	static const double pcts[] = { 50, 99 };
	struct hist *h = malloc(sizeof(*h));
	char *svg;

	(void)state;
	assert_non_null(h);
	hist_init(h);
	svg = hist_svg("empty", h, pcts, 2);
	assert_non_null(strstr(svg, ">no samples</text>"));
	assert_int_equal(count(svg, "class=\"bar\""), 0);
	assert_int_equal(count(svg, "class=\"pct\""), 0);
	free(svg);
	free(h);
}

/* The ends of the range: 0 ns (log 0), one sample, and UINT64_MAX. */
static void test_hist_extremes(void **state)
{
	static const uint64_t cases[][2] = {
		{ 0, 0 }, { 1000, 1000 }, { 0, UINT64_MAX }, { 1, 1ull << 50 }
	};
	static const double pcts[] = { 1, 50, 100 };
	struct hist *h = malloc(sizeof(*h));
	char buf[64];
	unsigned i, k;

	(void)state;
	assert_non_null(h);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *svg;

		hist_init(h);
		hist_prepare(h);
		hist_record(h, cases[i][0]);
		hist_record(h, cases[i][1]);
		{
			const struct plot_dist d = { "extreme", h };

			free(cdf_svg("extreme", &d, 1)); /* checked well-formed, no overlap */
		}
		svg = hist_svg("extreme", h, pcts, ARRAY_SIZE(pcts));
		assert_no_overlap(svg);
		assert_int_equal(count(svg, "class=\"pct\""), 3);
		for (k = 0; k < count(svg, "class=\"bar\""); k++) {
			const char *tag = nth_tag(svg, "class=\"bar\"", k);

			tag_attr(tag, "x", buf, sizeof(buf));
			assert_true(strtod(buf, NULL) >= 0 && strtod(buf, NULL) <= CANVAS_MAX);
			tag_attr(tag, "width", buf, sizeof(buf));
			assert_true(strtod(buf, NULL) > 0);
		}
		free(svg);
		hist_free(h);
	}
	free(h);
}

static char *cdf_svg(const char *title, const struct plot_dist *d, unsigned n)
{
	struct strbuf sb = { 0 };

	plot_cdf_svg(&sb, title, d, n);
	assert_well_formed(sb.buf);
	assert_no_overlap(sb.buf);
	return strbuf_detach(&sb);
}

/* Each step of the CDF reads what hist_percentile reads. */
static void test_cdf_known(void **state)
{
	struct hist *h = known_hist(), *w = malloc(sizeof(*w)), *none = malloc(sizeof(*none));
	char *svg, *ps = malloc(65536), *ns = malloc(65536), *p, *q;
	double pv[512];
	uint64_t nv[512];
	unsigned i, n = 0, k;

	(void)state;
	assert_non_null(w);
	assert_non_null(none);
	assert_non_null(ps);
	assert_non_null(ns);
	hist_init(w);
	hist_prepare(w);
	for (i = 0; i < 100000; i++)
		hist_record(w, 2000 + (i * 7919) % 50000);
	hist_init(none);
	{
		const struct plot_dist d[] = { { "read", h }, { "write", w }, { "trim", none } };

		svg = cdf_svg("cdf", d, 3);
	}
	assert_int_equal(count(svg, "class=\"series\""), 2);
	assert_non_null(strstr(svg, ">trim (no samples)</text>"));
	/* 100,000 I/Os: decades up to 99.999%. */
	assert_non_null(strstr(svg, ">99.999%</text>"));
	assert_null(strstr(svg, ">99.9999%</text>"));
	assert_non_null(strstr(svg, ">0%</text>"));
	assert_non_null(strstr(svg, ">90%</text>"));
	tag_attr(nth_tag(svg, "data-name=\"read\"", 0), "data-p", ps, 65536);
	tag_attr(nth_tag(svg, "data-name=\"read\"", 0), "data-ns", ns, 65536);
	for (p = ps, q = ns; *p && n < ARRAY_SIZE(pv); n++) {
		pv[n] = strtod(p, &p);
		nv[n] = strtoull(q, &q, 10);
	}
	assert_true(n >= 3);
	assert_true(fabs(pv[n - 1] - 100) < 1e-9);
	assert_int_equal(nv[n - 1], h->max);
	for (i = 0; i < ARRAY_SIZE(fio_pcts); i++) {
		for (k = 0; k < n && pv[k] < fio_pcts[i] - 1e-9; k++)
			;
		assert_true(k < n);
		assert_int_equal(nv[k], hist_percentile(h, fio_pcts[i]));
	}
	print_message("read: %u steps, each of fio's percentiles as hist_percentile\n", n);
	free(svg);

	svg = cdf_svg("none", NULL, 0);
	assert_non_null(strstr(svg, ">no samples</text>"));
	free(svg);
	hist_free(h);
	hist_free(w);
	free(h);
	free(w);
	free(none);
	free(ps);
	free(ns);
}

/* Histogram-log lines of two clones: 3 windows, reads and writes. */
static void test_heat(void **state)
{
	struct iolog_hist *l = calloc(12, sizeof(*l));
	const struct iolog_hist *heads[3];
	uint64_t sum[2] = { 0 }, got[2] = { 0 };
	char *svg, buf[64];
	unsigned c, k, d, i, cells;

	(void)state;
	assert_non_null(l);
	for (c = 0; c < 2; c++)
		for (k = 0; k < 3; k++)
			for (d = 0; d < 2; d++) {
				struct iolog_hist *h = &l[c * 6 + k * 2 + d];

				h->t = 500 * (k + 1) + c; /* the clones a ms apart */
				h->dir = d;
				h->next = c * 6 + k * 2 + d < c * 6 + 5 ? h + 1 : NULL;
				h->bins[hist_index(100000 * (d + 1))] = 10 * (k + 1);
				h->bins[hist_index(5000000)] = 1;
				sum[d] += 10 * (k + 1) + 1;
			}
	heads[0] = &l[0];
	heads[1] = &l[6];
	heads[2] = NULL; /* a clone that logged nothing */
	for (d = 0; d < 2; d++) {
		struct strbuf sb = { 0 };
		const char *tag;

		plot_heat_svg(&sb, "heat", heads, 3, (int)d);
		assert_well_formed(sb.buf);
		assert_no_overlap(sb.buf);
		svg = strbuf_detach(&sb);
		cells = count(svg, "class=\"cell\"");
		assert_int_equal(cells, 6); /* 3 windows, 2 latencies */
		for (i = 0; i < cells; i++) {
			tag = nth_tag(svg, "class=\"cell\"", i);
			tag_attr(tag, "data-n", buf, sizeof(buf));
			got[d] += strtoull(buf, NULL, 10);
			tag_attr(tag, "data-t", buf, sizeof(buf));
			assert_true(!strcmp(buf, "501") || !strcmp(buf, "1001") ||
				    !strcmp(buf, "1501"));
		}
		assert_int_equal(got[d], sum[d]);
		tag_attr(nth_tag(svg, "class=\"legend-max\"", 0), "class", buf, sizeof(buf));
		assert_non_null(strstr(svg, ">60</text>")); /* 2 clones x 30 in window 3 */
		free(svg);
	}
	{
		struct strbuf sb = { 0 };

		plot_heat_svg(&sb, "both", heads, 2, -1);
		assert_well_formed(sb.buf);
		assert_int_equal(count(sb.buf, "class=\"cell\""), 9);
		strbuf_free(&sb);
		plot_heat_svg(&sb, "empty", heads + 2, 1, -1);
		assert_well_formed(sb.buf);
		assert_non_null(strstr(sb.buf, ">no samples</text>"));
		strbuf_free(&sb);
	}
	free(l);
}

/* A long run: 1000 windows become at most 345 columns, no I/O lost. */
static void test_heat_long(void **state)
{
	struct iolog_hist *l = calloc(1000, sizeof(*l));
	const struct iolog_hist *head = l;
	struct strbuf sb = { 0 };
	uint64_t got = 0, last = 0, t;
	unsigned k, cells, cols = 0;
	const char *tag;
	char buf[64];

	(void)state;
	assert_non_null(l);
	for (k = 0; k < 1000; k++) {
		l[k].t = 1000 * (k + 1);
		l[k].next = k + 1 < 1000 ? &l[k + 1] : NULL;
		l[k].bins[hist_index(50000 + 1000 * (k % 7))] = 3;
	}
	plot_heat_svg(&sb, "long", &head, 1, 0);
	assert_well_formed(sb.buf);
	assert_no_overlap(sb.buf);
	cells = count(sb.buf, "class=\"cell\"");
	for (k = 0, tag = sb.buf; k < cells; k++) {
		tag = nth_tag(tag, "class=\"cell\"", 0); /* the next, from the last */
		tag_attr(tag, "data-n", buf, sizeof(buf));
		got += strtoull(buf, NULL, 10);
		tag_attr(tag, "data-t", buf, sizeof(buf));
		t = strtoull(buf, NULL, 10);
		assert_true(t >= last);
		cols += t != last;
		last = t;
		tag = strstr(tag, "class=\"cell\"") + 12;
	}
	print_message("1000 windows: %u columns, %u cells, %llu I/Os\n", cols, cells,
		      (unsigned long long)got);
	assert_int_equal(got, 3000);
	assert_true(cols <= 345 && cols >= 300);
	assert_int_equal(last, 1000000);
	strbuf_free(&sb);
	free(l);
}

static void test_bars(void **state)
{
	static const char *const ms[25] = { "0",  "1",	"2",  "3",  "4",  "5",	"6",  "7",  "8",
					    "9",  "10", "11", "12", "13", "14", "15", "16", "17",
					    "18", "19", "20", "21", "22", "23", "24+" };
	static const char *const few[3] = { "a<b", "c", "long label here" };
	double v[25] = { 90.5, 5.25, 2, 1, 0.5, 0.25, 0.25, 0.25 }, sum = 0;
	struct strbuf sb = { 0 };
	char buf[64];
	unsigned i;

	(void)state;
	plot_bars_svg(&sb, "ms", "latency (ms)", "share of I/Os (%)", ms, v, 25, 1);
	assert_well_formed(sb.buf);
	assert_no_overlap(sb.buf);
	assert_int_equal(count(sb.buf, "class=\"bar\""), 25);
	for (i = 0; i < 25; i++) {
		const char *tag = nth_tag(sb.buf, "class=\"bar\"", i);

		tag_attr(tag, "data-label", buf, sizeof(buf));
		assert_string_equal(buf, ms[i]);
		tag_attr(tag, "data-v", buf, sizeof(buf));
		sum += strtod(buf, NULL);
	}
	assert_true(fabs(sum - 100) < 0.2);
	assert_non_null(strstr(sb.buf, ">90.5</text>"));
	assert_non_null(strstr(sb.buf, ">0</text>"));
	print_message("25 bars: %u labels, %u values shown\n", count(sb.buf, "class=\"label\""),
		      count(sb.buf, "class=\"value\""));
	strbuf_free(&sb);
	plot_bars_svg(&sb, "few", "x", "y", few, v, 3, 2);
	assert_well_formed(sb.buf);
	assert_no_overlap(sb.buf);
	assert_non_null(strstr(sb.buf, "data-label=\"a&lt;b\""));
	assert_non_null(strstr(sb.buf, ">5.25</text>"));
	strbuf_free(&sb);
	plot_bars_svg(&sb, "none", "x", "y", NULL, NULL, 0, 0);
	assert_well_formed(sb.buf);
	assert_non_null(strstr(sb.buf, ">no samples</text>"));
	strbuf_free(&sb);
}

/* The checker itself rejects what it is there to catch. */
static void test_checker(void **state)
{
	static const char *const bad[] = {
		"<svg><g></svg>",   "<svg><g></g>",	"<svg a=\"1\" a=\"2\"/>",
		"<svg>a < b</svg>", "<svg>a & b</svg>", "<svg a=\"<\"/>",
		"<svg a=1/>",	    "<svg/><svg/>",	"<g/>",
		"<svg>x</svg>y",    "<svg>a > b</svg>", "<svg a=\"&x;\"/>",
	};
	unsigned i;

	(void)state;
	assert_null(xml_check("<?xml version=\"1.0\"?>\n<svg a=\"&amp;&#60;\"><g/>&lt;</svg>\n"));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (!xml_check(bad[i]))
			fail_msg("accepted %s", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker),
		cmocka_unit_test(test_two_series),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_long_title),
		cmocka_unit_test(test_empty_series),
		cmocka_unit_test(test_degenerate_series),
		cmocka_unit_test(test_hist_known),
		cmocka_unit_test(test_hist_empty),
		cmocka_unit_test(test_hist_extremes),
		cmocka_unit_test(test_hist_tight),
		cmocka_unit_test(test_hist_no_overlap),
		cmocka_unit_test(test_cdf_known),
		cmocka_unit_test(test_heat),
		cmocka_unit_test(test_heat_long),
		cmocka_unit_test(test_bars),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
