/* SPDX-License-Identifier: MIT */
/*
 * The worker: one job clone's setup and its I/O loop.  The loop serves
 * sync and async engines alike (queue / commit / reap) and does no
 * allocation, locking or stdio; errors are formatted once, when they stop
 * the worker.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "files/filelock.h"
#include "jobfile/options.h"
#include "run/run.h"
#include "run/worker.h"
#include "workload/lattarget.h"
#include "util/nodes.h"

/* The engines of this build, "psync, sync, ...", for a message. */
static char *engine_list(void)
{
	struct strbuf sb = { 0 };
	unsigned i;

	for (i = 0; engine_at(i); i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", engine_at(i)->name);
	return strbuf_detach(&sb);
}

static atomic_int never_halted;

static uint64_t seed_for(const struct job *job, unsigned clone)
{
	struct timespec ts;

	if (job->randrepeat)
		return job->randseed + clone;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40) ^
	       clone;
}

/*
 * sub_blocks=N (SQLIO's -m): each slot's buffer as N pieces of bs/N bytes,
 * each allocated on its own so that they are apart in memory, filled as
 * the buffers are.  scatter hands the engine their iovecs; copy keeps the
 * contiguous buffer for the I/O and copies (see sub_copy_in/out).  The
 * iovecs are made here once; worker_buffers_make fills in the pieces.
 */
static void sub_blocks_setup(struct worker *w, unsigned depth)
{
	unsigned n = w->job->sub_blocks, k;

	w->iov = xcalloc((size_t)depth * n, sizeof(*w->iov));
	w->sub_copy = w->job->sub_block_io == SUBIO_COPY;
	for (k = 0; k < depth && !w->sub_copy; k++) {
		w->reqs[k].iov = &w->iov[(size_t)k * n];
		w->reqs[k].nr_iov = n;
	}
}

/* sub_block_io=copy: a write's bytes gathered from the slot's pieces, a
 * read's scattered into them: SQLIO's copy mode, a memcpy per I/O. */
static void sub_copy(const struct worker *w, const struct io_req *req, bool in)
{
	const struct iovec *v = &w->iov[(size_t)req->idx * w->job->sub_blocks];
	char *p = req->buf;
	unsigned k;

	for (k = 0; k < w->job->sub_blocks; k++, p += v[k - 1].iov_len)
		if (in)
			memcpy(p, v[k].iov_base, v[k].iov_len);
		else
			memcpy(v[k].iov_base, p, v[k].iov_len);
}

int worker_engine_init(struct worker *w, char **cause)
{
	struct engine_setup es = { w->job, engine_opts_of(w->job, w->eng.ops), &w->files,
				   (char *)w->bufmem.buf + w->job->mem_align, w->buf_size };
	char *why = NULL;
	int ret;

	if (!w->eng.ops->init)
		return 0;
	ret = w->eng.ops->init(&w->eng, &es, &why);
	if (ret) {
		set_cause(cause, "[%s] ioengine=%s: %s", w->job->name, w->eng.ops->name,
			  why ? why : strerror(-ret));
		free(why);
		return ret;
	}
	w->eng_ready = true;
	return 0;
}

void worker_engine_release(struct worker *w)
{
	if (w->eng_ready && w->eng.ops->cleanup)
		w->eng.ops->cleanup(&w->eng);
	w->eng_ready = false;
}

void worker_buffers_release(struct worker *w)
{
	unsigned i;

	iomem_free(&w->bufmem);
	for (i = 0; w->subs && i < w->eng.depth * w->job->sub_blocks; i++)
		free(w->subs[i]);
	free(w->subs);
	w->subs = NULL;
}

int worker_buffers_make(struct worker *w, bool touch, char **cause)
{
	const struct job *job = w->job;
	unsigned depth = w->eng.depth, n = job->sub_blocks, i;
	size_t piece = (size_t)w->plan->sub_piece, len;
	char *why = NULL;
	int ret;

	/* iomem_align: as fio, every buffer that far past the aligned start. */
	if (job->direct && job->mem_align % w->files.mem_align)
		return set_cause(cause,
				 "[%s] iomem_align=%u: direct=1 needs buffers aligned to %zu bytes",
				 job->name, job->mem_align, w->files.mem_align);
	len = w->buf_size * depth + job->mem_align;
	/* hugepage-size: as fio, the huge kinds' size a multiple of it. */
	if (job->hugepage_size.val && (job->iomem == IOMEM_MMAPHUGE || job->iomem == IOMEM_SHMHUGE))
		len = (len + job->hugepage_size.val - 1) / job->hugepage_size.val *
		      job->hugepage_size.val;
	ret = iomem_alloc(&w->bufmem, job->iomem, len, w->files.mem_align, &why);
	if (ret) {
		set_cause(cause, "[%s] I/O buffers: %s", job->name, why);
		free(why);
		return ret;
	}
	for (i = 0; i < depth; i++) {
		w->reqs[i].buf = (char *)w->bufmem.buf + job->mem_align + (size_t)i * w->buf_size;
		if (touch)
			payload_fill(&w->pl, w->reqs[i].buf, w->buf_size);
	}
	if (n < 2)
		return 0;
	w->subs = xcalloc((size_t)depth * n, sizeof(*w->subs));
	for (i = 0; i < depth * n; i++) {
		if (posix_memalign(&w->subs[i], w->files.mem_align, piece)) {
			set_cause(cause, "[%s] cannot allocate %u sub-blocks of %zu bytes",
				  job->name, depth * n, piece);
			return -ENOMEM;
		}
		if (touch)
			payload_fill(&w->pl, w->subs[i], piece);
		w->iov[i].iov_base = w->subs[i];
		w->iov[i].iov_len = piece;
	}
	return 0;
}

int worker_buffers_renew(struct worker *w, char **cause)
{
	worker_buffers_release(w);
	return worker_buffers_make(w, true, cause);
}

/* Every page of [p, p + len) written (with what it holds), so that none
 * is first faulted in, or copied on write, inside the measured time. */
static void touch(void *p, size_t len)
{
	volatile char *c = p;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i;

	for (i = 0; i < len; i += page)
		c[i] = c[i];
	if (len)
		c[len - 1] = c[len - 1];
}

/* The latencies the loop records (STATS_H_* bits), as fio's disable_*
 * say; as fio, no submission latency with a kernel thread submitting. */
static unsigned lat_timed(const struct worker *w)
{
	const struct job *job = w->job;
	unsigned m = 0;

	/* As fio: no submission latency with a kernel thread submitting. */
	if (!(w->eng.ops->flags & ENGINE_F_SYNC) && !w->eng.kernel_submits && !job->disable_slat)
		m |= STATS_H_SLAT;
	if (!job->disable_clat)
		m |= STATS_H_CLAT;
	if (!job->disable_lat)
		m |= STATS_H_LAT;
	return m;
}

/* The buckets of every histogram the loop may record into, made and
 * faulted in: the directions the job does (reads too when it reads back
 * what it wrote, syncs when it syncs), with the response and lag of a
 * rate-limited job.  The others stay without buckets. */
static void hists_prepare(struct worker *w)
{
	const struct job *job = w->job;
	unsigned which = lat_timed(w), d, k;
	bool dir[STAT_NR] = {
		[STAT_READ] = job_does(job, DDIR_READ) || w->v.stamp,
		[STAT_WRITE] = job_does(job, DDIR_WRITE),
		[STAT_TRIM] = job_does(job, DDIR_TRIM),
		[STAT_SYNC] = job->fsync || job->fdatasync || job->sfr_nr,
	};

	for (d = 0; d < DDIR_COUNT; d++)
		if (job->rate_iops[d] || job->rate[d])
			which |= STATS_H_RATE;
	for (d = 0; d < STAT_NR; d++) {
		struct dir_stats *ds = &w->stats.dir[d];
		struct hist *h[] = { &ds->slat, &ds->clat, &ds->lat, &ds->resp, &ds->lag };

		if (!dir[d])
			continue;
		stats_prepare(&w->stats, d, which);
		for (k = 0; k < ARRAY_SIZE(h); k++)
			if (h[k]->bucket)
				touch(h[k]->bucket, HIST_NR * sizeof(uint64_t));
	}
}

