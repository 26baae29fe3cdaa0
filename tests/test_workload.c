/* SPDX-License-Identifier: MIT */
/*
 * The workload generator on its own (workload.h): offsets, directions and
 * block sizes drawn straight from workload_next over regions made up here,
 * with no engine, no files and no run.
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

#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "workload/workload.h"

/* One job built from a job file's text, a region of one made-up file
 * ([start, start + len)), and the workload over them. */
struct fixture {
	struct jobset js;
	struct job *jobs;
	unsigned nr;
	struct run_file file;
	struct run_files fs;
	struct workload wl;
};

static void build(struct fixture *fx, uint64_t start, uint64_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void build(struct fixture *fx, uint64_t start, uint64_t len, const char *fmt, ...)
{
	char text[1024], *cause = NULL;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	memset(fx, 0, sizeof(*fx));
	jobset_init(&fx->js);
	ret = jobfile_parse_mem(&fx->js, "w.fio", text, strlen(text), &cause);
	if (!ret)
		ret = job_build_all(&fx->js, &fx->jobs, &fx->nr, &cause);
	if (ret)
		fail_msg("%s\n%s", cause, text);
	fx->file.path = (char *)"region";
	fx->file.fd = -1;
	fx->file.start = start;
	fx->file.len = len;
	fx->file.size = start + len;
	fx->fs.v = &fx->file;
	fx->fs.n = 1;
	fx->fs.mem_align = 4096;
	ret = workload_init(&fx->wl, &fx->jobs[0], &fx->fs, 0, 1, 42, true, &cause);
	if (ret)
		fail_msg("workload_init: %s\n%s", cause, text);
}

static void unbuild(struct fixture *fx)
{
	workload_free(&fx->wl);
	job_free_all(fx->jobs, fx->nr);
	jobset_free(&fx->js);
}

/* Sequential: block after block from the region's start, back to the
 * start past its end; without a gap the limit is left alone. */
static void test_sequential_wraps(void **state)
{
	uint64_t limit = UINT64_MAX;
	struct fixture fx;
	struct io_req req;
	unsigned i;

	(void)state;
	build(&fx, 8192, 65536, "[s]\nioengine=null\nsize=1m\nbs=4k\nrw=read\n");
	for (i = 0; i < 40; i++) {
		memset(&req, 0, sizeof(req));
		workload_next(&fx.wl, &req, NULL, &limit, 0);
		assert_int_equal(limit, UINT64_MAX);
		assert_int_equal(req.op, IO_OP_READ);
		assert_int_equal(req.len, 4096);
		assert_int_equal(req.off, 8192 + (i % 16) * 4096ull);
		assert_int_equal(req.file, 0);
		assert_int_equal(req.fd, -1);
	}
	unbuild(&fx);
}

/* rw=write:4k with loops=2 over 15 blocks: every other block, and the
 * block that reaches the end of the second pass is the job's last. */
static void test_sequential_gap_ends_after_loops(void **state)
{
	uint64_t limit = UINT64_MAX;
	struct fixture fx;
	struct io_req req;
	unsigned i;

	(void)state;
	build(&fx, 0, 15 * 4096, "[g]\nioengine=null\nsize=1m\nbs=4k\nrw=write:4k\nloops=2\n");
	for (i = 0; i < 16; i++) {
		workload_next(&fx.wl, &req, NULL, &limit, i * 4096ull);
		assert_int_equal(req.op, IO_OP_WRITE);
		assert_int_equal(req.off, (i % 8) * 8192ull);
		/* The limit: the bytes issued once this I/O is. */
		assert_int_equal(limit, i < 15 ? UINT64_MAX : 16 * 4096ull);
	}
	unbuild(&fx);
}

/* Random with the random map: every block of the region once per pass,
 * aligned, inside the region; the next pass covers them all again. */
static void test_random_covers_region(void **state)
{
	const uint64_t start = 1 << 20, len = 256 << 10, nblk = len / 4096;
	unsigned char seen[64];
	uint64_t limit = UINT64_MAX;
	struct fixture fx;
	struct io_req req;
	unsigned pass, i;
	uint64_t k;

	(void)state;
	build(&fx, start, len, "[r]\nioengine=null\nsize=8m\nbs=4k\nrw=randread\n");
	for (pass = 0; pass < 2; pass++) {
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < nblk; i++) {
			workload_next(&fx.wl, &req, NULL, &limit, 0);
			assert_int_equal(req.op, IO_OP_READ);
			assert_true(req.off >= start && req.off + req.len <= start + len);
			assert_int_equal((req.off - start) % 4096, 0);
			k = (req.off - start) / 4096;
			assert_true(k < sizeof(seen));
			assert_int_equal(seen[k % sizeof(seen)]++, 0);
		}
	}
	unbuild(&fx);
}

