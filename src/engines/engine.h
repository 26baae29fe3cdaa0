/* SPDX-License-Identifier: MIT */
/*
 * The engine interface: fio's lifecycle with a tenth of the surface.  The
 * worker fills a struct io_req and calls ->queue(), which answers DONE
 * (finished now; sync engines), QUEUED (returned later by ->reap()) or
 * BUSY (no room: ->commit() and ->reap() first, then queue it again).
 * Engines see only the job, their own options, the open files and
 * io_reqs: never stats or reports.  As fio's, an engine owns its options:
 * their rows (struct opt_def) sit beside its ops, their fields in a struct
 * of its own, so nothing outside the engine's file names them.  Adding an
 * engine is one file in src/engines/ and, in engine.c, its declaration
 * and its line of the table (tests/engines/count.c was added so).
 */
#ifndef IOGAUGE_ENGINE_H
#define IOGAUGE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "jobfile/job.h"

/* IO_OP_SYNC_FILE_RANGE: off and len are the range, sfr_flags its flags. */
enum io_op {
	IO_OP_READ,
	IO_OP_WRITE,
	IO_OP_FSYNC,
	IO_OP_FDATASYNC,
	IO_OP_TRIM,
	IO_OP_SYNC_FILE_RANGE
};
#define IO_OP_NR (IO_OP_SYNC_FILE_RANGE + 1)
/* Each op's name for a message ("read", ..., "trim"), indexed by the op. */
extern const char *const io_op_names[IO_OP_NR];

/*
 * One I/O.  The worker stamps the times (CLOCK_MONOTONIC, ns): t_start when
 * it has built the I/O (fio's start_time), t_issue when the I/O reached the
 * kernel: just before ->queue() on a sync engine, just after the ->commit()
 * that submitted it on an async one.  Completion is stamped as each I/O is
 * reaped, one clock read per I/O.
 */
struct io_req {
	enum io_op op;
	int fd;
	void *buf;
	size_t len;	     /* bytes */
	uint64_t off;	     /* bytes */
	uint64_t t_start;    /* ns */
	uint64_t t_issue;    /* ns */
	uint64_t t_intended; /* ns: when the rate's schedule wanted it; 0: no rate */
	int64_t res;	     /* bytes moved, or -errno; set by the engine */
	unsigned idx;	     /* stable slot 0..depth-1: buffer and engine-private arrays */
	unsigned file;	     /* index into the worker's files */
	bool queued;	     /* went through ->commit(): it has a submission latency */
	uint16_t ioprio;     /* the priority it is sent with (ioprio value): the job's
				(prio, prioclass; 0: none) unless cmdprio* picks it */
	bool discard;	     /* a trim on a block device: BLKDISCARD, not a punched hole */
	unsigned sfr_flags;  /* IO_OP_SYNC_FILE_RANGE: SYNC_FILE_RANGE_* */
	/* Set by an engine that counts I/Os without moving bytes and times a
	 * file operation instead (fio's FIO_NOSTATS): no latency of the I/O is
	 * recorded, only op_ns (ns; UINT64_MAX: none), the operation's, as clat. */
	bool fake;
	uint64_t op_ns;
	/* sub_blocks with sub_block_io=scatter: the I/O is one vectored read
	 * or write of these nr_iov pieces (len bytes in all), and buf is not
	 * used.  NULL and 0 otherwise.  Set once per slot at set-up. */
	const struct iovec *iov;
	unsigned nr_iov;
};

enum engine_q {
	ENGINE_Q_DONE,	 /* completed; req->res is valid */
	ENGINE_Q_QUEUED, /* will come back from ->reap() */
	ENGINE_Q_BUSY,	 /* no room: commit and reap, then queue again */
};

#define ENGINE_F_SYNC	  (1u << 0) /* ->queue() always answers DONE */
#define ENGINE_F_NOFILES  (1u << 1) /* moves no bytes: no file is laid out or opened */
#define ENGINE_F_NOEXTEND (1u << 2) /* cannot grow a file: an existing short one is an error */
#define ENGINE_F_VECTORED (1u << 3) /* takes io_req.iov (sub_blocks=N scatter) */
/* Asynchronous only with direct=1: the kernel completes buffered I/O
 * inside the submission call (job_warnings says so). */
#define ENGINE_F_ASYNC_DIRECT (1u << 4)
/* Always through the page cache: direct=1 does not bypass it (warned). */
#define ENGINE_F_PAGECACHE (1u << 5)
/* A name in the table for an engine this build lacks (no library): a job
 * may name it, and is refused when it runs.  Nothing else is set. */
#define ENGINE_F_ABSENT (1u << 6)
/* Changes its files whatever the direction (falloc's reads allocate,
 * filedelete's unlink): opened for writing, refused under --readonly. */
#define ENGINE_F_MODIFIES (1u << 7)
/* Holds its files from ->init() on (mmap's mappings): every file stays
 * open, so openfiles below the number of files is refused. */
#define ENGINE_F_HOLDSFILES (1u << 8)
/* With ENGINE_F_NOFILES: a job without a size gives each file one block of
 * its smallest size (fio's filecreate sizes its files so). */
#define ENGINE_F_BLOCKFILE (1u << 9)
/* Moves nothing and needs no region (cpuio): the job runs for its runtime
 * alone, however many bytes its I/Os would add up to. */
