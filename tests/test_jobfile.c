/* SPDX-License-Identifier: MIT */
/*
 * The job-file reader and job builder: each reader rule (global sections,
 * empty and repeated sections, bare flags, comments, include, ${VAR} and
 * $keywords, line limit) and the cross-option checks, each error naming
 * the right file:line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "jobfile/job.h"
#include "engines/engine.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"

struct parsed {
	struct jobset js;
	struct job *jobs;
	unsigned nr;
	char *cause;
	int ret;
};

static void parse_text(struct parsed *p, const char *text)
{
	memset(p, 0, sizeof(*p));
	jobset_init(&p->js);
	p->ret = jobfile_parse_mem(&p->js, "t.fio", text, strlen(text), &p->cause);
	if (!p->ret)
		p->ret = job_build_all(&p->js, &p->jobs, &p->nr, &p->cause);
}

static void parsed_free(struct parsed *p)
{
	job_free_all(p->jobs, p->nr);
	jobset_free(&p->js);
	free(p->cause);
}

static void must_parse(struct parsed *p, const char *text)
{
	parse_text(p, text);
	if (p->ret)
		fail_msg("parse failed: %s\n--- text ---\n%s", p->cause, text);
}

/* The parse fails and the message starts with @prefix (file:line). */
static void must_fail(const char *text, const char *prefix, const char *msg)
{
	struct parsed p;

	parse_text(&p, text);
	if (!p.ret)
		fail_msg("accepted:\n%s", text);
	if (strncmp(p.cause, prefix, strlen(prefix)) || !strstr(p.cause, msg))
		fail_msg("message '%s' wants prefix '%s' and '%s'", p.cause, prefix, msg);
	parsed_free(&p);
}

static void test_global_sections(void **state)
{
	struct parsed p;

	(void)state;
	must_parse(&p, "[global]\nbs=8k\n[a]\n[global]\nbs=16k\niodepth=4\n[b]\n"
		       "[global-more]\nrw=write\n[c]\nbs=1k\n");
	assert_int_equal(p.nr, 3);
	assert_string_equal(p.jobs[0].name, "a");
	assert_int_equal(p.jobs[0].bs[0], 8192);
	assert_int_equal(p.jobs[0].iodepth, 1);
	assert_int_equal(p.jobs[1].bs[0], 16384);
	assert_int_equal(p.jobs[1].iodepth, 4);
	assert_int_equal(p.jobs[2].rw, RW_WRITE);
	assert_int_equal(p.jobs[2].bs[0], 1024);
	assert_int_equal(p.jobs[2].iodepth, 4);
	assert_true(job_origin(&p.jobs[1], opt_index(opt_find("bs")))->global);
	assert_int_equal(job_origin(&p.jobs[1], opt_index(opt_find("bs")))->line, 5);
	parsed_free(&p);
}

static void test_name_option(void **state)
{
	struct parsed p;

	(void)state;
	/* fio: name= in [global] names no job; in a job it renames it. */
	must_parse(&p, "[global]\nname=recipe\n[file1]\n[file2]\nname=renamed\n");
	assert_string_equal(p.jobs[0].name, "file1");
	assert_string_equal(p.jobs[1].name, "renamed");
	parsed_free(&p);
}

static void test_empty_and_repeated_sections(void **state)
{
	struct parsed p;

	(void)state;
	must_parse(&p, "[global]\nbs=4k\n[empty-job]\n[job2]\nrw=read\n[job2]\nrw=write\n[last]\n");
	assert_int_equal(p.nr, 4);
	assert_string_equal(p.jobs[0].name, "empty-job");
	assert_int_equal(p.jobs[0].bs[0], 4096);
	assert_string_equal(p.jobs[1].name, "job2");
	assert_int_equal(p.jobs[1].rw, RW_READ);
	assert_string_equal(p.jobs[2].name, "job2");
	assert_int_equal(p.jobs[2].rw, RW_WRITE);
	assert_string_equal(p.jobs[3].name, "last");
	parsed_free(&p);
}

