/* SPDX-License-Identifier: MIT */
/*
 * End to end on real files in a temporary folder: job text -> jobs ->
 * run_jobs -> results.  Bytes written read back, I/O counts match bytes,
 * time-bound runs last their runtime, files are laid out without holes
 * and removed only when this run created them.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "jobfile/job.h"
#include "jobfile/jobfile.h"
#include "report/report.h"
#include "run/run.h"
#include "testrun.h"

/* pread fault injection: the read at eio_at fails with EIO; the read at
 * short_at moves half its bytes (once; the engine must go on from there);
 * reads at or past eof_at find the end of the file. */
static off_t eio_at = -1, short_at = -1, eof_at = -1;
static unsigned shorts;
ssize_t __real_pread64(int fd, void *buf, size_t len, off_t off);
ssize_t __wrap_pread64(int fd, void *buf, size_t len, off_t off);

ssize_t __wrap_pread64(int fd, void *buf, size_t len, off_t off)
{
	if (off == eio_at) {
		errno = EIO;
		return -1;
	}
	if (off == short_at && len > 1) {
		short_at = -1;
		shorts++;
		return __real_pread64(fd, buf, len / 2, off);
	}
	if (eof_at >= 0 && off >= eof_at)
		return 0;
	return __real_pread64(fd, buf, len, off);
}

/* fallocate fault injection: the hole punched at trim_eio_at (a trim)
 * fails with EIO. */
static off_t trim_eio_at = -1;
int __real_fallocate64(int fd, int mode, off_t off, off_t len);
int __wrap_fallocate64(int fd, int mode, off_t off, off_t len);

int __wrap_fallocate64(int fd, int mode, off_t off, off_t len)
{
	if (off == trim_eio_at && (mode & FALLOC_FL_PUNCH_HOLE)) {
		errno = EIO;
		return -1;
	}
	return __real_fallocate64(fd, mode, off, len);
}

/* posix_fadvise, slowed: the next POSIX_FADV_DONTNEED takes slow_drop_ms
 * longer (once), as it does when it must write back dirty pages first. */
static unsigned slow_drop_ms;
int __real_posix_fadvise64(int fd, off_t off, off_t len, int advice);
int __wrap_posix_fadvise64(int fd, off_t off, off_t len, int advice);

int __wrap_posix_fadvise64(int fd, off_t off, off_t len, int advice)
{
	if (advice == POSIX_FADV_DONTNEED && slow_drop_ms) {
		struct timespec ts = { 0, (long)slow_drop_ms * 1000000L };

		slow_drop_ms = 0;
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
	return __real_posix_fadvise64(fd, off, len, advice);
}

/* CLOCK_MONOTONIC reads (run_now's, with the default clocksource),
 * counted from every thread: the loop's clock reads per I/O are held to
 * what worker.c claims. */
static _Atomic unsigned long mono_reads;
int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);

int __wrap_clock_gettime(clockid_t id, struct timespec *ts)
{
	if (id == CLOCK_MONOTONIC)
		mono_reads++;
	return __real_clock_gettime(id, ts);
}