/* Random with blocks of 4k to 16k: each pass covers every 4k unit exactly
 * once (blocks cut back where they would cover a unit twice), inside the
 * region. */
static void test_random_bsrange_map(void **state)
{
	const uint64_t len = 1 << 20, units = len / 4096;
	unsigned char seen[256];
	uint64_t limit = UINT64_MAX;
	struct fixture fx;
	struct io_req req;
	uint64_t covered = 0, u, sizes = 0;
	unsigned pass;

	(void)state;
	build(&fx, 0, len, "[b]\nioengine=null\nsize=8m\nbsrange=4k-16k\nrw=randwrite\n");
	for (pass = 0; pass < 2; pass++) {
		memset(seen, 0, sizeof(seen));
		for (covered = 0; covered < units; covered += req.len / 4096) {
			workload_next(&fx.wl, &req, NULL, &limit, 0);
			assert_int_equal(req.op, IO_OP_WRITE);
			assert_true(req.len >= 4096 && req.len <= 16384 && req.len % 4096 == 0);
			assert_true(req.off + req.len <= len);
			for (u = req.off / 4096; u < (req.off + req.len) / 4096; u++)
				assert_int_equal(seen[u]++, 0);
			sizes |= 1u << (req.len / 4096);
		}
		assert_int_equal(covered, units);
	}
	/* More than one size was drawn. */
	assert_true(__builtin_popcountll(sizes) > 1);
	unbuild(&fx);
}

/* rwmixread=70: about 70% reads over many I/Os, for rw and randrw; a
 * mix of 0 or 100 gives one direction only. */
static void test_mix_proportions(void **state)
{
	static const struct {
		const char *rw;
		unsigned mix;
		double lo, hi;
	} cases[] = {
		{ "randrw", 70, 0.67, 0.73 }, { "rw", 70, 0.67, 0.73 },
		{ "randrw", 25, 0.22, 0.28 }, { "randrw", 100, 1.0, 1.0 },
		{ "randrw", 0, 0.0, 0.0 },
	};
	uint64_t limit = UINT64_MAX;
	struct fixture fx;
	struct io_req req;
	unsigned c, i, reads;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		build(&fx, 0, 64 << 20,
		      "[m]\nioengine=null\nsize=64m\nbs=4k\nrw=%s\nrwmixread=%u\n", cases[c].rw,
		      cases[c].mix);
		for (i = reads = 0; i < 20000; i++) {
			workload_next(&fx.wl, &req, NULL, &limit, 0);
			assert_true(req.op == IO_OP_READ || req.op == IO_OP_WRITE);
			reads += req.op == IO_OP_READ;
		}
		if ((double)reads / 20000 < cases[c].lo || (double)reads / 20000 > cases[c].hi)
			fail_msg("rw=%s rwmixread=%u: %u reads of 20000", cases[c].rw, cases[c].mix,
				 reads);
		assert_int_equal(fx.wl.mix_issues[DDIR_READ], reads);
		unbuild(&fx);
	}
}

/* random_distribution=zoned:60/10:30/20:10/70: 60% of the offsets in the
 * first tenth of the region, 30% in the next fifth, 10% in the rest. */
static void test_zoned(void **state)
{
	const uint64_t len = 4000 * 4096ull;
	unsigned n[3] = { 0 }, i;
	uint64_t limit = UINT64_MAX;
	struct fixture fx;
	struct io_req req;

	(void)state;
	build(&fx, 4096, len,
	      "[z]\nioengine=null\nsize=64m\nbs=4k\nrw=randread\n"
	      "random_distribution=zoned:60/10:30/20:10/70\n");
	for (i = 0; i < 20000; i++) {
		double at;

		workload_next(&fx.wl, &req, NULL, &limit, 0);
		assert_true(req.off >= 4096 && req.off + req.len <= 4096 + len);
		at = (double)(req.off - 4096) / (double)len;
		n[at < 0.1 ? 0 : at < 0.3 ? 1 : 2]++;
	}
	if (n[0] < 11400 || n[0] > 12600 || n[1] < 5400 || n[1] > 6600 || n[2] < 1600 ||
	    n[2] > 2400)
		fail_msg("zoned 60/30/10: %u %u %u of 20000", n[0], n[1], n[2]);
	unbuild(&fx);
}

/* A trim job trims; a region smaller than one block is refused, naming
 * the file. */