static void test_bare_flags_and_comments(void **state)
{
	struct parsed p;

	(void)state;
	must_parse(&p, "; a comment\n# another\n[global]\ntime_based\ngroup_reporting\n"
		       "runtime=10 ; inline\n[j]\nstonewall\nnorandommap\nthread\n"
		       "  bs =8k  # indented, spaced, commented\nnumjobs=4\t; 4 threads\n"
		       "size=1m;no space before the comment\nwrite_bw_log\n");
	assert_true(p.jobs[0].time_based);
	assert_true(p.jobs[0].group_reporting);
	assert_true(p.jobs[0].stonewall);
	assert_true(p.jobs[0].norandommap);
	assert_true(p.jobs[0].thread);
	assert_int_equal(p.jobs[0].runtime, 10000000000ull);
	assert_int_equal(p.jobs[0].bs[0], 8192);
	assert_int_equal(p.jobs[0].numjobs, 4);
	assert_int_equal(p.jobs[0].size.val, 1048576);
	assert_string_equal(p.jobs[0].write_bw_log, "");
	parsed_free(&p);
	must_parse(&p, "[j]\ntime_based=0\nstonewall=1\niodepth = 16\nbs =8k\n");
	assert_int_equal(p.jobs[0].iodepth, 16);
	assert_int_equal(p.jobs[0].bs[0], 8192);
	assert_false(p.jobs[0].time_based);
	assert_true(p.jobs[0].stonewall);
	parsed_free(&p);
	must_fail("[j]\nrw=read\ndirect\n", "t.fio:3: direct: ", "needs a value");
	must_fail("[j]\nbs\n", "t.fio:2: bs: ", "needs a value");
}

static void test_reader_errors(void **state)
{
	char long_line[400];

	(void)state;
	must_fail("bs=4k\n[j]\n", "t.fio:1: ", "outside of any [section]");
	must_fail("[j]\nrw=read\nbogusopt=3\n", "t.fio:3: ", "unknown option 'bogusopt'");
	must_fail("[j]\niodpeth=3\n", "t.fio:2: ", "did you mean 'iodepth'?");
	must_fail("[j]\n\n\nprofile=tiobench\n",
		  "t.fio:4: ", "'profile' is a fio option that iogauge does not implement");
	must_fail("[j]\n\n\nread_beyond_wp=1\n", "t.fio:4: ",
		  "'read_beyond_wp' is an option of fio's zonemode=zbd (for zoned block devices), "
		  "which iogauge does not build");
	must_fail("[j]\nbs=4q\n", "t.fio:2: bs: ", "unknown size suffix 'q'");
	must_fail("[j]\nrw=bogus\n", "t.fio:2: rw: ", "valid: read write");
	must_fail("[j\n", "t.fio:1: ", "must end with ']'");
	must_fail("[]\n", "t.fio:1: ", "empty section name");
	must_fail("[j]\nfoo bar=1\n", "t.fio:2: ", "not an option name");
	must_fail("[j]\n=4k\n", "t.fio:2: ", "not an option name");
	must_fail("[j]\nbs=${UNCLOSED\n", "t.fio:2: ", "without a closing '}'");
	/* fio reads "bs= 8k" as 8 bytes: refused; "iodepth = 16" reads the same. */
	must_fail("[j]\nbs= 8k\n", "t.fio:2: bs: 'bs= 8k': ", "fio keeps the space");
	must_fail("[j]\nruntime =\t10m\n", "t.fio:2: runtime: ", "fio keeps the space");
	memset(long_line, 'a', sizeof(long_line));
	memcpy(long_line, "[j]\nfilename=", 13);
	strcpy(long_line + 300, "\n");
	must_fail(long_line, "t.fio:2: ", "line too long");
}