static double wall_now(void)
{
	struct timespec ts;

	__real_clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *path(const char *name)
{
	return xasprintf("%s/%s", testrun_dir, name);
}

static char *slurp(const char *name, size_t *len)
{
	char *p = path(name), *buf;
	struct stat st;
	int fd = open(p, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	free(p);
	*len = (size_t)st.st_size;
	return buf;
}

static void test_write_then_read_back(void **state)
{
	struct ran r;
	size_t len, i;
	char *data, *before;

	(void)state;
	/* Laid out by a read job first: non-zero, no holes. */
	run_text(&r, NULL, "[lay]\nfilename=%s/wr\nsize=1m\nrw=read\nbs=64k\n", testrun_dir);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 16);
	ran_free(&r);
	before = slurp("wr", &len);
	assert_int_equal(len, 1 << 20);
	for (i = 0; i < len; i += 8)
		assert_true(memcmp(before + i, "\0\0\0\0\0\0\0\0", 8));

	run_text(&r, NULL, "[w]\nfilename=%s/wr\nsize=1m\nrw=write\nbs=4k\nscramble_buffers=0\n",
		 testrun_dir);
	assert_int_equal(r.ret, 0);
	assert_null(r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.dir[STAT_WRITE].ios, 256);
	assert_int_equal(r.run.results[0].stats.dir[STAT_WRITE].bytes, 1 << 20);
	ran_free(&r);
	/* One buffer slot at depth 1, not scrambled: every block holds the
	 * same 4 KiB. */
	data = slurp("wr", &len);
	assert_int_equal(len, 1 << 20);
	for (i = 4096; i < len; i += 4096)
		assert_memory_equal(data, data + i, 4096);
	assert_memory_not_equal(data, before, 4096);

	run_text(&r, NULL, "[r]\nfilename=%s/wr\nsize=1m\nrw=randread\nbs=8k\nloops=3\n",
		 testrun_dir);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 3 * 128);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].bytes, 3 * (1 << 20));
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].lat.count, 3 * 128);
	ran_free(&r);
	free(data);
	free(before);
}

/* Random offsets stay multiples of the block size when the region is not
 * a multiple of it, and cover every block once per pass. */

static int cmp_block(const void *a, const void *b)
{
	return memcmp(*(char *const *)a, *(char *const *)b, 512);
}

/* scramble_buffers, fio's default: no two 512-byte blocks written are the
 * same, though one buffer slot serves every write. */
static void test_scrambled_writes_differ(void **state)
{
	struct ran r;
	size_t len, i, n;
	char *data, **blk;

	(void)state;
	run_text(&r, NULL, "[w]\nfilename=%s/sc\nsize=1m\nrw=write\nbs=4k\n", testrun_dir);
	assert_int_equal(r.ret, 0);
	ran_free(&r);
	data = slurp("sc", &len);
	assert_int_equal(len, 1 << 20);
	n = len / 512;
	blk = malloc(n * sizeof(*blk));
	for (i = 0; i < n; i++)
		blk[i] = data + i * 512;
	qsort(blk, n, sizeof(*blk), cmp_block);
	for (i = 1; i < n; i++)
		assert_memory_not_equal(blk[i - 1], blk[i], 512);
	free(blk);
	free(data);
}
static void test_random_offsets_aligned(void **state)
{
	struct ran r;

	(void)state;
	run_text(&r, NULL,
		 "[a]\nfilename=%s/al\nfilesize=%d\nrw=randread\nbs=4k\ndirect=1\nloops=2\n",
		 testrun_dir, 3 * 4096 + 4000);
	assert_int_equal(r.ret, 0);
	assert_null(r.run.results[0].error);
	/* The 4000-byte tail is not used, as in fio: 3 blocks a pass. */
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 2 * 3);
	ran_free(&r);
}

static void test_offsets_and_backwards(void **state)
{
	struct ran r;

	(void)state;
	/* Backwards from byte 0 wraps to the end of the region. */
	run_text(&r, NULL, "[b]\nfilename=%s/bw\nsize=64k\nrw=read:-8k\nbs=4k\n", testrun_dir);
	assert_int_equal(r.ret, 0);
	assert_null(r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 16);
	ran_free(&r);
	/* Sequential bsrange: exactly size bytes, the last block cut short. */
	run_text(&r, NULL, "[s]\nfilename=%s/bw\nsize=64k\nrw=write\nbsrange=4k-16k\n",
		 testrun_dir);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.run.results[0].stats.dir[STAT_WRITE].bytes, 65536);
	ran_free(&r);
	/* offset=50% of a 64 KiB file: the last 32 KiB, 8 blocks. */
	run_text(&r, NULL, "[o]\nfilename=%s/bw\nsize=64k\noffset=50%%\nbs=4k\n", testrun_dir);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 8);
	ran_free(&r);
	/* No size: the user's file is used as it is, never extended. */
	run_text(&r, NULL, "[n]\nfilename=%s/bw\noffset=1m\n", testrun_dir);
	assert_int_not_equal(r.ret, 0);
	assert_non_null(strstr(r.cause, "does not fit in the file's 65536 bytes"));
	ran_free(&r);
	{
		char *p = path("bw");
		struct stat st;

		assert_int_equal(stat(p, &st), 0);
		assert_int_equal(st.st_size, 65536);
		free(p);
	}
	/* pre_read reads through the page cache even when the job is direct. */
	run_text(&r, NULL, "[p]\nfilename=%s/bw\nsize=64k\ndirect=1\npre_read=1\n", testrun_dir);
	assert_int_equal(r.ret, 0);
	assert_null(r.run.results[0].error);
	ran_free(&r);
}

