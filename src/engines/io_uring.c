/* SPDX-License-Identifier: MIT */
/*
 * io_uring through liburing, up to iodepth I/Os in flight, with fio's
 * knobs: fixedbufs (the buffers are registered, READ_FIXED/WRITE_FIXED),
 * registerfiles, sqthread_poll (IORING_SETUP_SQPOLL), hipri
 * (IORING_SETUP_IOPOLL), sqthread_poll_cpu (IORING_SETUP_SQ_AFF),
 * nonvectored (READ/WRITE, or READV/WRITEV with one iovec), uncached
 * (RWF_DONTCACHE on buffered I/O), nowait (RWF_NOWAIT), force_async
 * (IOSQE_ASYNC on every Nth entry).  fsync and fdatasync are
 * IORING_OP_FSYNC.  When the kernel refuses io_uring, init says why and
 * what to use instead.
 */
#include <errno.h>
#include <liburing.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engines/cmdprio.h"
#include "engines/engine.h"
#include "files/files.h"
#include "jobfile/options.h"
#include "util/util.h"

/* The kernel's IORING_MAX_ENTRIES: the most submission entries a ring has. */
#define URING_MAX_DEPTH 32768u

extern const struct engine_ops io_uring_engine_ops;

/* The uapi RWF_* values (linux/fs.h), for C libraries without them:
 * RWF_DONTCACHE is what fio 3.33 calls RWF_UNCACHED (see pvsync2.c). */
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x08
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x80
#endif

/* io_uring's own job options. */
struct uring_opts {
	bool hipri;		 /* IORING_SETUP_IOPOLL */
	bool fixedbufs;		 /* the buffers registered: READ_FIXED, WRITE_FIXED */
	bool registerfiles;	 /* the files registered: IOSQE_FIXED_FILE */
	bool sqthread_poll;	 /* IORING_SETUP_SQPOLL */
	unsigned force_async;	 /* IOSQE_ASYNC on every Nth entry; 0: none */
	int nonvectored;	 /* -1 (as 1), 0: READV/WRITEV, 1: READ/WRITE */
	bool nowait;		 /* RWF_NOWAIT */
	char *sqthread_poll_cpu; /* the SQ thread's CPU, a number; NULL: any */
	unsigned uncached;	 /* nonzero: RWF_DONTCACHE on buffered I/O */
	struct cmdprio_opts cmdprio;
};

#define UF(field) .engine = &io_uring_engine_ops, .off = offsetof(struct uring_opts, field)

enum {
	UO_CMDPRIO,
	UO_CMDPRIO_BSSPLIT,
	UO_CMDPRIO_CLASS,
	UO_CMDPRIO_PERCENTAGE,
	UO_FIXEDBUFS,
	UO_FORCE_ASYNC,
	UO_HIPRI,
	UO_NONVECTORED,
	UO_NOWAIT,
	UO_REGISTERFILES,
	UO_SQTHREAD_POLL,
	UO_SQTHREAD_POLL_CPU,
	UO_UNCACHED,
	UO_NR
};

/* fio's default -1 asks the kernel, which has had READ and WRITE since
 * Linux 5.6: the same as 1 on any kernel this runs on. */
static const struct opt_enum nonvectored_enums[] = {
	{ "-1", -1 },
	{ "0", 0 },
	{ "1", 1 },
	{ NULL, 0 },
};