static void test_long_line_within_limit(void **state)
{
	char text[256];
	struct parsed p;

	(void)state;
	/* 198 characters of key=value: the most the system libinih reads. */
	memset(text, 'b', sizeof(text));
	memcpy(text, "[j]\nfilename=", 13);
	strcpy(text + 4 + 198, "\n");
	must_parse(&p, text);
	assert_int_equal(strlen(p.jobs[0].filename.v[0]), 198 - 9);
	parsed_free(&p);
	text[4 + 198] = 'b';
	strcpy(text + 4 + 199, "\n");
	must_fail(text, "t.fio:2: ", "line too long");
}

static void test_env_and_keywords(void **state)
{
	char want[64];
	struct parsed p;
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	long long mb = (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) / 1048576;

	(void)state;
	setenv("IOG_TEST_BS", "16k", 1);
	unsetenv("IOG_TEST_NOPE");
	must_parse(&p, "[j]\nbs=${IOG_TEST_BS}\nsize=${IOG_TEST_NOPE}1m\n"
		       "numjobs=($ncpus+1)/1\nio_size=2*$mb_memory\nblockalign=$pagesize\n");
	assert_int_equal(p.jobs[0].bs[1], 16384);
	assert_int_equal(p.jobs[0].size.val, 1048576);
	assert_int_equal(p.jobs[0].numjobs, ncpus + 1);
	/* fio's trap, kept: the product is a plain number of bytes. */
	assert_int_equal(p.jobs[0].io_size.val, 2 * mb);
	assert_int_equal(p.jobs[0].blockalign[0], sysconf(_SC_PAGESIZE));
	parsed_free(&p);
	snprintf(want, sizeof(want), "%ld", ncpus / 2 ? ncpus / 2 : 1);
	must_parse(&p, ncpus > 1 ? "[j]\nnumjobs=$ncpus/2\n" : "[j]\nnumjobs=$ncpus\n");
	assert_int_equal(p.jobs[0].numjobs, atoi(want));
	parsed_free(&p);
	must_fail("[j]\nnumjobs=$ncpus/0\n", "t.fio:2: ", "division by zero");
	must_fail("[j]\nnumjobs=$ncpus*\n", "t.fio:2: ", "expected a number");
	unsetenv("IOG_TEST_BS");
}

static void test_kb_base_order(void **state)
{
	struct parsed p;

	(void)state;
	must_parse(&p, "[j]\nbs=4k\nkb_base=1000\nsize=1MiB\n[k]\nbs=4k\n");
	assert_int_equal(p.jobs[0].bs[0], 4000);
	assert_int_equal(p.jobs[0].size.val, 1048576);
	assert_int_equal(p.jobs[1].bs[0], 4096);
	parsed_free(&p);
	/* As fio: a [global] size keeps the kb_base of its section. */
	must_parse(&p, "[global]\nkb_base=1000\nsize=10MiB\nbs=4k\n[j]\nkb_base=1024\nio_size=1k\n"
		       "[k]\n");
	assert_int_equal(p.jobs[0].size.val, 10485760);
	assert_int_equal(p.jobs[0].bs[0], 4000);
	assert_int_equal(p.jobs[0].io_size.val, 1024);
	assert_int_equal(p.jobs[0].kb_base, 1024);
	assert_int_equal(p.jobs[1].io_size.pct, false);
	assert_int_equal(p.jobs[1].kb_base, 1000);
	parsed_free(&p);
}

static void test_reading_order(void **state)
{
	struct parsed p;

	(void)state;
	must_parse(&p, "[global]\ndirect=1\n[a]\nbuffered=1\n[b]\n");
	assert_false(p.jobs[0].direct);
	assert_true(p.jobs[1].direct);
	parsed_free(&p);
	must_parse(&p, "[a]\nrwmixwrite=30\n[b]\nrwmixread=60\nrwmixwrite=40\n");
	assert_int_equal(p.jobs[0].rwmix_read, 70);
	assert_string_equal(job_origin(&p.jobs[0], opt_index(opt_find("rwmixread")))->via,
			    "rwmixwrite");
	assert_int_equal(p.jobs[1].rwmix_read, 60);
	parsed_free(&p);
	/* Per-direction values apply on top of what the job inherited, as fio. */
	must_parse(&p, "[global]\nbs=16k\n[a]\nbs=,8k\n[b]\nbs=4k,\n");
	assert_int_equal(p.jobs[0].bs[DDIR_READ], 16384);
	assert_int_equal(p.jobs[0].bs[DDIR_WRITE], 8192);
	assert_int_equal(p.jobs[0].bs[DDIR_TRIM], 8192);
	assert_int_equal(p.jobs[1].bs[DDIR_READ], 4096);
	assert_int_equal(p.jobs[1].bs[DDIR_WRITE], 16384); /* "4k," sets reads only, as fio */
	parsed_free(&p);
}

