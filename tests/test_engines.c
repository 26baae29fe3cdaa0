/* SPDX-License-Identifier: MIT */
/*
 * One behavioural suite for every engine of the build.  At the engine
 * interface: data written through one engine reads back intact through
 * each other one, buffered and direct; reads at end of file are short;
 * a bad descriptor comes back as -EBADF on that I/O.  Through the worker:
 * 4 KiB random and 1 MiB sequential reads and writes on a real file, the
 * bytes really written, the latencies each engine has, the depth kept in
 * flight, and errors (ENOSPC, EIO) named with file and offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#ifdef IOGAUGE_HAVE_LIBAIO
#include <libaio.h>
#endif

#include "engines/engine.h"
#include "files/files.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"
#include "run/run.h"
#include "testloop.h"
#include "testrun.h"

#define BS    4096u
#define DEPTH 8u
#define NBLK  64u /* blocks in the test file */

/* An engine and how to set it up: io_uring also with its knobs. */
struct variant {
	const char *engine;
	bool fixedbufs, registerfiles, sqthread_poll;
	const char *label;
	bool vectored; /* sub_blocks=4: one vectored I/O over 4 pieces apart */
};

static const struct variant variants[] = {
	{ "psync", .label = "psync" },
	{ "sync", .label = "sync" },
	{ "mmap", .label = "mmap" },
	{ "pvsync", .label = "pvsync" },
	{ "pvsync2", .label = "pvsync2" },
	{ "vsync", .label = "vsync" },
	{ "posixaio", .label = "posixaio" },
	{ "splice", .label = "splice" },
#ifdef IOGAUGE_HAVE_LIBAIO
	{ "libaio", .label = "libaio" },
#endif
#ifdef IOGAUGE_HAVE_LIBURING
	{ "io_uring", .label = "io_uring" },
	{ "io_uring", true, true, false, "io_uring fixedbufs+registerfiles", false },
	{ "io_uring", false, false, true, "io_uring sqthread_poll", false },
	{ "io_uring", .label = "io_uring vectored", .vectored = true },
#endif
#ifdef IOGAUGE_HAVE_LIBAIO
	{ "libaio", .label = "libaio vectored", .vectored = true },
#endif
	{ "psync", .label = "psync vectored", .vectored = true },
	{ "sync", .label = "sync vectored", .vectored = true },
	{ "pvsync", .label = "pvsync vectored", .vectored = true },
	{ "pvsync2", .label = "pvsync2 vectored", .vectored = true },
};

#define PIECES 4u

/* ---- driving an engine directly, as the worker does ---- */

struct drv {
	struct engine e;
	struct job job;
	struct run_file file;
	struct run_files fs;
	char *bufs;
	struct io_req reqs[DEPTH];
	struct iovec iov[DEPTH][PIECES];
	unsigned which[DEPTH]; /* slot -> I/O number */
};

