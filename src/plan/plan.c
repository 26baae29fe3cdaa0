/* SPDX-License-Identifier: MIT */
/*
 * The plan of a run: block sizes bounded, buffer sums, memory, and each
 * clone's file regions, all with __builtin_*_overflow, refused at the
 * option that set the value.  Not the set-up itself (files.c, worker.c)
 * and not the single-value syntax (units.c, optvals.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "engines/engine.h"
#include "jobfile/jobfile.h"
#include "jobfile/options.h"
#include "mpi/mpi.h"
#include "plan/plan.h"
#include "workload/rand.h"

static bool is_set(const struct job *job, const char *name)
{
	return job_origin(job, opt_index(opt_find(name)))->kind != ORIGIN_DEFAULT;
}

/* Every block size the job gives, in every direction, at most PLAN_BS_MAX:
 * the option that gives a larger one is blamed. */
static int check_bs(const struct job *job, char **cause)
{
	static const char *const dir[] = { "reads", "writes", "trims" };
	const char *name = NULL;
	uint64_t bs = 0;
	unsigned d, i;

	for (d = 0; d < DDIR_COUNT && !name; d++) {
		if (job->bs[d] > PLAN_BS_MAX) {
			name = "bs";
			bs = job->bs[d];
		} else if (job->bsrange_max[d] > PLAN_BS_MAX) {
			name = "bsrange";
			bs = job->bsrange_max[d];
		}
		for (i = 0; i < job->nr_bssplit[d] && !name; i++)
			if (job->bssplit[d][i].bs > PLAN_BS_MAX) {
				name = "bssplit";
				bs = job->bssplit[d][i].bs;
			}
	}
	if (!name)
		return 0;
	return job_fail_at(job, name, cause,
			   "a block size of %llu bytes (for %s) is larger than %llu, the most one "
			   "I/O can move on Linux",
			   (unsigned long long)bs, dir[d - 1], PLAN_BS_MAX);
}

/* The I/O buffers of one clone and of the job's clones. */
static int plan_memory(struct job_plan *jp, uint64_t page, char **cause)
{
	const struct job *job = jp->job;
	const struct engine_ops *ops = job_engine(job);
	uint64_t slot;

	/* An engine this build lacks is refused by the worker, by name. */
	jp->depth = ops && (ops->flags & ENGINE_F_SYNC) ? 1 : job->iodepth;
	job_bs_span(job, &jp->bs_min, &jp->bs_max);
	if (__builtin_add_overflow(jp->bs_max, page - 1, &jp->buf_size))
		return job_fail_at(job, "bs", cause, "the block size %llu does not fit a buffer",
				   (unsigned long long)jp->bs_max);
	jp->buf_size -= jp->buf_size % page;
	slot = jp->buf_size;
	if (job->sub_blocks > 1) {
		/* Each piece is an allocation of its own, beside the slot. */
		jp->sub_piece = jp->bs_max / job->sub_blocks;
		slot += jp->sub_piece * job->sub_blocks; /* <= bs_max: no overflow */
	}
	if (__builtin_mul_overflow(slot, (uint64_t)jp->depth, &jp->clone_mem) ||
	    __builtin_mul_overflow(jp->clone_mem, (uint64_t)job->numjobs, &jp->job_mem))
		return job_fail_at(
			job, "iodepth", cause,
			"%u clones x iodepth %u x %llu-byte buffers is more than 2^64 bytes",
			job->numjobs, jp->depth, (unsigned long long)slot);
	return 0;
}

/* Each clone's region (the byte parts: percentages wait for the file)
 * ends within PLAN_REGION_MAX, for every clone the job has. */