static void test_cross_checks(void **state)
{
	(void)state;
	must_fail("[j]\nrwmixread=70\nrwmixwrite=50\n", "t.fio:3: [j] ", "add up to 120%");
	must_fail("[j]\nsize=4k\nbs=64k\n", "t.fio:3: [j] ", "larger than the size");
	must_fail("[j]\nbs=64k\nrw=randread\nsize=4k\n", "t.fio:2: [j] ", "larger than the size");
	must_fail("[j]\nrw=read\nbs=4k,1m\nsize=64k\n[k]\nrw=write\nbs=4k,1m\nsize=64k\n",
		  "t.fio:7: [k] ", "block size 1048576");
	must_fail("[j]\nbssplit=4k/50:128k/50\nsize=64k\n", "t.fio:2: [j] ", "131072");
	must_fail("[a]\n[b]\nwait_for=c\n[c]\n", "t.fio:3: [b] ", "names no earlier job");
	must_fail("[a]\nhipri\n", "t.fio:2: [a] ", "io_uring option");
	must_fail("[a]\nioengine=io_uring\nhipri\n", "t.fio:3: [a] ", "needs direct=1");
	must_fail("[a]\nuserspace_reap\nioengine=null\n", "t.fio:2: [a] ",
		  "userspace_reap is a libaio option; ioengine=null does not use it");
	/* The ring's limit, at parse time with the line that set it. */
	must_fail("[a]\niodepth=32769\nioengine=io_uring\n", "t.fio:2: [a] ",
		  "iodepth=32769 is above io_uring's limit of 32768 I/Os in flight");
	must_fail("[a]\nioengine=io_uring\nfixedbufs\nsub_blocks=2\n", "t.fio:4: [a] ",
		  "sub_blocks=2 cannot use fixedbufs");
	must_fail("[a]\niodepth=4\niodepth_batch_submit=8\n", "t.fio:3: [a] ", "above iodepth=4");
	must_fail("[a]\niodepth_batch_complete_min=8\niodepth_batch_complete_max=4\n",
		  "t.fio:3: [a] ", "above iodepth_batch_complete_max");
}

/* Option @name of @job as --parse-only prints it. */
static const char *option_text(const struct job *job, const char *name)
{
	static char buf[64];
	struct strbuf sb = { 0 };

	opt_format(opt_find(name), job, &sb);
	snprintf(buf, sizeof(buf), "%s", sb.buf ? sb.buf : "");
	strbuf_free(&sb);
	return buf;
}

static void test_wait_for_and_engines(void **state)
{
	struct parsed p;

	(void)state;
	must_parse(&p, "[a]\n[b]\nwait_for=a\n[c]\nioengine=io_uring\nhipri\nsqthread_poll\n"
		       "direct=1\niodepth=32768\n[d]\nioengine=libaio\niodepth=65536\n"
		       "userspace_reap=0\n");
	assert_string_equal(p.jobs[1].wait_for, "a");
	assert_string_equal(p.jobs[2].ioengine->name, "io_uring");
	/* The engine's own options, read back through their rows. */
	assert_string_equal(option_text(&p.jobs[2], "hipri"), "1");
	assert_string_equal(option_text(&p.jobs[2], "sqthread_poll"), "1");
	assert_string_equal(option_text(&p.jobs[2], "fixedbufs"), "0");
	assert_string_equal(option_text(&p.jobs[0], "hipri"), "0");
	assert_int_equal(p.jobs[3].iodepth, 65536);
	parsed_free(&p);
}

