/* SPDX-License-Identifier: MIT */
/*
 * Table-driven tests of the plan (plan.c): values near 2^63 and 2^64 are
 * refused at the line that set them, those just inside are planned, and
 * the sums, regions and percentages match a 128-bit oracle.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jobfile/cli.h"
#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "plan/plan.h"

#define PAGE 4096u

struct planned {
	struct jobset js;
	struct job *jobs;
	unsigned nr;
	struct run_plan plan;
	char *cause;
	int ret;
};

/* Parses and builds @text as t.fio (which must succeed), then plans it. */
static void plan_text(struct planned *p, uint64_t page, const char *text)
{
	memset(p, 0, sizeof(*p));
	jobset_init(&p->js);
	p->ret = jobfile_parse_mem(&p->js, "t.fio", text, strlen(text), &p->cause);
	if (!p->ret)
		p->ret = job_build_all(&p->js, &p->jobs, &p->nr, &p->cause);
	if (p->ret)
		fail_msg("does not build: %s\n%s", p->cause, text);
	p->ret = plan_jobs(p->jobs, p->nr, page, &p->plan, &p->cause);
}

static void planned_free(struct planned *p)
{
	plan_free(&p->plan);
	job_free_all(p->jobs, p->nr);
	jobset_free(&p->js);
	free(p->cause);
}

struct refusal {
	const char *text;
	const char *prefix; /* the message starts with it: file:line: [job] */
	const char *says;   /* ... and has this in it */
};

static const struct refusal refusals[] = {
	/* The crash of issue 21: buffer sums wrapped to 0. */
	{ "[x]\nioengine=null\nsize=1024p\nbs=1024p\niodepth=16\n", "t.fio:4: [x] ",
	  "block size of 1152921504606846976 bytes (for reads) is larger than 2147479552" },
	{ "[x]\nioengine=null\nsize=4g\nbs=2147479553\n", "t.fio:4: [x] ",
	  "larger than 2147479552" },
	{ "[x]\nioengine=null\nsize=8g\nbs=4k,4g\n", "t.fio:4: [x] ", "(for writes)" },
	{ "[x]\nioengine=null\nsize=8g\nbsrange=4k-3g\n", "t.fio:4: [x] ", "3221225472 bytes" },
	{ "[x]\nioengine=null\nsize=8g\nbssplit=4k/50:4g/50\n", "t.fio:4: [x] ",
	  "4294967296 bytes" },
	/* The other crash: offset + size wrapped past 2^64. */
	{ "[x]\nrw=write\noffset=18446744073708503040\nsize=1m\n", "t.fio:3: [x] ",
	  "the I/O region (offset 18446744073708503040, 1048576 bytes) ends past "
	  "9223372036854775807" },
	/* One byte past the largest file offset. */
	{ "[x]\nioengine=null\noffset=9223372036853727232\nsize=1m\n", "t.fio:3: [x] ",
	  "ends past 9223372036854775807" },
	{ "[x]\nioengine=null\nsize=9223372036854775808\n", "t.fio:3: [x] ", "ends past" },
	/* The size is blamed when it is the larger part. */
	{ "[x]\nioengine=null\noffset=1m\nsize=18446744073709551615\n", "t.fio:4: [x] ",
	  "ends past" },
	/* offset_increment for each clone: wrapped (x 2), or past 2^63 (x 3). */
	{ "[x]\nioengine=null\nsize=1m\noffset_increment=9223372036854775808\nnumjobs=3\n",
	  "t.fio:4: [x] ", "past 2^64 bytes" },
	{ "[x]\nioengine=null\nsize=1m\noffset_increment=4611686018427387904\nnumjobs=3\n",
	  "t.fio:4: [x] ", "region of the last clone (offset 9223372036854775808," },
	{ "[x]\nioengine=null\nfilesize=9223372036854775808\n", "t.fio:3: [x] ", "ends past" },
};

static void test_refused(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(refusals); i++) {
		const struct refusal *c = &refusals[i];
		struct planned p;

		plan_text(&p, PAGE, c->text);
		if (p.ret != -EINVAL || strncmp(p.cause, c->prefix, strlen(c->prefix)) ||
		    !strstr(p.cause, c->says))
			fail_msg("case %zu: ret %d, cause '%s'; want '%s...%s'\n%s", i, p.ret,
				 p.cause ? p.cause : "", c->prefix, c->says, c->text);
		/* Refused: nothing is left to free. */
		assert_null(p.plan.v);
		planned_free(&p);
	}
}

