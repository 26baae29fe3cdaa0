/* SPDX-License-Identifier: MIT */
/*
 * The worker's side of verify=: which blocks were written (a map of the
 * regions with each block's latest generation), which to read back (all
 * of them after the write phase, in fio's order, or the writes of a
 * verify_backlog), which to trim again (trim_percentage), what a read
 * finds (and verify_dump writes), and verify_state's file.  The I/O loop
 * in worker.c runs the passes; this file allocates only at set-up, when
 * the read-back starts (its order) and when it formats a mismatch.
 * verify_async.c has the checking threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobfile/options.h"
#include "verify/checksum.h"
#include "verify/verify.h"
#include "verify/worker_verify_int.h"
#include "run/trigger.h"
#include "run/worker.h"

/*
 * A map entry is gen << VMAP_GEN_SHIFT | units for the first unit of a
 * block, gen << VMAP_GEN_SHIFT for the others, 0 for a unit never written.
 * A block whose units no longer all carry its generation was partly
 * overwritten by a later block of another size: it cannot be checked.
 */
#define VMAP_GEN_SHIFT 24
#define VMAP_UNITS     ((1ull << VMAP_GEN_SHIFT) - 1)
/* The generation of a block trim_percentage trimmed: it reads as zeros. */
#define VMAP_TRIM_GEN ((1ull << (64 - VMAP_GEN_SHIFT)) - 1)

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The largest size every block offset and length in the regions is a
 * multiple of: the map's unit. */
static uint64_t map_unit(const struct worker *w)
{
	const struct job *job = w->job;
	uint64_t u = w->wl.unit;
	unsigned d, i;

	for (d = DDIR_READ; d <= DDIR_WRITE; d++) {
		if (!job_does(job, d))
			continue;
		if (job->nr_bssplit[d])
			for (i = 0; i < job->nr_bssplit[d]; i++)
				u = gcd(u, job->bssplit[d][i].bs);
		else
			u = gcd(u, job->bsrange_max[d] ? job->bsrange_min[d] : job->bs[d]);
	}
	if (job->rw_seq_add)
		u = gcd(u, (uint64_t)(job->rw_seq_add < 0 ? -job->rw_seq_add : job->rw_seq_add));
	return u;
}

/* verify_state_save, verify_state_load: iogauge's state file, named as
 * fio's (local-JOB-N-verify.state, N the clone's place in the run from 0,
 * in the current directory or --aux-path's): how many writes the clone had issued when
 * it ended.  Its own layout: fio's state files do not load here. */
struct vstate_file {
	char magic[8]; /* "IOGVSTAT" */
	uint32_t version;
	uint32_t crc; /* CRC-32C of the struct with this field zero */
	uint64_t writes;
};

static char *state_path(const struct worker *w)
{
	const char *dir = w->job->aux_path;

	return xasprintf("%s%slocal-%s-%u-verify.state", dir ? dir : "", dir ? "/" : "",
			 w->job->name, w->v.thread - 1);
}

static uint32_t state_crc(const struct vstate_file *f)
{
	struct vstate_file c = *f;

	c.crc = 0;
	return checksum_crc32c(0, &c, sizeof(c));
}

static int state_load(struct worker *w, char **cause)
{
	char *path = state_path(w);
	struct vstate_file f;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	ssize_t n = fd < 0 ? -1 : read(fd, &f, sizeof(f));

	if (n < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err) {
		set_cause_errno(cause, err,
				"[%s] verify_state_load: %s: %s (written by a run with "
				"verify_state_save=1; iogauge's default is 0)",
				w->job->name, path, strerror(err));
	} else if (n != (ssize_t)sizeof(f) || memcmp(f.magic, "IOGVSTAT", 8) || f.version != 1 ||
		   f.crc != state_crc(&f)) {
		err = EBADMSG;
		set_cause(cause,
			  "[%s] verify_state_load: %s is not an iogauge verify state, or is "
			  "damaged (fio's do not load here)",
			  w->job->name, path);
	} else {
		w->v.state_writes = f.writes;
		if (!f.writes)
			w->v.stamp = false; /* nothing was written: nothing to read back */
	}
	free(path);
	return -err;
}