/* One option per row, as opt_table's (clang-format would break them up). */
/* clang-format off */
static const struct opt_def uring_options[UO_NR + 1] = {
	CMDPRIO_ROWS(io_uring_engine_ops, struct uring_opts, cmdprio, "io_uring"),
	[UO_FIXEDBUFS] = { .name = "fixedbufs", .kind = &opt_kind_bool, UF(fixedbufs), .def = "0",
	  .flags = OPTF_BARE,
	  .help = "io_uring: register the I/O buffers (READ_FIXED, WRITE_FIXED); fail if they cannot be" },
	[UO_FORCE_ASYNC] = { .name = "force_async", .kind = &opt_kind_uint, UF(force_async),
	  .def = "0", .help = "io_uring: IOSQE_ASYNC (a kernel worker) on every Nth I/O (0: none)" },
	[UO_HIPRI] = { .name = "hipri", .kind = &opt_kind_bool, UF(hipri), .def = "0",
	  .flags = OPTF_BARE,
	  .help = "io_uring: polled completions (needs direct=1 and a polling device)" },
	[UO_NONVECTORED] = { .name = "nonvectored", .kind = &opt_kind_enum, UF(nonvectored),
	  .enums = nonvectored_enums, .def = "-1",
	  .help = "io_uring: 0 sends READV/WRITEV of one iovec; 1 and -1 READ/WRITE" },
	[UO_NOWAIT] = { .name = "nowait", .kind = &opt_kind_bool, UF(nowait), .def = "0",
	  .help = "io_uring: RWF_NOWAIT (fail with EAGAIN instead of waiting)" },
	[UO_REGISTERFILES] = { .name = "registerfiles", .kind = &opt_kind_bool, UF(registerfiles),
	  .def = "0", .flags = OPTF_BARE, .help = "io_uring: register the files with the kernel" },
	[UO_SQTHREAD_POLL] = { .name = "sqthread_poll", .kind = &opt_kind_bool, UF(sqthread_poll),
	  .def = "0", .flags = OPTF_BARE,
	  .help = "io_uring: a kernel thread polls the submission queue" },
	[UO_SQTHREAD_POLL_CPU] = { .name = "sqthread_poll_cpu", .kind = &opt_kind_str,
	  UF(sqthread_poll_cpu),
	  .help = "io_uring: the CPU the sqthread_poll thread is bound to" },
	[UO_UNCACHED] = { .name = "uncached", .kind = &opt_kind_uint, UF(uncached), .def = "0",
	  .help = "io_uring: buffered I/O that drops its pages after (RWF_DONTCACHE)" },
	[UO_NR] = { .name = NULL }, /* the end */
};
/* clang-format on */

/* What the kernel would refuse only at set-up, refused when the job is read. */
static int uring_check(const struct job *job, const void *o, const struct opt_def **blame,
		       char **cause)
{
	const struct uring_opts *opts = o;

	if (job->iodepth > URING_MAX_DEPTH) {
		*blame = &opt_table[OPT_IODEPTH];
		return set_cause(cause,
				 "iodepth=%u is above io_uring's limit of %u I/Os in flight (the "
				 "kernel's IORING_MAX_ENTRIES); use iodepth=%u or less, or "
				 "ioengine=libaio",
				 job->iodepth, URING_MAX_DEPTH, URING_MAX_DEPTH);
	}
	if (opts->registerfiles && job->openfiles &&
	    job->openfiles < (job->filename.n ? job->filename.n : job->nrfiles)) {
		*blame = &opt_table[OPT_OPENFILES];
		return set_cause(cause,
				 "registerfiles registers every file: openfiles=%u must "
				 "not be below the number of files, as in fio",
				 job->openfiles);
	}
	if (opts->hipri && !job->direct) {
		*blame = &uring_options[UO_HIPRI];
		return set_cause(cause, "hipri (polled completions) needs direct=1");
	}
	if (cmdprio_check(&opts->cmdprio, &uring_options[UO_CMDPRIO_BSSPLIT], blame, cause))
		return -EINVAL;
	if (opts->sqthread_poll_cpu) {
		const char *s = opts->sqthread_poll_cpu;
		char *end = NULL;
		unsigned long cpu = strtoul(s, &end, 10);
		long ncpu = sysconf(_SC_NPROCESSORS_CONF);

		*blame = &uring_options[UO_SQTHREAD_POLL_CPU];
		if (!*s || *end || *s == '-' || *s == '+' || cpu > UINT32_MAX)
			return set_cause(cause, "sqthread_poll_cpu=%s: not a CPU number", s);
		if (ncpu > 0 && cpu >= (unsigned long)ncpu)
			return set_cause(cause,
					 "sqthread_poll_cpu=%lu: this machine has CPUs 0-%ld", cpu,
					 ncpu - 1);
		/* fio ignores it without a polling thread to bind. */
		if (!opts->sqthread_poll)
			return set_cause(cause,
					 "sqthread_poll_cpu=%lu binds the thread of "
					 "sqthread_poll, which is not set",
					 cpu);
	}
	if (opts->fixedbufs && job->sub_blocks > 1) {
		*blame = &opt_table[OPT_SUB_BLOCKS];
		return set_cause(
			cause, "sub_blocks=%u cannot use fixedbufs (registered buffers are whole)",
			job->sub_blocks);
	}
	return 0;
}

