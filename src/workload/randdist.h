/* SPDX-License-Identifier: MIT */
/*
 * random_distribution: which block of a region of n blocks a random I/O
 * visits, when it is not uniform.  zipf:THETA (Gray et al.'s generator, as
 * fio's), pareto:H (n * U^(log h / log(1 - h)), as fio's), normal:SIGMA (fio's
 * own bell: the mean of 12 uniform draws, spread by SIGMA%), each scattered
 * over the region by a hash, as fio does; zoned:A/S:... and
 * zoned_abs:A/SIZE:... (a zone drawn by its access share, then a uniform
 * block in it, per direction).  A center moves the hottest block of zipf
 * and pareto there; normal ignores it, as fio 3.33 does (measured).
 * Pure: no I/O.
 */
#ifndef IOGAUGE_RANDDIST_H
#define IOGAUGE_RANDDIST_H

#include <stdbool.h>
#include <stdint.h>

#include "jobfile/job.h"
#include "workload/rand.h"

struct randdist {
	enum rand_dist_kind kind;
	uint64_t n; /* blocks */
	struct rng rng;
	double theta, zetan, zeta2, alpha, eta; /* zipf */
	double pareto_pow;
	uint64_t spread;   /* normal: blocks of the uniform spread */
	uint64_t rand_off; /* where the hash's output starts */
	bool nohash;	   /* set after init: ranks in order, not scattered (fio's disable_hash) */
	/* zoned: per direction, the cumulative access share and each zone's
	 * first block and count. */
	unsigned nz[2];
	double cum[2][JOB_MAX_ZONES];
	uint64_t first[2][JOB_MAX_ZONES], count[2][JOB_MAX_ZONES];
};

/* For a region of @nblocks blocks of @unit bytes. */
void randdist_init(struct randdist *r, const struct rand_dist *rd, uint64_t nblocks, uint64_t unit,
		   uint64_t seed);
/* The next block, 0 .. nblocks-1, for direction @d (0 read, 1 write). */
uint64_t randdist_next(struct randdist *r, unsigned d);

#endif
