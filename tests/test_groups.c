/* SPDX-License-Identifier: MIT */
/*
 * report_num, the way the Run status group lines write a figure, on
 * figures whose text fio 3.33 printed for the same bytes (its normal
 * output on the jobs of tests/cli/totals.py): whole numbers, decimals,
 * a carry into the whole, bits, both bases, and few digits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "report/report.h"

struct num_case {
	uint64_t num;
	unsigned digits;
	bool pow2, bits;
	const char *unit, *want;
};

static void test_num(void **state)
{
	static const struct num_case cases[] = {
		/* io=1024KiB (1049kB): 1 MiB, a carry in base 1000 */
		{ 1048576, 4, true, false, "B", "1024KiB" },
		{ 1048576, 4, false, false, "B", "1049kB" },
		/* bw=47.6MiB/s (49.9MB/s): 1 MiB in 21 ms, one decimal */
		{ 49932190, 4, true, false, "B/s", "47.6MiB/s" },
		{ 49932190, 4, false, false, "B/s", "49.9MB/s" },
		/* bw=2000MiB/s (2097MB/s): 2 MiB in 1 ms */
		{ 2097152000, 4, true, false, "B/s", "2000MiB/s" },
		{ 2097152000, 4, false, false, "B/s", "2097MB/s" },
		/* bw=258Mibit/s (270Mbit/s): 528 KiB in 16 ms, in bits, a carry */
		{ 33792000, 4, true, true, "bit/s", "258Mibit/s" },
		{ 33792000, 4, false, true, "bit/s", "270Mbit/s" },
		/* significant_figures=6, kb_base=1000: io=126976B (126976B) */
		{ 126976, 6, false, false, "B", "126976B" },
		/* significant_figures=2: io=0MiB (0MB) for 256 KiB, as fio */
		{ 262144, 2, true, false, "B", "0MiB" },
		{ 262144, 2, false, false, "B", "0MB" },
		/* io=2036KiB (2085kB) */
		{ 2084864, 4, true, false, "B", "2036KiB" },
		{ 2084864, 4, false, false, "B", "2085kB" },
		/* short enough: as it is */
		{ 0, 4, true, false, "B", "0B" },
		{ 4096, 4, true, false, "B", "4096B" },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct num_case *c = &cases[i];
		struct strbuf sb = { 0 };

		report_num(c->num, c->digits, c->pow2, c->bits, c->unit, &sb);
		if (strcmp(sb.buf, c->want))
			print_error("case %u: %llu gives %s, fio printed %s\n", i,
				    (unsigned long long)c->num, sb.buf, c->want);
		assert_string_equal(sb.buf, c->want);
		strbuf_free(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