static void test_time_bound(void **state)
{
	struct ran r;
	double secs;

	(void)state;
	run_text(&r, NULL, "[t]\nfilename=%s/tb\nsize=256k\nrw=randread\nruntime=1\ntime_based\n",
		 testrun_dir);
	assert_int_equal(r.ret, 0);
	secs = r.run.results[0].stats.elapsed / 1e9;
	if (secs < 0.98 || secs > 1.02)
		fail_msg("a 1 s time-based run measured %.4f s", secs);
	assert_true(r.run.results[0].stats.dir[STAT_READ].ios > 1000);
	ran_free(&r);
}

static void test_ramp_time(void **state)
{
	struct ran r;
	uint64_t t0 = run_now();
	double secs;

	(void)state;
	run_text(&r, NULL,
		 "[t]\nfilename=%s/rt\nsize=256k\nrw=read\nruntime=500ms\nramp_time=500ms\n"
		 "time_based\n",
		 testrun_dir);
	assert_int_equal(r.ret, 0);
	secs = r.run.results[0].stats.elapsed / 1e9;
	/* Measured from the end of the ramp; one late I/O on a loaded machine
	 * may add a few ms to a 0.5 s window. */
	if (secs < 0.495 || secs > 0.53)
		fail_msg("a 500 ms run after a 500 ms ramp measured %.4f s", secs);
	assert_true((run_now() - t0) / 1e9 > 0.99);
	/* IO depths leave the ramp out too, as fio: give or take the one I/O
	 * that started before the end of the ramp and completed after it. */
	{
		const struct run_stats *st = &r.run.results[0].stats;
		uint64_t sum = 0;
		unsigned i;

		for (i = 0; i < STATS_DEPTHS; i++)
			sum += st->depth[i];
		if (sum > st->dir[STAT_READ].ios + 1 || sum + 1 < st->dir[STAT_READ].ios)
			fail_msg("IO depths count %llu I/Os, the measured part %llu",
				 (unsigned long long)sum,
				 (unsigned long long)st->dir[STAT_READ].ios);
	}
	ran_free(&r);
}

/* As fio's runtime: the job's time starts before invalidate drops the
 * files' cache, so a slow drop counts, and a runtime bound includes it. */
static void test_invalidate_is_timed(void **state)
{
	struct ran r;
	uint64_t t0;
	double secs, wall;

	(void)state;
	slow_drop_ms = 200;
	run_text(&r, NULL, "[i]\nfilename=%s/inv\nsize=64k\nrw=read\n", testrun_dir);
	assert_int_equal(r.ret, 0);
	secs = r.run.results[0].stats.elapsed / 1e9;
	if (secs < 0.2)
		fail_msg("a job whose cache drop took 200 ms measured %.4f s", secs);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 16);
	ran_free(&r);

	/* The 500 ms include the drop: the run ends 500 ms after the job
	 * began, not 500 ms after the drop (700 ms). */
	slow_drop_ms = 200;
	t0 = run_now();
	run_text(&r, NULL, "[i]\nfilename=%s/inv\nsize=64k\nrw=read\nruntime=500ms\ntime_based\n",
		 testrun_dir);
	wall = (run_now() - t0) / 1e9;
	assert_int_equal(r.ret, 0);
	secs = r.run.results[0].stats.elapsed / 1e9;
	if (secs < 0.495 || secs > 0.53 || wall > 0.65)
		fail_msg("a 500 ms run whose cache drop took 200 ms measured %.4f s in %.4f s",
			 secs, wall);
	ran_free(&r);

	/* invalidate=0: no drop, so nothing slow in the time. */
	slow_drop_ms = 200;
	run_text(&r, NULL, "[i]\nfilename=%s/inv\nsize=64k\nrw=read\ninvalidate=0\n", testrun_dir);
	slow_drop_ms = 0;
	assert_int_equal(r.ret, 0);
	secs = r.run.results[0].stats.elapsed / 1e9;
	if (secs >= 0.2)
		fail_msg("invalidate=0 measured %.4f s: the cache was dropped", secs);
	ran_free(&r);
}

