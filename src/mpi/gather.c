/* SPDX-License-Identifier: MIT */
/*
 * The reduction: every rank sends rank 0 its clones' counters and full
 * latency histograms (stats_save's bytes: the same bucket layout on every
 * rank), or why its run could not start; rank 0 adds each clone's into
 * its own clone of the same job and number, as numjobs clones are added,
 * so that every percentile is read from the summed histogram.  Each
 * rank's own results are kept for the per-host and per-rank rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "mpi/comm.h"
#include "mpi/logmerge.h"
#include "mpi/mpi.h"
#include "mpi/ranks.h"
#include "run/run.h"
#include "util/util.h"

#define WIRE_MAGIC 0x696f67617567650aull /* "iogauge\n" */
#define NO_STRING  UINT64_MAX

static struct run_ranks gathered;

/* All @n bytes of @p to @fd: 0, or -errno. */
static int put(int fd, const void *p, size_t n)
{
	const char *c = p;
	ssize_t w;

	for (; n; c += w, n -= (size_t)w)
		if ((w = write(fd, c, n)) <= 0)
			return w < 0 ? -errno : -EIO;
	return 0;
}

static int put_u64(int fd, uint64_t v)
{
	return put(fd, &v, sizeof(v));
}

static int put_str(int fd, const char *s)
{
	int ret = put_u64(fd, s ? strlen(s) : NO_STRING);

	return ret || !s ? ret : put(fd, s, strlen(s));
}

static int get(int fd, void *p, size_t n)
{
	char *c = p;
	ssize_t r;

	for (; n; c += r, n -= (size_t)r)
		if ((r = read(fd, c, n)) <= 0)
			return r < 0 ? -errno : -EIO;
	return 0;
}

static int get_u64(int fd, uint64_t *v)
{
	return get(fd, v, sizeof(*v));
}

/* A string put_str wrote (NULL for none) into *s; free it. */
static int get_str(int fd, char **s)
{
	uint64_t n;
	int ret = get_u64(fd, &n);

	*s = NULL;
	if (ret || n == NO_STRING)
		return ret;
	if (n > 1u << 20)
		return -EIO;
	*s = xmalloc(n + 1);
	(*s)[n] = '\0';
	return get(fd, *s, n);
}

/* This rank's outcome as bytes in a memfd: @ret and @cause when its run
 * could not start, else each clone's.  The fd, or -errno. */
