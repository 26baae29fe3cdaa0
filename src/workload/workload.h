/* SPDX-License-Identifier: MIT */
/*
 * What to do next, for one job clone: which file, which direction, how
 * many bytes and at which offset, as the job's rw, bs, random map,
 * distribution and rwmix say.  Plain state and arithmetic: no buffers,
 * no stats, no engine.  The per-I/O part is inline here so that the I/O
 * loop pays no call for it; set-up and release are in workload.c.
 */
#ifndef IOGAUGE_WORKLOAD_H
#define IOGAUGE_WORKLOAD_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "engines/engine.h"
#include "files/files.h"
#include "jobfile/job.h"
#include "util/runclock.h"
#include "workload/rand.h"
#include "workload/randdist.h"

struct workload {
	const struct job *job;
	const struct run_file *files; /* the clone's files (its run_files' v) */
	unsigned nfiles;
	unsigned next_file;
	struct offgen *offgen;	/* one per file (random patterns) */
	struct randdist *rdist; /* one per file: random_distribution other than random */
	uint64_t **rmap;	/* one per file: units covered this pass (random, blocks > unit;
				 * NULL: softrandommap found no memory for it) */
	uint64_t *rmap_used;	/* ... and how many of them */
	uint64_t unit;		/* bytes: random offsets are multiples of it */
	uint64_t *cursor;	/* bytes: next sequential offset, per file (with stride:
				* the I/O's index in the clone's columns) */
	uint64_t col0, cols;	/* stride: the clone's first column and how many */
	struct rng rng;		/* block size choice */
	unsigned seq_passes;	/* rw=...:N with a gap: passes done over the region */
	bool drop_each_pass;	/* time_based with invalidate, on files: see workload_pass_done */
	/* rw=rw/randrw: fio's rwmix rule.  The direction of the current run,
	 * the I/Os issued in each, and how many the run's direction must
	 * reach before the next draw. */
	struct taus88 mix_rng;
	unsigned mix_dir;
	uint64_t mix_issues[2], mix_until;
	uint64_t dir_align[DDIR_COUNT]; /* bytes: random offsets' step per direction */
	/* trimwrite, randtrimwrite: the trim just made, whose write is next. */
	struct io_req tw;
	bool tw_owed;
	/* openfiles and file_service_type other than one I/O per file in
	 * turn (see workload_pick_file); fstate NULL otherwise. */
	uint8_t *fstate;	    /* per file: WL_FILE_OPEN, WL_FILE_DONE */
	unsigned nr_open;	    /* files open */
	unsigned nr_done;	    /* files whose pass is done */
	unsigned open_max;	    /* openfiles */
	unsigned svc_file;	    /* the file being served; nfiles: none */
	unsigned svc_left;	    /* I/Os it has left before the next pick */
	struct rng fsel_rng;	    /* file_service_type=random */
	struct randdist *fsel_dist; /* zipf, pareto, normal: over nfiles << 10 */
	/* zonemode=strided (one file, as fio): the zone's first byte (fio's
	 * file_offset) and the bytes issued since the clone came to it. */
	bool zoned;
	uint64_t zone_base, zone_bytes;
	/* percentage_random below 100: fio's draw per direction of whether an
	 * I/O is random, and where each direction's last I/O of each file
	 * ended (file * DDIR_COUNT + d; NULL: every I/O random). */
	struct taus88 seqrand_rng[DDIR_COUNT];
	uint64_t *last_pos;
	/* rw=randread:N: where each direction's last I/O began (UINT64_MAX:
	 * none yet), and the I/Os left until the next random one. */
	uint64_t *last_start;
	unsigned rand_left;
};

#define WL_FILE_OPEN 1u
#define WL_FILE_DONE 2u

/* rate, rate_iops: each direction's schedule, kept by the I/O loop.  due
 * is when its next I/O should start; ns_per_byte (rate) or ns_per_io
 * (rate_iops) is the time at the rate; both 0: no cap. */
struct workload_rate {
	uint64_t due[DDIR_COUNT];
	double ns_per_byte[DDIR_COUNT], ns_per_io[DDIR_COUNT];
	bool on; /* some direction is capped */
};