static void drv_open(struct drv *d, const struct variant *v, const char *path, uint64_t size,
		     bool direct)
{
	struct engine_setup es = { &d->job, NULL, &d->fs, NULL, BS };
	char *cause = NULL;
	unsigned i, k;
	int ret;

	memset(d, 0, sizeof(*d));
	d->e.ops = engine_find(v->engine);
	assert_non_null(d->e.ops);
	assert_int_equal(engine_ops_check(d->e.ops), 0);
	if (job_defaults(&d->job, &cause))
		fail_msg("%s", cause);
	d->job.rw = RW_RANDRW;
	/* io_uring's knobs, set as a job file would: the engine's own rows. */
	if (v->fixedbufs || v->registerfiles || v->sqthread_poll) {
		assert_int_equal(opt_apply(opt_find("fixedbufs"), &d->job, v->fixedbufs ? "1" : "0",
					   false, &cause),
				 0);
		assert_int_equal(opt_apply(opt_find("registerfiles"), &d->job,
					   v->registerfiles ? "1" : "0", false, &cause),
				 0);
		assert_int_equal(opt_apply(opt_find("sqthread_poll"), &d->job,
					   v->sqthread_poll ? "1" : "0", false, &cause),
				 0);
	}
	es.opts = engine_opts_of(&d->job, d->e.ops);
	d->file.path = (char *)path;
	d->file.fd = open(path, O_RDWR | (direct ? O_DIRECT : 0));
	assert_true(d->file.fd >= 0);
	d->file.size = d->file.len = size;
	d->fs.v = &d->file;
	d->fs.n = 1;
	d->fs.mem_align = 4096;
	assert_int_equal(posix_memalign((void **)&d->bufs, 4096, DEPTH * BS), 0);
	d->e.depth = (d->e.ops->flags & ENGINE_F_SYNC) ? 1 : DEPTH;
	for (i = 0; i < DEPTH; i++) {
		d->reqs[i].idx = i;
		d->reqs[i].buf = d->bufs + i * BS;
		for (k = 0; v->vectored && k < PIECES; k++) {
			void *p;

			/* Each piece its own page; the contiguous buffer is poison,
			 * so an engine that ignored the iovecs moves wrong bytes. */
			assert_int_equal(posix_memalign(&p, 4096, 4096), 0);
			d->iov[i][k].iov_base = p;
			d->iov[i][k].iov_len = BS / PIECES;
			memset(d->reqs[i].buf, 0x5a, BS);
		}
		if (v->vectored) {
			d->reqs[i].iov = d->iov[i];
			d->reqs[i].nr_iov = PIECES;
		}
	}
	es.bufs = d->bufs;
	ret = d->e.ops->init ? d->e.ops->init(&d->e, &es, &cause) : 0;
	if (ret)
		fail_msg("%s: init: %s", v->label, cause);
}

static void drv_close(struct drv *d)
{
	struct job *one = malloc(sizeof(*one));

	*one = d->job;
	job_free_all(one, 1);
	if (d->e.ops->cleanup)
		d->e.ops->cleanup(&d->e);
	close(d->file.fd);
	free(d->bufs);
	for (unsigned i = 0; i < DEPTH; i++)
		for (unsigned k = 0; d->reqs[i].nr_iov && k < PIECES; k++)
			free(d->iov[i][k].iov_base);
}

/* Between the I/O's bytes at @at and its buffer, or its pieces. */
static void drv_copy(struct io_req *r, char *at, size_t len, bool to_req)
{
	unsigned k;
	size_t n;

	if (!r->nr_iov) {
		memcpy(to_req ? r->buf : at, to_req ? at : r->buf, len);
		return;
	}
	for (k = 0; k < r->nr_iov && len; k++, at += n, len -= n) {
		n = len < r->iov[k].iov_len ? len : r->iov[k].iov_len;
		memcpy(to_req ? r->iov[k].iov_base : at, to_req ? at : r->iov[k].iov_base, n);
	}
}

/* Records a finished I/O: its result, and a read's bytes into @data. */
static void drv_done(struct drv *d, struct io_req *r, char *data, int64_t *res)
{
	res[d->which[r->idx]] = r->res;
	if (r->op == IO_OP_READ && r->res > 0)
		drv_copy(r, data + r->off, (size_t)r->res, false);
}

/*
 * Runs @n I/Os of @op at offsets @off (each @len bytes) with up to depth in
 * flight.  A write's bytes come from @data at its offset; a read's bytes
 * land in @data at its offset.  Each I/O's result goes to @res.
 */
static void drv_io(struct drv *d, enum io_op op, const uint64_t *off, size_t len, unsigned n,
		   char *data, int64_t *res, int fd)
{
	struct io_req *freel[DEPTH], *done[DEPTH];
	unsigned nfree = 0, next = 0, finished = 0, inflight = 0, queued = 0, i;
	int k;

	for (i = 0; i < d->e.depth; i++)
		freel[nfree++] = &d->reqs[i];
	while (finished < n) {
		while (next < n && nfree) {
			struct io_req *r = freel[--nfree];
			enum engine_q q;

			r->op = op;
			r->fd = fd;
			r->file = 0;
			r->off = off[next];
			r->len = len;
			if (op == IO_OP_WRITE)
				drv_copy(r, data + r->off, len, true);
			q = d->e.ops->queue(&d->e, r);
			if (q == ENGINE_Q_BUSY) {
				freel[nfree++] = r;
				break;
			}
			d->which[r->idx] = next++;
			if (q == ENGINE_Q_DONE) {
				drv_done(d, r, data, res);
				freel[nfree++] = r;
				finished++;
				continue;
			}
			queued++;
			inflight++;
			assert_true(inflight <= d->e.depth);
		}
		if (queued) {
			assert_int_equal(d->e.ops->commit(&d->e), 0);
			queued = 0;
		}
		if (!inflight)
			continue;
		k = d->e.ops->reap(&d->e, 1, inflight, done);
		assert_true(k >= 1);
		inflight -= (unsigned)k;
		for (i = 0; i < (unsigned)k; i++) {
			drv_done(d, done[i], data, res);
			freel[nfree++] = done[i];
			finished++;
		}
	}
}