static int encode(int ret, const char *cause, const struct run *run)
{
	unsigned nr = ret ? 0 : run->nr, i;
	int fd = memfd_create("iogauge-rank", MFD_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = put_u64(fd, WIRE_MAGIC);
	if (!err)
		err = put_u64(fd, (uint64_t)mpi_world.end_real);
	if (!err)
		err = put_u64(fd, ret ? 1 : run->interrupted);
	if (!err)
		err = put_u64(fd, (uint64_t)(int64_t)ret);
	if (!err)
		err = put_str(fd, ret ? cause : NULL);
	if (!err)
		err = put_str(fd, mpi_host());
	if (!err)
		err = put_u64(fd, ret ? 0 : run->duration);
	if (!err)
		err = put_u64(fd, (uint64_t)mpi_world.start_real);
	if (!err)
		err = put_u64(fd, nr);
	for (i = 0; i < nr && !err; i++) {
		const struct run_result *r = &run->results[i];

		err = put_u64(fd, r->job_index);
		if (!err)
			err = put_u64(fd, r->clone);
		if (!err)
			err = put_u64(fd, (uint64_t)(int64_t)r->error_no);
		if (!err)
			err = put_str(fd, r->error);
		if (!err)
			err = stats_save(&r->stats, fd);
		if (!err)
			err = mpi_logs_put(fd, r);
	}
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* Rank 0: @fd (decode's bytes from rank @rank) into @rr, clone by clone
 * against @run's.  0, or -EIO with *why. */
static int decode(int fd, const struct run *run, struct rank_run *rr, char **why)
{
	uint64_t magic, ret, nr, job_index, clone, error_no, start, end, stopped;
	unsigned i, k;
	int err;

	err = get_u64(fd, &magic);
	if (!err && magic != WIRE_MAGIC)
		err = -EIO;
	if (!err)
		err = get_u64(fd, &end);
	if (!err)
		err = get_u64(fd, &stopped);
	if (!err)
		err = get_u64(fd, &ret);
	if (!err)
		err = get_str(fd, &rr->error);
	if (!err)
		err = get_str(fd, &rr->host);
	if (!err)
		err = get_u64(fd, &rr->duration);
	if (!err)
		err = get_u64(fd, &start);
	if (!err)
		err = get_u64(fd, &nr);
	if (err) {
		*why = xasprintf("its result could not be read: %s", strerror(-err));
		return -EIO;
	}
	mpi_clock_of((int)rr->rank, &rr->clock_offset_ns, &rr->rtt_ns);
	/* On rank 0's clock, against rank 0's own start. */
	rr->done_ns = -1;
	rr->stopped = stopped != 0;
	if (start && mpi_world.start_real) {
		rr->start_skew_ns = (int64_t)start - rr->clock_offset_ns - mpi_world.start_real;
		rr->done_ns = (int64_t)end - rr->clock_offset_ns - mpi_world.start_real;
	}
	if (ret && !rr->error)
		rr->error = xasprintf("its run could not start: %s", strerror((int)-(int64_t)ret));
	if (nr && nr != run->nr) {
		*why = xasprintf(
			"it ran %llu job clones, rank 0 ran %u: are the job files the same?",
			(unsigned long long)nr, run->nr);
		return -EIO;
	}
	rr->results = nr ? xcalloc(nr, sizeof(*rr->results)) : NULL;
	rr->nr = (unsigned)nr;
	for (i = 0; i < nr; i++) {
		struct run_result *r = &rr->results[i];
		const struct run_result *own = &run->results[i];

		stats_init(&r->stats);
		err = get_u64(fd, &job_index);
		if (!err)
			err = get_u64(fd, &clone);
		if (!err)
			err = get_u64(fd, &error_no);
		if (!err)
			err = get_str(fd, &r->error);
		if (!err)
			err = stats_load(&r->stats, fd);
		if (!err) /* its start put on rank 0's clock */
			err = mpi_logs_get(fd, r, rr->clock_offset_ns);
		if (err)
			*why = xasprintf("its result could not be read: %s", strerror(-err));
		else if (job_index != own->job_index || clone != own->clone)
			*why = xasprintf("its clone %u is job %llu clone %llu, rank 0's job %u "
					 "clone %u: are the job files the same?",
					 i, (unsigned long long)job_index,
					 (unsigned long long)clone, own->job_index, own->clone);
		if (err || job_index != own->job_index || clone != own->clone) {
			/* None of it counts: what was read is dropped, so that
			 * no clone of another job is summed (or reported). */
			for (k = 0; k <= i; k++) {
				stats_free(&rr->results[k].stats);
				run_logs_free(rr->results[k].logs);
				free(rr->results[k].error);
			}
			free(rr->results);
			rr->results = NULL;
			rr->nr = 0;
			return -EIO;
		}
		r->error_no = (int)(int64_t)error_no;
		r->job = own->job;
		r->job_index = own->job_index;
		r->clone = own->clone;
		r->group = own->group;
		r->engine = own->engine;
		r->depth = own->depth;
	}
	return 0;
}

/*
 * The result travels compressed (its raw length, then zlib's bytes): it
 * is mostly zeros, and a few KiB of them made it pass the shared-memory
 * transport's eager limit (4 KiB), so that each sender had to be woken to
 * hand it over; 64 ranks on 2 CPUs took 0.1 s for that.  0, or -EIO.
 */
static int deflate_buf(const char *raw, size_t len, char **out, size_t *out_len)
{
	uLongf n = compressBound((uLong)len);
	uint64_t raw_len = len;

	*out = xmalloc(sizeof(raw_len) + n);
	memcpy(*out, &raw_len, sizeof(raw_len));
	if (compress2((Bytef *)*out + sizeof(raw_len), &n, (const Bytef *)raw, (uLong)len, 1) !=
	    Z_OK) {
		free(*out);
		*out = NULL;
		return -EIO;
	}
	*out_len = sizeof(raw_len) + n;
	return 0;
}

/* deflate_buf's @n bytes at @p, inflated, written to @fd.  0, or -EIO. */
static int inflate_to(int fd, const char *p, size_t n)
{
	uint64_t raw_len;
	uLongf got;
	char *raw;
	int ret;

	if (n < sizeof(raw_len))
		return -EIO;
	memcpy(&raw_len, p, sizeof(raw_len));
	if (raw_len > 1u << 30)
		return -EIO;
	got = (uLongf)raw_len;
	raw = xmalloc(raw_len ? raw_len : 1);
	ret = uncompress((Bytef *)raw, &got, (const Bytef *)p + sizeof(raw_len),
			 (uLong)(n - sizeof(raw_len))) == Z_OK &&
			      got == raw_len
		      ? put(fd, raw, raw_len)
		      : -EIO;
	free(raw);
	return ret;
}

/* @rank's message (*st) received and decoded into @rr.  0, or -EIO
 * with *why. */
static int receive(const MPI_Status *st, const struct run *run, struct rank_run *rr, char **why)
{
	char *buf;
	int count = 0, rc, fd, ret;

	MPI_Get_count(st, MPI_BYTE, &count);
	buf = xmalloc(count ? (size_t)count : 1);
	pthread_mutex_lock(&mpi_world.lock);
	rc = MPI_Recv(buf, count, MPI_BYTE, st->MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
		      MPI_STATUS_IGNORE);
	pthread_mutex_unlock(&mpi_world.lock);
	fd = memfd_create("iogauge-rank", MFD_CLOEXEC);
	if (rc != MPI_SUCCESS || fd < 0 || inflate_to(fd, buf, (size_t)count) ||
	    lseek(fd, 0, SEEK_SET) != 0) {
		*why = xasprintf("its result could not be received");
		ret = -EIO;
	} else {
		uint64_t t = mpi_now();

		ret = decode(fd, run, rr, why);
		gathered.add_ns += mpi_now() - t;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

/* An I/O error ended one of @run's jobs. */
static bool io_error(const struct run *run)
{
	unsigned i;

	for (i = 0; i < run->nr; i++)
		if (run->results[i].error)
			return true;
	return false;
}

/* A rank other than 0: its outcome to rank 0, then rank 0's last word
 * awaited (everything rank 0 sent before it is read and dropped), for as
 * long as rank 0's heartbeat goes on: it may be waiting for a slower rank. */
static void send_to_root(int ret, const char *cause, const struct run *run, bool done_first)
{
	struct timespec nap = { 0, 200000 };
	MPI_Request req;
	MPI_Status st;
	char *buf = NULL;
	off_t len = 0;
	int fd, done = 0, v;
	bool failed = ret || io_error(run);

	/* An I/O error ended one of its jobs: the others stop now, not at
	 * their own end (its text travels in the result). */
	if ((failed || done_first) && !atomic_load(&mpi_world.aborted))
		mpi_send_int(0, TAG_FAIL, mpi_world.rank | (failed ? 0 : FAIL_DONE));
	fd = encode(ret, cause, run);
	if (fd >= 0) {
		len = lseek(fd, 0, SEEK_END);
		buf = len > 0 && len < INT32_MAX ? xmalloc((size_t)len) : NULL;
		if (buf && pread(fd, buf, (size_t)len, 0) != len)
			len = 0;
		close(fd);
	}
	if (buf) {
		char *packed;
		size_t plen;

		if (deflate_buf(buf, (size_t)len, &packed, &plen) == 0) {
			free(buf);
			buf = packed;
			len = (off_t)plen;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	if (!buf)
		len = 0; /* an empty result: rank 0 names this rank */
	pthread_mutex_lock(&mpi_world.lock);
	done = MPI_Isend(buf, (int)len, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD, &req) !=
	       MPI_SUCCESS;
	pthread_mutex_unlock(&mpi_world.lock);
	while (!done && !mpi_beat_lost(0)) {
		pthread_mutex_lock(&mpi_world.lock);
		mpi_beat_drain_locked();
		if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			done = 1;
		pthread_mutex_unlock(&mpi_world.lock);
		if (!done)
			nanosleep(&nap, NULL);
	}
	if (!done) {
		mpi_world.must_abort = true;
		free(buf);
		return;
	}
	free(buf);
	while (mpi_wait_alive(0, MPI_ANY_TAG, &st, NULL, NULL, NAP_IDLE) == 1) {
		mpi_recv_int(&st, &v);
		if (st.MPI_TAG == TAG_FINAL)
			return;
	}
	mpi_world.must_abort = true;
}

static void stats_copy(struct run_stats *dst, const struct run_stats *src)
{
	stats_init(dst);
	stats_merge(dst, src);
	dst->latency_depth = src->latency_depth;
	dst->ioprio = src->ioprio;
}

/* Rank 0's own results, copied before the others are added to them. */
static void keep_own(const struct run *run, struct rank_run *rr)
{
	unsigned i;

	rr->host = xstrdup(mpi_host());
	rr->duration = run->duration;
	rr->stopped = run->interrupted;
	rr->done_ns = mpi_world.start_real ? mpi_world.end_real - mpi_world.start_real : -1;
	rr->nr = run->nr;
	rr->results = xcalloc(run->nr ? run->nr : 1, sizeof(*rr->results));
	for (i = 0; i < run->nr; i++) {
		rr->results[i] = run->results[i];
		rr->results[i].error =
			run->results[i].error ? xstrdup(run->results[i].error) : NULL;
		rr->results[i].first_error = NULL;
		rr->results[i].logs = NULL;
		rr->results[i].ss = NULL;
		stats_copy(&rr->results[i].stats, &run->results[i].stats);
	}
}

/*
 * After a stop signal from outside (mpirun's SIGTERM, as it ends the job
 * when a rank died or on Ctrl-C), the results are waited for half of
 * mpirun's wait before its SIGKILL (odls_base_sigkill_timeout, 1 s by
 * default, which mpirun passes to the ranks when it is given): the
 * report must be written before that.  The live ranks, stopped by the
 * same signal, answer in milliseconds on an idle host.
 */
static uint64_t signal_grace_ns(void)
{
	const char *v = getenv("OMPI_MCA_odls_base_sigkill_timeout");
	int s = v ? atoi(v) : 0;

	return (s > 0 && s < 3600 ? (uint64_t)s : 1) * 500000000ull;
}

/* Rank 0: every other rank's outcome, in rank order, waited for while
 * the rank beats: a rank slower than rank 0 is waited for to its end. */
static void gather_all(const struct run *run, struct strbuf *failed)
{
	uint64_t t0 = mpi_now(), t, grace = 0;
	bool *got = xcalloc((size_t)mpi_world.size, sizeof(*got));
	bool *awaited = xcalloc((size_t)mpi_world.size, sizeof(*awaited));
	bool *lost = xcalloc((size_t)mpi_world.size, sizeof(*lost));
	int r, v, need = mpi_world.size - 1, in;
	struct rank_run *rr;
	MPI_Status st;
	char *why;

	for (r = 1; r < mpi_world.size; r++) {
		gathered.v[r].rank = (unsigned)r;
		awaited[r] = true;
	}
	/* Whichever rank's message comes first: one slow rank does not hold
	 * up the others' transfers.  Each rank's own messages come in order. */
	if (mpi_world.stop && atomic_load(mpi_world.stop) && !atomic_load(&mpi_world.stop_ours))
		grace = t0 + signal_grace_ns();
	while (need > 0) {
		in = grace ? mpi_wait_msg(MPI_ANY_SOURCE, MPI_ANY_TAG, &st, grace, NULL, NAP_GATE)
			   : mpi_wait_alive(MPI_ANY_SOURCE, MPI_ANY_TAG, &st, awaited, NULL,
					    NAP_GATE);
		if (in < 0)
			break;
		/* Its heartbeat stopped (stopped, hung, or gone), or the grace
		 * after a stop signal is over: looked at whatever came, as the
		 * others' messages may keep coming. */
		for (r = 1; r < mpi_world.size; r++)
			if (awaited[r] && ((grace && in == 0) || mpi_beat_lost(r))) {
				awaited[r] = false;
				lost[r] = true;
				mpi_beat_drop(r);
				need--;
				mpi_abort_all();
			}
		if (in == 0)
			continue;
		r = st.MPI_SOURCE;
		if (st.MPI_TAG != TAG_RESULT || r <= 0 || r >= mpi_world.size || !awaited[r]) {
			/* A gate it reached, a beat, or a failure told before its result. */
			mpi_recv_int(&st, &v);
			if (st.MPI_TAG == TAG_FAIL)
				mpi_abort_all();
			continue;
		}
		rr = &gathered.v[r];
		why = NULL;
		t = mpi_now();
		if (receive(&st, run, rr, &why) == 0 && rr->error)
			mpi_abort_all(); /* it could not start: nor do the rest */
		gathered.sum_ns += mpi_now() - t;
		gathered.wait_ns = t - t0;
		if (why) {
			free(rr->error);
			rr->error = why;
		}
		got[r] = true;
		awaited[r] = false;
		need--;
	}
	for (r = 1; r < mpi_world.size; r++) {
		rr = &gathered.v[r];
		if (!got[r]) {
			free(rr->error);
			if (mpi_rank_gone(r))
				rr->error = xasprintf("its process is gone: killed or crashed "
						      "(mpirun's own message names the signal)");
			else if (lost[r] && grace)
				rr->error = xasprintf(
					"sent no result within %g s of the stop signal: "
					"gone (mpirun stops every rank when one dies), or late",
					(double)signal_grace_ns() / 1e9);
			else if (lost[r])
				rr->error = xasprintf(
					"sent no result: its heartbeat stopped for %g s "
					"(IOGAUGE_MPI_HEARTBEAT): the rank is stopped, hung or gone",
					mpi_beat_limit_s());
			else
				rr->error = xasprintf("sent no result: an MPI call failed");
			mpi_world.must_abort = true;
		}
		if (!rr->host)
			rr->host = xstrdup(mpi_host_of(r));
	}
	free(awaited);
	free(lost);
	free(got);
	for (r = 1; r < mpi_world.size; r++)
		if (!mpi_beat_dropped(r))
			mpi_send_int(r, TAG_FINAL, 0);
	for (r = 1; r < mpi_world.size; r++) {
		unsigned i;

		rr = &gathered.v[r];
		if (rr->error)
			strbuf_addf(failed, "%srank %d (%s): %s", failed->len ? "\n" : "", r,
				    rr->host, rr->error);
		for (i = 0; i < rr->nr; i++)
			if (rr->results[i].error)
				strbuf_addf(failed, "%srank %d (%s): [%s] %s",
					    failed->len ? "\n" : "", r, rr->host,
					    rr->results[i].job->name, rr->results[i].error);
	}
}

/* Each rank's clones added into rank 0's @run, and the hosts counted. */
static void reduce(struct run *run)
{
	unsigned r, i, k;

	for (r = 1; r < gathered.n; r++) {
		const struct rank_run *rr = &gathered.v[r];

		for (i = 0; i < rr->nr; i++)
			stats_merge(&run->results[i].stats, &rr->results[i].stats);
		if (rr->duration > run->duration)
			run->duration = rr->duration;
	}
	for (r = 0; r < gathered.n; r++) {
		for (k = 0; k < r && strcmp(gathered.v[k].host, gathered.v[r].host); k++)
			;
		gathered.hosts += k == r;
	}
	run->ranks = &gathered;
}

int mpi_run_end(int ret, const char *cause, struct run *run, bool per_rank, char **failed)
{
	struct strbuf sb = { 0 };
	bool done_first;

	*failed = NULL;
	if (!mpi_world.on || mpi_world.size < 2)
		return ret;
	/* When its last clone's I/O ended, not when its clones were joined. */
	mpi_world.end_real = ret ? mpi_realtime() : mpi_io_end_real(run);
	/* --rank-stonewall: a rank that ran its jobs to their end stops the rest. */
	done_first = mpi_world.rank_stonewall && !ret && !run->interrupted;
	mpi_watch_end();
	if (mpi_world.rank) {
		send_to_root(ret, cause, run, done_first);
		return ret;
	}
	if (done_first && !atomic_load(&mpi_world.aborted))
		atomic_store(&mpi_world.stonewalled, true);
	if (ret || done_first || io_error(run))
		mpi_abort_all(); /* an I/O error stops the others now */
	gathered.n = (unsigned)mpi_world.size;
	gathered.v = xcalloc(gathered.n, sizeof(*gathered.v));
	gathered.per_rank = per_rank;
	gathered.rank_stonewall = mpi_world.rank_stonewall;
	if (!ret)
		keep_own(run, &gathered.v[0]);
	else
		gathered.v[0].host = xstrdup(mpi_host());
	gather_all(ret ? &(struct run){ 0 } : run, &sb);
	if (!ret) {
		uint64_t t = mpi_now();

		reduce(run);
		mpi_logs_merge(run, gathered.v, gathered.n);
		gathered.sum_ns += mpi_now() - t;
		gathered.add_ns += mpi_now() - t;
		/* Stopped by the rank stonewall only: the run ended as asked. */
		gathered.stonewalled = atomic_load(&mpi_world.stonewalled);
		if (gathered.stonewalled && atomic_load(&mpi_world.stop_ours))
			run->interrupted = false;
	}
	*failed = sb.len ? strbuf_detach(&sb) : NULL;
	strbuf_free(&sb);
	return ret;
}

void mpi_gathered_free(void)
{
	unsigned r, i;

	for (r = 0; r < gathered.n; r++) {
		struct rank_run *rr = &gathered.v[r];

		for (i = 0; i < rr->nr; i++) {
			free(rr->results[i].error);
			stats_free(&rr->results[i].stats);
			run_logs_free(rr->results[i].logs);
		}
		free(rr->results);
		free(rr->host);
		free(rr->error);
	}
	free(gathered.v);
	memset(&gathered, 0, sizeof(gathered));
	mpi_clock_free();
}