struct uring_priv {
	struct io_uring ring;
	unsigned nr_pending, inflight;
	bool fixedbufs, fixedfiles;
	bool sqpoll;		       /* IORING_SETUP_SQPOLL: a kernel thread submits */
	bool vectored;		       /* nonvectored=0: READV/WRITEV of iov[idx] */
	int rwf;		       /* RWF_* of every read and write */
	unsigned async_every, prepped; /* force_async, and entries since the last */
	struct iovec *iov;	       /* vectored: one per slot, alive while its I/O is */
	struct cmdprio cp;
};

/* Why io_uring_queue_init failed, in the user's terms. */
static int refused(int r, char **cause)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	int disabled = -1;

	if (f) {
		if (fscanf(f, "%d", &disabled) != 1)
			disabled = -1;
		fclose(f);
	}
	if (r == -ENOSYS)
		*cause = xasprintf("io_uring is not available: this kernel has no io_uring "
				   "(ENOSYS); use ioengine=libaio or ioengine=psync");
	else if (r == -EPERM && disabled == 2)
		*cause = xasprintf("io_uring is not available: disabled by the sysctl "
				   "kernel.io_uring_disabled=2; use ioengine=libaio or psync");
	else if (r == -EPERM && disabled == 1)
		*cause = xasprintf("io_uring is not available: kernel.io_uring_disabled=1 allows "
				   "it only to the group in kernel.io_uring_group; use "
				   "ioengine=libaio or psync");
	else if (r == -EPERM)
		*cause = xasprintf("io_uring is not available: io_uring_setup was refused (EPERM), "
				   "a seccomp filter or container policy blocks it; use "
				   "ioengine=libaio or ioengine=psync");
	else if (r == -ENOMEM)
		*cause = xasprintf("io_uring_setup: %s (the locked-memory limit, ulimit -l, may be "
				   "too low for the ring); lower iodepth or use ioengine=libaio",
				   strerror(-r));
	else
		*cause = xasprintf("io_uring_setup: %s; use ioengine=libaio or ioengine=psync",
				   strerror(-r));
	return r;
}

/*
 * The ring, set up as fio's: a completion queue of depth entries, and
 * completions that wait for the submitter to ask for them instead of
 * interrupting it (COOP_TASKRUN; with SINGLE_ISSUER, DEFER_TASKRUN runs
 * their work only in io_uring_enter with GETEVENTS).  Without them every
 * completion of an I/O punted to a kernel worker signals this task: on a
 * zram device that cost 60% of the IOPS at depth 32 (docs/PERFORMANCE.md).
 * Each flag the kernel does not know is dropped in turn, as fio does.  The
 * ring then belongs to the thread that made it: the worker makes it in
 * the clone's own thread or process.
 */
static int ring_setup(struct uring_priv *p, const struct uring_opts *opts, unsigned depth)
{
	static const unsigned optional[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_CQSIZE,
	};
	struct io_uring_params params;
	unsigned flags = IORING_SETUP_CQSIZE, i = 0;
	int r;

	/* The kernel refuses both with a kernel thread submitting. */
	if (opts->sqthread_poll)
		flags |= IORING_SETUP_SQPOLL | (opts->sqthread_poll_cpu ? IORING_SETUP_SQ_AFF : 0);
	else
		flags |= IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
			 IORING_SETUP_DEFER_TASKRUN;
	if (opts->hipri)
		flags |= IORING_SETUP_IOPOLL;
	for (;;) {
		memset(&params, 0, sizeof(params));
		params.flags = flags;
		params.cq_entries = depth;
		if (flags & IORING_SETUP_SQ_AFF)
			params.sq_thread_cpu = (unsigned)strtoul(opts->sqthread_poll_cpu, NULL, 10);
		r = io_uring_queue_init_params(depth, &p->ring, &params);
		/* The next flag the ring has to drop, skipping those it has not. */
		while (i < ARRAY_SIZE(optional) && !(flags & optional[i]))
			i++;
		if (r != -EINVAL || i == ARRAY_SIZE(optional))
			break;
		flags &= ~optional[i++];
	}
	p->sqpoll = flags & IORING_SETUP_SQPOLL;
	return r;
}

static void uring_cleanup(struct engine *e)
{
	struct uring_priv *p = e->priv;

	io_uring_queue_exit(&p->ring);
	free(p->iov);
	free(p);
	e->priv = NULL;
}

