/* SPDX-License-Identifier: MIT */
/*
 * The engine table: every engine this build has, listed here rather than
 * registered by constructors (a static library drops those), and the
 * synchronous read, write and sync calls that several engines share.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

#include "engines/engine.h"
#include "jobfile/options.h"
#include "util/util.h"

extern const struct engine_ops psync_engine_ops, sync_engine_ops, libaio_engine_ops,
	io_uring_engine_ops, mmap_engine_ops, null_engine_ops;
extern const struct engine_ops falloc_engine_ops, ftruncate_engine_ops, filecreate_engine_ops,
	filestat_engine_ops, filedelete_engine_ops, dircreate_engine_ops, dirstat_engine_ops,
	dirdelete_engine_ops;
extern const struct engine_ops pvsync_engine_ops, pvsync2_engine_ops, vsync_engine_ops,
	cpuio_engine_ops, exec_engine_ops, posixaio_engine_ops, splice_engine_ops;
#ifdef IOGAUGE_TEST_ENGINE /* tests/engines/count.c: in test_count alone */
extern const struct engine_ops count_engine_ops;
#endif

/* An engine whose library this build lacks: its name only. */
#define ABSENT(n) (&(const struct engine_ops){ .name = n, .flags = ENGINE_F_ABSENT })

static const struct engine_ops *const engine_table[] = {
	&psync_engine_ops,	&sync_engine_ops,
#ifdef IOGAUGE_HAVE_LIBAIO
	&libaio_engine_ops,
#else
	ABSENT("libaio"),
#endif
#ifdef IOGAUGE_HAVE_LIBURING
	&io_uring_engine_ops,
#else
	ABSENT("io_uring"),
#endif
	&mmap_engine_ops,	&null_engine_ops,	&falloc_engine_ops,
	&ftruncate_engine_ops,	&filecreate_engine_ops, &filestat_engine_ops,
	&filedelete_engine_ops, &dircreate_engine_ops,	&dirstat_engine_ops,
	&dirdelete_engine_ops,	&pvsync_engine_ops,	&pvsync2_engine_ops,
	&vsync_engine_ops,	&cpuio_engine_ops,	&exec_engine_ops,
	&posixaio_engine_ops,	&splice_engine_ops,
#ifdef IOGAUGE_TEST_ENGINE
	&count_engine_ops,
#endif
};

const char *const io_op_names[IO_OP_NR] = {
	[IO_OP_READ] = "read",	 [IO_OP_WRITE] = "write",
	[IO_OP_FSYNC] = "fsync", [IO_OP_FDATASYNC] = "fdatasync",
	[IO_OP_TRIM] = "trim",	 [IO_OP_SYNC_FILE_RANGE] = "sync_file_range",
};

const struct engine_ops *engine_named(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engine_table); i++)
		if (!strcmp(engine_table[i]->name, name))
			return engine_table[i];
	return NULL;
}

const struct engine_ops *engine_find(const char *name)
{
	const struct engine_ops *ops = engine_named(name);

	return ops && !(ops->flags & ENGINE_F_ABSENT) ? ops : NULL;
}

const struct engine_ops *engine_entry(unsigned i)
{
	return i < ARRAY_SIZE(engine_table) ? engine_table[i] : NULL;
}

const struct engine_ops *engine_at(unsigned i)
{
	size_t k;

	for (k = 0; k < ARRAY_SIZE(engine_table); k++)
		if (!(engine_table[k]->flags & ENGINE_F_ABSENT) && !i--)
			return engine_table[k];
	return NULL;
}

/* Each engine's struct in the block, at a multiple of this. */
#define OPTS_ALIGN 16

size_t engine_opts_offset(const struct engine_ops *ops)
{
	size_t i, off = 0;

	for (i = 0; i < ARRAY_SIZE(engine_table) && engine_table[i] != ops; i++)
		off += (engine_table[i]->opts_size + OPTS_ALIGN - 1) / OPTS_ALIGN * OPTS_ALIGN;
	return off;
}

size_t engine_opts_size(void)
{
	return engine_opts_offset(NULL);
}

const void *engine_opts_of(const struct job *job, const struct engine_ops *ops)
{
	return ops->opts_size ? (const char *)job->eng_opts + engine_opts_offset(ops) : NULL;
}

int engine_ops_check(const struct engine_ops *ops)
{
	if (!ops->name || !ops->desc || !ops->help || !ops->queue)
		return -EINVAL;
	if (!(ops->flags & ENGINE_F_SYNC) && (!ops->commit || !ops->reap))
		return -EINVAL;
	return 0;
}