/*
 * Sets up @wl for clone @clone of @job over @fs, whose regions it trims to
 * whole units.  @thread: the clone's place among all clones of the run,
 * from 1 (fio's thread number, which the rwmix seed follows); @seed: the
 * clone's seed; @nofiles: the engine opens no files (no cache to drop).
 * 0, or -errno with *cause set; on error workload_free releases what was
 * made.
 */
int workload_init(struct workload *wl, const struct job *job, struct run_files *fs, unsigned clone,
		  unsigned thread, uint64_t seed, bool nofiles, char **cause);
/* Releases what workload_init made; @wl zeroed is fine. */
void workload_free(struct workload *wl);

/* The 64-bit words of file @i's random map: a bit per unit of its region. */
static inline size_t workload_rmap_words(const struct workload *wl, unsigned i)
{
	return (size_t)((wl->offgen[i].nblocks + 63) / 64);
}

static inline uint64_t workload_pick_bs(struct workload *wl, unsigned d)
{
	const struct job *job = wl->job;
	uint64_t lo, hi;
	double x, sum = 0;
	unsigned i;

	if (job->nr_bssplit[d]) {
		x = rng_unit(&wl->rng) * 100.0;
		for (i = 0; i + 1 < job->nr_bssplit[d]; i++) {
			sum += job->bssplit[d][i].pct;
			if (x < sum)
				break;
		}
		return job->bssplit[d][i].bs;
	}
	if (!job->bsrange_max[d])
		return job->bs[d];
	lo = job->bsrange_min[d];
	hi = job->bsrange_max[d];
	if (job->bs_unaligned) /* any byte count from lo to hi */
		return lo + rng_below(&wl->rng, hi - lo + 1);
	return lo + rng_below(&wl->rng, (hi - lo) / lo + 1) * lo;
}

/* As fio's rate_ddir: a mixed job under a cap takes a direction that is
 * due.  The one drawn if it is; else the other if that one is due (an
 * uncapped direction always is) and has a share of the mix; else the one
 * due sooner, which the loop then waits for. */
static inline unsigned workload_due_dir(const struct workload *wl, const struct workload_rate *rate,
					unsigned d)
{
	unsigned o = d ^ 1;
	uint64_t now = run_now();
	uint64_t due_d = rate->ns_per_io[d] || rate->ns_per_byte[d] ? rate->due[d] : 0;
	uint64_t due_o = rate->ns_per_io[o] || rate->ns_per_byte[o] ? rate->due[o] : 0;

	if (due_d <= now || !(o == DDIR_READ ? wl->job->rwmix_read : wl->job->rwmix_write))
		return d;
	if (due_o <= now)
		return o;
	return due_d <= due_o ? d : o;
}

/*
 * rw=rw and randrw, as fio's get_rw_ddir: a draw (1..100 against
 * rwmixread) starts a run; a run that switched direction lasts until its
 * direction has issued rwmix% of what the other had (fio's rwmix_issues),
 * a run that did not switch only the one I/O.  fio counts issued I/Os.
 */
static inline unsigned workload_mix_dir(struct workload *wl)
{
	const struct job *job = wl->job;
	unsigned d;

	if (wl->mix_issues[wl->mix_dir] >= wl->mix_until) {
		d = taus88_between(&wl->mix_rng, 1, 100) <= job->rwmix_read ? DDIR_READ
									    : DDIR_WRITE;
		if (d != wl->mix_dir)
			wl->mix_until = wl->mix_issues[wl->mix_dir] *
					(d == DDIR_READ ? job->rwmix_read : job->rwmix_write) / 100;
		wl->mix_dir = d;
	}
	return wl->mix_dir;
}

/* A block that would cross the end of the region: as fio's
 * get_next_buflen, the largest size the job allows that fits; the room
 * left when none does. */
static inline uint64_t workload_fit_bs(const struct job *job, unsigned d, uint64_t room)
{
	uint64_t best = 0;
	unsigned i;

	if (job->nr_bssplit[d]) {
		for (i = 0; i < job->nr_bssplit[d]; i++)
			if (job->bssplit[d][i].bs <= room && job->bssplit[d][i].bs > best)
				best = job->bssplit[d][i].bs;
	} else if (job->bsrange_max[d] && room >= job->bsrange_min[d]) {
		best = room / job->bsrange_min[d] * job->bsrange_min[d];
	}
	return best ? best : room;
}