static int plan_regions(struct job_plan *jp, char **cause)
{
	const struct job *job = jp->job;
	uint64_t last = job->numjobs - 1, shift, first, end, own;
	uint64_t rstep = job->offset_rank_increment.pct ? 0 : job->offset_rank_increment.val;
	const char *blame;

	jp->nfiles = job->filename.n ? job->filename.n : job->nrfiles;
	jp->start = job->offset.pct ? 0 : job->offset.val;
	/* Under mpirun each rank's region starts rstep further on; every rank
	 * checks the last rank's, so that all refuse the same job alike. */
	if (__builtin_mul_overflow(rstep, (uint64_t)mpi_size() - 1, &shift) ||
	    __builtin_add_overflow(jp->start, shift, &first))
		return job_fail_at(job, "offset_rank_increment", cause,
				   "offset=%llu plus offset_rank_increment=%llu for each of %u "
				   "ranks is past 2^64 bytes",
				   (unsigned long long)jp->start, (unsigned long long)rstep,
				   mpi_size());
	own = jp->start + rstep * mpi_rank();
	jp->start = first;
	jp->step = job->offset_increment.pct ? 0 : job->offset_increment.val;
	if (job->filesize_min)
		jp->len = job->filesize_max; /* the region ends there, or at the start */
	else if (job->size.val && !job->size.pct)
		jp->len = job->size.val / jp->nfiles;
	if (__builtin_mul_overflow(jp->step, last, &shift) ||
	    __builtin_add_overflow(jp->start, shift, &first))
		return job_fail_at(
			job, "offset_increment", cause,
			"offset=%llu plus offset_increment=%llu for each of %u clones is "
			"past 2^64 bytes",
			(unsigned long long)jp->start, (unsigned long long)jp->step, job->numjobs);
	/* With filesize, the file's size is the region's end, not its length. */
	if (job->filesize_min)
		end = first > jp->len ? first : jp->len;
	else if (__builtin_add_overflow(first, jp->len, &end))
		end = UINT64_MAX;
	if (end <= PLAN_REGION_MAX) {
		jp->start = own;
		return 0;
	}
	/* The largest part of the sum is the one to blame. */
	if (job->filesize_min && jp->len > first)
		blame = "filesize";
	else if (jp->len >= jp->start && jp->len >= shift)
		blame = is_set(job, "size") ? "size" : "offset";
	else
		blame = shift > jp->start ? "offset_increment" : "offset";
	return job_fail_at(job, blame, cause,
			   "the I/O region%s (offset %llu, %llu bytes) ends past %llu, the largest "
			   "file offset",
			   job->numjobs > 1 ? " of the last clone" : "", (unsigned long long)first,
			   (unsigned long long)jp->len, (unsigned long long)PLAN_REGION_MAX);
}

int plan_jobs(const struct job *jobs, unsigned nr, uint64_t page, struct run_plan *out,
	      char **cause)
{
	struct strbuf all = { 0 };
	unsigned i, nr_bad = 0;
	int ret = 0, first = 0;

	*out = (struct run_plan){ .jobs = jobs, .nr = nr };
	out->v = xcalloc(nr ? nr : 1, sizeof(*out->v));
	/* Every job is planned, so that each one's error is reported at once
	 * (one a line, as job_build_all's); a failure that is not bad input
	 * stops. */
	for (i = 0; i < nr && (!first || first == -EINVAL); i++) {
		struct job_plan *jp = &out->v[i];
		char *one = NULL;

		jp->job = &jobs[i];
		ret = check_bs(jp->job, &one);
		if (!ret)
			ret = plan_memory(jp, page, &one);
		if (!ret)
			ret = plan_regions(jp, &one);
		if (!ret && __builtin_add_overflow(out->mem, jp->job_mem, &out->mem))
			ret = job_fail_at(
				jp->job, "iodepth", &one,
				"the I/O buffers of every job add up to more than 2^64 bytes");
		if (ret) {
			first = first ? first : ret;
			if (nr_bad++ < JOBFILE_ERRORS_MAX)
				strbuf_addf(&all, "%s%s", all.len ? "\n" : "", one);
			free(one);
			continue;
		}
		out->clones += jobs[i].numjobs; /* job_build_all bounded the sum */
		if (jp->job_mem > out->v[out->mem_most].job_mem)
			out->mem_most = i;
	}
	if (nr_bad > JOBFILE_ERRORS_MAX)
		strbuf_addf(&all, "\nand %u more error%s", nr_bad - JOBFILE_ERRORS_MAX,
			    nr_bad - JOBFILE_ERRORS_MAX > 1 ? "s" : "");
	if (first) {
		plan_free(out);
		*cause = strbuf_detach(&all);
	}
	strbuf_free(&all);
	return first;
}