/* A file of @size bytes of 0xee, made with plain write(2). */
static char *make_file(const char *name, size_t size)
{
	char *p = xasprintf("%s/%s", testrun_dir, name), *b = malloc(size);
	int fd = open(p, O_CREAT | O_TRUNC | O_WRONLY, 0644);

	assert_true(fd >= 0);
	memset(b, 0xee, size);
	assert_int_equal(write(fd, b, size), (ssize_t)size);
	close(fd);
	free(b);
	return p;
}

/* Offsets of every block once, in a scrambled order. */
static void scrambled(uint64_t *off, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		off[i] = (uint64_t)((i * 37u) % n) * BS;
}

static void test_cross_engine_data(void **state)
{
	size_t size = NBLK * BS, i, w, r, direct;
	uint64_t off[NBLK];
	int64_t res[NBLK];
	char *path = make_file("cross", size), *data = malloc(size), *back = malloc(size);

	(void)state;
	scrambled(off, NBLK);
	for (direct = 0; direct < 2; direct++) {
		for (w = 0; w < ARRAY_SIZE(variants); w++) {
			struct drv d;

			/* Different bytes for every writer and block. */
			for (i = 0; i < size; i++)
				data[i] = (char)(i * 131 + w * 17 + direct * 7 + (i >> 12));
			drv_open(&d, &variants[w], path, size, direct);
			drv_io(&d, IO_OP_WRITE, off, BS, NBLK, data, res, d.file.fd);
			for (i = 0; i < NBLK; i++)
				if (res[i] != BS)
					fail_msg("%s direct=%zu: write %zu gave %lld",
						 variants[w].label, direct, i, (long long)res[i]);
			/* mmap's writes reach the file at msync (its fsync). */
			drv_io(&d, IO_OP_FSYNC, off, 0, 1, data, res, d.file.fd);
			assert_int_equal(res[0], 0);
			drv_close(&d);
			for (r = 0; r < ARRAY_SIZE(variants); r++) {
				drv_open(&d, &variants[r], path, size, direct);
				memset(back, 0, size);
				drv_io(&d, IO_OP_READ, off, BS, NBLK, back, res, d.file.fd);
				drv_close(&d);
				for (i = 0; i < NBLK; i++)
					assert_int_equal(res[i], BS);
				if (memcmp(back, data, size))
					fail_msg("written by %s, read by %s, direct=%zu: the bytes "
						 "differ",
						 variants[w].label, variants[r].label, direct);
			}
		}
	}
	free(path);
	free(data);
	free(back);
}

static void test_read_at_end_of_file(void **state)
{
	/* 16 blocks and a half: the last read is short, one past it empty. */
	size_t size = 16 * BS + BS / 2, v;
	uint64_t off[2] = { 16 * BS, 17 * BS };
	int64_t res[2];
	char *path = make_file("eof", size), *back = malloc(18 * BS);

	(void)state;
	for (v = 0; v < ARRAY_SIZE(variants); v++) {
		struct drv d;

		drv_open(&d, &variants[v], path, size, false);
		drv_io(&d, IO_OP_READ, off, BS, 2, back, res, d.file.fd);
		drv_close(&d);
		if (res[0] != BS / 2 || res[1] != 0)
			fail_msg("%s: reads at end of file gave %lld and %lld, not %u and 0",
				 variants[v].label, (long long)res[0], (long long)res[1], BS / 2);
	}
	free(path);
	free(back);
}