/* A pass over file @fi is done: as fio's loop_cache_invalidate, a
 * time_based job with invalidate drops the file's cache again, so that
 * each pass reads what the device holds, not what the last one cached. */
static inline void workload_pass_done(const struct workload *wl, unsigned fi)
{
	const struct run_file *f = &wl->files[fi];

	if (wl->drop_each_pass)
		posix_fadvise(f->fd, (off_t)f->start, (off_t)f->len, POSIX_FADV_DONTNEED);
}

/* The first unit at or after @blk that @map has clear, wrapping to 0;
 * the map has one. */
static inline uint64_t workload_next_free(const uint64_t *map, uint64_t blk, uint64_t nblocks)
{
	uint64_t words = (nblocks + 63) / 64, i = blk / 64, k;

	for (k = 0; k <= words; k++, i = i + 1 < words ? i + 1 : 0) {
		uint64_t free = ~map[i];

		if (k == 0)
			free &= ~0ull << (blk % 64); /* from blk on */
		if (free && i * 64 + (uint64_t)__builtin_ctzll(free) < nblocks)
			return i * 64 + (uint64_t)__builtin_ctzll(free);
	}
	return 0; /* not reached: the caller knows a unit is free */
}

/*
 * Random offsets with blocks of several sizes, as fio's random map: a
 * random unit, or if a block of this pass covered it already the next one
 * that none did (fio's axmap_next_free), and the block cut back to the
 * units free from there (fio's axmap_set_nr trims buflen the same way),
 * so a pass covers every unit once.  When all are covered a new pass
 * starts.  Bytes from the region's start.
 */
static inline uint64_t workload_map_block(struct workload *wl, unsigned fi, uint64_t *len)
{
	struct offgen *g = &wl->offgen[fi];
	uint64_t *map = wl->rmap[fi], blk, k, n = (*len + wl->unit - 1) / wl->unit;

	if (wl->rmap_used[fi] == g->nblocks) {
		memset(map, 0, (g->nblocks + 63) / 64 * 8);
		wl->rmap_used[fi] = 0;
		workload_pass_done(wl, fi);
	}
	blk = offgen_next(g);
	if (map[blk / 64] >> (blk % 64) & 1)
		blk = workload_next_free(map, blk, g->nblocks);
	for (k = 0; k < n && blk + k < g->nblocks && !(map[(blk + k) / 64] >> ((blk + k) % 64) & 1);
	     k++)
		map[(blk + k) / 64] |= 1ull << ((blk + k) % 64);
	wl->rmap_used[fi] += k;
	if (k * wl->unit < *len)
		*len = k * wl->unit;
	return blk * wl->unit;
}

/*
 * The file of the next I/O, as fio's get_next_file: the file being served
 * while it has I/Os left of its :N (sequential: until its pass is done);
 * else, in turn from where the last pick stopped (roundrobin, sequential)
 * or drawn (random and the skewed ones), the first whose pass is not done
 * and that is open or may be opened (fewer than openfiles are).  When
 * every file's pass is done, all are closed and a new pass begins.
 */
static inline unsigned workload_pick_file(struct workload *wl)
{
	const struct job *job = wl->job;
	enum file_service_kind k = job->file_service.kind;
	unsigned f, i;

	if (wl->nr_done >= wl->nfiles) {
		for (i = 0; i < wl->nfiles; i++)
			wl->fstate[i] = 0;
		wl->nr_done = wl->nr_open = 0;
	}
	f = wl->svc_file;
	if (f < wl->nfiles && (wl->fstate[f] & WL_FILE_OPEN)) {
		if (k == FSRV_SEQUENTIAL)
			return f;
		if (wl->svc_left) {
			wl->svc_left--;
			return f;
		}
	}
	for (;;) {
		if (k == FSRV_ROUNDROBIN || k == FSRV_SEQUENTIAL) {
			f = wl->next_file;
			wl->next_file = (f + 1) % wl->nfiles;
		} else if (k == FSRV_RANDOM) {
			f = (unsigned)(rng_unit(&wl->fsel_rng) * (double)wl->nfiles);
		} else {
			f = (unsigned)(randdist_next(wl->fsel_dist, 0) >> 10);
		}
		if (f >= wl->nfiles || (wl->fstate[f] & WL_FILE_DONE))
			continue;
		if (wl->fstate[f] & WL_FILE_OPEN)
			break;
		if (wl->nr_open < wl->open_max) {
			wl->fstate[f] |= WL_FILE_OPEN;
			wl->nr_open++;
			break;
		}
	}
	wl->svc_file = f;
	wl->svc_left = job->file_service.nr - 1;
	return f;
}

