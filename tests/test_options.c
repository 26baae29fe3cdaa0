/* SPDX-License-Identifier: MIT */
/*
 * The option table and its value kinds: every default parses, names and
 * aliases resolve, each kind's syntax is read as fio reads it (or refused
 * where fio guesses), and every value prints back as text that parses to
 * the same job.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jobfile/job.h"
#include "jobfile/options.h"

static struct job *job_new(void)
{
	struct job *job = calloc(1, sizeof(*job));
	char *cause = NULL;

	if (job_defaults(job, &cause))
		fail_msg("%s", cause);
	return job;
}

static void job_del(struct job *job)
{
	struct job *one = malloc(sizeof(*one));

	*one = *job;
	job_free_all(one, 1);
	free(job);
}

static int set(struct job *job, const char *name, const char *val, char **cause)
{
	const struct opt_def *o = opt_find(name);

	assert_non_null(o);
	*cause = NULL;
	return opt_apply(o, job, val, false, cause);
}

static void must_set(struct job *job, const char *name, const char *val)
{
	char *cause = NULL;

	if (set(job, name, val, &cause))
		fail_msg("%s=%s: %s", name, val, cause);
}

/* The read, write and trim values of a per-direction option. */
static void ddir_equal(const uint64_t *v, uint64_t r, uint64_t w, uint64_t t)
{
	assert_int_equal(v[DDIR_READ], r);
	assert_int_equal(v[DDIR_WRITE], w);
	assert_int_equal(v[DDIR_TRIM], t);
}

static void must_fail(struct job *job, const char *name, const char *val, const char *msg)
{
	char *cause = NULL;

	if (!set(job, name, val, &cause))
		fail_msg("%s=%s was accepted", name, val);
	if (!strstr(cause, msg))
		fail_msg("%s=%s: message '%s' lacks '%s'", name, val, cause, msg);
	free(cause);
}

static void test_table_sorted_and_documented(void **state)
{
	unsigned i;

	(void)state;
	assert_true(OPT_NR >= 70);
	assert_true(opt_rows() > OPT_NR); /* the engines' own */
	assert_null(opt_at(opt_rows()));
	for (i = 0; i < opt_rows(); i++) {
		const struct opt_def *o = opt_at(i);

		assert_non_null(o->help);
		assert_non_null(o->kind);
		/* The job options sorted (opt_find halves them); the engines' after. */
		if (i && i < OPT_NR)
			assert_true(strcmp(opt_table[i - 1].name, opt_table[i].name) < 0);
		assert_true((i < OPT_NR) == !o->engine);
		assert_int_equal(opt_index(o), i);
		/* Engines' options of one name: the first engine's row. */
		if (o->engine)
			assert_string_equal(opt_find(o->name)->name, o->name);
		else
			assert_ptr_equal(opt_find(o->name), o);
		if (o->alias)
			assert_ptr_equal(opt_find(o->alias), o);
		assert_int_equal(fio_option_status(o->name, &(const char *){ NULL }),
				 FIO_OPT_UNKNOWN);
	}
	job_del(job_new());
}

static void test_find_and_suggest(void **state)
{
	const char *why = NULL;

	(void)state;
	assert_string_equal(opt_find("readwrite")->name, "rw");
	assert_string_equal(opt_find("timeout")->name, "runtime");
	assert_string_equal(opt_find("iodepth_batch")->name, "iodepth_batch_submit");
	assert_string_equal(opt_find("iodepth_batch_complete")->name, "iodepth_batch_complete_min");
	assert_null(opt_find("BS"));
	assert_string_equal(opt_suggest("iodpeth"), "iodepth");
	assert_string_equal(opt_suggest("rwmixrad"), "rwmixread");
	assert_string_equal(opt_suggest("tim_based"), "time_based");
	assert_null(opt_suggest("xyzzy"));
	assert_int_equal(fio_option_status("profile", &why), FIO_OPT_UNSUPPORTED);
	assert_int_equal(fio_option_status("read_beyond_wp", &why), FIO_OPT_NOT_BUILT);
	assert_int_equal(fio_option_status("gtod_cpu", &why), FIO_OPT_HARMLESS);
	assert_non_null(why);
	assert_int_equal(fio_option_status("threads", &why), FIO_OPT_HARMLESS);
	assert_int_equal(fio_option_status("bogus", &why), FIO_OPT_UNKNOWN);
	/* What iogauge will not build: refused by name, with what it is for. */
	assert_int_equal(fio_option_status("http_verbose", &why), FIO_OPT_NOT_BUILT);
	assert_non_null(strstr(why, "fio's http engine (for "));
	assert_int_equal(fio_option_status("max_open_zones", &why), FIO_OPT_NOT_BUILT);
	assert_non_null(strstr(why, "zoned block devices"));
	assert_int_equal(fio_option_status("xnvme_iovec", &why), FIO_OPT_NOT_BUILT);
	assert_int_equal(fio_option_status("zonecapacity", &why), FIO_OPT_NOT_BUILT);
	assert_non_null(fio_value_not_built("ioengine", "rdma"));
	assert_non_null(fio_value_not_built("ioengine", "xnvme"));
	assert_non_null(fio_value_not_built("ioengine", "cpp_null"));
	assert_non_null(fio_value_not_built("ioengine", "external:/x.so"));
	/* zonemode=zbd keeps zonemode's own refusal (fio_value_unsupported). */
	assert_null(fio_value_not_built("zonemode", "zbd"));
	assert_non_null(fio_value_unsupported("zonemode", "zbd"));
	assert_null(fio_value_not_built("zonemode", "strided"));
	assert_non_null(fio_value_not_built("iomem", "cudamalloc"));
	assert_int_equal(fio_option_status("gpu_dev_id", &why), FIO_OPT_NOT_BUILT);
	assert_null(fio_value_not_built("ioengine", "psync"));
	assert_null(fio_value_not_built("rw", "rdma"));
}