static int uring_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	const struct uring_opts *opts = s->opts;
	struct uring_priv *p = xcalloc(1, sizeof(*p));
	unsigned i, n = s->files->n;
	int r;

	r = ring_setup(p, opts, e->depth);
	if (r < 0) {
		free(p);
		return refused(r, cause);
	}
	e->priv = p;
	e->kernel_submits = p->sqpoll;
	cmdprio_init(&p->cp, &opts->cmdprio, s->job);
	cmdprio_list(&p->cp, s->job, e);
	/* As fio: uncached only on buffered I/O. */
	p->rwf = (opts->uncached && !s->job->direct ? RWF_DONTCACHE : 0) |
		 (opts->nowait ? RWF_NOWAIT : 0);
	p->async_every = opts->force_async;
	if (!opts->nonvectored) {
		p->vectored = true;
		p->iov = xcalloc(e->depth, sizeof(*p->iov));
	}
	/* As fio, the buffers are registered only when fixedbufs asks: it
	 * spares the kernel pinning each I/O's pages (about 7% less CPU per
	 * 4 KiB direct read at depth 32; docs/PERFORMANCE.md), which fio's
	 * default pays too. */
	if (opts->fixedbufs) {
		struct iovec *iov = xcalloc(e->depth, sizeof(*iov));

		for (i = 0; i < e->depth; i++) {
			iov[i].iov_base = (char *)s->bufs + (size_t)i * s->buf_size;
			iov[i].iov_len = s->buf_size;
		}
		r = io_uring_register_buffers(&p->ring, iov, e->depth);
		free(iov);
		if (r < 0) {
			*cause = xasprintf("fixedbufs: registering %u buffers of %zu bytes: %s%s",
					   e->depth, s->buf_size, strerror(-r),
					   r == -ENOMEM ? " (the locked-memory limit, ulimit -l)"
							: "");
			uring_cleanup(e);
			return r;
		}
		p->fixedbufs = true;
	}
	if (opts->registerfiles) {
		int *fds = xcalloc(n, sizeof(*fds));

		for (i = 0; i < n; i++)
			fds[i] = s->files->v[i].fd;
		r = io_uring_register_files(&p->ring, fds, n);
		free(fds);
		if (r < 0) {
			*cause = xasprintf("registerfiles: registering %u files: %s", n,
					   strerror(-r));
			uring_cleanup(e);
			return r;
		}
		p->fixedfiles = true;
	}
	return 0;
}

static enum engine_q uring_queue(struct engine *e, struct io_req *req)
{
	struct uring_priv *p = e->priv;
	struct io_uring_sqe *sqe;

