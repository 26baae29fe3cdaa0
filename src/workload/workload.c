/* SPDX-License-Identifier: MIT */
/*
 * A clone's workload set up and released: its random generators, random
 * maps, distributions and cursors (see workload.h; the per-I/O part is
 * inline there).
 */
#include <errno.h>
#include <stdlib.h>

#include "jobfile/options.h"
#include "util/util.h"
#include "workload/workload.h"

/* fio's fixed seed (its FIO_RANDSEED). */
#define FIO_FIXED_SEED 0xb1899bedull

/*
 * fio's seed number @which (its FIO_RAND_*_OFF) of fio thread @thread, as
 * its setup_random_seeds and td_fill_rand_seeds make them: with
 * allrandrepeat the fixed seed times the thread plus @which; else from
 * randseed when randrepeat is on or randseed is set; else @fallback
 * (the clone's own seed, which changes from run to run).
 */
static uint64_t fio_seed(const struct job *job, unsigned thread, unsigned which, uint64_t fallback)
{
	if (job->allrandrepeat)
		return FIO_FIXED_SEED * thread + which;
	if (job->randrepeat || job_origin(job, OPT_RANDSEED)->kind != ORIGIN_DEFAULT)
		return taus88_fio_seed(job->randseed, thread, which);
	return fallback;
}

