/* SPDX-License-Identifier: MIT */
/*
 * The worker's life around its I/O loop: the engine, buffers, histograms
 * and files made and faulted in before the clock starts; the thread's
 * binding (CPUs, NUMA, ids, locked memory); and everything released after.
 * Allocation and errors are free here: none of it is timed.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jobfile/options.h"
#include "run/loop.h"
#include "run/run.h"
#include "run/worker.h"
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
unsigned worker_lat_timed(const struct worker *w)
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
void worker_hists_prepare(struct worker *w)
{
	const struct job *job = w->job;
	unsigned which = worker_lat_timed(w), d, k;
	bool dir[STAT_NR] = {
		[STAT_READ] = job_does(job, DDIR_READ) || w->v.stamp,
		[STAT_WRITE] = job_does(job, DDIR_WRITE),
		[STAT_TRIM] = job_does(job, DDIR_TRIM),
		[STAT_SYNC] = job->fsync || job->fdatasync || job->sfr_nr || job->read_iolog,
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
	worker_prio_stats(w, which);
	w->stats.act = act_new(job->act_slices, job->act_slice_ns);
}

void worker_prefault(struct worker *w)
{
	const struct job *job = w->job;
	unsigned i, k;

	touch(&w->stats, sizeof(w->stats));
	worker_hists_prepare(w);
	for (i = 0; w->wl.rmap && i < w->files.n; i++)
		if (w->wl.rmap[i]) /* NULL: softrandommap went on without it */
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
		ret = replay_load(&w->replay, job, cause);
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

/* @now: when the job started, before its files' cache was dropped. */
void loop_init(struct worker *w, struct loop *lp, uint64_t now)
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
	/* read_iolog: the log's bytes, whatever the layout rounded down to a
	 * block (a blktrace's 8k and 4k writes are 12k, not 8k). */
	if (w->replay.n)
		region = w->replay.bytes[0] + w->replay.bytes[1] + w->replay.bytes[2];
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
	lp->verify_each = w->v.stamp && job->do_verify && !job->time_based && job->loops > 1;
	lp->next_loop =
		(job->unlink_each_loop || lp->verify_each) && region ? lp->loop_bytes : UINT64_MAX;
	lp->ramp_end = now + job->ramp_time;
	lp->deadline = job->runtime ? lp->ramp_end + job->runtime : UINT64_MAX;
	/* MPI: on the agreed clock; a clone that starts late runs less. */
	if (w->t_from && w->t_from < now) {
		lp->ramp_end = w->t_from + job->ramp_time > now ? w->t_from + job->ramp_time : now;
		lp->deadline =
			job->runtime ? w->t_from + job->ramp_time + job->runtime : UINT64_MAX;
	}
	lp->t_measure = lp->ramp_end;
	lp->ramping = job->ramp_time > 0;
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
	timed = worker_lat_timed(w);
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
