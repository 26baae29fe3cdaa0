/* SPDX-License-Identifier: MIT */
/*
 * What the bytes written are, on their own (payload.h): buffer_pattern's
 * fill, and dedupe_percentage's repeats (repeat, working_set, the sets
 * dedupe_global shares), from jobs built from job file text, with no
 * files and no run.  Also the readers of sync_file_range and of the NUMA
 * options in job.c, through the same job files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>

#include <cmocka.h>

#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "run/payload.h"

struct built {
	struct jobset js;
	struct job *jobs;
	unsigned nr;
};

/* The jobs of @text; 0, or -EINVAL with *cause (not NULL) for a refusal. */
static int build(struct built *b, const char *text, char **cause)
{
	int ret;

	memset(b, 0, sizeof(*b));
	jobset_init(&b->js);
	ret = jobfile_parse_mem(&b->js, "p.fio", text, strlen(text), cause);
	if (!ret)
		ret = job_build_all(&b->js, &b->jobs, &b->nr, cause);
	return ret;
}

static void unbuild(struct built *b)
{
	job_free_all(b->jobs, b->nr);
	jobset_free(&b->js);
}

static void must_build(struct built *b, const char *text)
{
	char *cause = NULL;

	if (build(b, text, &cause))
		fail_msg("%s\n%s", cause, text);
}

#define BS 4096
#define NW 2000

/* @n writes' buffers of @pl, one after another. */
static char *writes(struct payload *pl, unsigned n)
{
	char *all = malloc((size_t)n * BS);
	unsigned i;

	assert_non_null(all);
	for (i = 0; i < n; i++)
		payload_refill(pl, all + (size_t)i * BS, BS);
	return all;
}

static int cmp_block(const void *a, const void *b)
{
	return memcmp(a, b, BS);
}

/* How many of @n blocks repeat an earlier one. */
static unsigned repeats(char *all, unsigned n)
{
	char *sorted = malloc((size_t)n * BS);
	unsigned i, dup = 0;

	assert_non_null(sorted);
	memcpy(sorted, all, (size_t)n * BS);
	qsort(sorted, n, BS, cmp_block);
	for (i = 1; i < n; i++)
		dup += !memcmp(sorted + (size_t)(i - 1) * BS, sorted + (size_t)i * BS, BS);
	free(sorted);
	return dup;
}

/* A pattern fills the buffer from its first byte, unscrambled. */
static void test_pattern_fill(void **state)
{
	struct built b;
	struct payload pl;
	char buf[100];
	unsigned i;

	(void)state;
	must_build(&b, "[p]\nsize=1m\nrw=write\nbuffer_pattern=0xaa\"xyz\"1234\n");
	payload_init(&pl, &b.jobs[0], 1, 1);
	assert_false(pl.scramble);
	payload_fill(&pl, buf, sizeof(buf));
	for (i = 0; i < sizeof(buf); i++)
		assert_int_equal((unsigned char)buf[i], (unsigned char)"\xaaxyz\xd2\x04"[i % 6]);
	payload_free(&pl);
	unbuild(&b);
}

/* With compression, each chunk's tail is the pattern, from its start. */
static void test_pattern_compressed(void **state)
{
	struct built b;
	struct payload pl;
	char buf[1024];
	unsigned i;

	(void)state;
	must_build(&b, "[p]\nsize=1m\nrw=write\nbuffer_pattern=0x55aa\n"
		       "buffer_compress_percentage=75\nbuffer_compress_chunk=512\n");
	payload_init(&pl, &b.jobs[0], 1, 1);
	payload_fill(&pl, buf, sizeof(buf));
	for (i = 0; i < sizeof(buf); i++)
		if (i % 512 >= 128)
			assert_int_equal((unsigned char)buf[i], (i % 512 - 128) % 2 ? 0xaa : 0x55);
	assert_true(memcmp(buf, buf + 512, 128) != 0);
	payload_free(&pl);
	unbuild(&b);
}

