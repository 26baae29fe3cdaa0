/* SPDX-License-Identifier: MIT */
/*
 * What the bytes of a clone's writes are (see payload.h): random,
 * compressible or zero contents, buffer_pattern, the repeats of
 * dedupe_percentage, and the scramble that sets each write's blocks
 * apart.  The stamps of verify= are verify.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "run/payload.h"

/* dedupe_mode=working_set: the pages duplicates are made of are the
 * clone's first unique buffers, as fio's (size * the percentage / the
 * smallest write); dedupe_global makes them again from every clone's. */
static void dedupe_init(struct payload *pl, const struct job *job, unsigned thread)
{
	uint64_t lo, hi, i;
	struct rng r;

	rng_seed(&pl->dedupe_rng, rng_mix(pl->scramble_key[0] ^ thread) ^ 0x64656475u);
	rng_seed(&pl->seeds, rng_mix(pl->scramble_key[1] + thread) ^ 0x73656564u);
	pl->next_seed = rng_next(&pl->seeds);
	if (!job->dedupe_percentage || job->dedupe_mode != DEDUPE_WORKING_SET)
		return;
	job_bs_bounds(job, DDIR_WRITE, &lo, &hi);
	pl->nr_ws = job->size.val / 100 * job->dedupe_working_set_percentage / lo;
	if (!pl->nr_ws)
		pl->nr_ws = 1; /* job.c refuses a set of no page; a guard */
	pl->ws = xcalloc(pl->nr_ws, sizeof(*pl->ws));
	r = pl->seeds;
	pl->ws[0] = pl->next_seed;
	for (i = 1; i < pl->nr_ws; i++)
		pl->ws[i] = rng_next(&r);
}

void payload_init(struct payload *pl, const struct job *job, uint64_t seed, unsigned thread)
{
	memset(pl, 0, sizeof(*pl));
	pl->job = job;
	rng_seed(&pl->data_rng, seed ^ 0x64617461u); /* "data": apart from the mix draws */
	/* As fio: compressible contents are made anew for every write. */
	pl->refill = !job->zero_buffers && (job->refill_buffers || job->buffer_compress_percentage);
	/* As fio: dedupe refills every write (job.c turned scramble off
	 * for a pattern, unless scramble_buffers came after it). */
	pl->refill |= job->dedupe_percentage != 0;
	pl->scramble = !job->zero_buffers && !pl->refill && job->scramble_buffers;
	pl->scramble_at = (size_t)rng_below(&pl->data_rng, 512 / 16) * 16;
	pl->scramble_key[0] = rng_next(&pl->data_rng);
	pl->scramble_key[1] = rng_next(&pl->data_rng);
	dedupe_init(pl, job, thread);
}

void payload_free(struct payload *pl)
{
	free(pl->ws);
	pl->ws = NULL;
}

void payload_dedupe_share(struct payload *const *pls, unsigned n)
{
	unsigned k;

	for (k = 0; k < n; k++) {
		struct payload *pl = pls[k];
		uint64_t per, i;
		struct rng r = { { 0 } };

		if (!pl->ws || !pl->job->dedupe_global)
			continue;
		/* As fio: blocks of nr_ws / n pages, the clone's own first. */
		per = pl->nr_ws / n ? pl->nr_ws / n : 1;
		for (i = 0; i < pl->nr_ws; i++) {
			const struct payload *from = pls[(k + i / per) % n];

			if (i % per == 0) {
				r = from->seeds;
				pl->ws[i] = from->next_seed;
			} else {
				pl->ws[i] = rng_next(&r);
			}
		}
	}
}

/* buffer_pattern over @len bytes, from its first byte, as fio. */
static void fill_pattern(const struct verify_pattern *bp, char *p, size_t len)
{
	size_t l;

	for (l = 0; l < len; l += bp->len)
		memcpy(p + l, bp->bytes, len - l < bp->len ? len - l : bp->len);
}

/* Random bytes from @r; with buffer_compress_percentage, each chunk's
 * tail zeros (or buffer_pattern). */
static void fill_from(const struct job *job, struct rng *rg, char *p, size_t len)
{
	size_t chunk = job->buffer_compress_percentage ? job->buffer_compress_chunk : len;
	size_t done, l, r;

	for (done = 0; done < len; done += chunk) {
		size_t n = len - done < chunk ? len - done : chunk;

		r = n - n * job->buffer_compress_percentage / 100;
		for (l = 0; l < r; l += 8) {
			uint64_t v = rng_next(rg);

			memcpy(p + done + l, &v, r - l < 8 ? r - l : 8);
		}
		if (job->buffer_pattern.len)
			fill_pattern(&job->buffer_pattern, p + done + r, n - r);
		else
			memset(p + done + r, 0, n - r);
	}
}

void payload_fill(struct payload *pl, char *p, size_t len)
{
	const struct job *job = pl->job;

	/* As fio: a pattern before zero_buffers, compression before both. */
	if (job->buffer_pattern.len && !job->buffer_compress_percentage) {
		fill_pattern(&job->buffer_pattern, p, len);
		return;
	}
	if (job->zero_buffers) {
		memset(p, 0, len);
		return;
	}
	fill_from(job, &pl->data_rng, p, len);
}

/* As fio's get_buf_state: with dedupe_percentage=100 every buffer is the
 * same one; else a draw of 1..100 at or under it makes a duplicate.  A
 * repeat is fio's: the state after the last unique buffer, so the buffer
 * that the next unique write will hold. */
static uint64_t dedupe_seed(struct payload *pl)
{
	const struct job *job = pl->job;
	uint64_t s = pl->next_seed;

	if (job->dedupe_percentage == 100)
		return s;
	if (rng_below(&pl->dedupe_rng, 100) < job->dedupe_percentage)
		return job->dedupe_mode == DEDUPE_WORKING_SET
			       ? pl->ws[rng_below(&pl->dedupe_rng, pl->nr_ws)]
			       : s;
	pl->next_seed = rng_next(&pl->seeds);
	return s;
}

void payload_refill(struct payload *pl, char *p, size_t len)
{
	struct rng r;

	if (!pl->job->dedupe_percentage) {
		payload_fill(pl, p, len);
		return;
	}
	/* As fio: the whole buffer from one seed (compression too), so
	 * that a duplicate is the same bytes. */
	rng_seed(&r, dedupe_seed(pl));
	fill_from(pl->job, &r, p, len);
}

void payload_scramble(struct payload *pl, char *p, size_t len, uint64_t off)
{
	/* Mixed once per write; the blocks of one write step by an odd
	 * constant, so they differ from each other, and seq sets the write
	 * apart from every other one. */
	uint64_t seq = rng_mix(pl->writes ^ pl->scramble_key[1]);
	uint64_t o = rng_mix(off ^ pl->scramble_key[0]);
	size_t l;

	for (l = 0; l + 512 <= len; l += 512, o += 0x9e3779b97f4a7c15ull) {
		memcpy(p + l + pl->scramble_at, &o, 8);
		memcpy(p + l + pl->scramble_at + 8, &seq, 8);
	}
}