void plan_free(struct run_plan *p)
{
	free(p->v);
	*p = (struct run_plan){ 0 };
}

void plan_region(const struct job_plan *jp, unsigned clone, unsigned filenum, uint64_t *start,
		 uint64_t *len)
{
	const struct job *job = jp->job;

	*start = jp->start + jp->step * clone;
	*len = 0;
	if (job->filesize_min) {
		struct rng rng;

		/* A filesize range picks a size per file, the same on every run. */
		rng_seed(&rng, job->randseed + filenum);
		*len = job->filesize_min +
		       rng_below(&rng, job->filesize_max - job->filesize_min + 1);
		*len = *len > *start ? *len - *start : 0;
	} else {
		*len = jp->len;
	}
}

uint64_t plan_pct(uint64_t v, uint64_t pct)
{
	/* (q x 100 + r) x pct / 100 = q x pct + r x pct / 100, each part in range. */
	return v / 100 * pct + v % 100 * pct / 100;
}

int plan_region_in_file(const struct job_plan *jp, unsigned clone, uint64_t size, uint64_t *start,
			uint64_t *len)
{
	const struct job *job = jp->job;
	uint64_t align = job->offset_align, lo, hi, add, end, min_bs;
	bool bad = false;

	/* As fio's get_start_offset: percentages are of the file as laid
	 * out, and a start with one in it is rounded up to offset_align, or
	 * to the smallest block of reads and writes. */
	job_bs_bounds(job, DDIR_READ, &lo, &hi);
	job_bs_bounds(job, DDIR_WRITE, &min_bs, &hi);
	min_bs = lo < min_bs ? lo : min_bs;
	if (!align)
		align = min_bs;
	if (job->offset.pct) {
		add = plan_pct(size, job->offset.val);
		bad |= __builtin_add_overflow(*start, add, start);
	}
	if (job->offset_increment.pct) {
		add = plan_pct(size, job->offset_increment.val);
		bad |= __builtin_mul_overflow(add, (uint64_t)clone, &add);
		bad |= __builtin_add_overflow(*start, add, start);
	}
	if (job->offset_rank_increment.pct) {
		add = plan_pct(size, job->offset_rank_increment.val);
		bad |= __builtin_mul_overflow(add, (uint64_t)mpi_rank(), &add);
		bad |= __builtin_add_overflow(*start, add, start);
	}
	if ((job->offset.pct || job->offset_increment.pct || job->offset_rank_increment.pct) &&
	    *start % align)
		bad |= __builtin_add_overflow(*start, align - *start % align, start);
	if (bad) {
		*start = UINT64_MAX;
		return -ERANGE;
	}
	/* size=N%, as fio's setup_files: N% of each file (not divided among
	 * them), down to a multiple of the smallest block. */
	if (job->size.pct)
		*len = plan_pct(size, job->size.val) / min_bs * min_bs;
	/* A percentage takes its region from what is left after the start. */
	if ((job->offset.pct || job->offset_increment.pct || job->offset_rank_increment.pct ||
	     job->size.pct) &&
	    (__builtin_add_overflow(*start, *len, &end) || end > size))
		*len = size > *start ? size - *start : 0;
	else if (!*len)
		*len = size > *start ? size - *start : 0;
	if (!*len || __builtin_add_overflow(*start, *len, &end) || end > size ||
	    end > PLAN_REGION_MAX)
		return -ERANGE;
	return 0;
}
