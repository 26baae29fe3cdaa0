/* SPDX-License-Identifier: MIT */
/*
 * The plan: every size, offset, count and buffer sum of a run, computed
 * once from the built jobs with checked arithmetic, between job_build_all
 * and any set-up.  A value that does not fit is bad input, refused with the
 * file:line or flag that set it.  Pure: no I/O, no globals.  Workers and
 * files read the plan; what they still compute cannot overflow, because
 * the plan bounded what goes into it.
 */
#ifndef IOGAUGE_PLAN_H
#define IOGAUGE_PLAN_H

#include <stdint.h>

#include "jobfile/job.h"

/* bytes: the largest block, Linux's per-syscall I/O maximum (MAX_RW_COUNT);
 * io_uring and libaio carry an I/O's length in 32 bits. */
#define PLAN_BS_MAX 0x7ffff000ull
/* bytes: the end of any I/O region, the largest file offset (off_t). */
#define PLAN_REGION_MAX ((uint64_t)INT64_MAX)

struct job_plan {
	const struct job *job;
	unsigned depth;		 /* I/O slots per clone: 1 on a sync engine */
	unsigned nfiles;	 /* files per clone */
	uint64_t bs_min, bs_max; /* bytes, over the directions the job does */
	uint64_t buf_size;	 /* bytes per slot: bs_max up to a whole page */
	uint64_t sub_piece;	 /* bytes per sub_blocks piece; 0: no pieces */
	uint64_t clone_mem;	 /* bytes of I/O buffers per clone */
	uint64_t job_mem;	 /* ... for all numjobs clones */
	uint64_t start;		 /* bytes: clone 0's region start (offset in bytes) */
	uint64_t step;		 /* bytes: each further clone's start moves by this */
	uint64_t len;		 /* bytes per file from size (or the largest filesize);
				  * 0: the file as it is */
};

struct run_plan {
	const struct job *jobs; /* the jobs planned, not owned */
	unsigned nr;
	struct job_plan *v; /* one per job */
	unsigned clones;    /* every job's numjobs, summed */
	uint64_t mem;	    /* bytes: every clone's I/O buffers */
	unsigned mem_most;  /* the job whose clones need the most of it */
};

/*
 * Plans @jobs (as job_build_all built them) with a @page-byte page.
 * 0 with *out filled (plan_free releases it), or -EINVAL with *cause set
 * to "ORIGIN: [job] message" lines, one for each job that cannot be
 * planned, ORIGIN the file:line or flag to blame.
 */
int plan_jobs(const struct job *jobs, unsigned nr, uint64_t page, struct run_plan *out,
	      char **cause);
void plan_free(struct run_plan *p);

/*
 * The bytes clone @clone of the job needs in file @filenum before the file
 * is looked at: its region's start (the offsets given in bytes) and its
 * length (size, or the filesize drawn for the file; 0: the file as it is).
 * Cannot overflow: plan_jobs checked start + len for every clone.
 */
void plan_region(const struct job_plan *jp, unsigned clone, unsigned filenum, uint64_t *start,
		 uint64_t *len);

/*
 * The region once the file is laid out with @size bytes: percentage
 * offsets and sizes taken of @size (the start rounded up to the smallest
 * block size, as fio), on top of *start and *len from plan_region.  0, or -ERANGE when the region
 * would end past @size or PLAN_REGION_MAX, or is empty.
 */
int plan_region_in_file(const struct job_plan *jp, unsigned clone, uint64_t size, uint64_t *start,
			uint64_t *len);

/* @v x @pct / 100, exact and without overflow (@pct <= 100). */
uint64_t plan_pct(uint64_t v, uint64_t pct);

#endif