int workload_init(struct workload *wl, const struct job *job, struct run_files *fs, unsigned clone,
		  unsigned thread, uint64_t seed, bool nofiles, char **cause)
{
	bool lfsr = job->random_generator == RANDGEN_LFSR;
	uint64_t lo, hi, nblocks, lfsr_seed = seed;
	unsigned d, i;

	/* fio's random offsets' seed: with randrepeat its fixed one times
	 * the thread number (randseed plays no part), else its
	 * FIO_RAND_BLOCK_OFF (6) seed. */
	lfsr_seed = job->randrepeat ? FIO_FIXED_SEED * thread : fio_seed(job, thread, 6, seed);

	memset(wl, 0, sizeof(*wl));
	wl->job = job;
	wl->files = fs->v;
	wl->nfiles = fs->n;
	wl->drop_each_pass = job->time_based && job->invalidate && !nofiles;
	/* As fio: strided zones with one file only. */
	wl->zoned = job->zonemode == ZONE_STRIDED && fs->n == 1;
	wl->zone_base = fs->n ? fs->v[0].start : 0;
	job_bs_span(job, &lo, &hi);
	rng_seed(&wl->rng, seed);
	/* fio's FIO_RAND_MIX_OFF (4) seed, so the mix draws are fio's. */
	taus88_seed(&wl->mix_rng, (uint32_t)fio_seed(job, thread, 4, seed));
	wl->offgen = xcalloc(fs->n, sizeof(*wl->offgen));
	/* fio seeds all three directions' draws with its
	 * FIO_RAND_SEQ_RAND_READ_OFF (10) seed. */
	for (d = 0; d < DDIR_COUNT; d++) {
		taus88_seed(&wl->seqrand_rng[d],
			    (uint32_t)fio_seed(job, thread, 10, seed ^ 0x73657172u));
		if (job_is_random(job->rw) &&
		    (job->percentage_random[d] < 100 || job->rw_rand_nr > 1) && !wl->last_pos)
			wl->last_pos = xcalloc((size_t)fs->n * DDIR_COUNT, sizeof(*wl->last_pos));
	}
	wl->cursor = xcalloc(fs->n, sizeof(*wl->cursor));
	/* fio's count starts at 1: the first I/O is the random one. */
	wl->rand_left = 1;
	if (job_is_random(job->rw) && job->rw_rand_nr > 1)
		wl->last_start = xcalloc((size_t)fs->n * DDIR_COUNT, sizeof(*wl->last_start));
	/* As fio's blockalign default: a direction's random offsets are
	 * multiples of its own smallest block, so its blocks fit the region. */
	wl->unit = job->blockalign[DDIR_READ] ? job->blockalign[DDIR_READ] : lo;
	for (d = 0; d < DDIR_COUNT; d++) {
		uint64_t dlo, dhi;

		job_bs_bounds(job, (enum ddir)d, &dlo, &dhi);
		wl->dir_align[d] = dlo > wl->unit && dlo % wl->unit == 0 ? dlo : wl->unit;
	}
	for (i = 0; i < fs->n; i++) {
		struct run_file *f = &fs->v[i];

		/* As fio: the region is used in whole blocks. */
		if (f->len - f->len % wl->unit < hi)
			return set_cause(cause,
					 "%s: the I/O region (%llu bytes, %llu in whole blocks of "
					 "%llu) is smaller than the block size %llu",
					 f->path, (unsigned long long)f->len,
					 (unsigned long long)(f->len - f->len % wl->unit),
					 (unsigned long long)wl->unit, (unsigned long long)hi);
		f->len -= f->len % wl->unit;
		/* As fio's last_block: with zones, random offsets come from a
		 * zone's span. */
		nblocks = wl->zoned ? job->zonerange / wl->unit : f->len / wl->unit;
		if (lfsr && !offgen_lfsr_ok(nblocks, lfsr_seed))
			return set_cause(cause,
					 "%s: random_generator=lfsr cannot draw %llu blocks from "
					 "seed %llu (fio fails the same way); change randseed",
					 f->path, (unsigned long long)nblocks,
					 (unsigned long long)lfsr_seed);
		/* As fio: every file's lfsr starts from the one seed, and an
		 * lfsr keeps no random map (norandommap or not). */
		offgen_init(&wl->offgen[i],
			    lfsr	       ? OFFGEN_LFSR
			    : job->norandommap ? OFFGEN_RANDOM_NOMAP
					       : OFFGEN_RANDOM,
			    nblocks, lfsr ? lfsr_seed : seed + i);
		/* A skewed distribution draws with replacement (fio drops its
		 * random map for one too). */
		if (job->random_distribution.kind != RDIST_RANDOM) {
			if (!wl->rdist)
				wl->rdist = xcalloc(fs->n, sizeof(*wl->rdist));
			randdist_init(&wl->rdist[i], &job->random_distribution, f->len / wl->unit,
				      wl->unit, seed ^ (0x64697374u + i));
		}
		wl->cursor[i] = job->stride ? 0 : f->start;
		for (d = 0; wl->last_pos && d < DDIR_COUNT; d++)
			wl->last_pos[i * DDIR_COUNT + d] = f->start;
		for (d = 0; wl->last_start && d < DDIR_COUNT; d++)
			wl->last_start[i * DDIR_COUNT + d] = UINT64_MAX;
		/* Blocks larger than the unit under a random map: fio's covering. */
		if (job_is_random(job->rw) && !job->norandommap && !wl->rdist && !lfsr &&
		    hi > wl->unit) {
			if (!wl->rmap) {
				wl->rmap = xcalloc(fs->n, sizeof(*wl->rmap));
				wl->rmap_used = xcalloc(fs->n, sizeof(*wl->rmap_used));
			}
			wl->rmap[i] = calloc(workload_rmap_words(wl, i), sizeof(uint64_t));
			if (!wl->rmap[i] && !job->softrandommap)
				return set_cause_errno(
					cause, ENOMEM,
					"%s: the random map, %zu bytes for %llu blocks of %llu, "
					"cannot be allocated: %s; norandommap=1 or softrandommap=1 "
					"runs without it",
					f->path, workload_rmap_words(wl, i) * sizeof(uint64_t),
					(unsigned long long)(f->len / wl->unit),
					(unsigned long long)wl->unit, strerror(ENOMEM));
			/* softrandommap, as fio's: this file goes on without a
			 * map, its offsets drawn as with norandommap. */
			if (!wl->rmap[i])
				offgen_init(&wl->offgen[i], OFFGEN_RANDOM_NOMAP, nblocks, seed + i);
		}
		if (job->stride && f->len / wl->unit < job->stride)
			return set_cause(cause,
					 "%s: stride=%u needs a region of at least one row of %u "
					 "blocks of %llu bytes; it has %llu bytes",
					 f->path, job->stride, job->stride,
					 (unsigned long long)wl->unit, (unsigned long long)f->len);
	}
	if (job->openfiles < fs->n && job->openfiles)
		wl->open_max = job->openfiles;
	else
		wl->open_max = fs->n;
	if (wl->open_max < fs->n || job->file_service.kind != FSRV_ROUNDROBIN ||
	    job->file_service.nr != 1) {
		wl->fstate = xcalloc(fs->n, sizeof(*wl->fstate));
		wl->svc_file = fs->n;
		rng_seed(&wl->fsel_rng, seed ^ 0x66696c65u); /* "file" */
		if (job->file_service.kind > FSRV_RANDOM) {
			/* As fio: the files' numbers times 1024, unscattered. */
			struct rand_dist rd = {
				.kind = job->file_service.kind == FSRV_ZIPF	? RDIST_ZIPF
					: job->file_service.kind == FSRV_PARETO ? RDIST_PARETO
										: RDIST_NORMAL,
				.param = job->file_service.param,
				.center = job->file_service.center,
				.has_center = job->file_service.has_center,
			};

			wl->fsel_dist = xcalloc(1, sizeof(*wl->fsel_dist));
			randdist_init(wl->fsel_dist, &rd, (uint64_t)fs->n << 10, 1,
				      seed ^ 0x66737276u);
			wl->fsel_dist->nohash = true;
		}
	}
	/* stride: the clones split the columns, the first ones taking the
	 * remainder, as SQLIO's threads split its strip. */
	if (job->stride) {
		uint64_t base = job->stride / job->numjobs, extra = job->stride % job->numjobs;

		wl->col0 = clone * base + (clone < extra ? clone : extra);
		wl->cols = base + (clone < extra);
	}
	return 0;
}

void workload_free(struct workload *wl)
{
	unsigned i;

	for (i = 0; wl->rmap && i < wl->nfiles; i++)
		free(wl->rmap[i]);
	free(wl->rmap);
	free(wl->rmap_used);
	free(wl->offgen);
	free(wl->rdist);
	free(wl->cursor);
	free(wl->fstate);
	free(wl->fsel_dist);
	wl->fstate = NULL;
	wl->fsel_dist = NULL;
	free(wl->last_pos);
	free(wl->last_start);
	wl->last_pos = wl->last_start = NULL;
	wl->rmap = NULL;
	wl->rmap_used = NULL;
	wl->offgen = NULL;
	wl->rdist = NULL;
	wl->cursor = NULL;
}