static void test_warn_only(void **state)
{
	struct parsed p;

	(void)state;
	must_parse(&p, "[global]\nthreads=1\n[j]\ngtod_cpu=1\n");
	assert_int_equal(p.js.warnings.n, 2);
	assert_non_null(strstr(p.js.warnings.v[0], "t.fio:2: warning: 'threads' is ignored"));
	assert_non_null(strstr(p.js.warnings.v[1], "t.fio:4: warning: 'gtod_cpu'"));
	parsed_free(&p);
}

static char *data_path(const char *name)
{
	const char *dir = getenv("IOGAUGE_TESTDATA");

	if (!dir)
		fail_msg("IOGAUGE_TESTDATA is not set");
	return xasprintf("%s/%s", dir, name);
}

static void test_include(void **state)
{
	struct job *jobs = NULL;
	struct jobset js;
	char *path = data_path("include/main.fio"), *cause = NULL;
	unsigned nr = 0;

	(void)state;
	jobset_init(&js);
	assert_int_equal(jobfile_parse_file(&js, path, &cause), 0);
	assert_int_equal(job_build_all(&js, &jobs, &nr, &cause), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(jobs[0].bs[0], 8192);
	assert_int_equal(jobs[0].iodepth, 16);
	assert_non_null(strstr(job_origin(&jobs[0], opt_index(opt_find("iodepth")))->file,
			       "include/sub/deeper.inc"));
	assert_int_equal(job_origin(&jobs[0], opt_index(opt_find("iodepth")))->line, 1);
	assert_true(job_origin(&jobs[0], opt_index(opt_find("iodepth")))->global);
	job_free_all(jobs, nr);
	jobset_free(&js);
	free(path);
}

static void include_fails(const char *name, const char *where, const char *msg)
{
	struct jobset js;
	char *path = data_path(name), *cause = NULL;

	jobset_init(&js);
	assert_int_not_equal(jobfile_parse_file(&js, path, &cause), 0);
	if (!strstr(cause, where) || !strstr(cause, msg))
		fail_msg("'%s' lacks '%s' or '%s'", cause, where, msg);
	free(cause);
	jobset_free(&js);
	free(path);
}

static void test_include_errors(void **state)
{
	(void)state;
	include_fails("include/loop.fio", "include/loop3.inc:1: ", "loop");
	include_fails("include/has-section.fio",
		      "include/section.inc:2: ", "no sections in included files");
	include_fails("include/missing.fio",
		      "include/missing.fio:2: ", "No such file or directory");
}

static void test_second_file_stonewalled(void **state)
{
	struct job *jobs = NULL;
	struct jobset js;
	static const char f1[] = "[a]\n[b]\n", f2[] = "[global]\nbs=8k\n[c]\n[d]\n";
	char *cause = NULL;
	unsigned nr = 0;

	(void)state;
	jobset_init(&js);
	assert_int_equal(jobfile_parse_mem(&js, "f1", f1, strlen(f1), &cause), 0);
	assert_int_equal(jobfile_parse_mem(&js, "f2", f2, strlen(f2), &cause), 0);
	assert_int_equal(job_build_all(&js, &jobs, &nr, &cause), 0);
	assert_int_equal(nr, 4);
	assert_false(jobs[1].stonewall);
	assert_true(jobs[2].stonewall);
	assert_false(jobs[3].stonewall);
	assert_int_equal(jobs[0].bs[0], 4096);
	assert_int_equal(jobs[3].bs[0], 8192);
	job_free_all(jobs, nr);
	jobset_free(&js);
}

static void test_dump_round_trip(void **state)
{
	static const char text[] = "[global]\nbs=4k,64k\nrw=randrw:4\n[a b]\nbssplit=4k/50:8k/\n"
				   "filename=x\\:y:z\nruntime=1500ms\ncpus_allowed=0\n";
	struct strbuf one = { 0 }, two = { 0 };
	struct parsed p, q;

	(void)state;
	must_parse(&p, text);
	job_dump(&p.jobs[0], &one);
	must_parse(&q, one.buf);
	job_dump(&q.jobs[0], &two);
	/* Only the origin comments differ; compare the values. */
	assert_int_equal(memcmp(&p.jobs[0].bs, &q.jobs[0].bs, sizeof(p.jobs[0].bs)), 0);
	assert_int_equal(q.jobs[0].rw_rand_nr, 4);
	assert_string_equal(q.jobs[0].filename.v[0], "x:y");
	assert_int_equal(q.jobs[0].runtime, 1500000000ull);
	assert_true(q.jobs[0].bssplit[0][1].pct == 50);
	assert_string_equal(q.jobs[0].name, "a b");
	assert_non_null(strstr(one.buf, "bs=4096,65536,65536"));
	assert_non_null(strstr(one.buf, "; t.fio:2 (global)"));
	strbuf_free(&one);
	strbuf_free(&two);
	parsed_free(&p);
	parsed_free(&q);
}

/* Jobs share [global] as it stood at their header (issue 21): a later
 * [global] reaches only the jobs after it; each job's copy of the shared
 * part is its own (strings, zones, bssplit), and a kb_base of its own
 * does not rescale what [global] gave. */
static void test_shared_global(void **state)
{
	struct parsed p;

	(void)state;
	must_parse(&p, "[global]\nbs=8k\nfilename=a:b\nbssplit=4k/50:8k/50\n"
		       "random_distribution=zoned:50/50:50/50\n[j0]\nfilename=c\n[j1]\n"
		       "[global]\nkb_base=1000\nsize=1m\n[j2]\nkb_base=1024\nio_size=1k\n"
		       "[global]\nbs=2k\n[j3]\n");
	assert_int_equal(p.nr, 4);
	assert_int_equal(p.jobs[0].bs[0], 8192);
	assert_int_equal(p.jobs[0].size.val, 0);
	assert_string_equal(p.jobs[0].filename.v[0], "c");
	assert_int_equal(p.jobs[1].filename.n, 2);
	assert_string_equal(p.jobs[1].filename.v[1], "b");
	assert_ptr_not_equal(p.jobs[1].filename.v, p.jobs[2].filename.v);
	assert_ptr_not_equal(p.jobs[1].bssplit, p.jobs[2].bssplit);
	assert_ptr_not_equal(p.jobs[1].random_distribution.zones,
			     p.jobs[2].random_distribution.zones);
	assert_int_equal(p.jobs[3].bssplit[0][1].bs, 8192);
	assert_int_equal(p.jobs[3].random_distribution.nr_zones[0], 2);
	assert_int_equal(p.jobs[1].size.val, 0);
	/* [global]'s size by its own kb_base (1000); j2's io_size by j2's. */
	assert_int_equal(p.jobs[2].size.val, 1000000);
	assert_int_equal(p.jobs[2].io_size.val, 1024);
	assert_int_equal(p.jobs[2].kb_base, 1024);
	assert_int_equal(p.jobs[2].bs[0], 8192);
	assert_int_equal(p.jobs[3].bs[0], 2000);
	assert_int_equal(p.jobs[3].size.val, 1000000);
	assert_int_equal(p.jobs[3].kb_base, 1000);
	assert_int_equal(job_origin(&p.jobs[3], opt_index(opt_find("bs")))->line, 16);
	assert_int_equal(job_origin(&p.jobs[1], opt_index(opt_find("bs")))->line, 2);
	assert_int_equal(job_origin(&p.jobs[0], opt_index(opt_find("size")))->kind, ORIGIN_DEFAULT);
	parsed_free(&p);
	/* kb_base later in a [global] section still scales that section. */
	must_parse(&p, "[global]\nsize=1m\nkb_base=1000\n[j]\nbs=4k\n[global]\nbs=1k\n[k]\n");
	assert_int_equal(p.jobs[0].size.val, 1000000);
	assert_int_equal(p.jobs[0].bs[0], 4000);
	assert_int_equal(p.jobs[1].bs[0], 1000);
	parsed_free(&p);
	/* A bad value in [global] fails at its line, for the first job. */
	must_fail("[global]\nbs=4q\n[a]\n[b]\n", "t.fio:2: bs:", "");
}

/* A file of more threads than a run takes builds (--parse-only reads it,
 * as fio's); job_check_threads refuses it at the job that passes 4096. */
static void test_thread_limit(void **state)
{
	struct parsed p;
	char *cause = NULL;

	(void)state;
	must_parse(&p, "[a]\nnumjobs=4000\n[b]\nnumjobs=96\n");
	assert_int_equal(job_check_threads(p.jobs, p.nr, &cause), 0);
	parsed_free(&p);
	must_parse(&p, "[a]\nnumjobs=4000\n[b]\nnumjobs=100\n[c]\n");
	assert_int_equal(job_check_threads(p.jobs, p.nr, &cause), -EINVAL);
	assert_string_equal(cause, "t.fio:4: [b] 4100 threads in all, more than the limit of 4096");
	free(cause);
	parsed_free(&p);
}

/* Many jobs and many lines build, with the last value winning. */
static void test_many(void **state)
{
	struct strbuf sb = { 0 };
	struct parsed p;
	unsigned i;

	(void)state;
	strbuf_adds(&sb, "[global]\nioengine=null\nsize=1m\n");
	for (i = 0; i < 20000; i++)
		strbuf_adds(&sb, i % 2 ? "kb_base=1000\nbs=4k\n" : "kb_base=1024\nbs=4k\n");
	for (i = 0; i < 5000; i++)
		strbuf_addf(&sb, "[j%u]\n%s", i, i == 4999 ? "bs=8k\n" : "");
	must_parse(&p, sb.buf);
	assert_int_equal(p.nr, 5000);
	assert_int_equal(p.jobs[0].bs[0], 4000);
	assert_int_equal(p.jobs[0].kb_base, 1000);
	assert_int_equal(p.jobs[4999].bs[0], 8000);
	assert_string_equal(p.jobs[4999].name, "j4999");
	parsed_free(&p);
	strbuf_free(&sb);
}

/* Whether @got is @want, where a '*' in @want stands for any text within
 * one line (an engine list that grows with the build). */
static bool lines_match(const char *want, const char *got)
{
	if (*want == '*') {
		for (;; got++) {
			if (lines_match(want + 1, got))
				return true;
			if (!*got || *got == '\n')
				return false;
		}
	}
	if (!*want)
		return !*got;
	return *want == *got && lines_match(want + 1, got + 1);
}

/* Reads @text and builds its jobs even when reading failed, as main.c
 * does: the messages of both, one a line, must be @want ('*': any text). */
static void all_errors(const char *text, const char *want)
{
	struct parsed p;
	char *cause = NULL;

	memset(&p, 0, sizeof(p));
	jobset_init(&p.js);
	if (jobfile_parse_mem(&p.js, "t.fio", text, strlen(text), &cause))
		free(cause);
	cause = NULL;
	assert_int_equal(job_build_all(&p.js, &p.jobs, &p.nr, &cause), -EINVAL);
	if (!lines_match(want, cause))
		fail_msg("--- got ---\n%s\n--- want ---\n%s", cause, want);
	free(cause);
	jobset_free(&p.js);
}

static void test_every_error(void **state)
{
	struct strbuf sb = { 0 }, want = { 0 };
	unsigned i;

	(void)state;
	/* Unknown and refused options, bad values, in [global] and jobs:
	 * each once, in file order; a job with a bad value is not checked
	 * for conflicts. */
	all_errors("[global]\nbs=4q\nsize=1m\nfrobnicate=1\n"
		   "[a]\nrw=read\niodepth=abc\nhostname=foo\n"
		   "[b]\nrw=write\nrwmixread=70\nrwmixwrite=70\nioengine=rdma\n",
		   "t.fio:2: bs: '4q': unknown size suffix 'q' (valid: k m g t p, each "
		   "alone or with b or ib, any case)\n"
		   "t.fio:4: unknown option 'frobnicate' (iogauge --help-options lists them)\n"
		   "t.fio:7: iodepth: 'abc' is not a number\n"
		   "t.fio:8: 'hostname' is an option of fio's net, netsplice, rdma, libhdfs "
		   "and librpma engines (for network sockets, RDMA and HDFS), which iogauge "
		   "does not build\n"
		   "t.fio:13: ioengine: 'rdma' is fio's engine for RDMA networks, which "
		   "iogauge does not build (valid: *)");
	/* A bad value in [global] is reported once, not once per job. */
	all_errors("[global]\niodepth=abc\n[a]\n[b]\n[c]\n",
		   "t.fio:2: iodepth: 'abc' is not a number");
	/* Conflicts in two jobs, an unknown option in a third, a bad header:
	 * the conflicts sort at the option they blame. */
	all_errors("[a]\nrwmixread=70\nrwmixwrite=70\n"
		   "[b]\niodepth=2\niodepth_batch_submit=4\n"
		   "[c\nfoo=1\n"
		   "[d]\nsize=4k\nbs=8k\n",
		   "t.fio:3: [a] rwmixread=70 and rwmixwrite=70 add up to 140%, not 100%\n"
		   "t.fio:6: [b] iodepth_batch_submit=4 is above iodepth=2\n"
		   "t.fio:7: a section header must end with ']'\n"
		   "t.fio:8: unknown option 'foo' (iogauge --help-options lists them)\n"
		   "t.fio:11: [d] block size 8192 is larger than the size of 4096 bytes");
	/* A job's first conflict and its conflict with other jobs, both. */
	all_errors("[a]\niodepth=2\niodepth_batch_submit=4\nwait_for=nobody\n",
		   "t.fio:3: [a] iodepth_batch_submit=4 is above iodepth=2\n"
		   "t.fio:4: [a] wait_for=nobody names no earlier job");
	/* Options outside any section, each one. */
	all_errors("bs=4k\nrw=read\n[j]\n", "t.fio:1: option 'bs=4k' outside of any [section]\n"
					    "t.fio:2: option 'rw=read' outside of any [section]");
	/* The cap: the first JOBFILE_ERRORS_MAX in file order, reader's and
	 * builder's mixed, then a count of the others. */
	strbuf_adds(&sb, "[j]\n");
	for (i = 0; i < JOBFILE_ERRORS_MAX + 50; i++) {
		if (i % 2)
			strbuf_adds(&sb, "qqqqqqqqqq=1\n");
		else
			strbuf_addf(&sb, "iodepth=x%u\n", i);
		if (i >= JOBFILE_ERRORS_MAX)
			continue;
		if (i)
			strbuf_addc(&want, '\n');
		if (i % 2)
			strbuf_addf(&want,
				    "t.fio:%u: unknown option 'qqqqqqqqqq' (iogauge "
				    "--help-options lists them)",
				    i + 2);
		else
			strbuf_addf(&want, "t.fio:%u: iodepth: 'x%u' is not a number", i + 2, i);
	}
	strbuf_adds(&want, "\nand 50 more errors");
	all_errors(sb.buf, want.buf);
	strbuf_free(&sb);
	strbuf_free(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_global_sections),
		cmocka_unit_test(test_empty_and_repeated_sections),
		cmocka_unit_test(test_name_option),
		cmocka_unit_test(test_bare_flags_and_comments),
		cmocka_unit_test(test_reader_errors),
		cmocka_unit_test(test_long_line_within_limit),
		cmocka_unit_test(test_env_and_keywords),
		cmocka_unit_test(test_kb_base_order),
		cmocka_unit_test(test_reading_order),
		cmocka_unit_test(test_cross_checks),
		cmocka_unit_test(test_wait_for_and_engines),
		cmocka_unit_test(test_warn_only),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_include_errors),
		cmocka_unit_test(test_second_file_stonewalled),
		cmocka_unit_test(test_dump_round_trip),
		cmocka_unit_test(test_shared_global),
		cmocka_unit_test(test_thread_limit),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_every_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