/* File @fi's pass is done (its last block issued): closed, and not
 * picked again until every file's is.  The skewed kinds never finish a
 * file, as fio's, which starts it over instead. */
static inline void workload_file_done(struct workload *wl, unsigned fi)
{
	if (wl->job->file_service.kind > FSRV_RANDOM)
		return;
	wl->fstate[fi] = WL_FILE_DONE;
	wl->nr_open--;
	wl->nr_done++;
}

/*
 * zonemode=strided, as fio's setup_strided_zone_mode and get_next_offset:
 * after zonesize bytes the zone moves on by zonerange + zoneskip, back to
 * the region's start once it passes the file's end; within a zone's span
 * sequential I/O restarts at its start and random I/O draws from its
 * blocks, the random map cleared each zonerange bytes.  Sets *@off (a
 * file offset); false when the I/O would fall past the region's length
 * from the zone or past the file's end, which ends the job, as in fio.
 */
static inline bool workload_zone_next(struct workload *wl, unsigned fi, unsigned d, uint64_t *len,
				      uint64_t *off)
{
	const struct job *job = wl->job;
	const struct run_file *f = &wl->files[fi];
	uint64_t pos;

	if (wl->zone_bytes >= job->zonesize) {
		wl->zone_bytes = 0;
		wl->zone_base += job->zonerange + job->zoneskip;
		if (wl->zone_base >= f->size)
			wl->zone_base = f->start;
		wl->cursor[fi] = wl->zone_base;
	}
	if (wl->cursor[fi] >= wl->zone_base + job->zonerange)
		wl->cursor[fi] = wl->zone_base;
	if (wl->zone_bytes % job->zonerange == 0) {
		wl->cursor[fi] = wl->zone_base;
		offgen_restart(&wl->offgen[fi]);
		if (wl->rmap && wl->rmap[fi]) {
			memset(wl->rmap[fi], 0, workload_rmap_words(wl, fi) * 8);
			wl->rmap_used[fi] = 0;
		}
	}
	if (job_is_random(job->rw)) {
		pos = wl->rmap && wl->rmap[fi] ? workload_map_block(wl, fi, len)
					       : offgen_next(&wl->offgen[fi]) * wl->unit;
		pos -= pos % wl->dir_align[d];
	} else {
		/* fio's get_next_seq_offset: the gap follows a block, not the
		 * zone's start. */
		pos = wl->cursor[fi] - wl->zone_base;
		if (pos)
			pos += (uint64_t)job->rw_seq_add;
	}
	if (pos >= f->len || wl->zone_base + pos >= f->size || wl->zone_base + pos + *len > f->size)
		return false;
	*off = wl->zone_base + pos;
	wl->cursor[fi] = *off + *len;
	wl->zone_bytes += *len;
	return true;
}

/*
 * percentage_random, as fio's should_do_random and get_next_seq_offset: a
 * draw says whether this I/O of a random job is sequential; one goes
 * where the direction's last I/O in the file ended.  1: sequential, *@off
 * set; 0: random; -1: the region is used up from there, which ends the
 * job, as in fio.
 */
