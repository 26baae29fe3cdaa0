/* SPDX-License-Identifier: MIT */
/* Table-driven tests of the scalar value parsers in units.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jobfile/units.h"
#include "util/util.h"

struct size_case {
	const char *in;
	unsigned kb_base;
	int ret; /* 0 or -EINVAL */
	uint64_t out;
	bool pct;
};

static const struct size_case size_cases[] = {
	{ "0", 1024, 0, 0, false },
	{ "4096", 1024, 0, 4096, false },
	{ "4k", 1024, 0, 4096, false },
	{ "4K", 1024, 0, 4096, false },
	{ "4kb", 1024, 0, 4096, false },
	{ "4KB", 1024, 0, 4096, false },
	/* fio's documented rule: with kb_base=1024, KiB means 1000. */
	{ "4KiB", 1024, 0, 4000, false },
	{ "4kib", 1024, 0, 4000, false },
	{ "4k", 1000, 0, 4000, false },
	{ "4KiB", 1000, 0, 4096, false },
	{ "1m", 1024, 0, 1048576, false },
	{ "1MiB", 1024, 0, 1000000, false },
	{ "1g", 1024, 0, 1073741824ull, false },
	{ "1t", 1024, 0, 1099511627776ull, false },
	{ "1p", 1024, 0, 1125899906842624ull, false },
	{ "1P", 1000, 0, 1000000000000000ull, false },
	/* fio reads 1.5k as 1 byte and 0x10k as 16: refused. */
	{ "1.5k", 1024, -22, 0, false },
	{ "1.", 1024, -22, 0, false },
	{ "0x10", 1024, 0, 16, false },
	{ "0X1F", 1024, 0, 31, false },
	{ "0x10k", 1024, -22, 0, false },
	{ "512b", 1024, 0, 512, false },
	{ "20%", 1024, 0, 20, true },
	{ "4q", 1024, -22, 0, false },	/* fio reads this as 4 bytes */
	{ "4kq", 1024, -22, 0, false }, /* fio reads this as 4096 */
	{ "4ki", 1024, -22, 0, false }, /* fio reads Ki as k: ambiguous */
	{ "k", 1024, -22, 0, false },
	{ "", 1024, -22, 0, false },
	{ "-4k", 1024, -22, 0, false },
	{ "0x", 1024, -22, 0, false },
	{ "16e", 1024, -22, 0, false },
	{ "20000000000000000000", 1024, -22, 0, false },
	{ "17179869184g", 1024, -22, 0, false },
	{ "0%", 1024, 0, 0, false }, /* fio: 0 */
	{ "100%", 1024, 0, 100, true },
	{ "101%", 1024, -22, 0, false },
	{ "4k ", 1024, -22, 0, false },
};

static void test_size(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(size_cases); i++) {
		const struct size_case *c = &size_cases[i];
		uint64_t out = 0;
		bool pct = false;
		char *cause = NULL;
		int ret = units_parse_size(c->in, c->kb_base, &out, &pct, &cause);

		if (ret != c->ret)
			fail_msg("size '%s' kb_base=%u: ret %d, want %d (%s)", c->in, c->kb_base,
				 ret, c->ret, cause ? cause : "");
		if (!ret && (out != c->out || pct != c->pct))
			fail_msg("size '%s' kb_base=%u: got %llu%s, want %llu%s", c->in, c->kb_base,
				 (unsigned long long)out, pct ? "%" : "",
				 (unsigned long long)c->out, c->pct ? "%" : "");
		if (ret)
			assert_non_null(cause);
		free(cause);
	}
}

static void test_size_no_pct(void **state)
{
	uint64_t out;
	char *cause = NULL;

	(void)state;
	assert_int_equal(units_parse_size("50%", 1024, &out, NULL, &cause), -22);
	assert_non_null(strstr(cause, "percentage"));
	free(cause);
	cause = NULL;
	assert_int_equal(units_parse_size("4q", 1024, &out, NULL, &cause), -22);
	assert_non_null(strstr(cause, "unknown size suffix 'q'"));
	free(cause);
}

struct time_case {
	const char *in;
	uint64_t unit;
	int ret;
	uint64_t ns;
};