static void test_bad_descriptor(void **state)
{
	uint64_t off[4] = { 0, BS, 2 * BS, 3 * BS };
	int64_t res[4];
	char *path = make_file("ebadf", 4 * BS), *back = malloc(4 * BS);
	size_t v;
	unsigned i;

	(void)state;
	for (v = 0; v < ARRAY_SIZE(variants); v++) {
		struct drv d;

		/* mmap copies from its mapping: it never uses the descriptor;
		 * registered files are addressed by index, not descriptor. */
		if (!strcmp(variants[v].engine, "mmap") || variants[v].registerfiles)
			continue;
		drv_open(&d, &variants[v], path, 4 * BS, false);
		drv_io(&d, IO_OP_READ, off, BS, 4, back, res, 1000);
		drv_close(&d);
		for (i = 0; i < 4; i++)
			if (res[i] != -EBADF)
				fail_msg("%s: I/O %u on a closed descriptor gave %lld, not -EBADF",
					 variants[v].label, i, (long long)res[i]);
	}
	free(path);
	free(back);
}

/* ---- through the worker ---- */

static const char *const all_engines[] = {
	"psync",    "sync", "mmap", "null", "pvsync", "pvsync2", "vsync", "posixaio", "splice",
#ifdef IOGAUGE_HAVE_LIBAIO
	"libaio",
#endif
#ifdef IOGAUGE_HAVE_LIBURING
	"io_uring",
#endif
};

static bool is_async(const char *engine)
{
	return !(engine_find(engine)->flags & ENGINE_F_SYNC);
}

/* Whether every byte of @len from the file's start is zero. */
static bool all_zero(const char *path, size_t len)
{
	char *b = malloc(len);
	int fd = open(path, O_RDONLY);
	bool z = fd >= 0 && read(fd, b, len) == (ssize_t)len;
	size_t i;

	for (i = 0; z && i < len; i++)
		z = !b[i];
	if (fd >= 0)
		close(fd);
	free(b);
	return z;
}

static void test_every_engine_every_pattern(void **state)
{
	static const struct {
		const char *rw, *bs;
		unsigned long bsn;
		bool write;
	} pats[] = {
		{ "randread", "4k", 4096, false },
		{ "randwrite", "4k", 4096, true },
		{ "read", "1m", 1 << 20, false },
		{ "write", "1m", 1 << 20, true },
	};
	const unsigned long size = 8ul << 20;
	size_t e, p, direct;

	(void)state;
	for (e = 0; e < ARRAY_SIZE(all_engines); e++)
		for (p = 0; p < ARRAY_SIZE(pats); p++)
			for (direct = 0; direct < 2; direct++) {
				const char *eng = all_engines[e];
				char *file = xasprintf("%s/m-%s", testrun_dir, eng);
				const struct run_stats *st;
				struct ran r;
				unsigned d = pats[p].write ? STAT_WRITE : STAT_READ;
				uint64_t ios = size / pats[p].bsn;

				run_text(&r, NULL,
					 "[m]\nfilename=%s\nsize=%lu\nioengine=%s\niodepth=8\n"
					 "rw=%s\nbs=%s\ndirect=%zu\nzero_buffers=1\nend_fsync=1\n",
					 file, size, eng, pats[p].rw, pats[p].bs, direct);
				if (r.ret || r.run.results[0].error)
					fail_msg("%s %s direct=%zu: %s", eng, pats[p].rw, direct,
						 r.ret ? r.cause : r.run.results[0].error);
				st = &r.run.results[0].stats;
				if (st->dir[d].ios != ios || st->dir[d].bytes != size ||
				    st->dir[d].lat.count != ios || st->dir[d].clat.count != ios)
					fail_msg("%s %s direct=%zu: %llu I/Os, %llu bytes", eng,
						 pats[p].rw, direct,
						 (unsigned long long)st->dir[d].ios,
						 (unsigned long long)st->dir[d].bytes);
				/* Only engines with a submission step have a slat. */
				assert_int_equal(st->dir[d].slat.count, is_async(eng) ? ios : 0);
				/* The file was laid out with non-zero bytes: zeros
				 * now mean the engine wrote them (null writes none). */
				if (pats[p].write && strcmp(eng, "null") && !all_zero(file, size))
					fail_msg("%s %s direct=%zu: the file does not hold the "
						 "written zeros",
						 eng, pats[p].rw, direct);
				if (!strcmp(eng, "null"))
					assert_int_equal(access(file, F_OK), -1);
				ran_free(&r);
				unlink(file);
				free(file);
			}
}