static void test_unlink_only_created(void **state)
{
	struct ran r;
	char *mine = path("keep"), *made = path("made");
	int fd = open(mine, O_CREAT | O_WRONLY, 0644);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 0), 0);
	close(fd);
	run_text(&r, NULL, "[global]\nsize=64k\nunlink=1\n[a]\nfilename=%s\n[b]\nfilename=%s\n",
		 mine, made);
	assert_int_equal(r.ret, 0);
	ran_free(&r);
	assert_int_equal(access(mine, F_OK), 0);
	assert_int_equal(access(made, F_OK), -1);
	unlink(mine);
	free(mine);
	free(made);
}

static void test_numjobs_and_groups(void **state)
{
	struct strbuf sb = { 0 };
	struct ran r;

	(void)state;
	run_text(&r, NULL,
		 "[global]\ndirectory=%s\nsize=64k\n[a]\nnumjobs=2\ngroup_reporting\n[b]\n"
		 "stonewall\nrw=write\nfsync=4\n",
		 testrun_dir);
	assert_int_equal(r.ret, 0);
	assert_int_equal(r.run.nr, 3);
	assert_int_equal(r.run.results[0].group, 0);
	assert_int_equal(r.run.results[2].group, 1);
	assert_int_equal(r.run.results[2].stats.dir[STAT_WRITE].ios, 16);
	assert_int_equal(r.run.results[2].stats.dir[STAT_SYNC].ios, 4);
	report_text(&r.run, &sb);
	assert_non_null(
		strstr(sb.buf, "[a] 2 processes, psync, iodepth 1, rw=read, bs=4096, buffered"));
	assert_non_null(strstr(sb.buf, "[b] 1 process, psync, iodepth 1, rw=write, bs=4096"));
	assert_non_null(strstr(sb.buf, "IOs/sec:"));
	assert_non_null(strstr(sb.buf, "  us: <=1 2 5 10 20 50 100"));
	assert_non_null(strstr(sb.buf, "  ms:"));
	strbuf_free(&sb);
	ran_free(&r);
	assert_int_equal(access("a.0.0", F_OK), -1);
	/* A relative filename lives in directory, as in fio. */
	run_text(&r, NULL, "[d]\ndirectory=%s\nfilename=rel.dat\nsize=64k\n", testrun_dir);
	assert_int_equal(r.ret, 0);
	ran_free(&r);
	{
		char *p = path("rel.dat");

		assert_int_equal(access(p, F_OK), 0);
		free(p);
	}
}

static void test_refused_before_io(void **state)
{
	struct ran r;
	char *p = path("never");

	(void)state;
	/* rw=randread:2, once refused here, runs now.  An lfsr whose seed is
	 * the register's forbidden state (randseed=25: fio's block seed ends
	 * in five one bits, 16 blocks need five) is refused at set-up. */
	run_text(&r, NULL,
		 "[a]\nfilename=%s\nsize=64k\nrw=randread\nrandom_generator=lfsr\n"
		 "randrepeat=0\nrandseed=25\n",
		 p);
	assert_int_not_equal(r.ret, 0);
	assert_non_null(strstr(r.cause, "random_generator=lfsr cannot draw"));
	assert_int_equal(access(p, F_OK), -1);
	ran_free(&r);
	run_text(&r, NULL, "[a]\nfilename=%s\nsize=64k\ndirect=1\nbs=1000\n", p);
	assert_int_not_equal(r.ret, 0);
	assert_non_null(strstr(
		r.cause, "direct=1 needs block sizes, blockalign and rw's gap in multiples of"));
	/* The run did not start: the file it laid out is gone again. */
	assert_int_equal(access(p, F_OK), -1);
	ran_free(&r);
	run_text(&r, NULL, "[a]\nfilename=%s\n", p);
	assert_int_not_equal(r.ret, 0);
	assert_non_null(strstr(r.cause, "does not exist and the job gives no size"));
	ran_free(&r);
	free(p);
}