static inline int workload_seq_turn(struct workload *wl, unsigned fi, unsigned d, uint64_t *off)
{
	const struct run_file *f = &wl->files[fi];
	uint64_t pos = wl->last_pos[fi * DDIR_COUNT + d];

	if (wl->job->percentage_random[d] >= 100 ||
	    taus88_between(&wl->seqrand_rng[d], 1, 100) <= wl->job->percentage_random[d])
		return 0;
	if (pos >= f->size) /* past the file's end: a random one instead */
		return 0;
	if (pos - f->start >= f->len)
		return -1;
	*off = pos;
	return 1;
}

/*
 * rw=randread:N, as fio's get_next_block: of each N I/Os one is random
 * (the first); the others, with rw_sequencer=sequential, follow their
 * direction's last I/O (a random one when that passed the file's end);
 * with identical, repeat its offset.  1: *@off set; 0: random; -1: past
 * the region, which ends the job, as in fio.
 */
static inline int workload_rand_nr_turn(struct workload *wl, unsigned fi, unsigned d, uint64_t *off)
{
	const struct run_file *f = &wl->files[fi];
	uint64_t pos;

	if (!--wl->rand_left) {
		wl->rand_left = wl->job->rw_rand_nr;
		return 0;
	}
	if (wl->job->rw_sequencer == RWSEQ_IDENTICAL) {
		pos = wl->last_start[fi * DDIR_COUNT + d];
		pos = pos == UINT64_MAX ? f->start : pos;
	} else {
		pos = wl->last_pos[fi * DDIR_COUNT + d];
		if (pos >= f->size)
			return 0;
	}
	if (pos - f->start >= f->len)
		return -1;
	*off = pos;
	return 1;
}

/* No next I/O: @req says nothing (an empty read at 0 of file 0), false. */
static inline bool workload_end(struct io_req *req)
{
	req->op = IO_OP_READ;
	req->discard = false;
	req->file = 0;
	req->off = 0;
	req->len = 0;
	return false;
}

/*
 * Fills @req with the next I/O: file, direction, length and offset.
 * @rate: the schedule a mixed job's direction follows (NULL or off: none).  When
 * this I/O is the job's last (rw=...:N with a gap, not time_based, has
 * made its loops passes), *@limit becomes @issued plus its length: the
 * bytes the job may issue.  false: no I/O, the workload has ended (a
 * zone past the file's end).
 */