static const struct time_case time_cases[] = {
	{ "10", NSEC_PER_SEC, 0, 10 * NSEC_PER_SEC },
	{ "10", NSEC_PER_USEC, 0, 10 * NSEC_PER_USEC },
	{ "10s", NSEC_PER_USEC, 0, 10 * NSEC_PER_SEC },
	{ "1.5s", NSEC_PER_SEC, -22, 0 }, /* fio: 1 s */
	{ "1.5", NSEC_PER_SEC, -22, 0 },
	{ "500ms", NSEC_PER_SEC, 0, 500 * NSEC_PER_MSEC },
	{ "500msec", NSEC_PER_SEC, 0, 500 * NSEC_PER_MSEC },
	{ "250us", NSEC_PER_SEC, 0, 250 * NSEC_PER_USEC },
	{ "250usec", NSEC_PER_SEC, 0, 250 * NSEC_PER_USEC },
	{ "7ns", NSEC_PER_SEC, 0, 7 },
	{ "2m", NSEC_PER_SEC, 0, 120 * NSEC_PER_SEC }, /* minutes, as fio */
	{ "2min", NSEC_PER_SEC, 0, 120 * NSEC_PER_SEC },
	{ "1h", NSEC_PER_SEC, 0, 3600 * NSEC_PER_SEC },
	{ "1d", NSEC_PER_SEC, 0, 86400 * NSEC_PER_SEC },
	{ "1S", NSEC_PER_SEC, 0, NSEC_PER_SEC },
	{ "10x", NSEC_PER_SEC, -22, 0 },
	{ "s", NSEC_PER_SEC, -22, 0 },
	{ "-1", NSEC_PER_SEC, -22, 0 },
	{ "999999999999d", NSEC_PER_SEC, -22, 0 },
	/* At most 2^62 ns: more would wrap a deadline (clock + ramp + runtime). */
	{ "4611686018427387904ns", NSEC_PER_SEC, 0, 1ull << 62 },
	{ "4611686018427387905ns", NSEC_PER_SEC, -22, 0 },
	{ "4611686018", NSEC_PER_SEC, 0, 4611686018ull * NSEC_PER_SEC },
	{ "4611686019", NSEC_PER_SEC, -22, 0 },
	{ "18446744073", NSEC_PER_SEC, -22, 0 }, /* fit 64 bits, wrapped the deadline */
	{ "53375d", NSEC_PER_SEC, 0, 53375ull * 86400 * NSEC_PER_SEC },
	{ "53376d", NSEC_PER_SEC, -22, 0 },
};

static void test_time(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(time_cases); i++) {
		const struct time_case *c = &time_cases[i];
		uint64_t ns = 0;
		char *cause = NULL;
		int ret = units_parse_time(c->in, c->unit, &ns, &cause);

		if (ret != c->ret || (!ret && ns != c->ns))
			fail_msg("time '%s': ret %d ns %llu, want %d %llu (%s)", c->in, ret,
				 (unsigned long long)ns, c->ret, (unsigned long long)c->ns,
				 cause ? cause : "");
		free(cause);
	}
}

static void test_time_format(void **state)
{
	static const struct {
		uint64_t ns;
		const char *out;
	} cases[] = {
		{ 60 * NSEC_PER_SEC, "1m" },
		{ 90 * NSEC_PER_SEC, "90s" },
		{ 1500 * NSEC_PER_MSEC, "1500ms" },
		{ 250 * NSEC_PER_USEC, "250us" },
		{ 7, "7ns" },
		{ 86400 * NSEC_PER_SEC, "1d" },
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		units_format_time(cases[i].ns, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].out);
	}
}

static void test_bool(void **state)
{
	static const char *const yes[] = { "1", "true", "TRUE", "yes", "on", "On" };
	static const char *const no[] = { "0", "false", "no", "off", "OFF" };
	static const char *const bad[] = { "2", "maybe", "", "01", "y" };
	char *cause = NULL;
	bool b;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		assert_int_equal(units_parse_bool(yes[i], &b, &cause), 0);
		assert_true(b);
	}
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		assert_int_equal(units_parse_bool(no[i], &b, &cause), 0);
		assert_false(b);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(units_parse_bool(bad[i], &b, &cause), -22);
		assert_non_null(strstr(cause, "not a boolean"));
		free(cause);
		cause = NULL;
	}
}

static void test_uint_and_range(void **state)
{
	uint64_t v;
	char *cause = NULL;

	(void)state;
	assert_int_equal(units_parse_uint("42", &v, &cause), 0);
	assert_int_equal(v, 42);
	assert_int_equal(units_parse_uint("0x89", &v, &cause), 0);
	assert_int_equal(v, 0x89);
	assert_int_equal(units_parse_uint("4k", &v, &cause), -22);
	free(cause);
	cause = NULL;
	assert_int_equal(units_parse_uint("1.5", &v, &cause), -22);
	free(cause);
	assert_int_equal(units_range_split("4k-64k"), 2);
	assert_int_equal(units_range_split("4k:64k"), 2);
	assert_int_equal(units_range_split("4k"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size), cmocka_unit_test(test_size_no_pct),
		cmocka_unit_test(test_time), cmocka_unit_test(test_time_format),
		cmocka_unit_test(test_bool), cmocka_unit_test(test_uint_and_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