static void test_depth_in_flight(void **state)
{
	size_t e;

	(void)state;
	for (e = 0; e < ARRAY_SIZE(all_engines); e++) {
		const char *eng = all_engines[e];
		const struct run_stats *st;
		struct ran r;

		run_text(&r, NULL,
			 "[q]\nfilename=%s/q\nsize=4m\nioengine=%s\niodepth=16\nrw=randread\n"
			 "bs=4k\ndirect=%d\n",
			 testrun_dir, eng, strcmp(eng, "mmap") != 0);
		assert_int_equal(r.ret, 0);
		assert_null(r.run.results[0].error);
		st = &r.run.results[0].stats;
		assert_int_equal(st->depth_max, is_async(eng) ? 16 : 1);
		assert_int_equal(r.run.results[0].depth, is_async(eng) ? 16 : 1);
		/* Every I/O is counted in one IO-depths bucket. */
		{
			uint64_t sum = 0;
			unsigned i;

			for (i = 0; i < STATS_DEPTHS; i++)
				sum += st->depth[i];
			assert_int_equal(sum, 1024);
			if (is_async(eng))
				assert_true(st->depth[stats_depth_bucket(16)] > 0);
			else
				assert_int_equal(st->depth[0], 1024);
		}
		ran_free(&r);
	}
}

/* A time-bound run ends with I/Os in flight: they drain, and count. */
static void test_time_bound_drains(void **state)
{
	size_t e;

	(void)state;
	for (e = 0; e < ARRAY_SIZE(all_engines); e++) {
		const struct run_stats *st;
		struct ran r;

		run_text(&r, NULL,
			 "[t]\nfilename=%s/t\nsize=4m\nioengine=%s\niodepth=16\nrw=randrw\n"
			 "bs=4k\ndirect=%d\nruntime=300ms\ntime_based\n",
			 testrun_dir, all_engines[e], strcmp(all_engines[e], "mmap") != 0);
		assert_int_equal(r.ret, 0);
		if (r.run.results[0].error)
			fail_msg("%s: %s", all_engines[e], r.run.results[0].error);
		st = &r.run.results[0].stats;
		assert_true(st->dir[STAT_READ].ios > 0 && st->dir[STAT_WRITE].ios > 0);
		assert_int_equal(st->dir[STAT_READ].lat.count + st->dir[STAT_WRITE].lat.count,
				 st->dir[STAT_READ].ios + st->dir[STAT_WRITE].ios);
		ran_free(&r);
	}
}

static void test_io_uring_knobs_move_bytes(void **state)
{
#ifdef IOGAUGE_HAVE_LIBURING
	static const char *const knobs[] = { "fixedbufs\nregisterfiles\n", "sqthread_poll\n" };
	size_t k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(knobs); k++) {
		char *file = xasprintf("%s/knob", testrun_dir);
		struct ran r;

		run_text(&r, NULL,
			 "[k]\nfilename=%s\nsize=1m\nioengine=io_uring\niodepth=4\nrw=randwrite\n"
			 "bs=4k\ndirect=1\nzero_buffers=1\n%s",
			 file, knobs[k]);
		assert_int_equal(r.ret, 0);
		assert_null(r.run.results[0].error);
		assert_int_equal(r.run.results[0].stats.dir[STAT_WRITE].ios, 256);
		/* With a kernel thread submitting there is no slat, as fio. */
		assert_int_equal(r.run.results[0].stats.dir[STAT_WRITE].slat.count, k ? 0 : 256);
		assert_true(all_zero(file, 1 << 20));
		ran_free(&r);
		unlink(file);
		free(file);
	}
	/* hipri polls for completions: a device without poll queues (this
	 * virtio disk, most VMs) refuses each I/O with EOPNOTSUPP, named. */
	{
		struct ran r;

		run_text(&r, NULL,
			 "[h]\nfilename=%s/hipri\nsize=256k\nioengine=io_uring\niodepth=4\n"
			 "rw=read\nbs=4k\ndirect=1\nhipri\n",
			 testrun_dir);
		assert_int_equal(r.ret, 0);
		if (r.run.results[0].error) {
			if (!strstr(r.run.results[0].error,
				    "/hipri: read at offset 0, size 4096: Operation not supported"))
				fail_msg("hipri: %s", r.run.results[0].error);
		} else {
			assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 64);
		}
		ran_free(&r);
	}