static void test_bs_per_direction(void **state)
{
	struct job *job = job_new();

	(void)state;
	assert_int_equal(job->bs[DDIR_READ], 4096);
	must_set(job, "bs", "8k");
	ddir_equal(job->bs, 8192, 8192, 8192);
	must_set(job, "bs", "4k,64k");
	ddir_equal(job->bs, 4096, 65536, 65536);
	must_set(job, "bs", "1k,2k,3k");
	assert_int_equal(job->bs[2], 3072);
	must_set(job, "bs", ",16k");
	assert_int_equal(job->bs[0], 1024);
	assert_int_equal(job->bs[1], 16384);
	must_fail(job, "bs", "4q", "unknown size suffix 'q'");
	must_fail(job, "bs", "0", "below the minimum");
	must_fail(job, "bs", "1k,2k,3k,4k", "at most 3");
	must_set(job, "kb_base", "1000");
	must_set(job, "bs", "4k");
	assert_int_equal(job->bs[0], 4000);
	must_fail(job, "kb_base", "1001", "valid: 1024 1000");
	job_del(job);
}

static void test_ranges(void **state)
{
	struct job *job = job_new();

	(void)state;
	must_set(job, "bsrange", "4k-64k");
	assert_int_equal(job->bsrange_min[0], 4096);
	assert_int_equal(job->bsrange_max[2], 65536);
	must_set(job, "bsrange", "1k:4k,8k-16k");
	assert_int_equal(job->bsrange_min[0], 1024);
	assert_int_equal(job->bsrange_max[0], 4096);
	assert_int_equal(job->bsrange_min[1], 8192);
	assert_int_equal(job->bsrange_max[2], 16384);
	must_fail(job, "bsrange", "64k-4k", "low end is above");
	must_set(job, "filesize", "1m-4m");
	assert_int_equal(job->filesize_min, 1048576);
	assert_int_equal(job->filesize_max, 4194304);
	must_set(job, "startdelay", "1-10");
	assert_int_equal(job->startdelay_min, 1000000000ull);
	assert_int_equal(job->startdelay_max, 10000000000ull);
	must_set(job, "thinktime", "100");
	assert_int_equal(job->thinktime, 100000);
	must_set(job, "runtime", "2m");
	assert_int_equal(job->runtime, 120000000000ull);
	must_set(job, "size", "20%");
	assert_true(job->size.pct);
	assert_int_equal(job->size.val, 20);
	must_fail(job, "nrfiles", "0", "below the minimum");
	must_fail(job, "iodepth", "65537", "above the maximum");
	must_fail(job, "numjobs", "100000", "above the maximum");
	must_fail(job, "rwmixread", "101", "above the maximum");
	must_set(job, "rwmixread", "70%");
	assert_int_equal(job->rwmix_read, 70);
	job_del(job);
}