void worker_prefault(struct worker *w)
{
	const struct job *job = w->job;
	unsigned i, k;

	touch(&w->stats, sizeof(w->stats));
	hists_prepare(w);
	for (i = 0; w->wl.rmap && i < w->files.n; i++)
		touch(w->wl.rmap[i], workload_rmap_words(&w->wl, i) * sizeof(uint64_t));
	if (w->v.map)
		touch(w->v.map, (w->v.n ? w->v.n : 1) * sizeof(*w->v.map));
	/* The per-I/O logs' first chunks: later ones are made as they fill. */
	for (k = 0; w->iv.log_each && k < IOLOG_NR; k++) {
		struct iolog *l = &w->iv.logs->log[k];

		if ((k == IOLOG_BW && !job->write_bw_log) ||
		    (k == IOLOG_IOPS && !job->write_iops_log) ||
		    (k >= IOLOG_LAT && !job->write_lat_log) || l->tail)
			continue;
		iolog_grow(l);
		touch(l->tail->e, sizeof(l->tail->e));
	}
	if (w->trace.on && !w->trace.tail) {
		iotrace_grow(&w->trace);
		touch(w->trace.tail->e, sizeof(w->trace.tail->e));
	}
}

int worker_setup(struct worker *w, const struct job_plan *jp, unsigned clone, unsigned thread,
		 atomic_int *stop, const struct run_watch *watch, char **cause)
{
	const struct job *job = jp->job;
	struct files_watch fw = { .stop = stop };
	uint64_t hi = jp->bs_max, seed;
	unsigned i, depth;
	int ret;

	if (watch) {
		fw.layout = watch->layout;
		fw.arg = watch->arg;
		fw.every = watch->every;
	}

	memset(w, 0, sizeof(*w));
	w->job = job;
	w->plan = jp;
	w->clone = clone;
	w->stop = stop;
	w->halt = &never_halted;
	w->prog = &w->prog_own;
	w->eng.ops = job_engine(job);
	if (!w->eng.ops) {
		char *have = engine_list();

		ret = set_cause(cause,
				"[%s] ioengine=%s is not in this build of iogauge (it has: %s)",
				job->name, job->ioengine->name, have);
		free(have);
		return ret;
	}
	depth = jp->depth;
	w->eng.depth = depth;
	/* Opened (made) before the data files: one that cannot be leaves
	 * nothing laid out. */
	if (job->write_iolog) {
		ret = iotrace_open(&w->trace, job->write_iolog, cause);
		if (ret)
			return ret;
	}
	/* Read again per clone (the job kept only what it decides). */
	if (job->read_iolog) {
		ret = replay_load(&w->replay, job->read_iolog, job->replay_redirect,
				  job->replay_scale, job->replay_align, job->replay_time_scale,
				  cause);
		if (ret) {
			iotrace_free(&w->trace);
			return ret;
		}
	}
	ret = files_open(jp, clone, w->eng.ops->flags, &fw, &w->files, cause);
	if (ret) {
		iotrace_free(&w->trace);
		replay_free(&w->replay);
		return ret;
	}
	seed = seed_for(job, clone);
	payload_init(&w->pl, job, seed, thread);
	rng_seed(&w->rate_rng, seed ^ 0x72617465u); /* "rate" */
	ret = workload_init(&w->wl, job, &w->files, clone, thread, seed,
			    w->eng.ops->flags & ENGINE_F_NOFILES, cause);
	if (ret)
		goto err;
	/* The plan's page-rounded slot, unless O_DIRECT asks more of the
	 * memory; hi <= PLAN_BS_MAX, so rounding it cannot overflow. */
	w->buf_size = (size_t)jp->buf_size;
	if (w->buf_size % w->files.mem_align)
		w->buf_size = (size_t)((hi + w->files.mem_align - 1) / w->files.mem_align *
				       w->files.mem_align);
	w->reqs = xcalloc(depth, sizeof(*w->reqs));
	w->free_reqs = xcalloc(depth, sizeof(*w->free_reqs));
	w->done = xcalloc(depth, sizeof(*w->done));
	w->pending = xcalloc(depth, sizeof(*w->pending));
	if (w->files.lazy)
		w->file_inflight = xcalloc(w->files.n, sizeof(*w->file_inflight));
	for (i = 0; i < depth; i++) {
		w->reqs[i].idx = i;
		w->free_reqs[w->nr_free++] = &w->reqs[depth - 1 - i];
	}
	if (job->sub_blocks > 1)
		sub_blocks_setup(w, depth);
	/* Made here to check that they can be; the clone makes them again
	 * for itself (worker_buffers_renew). */
	ret = worker_buffers_make(w, false, cause);
	if (ret)
		goto err;
	ret = worker_verify_setup(w, hi, thread, cause);
	if (ret)
		goto err;
	ret = worker_engine_init(w, cause);
	if (ret)
		goto err;
	stats_init(&w->stats);
	interval_init(&w->iv, job);
	return 0;
err:
	worker_cleanup(w, true);
	return ret;
}

void worker_cleanup(struct worker *w, bool remove_created)
{
	free(w->first_error); /* NULL once the run has taken it */
	w->first_error = NULL;
	worker_verify_cleanup(w);
	worker_engine_release(w);
	workload_free(&w->wl);
	files_close(&w->files, remove_created);
	worker_buffers_release(w);
	payload_free(&w->pl);
	if (w->locked)
		munmap(w->locked, w->locked_len); /* and so unlocked */
	w->locked = NULL;
	free(w->iov);
	w->iov = NULL;
	free(w->reqs);
	free(w->free_reqs);
	free(w->done);
	free(w->pending);
	free(w->file_inflight);
	w->file_inflight = NULL;
	interval_free(&w->iv);
	iotrace_free(&w->trace);
	replay_free(&w->replay);
	stats_free(&w->stats);
	w->pending = NULL;
	w->reqs = NULL;
	w->free_reqs = w->done = NULL;
}

/* ---- the I/O loop ---- */

struct loop {
	uint64_t limit;	    /* bytes to issue; UINT64_MAX when time-based */
	uint64_t issued;    /* bytes */
	uint64_t ios_left;  /* number_ios: I/Os still to issue; UINT64_MAX: no cap */
	uint64_t deadline;  /* ns; UINT64_MAX: none */
	uint64_t ramp_end;  /* ns; samples before it are discarded */
	uint64_t t_measure; /* ns: start of the measured part */
	unsigned inflight;
	unsigned queued;     /* queued since the last commit, in w->pending */
	unsigned batch;	     /* commit after this many */
	unsigned reap_max;   /* most completions taken at once; 0: all there are */
	unsigned sync_every; /* writes between fsyncs; 0: none */
	/* Which clock reads the I/Os need (gtod_reduce and disable_* drop
	 * them, as fio's): a start per I/O, an issue per commit, a
	 * completion per reaped batch.  What is not read is lp->now. */
	bool time_start, time_issue, time_done;
	bool want_lat, want_clat, want_slat; /* recorded, as fio's disable_* say */
	unsigned stale;			     /* batches since the last read, without time_done */
	enum io_op sync_op;
	uint64_t now;		   /* ns: the latest completion time, for the deadline */
	struct workload_rate rate; /* rate, rate_iops: each direction's schedule */
	/* thinktime: reads and writes issued and completed, the count
	 * thinktime_blocks_type names at the last think, when that think
	 * began (thinktime_iotime), the direction of the last I/O issued (the
	 * one a rate_ignore_thinktime think is of), and a think owed. */
	uint64_t nr_issued, nr_done, think_last, think_t;
	unsigned last_dir;
	bool think;
	unsigned low; /* iodepth_low: a full queue drains to it */
	/* rate_min, rate_iops_min: each direction's bytes, I/Os and time at
	 * its last check (as fio's last_rate_check_*), and its I/Os when last
	 * looked at (only a direction that completed I/O since is checked). */
	bool min_rate;
	uint64_t min_t[DDIR_COUNT], min_bytes[DDIR_COUNT], min_ios[DDIR_COUNT];
	uint64_t min_seen[DDIR_COUNT];
	/* The flow held the next I/O back. */
	bool flow_wait;
	/* Each I/O's priority unless cmdprio* picks one: prio, prioclass's. */
	uint16_t ioprio;
	bool verifying; /* a read-back pass: worker_verify_next gives the I/Os */
	bool backlog;	/* verify_backlog writes issued: a read-back pass is owed */
	bool dry;	/* verify_only: the workload's I/Os are not issued, as fio's dry run */
	/* unlink_each_loop: the bytes of a loop, and the bytes issued at which
	 * the next one starts (UINT64_MAX: never); a new loop is due. */
	uint64_t loop_bytes, next_loop;
	bool reloop;
	/* steadystate's sampler reads the progress each second: published at
	 * each completion, not a stats window behind. */
	bool publish_each;
	/* latency_target: the depth the search allows (the engine's
	 * otherwise), the search, what an I/O over the target asked for,
	 * and the read and write I/Os completed. */
	unsigned qd;
	uint8_t *busy; /* serialize_overlap: per slot, in flight; NULL: off */
	bool lt_on;
	struct lat_target lt;
	enum lat_target_act lt_act;
	uint64_t lt_ios;
};