#else
	(void)state;
	skip();
#endif
}

#ifdef IOGAUGE_HAVE_LIBAIO
/* libaio's io_getevents, counted (linked with --wrap=io_getevents). */
static unsigned getevents_calls;
int __real_io_getevents(io_context_t ctx, long min, long nr, struct io_event *ev,
			struct timespec *t);
int __wrap_io_getevents(io_context_t ctx, long min, long nr, struct io_event *ev,
			struct timespec *t);
int __wrap_io_getevents(io_context_t ctx, long min, long nr, struct io_event *ev,
			struct timespec *t)
{
	getevents_calls++;
	return __real_io_getevents(ctx, min, nr, ev, t);
}
#endif

/* As fio's libaio: every reap is an io_getevents call; userspace_reap
 * reads the ring instead when the reap need not wait (min 0 only). */
static void test_libaio_reaping(void **state)
{
#ifdef IOGAUGE_HAVE_LIBAIO
	static const struct {
		const char *extra;
		bool ring; /* reaped from the ring: (almost) no io_getevents */
	} modes[] = {
		{ "", false },
		{ "iodepth_batch_complete_min=0\n", false },
		{ "userspace_reap\n", false },
		{ "userspace_reap\niodepth_batch_complete_min=0\n", true },
	};
	size_t m;

	(void)state;
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		const struct run_stats *st;
		uint64_t reaps = 0;
		struct ran r;
		unsigned i;

		getevents_calls = 0;
		/* thread: the calls counted are this process's. */
		run_text(&r, NULL,
			 "[u]\nfilename=%s/u\nsize=4m\nioengine=libaio\niodepth=16\n"
			 "rw=randread\nbs=4k\ndirect=1\nthread\n%s",
			 testrun_dir, modes[m].extra);
		assert_int_equal(r.ret, 0);
		assert_null(r.run.results[0].error);
		st = &r.run.results[0].stats;
		assert_int_equal(st->dir[STAT_READ].ios, 1024);
		for (i = 0; i < STATS_DEPTHS; i++)
			reaps += st->complete[i];
		if (modes[m].ring)
			assert_true(getevents_calls < 16);
		else if (strstr(modes[m].extra, "complete_min=0"))
			/* Polls that found nothing are calls too. */
			assert_true(getevents_calls >= reaps);
		else
			assert_int_equal(getevents_calls, reaps);
		assert_true(reaps > 0);
		ran_free(&r);
	}
#else
	(void)state;
	skip();
#endif
}

static void test_mmap_never_extends(void **state)
{
	char *p = make_file("short", 64 << 10);
	struct stat st;
	struct ran r;

	(void)state;
	run_text(&r, NULL, "[x]\nfilename=%s\nsize=1m\nioengine=mmap\nrw=write\n", p);
	assert_int_not_equal(r.ret, 0);
	if (!strstr(r.cause, "ioengine=mmap cannot extend the file from 65536 to 1048576 bytes"))
		fail_msg("%s", r.cause);
	ran_free(&r);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 64 << 10);
	free(p);
}

/*
 * Errors from a real device: a loop device whose backing file sits on a
 * full 1 MiB tmpfs.  A direct write to a block not yet backed fails with
 * ENOSPC; an O_DSYNC one with EIO; a buffered one fails at fsync with EIO.
 * Root only.
 */
static char mnt[128], loopdev[64]; /* undone by teardown, whatever failed */

static void device_undo(void)
{
	testloop_detach(loopdev);
	if (mnt[0]) {
		umount(mnt);
		mnt[0] = '\0';
	}
}

/* Whether @err holds @want, where a '%' in @want stands for an offset in
 * [@lo, @lo + 16 KiB): with 4 writes in flight, the first to fail may
 * complete after another. */