#define ENGINE_F_NOIO (1u << 10)

struct run_files;
struct opt_def;

#define ENGINE_CMDPRIOS 32 /* distinct ioprio values: 4 classes x 8 levels */

/* What ->init() is given: the job, the engine's own options, its open
 * files, and the I/O buffers (slot i at bufs + i * buf_size, the slot of
 * every io_req with idx i). */
struct engine_setup {
	const struct job *job;
	const void *opts; /* the engine's option struct (opts_size bytes); NULL: none */
	const struct run_files *files;
	void *bufs;
	size_t buf_size; /* bytes */
};

struct engine {
	const struct engine_ops *ops;
	void *priv;
	unsigned depth; /* I/Os the worker may keep in flight */
	/* Set by ->init(): a kernel thread submits, so no I/O has a
	 * submission latency (as fio's with sqthread_poll). */
	bool kernel_submits;
	/* ns, set by the engine: a pause after each I/O, outside its
	 * latency, as thinktime's (cpuio's idle share); 0: none. */
	uint64_t think;
	/* Set by ->init(): the clone ends once every clone of the run whose
	 * engine does I/O has ended (cpuio's exit_on_io_done). */
	bool until_io_done;
	/* Set by ->init() when cmdprio* sends reads' ([0]) or writes' ([1])
	 * I/Os with priorities other than the job's: those priorities
	 * (ioprio values), each once, in fio's order; the worker keeps a
	 * latency histogram for each.  0: none. */
	uint16_t cmdprios[2][ENGINE_CMDPRIOS];
	unsigned nr_cmdprios[2];
};

struct engine_ops {
	const char *name;
	const char *desc; /* one line */
	const char *help; /* what it does, for --enghelp */
	unsigned flags;
	/* The job options this engine alone acts on: rows as opt_table's,
	 * with .engine this ops and .off into the engine's own option struct
	 * of opts_size bytes; ended by a row without a name.  NULL: none.
	 * An async engine acts on iodepth and its batching too. */
	const struct opt_def *options;
	size_t opts_size; /* bytes */
	/* Optional, when the job is read: what this engine refuses of @job,
	 * @opts its options.  0, or -EINVAL with *blame the option to name
	 * (where it was set) and *cause the message. */
	int (*check)(const struct job *job, const void *opts, const struct opt_def **blame,
		     char **cause);
	/* Optional.  0, or -errno with *cause saying why and what to do. */
	int (*init)(struct engine *e, const struct engine_setup *s, char **cause);
	enum engine_q (*queue)(struct engine *e, struct io_req *req);
	/* Async only: submit what was queued.  0 or -errno. */
	int (*commit)(struct engine *e);
	/* Async only: wait for at least @min completions, return up to @max in
	 * @done.  The count, or -errno. */
	int (*reap)(struct engine *e, unsigned min, unsigned max, struct io_req **done);
	/* Optional; called whenever init succeeded. */
	void (*cleanup)(struct engine *e);
};

/* The engine called @name, or NULL when this build has none by that name. */
const struct engine_ops *engine_find(const char *name);
/* The same, or the ENGINE_F_ABSENT entry of an engine this build lacks. */
const struct engine_ops *engine_named(const char *name);
/* Engine @i of this build in table order (none absent), or NULL past the end. */
const struct engine_ops *engine_at(unsigned i);
/* Engine @i of the table, absent ones too, or NULL past the end. */
const struct engine_ops *engine_entry(unsigned i);
/* fio's rules for an ops table: queue, and commit and reap unless SYNC. */
int engine_ops_check(const struct engine_ops *ops);
/* Whether engine @ops acts on job option @o: its own, or iodepth and its
 * batching when it is async. */
bool engine_takes(const struct engine_ops *ops, const struct opt_def *o);
/* The bytes of a job's block of engine options (every engine's struct),
 * and where engine @ops's struct is in it. */
size_t engine_opts_size(void);
size_t engine_opts_offset(const struct engine_ops *ops);
/* Engine @ops's options in @job, or NULL when it has none. */
const void *engine_opts_of(const struct job *job, const struct engine_ops *ops);

/* For engines: one read or write, done now.  With @at, pread/pwrite at the
 * I/O's offset; without, read/write at the file position.  Short transfers
 * are continued and EINTR retried: a result short of the length means end
 * of file.  Bytes moved, or -errno. */
int64_t engine_rw_now(const struct io_req *req, bool at);
/* For engines: a read or write through preadv(2)/pwritev(2), or with @v2
 * preadv2(2)/pwritev2(2) with the RWF_* flags @rwf, at the I/O's offset,
 * done now; short transfers continued as engine_rw_now's.  Bytes moved,
 * or -errno. */
int64_t engine_rwv_now(const struct io_req *req, bool v2, int rwf);
/* For engines: fsync or fdatasync, done now.  0 or -errno. */
int64_t engine_sync_now(const struct io_req *req);
/* For engines: a trim, done now: a hole punched in a file (the size kept),
 * or BLKDISCARD on a block device (req->discard), as fio's.  The length
 * trimmed, or -errno. */
int64_t engine_trim_now(const struct io_req *req);
/* For engines: whichever of these @req is, done now (@at as above). */
int64_t engine_io_now(const struct io_req *req, bool at);

#endif