static void test_io_error_named(void **state)
{
	struct ran r;

	(void)state;
	eio_at = 12288;
	run_text(&r, NULL, "[e]\nfilename=%s/eio\nsize=64k\nrw=read\nbs=4k\n", testrun_dir);
	eio_at = -1;
	assert_int_equal(r.ret, 0);
	assert_non_null(r.run.results[0].error);
	if (!strstr(r.run.results[0].error,
		    "/eio: read at offset 12288, size 4096: Input/output error"))
		fail_msg("error message: %s", r.run.results[0].error);
	/* The three reads before the failing one were counted, no more. */
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 3);
	ran_free(&r);
}

/* A failed trim is named a trim (the op's name, from a table by op, once
 * read past a 4-name array for it). */
static void test_trim_error_named(void **state)
{
	struct ran r;

	(void)state;
	trim_eio_at = 8192;
	run_text(&r, NULL, "[t]\nfilename=%s/trim\nsize=64k\nrw=trim\nbs=4k\n", testrun_dir);
	trim_eio_at = -1;
	assert_int_equal(r.ret, 0);
	assert_non_null(r.run.results[0].error);
	if (!strstr(r.run.results[0].error,
		    "/trim: trim at offset 8192, size 4096: Input/output error"))
		fail_msg("error message: %s", r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.dir[STAT_TRIM].ios, 2);
	ran_free(&r);
}

/* A short read is continued where it stopped (the I/O still counts
 * whole); the end of the file where the region goes on is an error that
 * names the file and the offset, with what ran before it reported. */
static void test_short_and_eof(void **state)
{
	struct ran r;

	(void)state;
	short_at = 8192;
	shorts = 0;
	/* thread: the count is of this process's reads. */
	run_text(&r, NULL, "[s]\nfilename=%s/short\nsize=64k\nrw=read\nbs=4k\nthread\n",
		 testrun_dir);
	assert_int_equal(shorts, 1);
	assert_null(r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 16);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].bytes, 65536);
	ran_free(&r);
	/* As a file cut short under the job (truncated, replaced). */
	eof_at = 40960;
	run_text(&r, NULL, "[e]\nfilename=%s/short\nsize=64k\nrw=read\nbs=4k\n", testrun_dir);
	if (!r.run.results[0].error ||
	    !strstr(r.run.results[0].error,
		    "/short: read at offset 40960, size 4096: short transfer (end of file)"))
		fail_msg("error: %s", r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 10);
	ran_free(&r);
	/* continue_on_error=read: every read past the cut is counted and passed over. */
	run_text(&r, NULL,
		 "[c]\nfilename=%s/short\nsize=64k\nrw=read\nbs=4k\ncontinue_on_error=read\n",
		 testrun_dir);
	eof_at = -1;
	assert_null(r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.errors, 6);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 10);
	assert_int_equal(r.run.results[0].first_error_no, EIO);
	ran_free(&r);
}

/* continue_on_error: the failing read is counted and passed over, the
 * rest of the job runs; the first error keeps its file, offset and errno.
 * A kind it does not cover still stops the job. */