static bool error_matches(const char *err, const char *want, unsigned long long lo)
{
	const char *pct = strchr(want, '%');
	const char *at, *p;
	size_t head = pct ? (size_t)(pct - want) : strlen(want), n;
	unsigned long long v;

	for (at = err; at && (at = strstr(at, loopdev)); at++) {
		p = at + strlen(loopdev);
		if (strncmp(p, ": ", 2) || strncmp(p + 2, want, head))
			continue;
		if (!pct)
			return true;
		p += 2 + head;
		n = strspn(p, "0123456789");
		v = strtoull(p, NULL, 10);
		if (n && v >= lo && v < lo + 16384 && v % 4096 == 0 && !strcmp(p + n, pct + 1))
			return true;
	}
	return false;
}

/* A 64 KiB write job on the loop device with @extra options must stop
 * with "DEVICE: @want". */
static void device_error(const char *eng, const char *extra, const char *want,
			 unsigned long long lo)
{
	struct ran r;

	run_text(&r, NULL,
		 "[e]\nfilename=%s\nioengine=%s\niodepth=4\nrw=write\nbs=4k\nsize=64k\n%s\n",
		 loopdev, eng, extra);
	assert_int_equal(r.ret, 0);
	if (!r.run.results[0].error || !error_matches(r.run.results[0].error, want, lo))
		fail_msg("%s (%s): error %s", eng, extra, r.run.results[0].error);
	ran_free(&r);
}

static void test_device_errors_named(void **state)
{
	char back[160], *fill;
	size_t e;
	int fd;

	(void)state;
	if (geteuid())
		skip();
	snprintf(mnt, sizeof(mnt), "%s/mnt", testrun_dir);
	snprintf(back, sizeof(back), "%s/back", mnt);
	assert_int_equal(mkdir(mnt, 0755), 0);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=1m")) {
		mnt[0] = '\0';
		skip();
	}
	fd = open(back, O_CREAT | O_WRONLY, 0644);
	assert_int_equal(ftruncate(fd, 8 << 20), 0);
	close(fd);
	/* Fill the tmpfs, so that the loop device's new blocks have no room. */
	fill = xasprintf("%s/fill", mnt);
	fd = open(fill, O_CREAT | O_WRONLY, 0644);
	{
		char b[4096] = { 1 };

		while (write(fd, b, sizeof(b)) > 0)
			;
	}
	close(fd);
	free(fill);
	if (!testloop_attach(back, false, loopdev, sizeof(loopdev))) {
		device_undo();
		skip();
	}
	for (e = 0; e < ARRAY_SIZE(all_engines); e++) {
		const char *eng = all_engines[e];

		if (!strcmp(eng, "null"))
			continue;
		if (strcmp(eng, "mmap")) {
			device_error(eng, "direct=1\noffset=4m",
				     "write at offset %, size 4096: No space left on device",
				     4 << 20);
			/* O_DSYNC: the buffered write itself must reach the device. */
			device_error(eng, "sync=dsync\noffset=6m",
				     "write at offset %, size 4096: Input/output error", 6 << 20);
		}
		device_error(eng, "fsync=4\noffset=5m", "fsync: Input/output error", 0);
	}
	device_undo();
}

/* Where the data starts at or after @from in @path (SEEK_DATA), or the
 * size when only a hole is left. */
static off_t data_from(const char *path, off_t from)
{
	int fd = open(path, O_RDONLY);
	off_t at;

	assert_true(fd >= 0);
	at = lseek(fd, from, SEEK_DATA);
	if (at < 0)
		at = lseek(fd, 0, SEEK_END);
	close(fd);
	return at;
}

/* rw=trim and randtrim through every engine: on a file, the trimmed
 * region becomes a hole, the size and the bytes around it stay; on a loop
 * device, the trims are discards, which punch the backing file. */