static void test_rw(void **state)
{
	struct job *job = job_new();

	(void)state;
	must_set(job, "rw", "randrw");
	assert_int_equal(job->rw, RW_RANDRW);
	must_set(job, "rw", "readwrite");
	assert_int_equal(job->rw, RW_READWRITE);
	must_set(job, "rw", "write:4k");
	assert_int_equal(job->rw, RW_WRITE);
	assert_int_equal(job->rw_seq_add, 4096);
	must_set(job, "rw", "read:-8k");
	assert_int_equal(job->rw_seq_add, -8192);
	must_set(job, "rw", "randread:8");
	assert_int_equal(job->rw_rand_nr, 8);
	assert_int_equal(job->rw_seq_add, 0);
	must_set(job, "rw", "read");
	assert_int_equal(job->rw_rand_nr, 1);
	must_fail(job, "rw", "bogus", "valid: read write randread");
	must_set(job, "rw", "trimwrite");
	assert_true(job_does(job, DDIR_TRIM) && job_does(job, DDIR_WRITE) &&
		    !job_does(job, DDIR_READ) && !job_is_random(job->rw));
	must_set(job, "rw", "randtrimwrite");
	assert_true(job_does(job, DDIR_TRIM) && job_is_random(job->rw));
	must_set(job, "rw", "randtrim");
	assert_int_equal(job->rw, RW_RANDTRIM);
	assert_true(job_does(job, DDIR_TRIM) && !job_does(job, DDIR_WRITE) &&
		    job_is_random(job->rw));
	must_fail(job, "rw", "randread:abc", "bad :N suffix");
	must_fail(job, "rw", "randread:0", "1 to");
	must_fail(job, "ioengine", "sg", "which iogauge does not build");
	must_fail(job, "ioengine", "guasi", "a fio I/O engine");
	must_fail(job, "ioengine", "nope", "valid: psync sync libaio io_uring mmap null");
	job_del(job);
}

static void test_bssplit(void **state)
{
	struct job *job = job_new();

	(void)state;
	must_set(job, "bssplit", "4k/10:64k/50:32k/40");
	assert_int_equal(job->nr_bssplit[0], 3);
	assert_int_equal(job->bssplit[0][1].bs, 65536);
	assert_true(job->bssplit[2][2].pct == 40);
	must_set(job, "bssplit", "4k/50:8k/:16k/");
	assert_true(job->bssplit[1][1].pct == 25);
	assert_true(job->bssplit[1][2].pct == 25);
	must_set(job, "bssplit", "4k/100,8k/50:16k/50");
	assert_int_equal(job->nr_bssplit[0], 1);
	assert_int_equal(job->nr_bssplit[1], 2);
	assert_int_equal(job->nr_bssplit[2], 2);
	must_fail(job, "bssplit", "4k/60:8k/50", "more than 100%");
	must_fail(job, "bssplit", "4k/60:8k/30", "not 100%");
	must_fail(job, "bssplit", "4x/100", "unknown size suffix");
	job_del(job);
}

static void test_random_distribution(void **state)
{
	struct job *job = job_new();
	const struct rand_dist *rd = &job->random_distribution;

	(void)state;
	assert_int_equal(rd->kind, RDIST_RANDOM);
	must_set(job, "random_distribution", "zipf:1.2");
	assert_int_equal(rd->kind, RDIST_ZIPF);
	assert_true(rd->param == 1.2);
	must_set(job, "random_distribution", "pareto:0.3:0.25");
	assert_true(rd->center == 0.25);
	must_set(job, "random_distribution", "normal:10");
	must_set(job, "random_distribution", "zoned:50/5:30/15:20/80");
	assert_int_equal(rd->kind, RDIST_ZONED);
	assert_int_equal(rd->nr_zones[0], 3);
	assert_true(rd->zones[1][2].size_pct == 80);
	must_set(job, "random_distribution", "zoned_abs:60/20m:40/80m");
	assert_int_equal(rd->zones[0][1].size, 80ull << 20);
	must_fail(job, "random_distribution", "zipf:1", "not 1.0");
	must_fail(job, "random_distribution", "pareto:2", "between 0 and 1");
	must_fail(job, "random_distribution", "zoned:50/5:30/15", "not 100%");
	must_fail(job, "random_distribution", "zoned:50/60:50/50", "size percentages");
	/* As fio: a missing, empty or 0 size shares what the others leave
	 * (rounded down); the only zone gets none; sizes may fall short. */
	must_set(job, "random_distribution", "zoned:50/5:30/15:20/");
	assert_true(rd->zones[0][2].size_pct == 80);
	must_set(job, "random_distribution", "zoned:30/10:30:40/0:");
	assert_int_equal(rd->nr_zones[0], 3);
	assert_true(rd->zones[0][1].size_pct == 45 && rd->zones[0][2].size_pct == 45);
	must_set(job, "random_distribution", "zoned:40/10:30:30");
	assert_true(rd->zones[0][1].size_pct == 45);
	must_set(job, "random_distribution", "zoned:100");
	assert_true(rd->zones[0][0].size_pct == 0);
	must_set(job, "random_distribution", "zoned:50/50:50/40");
	assert_true(rd->zones[0][1].size_pct == 40);
	must_set(job, "random_distribution", "zoned_abs:50/1m:50");
	assert_int_equal(rd->zones[0][1].size, 0);
	must_fail(job, "random_distribution", "zoned:50/10::50/90", "an empty zone ends");
	/* fio 3.33 refuses any comma: per-direction zones never parse there. */
	must_fail(job, "random_distribution", "zoned:50/5:30/15:20/,50/10:50/90", "a comma");
	must_fail(job, "random_distribution", "zoned:100/100,", "a comma");
	must_fail(job, "random_distribution", "zoned_abs:50/1m:50/", "not a number");
	must_fail(job, "random_distribution", "gauss:1", "not a valid random_distribution");
	must_fail(job, "random_distribution", "zipf", "needs parameters");
	must_fail(job, "random_distribution", "zipf:1.2:2", "center");
	job_del(job);
}