/* A flag's value is refused naming the flag. */
static void test_refused_flag(void **state)
{
	char a0[] = "iogauge", a1[] = "--name=c", a2[] = "--ioengine=null",
	     a3[] = "--offset=9223372036854775807", a4[] = "--size=1m";
	char *argv[] = { a0, a1, a2, a3, a4, NULL };
	struct run_plan plan;
	struct job *jobs = NULL;
	struct cli cli;
	char *cause = NULL;
	unsigned nr = 0;

	(void)state;
	assert_int_equal(cli_parse(&cli, 5, argv, &cause), 0);
	assert_int_equal(job_build_all(&cli.js, &jobs, &nr, &cause), 0);
	assert_int_equal(plan_jobs(jobs, nr, PAGE, &plan, &cause), -EINVAL);
	if (strncmp(cause, "--offset: [c] the I/O region", 28))
		fail_msg("cause: %s", cause);
	free(cause);
	job_free_all(jobs, nr);
	cli_free(&cli);
}

/* Values at the limits are planned, with sums as a 128-bit product says. */
static void test_near_limits(void **state)
{
	struct planned p;
	const struct job_plan *jp;

	(void)state;
	plan_text(&p, PAGE,
		  "[x]\nioengine=null\nsize=4g\nbs=2147479552\niodepth=65536\nnumjobs=4\n");
	assert_int_equal(p.ret, 0);
	jp = &p.plan.v[0];
	assert_int_equal(jp->bs_max, PLAN_BS_MAX);
	assert_int_equal(jp->buf_size, PLAN_BS_MAX); /* a whole number of pages already */
	assert_int_equal(jp->depth, 65536);
	assert_true((unsigned __int128)jp->job_mem == (unsigned __int128)PLAN_BS_MAX * 65536 * 4);
	assert_int_equal(p.plan.mem, jp->job_mem);
	planned_free(&p);

	/* The region ends at the largest file offset exactly. */
	plan_text(&p, PAGE, "[x]\nioengine=null\noffset=9223372036853727231\nsize=1m\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan.v[0].start + p.plan.v[0].len, PLAN_REGION_MAX);
	planned_free(&p);

	/* The last of 4 clones' regions ends there too. */
	plan_text(&p, PAGE,
		  "[x]\nioengine=null\nsize=1m\noffset_increment=3074457345617909077\n"
		  "numjobs=4\n");
	assert_int_equal(p.ret, 0);
	{
		uint64_t start, len;

		plan_region(&p.plan.v[0], 3, 0, &start, &len);
		assert_int_equal(start, 3 * 3074457345617909077ull);
		assert_int_equal(len, 1048576);
		assert_int_equal(start + len, PLAN_REGION_MAX);
	}
	planned_free(&p);

	/* size is split over the files: 2^64 - 2 in two halves of 2^63 - 1. */
	plan_text(&p, PAGE, "[x]\nioengine=null\nnrfiles=2\nsize=18446744073709551614\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan.v[0].len, PLAN_REGION_MAX);
	planned_free(&p);
}

/* Buffers: a sync engine has one slot; slots are whole pages (of the
 * page given); sub_blocks add their pieces; the run's total is the sum
 * and the job needing the most is named. */
static void test_memory(void **state)
{
	struct planned p;

	(void)state;
	plan_text(&p, PAGE,
		  "[a]\nioengine=psync\nsize=1m\nbs=1000\niodepth=32\n"
		  "[b]\nioengine=null\nsize=64m\nbs=1m\niodepth=16\nnumjobs=4\n"
		  "[c]\nioengine=null\nsize=1m\nbs=64k\nsub_blocks=4\nsub_block_io=copy\n"
		  "iodepth=2\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan.v[0].depth, 1);
	assert_int_equal(p.plan.v[0].buf_size, 4096);
	assert_int_equal(p.plan.v[0].job_mem, 4096);
	assert_int_equal(p.plan.v[1].depth, 16);
	assert_int_equal(p.plan.v[1].clone_mem, 16ull << 20);
	assert_int_equal(p.plan.v[1].job_mem, 64ull << 20);
	assert_int_equal(p.plan.v[2].sub_piece, 16384);
	assert_int_equal(p.plan.v[2].clone_mem, 2 * (65536 + 4 * 16384));
	assert_int_equal(p.plan.mem, 4096 + (64ull << 20) + 2 * (65536 + 4 * 16384));
	assert_int_equal(p.plan.mem_most, 1);
	assert_int_equal(p.plan.clones, 6);
	planned_free(&p);

	plan_text(&p, 65536, "[a]\nioengine=null\nsize=1m\nbs=1000\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan.v[0].buf_size, 65536);
	planned_free(&p);
}

/* Each clone's start steps by offset_increment; a filesize range draws
 * one size per file, the same on every plan, within the range. */
static void test_regions(void **state)
{
	struct planned p;
	uint64_t start, len, again;
	unsigned f;

	(void)state;
	plan_text(&p, PAGE,
		  "[x]\nioengine=null\nsize=4m\nnrfiles=4\noffset=1m\noffset_increment=8m\n"
		  "numjobs=3\n");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.plan.v[0].nfiles, 4);
	plan_region(&p.plan.v[0], 2, 3, &start, &len);
	assert_int_equal(start, (1 << 20) + 2 * (8 << 20));
	assert_int_equal(len, 1 << 20);
	planned_free(&p);

	plan_text(&p, PAGE, "[x]\nioengine=null\nfilesize=1m-2m\nnrfiles=3\noffset=4k\n");
	assert_int_equal(p.ret, 0);
	for (f = 0; f < 3; f++) {
		plan_region(&p.plan.v[0], 0, f, &start, &len);
		plan_region(&p.plan.v[0], 0, f, &start, &again);
		assert_int_equal(len, again);
		assert_int_equal(start, 4096);
		assert_true(start + len >= 1 << 20 && start + len <= 2 << 20);
	}
	planned_free(&p);
}

static uint64_t pct_oracle(uint64_t v, uint64_t pct)
{
	return (uint64_t)((unsigned __int128)v * pct / 100);
}

static void test_pct(void **state)
{
	static const uint64_t vs[] = { 0,
				       1,
				       99,
				       100,
				       101,
				       12345678,
				       1ull << 62,
				       (1ull << 63) - 1,
				       184467440737095516ull,
				       184467440737095517ull,
				       UINT64_MAX - 1,
				       UINT64_MAX };
	size_t i;
	uint64_t pct;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(vs); i++)
		for (pct = 0; pct <= 100; pct++)
			if (plan_pct(vs[i], pct) != pct_oracle(vs[i], pct))
				fail_msg("%llu x %llu%%: %llu, want %llu",
					 (unsigned long long)vs[i], (unsigned long long)pct,
					 (unsigned long long)plan_pct(vs[i], pct),
					 (unsigned long long)pct_oracle(vs[i], pct));
}

/* Percentages taken of the file once its size is known: in whole blocks,
 * what is left after a percentage offset, and -ERANGE (not a wrapped
 * region) when the sums do not fit. */
static void test_region_in_file(void **state)
{
	struct planned p;
	uint64_t start, len;

	(void)state;
	plan_text(&p, PAGE, "[x]\nbs=4k\noffset=50%\nsize=25%\n");
	assert_int_equal(p.ret, 0);
	plan_region(&p.plan.v[0], 0, 0, &start, &len);
	assert_int_equal(plan_region_in_file(&p.plan.v[0], 0, 1000000, &start, &len), 0);
	assert_int_equal(start, 503808); /* 500000 up to a whole 4k block, as fio */
	assert_int_equal(len, 249856);	 /* 250000 down to a whole block */
	/* A file of 2^63 - 1 bytes: no product past 2^64 on the way. */
	start = 0;
	len = 0;
	assert_int_equal(plan_region_in_file(&p.plan.v[0], 0, PLAN_REGION_MAX, &start, &len), 0);
	assert_int_equal(start, (pct_oracle(PLAN_REGION_MAX, 50) + 4095) / 4096 * 4096);
	assert_int_equal(len, pct_oracle(PLAN_REGION_MAX, 25) / 4096 * 4096);
	planned_free(&p);

	/* offset_increment=60% for clone 4095 of a huge file wraps 2^64. */
	plan_text(&p, PAGE, "[x]\nbs=4k\noffset_increment=60%\nnumjobs=4096\n");
	assert_int_equal(p.ret, 0);
	plan_region(&p.plan.v[0], 4095, 0, &start, &len);
	assert_int_equal(plan_region_in_file(&p.plan.v[0], 4095, 1ull << 62, &start, &len),
			 -ERANGE);
	/* ... and clone 1 of a small one is past its end: no region. */
	plan_region(&p.plan.v[0], 1, 0, &start, &len);
	assert_int_equal(plan_region_in_file(&p.plan.v[0], 1, 1 << 20, &start, &len), 0);
	assert_int_equal(start, 4096 * 154); /* 629145 up to a whole block */
	plan_region(&p.plan.v[0], 2, 0, &start, &len);
	assert_int_equal(plan_region_in_file(&p.plan.v[0], 2, 1 << 20, &start, &len), -ERANGE);
	planned_free(&p);

	/* A byte offset past a file of bytes given: it does not fit. */
	plan_text(&p, PAGE, "[x]\nbs=4k\noffset=2m\n");
	assert_int_equal(p.ret, 0);
	plan_region(&p.plan.v[0], 0, 0, &start, &len);
	assert_int_equal(plan_region_in_file(&p.plan.v[0], 0, 1 << 20, &start, &len), -ERANGE);
	planned_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),	       cmocka_unit_test(test_refused_flag),
		cmocka_unit_test(test_near_limits),    cmocka_unit_test(test_memory),
		cmocka_unit_test(test_regions),	       cmocka_unit_test(test_pct),
		cmocka_unit_test(test_region_in_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
