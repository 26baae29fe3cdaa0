/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "workload/randdist.h"

/* zetan costs one pow() per block: capped as fio's ZIPF_MAX_GEN (10M). */
#define ZIPF_MAX_GEN 10000000ull

/* fio's __hash_long: a multiplication by the 64-bit golden ratio.  Its low
 * bits depend only on the rank's low bits, so over a power-of-two region
 * it is a bijection: no two ranks share a block. */
static uint64_t hash64(uint64_t rank)
{
	return rank * 0x61c8864680b583ebull;
}

/* Uniform in (0, 1): never 0, so logs and powers stay finite. */
static double unit_open(struct rng *r)
{
	double u;

	do
		u = rng_unit(r);
	while (u == 0.0);
	return u;
}

static void zoned_init(struct randdist *r, const struct rand_dist *rd, uint64_t unit)
{
	unsigned d, i;

	for (d = 0; d < 2; d++) {
		uint64_t at = 0;
		double acc = 0;

		r->nz[d] = rd->nr_zones[d];
		for (i = 0; i < r->nz[d]; i++) {
			const struct rand_zone *z = &rd->zones[d][i];
			uint64_t c = rd->kind == RDIST_ZONED
					     ? (uint64_t)llround(z->size_pct / 100.0 * (double)r->n)
					     : z->size / unit;

			/* What lies past the region is cut off; an empty zone takes one
			 * block, so that its share of the accesses still goes somewhere. */
			if (at >= r->n)
				at = r->n - 1;
			if (c > r->n - at)
				c = r->n - at;
			if (!c)
				c = 1;
			acc += z->access_pct;
			r->cum[d][i] = acc;
			r->first[d][i] = at;
			r->count[d][i] = c;
			at += c;
		}
	}
}

void randdist_init(struct randdist *r, const struct rand_dist *rd, uint64_t nblocks, uint64_t unit,
		   uint64_t seed)
{
	memset(r, 0, sizeof(*r));
	r->kind = rd->kind;
	r->n = nblocks ? nblocks : 1;
	rng_seed(&r->rng, seed);
	/* As fio 3.33 does (measured): the hash scatters the ranks always; a
	 * center puts the hottest block (rank 0, which the hash keeps at 0)
	 * at that fraction of the region, otherwise a random place. */
	r->rand_off =
		rd->has_center ? (uint64_t)(rd->center * (double)r->n) % r->n : rng_next(&r->rng);
	switch (rd->kind) {
	case RDIST_ZIPF: {
		uint64_t i, m = r->n < ZIPF_MAX_GEN ? r->n : ZIPF_MAX_GEN;

		r->theta = rd->param;
		for (i = 1; i <= m; i++)
			r->zetan += pow(1.0 / (double)i, r->theta);
		r->zeta2 = 1.0 + pow(0.5, r->theta);
		r->alpha = 1.0 / (1.0 - r->theta);
		r->eta = (1.0 - pow(2.0 / (double)m, 1.0 - r->theta)) / (1.0 - r->zeta2 / r->zetan);
		break;
	}
	case RDIST_PARETO:
		r->pareto_pow = log(rd->param) / log(1.0 - rd->param);
		break;
	case RDIST_NORMAL:
		/* fio's "normal": the mean of 12 uniform draws over the region
		 * (about n/12 wide), plus a uniform spread of SIGMA% of n
		 * blocks, at most n/2 (matched against fio 3.33's output).  fio 3.33 ignores a
		 * center here (measured). */
		if (rd->param > 0) {
			r->spread = (uint64_t)((double)r->n * rd->param / 100.0);
			if (r->spread > r->n / 2)
				r->spread = r->n / 2;
		}
		break;
	case RDIST_ZONED:
	case RDIST_ZONED_ABS:
		zoned_init(r, rd, unit);
		break;
	case RDIST_RANDOM:
		break;
	}
}

/* A rank (0 = hottest) placed in the region, scattered by the hash. */
static uint64_t place(const struct randdist *r, uint64_t rank)
{
	return ((r->nohash ? rank : hash64(rank)) + r->rand_off) % r->n;
}

uint64_t randdist_next(struct randdist *r, unsigned d)
{
	double u, x;
	unsigned i;

	switch (r->kind) {
	case RDIST_ZIPF: {
		uint64_t m = r->n < ZIPF_MAX_GEN ? r->n : ZIPF_MAX_GEN, v;

		u = rng_unit(&r->rng);
		x = u * r->zetan;
		if (x < 1.0)
			v = 0;
		else if (x < r->zeta2)
			v = 1;
		else
			v = (uint64_t)((double)m * pow(r->eta * u - r->eta + 1.0, r->alpha));
		if (v >= m)
			v = m - 1;
		/* Past ZIPF_MAX_GEN the ranks repeat over the region, as fio. */
		return place(r, v * (r->n / m) + (r->n > m ? rng_below(&r->rng, r->n / m) : 0));
	}
	case RDIST_PARETO:
		return place(
			r, (uint64_t)((double)(r->n - 1) * pow(unit_open(&r->rng), r->pareto_pow)));
	case RDIST_NORMAL: {
		/* As fio's gauss_next, to the wrap of a negative spread. */
		uint64_t sum = 0;
		int k;

		for (k = 0; k < 12; k++)
			sum += (rng_next(&r->rng) >> 32) % (r->n + 1);
		sum = (sum + 11) / 12;
		if (r->spread) {
			int64_t dev = (int64_t)((double)r->spread *
						ldexp((double)(rng_next(&r->rng) >> 32), -32)) -
				      (int64_t)(r->spread / 2);

			while (dev + (int64_t)sum >= (int64_t)r->n)
				dev /= 2;
			sum += (uint64_t)dev;
		}
		return (r->nohash ? sum : hash64(sum)) % r->n; /* fio: no offset here */
	}
	case RDIST_ZONED:
	case RDIST_ZONED_ABS:
		d = d ? 1 : 0;
		u = rng_unit(&r->rng) * r->cum[d][r->nz[d] - 1];
		for (i = 0; i + 1 < r->nz[d] && u >= r->cum[d][i]; i++)
			;
		return r->first[d][i] + rng_below(&r->rng, r->count[d][i]);
	case RDIST_RANDOM:
		break;
	}
	return rng_below(&r->rng, r->n);
}
