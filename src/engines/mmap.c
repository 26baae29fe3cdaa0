/* SPDX-License-Identifier: MIT */
/*
 * mmap: each file's region mapped shared; a read copies from the mapping,
 * a write copies into it, fsync and fdatasync are msync(MS_SYNC) of the
 * mapping.  A mapping cannot grow a file, so an existing file shorter than
 * the job's region is an error (the files layer refuses it for this engine).
 *
 * A copy that touches a page the file cannot back (the file truncated under
 * the job, a full tmpfs) raises SIGBUS.  Each copy is guarded: the handler
 * jumps back out of it, and the I/O fails with an errno instead of the
 * signal killing the clone's process (or, with thread=1, the program).
 *
 * thp=1, as fio's: the mapping is private (MAP_PRIVATE) and advised
 * MADV_HUGEPAGE, so writes land in the process's own copy, never the file.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"
#include "files/files.h"
#include "jobfile/options.h"
#include "util/util.h"

extern const struct engine_ops mmap_engine_ops;

/* mmap's own job options. */
struct mmap_opts {
	unsigned thp; /* nonzero: MAP_PRIVATE and MADV_HUGEPAGE */
};

/* clang-format off */
static const struct opt_def mmap_options[] = {
	{ .name = "thp", .kind = &opt_kind_uint, .engine = &mmap_engine_ops,
	  .off = offsetof(struct mmap_opts, thp), .def = "0",
	  .help = "mmap: private mappings advised MADV_HUGEPAGE; writes never reach the file (fio's)" },
	{ .name = NULL }, /* the end */
};
/* clang-format on */

struct mmap_file {
	char *base; /* file offset 0 */
	size_t len; /* bytes mapped: the region's end */
	int fd;	    /* the job's: to see whether the file shrank after a SIGBUS */
};

/* The copy under way in this thread: SIGBUS jumps to bus_env while
 * bus_armed is set.  Only this thread writes them, and the handler runs
 * in the thread that faulted, so sig_atomic_t is enough. */
static _Thread_local sigjmp_buf bus_env;
static _Thread_local volatile sig_atomic_t bus_armed;
static _Thread_local char *volatile bus_addr;

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
	(void)uctx;
	if (!bus_armed) {
		/* Not a guarded copy: the signal does what it did before. */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	bus_armed = 0;
	bus_addr = si->si_addr;
	siglongjmp(bus_env, 1);
}

/* Process-wide, and kept: an unarmed SIGBUS still kills.  SA_NODEFER: the
 * jump out leaves SIGBUS unblocked without sigsetjmp saving the mask (a
 * system call per I/O). */
static void sigbus_install(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO | SA_NODEFER };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* memcpy(@dst, @src, @n) that a SIGBUS ends: 0, or the address that
 * faulted (in the mapping, one side of the copy). */
static char *copy_guarded(void *dst, const void *src, size_t n)
{
	if (sigsetjmp(bus_env, 0))
		return bus_addr;
	bus_armed = 1;
	/* The copy stays between the two stores. */
	atomic_signal_fence(memory_order_seq_cst);
	memcpy(dst, src, n);
	atomic_signal_fence(memory_order_seq_cst);
	bus_armed = 0;
	return NULL;
}

/* The result of I/O @req whose copy faulted at @at in file @m's mapping.
 * Past the file's end now (truncated under the job): a read is short, as
 * pread's at the end of a file, and a write cannot be placed (EFAULT).
 * Inside it, the filesystem could not give the page: a write found it
 * full (ENOSPC), a read an error (EIO). */
static int64_t bus_result(const struct mmap_file *m, const struct io_req *req, const char *at)
{
	uint64_t off = (uint64_t)(at - m->base); /* bytes: in the file */
	struct stat st;

	if (fstat(m->fd, &st) == 0 && off >= (uint64_t)st.st_size) {
		if (req->op == IO_OP_READ)
			return off > req->off ? (int64_t)(off - req->off) : 0;
		return -EFAULT;
	}
	return req->op == IO_OP_WRITE ? -ENOSPC : -EIO;
}

struct mmap_priv {
	struct mmap_file *v;
	unsigned n;
};

static void mmap_cleanup(struct engine *e)
{
	struct mmap_priv *p = e->priv;
	unsigned i;

	for (i = 0; i < p->n; i++)
		if (p->v[i].base)
			munmap(p->v[i].base, p->v[i].len);
	free(p->v);
	free(p);
	e->priv = NULL;
}

/* thp=1 keeps the writes in the clone's private copy: a read-back of the
 * file, as fio's verify (which then fails), would not see them. */
