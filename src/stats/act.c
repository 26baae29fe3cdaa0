/* SPDX-License-Identifier: MIT */
/* --profile=act's per-slice counts and their judgement (see act.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/act.h"
#include "util/util.h"

/* fio 3.33's act_pass: over 1 ms in 5% of a slice's I/Os, over 8 ms in
 * 1%, over 64 ms in 0.1% fail it. */
const struct act_band act_bands[ACT_BANDS] = {
	{ 1000, 50 },
	{ 8000, 10 },
	{ 64000, 1 },
};

static size_t act_size(uint32_t nr)
{
	return sizeof(struct act_slices) + (size_t)nr * sizeof(struct act_slice);
}

struct act_slices *act_new(uint32_t nr, uint64_t slice_ns)
{
	struct act_slices *a;

	if (!nr)
		return NULL;
	a = xcalloc(1, act_size(nr));
	a->nr = nr;
	a->slice_ns = slice_ns;
	a->end = nr > 1 ? slice_ns : UINT64_MAX;
	/* Written once now: the loop's first touch of a slice faults nothing. */
	memset(a->v, 0, (size_t)nr * sizeof(struct act_slice));
	return a;
}

void act_free(struct act_slices *a)
{
	free(a);
}

/* Slice @k judged as fio's act_io_u_lat does: the first band whose share
 * (per mille, of the slice's own I/Os) reaches its limit fails it. */
static bool act_judge(struct act_slices *a, uint32_t k)
{
	const struct act_slice *s = &a->v[k];
	unsigned b;

	for (b = 0; s->ios && b < ACT_BANDS; b++) {
		double perm = 1000.0 * (double)s->over[b] / (double)s->ios;

		if (perm < act_bands[b].max_perm)
			continue;
		if (!a->failed) {
			a->failed = k + 1;
			a->failed_band = b;
			a->failed_perm = perm;
		}
		return true;
	}
	return false;
}

bool act_turn(struct act_slices *a, uint64_t at)
{
	uint64_t k = at / a->slice_ns;
	bool failed = act_judge(a, a->cur);

	/* The slices skipped on the way had no I/O: nothing to fail. */
	a->cur = k < a->nr - 1 ? (uint32_t)k : a->nr - 1;
	a->end = a->cur + 1 < a->nr ? (uint64_t)(a->cur + 1) * a->slice_ns : UINT64_MAX;
	return failed;
}

bool act_close(struct act_slices *a, uint64_t at)
{
	return at / a->slice_ns > a->cur && act_judge(a, a->cur);
}

char *act_fail_text(const struct act_slices *a)
{
	const struct act_slice *s = &a->v[a->failed ? a->failed - 1 : 0];
	unsigned b = a->failed_band;

	return xasprintf("act: %f%% exceeds pass criteria of %f%% (slice %u: %llu of its %llu "
			 "I/Os over %llu ms)",
			 a->failed_perm / 10.0, (double)act_bands[b].max_perm / 10.0, a->failed,
			 (unsigned long long)s->over[b], (unsigned long long)s->ios,
			 (unsigned long long)act_bands[b].over_us / 1000);
}

void act_merge(struct act_slices **dst, const struct act_slices *src)
{
	struct act_slices *d = *dst;
	uint32_t k;
	unsigned b;

	if (!src)
		return;
	if (!d || d->nr < src->nr) {
		struct act_slices *n = act_new(src->nr, src->slice_ns);

		if (d) {
			memcpy(n->v, d->v, (size_t)d->nr * sizeof(struct act_slice));
			n->failed = d->failed;
			n->failed_band = d->failed_band;
			n->failed_perm = d->failed_perm;
		}
		act_free(d);
		*dst = d = n;
	}
	for (k = 0; k < src->nr; k++) {
		d->v[k].ios += src->v[k].ios;
		for (b = 0; b < ACT_BANDS; b++)
			d->v[k].over[b] += src->v[k].over[b];
	}
	if (!d->failed && src->failed) {
		d->failed = src->failed;
		d->failed_band = src->failed_band;
		d->failed_perm = src->failed_perm;
	}
}

int act_save(const struct act_slices *a, int fd)
{
	uint32_t nr = a ? a->nr : 0;
	int ret = util_write_all(fd, &nr, sizeof(nr));

	if (!ret && a)
		ret = util_write_all(fd, a, act_size(a->nr));
	return ret;
}

int act_load(struct act_slices **out, int fd)
{
	struct act_slices *a;
	uint32_t nr;
	int ret = util_read_all(fd, &nr, sizeof(nr));

	*out = NULL;
	if (ret || !nr)
		return ret;
	if (nr > ACT_SLICES_MAX)
		return -EIO;
	a = xcalloc(1, act_size(nr));
	ret = util_read_all(fd, a, act_size(nr));
	if (!ret && (a->nr != nr || a->cur >= nr || !a->slice_ns))
		ret = -EIO;
	if (ret) {
		free(a);
		return ret;
	}
	*out = a;
	return 0;
}
