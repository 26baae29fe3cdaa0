/* SPDX-License-Identifier: MIT */
/*
 * The remote witness's line protocol (src/crash/wire.c): hellos and
 * lines that parse and lines that do not, what the writer formats read
 * back, and a fuzz of random bytes (every answer BAD or a value read
 * back as it was written; under ASan, no read past the string).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "crash/wire.h"

static void test_hello_round_trip(void **state)
{
	struct wire_hello h = { .run = 0xc0ffee, .bs = 4096, .size = 65536 }, got;
	const char *why = NULL;
	char buf[WIRE_LINE_MAX];
	size_t n;

	(void)state;
	snprintf(h.verify, sizeof(h.verify), "crc32c");
	snprintf(h.promise, sizeof(h.promise), "kill");
	snprintf(h.mode, sizeof(h.mode), "O_DIRECT fsync=8");
	snprintf(h.file, sizeof(h.file), "/data/a file.dat");
	n = wire_format_hello(&h, buf, sizeof(buf));
	assert_true(n > 0 && buf[n - 1] == '\n');
	buf[n - 1] = '\0';
	assert_int_equal(wire_parse_hello(buf, &got, &why), 0);
	assert_int_equal(got.run, h.run);
	assert_int_equal(got.bs, 4096);
	assert_int_equal(got.size, 65536);
	assert_string_equal(got.mode, h.mode);
	assert_string_equal(got.file, h.file);
	assert_string_equal(got.promise, "kill");
	/* The three promises go through; another word does not. */
	snprintf(h.promise, sizeof(h.promise), "power");
	n = wire_format_hello(&h, buf, sizeof(buf));
	buf[n - 1] = '\0';
	assert_int_equal(wire_parse_hello(buf, &got, &why), 0);
	assert_string_equal(got.promise, "power");
	snprintf(h.promise, sizeof(h.promise), "none");
	n = wire_format_hello(&h, buf, sizeof(buf));
	buf[n - 1] = '\0';
	assert_int_equal(wire_parse_hello(buf, &got, &why), 0);
	assert_string_equal(got.promise, "none");
	/* A tab in a field would split it: not formatted. */
	snprintf(h.file, sizeof(h.file), "a\tb");
	assert_int_equal(wire_format_hello(&h, buf, sizeof(buf)), 0);
}

static const char *const bad_hellos[] = {
	"",
	"iogauge-witness 2 abc 4096 65536 crc32c kill\tnone\tf",
	"iogauge-witness 1 abc 4096 65536 crc32c kill\tnone",
	"iogauge-witness 1 0 4096 65536 crc32c kill\tnone\tf",
	"iogauge-witness 1 abc 0 65536 crc32c kill\tnone\tf",
	"iogauge-witness 1 abc 4096 65537 crc32c kill\tnone\tf",
	"iogauge-witness 1 abc 4096 65536 crc32c maybe\tnone\tf",
	"iogauge-witness 1 abc 4096 65536 crc32c powers\tnone\tf",
	"iogauge-witness 1 ABC 4096 65536 crc32c kill\tnone\tf",
	"iogauge-witness 1 abc 4096 99999999999999999999 crc32c kill\tnone\tf",
	"iogauge-witness 1 abc 4096 65536 crc32c kill\t\tf",
	"iogauge-witness 1 abc 4096 65536 crc32c kill\tnone\t",
	"iogauge-witness 1 abc 4096 65536 crc32c kill\tnone\tf\x01",
	"iogauge-witness 1 abc 4096 65536  crc32c kill\tnone\tf",
};

static void test_bad_hellos(void **state)
{
	struct wire_hello h;
	const char *why;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(bad_hellos) / sizeof(bad_hellos[0]); i++) {
		why = NULL;
		assert_int_equal(wire_parse_hello(bad_hellos[i], &h, &why), -22);
		assert_non_null(why);
	}
}

static void test_lines(void **state)
{
	uint64_t a = 0, b = 0;
	char buf[64];
	size_t n;

	(void)state;
	assert_int_equal(wire_parse_line("a 4096 17", &a, &b), WIRE_ACK);
	assert_int_equal(a, 4096);
	assert_int_equal(b, 17);
	assert_int_equal(wire_parse_line("s 3", &a, &b), WIRE_SYNC);
	assert_int_equal(a, 3);
	assert_int_equal(wire_parse_line("a", &a, &b), WIRE_BAD);
	assert_int_equal(wire_parse_line("", &a, &b), WIRE_BAD);
	assert_int_equal(wire_parse_line("a 1", &a, &b), WIRE_BAD);
	assert_int_equal(wire_parse_line("a 1 2 ", &a, &b), WIRE_BAD);
	assert_int_equal(wire_parse_line("a -1 2", &a, &b), WIRE_BAD);
	assert_int_equal(wire_parse_line("s ", &a, &b), WIRE_BAD);
	assert_int_equal(wire_parse_line("k 1", &a, &b), WIRE_BAD);
	assert_int_equal(wire_parse_line("a 12345678901234567890 1", &a, &b), WIRE_BAD);
	n = wire_format_ack(buf, UINT64_C(1) << 50, 42);
	buf[n - 1] = '\0';
	assert_string_equal(buf, "a 1125899906842624 42");
	n = wire_format_count(buf, 'k', 0);
	buf[n] = '\0';
	assert_string_equal(buf, "k 0\n");
}

/* Random lines, from random bytes and from mangled good lines. */
static void test_fuzz(void **state)
{
	static const char hello[] = "iogauge-witness 1 abc 4096 65536 crc32c kill\tnone\t/f";
	static const char *const good[] = { "a 4096 17", "s 3", hello };
	uint64_t x = 0x9e3779b97f4a7c15ull, a, b;
	struct wire_hello h;
	const char *why;
	unsigned i, k, len;

	(void)state;
	for (i = 0; i < 100000; i++) {
		char *line;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		len = (unsigned)(x % 80);
		line = malloc(len + 1); /* exact: ASan sees a read past it */
		if (i & 1) {
			for (k = 0; k < len; k++)
				line[k] = (char)(x >> (k % 56));
		} else {
			const char *g = good[x % 3];

			snprintf(line, len + 1, "%s", g);
			if (len)
				line[(x >> 8) % len] = (char)(x >> 16);
		}
		line[len] = '\0';
		switch (wire_parse_line(line, &a, &b)) {
		case WIRE_ACK:
			assert_true(line[0] == 'a');
			break;
		case WIRE_SYNC:
			assert_true(line[0] == 's');
			break;
		default:
			break;
		}
		if (!wire_parse_hello(line, &h, &why))
			assert_true(h.run && h.bs && h.size % h.bs == 0);
		free(line);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello_round_trip),
		cmocka_unit_test(test_bad_hellos),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