static int mmap_check(const struct job *job, const void *o, const struct opt_def **blame,
		      char **cause)
{
	const struct mmap_opts *opts = o;

	if (opts->thp && job_does(job, DDIR_WRITE) &&
	    (job->verify != VERIFY_NONE || job->verify_pattern.len)) {
		*blame = &mmap_options[0];
		return set_cause(cause,
				 "thp=%u maps the files private: the writes never reach them, so "
				 "verify has nothing to read back (fio 3.33's verify fails on "
				 "every block)",
				 opts->thp);
	}
	return 0;
}

static int mmap_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	const struct job *job = s->job;
	const struct mmap_opts *opts = s->opts;
	int prot = PROT_READ | (job_does(job, DDIR_WRITE) ? PROT_WRITE : 0);
	struct mmap_priv *p = xcalloc(1, sizeof(*p));
	unsigned i;
	int ret = 0;

	p->v = xcalloc(s->files->n, sizeof(*p->v));
	e->priv = p;
	for (i = 0; i < s->files->n && !ret; i++) {
		const struct run_file *f = &s->files->v[i];
		struct mmap_file *m = &p->v[i];
		void *base;

		m->len = (size_t)(f->start + f->len);
		if (f->start + f->len > f->size) {
			ret = set_cause(
				cause,
				"%s: ioengine=mmap cannot extend the file from %llu to %llu "
				"bytes",
				f->path, (unsigned long long)f->size,
				(unsigned long long)(f->start + f->len));
			break;
		}
		base = mmap(NULL, m->len, prot, opts->thp ? MAP_PRIVATE : MAP_SHARED, f->fd, 0);
		if (base == MAP_FAILED) {
			ret = -errno;
			*cause = xasprintf("%s: ioengine=mmap: mmap of %zu bytes: %s", f->path,
					   m->len, strerror(errno));
			break;
		}
		m->base = base;
		m->fd = f->fd;
		p->n = i + 1;
		/* Advice only, asked first, as fio (which passes over its failure). */
		if (opts->thp)
			madvise(base, m->len, MADV_HUGEPAGE);
		/* As fio: tell the kernel how the mapping will be walked. */
		madvise(base, m->len, job_is_random(job->rw) ? MADV_RANDOM : MADV_SEQUENTIAL);
	}
	if (ret) {
		p->n = s->files->n;
		mmap_cleanup(e);
	} else {
		sigbus_install();
	}
	return ret;
}

static enum engine_q mmap_queue(struct engine *e, struct io_req *req)
{
	struct mmap_file *m = &((struct mmap_priv *)e->priv)->v[req->file];

	/* As pread and pwrite at the end of the file: short, never a fault. */
	size_t n = req->off >= m->len			  ? 0
		   : req->len > m->len - (size_t)req->off ? m->len - (size_t)req->off
							  : req->len;

	char *fault;

	switch (req->op) {
	case IO_OP_READ:
		fault = copy_guarded(req->buf, m->base + req->off, n);
		req->res = fault ? bus_result(m, req, fault) : (int64_t)n;
		break;
	case IO_OP_WRITE:
		fault = copy_guarded(m->base + req->off, req->buf, n);
		req->res = fault ? bus_result(m, req, fault) : (int64_t)n;
		break;
	case IO_OP_FSYNC:
	case IO_OP_FDATASYNC:
	case IO_OP_SYNC_FILE_RANGE: /* as fio's mmap: the mapping synced */
		req->res = msync(m->base, m->len, MS_SYNC) < 0 ? -errno : 0;
		break;
	case IO_OP_TRIM:
		req->res = engine_trim_now(req); /* the mapping sees the hole */
		break;
	}
	return ENGINE_Q_DONE;
}

const struct engine_ops mmap_engine_ops = {
	.name = "mmap",
	.desc = "memcpy to and from a shared mapping of the file",
	.help = "Maps each file's region (MAP_SHARED) and copies each I/O's bytes out of or\n"
		"into the mapping; fsync and fdatasync are msync(MS_SYNC) of the mapping.  It\n"
		"always goes through the page cache, whatever direct= says, and it cannot\n"
		"grow a file: an existing file shorter than the job's region is an error.\n"
		"iodepth is 1.  thp=1, as fio's, maps private copies (MAP_PRIVATE) advised\n"
		"MADV_HUGEPAGE: the job's writes then never reach the file.",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOEXTEND | ENGINE_F_PAGECACHE | ENGINE_F_HOLDSFILES,
	.options = mmap_options,
	.opts_size = sizeof(struct mmap_opts),
	.check = mmap_check,
	.init = mmap_init,
	.queue = mmap_queue,
	.cleanup = mmap_cleanup,
};