static inline bool workload_next(struct workload *wl, struct io_req *req,
				 const struct workload_rate *rate, uint64_t *limit, uint64_t issued)
{
	const struct job *job = wl->job;
	const struct run_file *f;
	uint64_t end, len, off;
	bool last = false; /* this I/O ends the file's pass */
	unsigned fi, d;
	int seq = 0;

	/* trimwrite: the block just trimmed is written next, as fio's
	 * randtrimwrite (the write takes the trim's offset and length). */
	if (wl->tw_owed) {
		wl->tw_owed = false;
		req->op = IO_OP_WRITE;
		req->discard = false;
		req->fd = wl->tw.fd;
		req->file = wl->tw.file;
		req->off = wl->tw.off;
		req->len = wl->tw.len;
		return true;
	}
	fi = wl->fstate ? workload_pick_file(wl) : wl->next_file;
	f = &wl->files[fi];
	end = f->start + f->len;
	if (!wl->fstate)
		wl->next_file = (fi + 1) % wl->nfiles;
	if (job->rw == RW_READWRITE || job->rw == RW_RANDRW) {
		d = workload_mix_dir(wl);
		/* As fio: a direction the rate switches to is the run's. */
		if (rate && rate->on)
			wl->mix_dir = d = workload_due_dir(wl, rate, d);
		wl->mix_issues[d]++;
	} else
		d = job_does(job, DDIR_READ)				     ? DDIR_READ
		    : job_does(job, DDIR_WRITE) && !job_does(job, DDIR_TRIM) ? DDIR_WRITE
									     : DDIR_TRIM;
	if (wl->last_start)
		seq = workload_rand_nr_turn(wl, fi, d, &off);
	/* The random one of rw=...:N, or every I/O: percentage_random's turn. */
	if (!seq && wl->last_pos && job->percentage_random[d] < 100)
		seq = workload_seq_turn(wl, fi, d, &off);
	if (seq < 0)
		return workload_end(req);
	/* bs_is_seq_rand, as fio's get_next_buflen: random I/Os take the
	 * write block sizes, sequential ones the read block sizes. */
	len = workload_pick_bs(wl, !job->bs_is_seq_rand		    ? d
				   : job_is_random(job->rw) && !seq ? DDIR_WRITE
								    : DDIR_READ);
	if (seq) {
		/* percentage_random: a sequential I/O of a random job */
	} else if (wl->zoned) {
		if (!workload_zone_next(wl, fi, d, &len, &off))
			return workload_end(req);
	} else if (wl->rmap && wl->rmap[fi]) {
		off = f->start + workload_map_block(wl, fi, &len);
		last = wl->rmap_used[fi] == wl->offgen[fi].nblocks;
	} else if (job_is_random(job->rw)) {
		off = f->start + (wl->rdist ? randdist_next(&wl->rdist[fi], d)
					    : offgen_next(&wl->offgen[fi])) *
					 wl->unit;
		off -= (off - f->start) % wl->dir_align[d];
		/* Every block of the pass visited. */
		last = !wl->rdist && !job->norandommap && !wl->offgen[fi].pos;
		if (last)
			workload_pass_done(wl, fi);
	} else if (job->stride) {
		/* A run goes down one column of the rows of stride blocks; the
		 * next run takes the next column (SQLIO's -f with -i rows). */
		uint64_t rows = f->len / wl->unit / job->stride, p = wl->cursor[fi];

		off = f->start + ((p % rows) * job->stride + wl->col0 + p / rows) * wl->unit;
		wl->cursor[fi] = p + 1 < rows * wl->cols ? p + 1 : 0;
	} else {
		int64_t add = job->rw_seq_add;
		uint64_t back = add < 0 ? (uint64_t)-add : 0;
		bool pass_end;

		off = wl->cursor[fi];
		/* Past the end: wrap, as fio's get_next_seq_offset: forwards to
		 * the start; backwards to the end less the gap (fio's size +
		 * ddir_seq_add), or less the block if that is longer. */
		if (off >= end || off < f->start) {
			off = add < 0 ? end - (len > back ? len : back) : f->start;
			workload_pass_done(wl, fi);
		}
		/* As fio: with bs_unaligned, less room than the smallest
		 * size ends the job. */
		if (job->bs_unaligned && job->bsrange_max[d] && end - off < job->bsrange_min[d])
			return workload_end(req);
		if (off + len > end)
			len = workload_fit_bs(job, d, end - off);
		/* A gap that would go below the region's start wraps to its end. */
		if (add < 0 && off + len - f->start < back)
			wl->cursor[fi] = end;
		else
			wl->cursor[fi] = off + len + (uint64_t)add;
		/* As fio: with holes, a pass ends when a block reaches the end
		 * (not when the bytes of the region have been moved), and a
		 * job that is not time_based ends after loops passes.  The next
		 * offset past the region's end wraps only when it is past the
		 * file's size too (fio's get_next_seq_offset); short of that,
		 * as in fio's get_next_offset, the pass ends here. */
		pass_end = off + len >= end || (add > 0 && wl->cursor[fi] >= end &&
						wl->cursor[fi] - f->start < f->size);
		if (add > 0 && pass_end && !job->time_based && ++wl->seq_passes >= job->loops)
			*limit = issued + len;
		last = add >= 0 && pass_end;
	}
	if (off + len > end && !wl->zoned)
		len = workload_fit_bs(job, d, end - off);
	if (last && wl->fstate)
		workload_file_done(wl, fi);
	req->op = d == DDIR_READ ? IO_OP_READ : d == DDIR_WRITE ? IO_OP_WRITE : IO_OP_TRIM;
	req->discard = d == DDIR_TRIM && f->blkdev;
	req->fd = f->fd;
	req->file = fi;
	req->off = off;
	req->len = (size_t)len;
	if (d == DDIR_TRIM && job_does(job, DDIR_WRITE)) {
		wl->tw = *req;
		wl->tw_owed = true;
	}
	if (wl->last_pos)
		wl->last_pos[fi * DDIR_COUNT + d] = off + len;
	if (wl->last_start)
		wl->last_start[fi * DDIR_COUNT + d] = off;
	return true;
}

#endif
