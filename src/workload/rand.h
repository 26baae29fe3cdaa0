/* SPDX-License-Identifier: MIT */
/*
 * Random numbers and I/O offsets.  rng: xoshiro256** seeded through
 * splitmix64, deterministic for a seed.  offgen: the block numbers a job
 * visits in a region of nblocks blocks: sequential, or random, where each
 * pass is a pseudo-random permutation (every block exactly once per pass,
 * no bitmap: a keyed Feistel network over the next power of two, walked
 * until the value falls inside), or, with norandommap, independent
 * uniform draws.  Pure: no I/O, no allocation.
 */
#ifndef IOGAUGE_RAND_H
#define IOGAUGE_RAND_H

#include <stdbool.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform in [0, 1). */
double rng_unit(struct rng *r);
/* splitmix64's mixer: a bijection of 64-bit values that makes counters
 * look random. */
uint64_t rng_mix(uint64_t z);

/*
 * L'Ecuyer's taus88, the generator fio draws its read/write mix from,
 * seeded as fio seeds it: a job that leaves randseed alone makes fio's
 * own sequence of directions, so size-bound mixes end with fio's counts.
 */
struct taus88 {
	uint32_t s[3];
};

/* fio's seed number @which (its FIO_RAND_*_OFF order) of the clone that
 * is fio's thread number @thread (from 1, in job order) for randseed. */
uint64_t taus88_fio_seed(uint64_t randseed, unsigned thread, unsigned which);
void taus88_seed(struct taus88 *t, uint32_t seed);
uint32_t taus88_next(struct taus88 *t);
/* Uniform in [lo, hi], as fio's rand_between on a 32-bit state. */
unsigned taus88_between(struct taus88 *t, unsigned lo, unsigned hi);

/*
 * fio's random_generator=lfsr: a maximal-length Galois-style register of
 * the fewest bits (3 or more) whose range holds n values, stepped until a
 * value below n comes out, so n draws give each value once.  Seeded and
 * stepped as fio's, so that its sequence is fio's for the same seed.
 */
struct lfsr {
	uint64_t state, xormask, top, max; /* max: the largest value drawn */
	uint64_t seed;
	bool first; /* fio's first draw after set-up steps twice */
};

/* 0, or -EINVAL when fio cannot either: @n beyond 2^63, or a seed whose
 * low bits are all ones (the register's one forbidden state). */
int lfsr_init(struct lfsr *l, uint64_t n, uint64_t seed);
uint64_t lfsr_next(struct lfsr *l);
/* Back to the seed, as fio's lfsr_reset: the same sequence again. */
void lfsr_reset(struct lfsr *l);

enum offgen_mode { OFFGEN_SEQ, OFFGEN_RANDOM, OFFGEN_RANDOM_NOMAP, OFFGEN_LFSR };

struct offgen {
	enum offgen_mode mode;
	uint64_t nblocks;
	uint64_t pos;  /* blocks handed out in this pass */
	uint64_t pass; /* passes completed */
	struct rng rng;
	uint64_t mask;	    /* permutation domain minus one: 2^(2 * half_bits) - 1 */
	unsigned half_bits; /* Feistel half width */
	uint64_t keys[4];   /* round keys of this pass */
	struct lfsr lfsr;   /* OFFGEN_LFSR */
};

/* @nblocks > 0.  @seed decides the whole sequence (OFFGEN_LFSR: fio's
 * seed; lfsr_init must have accepted it, see offgen_lfsr_ok). */
void offgen_init(struct offgen *g, enum offgen_mode mode, uint64_t nblocks, uint64_t seed);
/* The next block number in [0, nblocks).  When a pass (nblocks I/Os) has
 * just completed, the next call starts a new pass: a new permutation in
 * OFFGEN_RANDOM mode, block 0 again in OFFGEN_SEQ. */
uint64_t offgen_next(struct offgen *g);
/* Starts a new pass now, as if the current one had completed. */
void offgen_restart(struct offgen *g);
/* Whether fio's lfsr takes @nblocks and @seed (lfsr_init's rule). */
bool offgen_lfsr_ok(uint64_t nblocks, uint64_t seed);

#endif