static void test_trims(void **state)
{
	char *p = xasprintf("%s/trim", testrun_dir), back[160];
	off_t on_tmpfs;
	char *before, *after;
	size_t e;
	struct ran r;
	struct stat st;

	(void)state;
	for (e = 0; e < ARRAY_SIZE(all_engines); e++) {
		const char *eng = all_engines[e];
		bool moves = strcmp(eng, "null") != 0;
		int fd;

		unlink(p);
		run_text(&r, NULL, "[lay]\nfilename=%s\nsize=1m\nrw=read\nbs=64k\n", p);
		assert_null(r.run.results[0].error);
		ran_free(&r);
		before = malloc(1 << 20);
		fd = open(p, O_RDONLY);
		assert_int_equal(read(fd, before, 1 << 20), 1 << 20);
		close(fd);
		run_text(&r, NULL,
			 "[t]\nfilename=%s\nioengine=%s\niodepth=4\nrw=%s\nbs=64k\noffset=256k\n"
			 "size=512k\n",
			 p, eng, e % 2 ? "randtrim" : "trim");
		assert_null(r.run.results[0].error);
		assert_int_equal(r.run.results[0].stats.dir[STAT_TRIM].ios, 8);
		assert_int_equal(r.run.results[0].stats.dir[STAT_TRIM].bytes, 512 << 10);
		assert_int_equal(r.run.results[0].stats.dir[STAT_WRITE].ios, 0);
		ran_free(&r);
		assert_int_equal(stat(p, &st), 0);
		assert_int_equal(st.st_size, 1 << 20);
		after = malloc(1 << 20);
		fd = open(p, O_RDONLY);
		assert_int_equal(read(fd, after, 1 << 20), 1 << 20);
		close(fd);
		assert_memory_equal(before, after, 256 << 10);
		assert_memory_equal(before + (768 << 10), after + (768 << 10), 256 << 10);
		if (moves) {
			static const char zero[512 << 10];

			assert_memory_equal(after + (256 << 10), zero, sizeof(zero));
			assert_int_equal(data_from(p, 256 << 10), 768 << 10);
		} else {
			assert_memory_equal(before, after, 1 << 20);
		}
		free(before);
		free(after);
	}
	free(p);
	if (geteuid())
		return;
	/* The backing file lives on a tmpfs of its own: the loop driver only
	 * offers discard when the backing file system punches holes, and the
	 * test directory's file system (overlay, on some machines) may not. */
	snprintf(mnt, sizeof(mnt), "%s/trimfs", testrun_dir);
	assert_int_equal(mkdir(mnt, 0755), 0);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=8m")) {
		mnt[0] = '\0';
		fail_msg("mount tmpfs: %s", strerror(errno));
	}
	snprintf(back, sizeof(back), "%s/trimback", mnt);
	{
		int fd = open(back, O_CREAT | O_WRONLY, 0644);
		char b[65536];

		memset(b, 0x5a, sizeof(b));
		for (e = 0; e < 64; e++)
			assert_int_equal(write(fd, b, sizeof(b)), (ssize_t)sizeof(b));
		close(fd);
	}
	if (!testloop_attach(back, false, loopdev, sizeof(loopdev))) {
		device_undo();
		return;
	}
	run_text(&r, NULL,
		 "[d]\nfilename=%s\nioengine=libaio\ndirect=1\niodepth=4\nrw=randtrim\nbs=64k\n"
		 "size=1m\n",
		 loopdev);
	testloop_detach(loopdev);
	if (r.run.results[0].error)
		print_error("%s: %s\n", loopdev, r.run.results[0].error);
	assert_null(r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.dir[STAT_TRIM].ios, 16);
	ran_free(&r);
	/* The loop driver turns a discard into a hole in its backing file. */
	on_tmpfs = data_from(back, 0);
	device_undo();
	assert_int_equal(on_tmpfs, 1 << 20);
}

static int teardown(void **state)
{
	device_undo();
	return testrun_teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cross_engine_data),
		cmocka_unit_test(test_read_at_end_of_file),
		cmocka_unit_test(test_bad_descriptor),
		cmocka_unit_test(test_every_engine_every_pattern),
		cmocka_unit_test(test_depth_in_flight),
		cmocka_unit_test(test_time_bound_drains),
		cmocka_unit_test(test_io_uring_knobs_move_bytes),
		cmocka_unit_test(test_libaio_reaping),
		cmocka_unit_test(test_mmap_never_extends),
		cmocka_unit_test(test_device_errors_named),
		cmocka_unit_test(test_trims),
	};

	return cmocka_run_group_tests(tests, testrun_setup, teardown);
}