bool engine_takes(const struct engine_ops *ops, const struct opt_def *o)
{
	static const enum opt_id async[] = { OPT_IODEPTH, OPT_IODEPTH_BATCH_SUBMIT,
					     OPT_IODEPTH_BATCH_COMPLETE_MIN,
					     OPT_IODEPTH_BATCH_COMPLETE_MAX };
	size_t i;

	if (o->engine)
		return o->engine == ops;
	for (i = 0; i < ARRAY_SIZE(async) && !(ops->flags & ENGINE_F_SYNC); i++)
		if (o == &opt_table[async[i]])
			return true;
	return false;
}

/* A short vectored transfer of @r bytes over v[*i..n): steps *i past
 * the iovecs it filled and trims the one it stopped in, so that the next
 * call goes on from there. */
static void iov_advance(struct iovec *v, unsigned *i, unsigned n, size_t r)
{
	for (; *i < n && r >= v[*i].iov_len; (*i)++)
		r -= v[*i].iov_len;
	if (*i < n) {
		v[*i].iov_base = (char *)v[*i].iov_base + r;
		v[*i].iov_len -= r;
	}
}

/* One call for what is left of @req after @done bytes: over the @n
 * iovecs left at @v when vectored, else the contiguous buffer. */
static ssize_t rw_call(const struct io_req *req, bool at, const struct iovec *v, unsigned n,
		       size_t done)
{
	bool rd = req->op == IO_OP_READ;
	off_t off = (off_t)(req->off + done);
	char *p = (char *)req->buf + done;
	size_t len = req->len - done;

	if (req->nr_iov > 1 && at)
		return rd ? preadv(req->fd, v, (int)n, off) : pwritev(req->fd, v, (int)n, off);
	if (req->nr_iov > 1)
		return rd ? readv(req->fd, v, (int)n) : writev(req->fd, v, (int)n);
	if (at)
		return rd ? pread(req->fd, p, len, off) : pwrite(req->fd, p, len, off);
	return rd ? read(req->fd, p, len) : write(req->fd, p, len);
}

int64_t engine_rw_now(const struct io_req *req, bool at)
{
	struct iovec v[IOV_MAX];
	unsigned i = 0, n = req->nr_iov > 1 ? req->nr_iov : 0;
	size_t done = 0;
	ssize_t r;

	if (!at && lseek(req->fd, (off_t)req->off, SEEK_SET) < 0)
		return -errno;
	if (n)
		memcpy(v, req->iov, n * sizeof(*v));
	while (done < req->len) {
		r = rw_call(req, at, v + i, n - i, done);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		done += (size_t)r;
		iov_advance(v, &i, n, (size_t)r);
	}
	return (int64_t)done;
}

int64_t engine_trim_now(const struct io_req *req)
{
	if (req->discard) {
		uint64_t range[2] = { req->off, req->len };

		if (ioctl(req->fd, BLKDISCARD, range) < 0)
			return -errno;
	} else if (fallocate(req->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)req->off,
			     (off_t)req->len) < 0) {
		return -errno;
	}
	return (int64_t)req->len;
}

int64_t engine_io_now(const struct io_req *req, bool at)
{
	if (req->op == IO_OP_READ || req->op == IO_OP_WRITE)
		return engine_rw_now(req, at);
	if (req->op == IO_OP_TRIM)
		return engine_trim_now(req);
	return engine_sync_now(req);
}

int64_t engine_sync_now(const struct io_req *req)
{
	int r = req->op == IO_OP_SYNC_FILE_RANGE
			? sync_file_range(req->fd, (off_t)req->off, (off_t)req->len, req->sfr_flags)
		: req->op == IO_OP_FSYNC ? fsync(req->fd)
					 : fdatasync(req->fd);

	return r < 0 ? -errno : 0;
}

int64_t engine_rwv_now(const struct io_req *req, bool v2, int rwf)
{
	struct iovec v[IOV_MAX];
	unsigned i = 0, n = req->nr_iov > 1 ? req->nr_iov : 1;
	bool rd = req->op == IO_OP_READ;
	size_t done = 0;
	ssize_t r;

	if (req->nr_iov > 1)
		memcpy(v, req->iov, n * sizeof(*v));
	else
		v[0] = (struct iovec){ .iov_base = req->buf, .iov_len = req->len };
	while (done < req->len) {
		off_t off = (off_t)(req->off + done);

		if (v2)
			r = rd ? preadv2(req->fd, v + i, (int)(n - i), off, rwf)
			       : pwritev2(req->fd, v + i, (int)(n - i), off, rwf);
		else
			r = rd ? preadv(req->fd, v + i, (int)(n - i), off)
			       : pwritev(req->fd, v + i, (int)(n - i), off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		done += (size_t)r;
		iov_advance(v, &i, n, (size_t)r);
	}
	return (int64_t)done;
}