static void test_continue_on_error(void **state)
{
	static const char *const go_on[] = { "io", "read", "all", "1" };
	struct ran r;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(go_on); i++) {
		eio_at = 12288;
		run_text(&r, NULL,
			 "[e]\nfilename=%s/coe\nsize=64k\nrw=read\nbs=4k\nloops=2\n"
			 "continue_on_error=%s\n",
			 testrun_dir, go_on[i]);
		eio_at = -1;
		assert_int_equal(r.ret, 0);
		assert_null(r.run.results[0].error);
		assert_int_equal(r.run.results[0].stats.errors, 2); /* once per loop */
		assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 2 * 16 - 2);
		assert_int_equal(r.run.results[0].first_error_no, EIO);
		if (!r.run.results[0].first_error ||
		    !strstr(r.run.results[0].first_error,
			    "/coe: read at offset 12288, size 4096: Input/output error"))
			fail_msg("first error: %s", r.run.results[0].first_error);
		if (i == 0) {
			struct strbuf sb = { 0 };

			report_text(&r.run, &sb);
			if (!strstr(sb.buf, "errors: 2 I/Os failed and passed over "
					    "(continue_on_error); the first: ") ||
			    !strstr(sb.buf, "/coe: read at offset 12288"))
				fail_msg("report: %s", sb.buf);
			strbuf_free(&sb);
			sb = (struct strbuf){ 0 };
			report_json(&r.run, &r.js, false, &sb);
			if (!strstr(sb.buf, "\"total_err\" : 2") &&
			    !strstr(sb.buf, "\"total_err\": 2"))
				fail_msg("json: no total_err 2");
			strbuf_free(&sb);
		}
		ran_free(&r);
	}
	eio_at = 12288;
	run_text(&r, NULL,
		 "[e]\nfilename=%s/coe\nsize=64k\nrw=read\nbs=4k\ncontinue_on_error=write\n",
		 testrun_dir);
	eio_at = -1;
	assert_non_null(r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.errors, 0);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 3);
	ran_free(&r);
}

static atomic_int stop_flag;

static void *stop_later(void *arg)
{
	struct timespec ts = { 0, 300000000 };

	(void)arg;
	nanosleep(&ts, NULL);
	stop_flag = 1;
	return NULL;
}

static void test_stop_reports_what_ran(void **state)
{
	struct ran r;
	pthread_t t;

	(void)state;
	stop_flag = 0;
	assert_int_equal(pthread_create(&t, NULL, stop_later, NULL), 0);
	run_text(&r, &stop_flag, "[a]\nfilename=%s/st\nsize=64k\nruntime=30\ntime_based\n",
		 testrun_dir);
	pthread_join(t, NULL);
	assert_int_equal(r.ret, 0);
	assert_true(r.run.interrupted);
	assert_true(r.run.results[0].stats.elapsed < 2000000000ull);
	assert_true(r.run.results[0].stats.dir[STAT_READ].ios > 0);
	ran_free(&r);
}

/* Clock reads per I/O of a null-engine job with @opts: the reads of a
 * 2048-I/O run less those of a 1024-I/O one, over the 1024 I/Os more. */
static double reads_per_io(const char *opts)
{
	unsigned long n[2];
	unsigned k;
	struct ran r;

	for (k = 0; k < 2; k++) {
		mono_reads = 0;
		run_text(&r, NULL, "[c]\nioengine=null\nthread=1\nbs=4k\nrw=randread\nsize=%um\n%s",
			 4u << k, opts);
		n[k] = mono_reads;
		assert_int_equal(r.ret, 0);
		assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 1024u << k);
		ran_free(&r);
	}
	return (double)(n[1] - n[0]) / 1024;
}

static void test_clock_reads_per_io(void **state)
{
	(void)state;
	/* As fio: a start per I/O, an issue per commit, a completion per
	 * reaped batch; at fio's default batches of one, three. */
	assert_true(fabs(reads_per_io("iodepth=1\n") - 3) < 0.01);
	assert_true(fabs(reads_per_io("iodepth=32\n") - 3) < 0.01);
	/* Batches of 32 submitted and reaped: 32 starts, 1 issue, 1 completion. */
	assert_true(fabs(reads_per_io("iodepth=32\niodepth_batch_submit=32\n"
				      "iodepth_batch_complete_max=32\n") -
			 34.0 / 32) < 0.01);
	/* No lat, no slat: no start. */
	assert_true(fabs(reads_per_io("iodepth=1\ndisable_lat=1\ndisable_slat=1\n") - 2) < 0.01);
	/* No clat, no slat: no issue. */
	assert_true(fabs(reads_per_io("iodepth=1\ndisable_clat=1\ndisable_slat=1\n") - 2) < 0.01);
	/* gtod_reduce: one read per 64 completions. */
	assert_true(fabs(reads_per_io("iodepth=1\ngtod_reduce=1\n") - 1.0 / 64) < 0.01);
}