	if (req->op == IO_OP_TRIM) {
		/* As fio's io_uring: a trim is done at once (the ring's fallocate
		 * would punch holes but cannot discard a device). */
		req->res = engine_trim_now(req);
		return ENGINE_Q_DONE;
	}
	if (p->nr_pending + p->inflight >= e->depth)
		return ENGINE_Q_BUSY;
	sqe = io_uring_get_sqe(&p->ring);
	if (!sqe)
		return ENGINE_Q_BUSY;
	if (req->op == IO_OP_READ || req->op == IO_OP_WRITE) {
		bool rd = req->op == IO_OP_READ;

		/* (unsigned)req->len below: the plan bounds it at PLAN_BS_MAX. */
		if (req->nr_iov > 1) {
			/* sub_blocks: the slot's iovecs live until the I/O completes. */
			io_uring_prep_rw(rd ? IORING_OP_READV : IORING_OP_WRITEV, sqe, req->fd,
					 req->iov, req->nr_iov, req->off);
		} else if (p->fixedbufs) {
			io_uring_prep_rw(rd ? IORING_OP_READ_FIXED : IORING_OP_WRITE_FIXED, sqe,
					 req->fd, req->buf, (unsigned)req->len, req->off);
			sqe->buf_index = (__u16)req->idx;
		} else if (p->vectored) {
			p->iov[req->idx] = (struct iovec){ req->buf, req->len };
			io_uring_prep_rw(rd ? IORING_OP_READV : IORING_OP_WRITEV, sqe, req->fd,
					 &p->iov[req->idx], 1, req->off);
		} else {
			io_uring_prep_rw(rd ? IORING_OP_READ : IORING_OP_WRITE, sqe, req->fd,
					 req->buf, (unsigned)req->len, req->off);
		}
		/* As fio: the job's priority, or the one cmdprio* picks. */
		if (p->cp.on)
			cmdprio_pick(&p->cp, req);
		sqe->ioprio = req->ioprio;
		sqe->rw_flags = p->rwf;
	} else if (req->op == IO_OP_SYNC_FILE_RANGE) {
		/* As fio's io_uring: the ring's own sync_file_range. */
		io_uring_prep_sync_file_range(sqe, req->fd, (unsigned)req->len, req->off,
					      (int)req->sfr_flags);
	} else {
		io_uring_prep_fsync(sqe, req->fd,
				    req->op == IO_OP_FDATASYNC ? IORING_FSYNC_DATASYNC : 0);
	}
	if (p->fixedfiles) {
		sqe->fd = (int)req->file;
		sqe->flags |= IOSQE_FIXED_FILE;
	}
	/* As fio: every Nth entry, syncs too, goes to a kernel worker. */
	if (p->async_every && ++p->prepped == p->async_every) {
		p->prepped = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	io_uring_sqe_set_data(sqe, req);
	p->nr_pending++;
	return ENGINE_Q_QUEUED;
}

static int uring_commit(struct engine *e)
{
	struct uring_priv *p = e->priv;
	int r;

	while (p->nr_pending) {
		/* As fio: the submission also posts what has completed
		 * (GETEVENTS without waiting), so the reap that follows
		 * mostly finds completions without a call of its own.  With
		 * SQPOLL the kernel thread submits: enter only to wake it. */
		r = p->sqpoll ? io_uring_submit(&p->ring)
			      : io_uring_submit_and_get_events(&p->ring);
		if (r == -EINTR || r == -EAGAIN || r == -EBUSY)
			continue;
		if (r < 0)
			return r;
		/* With SQPOLL the kernel thread takes them: all are submitted. */
		if (r == 0 && (p->ring.flags & IORING_SETUP_SQPOLL))
			r = (int)p->nr_pending;
		p->nr_pending -= (unsigned)r;
		p->inflight += (unsigned)r;
	}
	return 0;
}

/* Hands back up to @max completions from the ring, as many as are there. */
static unsigned take_cqes(struct uring_priv *p, unsigned max, struct io_req **done)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;

	io_uring_for_each_cqe(&p->ring, head, cqe)
	{
		if (n == max)
			break;
		done[n] = io_uring_cqe_get_data(cqe);
		done[n++]->res = cqe->res;
	}
	io_uring_cq_advance(&p->ring, n);
	p->inflight -= n;
	return n;
}

/*
 * What is in the completion queue is taken without a system call; only
 * when that is short of @min does it wait, in one io_uring_enter for the
 * rest.  A poll (nothing there, @min 0) asks the kernel once, without
 * waiting, as fio's: under DEFER_TASKRUN nothing is posted until asked,
 * with hipri the asking is the polling.  Not with SQPOLL, whose kernel
 * thread posts them.
 */
static int uring_reap(struct engine *e, unsigned min, unsigned max, struct io_req **done)
{
	struct uring_priv *p = e->priv;
	struct io_uring_cqe *cqe;
	bool asked = false;
	unsigned n = 0;
	int r;

	if (max > p->inflight)
		max = p->inflight;
	while (n < max) {
		unsigned got = take_cqes(p, max - n, done + n);

		n += got;
		if (got || n >= max)
			continue;
		if (n >= min) {
			if (p->sqpoll || asked || n)
				break;
			asked = true;
			r = io_uring_get_events(&p->ring);
		} else {
			r = io_uring_wait_cqe_nr(&p->ring, &cqe, min - n);
		}
		if (r < 0 && r != -EINTR && r != -EAGAIN && r != -ETIME)
			return n ? (int)n : r;
	}
	return (int)n;
}

const struct engine_ops io_uring_engine_ops = {
	.name = "io_uring",
	.flags = ENGINE_F_VECTORED,
	.desc = "io_uring through liburing, iodepth in flight",
	.help = "Submits through an io_uring of iodepth entries and reaps its completion\n"
		"queue.  fixedbufs registers the I/O buffers (READ_FIXED and\n"
		"WRITE_FIXED), registerfiles registers the files, sqthread_poll lets\n"
		"a kernel thread poll the submission queue, hipri polls for\n"
		"completions (direct=1, and a device with poll queues).  fsync and\n"
		"fdatasync are IORING_OP_FSYNC.",
	.options = uring_options,
	.opts_size = sizeof(struct uring_opts),
	.check = uring_check,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
