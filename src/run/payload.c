/* SPDX-License-Identifier: MIT */
/*
 * What the bytes of a clone's writes are (see payload.h): random,
 * compressible or zero contents, and the scramble that sets each write's
 * blocks apart.  The stamps of verify= are verify.c's.
 */
#include <string.h>

#include "run/payload.h"

void payload_init(struct payload *pl, const struct job *job, uint64_t seed)
{
	memset(pl, 0, sizeof(*pl));
	pl->job = job;
	rng_seed(&pl->data_rng, seed ^ 0x64617461u); /* "data": apart from the mix draws */
	/* As fio: compressible contents are made anew for every write. */
	pl->refill = !job->zero_buffers && (job->refill_buffers || job->buffer_compress_percentage);
	pl->scramble = !job->zero_buffers && !pl->refill && job->scramble_buffers;
	pl->scramble_at = (size_t)rng_below(&pl->data_rng, 512 / 16) * 16;
	pl->scramble_key[0] = rng_next(&pl->data_rng);
	pl->scramble_key[1] = rng_next(&pl->data_rng);
}

void payload_fill(struct payload *pl, char *p, size_t len)
{
	const struct job *job = pl->job;
	size_t chunk = job->buffer_compress_percentage ? job->buffer_compress_chunk : len;
	size_t done, l, r;

	if (job->zero_buffers) {
		memset(p, 0, len);
		return;
	}
	for (done = 0; done < len; done += chunk) {
		size_t n = len - done < chunk ? len - done : chunk;

		r = n - n * job->buffer_compress_percentage / 100;
		for (l = 0; l < r; l += 8) {
			uint64_t v = rng_next(&pl->data_rng);

			memcpy(p + done + l, &v, r - l < 8 ? r - l : 8);
		}
		memset(p + done + r, 0, n - r);
	}
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