/* 0: no block repeats; 100: all are one; 30: about 30% repeat. */
static void test_dedupe_shares(void **state)
{
	static const struct {
		const char *opts;
		unsigned lo, hi; /* repeats of NW */
	} cases[] = {
		{ "", 0, 0 },
		{ "dedupe_percentage=100\n", NW - 1, NW - 1 },
		{ "dedupe_percentage=30\n", NW * 26 / 100, NW * 34 / 100 },
		{ "dedupe_percentage=30\nbuffer_compress_percentage=50\n", NW * 26 / 100,
		  NW * 34 / 100 },
		{ "dedupe_percentage=50\ndedupe_mode=working_set\n", NW * 45 / 100, NW * 55 / 100 },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256];
		struct built b;
		struct payload pl;
		unsigned dup;
		char *all;

		snprintf(text, sizeof(text), "[d]\nsize=8m\nbs=4k\nrw=write\nrefill_buffers=1\n%s",
			 cases[i].opts);
		must_build(&b, text);
		payload_init(&pl, &b.jobs[0], 7, 1);
		all = writes(&pl, NW);
		dup = repeats(all, NW);
		if (dup < cases[i].lo || dup > cases[i].hi)
			fail_msg("%s: %u of %u repeat, not %u..%u", cases[i].opts, dup, NW,
				 cases[i].lo, cases[i].hi);
		free(all);
		payload_free(&pl);
		unbuild(&b);
	}
}

/* The page a working-set seed makes: payload_refill's fill, all random. */
static void page_of(uint64_t seed, char *page)
{
	struct rng r;
	size_t l;

	rng_seed(&r, seed);
	for (l = 0; l < BS; l += 8) {
		uint64_t v = rng_next(&r);

		memcpy(page + l, &v, 8);
	}
}

/* working_set: 5% of 8 MiB in 4 KiB blocks is 102 pages, the clone's
 * first unique buffers; every repeat is one of them. */
static void test_working_set_pages(void **state)
{
	struct built b;
	struct payload pl;
	char page[BS], *all;
	unsigned i, k, outside = 0, dup = 0;

	(void)state;
	must_build(&b, "[d]\nsize=8m\nbs=4k\nrw=write\ndedupe_percentage=40\n"
		       "dedupe_mode=working_set\n");
	payload_init(&pl, &b.jobs[0], 7, 1);
	assert_int_equal(pl.nr_ws, 8u * 1024 * 1024 / 100 * 5 / BS);
	assert_int_equal(pl.ws[0], pl.next_seed);
	all = writes(&pl, NW);
	/* The first write was unique: page 0. */
	page_of(pl.ws[0], page);
	assert_memory_equal(page, all, BS);
	for (i = 1; i < NW; i++) {
		bool seen = false, in = false;

		for (k = 0; k < i && !seen; k++)
			seen = !memcmp(all + (size_t)i * BS, all + (size_t)k * BS, BS);
		if (!seen)
			continue;
		dup++;
		for (k = 0; k < pl.nr_ws && !in; k++) {
			page_of(pl.ws[k], page);
			in = !memcmp(page, all + (size_t)i * BS, BS);
		}
		outside += !in;
	}
	assert_true(dup > NW / 3);
	assert_int_equal(outside, 0);
	free(all);
	payload_free(&pl);
	unbuild(&b);
}

/* dedupe_global: clone 0's set is its own first seeds, then clone 1's;
 * clone 1's starts with its own. */