static void test_trim_and_small_region(void **state)
{
	uint64_t limit = UINT64_MAX;
	struct fixture fx;
	struct io_req req;
	char *cause = NULL;

	(void)state;
	build(&fx, 0, 65536, "[t]\nioengine=null\nsize=1m\nbs=4k\nrw=trim\n");
	workload_next(&fx.wl, &req, NULL, &limit, 0);
	assert_int_equal(req.op, IO_OP_TRIM);
	assert_false(req.discard);
	workload_free(&fx.wl);
	fx.file.len = 6000; /* one whole 4k block: short of bs=8k */
	fx.jobs[0].bs[DDIR_TRIM] = 8192;
	assert_int_equal(workload_init(&fx.wl, &fx.jobs[0], &fx.fs, 0, 1, 42, true, &cause),
			 -EINVAL);
	assert_non_null(strstr(cause, "region: the I/O region (6000 bytes"));
	free(cause);
	unbuild(&fx);
}

/* file_service_type and openfiles: the file of each I/O over 4 files of 4
 * blocks, as fio 3.33 orders them (tests/cli/fileservice.py measures
 * fio's with strace); then, with random and openfiles=2, every block is
 * served once and never more than 2 files are in use at once. */
static void test_file_service(void **state)
{
	static const struct {
		const char *opts;
		unsigned n;
		const char *want;
	} cases[] = {
		{ "", 16, "0123012301230123" },
		{ "openfiles=2\n", 16, "0101010123232323" },
		{ "openfiles=1\n", 16, "0000111122223333" },
		{ "file_service_type=sequential\n", 16, "0000111122223333" },
		{ "file_service_type=roundrobin:3\n", 16, "0001112223330123" },
		{ "file_service_type=roundrobin:3\nopenfiles=2\n", 16, "0001110122233323" },
		{ "openfiles=3\nloops=2\n", 32, "01201201201233330120120120123333" },
		{ "file_service_type=sequential:2\nopenfiles=2\n", 16, "0000111122223333" },
	};
	struct run_file files[4];
	uint64_t limit = UINT64_MAX;
	struct fixture fx;
	struct io_req req;
	char got[64], *cause = NULL;
	unsigned c, i, k;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		build(&fx, 0, 16384, "[t]\nioengine=null\nsize=64k\nbs=4k\nnrfiles=4\n%s",
		      cases[c].opts);
		workload_free(&fx.wl);
		for (k = 0; k < 4; k++)
			files[k] = fx.file;
		fx.fs.v = files;
		fx.fs.n = 4;
		assert_int_equal(workload_init(&fx.wl, &fx.jobs[0], &fx.fs, 0, 1, 42, true, &cause),
				 0);
		for (i = 0; i < cases[c].n; i++) {
			workload_next(&fx.wl, &req, NULL, &limit, 0);
			got[i] = (char)('0' + req.file);
		}
		got[i] = 0;
		if (strcmp(got, cases[c].want))
			fail_msg("%s: %s, expected %s", cases[c].opts, got, cases[c].want);
		unbuild(&fx);
	}
	{
		unsigned seen[4] = { 0 }, first[4] = { 0 }, last[4] = { 0 }, most = 0;

		build(&fx, 0, 65536,
		      "[t]\nioengine=null\nsize=256k\nbs=4k\nnrfiles=4\n"
		      "file_service_type=random\nopenfiles=2\n");
		workload_free(&fx.wl);
		for (k = 0; k < 4; k++)
			files[k] = fx.file;
		fx.fs.v = files;
		fx.fs.n = 4;
		assert_int_equal(workload_init(&fx.wl, &fx.jobs[0], &fx.fs, 0, 1, 42, true, &cause),
				 0);
		for (i = 0; i < 64; i++) {
			workload_next(&fx.wl, &req, NULL, &limit, 0);
			if (!seen[req.file]++)
				first[req.file] = i;
			last[req.file] = i;
		}
		for (i = 0; i < 64; i++) {
			unsigned open = 0;

			for (k = 0; k < 4; k++)
				open += first[k] <= i && i <= last[k];
			most = open > most ? open : most;
		}
		for (k = 0; k < 4; k++)
			assert_int_equal(seen[k], 16);
		assert_int_equal(most, 2);
		unbuild(&fx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequential_wraps),
		cmocka_unit_test(test_sequential_gap_ends_after_loops),
		cmocka_unit_test(test_random_covers_region),
		cmocka_unit_test(test_random_bsrange_map),
		cmocka_unit_test(test_mix_proportions),
		cmocka_unit_test(test_zoned),
		cmocka_unit_test(test_trim_and_small_region),
		cmocka_unit_test(test_file_service),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
