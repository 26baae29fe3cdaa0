/* SPDX-License-Identifier: MIT */
/*
 * Random numbers (xoshiro256** seeded through splitmix64) and the block
 * offsets a job visits.  Random passes are permutations made by a keyed
 * Feistel network with cycle walking, so no per-block bitmap is kept.
 * Not cryptographic, and not thread-safe: each worker owns its state.
 */
#include <errno.h>
#include <string.h>

#include "workload/rand.h"

#define FEISTEL_ROUNDS 4
_Static_assert(FEISTEL_ROUNDS == sizeof(((struct offgen *)0)->keys) / sizeof(uint64_t),
	       "one round key per Feistel round");

static inline uint64_t rotl(uint64_t x, unsigned k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* splitmix64: steps *@x by the golden gamma and returns the mixed value. */
static uint64_t splitmix64(uint64_t *x)
{
	return rng_mix(*x += 0x9e3779b97f4a7c15ull);
}

/*
 * Four distinct splitmix64 outputs: splitmix64's mixer is a bijection, so
 * at most one of them is zero and the state is never all zero.
 */
void rng_seed(struct rng *r, uint64_t seed)
{
	unsigned i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/*
 * Lemire's multiply-and-reject: the high word of x * n is uniform once the
 * low words below 2^64 mod n are rejected.  The division that computes that
 * threshold only runs when the low word is already below n, rarely for small n.
 */
uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t threshold = -n % n;

		while (lo < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* ---- taus88, as fio ---- */

/* fio's multiplier for its seed numbers (64-bit, wrapping). */
#define FIO_SEED_STEP 0x9e370001ull

uint64_t taus88_fio_seed(uint64_t randseed, unsigned thread, unsigned which)
{
	uint64_t seed = randseed;
	unsigned i;

	/* Four steps before the first number, then one per number. */
	for (i = 0; i < 4 + which; i++)
		seed *= FIO_SEED_STEP;
	return seed * thread + which;
}

/* One step of a component: @s's kept bits (@mask) moved up by @up, XORed
 * with its feedback. */
static inline uint32_t taus_step(uint32_t s, unsigned a, unsigned b, uint32_t mask, unsigned up)
{
	return ((s & mask) << up) ^ (((s << a) ^ s) >> b);
}

uint32_t taus88_next(struct taus88 *t)
{
	t->s[0] = taus_step(t->s[0], 13, 19, 0xfffffffeu, 12);
	t->s[1] = taus_step(t->s[1], 2, 25, 0xfffffff8u, 4);
	t->s[2] = taus_step(t->s[2], 3, 11, 0xfffffff0u, 17);
	return t->s[0] ^ t->s[1] ^ t->s[2];
}

/*
 * fio's seeding: a linear congruential chain from 53 (what fio writes as
 * (2^31) + (2^17) + (2^7), which C reads as XORs), each component kept
 * above the bits its step drops (s > 1, > 7, > 15), then six steps.
 */
void taus88_seed(struct taus88 *t, uint32_t seed)
{
	static const uint32_t least[3] = { 1, 7, 15 };
	uint32_t x = 53;
	unsigned i;

	for (i = 0; i < 3; i++) {
		x = x * 69069u ^ seed;
		if (x < least[i])
			x += least[i];
		t->s[i] = x;
	}
	for (i = 0; i < 6; i++)
		taus88_next(t);
}

unsigned taus88_between(struct taus88 *t, unsigned lo, unsigned hi)
{
	double r = (double)taus88_next(t) / 4294967296.0;

	return lo + (unsigned)((double)(hi - lo + 1) * r);
}

/* ---- fio's lfsr ---- */

/*
 * fio's feedback taps (bit positions, from 1) of a maximal-length register
 * of 3 to 63 bits, the first being its width: the published tables fio
 * takes them from.  0 ends a row.
 */
static const uint8_t lfsr_taps[64][6] = {
	[3] = { 3, 2 },
	[4] = { 4, 3 },
	[5] = { 5, 3 },
	[6] = { 6, 5 },
	[7] = { 7, 6 },
	[8] = { 8, 6, 5, 4 },
	[9] = { 9, 5 },
	[10] = { 10, 7 },
	[11] = { 11, 9 },
	[12] = { 12, 6, 4, 1 },
	[13] = { 13, 4, 3, 1 },
	[14] = { 14, 5, 3, 1 },
	[15] = { 15, 14 },
	[16] = { 16, 15, 13, 4 },
	[17] = { 17, 14 },
	[18] = { 18, 11 },
	[19] = { 19, 6, 2, 1 },
	[20] = { 20, 17 },
	[21] = { 21, 19 },
	[22] = { 22, 21 },
	[23] = { 23, 18 },
	[24] = { 24, 23, 22, 17 },
	[25] = { 25, 22 },
	[26] = { 26, 6, 2, 1 },
	[27] = { 27, 5, 2, 1 },
	[28] = { 28, 25 },
	[29] = { 29, 27 },
	[30] = { 30, 6, 4, 1 },
	[31] = { 31, 28 },
	[32] = { 32, 31, 29, 1 },
	[33] = { 33, 20 },
	[34] = { 34, 27, 2, 1 },
	[35] = { 35, 33 },
	[36] = { 36, 25 },
	[37] = { 37, 5, 4, 3, 2, 1 },
	[38] = { 38, 6, 5, 1 },
	[39] = { 39, 35 },
	[40] = { 40, 38, 21, 19 },
	[41] = { 41, 38 },
	[42] = { 42, 41, 20, 19 },
	[43] = { 43, 42, 38, 37 },
	[44] = { 44, 43, 18, 17 },
	[45] = { 45, 44, 42, 41 },
	[46] = { 46, 45, 26, 25 },
	[47] = { 47, 42 },
	[48] = { 48, 47, 21, 20 },
	[49] = { 49, 40 },
	[50] = { 50, 49, 24, 23 },
	[51] = { 51, 50, 36, 35 },
	[52] = { 52, 49 },
	[53] = { 53, 52, 38, 37 },
	[54] = { 54, 53, 18, 17 },
	[55] = { 55, 31 },
	[56] = { 56, 55, 35, 34 },
	[57] = { 57, 50 },
	[58] = { 58, 39 },
	[59] = { 59, 58, 38, 37 },
	[60] = { 60, 59 },
	[61] = { 61, 60, 46, 45 },
	[62] = { 62, 61, 6, 5 },
	[63] = { 63, 62 },
};

/* The register's width for @n values: the all-ones state never comes, so
 * 2^width must exceed n.  0: none is wide enough. */
static unsigned lfsr_width(uint64_t n)
{
	unsigned w;

	for (w = 3; w < 64; w++)
		if ((1ull << w) > n)
			return w;
	return 0;
}

bool offgen_lfsr_ok(uint64_t nblocks, uint64_t seed)
{
	unsigned w = lfsr_width(nblocks);

	return w && (seed & ((1ull << w) - 1)) != (1ull << w) - 1;
}

int lfsr_init(struct lfsr *l, uint64_t n, uint64_t seed)
{
	unsigned w = lfsr_width(n), i;

	if (!offgen_lfsr_ok(n, seed))
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	for (i = 0; i < 6 && lfsr_taps[w][i]; i++)
		l->xormask |= 1ull << (lfsr_taps[w][i] - 1);
	l->top = 1ull << (w - 1);
	l->max = n - 1;
	l->seed = seed;
	l->first = true;
	lfsr_reset(l);
	return 0;
}

void lfsr_reset(struct lfsr *l)
{
	l->state = l->seed & ((l->top << 1) - 1);
}

/* One shift: the low bit out, the top bit in, and when the bit out was 0
 * the taps flipped. */
static inline uint64_t lfsr_step(const struct lfsr *l, uint64_t v)
{
	uint64_t out = (v >> 1) | l->top;

	return v & 1 ? out : out ^ l->xormask;
}

uint64_t lfsr_next(struct lfsr *l)
{
	if (l->first) {
		l->first = false;
		l->state = lfsr_step(l, l->state);
	}
	do
		l->state = lfsr_step(l, l->state);
	while (l->state > l->max);
	return l->state;
}

/* The Feistel round function: a 64-bit finalizer (murmur3's fmix64) of half ^ key. */
static inline uint64_t feistel_round(uint64_t half, uint64_t key)
{
	uint64_t z = half ^ key;

	z = (z ^ (z >> 33)) * 0xff51afd7ed558ccdull;
	z = (z ^ (z >> 33)) * 0xc4ceb9fe1a85ec53ull;
	return z ^ (z >> 33);
}

/* A bijection of [0, mask]: a balanced Feistel network over two half_bits halves. */
static inline uint64_t feistel_encrypt(const struct offgen *g, uint64_t x)
{
	uint64_t half_mask = g->mask >> g->half_bits;
	uint64_t left = x >> g->half_bits;
	uint64_t right = x & half_mask;
	unsigned i;

	for (i = 0; i < FEISTEL_ROUNDS; i++) {
		uint64_t t = right;

		right = left ^ (feistel_round(right, g->keys[i]) & half_mask);
		left = t;
	}
	return (left << g->half_bits) | right;
}

static void offgen_rekey(struct offgen *g)
{
	unsigned i;

	for (i = 0; i < FEISTEL_ROUNDS; i++)
		g->keys[i] = rng_next(&g->rng);
}

/*
 * The domain is 2^(2 * half_bits), the smallest even power of two holding
 * nblocks, so it is less than 4 * nblocks and cycle walking is short.
 * nblocks == 1 gives half_bits == 0: a domain of one value, 0.
 */
void offgen_init(struct offgen *g, enum offgen_mode mode, uint64_t nblocks, uint64_t seed)
{
	unsigned bits = 0;
	uint64_t half_mask;

	g->mode = mode;
	g->nblocks = nblocks;
	g->pos = 0;
	g->pass = 0;
	rng_seed(&g->rng, seed);
	while (bits < 64 && (1ull << bits) < nblocks)
		bits++;
	bits += bits & 1;
	g->half_bits = bits / 2;
	/* Built from the half mask so that 64 bits needs no shift by 64. */
	half_mask = (1ull << g->half_bits) - 1;
	g->mask = (half_mask << g->half_bits) | half_mask;
	memset(g->keys, 0, sizeof(g->keys));
	if (mode == OFFGEN_RANDOM)
		offgen_rekey(g);
	if (mode == OFFGEN_LFSR && lfsr_init(&g->lfsr, nblocks, seed))
		g->mode = OFFGEN_RANDOM_NOMAP; /* not reached: offgen_lfsr_ok was asked */
}

/*
 * Cycle walking: re-encrypting a value that falls outside [0, nblocks)
 * follows the permutation's cycle to the next value inside it, which keeps
 * the result a permutation of [0, nblocks).
 */
uint64_t offgen_next(struct offgen *g)
{
	uint64_t v;

	switch (g->mode) {
	case OFFGEN_SEQ:
		v = g->pos;
		break;
	case OFFGEN_RANDOM:
		v = feistel_encrypt(g, g->pos);
		while (v >= g->nblocks)
			v = feistel_encrypt(g, v);
		break;
	case OFFGEN_LFSR:
		v = lfsr_next(&g->lfsr);
		break;
	case OFFGEN_RANDOM_NOMAP:
	default:
		v = rng_below(&g->rng, g->nblocks);
		break;
	}
	if (++g->pos == g->nblocks) {
		g->pos = 0;
		g->pass++;
		if (g->mode == OFFGEN_RANDOM)
			offgen_rekey(g);
		/* As fio's fio_file_reset: the next pass repeats the sequence. */
		if (g->mode == OFFGEN_LFSR)
			lfsr_reset(&g->lfsr);
	}
	return v;
}

void offgen_restart(struct offgen *g)
{
	if (!g->pos)
		return; /* a pass that has not begun is as new */
	g->pos = 0;
	g->pass++;
	if (g->mode == OFFGEN_RANDOM)
		offgen_rekey(g);
	if (g->mode == OFFGEN_LFSR)
		lfsr_reset(&g->lfsr);
}