static void test_global_share(void **state)
{
	struct built b;
	struct payload a, c, own_a, own_c;
	struct payload *pls[2] = { &a, &c };
	uint64_t per;

	(void)state;
	must_build(&b, "[global]\nsize=8m\nbs=4k\nrw=write\ndedupe_percentage=40\n"
		       "dedupe_mode=working_set\ndedupe_global=1\n[a]\n[b]\n");
	payload_init(&a, &b.jobs[0], 5, 1);
	payload_init(&c, &b.jobs[1], 5, 2);
	payload_init(&own_a, &b.jobs[0], 5, 1);
	payload_init(&own_c, &b.jobs[1], 5, 2);
	payload_dedupe_share(pls, 2);
	per = a.nr_ws / 2;
	assert_memory_equal(a.ws, own_a.ws, per * sizeof(uint64_t));
	assert_memory_equal(a.ws + per, own_c.ws, per * sizeof(uint64_t));
	assert_memory_equal(c.ws, own_c.ws, per * sizeof(uint64_t));
	assert_memory_equal(c.ws + per, own_a.ws, per * sizeof(uint64_t));
	/* Two jobs' unique buffers differ (the clone's place is in the seed). */
	assert_true(own_a.next_seed != own_c.next_seed);
	payload_free(&a);
	payload_free(&c);
	payload_free(&own_a);
	payload_free(&own_c);
	unbuild(&b);
}

/* What job.c reads, and what it refuses. */
static void test_job_rules(void **state)
{
	static const struct {
		const char *opts;
		int ok;
		unsigned sfr_flags, sfr_nr;
	} cases[] = {
		{ "sync_file_range=write:8\n", 1, SYNC_FILE_RANGE_WRITE, 8 },
		{ "sync_file_range=wait_before,write,wait_after\n", 1,
		  SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER,
		  1 },
		{ "sync_file_range=wait_after:0\n", 1, SYNC_FILE_RANGE_WAIT_AFTER, 0 },
		{ "sync_file_range=write:\n", 0, 0, 0 },
		{ "sync_file_range=writes:2\n", 0, 0, 0 },
		{ "sync_file_range=write:2\nfsync=4\n", 0, 0, 0 },
		{ "buffer_pattern=0x12%o\n", 0, 0, 0 },
		{ "dedupe_percentage=96\ndedupe_mode=working_set\n", 0, 0, 0 },
		{ "dedupe_percentage=10\ndedupe_mode=working_set\nnrfiles=2\n", 0, 0, 0 },
		{ "dedupe_percentage=10\ndedupe_mode=working_set\ndedupe_working_set_percentage=0\n",
		  0, 0, 0 },
		{ "lockmem=10%\n", 0, 0, 0 },
		{ "cpumask=0x1\n", 1, 0, 0 },
		{ "numa_mem_policy=local:0\n", 0, 0, 0 },
		{ "numa_mem_policy=bind\n", 0, 0, 0 },
		{ "numa_mem_policy=prefer:0-1\n", 0, 0, 0 },
		{ "numa_mem_policy=sometimes\n", 0, 0, 0 },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256], *cause = NULL;
		struct built b;
		int ret;

		snprintf(text, sizeof(text), "[j]\nsize=1m\nrw=write\n%s", cases[i].opts);
		ret = build(&b, text, &cause);
		if (cases[i].ok != !ret)
			fail_msg("%s: %s", cases[i].opts, ret ? cause : "taken");
		if (!ret && strstr(cases[i].opts, "sync_file_range")) {
			assert_int_equal(b.jobs[0].sfr_flags, cases[i].sfr_flags);
			assert_int_equal(b.jobs[0].sfr_nr, cases[i].sfr_nr);
		}
		if (!ret && strstr(cases[i].opts, "cpumask"))
			assert_true(b.jobs[0].cpus_allowed_set && b.jobs[0].cpus_allowed[0] == 1);
		/* A refusal names the line that set the value. */
		if (ret && !strstr(cause, "p.fio:"))
			fail_msg("%s: no line in %s", cases[i].opts, cause);
		free(cause);
		unbuild(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_fill),  cmocka_unit_test(test_pattern_compressed),
		cmocka_unit_test(test_dedupe_shares), cmocka_unit_test(test_working_set_pages),
		cmocka_unit_test(test_global_share),  cmocka_unit_test(test_job_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