static void test_lists(void **state)
{
	struct job *job = job_new();

	(void)state;
	must_set(job, "filename", "/dev/sda:/tmp/a\\:b:c");
	assert_int_equal(job->filename.n, 3);
	assert_string_equal(job->filename.v[1], "/tmp/a:b");
	must_fail(job, "filename", "a::b", "empty name");
	must_set(job, "directory", "/d1:/d2");
	assert_int_equal(job->directory.n, 2);
	assert_int_equal(job->nr_percentiles, 17);
	must_set(job, "percentile_list", "50:99:99.9");
	assert_int_equal(job->nr_percentiles, 3);
	assert_true(job->percentile_list[2] == 99.9);
	must_fail(job, "percentile_list", "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21",
		  "at most 20");
	must_fail(job, "percentile_list", "50:101", "not 0 to 100");
	must_set(job, "cpus_allowed", "0,5,8-15");
	assert_true(job->cpus_allowed[0] == ((1ull << 0) | (1ull << 5) | (0xffull << 8)));
	must_fail(job, "cpus_allowed", "3-1", "bad CPU range");
	must_fail(job, "cpus_allowed", "0,x", "not a number");
	must_set(job, "rate", "1m,500k");
	assert_int_equal(job->rate[0], 1048576);
	assert_int_equal(job->rate[1], 512000);
	must_set(job, "rate_iops", "100,200");
	ddir_equal(job->rate_iops, 100, 200, 200); /* the last value goes on to trim */
	/* fio's "500k,": reads only; the rest keep what they had. */
	job->rate[1] = job->rate[2] = 0;
	must_set(job, "rate", "500k,");
	ddir_equal(job->rate, 512000, 0, 0);
	must_set(job, "bs", "8k,32k,");
	ddir_equal(job->bs, 8192, 32768, 4096);
	must_set(job, "buffered", "0");
	assert_true(job->direct);
	must_fail(job, "direct", "2", "not a boolean");
	job_del(job);
}

/* Every option's printed value parses back to the same printed value. */
static void test_format_round_trip(void **state)
{
	static const char *const vals[][2] = {
		{ "bs", "4k,64k" },
		{ "bsrange", "1k-4k,8k" },
		{ "bssplit", "4k/50:8k/:16k/" },
		{ "random_distribution", "zoned:50/5:30/15:20/80" },
		{ "rw", "read:-8k" },
		{ "filename", "a\\:b:c" },
		{ "cpus_allowed", "0,5,8-15" },
		{ "startdelay", "1-10" },
		{ "runtime", "1500ms" },
		{ "size", "20%" },
		{ "percentile_list", "50:99.99" },
		{ "buffered", "0" },
		/* fuzz_values: read left unset printed as "0,1,1", below the minimum. */
		{ "cmdprio_class", ",1" },
	};
	struct strbuf a = { 0 }, b = { 0 };
	struct job *job = job_new(), *again;
	unsigned i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(vals); i++)
		must_set(job, vals[i][0], vals[i][1]);
	again = job_new();
	for (i = 0; i < opt_rows(); i++) {
		const struct opt_def *o = opt_at(i);
		bool given = false;
		unsigned k;

		for (k = 0; k < ARRAY_SIZE(vals); k++)
			given |= !strcmp(vals[k][0], o->name);
		/* Unset options without a default are not printed by --parse-only. */
		if (!o->def && !given)
			continue;
		a.len = 0;
		opt_format(o, job, &a);
		if (!*a.buf)
			continue; /* not set (another engine's row of a given name) */
		must_set(again, o->name, a.buf);
		b.len = 0;
		opt_format(o, again, &b);
		if (strcmp(a.buf, b.buf))
			fail_msg("%s: printed '%s', re-read and printed '%s'", o->name, a.buf,
				 b.buf);
	}
	strbuf_free(&a);
	strbuf_free(&b);
	job_del(job);
	job_del(again);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sorted_and_documented),
		cmocka_unit_test(test_find_and_suggest),
		cmocka_unit_test(test_bs_per_direction),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_rw),
		cmocka_unit_test(test_bssplit),
		cmocka_unit_test(test_random_distribution),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_format_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