/* verify_state_save: what the clone wrote, for a later verify_state_load. */
static void state_save(struct worker *w)
{
	/* The writes made, less one the loop held and never issued. */
	struct vstate_file f = { .magic = "IOGVSTAT",
				 .version = 1,
				 .writes = w->pl.writes - (w->held && w->held->op == IO_OP_WRITE) };
	char *path = state_path(w);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644), err = 0;

	f.crc = state_crc(&f);
	if (fd < 0 || write(fd, &f, sizeof(f)) != (ssize_t)sizeof(f))
		err = errno ? errno : EIO;
	if (fd >= 0 && close(fd) && !err)
		err = errno;
	if (err && !w->error) {
		w->error_no = err;
		w->error = xasprintf("%s: verify_state_save: %s", path, strerror(err));
	}
	free(path);
}

int worker_verify_setup(struct worker *w, uint64_t max_bs, unsigned thread, char **cause)
{
	const struct job *job = w->job;
	struct worker_verify *v = &w->v;
	uint64_t avail = (uint64_t)sysconf(_SC_AVPHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	unsigned i;

	v->thread = thread;
	if (job->verify == VERIFY_NONE)
		return 0;
	v->stamp = job_does(job, DDIR_WRITE) && verify_writes_block(job->verify);
	v->check_reads = !job_does(job, DDIR_WRITE) && verify_writes_block(job->verify);
	if (!v->stamp)
		return 0;
	/* verify_stamp makes the contents: the pattern, or its random bytes. */
	w->pl.refill = w->pl.scramble = false;
	v->unit = map_unit(w);
	v->base = xcalloc(w->files.n + 1, sizeof(*v->base));
	for (i = 0; i < w->files.n; i++)
		v->base[i + 1] = v->base[i] + w->files.v[i].len / v->unit;
	v->n = v->base[w->files.n];
	if (max_bs / v->unit > VMAP_UNITS || v->n > avail / 2 / sizeof(*v->map))
		return set_cause(cause,
				 "[%s] verify: keeping the generation of each %llu-byte unit of "
				 "%llu bytes takes %llu MiB, more than half the memory available "
				 "(%llu MiB); use a smaller size or larger blocks",
				 job->name, (unsigned long long)v->unit,
				 (unsigned long long)(v->n * v->unit),
				 (unsigned long long)(v->n * sizeof(*v->map) >> 20),
				 (unsigned long long)(avail >> 20));
	v->map = calloc(v->n ? v->n : 1, sizeof(*v->map));
	if (!v->map)
		return set_cause_errno(cause, ENOMEM,
				       "[%s] verify: cannot allocate the map of %llu units",
				       job->name, (unsigned long long)v->n);
	if (job->verify_backlog)
		v->ring = xcalloc(job->verify_backlog, sizeof(*v->ring));
	if (job->verify_state_load) {
		int ret = state_load(w, cause);

		if (ret)
			return ret;
	}
	if (job->trim_percentage) {
		v->trimq = xcalloc(job->trim_backlog, sizeof(*v->trimq));
		rng_seed(&v->trim_rng, job->randseed ^ (uint64_t)w->clone << 32 ^ 0x7472696d);
	}
	return 0;
}

void worker_verify_cleanup(struct worker *w)
{
	free(w->v.map);
	free(w->v.base);
	free(w->v.ring);
	free(w->v.trimq);
	free(w->v.order);
	free(w->v.first);
	verify_async_free(w);
	memset(&w->v, 0, sizeof(w->v));
}

static uint64_t map_index(const struct worker *w, const struct io_req *req)
{
	return w->v.base[req->file] + (req->off - w->files.v[req->file].start) / w->v.unit;
}

static void trim_pick(struct worker *w, uint64_t i);

bool worker_verify_written(struct worker *w, struct io_req *req)
{
	struct worker_verify *v = &w->v;
	uint64_t i = map_index(w, req), n = req->len / v->unit, k;
	/* 40 bits in the map, and 0 means never written. */
	uint64_t gen = w->pl.writes << VMAP_GEN_SHIFT >> VMAP_GEN_SHIFT;

	gen = gen && gen != VMAP_TRIM_GEN ? gen : 1;
	verify_stamp(w->job, req->buf, req->len, req->off, gen);
	v->map[i] = gen << VMAP_GEN_SHIFT | n;
	for (k = 1; k < n; k++)
		v->map[i + k] = gen << VMAP_GEN_SHIFT;
	if (v->trimq)
		trim_pick(w, i);
	if (!v->ring)
		return false;
	/* A batch leaves at most verify_backlog - 1 behind, and the next
	 * starts when there are verify_backlog again (fio's io_hist_len):
	 * the ring never holds more. */
	v->ring[(v->ring_at + v->ring_n++) % w->job->verify_backlog] = i;
	return v->ring_n == w->job->verify_backlog;
}

void worker_verify_unwritten(struct worker *w, const struct io_req *req)
{
	if (w->v.stamp && req->op == IO_OP_WRITE)
		w->v.map[map_index(w, req)] = 0; /* what is there now is anyone's guess */
}

struct gen_idx {
	uint64_t gen, idx;
};

static int gen_cmp(const void *a, const void *b)
{
	const struct gen_idx *x = a, *y = b;

	return x->gen < y->gen ? -1 : x->gen > y->gen;
}

/* The blocks in the order they were (last) written, by their
 * generations: fio's read-back order for a random job with its random map
 * (a list of the writes), and experimental_verify's (a replay of the
 * workload).  Made once, when the read-back starts; NULL when that would
 * take more than half the memory available (the pass then goes in offset
 * order, as fio's for the other jobs). */
static uint64_t *write_order(const struct worker_verify *v, uint64_t *n)
{
	uint64_t avail = (uint64_t)sysconf(_SC_AVPHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	struct gen_idx *g;
	uint64_t i, k = 0, *order;

	for (i = 0; i < v->n; i++)
		k += (v->map[i] & VMAP_UNITS) != 0;
	if (k > avail / 2 / (sizeof(*g) + sizeof(*order)))
		return NULL;
	g = malloc((k ? k : 1) * sizeof(*g));
	order = malloc((k ? k : 1) * sizeof(*order));
	if (!g || !order) {
		free(g);
		free(order);
		return NULL;
	}
	for (i = 0, k = 0; i < v->n; i++)
		if (v->map[i] & VMAP_UNITS)
			g[k++] = (struct gen_idx){ v->map[i] >> VMAP_GEN_SHIFT, i };
	qsort(g, k, sizeof(*g), gen_cmp);
	for (i = 0; i < k; i++)
		order[i] = g[i].idx;
	free(g);
	*n = k;
	return order;
}

void worker_verify_begin(struct worker *w, enum verify_pass pass)
{
	unsigned batch = w->job->verify_backlog_batch;

	w->v.pass = pass;
	w->v.pos = 0;
	free(w->v.order);
	w->v.order = NULL;
	if (pass == VERIFY_PASS_MAP &&
	    (w->job->experimental_verify || (job_is_random(w->job->rw) && !w->job->norandommap)))
		w->v.order = write_order(&w->v, &w->v.order_n);
	/* verify_backlog_batch: the oldest this many; the rest wait for the
	 * next pass, or the last (RING), which takes all, as fio's. */
	w->v.left = pass == VERIFY_PASS_BATCH && batch && batch < w->v.ring_n ? batch : w->v.ring_n;
}

/* The file whose entries hold map entry @i. */
static unsigned file_of(const struct worker *w, uint64_t i)
{
	unsigned lo = 0, hi = w->files.n - 1;

	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;

		if (w->v.base[mid] <= i)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Whether the block starting at entry @i is whole: every unit still of
 * its generation. */
static bool block_whole(const struct worker_verify *v, uint64_t i)
{
	uint64_t e = v->map[i], n = e & VMAP_UNITS, k;

	for (k = 1; k < n; k++)
		if (v->map[i + k] != (e & ~VMAP_UNITS))
			return false;
	return n != 0;
}

/*
 * trim_percentage, as fio's: each block written is picked with that
 * chance and queued; every trim_backlog writes not yet read back (fio's
 * io_hist_len), trim_backlog_batch of the queue are trimmed, the oldest
 * first, and again while no write came between: in effect all of them.
 */
static void trim_pick(struct worker *w, uint64_t i)
{
	struct worker_verify *v = &w->v;
	const struct job *job = w->job;

	if (rng_below(&v->trim_rng, 100) < job->trim_percentage) {
		/* Full only if read-backs kept io_hist_len from a multiple of
		 * trim_backlog: trim now rather than drop one. */
		if (v->trim_n == job->trim_backlog)
			v->trim_left = v->trim_n;
		else
			v->trimq[(v->trim_at + v->trim_n++) % job->trim_backlog] = i;
	}
	if (++v->hist % job->trim_backlog == 0 && v->trim_n)
		v->trim_left = job->trim_backlog_batch ? job->trim_backlog_batch
						       : (unsigned)job->trim_backlog;
}

bool worker_verify_trim_next(struct worker *w, struct io_req *req)
{
	struct worker_verify *v = &w->v;
	const struct job *job = w->job;

	while (v->trim_left && v->trim_n) {
		uint64_t i = v->trimq[v->trim_at], n, k;
		unsigned fi;

		v->trim_at = (unsigned)((v->trim_at + 1) % job->trim_backlog);
		v->trim_n--;
		if (!--v->trim_left && v->trim_n && v->hist % job->trim_backlog == 0)
			v->trim_left = job->trim_backlog_batch ? job->trim_backlog_batch
							       : (unsigned)job->trim_backlog;
		if (!(v->map[i] & VMAP_UNITS) || !block_whole(v, i))
			continue; /* written over by a block of another size since */
		n = v->map[i] & VMAP_UNITS;
		v->map[i] = VMAP_TRIM_GEN << VMAP_GEN_SHIFT | n;
		for (k = 1; k < n; k++)
			v->map[i + k] = VMAP_TRIM_GEN << VMAP_GEN_SHIFT;
		fi = file_of(w, i);
		req->op = IO_OP_TRIM;
		req->file = fi;
		req->fd = w->files.v[fi].fd;
		req->discard = w->files.v[fi].blkdev;
		req->off = w->files.v[fi].start + (i - v->base[fi]) * v->unit;
		req->len = (size_t)(n * v->unit);
		return true;
	}
	v->trim_left = 0;
	return false;
}

bool worker_verify_next(struct worker *w, struct io_req *req)
{
	struct worker_verify *v = &w->v;
	bool ring = v->pass == VERIFY_PASS_RING || v->pass == VERIFY_PASS_BATCH;
	uint64_t i;

	if (v->pass == VERIFY_PASS_NONE)
		return false;
	while (ring ? v->left > 0 : v->pos < (v->order ? v->order_n : v->n)) {
		unsigned fi;

		if (ring) {
			i = v->ring[v->ring_at];
			v->ring_at = (v->ring_at + 1) % w->job->verify_backlog;
			v->ring_n--;
			v->left--;
			v->hist -= v->hist > 0; /* read back: off fio's io_hist_len */
		} else {
			i = v->order ? v->order[v->pos++] : v->pos++;
		}
		if (!(v->map[i] & VMAP_UNITS))
			continue; /* not a block's start (or never written) */
		if (!block_whole(v, i)) {
			w->stats.verify_skipped++;
			continue;
		}
		if (v->map[i] >> VMAP_GEN_SHIFT == VMAP_TRIM_GEN && !w->job->trim_verify_zero)
			continue; /* trimmed, and not to be read, as fio's */
		fi = file_of(w, i);
		req->op = IO_OP_READ;
		req->file = fi;
		req->fd = w->files.v[fi].fd;
		req->off = w->files.v[fi].start + (i - v->base[fi]) * v->unit;
		req->len = (size_t)((v->map[i] & VMAP_UNITS) * v->unit);
		if (v->pass == VERIFY_PASS_MAP && !v->order)
			v->pos = i + (v->map[i] & VMAP_UNITS);
		return true;
	}
	v->pass = VERIFY_PASS_NONE;
	return false;
}

/* continue_on_error=verify or all (or ignore_error's verify list naming
 * EILSEQ): a mismatch is counted and passed over. */
bool verify_passes_over(const struct job *job)
{
	return job_error_passes(job, ERR_TYPE_VERIFY, EILSEQ);
}

/* One verify_dump file, @len bytes from @p, in the current directory or
 * @dir (--aux-path): NAME.OFFSET.WHAT, as fio names them.  Its name, or
 * NULL with *err set. */
static char *dump_file(const char *dir, const char *path, uint64_t off, const char *what,
		       const void *p, size_t len, int *err)
{
	const char *base = strrchr(path, '/');
	char *name = xasprintf("%s%s%s.%llu.%s", dir ? dir : "", dir ? "/" : "",
			       base ? base + 1 : path, (unsigned long long)off, what);
	int fd = open(name, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
	size_t done = 0;
	ssize_t n;

	*err = 0;
	while (fd >= 0 && done < len && (n = write(fd, (const char *)p + done, len - done)) > 0)
		done += (size_t)n;
	if (fd < 0 || done < len)
		*err = errno ? errno : EIO;
	if (fd >= 0 && close(fd) && !*err)
		*err = errno;
	if (!*err)
		return name;
	free(name);
	return NULL;
}

/* verify_dump: the chunk that failed, as read; and, when its header was
 * sound (the data or the pattern differ), as it was written, made again
 * from the header's offset and generation.  A header at fault gives one
 * file, hdr_fail, as fio's.  What was dumped (or why not), for the
 * message. */
static char *dump(struct worker *w, const struct io_req *req, const struct verify_result *res)
{
	const char *path = w->files.v[req->file].path;
	uint64_t off = req->off + res->chunk_at;
	bool sound = res->fault == VERIFY_BAD_SUM || res->fault == VERIFY_BAD_PATTERN;
	char *got, *want = NULL, *msg;
	int err;
	void *buf;

	got = dump_file(w->job->aux_path, path, off, sound ? "received" : "hdr_fail",
			(char *)req->buf + res->chunk_at, res->chunk, &err);
	if (got && sound) {
		buf = xmalloc(req->len);
		verify_stamp(w->job, buf, req->len, req->off, res->gen);
		want = dump_file(w->job->aux_path, path, off, "expected",
				 (char *)buf + res->chunk_at, res->chunk, &err);
		free(buf);
	}
	if (err)
		msg = xasprintf("; verify_dump could not write %s.%llu.*: %s", path,
				(unsigned long long)off, strerror(err));
	else
		msg = xasprintf("; dumped as %s%s%s", got, want ? " and " : "", want ? want : "");
	free(got);
	free(want);
	return msg;
}

/* trim_verify_zero: a block trim_percentage trimmed reads as zeros. */
static void trimmed_read(struct worker *w, const struct io_req *req)
{
	const uint8_t *p = req->buf;
	size_t at;

	for (at = 0; at < req->len && !p[at]; at++)
		;
	if (at == req->len) {
		w->stats.verified++;
		w->stats.verify_bytes += req->len;
		return;
	}
	if (w->stats.verify_bad < VERIFY_LISTED)
		w->v.bad_off[w->stats.verify_bad] = req->off;
	if (w->stats.verify_bad++)
		return;
	w->v.first = xasprintf("%s: verify at offset %llu, size %zu: trimmed (trim_percentage), "
			       "but byte %zu reads 0x%02x, not zero (trim_verify_zero)",
			       w->files.v[req->file].path, (unsigned long long)req->off, req->len,
			       at, p[at]);
	if (!w->error && !verify_passes_over(w->job)) {
		w->error = w->v.first;
		w->v.first = NULL;
		w->error_no = EILSEQ;
	}
}

/* Checks the block read into @buf; NULL when it is right, else what is
 * wrong (and what verify_dump wrote), formatted.  Called by the worker and
 * by verify_async's threads: it reads the worker's job and files only. */
char *verify_check_block(struct worker *w, const struct io_req *req, uint64_t gen)
{
	struct verify_result res;
	char *why, *dumped = NULL, *msg;

	if (verify_check(w->job, req->buf, req->len, req->off, gen, &res) == VERIFY_OK)
		return NULL;
	if (w->job->verify_dump)
		dumped = dump(w, req, &res);
	why = verify_describe(w->job, &res);
	if (res.chunk < req->len)
		msg = xasprintf("%s: verify at offset %llu, size %zu, in its %zu bytes at offset "
				"%llu (verify_interval): %s%s",
				w->files.v[req->file].path, (unsigned long long)req->off, req->len,
				res.chunk, (unsigned long long)(req->off + res.chunk_at), why,
				dumped ? dumped : "");
	else
		msg = xasprintf("%s: verify at offset %llu, size %zu: %s%s",
				w->files.v[req->file].path, (unsigned long long)req->off, req->len,
				why, dumped ? dumped : "");
	free(why);
	free(dumped);
	return msg;
}

/* A mismatch the worker found (or took from a verify_async thread):
 * counted, its offset listed, the first kept; unless continue_on_error
 * (or ignore_error) passes verify errors over, it stops the job there, as
 * fio's (verify_fatal or not: fio's verify_fatal only stops checking the
 * block's other chunks, of which iogauge reports none). */
static void record_bad(struct worker *w, uint64_t off, char *msg)
{
	struct worker_verify *v = &w->v;

	if (w->stats.verify_bad < VERIFY_LISTED)
		v->bad_off[w->stats.verify_bad] = off;
	if (w->stats.verify_bad++) {
		free(msg);
		return;
	}
	v->first = msg;
	if (!w->error && !verify_passes_over(w->job)) {
		w->error = v->first;
		v->first = NULL;
		w->error_no = EILSEQ;
	}
}

void worker_verify_read(struct worker *w, const struct io_req *req)
{
	struct worker_verify *v = &w->v;
	/* verify_only: what a run before wrote last there is not known, as
	 * fio's (it checks no numberio then). */
	uint64_t gen =
		v->map && !w->job->verify_only ? v->map[map_index(w, req)] >> VMAP_GEN_SHIFT : 0;
	char *msg;

	if (gen == VMAP_TRIM_GEN) {
		trimmed_read(w, req);
		return;
	}
	if (v->async && verify_async_submit(w, req, gen))
		return;
	msg = verify_check_block(w, req, gen);
	if (!msg) {
		w->stats.verified++;
		w->stats.verify_bytes += req->len;
		return;
	}
	record_bad(w, req->off, msg);
}

void worker_verify_finish(struct worker *w)
{
	struct worker_verify *v = &w->v;
	uint64_t nbad, k;
	struct strbuf sb = { 0 };

	verify_async_stop(w);
	/* A trigger fired: every clone's state, verify or not, as fio's. */
	if ((v->stamp && w->job->verify_state_save && !w->job->verify_only) ||
	    atomic_load(w->stop) == TRIGGER_STOP)
		state_save(w);
	nbad = w->stats.verify_bad;
	if (!nbad || !v->first)
		return;
	strbuf_addf(&sb, "%llu of %llu blocks %s failed verify; the first: %s",
		    (unsigned long long)nbad, (unsigned long long)(nbad + w->stats.verified),
		    v->stamp ? "read back" : "read", v->first);
	if (nbad > 1) {
		strbuf_addf(&sb, "; the next at offset%s", nbad > 2 ? "s" : "");
		for (k = 1; k < nbad && k < VERIFY_LISTED; k++)
			strbuf_addf(&sb, "%s %llu", k > 1 ? "," : "",
				    (unsigned long long)v->bad_off[k]);
		if (nbad > VERIFY_LISTED)
			strbuf_addf(&sb, " and %llu more",
				    (unsigned long long)(nbad - VERIFY_LISTED));
	}
	free(v->first);
	v->first = NULL;
	if (verify_passes_over(w->job)) {
		/* Passed over: counted with the I/O errors, as fio's total_err. */
		w->stats.errors += nbad;
		if (job_error_listed(w->job, ERR_TYPE_VERIFY, EILSEQ))
			w->stats.errors_listed += nbad;
		if (!w->first_error) {
			w->first_error = strbuf_detach(&sb);
			w->first_error_no = EILSEQ;
		}
	} else if (!w->error) {
		w->error = strbuf_detach(&sb);
		w->error_no = EILSEQ;
	}
	strbuf_free(&sb);
}