/* The stats direction of an op: read, write, trim (as fio's ddir), sync. */
static unsigned op_dir(enum io_op op)
{
	switch (op) {
	case IO_OP_READ:
		return STAT_READ;
	case IO_OP_WRITE:
		return STAT_WRITE;
	case IO_OP_TRIM:
		return STAT_TRIM;
	default:
		return STAT_SYNC;
	}
}

void worker_flow_leave(struct worker *w)
{
	if (w->flow)
		flow_leave(w->flow, w->flow_mine, w->job->flow);
	w->flow = NULL;
}

/* lockmem: as fio, a mapping of that size locked for the clone's life
 * (fio's cap too: all memory but 128 MiB); before the buffers are made. */
static int pin_lockmem(struct worker *w)
{
	uint64_t want = w->job->lockmem.val, phys, cap = (uint64_t)128 << 20;

	if (!want)
		return 0;
	phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	if (phys > cap && want + cap > phys)
		want = phys - cap;
	w->locked_len = (size_t)want;
	w->locked = mmap(NULL, w->locked_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	if (w->locked == MAP_FAILED || mlock(w->locked, w->locked_len) < 0) {
		w->error_no = errno;
		w->error = xasprintf("lockmem=%llu: %s of %zu bytes: %s",
				     (unsigned long long)w->job->lockmem.val,
				     w->locked == MAP_FAILED ? "mmap" : "mlock", w->locked_len,
				     strerror(w->error_no));
		if (w->locked != MAP_FAILED)
			munmap(w->locked, w->locked_len);
		w->locked = NULL;
		return -w->error_no;
	}
	return 0;
}

/* numa_cpu_nodes and numa_mem_policy, after cpus_allowed (as fio: the
 * nodes' CPUs replace the list) and before the buffers are made. */
static int pin_numa(struct worker *w)
{
	char *why = NULL;
	int ret = nodes_apply(w->job->numa_cpu_nodes, w->job->numa_mem_policy, &why);

	if (ret) {
		w->error_no = -ret;
		w->error = why;
		return ret;
	}
	return pin_lockmem(w);
}

/* gid=, uid=: taken first, as fio (the group while it still may), by
 * this thread alone (the raw calls: glibc's would change every thread
 * of the process, the run's own with thread=1). */
static int pin_ids(struct worker *w)
{
	const struct job *job = w->job;
	const char *what = NULL;
	unsigned id = 0;

	if (job->gid_set && syscall(SYS_setgid, job->gid) < 0) {
		what = "gid";
		id = job->gid;
	} else if (job->uid_set && syscall(SYS_setuid, job->uid) < 0) {
		what = "uid";
		id = job->uid;
	}
	if (what) {
		w->error_no = errno;
		w->error = xasprintf("%s=%u: set%s: %s", what, id, what, strerror(w->error_no));
		return -w->error_no;
	}
	/* A clone's process: new credentials clear its parent-death signal. */
	if ((job->uid_set || job->gid_set) && !job->thread)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	return 0;
}

int worker_pin(struct worker *w)
{
	const struct job *job = w->job;
	unsigned c, n = 0, pick = 0;
	cpu_set_t set;
	int ret = pin_ids(w);

	if (ret)
		return ret;
	if (!job->cpus_allowed_set)
		return pin_numa(w);
	for (c = 0; c < JOB_MAX_CPUS; c++)
		n += job->cpus_allowed[c / 64] >> (c % 64) & 1;
	/* split: clone k takes the k-th CPU of the set, wrapping, as fio. */
	pick = n ? w->clone % n : 0;
	CPU_ZERO(&set);
	for (c = 0; c < JOB_MAX_CPUS && c < CPU_SETSIZE; c++) {
		if (!(job->cpus_allowed[c / 64] >> (c % 64) & 1))
			continue;
		if (job->cpus_allowed_policy == CPUS_SHARED || !pick--)
			CPU_SET(c, &set);
		if (job->cpus_allowed_policy == CPUS_SPLIT && CPU_COUNT(&set))
			break;
	}
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (ret) {
		struct strbuf sb = { 0 };

		opt_format(&opt_table[OPT_CPUS_ALLOWED], job, &sb);
		w->error_no = ret;
		w->error = xasprintf("[%s] cpus_allowed=%s: cannot bind thread %u: %s", job->name,
				     sb.buf, w->clone, strerror(ret));
		strbuf_free(&sb);
		return -ret;
	}
	return pin_numa(w);
}

/*
 * The rate's schedule (rate, rate_iops, rate_process): the I/O's intended
 * start, from the arrival process alone, as fio's usec_for_io: linear
 * steps of one I/O's time at the rate, or, with poisson, exponential gaps
 * of that mean.  A late I/O keeps its place: the schedule does not wait
 * for the generator, so its lag and response time show a stall.
 */
static void schedule(struct worker *w, struct loop *lp, struct io_req *req)
{
	unsigned d = op_dir(req->op);
	double gap = lp->rate.ns_per_io[d] ? lp->rate.ns_per_io[d]
					   : lp->rate.ns_per_byte[d] * (double)req->len;

	if (gap == 0)
		return; /* this direction has no cap (t_intended stays 0) */
	if (w->job->rate_process == RATE_POISSON)
		gap *= -log(1.0 - rng_unit(&w->rate_rng));
	req->t_intended = lp->rate.due[d];
	lp->rate.due[d] += (uint64_t)gap;
}

/* With error_dump, the errors passed over are listed after the first, in
 * its text, up to this many bytes (a clone in a process hands its text
 * back through a slot of 4 KiB). */
#define ERROR_DUMP_MAX 3072

/* An I/O failed.  continue_on_error and ignore_error say whether it is
 * counted and passed over (a sync's and a trim's count as a write's, an
 * EILSEQ as a verify's, as fio's) or stops the job. */
static void fail_io(struct worker *w, const struct io_req *req)
{
	const char *why = req->res < 0 ? strerror((int)-req->res) : "short transfer (end of file)";
	int err = req->res < 0 ? (int)-req->res : EIO;
	enum error_type t = job_error_type(req->op == IO_OP_READ, err);
	bool go_on = job_error_passes(w->job, t, err);
	char *msg;

	if (w->error)
		return; /* stopped already */
	if (go_on) {
		w->stats.errors_listed += job_error_listed(w->job, t, err);
		if (w->stats.errors++ && !w->job->error_dump)
			return; /* passed over after the first */
		if (w->first_error && strlen(w->first_error) > ERROR_DUMP_MAX)
			return; /* the list is full: the count has them */
	}
	if (req->op == IO_OP_FSYNC || req->op == IO_OP_FDATASYNC)
		/* A sync covers every write before it: no offset of its own. */
		msg = xasprintf("%s: %s: %s", w->files.v[req->file].path, io_op_names[req->op],
				why);
	else
		/* A file operation's engine names its own operation. */
		msg = xasprintf("%s: %s at offset %llu, size %zu: %s", w->files.v[req->file].path,
				req->fake ? w->eng.ops->name : io_op_names[req->op],
				(unsigned long long)req->off, req->len, why);
	if (go_on && w->first_error) {
		size_t n = strlen(w->first_error) + strlen(msg);
		char *all = xasprintf("%s\n  then: %s%s", w->first_error, msg,
				      n > ERROR_DUMP_MAX ? "\n  (the rest are counted, not listed)"
							 : "");

		free(w->first_error);
		free(msg);
		w->first_error = all;
	} else if (go_on) {
		w->first_error = msg;
		w->first_error_no = err;
	} else {
		w->error = msg;
		w->error_no = err;
	}
}

/* max_latency: the job fails with ETIMEDOUT, naming the I/O. */
static void lat_exceeded(struct worker *w, const struct io_req *req, uint64_t lat, uint64_t max)
{
	if (w->error)
		return;
	w->error_no = ETIMEDOUT;
	w->error = xasprintf("%s: %s at offset %llu, size %zu: latency of %llu ns is above "
			     "max_latency=%llu ns: %s",
			     w->files.v[req->file].path, io_op_names[req->op],
			     (unsigned long long)req->off, req->len, (unsigned long long)lat,
			     (unsigned long long)max, strerror(ETIMEDOUT));
}

/* latency_target: an I/O completed.  One over the target at depth 1
 * fails the job as fio's; others are the search's to weigh. */
static void lat_target_done(struct worker *w, struct loop *lp, const struct io_req *req,
			    uint64_t now)
{
	uint64_t lat = now - req->t_start;
	enum lat_target_act act;

	lp->lt_ios++;
	if (!lp->want_lat || lat <= w->job->latency_target)
		return;
	act = lat_target_over(&lp->lt, w->job->latency_percentile);
	if (act == LT_FATAL && !w->error) {
		w->error_no = ETIMEDOUT;
		w->error =
			xasprintf("%s: %s at offset %llu, size %zu: latency of %llu ns is above "
				  "latency_target=%llu ns at iodepth 1: %s",
				  w->files.v[req->file].path, io_op_names[req->op],
				  (unsigned long long)req->off, req->len, (unsigned long long)lat,
				  (unsigned long long)w->job->latency_target, strerror(ETIMEDOUT));
	} else if (act != LT_NONE && lp->lt_act == LT_NONE) {
		lp->lt_act = act;
	}
}

static void engine_failed(struct worker *w, const char *what, int err)
{
	if (!w->error) {
		w->error = xasprintf("ioengine=%s: %s: %s", w->eng.ops->name, what, strerror(-err));
		w->error_no = -err;
	}
}

/* ---- windows and logs (stats/interval.c), and the status line's progress ---- */

/* What the live status line reads, from another thread. */
static void publish(struct worker *w, const struct loop *lp)
{
	unsigned d;

	for (d = 0; d < 2; d++) {
		atomic_store_explicit(&w->prog->bytes[d], w->stats.dir[d].bytes,
				      memory_order_relaxed);
		atomic_store_explicit(&w->prog->ios[d], w->stats.dir[d].ios, memory_order_relaxed);
	}
	atomic_store_explicit(&w->prog->bytes[2], w->stats.dir[STAT_TRIM].bytes,
			      memory_order_relaxed);
	atomic_store_explicit(&w->prog->issued, lp->issued, memory_order_relaxed);
}

/* A window closes (see interval.h); the stats window's also publishes
 * the progress. */
static void tick(struct worker *w, const struct loop *lp, uint64_t now)
{
	if (now >= w->iv.win.next)
		publish(w, lp);
	interval_tick(&w->iv, &w->stats, now);
}

/* fill_device: a write that finds the device or filesystem full ends the
 * job, not as an error; as fio's, it counts as an I/O (no bytes, no
 * latency), and nothing more is issued.  True when @req was that. */
static bool full(struct worker *w, struct loop *lp, struct io_req *req)
{
	if (!w->job->fill_device || req->op != IO_OP_WRITE ||
	    (req->res != -ENOSPC && req->res != -EDQUOT))
		return false;
	w->stats.dir[STAT_WRITE].ios++;
	worker_verify_unwritten(w, req);
	lp->limit = lp->issued;
	w->free_reqs[w->nr_free++] = req;
	return true;
}

/* openfiles: @req's file is opened if it is not (files.lazy).  0, or
 * -errno with w->error set. */
static int lazy_use(struct worker *w, struct io_req *req)
{
	char *cause = NULL;
	int ret = 0;

	if (w->files.v[req->file].fd < 0) {
		ret = files_lazy_open(&w->files, req->file, w->job, &cause);
		if (ret && !w->error) {
			w->error = cause;
			w->error_no = -ret;
		} else if (ret) {
			free(cause);
		}
	}
	req->fd = w->files.v[req->file].fd;
	return ret;
}

/* openfiles: one I/O of @req's file less in flight; the file is closed
 * once none is and the workload is done with it (fio's closing file). */
static void lazy_done(struct worker *w, const struct io_req *req)
{
	if (!--w->file_inflight[req->file] && !(w->wl.fstate[req->file] & WL_FILE_OPEN))
		files_lazy_close(&w->files, req->file, w->job);
}

static void complete(struct worker *w, struct loop *lp, struct io_req *req, uint64_t now)
{
	bool rw = req->op == IO_OP_READ || req->op == IO_OP_WRITE || req->op == IO_OP_TRIM;
	unsigned sd = op_dir(req->op);

	lp->now = now;
	if (w->file_inflight)
		lazy_done(w, req);
	if (lp->busy)
		lp->busy[req->idx] = 0;

	if (req->res < 0 || (rw && (uint64_t)req->res != req->len)) {
		if (full(w, lp, req))
			return;
		fail_io(w, req);
		worker_verify_unwritten(w, req);
		w->free_reqs[w->nr_free++] = req;
		return;
	}
	if (w->sub_copy && req->op == IO_OP_READ)
		sub_copy(w, req, false);
	if (req->op == IO_OP_READ && (lp->verifying || w->v.check_reads))
		worker_verify_read(w, req);
	lp->nr_done += rw;
	if (now >= lp->ramp_end) {
		uint64_t slat =
			req->queued && lp->want_slat ? req->t_issue - req->t_start : UINT64_MAX;

		/* A file operation's engine (see io_req): its time is
		 * recorded unless disable_lat, as fio's. */
		if (req->fake)
			stats_record(&w->stats.dir[sd], UINT64_MAX,
				     lp->want_lat ? req->op_ns : UINT64_MAX, UINT64_MAX, req->len);
		else
			stats_record(&w->stats.dir[sd], slat,
				     lp->want_clat ? now - req->t_issue : UINT64_MAX,
				     lp->want_lat ? now - req->t_start : UINT64_MAX,
				     rw ? req->len : 0);
		/* A rate's schedule only: read_iolog's times are not one. */
		if (req->t_intended && lp->rate.on) {
			hist_record(&w->stats.dir[sd].resp, now - req->t_intended);
			hist_record(&w->stats.dir[sd].lag, req->t_start - req->t_intended);
		}
		/* op_dir again rather than sd: sd kept live across
		 * stats_record costs the hot path registers. */
		if (w->iv.log_each && rw)
			interval_log_io(&w->iv, op_dir(req->op), req->len, req->off, req->t_start,
					req->t_issue, now, slat, req->ioprio);
	}
	/* As fio: max_latency is judged on the total latency, when it is
	 * measured (not with disable_lat). */
	if (lp->lt_on && rw)
		lat_target_done(w, lp, req, now);
	if (rw && lp->want_lat && w->job->max_latency[sd] &&
	    now - req->t_start > w->job->max_latency[sd])
		lat_exceeded(w, req, now - req->t_start, w->job->max_latency[sd]);
	if (now >= w->iv.tick_next)
		tick(w, lp, now);
	else if (lp->publish_each)
		publish(w, lp);
	/* sync_file_range: as fio's, the span the writes since the last
	 * one covered (in the file of the write that calls it). */
	if (req->op == IO_OP_WRITE && lp->sync_op == IO_OP_SYNC_FILE_RANGE) {
		if (req->off < w->sfr_lo)
			w->sfr_lo = req->off;
		if (req->off + req->len > w->sfr_hi)
			w->sfr_hi = req->off + req->len;
	}
	if (req->op == IO_OP_WRITE && lp->sync_every && ++w->writes_since_sync >= lp->sync_every) {
		/* The slot carries the sync; it goes out before any new I/O. */
		w->writes_since_sync = 0;
		req->op = lp->sync_op;
		req->len = 0;
		if (lp->sync_op == IO_OP_SYNC_FILE_RANGE) {
			req->off = w->sfr_lo;
			req->len = (size_t)(w->sfr_hi - w->sfr_lo);
			req->sfr_flags = w->job->sfr_flags;
			w->sfr_lo = UINT64_MAX;
			w->sfr_hi = 0;
		}
		req->t_start = now;
		req->t_intended = 0;
		w->held = req;
		return;
	}
	w->free_reqs[w->nr_free++] = req;
}

/* Submits what was queued and stamps it: the I/Os reached the kernel now.
 * One read for the batch, after the engine's commit, as fio's engines
 * stamp issue_time; none when neither clat nor slat is wanted (fio's
 * fio_fill_issue_time), and t_issue stays the I/O's start. */
static void commit(struct worker *w, struct loop *lp)
{
	int r = w->eng.ops->commit(&w->eng);
	uint64_t now;
	unsigned i;

	if (r < 0)
		engine_failed(w, "submitting I/O", r);
	if (lp->queued)
		w->stats.submit[stats_batch_bucket(lp->queued)]++;
	if (lp->time_issue) {
		now = run_now();
		for (i = 0; i < lp->queued; i++)
			w->pending[i]->t_issue = now;
	}
	lp->queued = 0;
}

/* The completion time of what a reap (or a sync queue) just returned:
 * one read for the batch, as fio's init_icd (every I/O of the batch had
 * completed when the reap returned; a read per I/O would only add the
 * time spent counting the ones before it).  Without per-I/O times
 * (gtod_reduce), a read every 64 batches keeps the deadline and the
 * windows going, as fio's ts_cache (its mask is 63 then). */
static uint64_t done_time(struct loop *lp)
{
	if (lp->time_done || !(++lp->stale & 63))
		lp->now = run_now();
	return lp->now;
}

/* fio's IO depths: the I/Os in flight once this one is queued; as fio,
 * not counted during ramp_time. */
static void note_depth(struct worker *w, const struct loop *lp, const struct io_req *req,
		       unsigned n)
{
	if (req->t_start >= lp->ramp_end)
		w->stats.depth[stats_depth_bucket(n)]++;
	if (n > w->stats.depth_max)
		w->stats.depth_max = n;
}

/* thinktime, as fio's handle_thinktime: whether a think is due, after
 * thinktime_blocks I/Os issued or completed (thinktime_blocks_type)
 * since the last, or thinktime_iotime since the last began.  When it is,
 * the count and the time are taken as the last think's. */
static bool think_due(const struct worker *w, struct loop *lp)
{
	const struct job *job = w->job;
	uint64_t b = job->thinktime_blocks_type == THINK_ISSUE ? lp->nr_issued : lp->nr_done;
	uint64_t now = 0;
	bool due = false;

	if (job->thinktime_iotime) {
		now = run_now();
		due = now - lp->think_t >= job->thinktime_iotime + job->thinktime;
		if (!due && job->thinktime_iotime_only)
			return false;
	}
	if (!due && b < lp->think_last + job->thinktime_blocks)
		return false;
	lp->think_last = b;
	if (job->thinktime_iotime)
		lp->think_t = now;
	return true;
}

/* Whether @req's bytes meet those of an I/O in flight (@busy) on its file. */
static bool overlaps_in_flight(const struct worker *w, const struct io_req *req,
			       const uint8_t *busy)
{
	unsigned k;

	for (k = 0; k < w->eng.depth; k++) {
		const struct io_req *o = &w->reqs[k];

		if (busy[k] && o != req && o->file == req->file && o->off < req->off + req->len &&
		    req->off < o->off + o->len)
			return true;
	}
	return false;
}

/* read_iolog: the next logged I/O, where the log put it. */
static void replay_next(struct worker *w, struct io_req *req)
{
	const struct replay_io *io = &w->replay.v[w->replay_pos++];
	const struct run_file *f = &w->files.v[io->file];

	req->op = (enum io_op)io->op;
	req->discard = io->op == IO_OP_TRIM && f->blkdev;
	req->fd = f->fd;
	req->file = io->file;
	req->off = io->off;
	req->len = io->len;
}

/* Hands I/Os to the engine until it is full, the job has issued all it
 * may, or (sync engines) depth I/Os have run, so the stop flag and the
 * deadline are looked at between them. */
static void fill(struct worker *w, struct loop *lp)
{
	const struct engine_ops *ops = w->eng.ops;
	unsigned n;

	for (n = 0; n < w->eng.depth && !w->error; n++) {
		struct io_req *req = w->held;
		enum engine_q q;

		if (!req && lp->verifying) {
			if (!w->nr_free || !worker_verify_next(w, w->free_reqs[w->nr_free - 1]))
				break;
			req = w->free_reqs[--w->nr_free];
			req->t_start = 0;
			req->t_intended = 0;
			req->ioprio = lp->ioprio;
		} else if (!req && w->v.trim_left) {
			/* trim_percentage: blocks written are trimmed again, once
			 * their writes have completed (none may land after). */
			if (lp->inflight || !w->nr_free ||
			    !worker_verify_trim_next(w, w->free_reqs[w->nr_free - 1]))
				break;
			req = w->free_reqs[--w->nr_free];
			req->t_start = 0;
			req->t_intended = 0;
			req->ioprio = lp->ioprio;
		} else if (!req) {
			if (!w->nr_free || lp->issued >= lp->limit || lp->inflight >= lp->qd ||
			    (w->replay.n && w->replay_pos >= w->replay.n))
				break;
			if (w->flow && flow_held(w->flow, &w->flow_mine, w->job->flow)) {
				lp->flow_wait = true;
				break;
			}
			if (lp->issued >= lp->next_loop) {
				lp->next_loop += lp->loop_bytes;
				lp->reloop = true;
				break;
			}
			req = w->free_reqs[--w->nr_free];
			if (w->replay.n) {
				replay_next(w, req);
			} else if (!workload_next(&w->wl, req, &lp->rate, &lp->limit, lp->issued)) {
				w->nr_free++; /* no I/O: the workload has ended */
				lp->limit = lp->issued;
				break;
			}
			if (req->op == IO_OP_WRITE) {
				w->pl.writes++;
				if (w->pl.refill || w->pl.scramble)
					payload_write(&w->pl, req, w->iov);
				if (w->v.stamp && worker_verify_written(w, req))
					lp->backlog = true;
				if (w->sub_copy)
					sub_copy(w, req, true);
			}
			lp->issued += req->len;
			lp->nr_issued++;
			lp->last_dir = op_dir(req->op);
			req->ioprio = lp->ioprio;
			/* number_ios reached: the job has issued all it may. */
			if (lp->ios_left != UINT64_MAX && !--lp->ios_left)
				lp->limit = lp->issued;
			req->t_start = 0;
			req->t_intended = 0;
			if (lp->rate.on)
				schedule(w, lp, req);
			/* read_iolog's times: held until due, as a rate's I/O is. */
			if (w->replay_t0)
				req->t_intended =
					w->replay_t0 + w->replay.v[w->replay_pos - 1].t * 1000;
		}
		if (!req->t_start) {
			/* fio stamps start_time here, once the I/O is made (not
			 * with disable_lat); pacing needs the time too. */
			uint64_t now =
				lp->time_start || lp->rate.on || w->replay_t0 ? run_now() : lp->now;

			/* Not due yet: held, and the loop waits for it. */
			if (req->t_intended > now) {
				w->held = req;
				break;
			}
			req->t_start = now;
		}
		req->t_issue = req->t_start;
		req->queued = false;
		if (w->file_inflight && lazy_use(w, req)) {
			if (req != w->held)
				w->free_reqs[w->nr_free++] = req;
			break;
		}
		/* serialize_overlap: as fio's, an I/O over one in flight waits. */
		if (lp->busy && lp->inflight && overlaps_in_flight(w, req, lp->busy)) {
			w->held = req;
			break;
		}
		if (lp->dry && !lp->verifying) {
			/* verify_only: the I/O is made, mapped and counted, not issued;
			 * verify_state_load: up to the writes the state saved. */
			req->res = (int64_t)req->len;
			q = ENGINE_Q_DONE;
			if (w->v.state_writes && w->pl.writes >= w->v.state_writes)
				lp->limit = lp->issued;
		} else if (w->job->lockfile && w->files.v[req->file].lock) {
			/* As fio: the file's lock is held around the queue call. */
			struct files_lock *l = w->files.v[req->file].lock;

			files_lock(l, w->job->lockfile, req->op == IO_OP_READ);
			q = ops->queue(&w->eng, req);
			files_unlock(l, w->job->lockfile);
		} else {
			q = ops->queue(&w->eng, req);
		}
		if (q == ENGINE_Q_BUSY) {
			w->held = req;
			break;
		}
		w->held = NULL;
		if (w->file_inflight)
			w->file_inflight[req->file]++;
		/* write_iolog: an I/O the engine took, as fio logs it in td_io_queue. */
		if (w->trace.on)
			iotrace_add(&w->trace, req->t_start, req->file, req->op, req->off,
				    req->len);
		if (q == ENGINE_Q_DONE) {
			/* As fio: a sync I/O is a submission and a reap of one. */
			w->stats.submit[1]++;
			w->stats.complete[1]++;
			note_depth(w, lp, req, lp->inflight + 1);
			complete(w, lp, req, done_time(lp));
		} else {
			req->queued = true;
			if (lp->busy)
				lp->busy[req->idx] = 1;
			w->pending[lp->queued++] = req;
			note_depth(w, lp, req, ++lp->inflight);
			if (lp->queued >= lp->batch)
				commit(w, lp);
		}
		if (lp->backlog)
			break;
		if (w->eng.think && !lp->verifying) {
			lp->think = true; /* the engine's own pause (cpuio) */
			break;
		}
		if (w->job->thinktime && !lp->verifying && think_due(w, lp)) {
			lp->think = true;
			break;
		}
	}
}

/* The count reaped, or -errno (then w->error says so). */
static int reap(struct worker *w, struct loop *lp, unsigned min)
{
	/* As fio: at most iodepth_batch_complete_max, which is never below
	 * the min (so by default one: reap one, queue one, the queue stays
	 * full); both 0 polls for whatever is there. */
	unsigned max = lp->reap_max && lp->reap_max < lp->inflight ? lp->reap_max : lp->inflight;
	int n = w->eng.ops->reap(&w->eng, min < max ? min : max, max, w->done);
	uint64_t now;
	int i;

	if (n < 0) {
		engine_failed(w, "reaping completions", n);
		return n;
	}
	if (n <= 0)
		return n;
	w->stats.complete[stats_batch_bucket((unsigned)n)]++;
	now = done_time(lp);
	for (i = 0; i < n; i++) {
		lp->inflight--;
		complete(w, lp, w->done[i], now);
	}
	return n;
}

/* What is queued goes out, and what is in flight completes and is counted
 * (after an error too, so that no I/O still lands in a buffer about to be
 * freed).  An engine that returns nothing (its submit failed) ends it. */
static void quiesce(struct worker *w, struct loop *lp)
{
	if (lp->queued)
		commit(w, lp);
	while (lp->inflight && reap(w, lp, lp->inflight) > 0)
		;
}

/* Until @until: sleep, then spin the last stretch (a sleep overshoots by
 * tens of us), polling completions meanwhile so that they are stamped
 * when they come.  Ends at the deadline, however far @until is (a rate of
 * a few bytes a second puts the next I/O hours away), or on a stop. */
static void wait_until(struct worker *w, struct loop *lp, uint64_t until)
{
	uint64_t now = run_now();

	if (until > lp->deadline)
		until = lp->deadline;
	while (now < until && !worker_stopped(w) && !w->error) {
		if (lp->inflight)
			reap(w, lp, 0);
		/* Asleep for at most 20 us with I/Os in flight: their
		 * completions wait that long at most to be stamped. */
		if (until - now > 60000)
			now = run_sleep_until(lp->inflight ? now + 20000 : until - 50000, w->stop,
					      w->halt);
		else
			now = run_now();
	}
	lp->now = now;
}

/* rate_ignore_thinktime, as fio's: the I/Os the rate would have issued
 * in a think of @ns are not owed after it (the direction's schedule
 * moves on by the think, less one I/O's time so the next goes at once):
 * the think lowers the rate instead of being caught up in a burst. */
static void rate_skip(const struct worker *w, struct loop *lp, uint64_t ns)
{
	unsigned d = lp->last_dir;
	uint64_t lo, hi, gap;

	if (d >= DDIR_COUNT)
		return;
	job_bs_bounds(w->job, (enum ddir)d, &lo, &hi);
	gap = (uint64_t)(lp->rate.ns_per_io[d] ? lp->rate.ns_per_io[d]
					       : lp->rate.ns_per_byte[d] * (double)lo);
	if (!gap)
		return; /* this direction has no cap */
	lp->rate.due[d] += gap <= ns ? ns - gap : ns;
}

/* thinktime: what is in flight completes (as fio's io_u_quiesce), then
 * thinktime_spin of spinning and the rest asleep; not part of any I/O's
 * latency. */
static void think(struct worker *w, struct loop *lp)
{
	const struct job *job = w->job;
	uint64_t t0, spin_end, end;

	lp->think = false;
	quiesce(w, lp);
	t0 = run_now();
	/* An engine's pause replaces the job's think, as cpuio's does fio's. */
	spin_end = t0 + (w->eng.think ? 0 : job->thinktime_spin);
	end = t0 + (w->eng.think ? w->eng.think : job->thinktime);
	if (spin_end > lp->deadline)
		spin_end = lp->deadline;
	while (run_now() < spin_end && !worker_stopped(w))
		;
	wait_until(w, lp, end);
	if (job->rate_ignore_thinktime)
		rate_skip(w, lp, lp->now - t0);
}

/* rate_min, rate_iops_min, as fio's check_min_rate: after 2 s of settling,
 * each direction that completed I/O since the last look is measured over
 * at least rate_cycle ms (the first look only starts the count).  True
 * when one is below its minimum: w->error says so, with fio's words. */
static bool min_rate_failed(struct worker *w, struct loop *lp)
{
	static const char *const dname[DDIR_COUNT] = { "reads", "writes", "trims" };
	const struct job *job = w->job;
	uint64_t now = lp->now, ms, got;
	unsigned d;

	if (now < lp->t_measure + 2000000000ull)
		return false;
	for (d = 0; d < DDIR_COUNT; d++) {
		const struct dir_stats *ds = &w->stats.dir[d];

		if ((!job->rate_min[d] && !job->rate_iops_min[d]) || ds->ios == lp->min_seen[d])
			continue;
		lp->min_seen[d] = ds->ios;
		if (lp->min_bytes[d] || lp->min_ios[d]) {
			ms = (now - lp->min_t[d]) / 1000000;
			if (!ms || ms < job->rate_cycle)
				continue;
			got = job->rate_min[d] ? (ds->bytes - lp->min_bytes[d]) * 1000 / ms
					       : (ds->ios - lp->min_ios[d]) * 1000 / ms;
			if (job->rate_min[d] && got < job->rate_min[d])
				w->error = xasprintf("rate_min=%lluB/s not met, got %lluB/s (%s, "
						     "over %llu ms)",
						     (unsigned long long)job->rate_min[d],
						     (unsigned long long)got, dname[d],
						     (unsigned long long)ms);
			else if (!job->rate_min[d] && got < job->rate_iops_min[d])
				w->error = xasprintf(
					"rate_iops_min=%llu not met, got %llu IOPS (%s, "
					"over %llu ms)",
					(unsigned long long)job->rate_iops_min[d],
					(unsigned long long)got, dname[d], (unsigned long long)ms);
			if (w->error) {
				w->error_no = EIO; /* as fio's */
				return true;
			}
		}
		lp->min_bytes[d] = ds->bytes;
		lp->min_ios[d] = ds->ios;
		lp->min_t[d] = now;
	}
	return false;
}

/* flow: the next I/O held back, as fio's: with flow_sleep, what is in
 * flight completes and the clone sleeps that long; without, it takes
 * what has completed and tries again at once. */
static void flow_wait(struct worker *w, struct loop *lp)
{
	lp->flow_wait = false;
	if (w->job->flow_sleep) {
		quiesce(w, lp);
		wait_until(w, lp, run_now() + w->job->flow_sleep);
		return;
	}
	if (lp->inflight)
		reap(w, lp, 0);
	lp->now = run_now();
}

/* unlink_each_loop: a new loop starts, as fio's: what is in flight
 * completes, the engine lets go of the files, which are removed and opened
 * again (files_reloop), and the engine is set up anew on them. */
static void reloop(struct worker *w, struct loop *lp)
{
	char *cause = NULL;
	int ret;

	lp->reloop = false;
	quiesce(w, lp);
	if (w->error)
		return;
	worker_engine_release(w);
	ret = files_reloop(&w->files, job_modifies(w->job), &cause);
	if (!ret)
		ret = worker_engine_init(w, &cause);
	if (ret) {
		w->error = cause;
		w->error_no = -ret;
	}
}

/* A read-back pass (verify=): what is in flight completes, then the blocks
 * worker_verify_next hands out are read and checked, at the job's depth,
 * until there are none.  A stop or an error ends it early. */
static void verify_pass(struct worker *w, struct loop *lp, enum verify_pass pass)
{
	/* A write the engine refused goes out first (fill stops after it while
	 * the backlog is owed): no block is read while its write is pending. */
	while (w->held && !w->error && !worker_stopped(w)) {
		fill(w, lp);
		if (lp->queued && !w->error)
			commit(w, lp);
		if (w->held && lp->inflight && !w->error)
			reap(w, lp, 1);
	}
	lp->backlog = false;
	quiesce(w, lp);
	worker_verify_begin(w, pass);
	lp->verifying = true;
	while (!worker_stopped(w) && !w->error) {
		fill(w, lp);
		if (lp->queued && !w->error)
			commit(w, lp);
		if (lp->inflight && !w->error)
			reap(w, lp, 1);
		else if (!w->held && w->v.pass == VERIFY_PASS_NONE)
			break;
	}
	quiesce(w, lp);
	lp->verifying = false;
}

/* @now: when the job started, before its files' cache was dropped. */
static void loop_init(struct worker *w, struct loop *lp, uint64_t now)
{
	const struct job *job = w->job;
	uint64_t region = 0;
	bool bw_each;
	unsigned i, timed;

	memset(lp, 0, sizeof(*lp));
	/* Each region is below 2^63 (the plan), but many files' sum may not be. */
	for (i = 0; i < w->files.n; i++)
		if (__builtin_add_overflow(region, w->files.v[i].len, &region))
			region = UINT64_MAX;
	/* As fio: with filesize sizing the files, size is the I/O to do, up
	 * to the files' size (fio caps size at it). */
	if (job->filesize_min && job->size.val && !job->size.pct && job->size.val < region)
		region = job->size.val;
	if (job->io_size.val && !job->io_size.pct)
		region = job->io_size.val;
	else if (job->io_size.pct)
		region = plan_pct(region, job->io_size.val);
	/* A product past 2^64 bytes is no limit at all, not a wrapped one. */
	if (job->time_based || (w->eng.ops->flags & ENGINE_F_NOIO) ||
	    __builtin_mul_overflow(region, job->loops, &lp->limit))
		lp->limit = UINT64_MAX;
	/* trimwrite: each block is trimmed and written, twice the bytes, as fio. */
	if (job_does(job, DDIR_TRIM) && job_does(job, DDIR_WRITE) &&
	    __builtin_mul_overflow(lp->limit, 2, &lp->limit))
		lp->limit = UINT64_MAX;
	/* As fio: number_ios counts every loop's I/Os against number_ios
	 * times loops (twice that with trimwrite), and time_based ignores it. */
	if (!job->number_ios || job->time_based ||
	    __builtin_mul_overflow(job->number_ios, job->loops, &lp->ios_left) ||
	    (job_does(job, DDIR_TRIM) && job_does(job, DDIR_WRITE) &&
	     __builtin_mul_overflow(lp->ios_left, 2, &lp->ios_left)))
		lp->ios_left = UINT64_MAX;
	/* unlink_each_loop's loops: a trimwrite loop has twice the bytes too. */
	if (!(job_does(job, DDIR_TRIM) && job_does(job, DDIR_WRITE)) ||
	    __builtin_mul_overflow(region, 2, &lp->loop_bytes))
		lp->loop_bytes = region;
	lp->next_loop = job->unlink_each_loop && region ? lp->loop_bytes : UINT64_MAX;
	lp->ramp_end = now + job->ramp_time;
	lp->deadline = job->runtime ? lp->ramp_end + job->runtime : UINT64_MAX;
	lp->t_measure = lp->ramp_end;
	lp->now = now;
	lp->batch = job->iodepth_batch_submit ? job->iodepth_batch_submit : w->eng.depth;
	lp->low = job->iodepth_low && job->iodepth_low < w->eng.depth ? job->iodepth_low
								      : w->eng.depth;
	lp->think_t = now;
	lp->reap_max = job->iodepth_batch_complete_max > job->iodepth_batch_complete_min
			       ? job->iodepth_batch_complete_max
			       : job->iodepth_batch_complete_min;
	lp->dry = job->verify_only && job_does(job, DDIR_WRITE);
	lp->sync_every = job->fsync ? job->fsync : job->fdatasync;
	lp->publish_each = job->ss_dur >= 1000000000ull;
	lp->qd = w->eng.depth;
	/* As fio: only writes and trims at a depth above 1 are held back. */
	if (job->serialize_overlap && w->eng.depth > 1 &&
	    (job_does(job, DDIR_WRITE) || job_does(job, DDIR_TRIM)))
		lp->busy = xcalloc(w->eng.depth, 1);
	lp->lt_on = job->latency_target != 0;
	if (lp->lt_on) {
		lat_target_init(&lp->lt, w->eng.depth, now, 0);
		lp->qd = lp->lt.qd;
	}
	lp->sync_op = job->fsync ? IO_OP_FSYNC : IO_OP_FDATASYNC;
	if (job->sfr_nr && !lp->sync_every) { /* job.c allows one kind */
		lp->sync_every = job->sfr_nr;
		lp->sync_op = IO_OP_SYNC_FILE_RANGE;
	}
	w->sfr_lo = UINT64_MAX;
	w->sfr_hi = 0;
	timed = lat_timed(w);
	lp->want_lat = timed & STATS_H_LAT;
	lp->want_clat = timed & STATS_H_CLAT;
	lp->want_slat = timed & STATS_H_SLAT;
	/* fio reads no start with disable_lat and then reports a slat from a
	 * stale one; here slat keeps its start.  The per-I/O bandwidth log
	 * takes its interval from clat's two times, as fio's. */
	bw_each = w->iv.log_each && job->write_bw_log && !job->disable_bw;
	lp->time_start = lp->want_lat || lp->want_slat;
	/* A sync engine's issue is its start (stamped just before ->queue, as
	 * fio's issue_time): without a read of its own, clat would run from
	 * the previous completion. */
	if (w->eng.ops->flags & ENGINE_F_SYNC)
		lp->time_start |= lp->want_clat || bw_each;
	lp->time_issue = lp->want_clat || lp->want_slat || bw_each;
	lp->time_done = lp->want_lat || lp->want_clat || bw_each;
	for (i = 0; i < DDIR_COUNT; i++)
		lp->min_rate |= job->rate_min[i] || job->rate_iops_min[i];
	/* As fio's td->ioprio: 0 (none) unless prio or prioclass is given. */
	lp->ioprio = job->ioprio_set ? (uint16_t)worker_ioprio_value(job->prioclass, job->prio) : 0;
	for (i = 0; i < DDIR_COUNT; i++) {
		if (job_rate_in_iops(job, i))
			lp->rate.ns_per_io[i] = 1e9 / (double)job->rate_iops[i];
		else if (job->rate[i])
			lp->rate.ns_per_byte[i] = 1e9 / (double)job->rate[i];
		lp->rate.due[i] = now;
		lp->rate.on |= job->rate_iops[i] || job->rate[i];
	}
}

/* The windows open (after ramp_time), and the status line learns the
 * clone's start and limit. */
static void windows_init(struct worker *w, const struct loop *lp)
{
	atomic_store_explicit(&w->prog->limit, lp->limit, memory_order_relaxed);
	atomic_store_explicit(&w->prog->t_start, lp->now, memory_order_relaxed);
	interval_start(&w->iv, &w->stats, lp->now, lp->ramp_end);
}

/* The logs' partial windows written, and the progress published. */
static void windows_end(struct worker *w, const struct loop *lp, uint64_t now)
{
	interval_end(&w->iv, &w->stats, now, lp->ramp_end);
	publish(w, lp);
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000;
}

static void rusage_delta(struct run_rusage *out, const struct rusage *a, const struct rusage *b)
{
	out->usr = tv_ns(&b->ru_utime) - tv_ns(&a->ru_utime);
	out->sys = tv_ns(&b->ru_stime) - tv_ns(&a->ru_stime);
	out->ctx = (uint64_t)(b->ru_nvcsw - a->ru_nvcsw) + (uint64_t)(b->ru_nivcsw - a->ru_nivcsw);
	out->majf = (uint64_t)(b->ru_majflt - a->ru_majflt);
	out->minf = (uint64_t)(b->ru_minflt - a->ru_minflt);
}

/*
 * latency_target, after a round of the loop: what an I/O over the target
 * asked for, or the window's verdict.  A lower depth waits for the I/Os
 * in flight first, as fio's; the last window starts with fresh stats
 * (the report is of it alone, as fio's); the end stops new I/O.
 */
static void lat_target_step(struct worker *w, struct loop *lp)
{
	const struct job *job = w->job;
	enum lat_target_act act = lp->lt_act;
	uint64_t now = run_now();

	lp->lt_act = LT_NONE;
	if (act == LT_NONE && now >= lp->ramp_end)
		act = lat_target_check(&lp->lt, now, lp->lt_ios, job->latency_window,
				       job->latency_percentile, job->latency_run);
	if (act == LT_DONE) {
		lp->limit = lp->issued;
	} else if (act == LT_QUIESCE || act == LT_FINAL) {
		quiesce(w, lp);
		now = run_now();
		if (act == LT_FINAL) {
			stats_free(&w->stats);
			stats_init(&w->stats);
			hists_prepare(w);
			lp->ramp_end = lp->t_measure = now;
			interval_start(&w->iv, &w->stats, w->iv.t0, now);
			publish(w, lp);
		}
		lat_target_cycle(&lp->lt, now, lp->lt_ios);
	}
	lp->qd = lp->lt.qd;
}

/* write_iolog's file, after the run; a failure is the job's error. */
static void trace_write(struct worker *w, uint64_t t0, uint64_t t_end)
{
	const char **paths = xcalloc(w->files.n ? w->files.n : 1, sizeof(*paths));
	char *cause = NULL;
	unsigned i;
	int ret;

	for (i = 0; i < w->files.n; i++)
		paths[i] = w->files.v[i].path;
	ret = iotrace_write(&w->trace, w->job->write_iolog, paths, w->files.n, t0, t_end, &cause);
	free(paths);
	if (ret && !w->error) {
		w->error_no = -ret;
		w->error = cause;
	} else {
		free(cause);
	}
}

void worker_run(struct worker *w)
{
	const struct job *job = w->job;
	struct rusage ru0, ru1;
	struct loop lp;
	uint64_t now = run_now(), min, t0 = now;
	unsigned i;

	/* The job's time starts before its files' cache is dropped, as fio's
	 * runtime does (it invalidates as it opens them, in the measured
	 * time): the drop writes back the dirty pages first, which can take
	 * as long as the I/O that follows. */
	getrusage(RUSAGE_THREAD, &ru0);
	/* Dropped as the job starts, not at set-up: an earlier job may have
	 * filled the cache since. */
	if (job->invalidate && !job->pre_read && !(w->eng.ops->flags & ENGINE_F_NOFILES))
		for (i = 0; i < w->files.n; i++)
			posix_fadvise(w->files.v[i].fd, (off_t)w->files.v[i].start,
				      (off_t)w->files.v[i].len, POSIX_FADV_DONTNEED);
	/* fadvise_hint, fio's default: random access (no read-ahead) for a
	 * random job, sequential (more of it) for the others. */
	if (job->fadvise_hint != FADV_HINT_NONE && !(w->eng.ops->flags & ENGINE_F_NOFILES))
		for (i = 0; i < w->files.n; i++)
			posix_fadvise(w->files.v[i].fd, (off_t)w->files.v[i].start,
				      (off_t)w->files.v[i].len,
				      job->fadvise_hint == FADV_HINT_RANDOM ||
						      (job->fadvise_hint == FADV_HINT_WORKLOAD &&
						       job_is_random(job->rw))
					      ? POSIX_FADV_RANDOM
					      : POSIX_FADV_SEQUENTIAL);
	loop_init(w, &lp, now);
	worker_verify_start(w);
	if (job->create_only)
		lp.limit = 0; /* the files are laid out: that was all */
	/* The log's times count from here; replay_no_stall drops them. */
	if (w->replay.n && !job->replay_no_stall)
		w->replay_t0 = lp.now ? lp.now : 1;
	/* Pacing sleeps: wake when asked, not up to 50 us later. */
	if (lp.rate.on || job->thinktime || w->eng.think || job->read_iolog)
		(void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	windows_init(w, &lp);
	for (;;) {
		/* The last completion's clock read serves: no extra read per I/O. */
		if (worker_stopped(w) || w->error || lp.now >= lp.deadline)
			break;
		if (lp.min_rate && lp.now >= lp.ramp_end && min_rate_failed(w, &lp))
			break;
		/* As fio: trims trim_percentage owes still go out. */
		if (!w->held && lp.issued >= lp.limit && !lp.inflight && !w->v.trim_left)
			break;
		fill(w, &lp);
		if (lp.queued && !w->error)
			commit(w, &lp);
		if (lp.think && !w->error) {
			think(w, &lp);
			continue;
		}
		if (lp.flow_wait && !w->error) {
			flow_wait(w, &lp);
			continue;
		}
		if (lp.reloop && !w->error) {
			reloop(w, &lp);
			continue;
		}
		if (lp.backlog && !w->error) {
			verify_pass(w, &lp, VERIFY_PASS_BATCH);
			continue;
		}
		if (w->held && !w->held->t_start && !w->error) {
			wait_until(w, &lp, w->held->t_intended);
			continue;
		}
		if (lp.inflight && !w->error) {
			bool full = lp.inflight >= w->eng.depth;

			min = job->iodepth_batch_complete_min;
			/* 0 (iodepth_batch_complete_min=0) polls without waiting. */
			reap(w, &lp, (unsigned)(min < lp.inflight ? min : lp.inflight));
			/* iodepth_low, as fio's wait_for_completions: a full queue
			 * drains to it, a completion at a time, before it is filled. */
			while (full && lp.inflight > lp.low && !w->error && reap(w, &lp, 1) > 0)
				;
			/* thinktime_blocks of completions may have come in. */
			if (job->thinktime && job->thinktime_blocks_type == THINK_COMPLETE &&
			    !w->error && think_due(w, &lp)) {
				think(w, &lp);
				continue;
			}
		}
		if (lp.lt_on && !w->error)
			lat_target_step(w, &lp);
	}
	quiesce(w, &lp); /* after Ctrl-C and errors too */
	free(lp.busy);
	lp.busy = NULL;
	if (lp.lt_on)
		w->stats.latency_depth = lp.qd;
	/* As fio: the read-back of what was written, once the write phase
	 * has run to its end; not when time_based or the runtime ended it. */
	if (w->v.stamp && job->do_verify && !job->time_based && !worker_stopped(w) && !w->error) {
		if (lp.issued < lp.limit)
			w->stats.verify_cut = 1;
		else
			verify_pass(w, &lp, w->v.ring ? VERIFY_PASS_RING : VERIFY_PASS_MAP);
	}
	worker_verify_finish(w);
	worker_flow_leave(w);
	now = run_now();
	w->stats.elapsed = now > lp.t_measure ? now - lp.t_measure : 0;
	w->stats.runtime_sum = w->stats.elapsed / 1000000;
	windows_end(w, &lp, now);
	if (w->trace.on)
		trace_write(w, t0, now);
	getrusage(RUSAGE_THREAD, &ru1);
	rusage_delta(&w->stats.ru, &ru0, &ru1);
	/* Outside the measured time, as fio's end_fsync and fsync_on_close. */
	if ((job->end_fsync || job->fsync_on_close) && !w->error && job_does(job, DDIR_WRITE) &&
	    !(w->eng.ops->flags & ENGINE_F_NOFILES))
		for (i = 0; i < w->files.n; i++)
			if (w->files.v[i].fd >= 0 && fsync(w->files.v[i].fd) < 0 && !w->error) {
				w->error_no = errno;
				w->error = xasprintf("%s: fsync at the end: %s", w->files.v[i].path,
						     strerror(w->error_no));
			}
}