/* Runs job file @text, which must succeed: the seconds it took by the
 * wall clock. */
static double timed_run(struct ran *r, const char *text)
{
	double t0 = wall_now();

	run_text(r, NULL, "%s", text);
	assert_int_equal(r->ret, 0);
	return wall_now() - t0;
}

/* clocksource=cpu: the TSC's ns are CLOCK_MONOTONIC's (a runtime lasts its
 * time by the wall clock), a paced job keeps its rate, and latencies are
 * of the size clock_gettime measures. */
static void test_clocksource_cpu(void **state)
{
	const struct dir_stats *ds;
	double wall, median[2];
	struct ran r;
	unsigned k;

	(void)state;
	if (!clock_have_tsc())
		skip();
	wall = timed_run(&r, "[c]\nioengine=null\nthread=1\nsize=64m\nruntime=1\ntime_based\n"
			     "clocksource=cpu\n");
	assert_int_equal(r.run.clock, CLOCKSOURCE_CPU);
	ds = &r.run.results[0].stats.dir[STAT_READ];
	assert_in_range(r.run.results[0].stats.elapsed, 950000000, 1100000000);
	assert_true(wall > 0.95 && wall < 1.5);
	assert_true(ds->clat.count > 0 && hist_mean(&ds->clat) < 1e5);
	assert_true(hist_mean(&ds->lat) >= hist_mean(&ds->clat));
	ran_free(&r);

	/* 100 I/Os at 250 a second: 0.4 s, by the wall clock. */
	wall = timed_run(&r, "[p]\nioengine=null\nthread=1\nsize=1m\nio_size=400k\nrate_iops=250\n"
			     "clocksource=cpu\n");
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 100);
	assert_true(wall > 0.38 && wall < 0.8);
	ran_free(&r);

	/* psync reads of a cached file: the same latency on either clock,
	 * within a broad bound.  Medians, not means: on a shared machine a
	 * few preempted reads move a mean by more than the bound. */
	for (k = 0; k < 2; k++) {
		run_text(&r, NULL,
			 "[s]\nioengine=psync\nfilename=%s/cs\nsize=1m\nrw=randread\n"
			 "invalidate=0\nloops=4\nclocksource=%s\n",
			 testrun_dir, k ? "cpu" : "clock_gettime");
		assert_int_equal(r.ret, 0);
		median[k] =
			(double)hist_percentile(&r.run.results[0].stats.dir[STAT_READ].clat, 50);
		ran_free(&r);
	}
	assert_true(median[0] > 0 && median[1] > median[0] / 4 && median[1] < median[0] * 4);
	/* The next run is back on CLOCK_MONOTONIC. */
	mono_reads = 0;
	run_text(&r, NULL, "[m]\nioengine=null\nthread=1\nsize=1m\n");
	assert_int_equal(r.run.clock, CLOCKSOURCE_CLOCK_GETTIME);
	assert_true(mono_reads > 256);
	ran_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_then_read_back),
		cmocka_unit_test(test_scrambled_writes_differ),
		cmocka_unit_test(test_random_offsets_aligned),
		cmocka_unit_test(test_offsets_and_backwards),
		cmocka_unit_test(test_time_bound),
		cmocka_unit_test(test_ramp_time),
		cmocka_unit_test(test_invalidate_is_timed),
		cmocka_unit_test(test_unlink_only_created),
		cmocka_unit_test(test_numjobs_and_groups),
		cmocka_unit_test(test_refused_before_io),
		cmocka_unit_test(test_stop_reports_what_ran),
		cmocka_unit_test(test_io_error_named),
		cmocka_unit_test(test_trim_error_named),
		cmocka_unit_test(test_continue_on_error),
		cmocka_unit_test(test_short_and_eof),
		cmocka_unit_test(test_clock_reads_per_io),
		cmocka_unit_test(test_clocksource_cpu),
	};

	return cmocka_run_group_tests(tests, testrun_setup, testrun_teardown);
}
