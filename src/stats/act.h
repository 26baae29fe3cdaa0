/* SPDX-License-Identifier: MIT */
/*
 * --profile=act's slices, as fio 3.33 keeps them per thread: per slice of
 * the clone's measured time (an hour unless --slice-duration), its I/Os
 * and how many of them were over each of ACT's three latency bounds (in
 * the highest band only), judged against ACT's pass criteria as the slice
 * closes.  Made before the clock starts, counted in the I/O loop with no
 * allocation, merged and handed over as the other stats.  No printing.
 */
#ifndef IOGAUGE_STATS_ACT_H
#define IOGAUGE_STATS_ACT_H

#include <stdbool.h>
#include <stdint.h>

#define ACT_BANDS 3
/* The most slices a clone keeps (32 bytes each): 11 years of hours. */
#define ACT_SLICES_MAX 100000u

/* ACT's criteria: an I/O is over a band when its total latency in whole
 * microseconds is over @over_us; a slice fails when @max_perm per mille of
 * its I/Os or more are in the band. */
struct act_band {
	uint64_t over_us;
	unsigned max_perm;
};
extern const struct act_band act_bands[ACT_BANDS];

struct act_slice {
	uint64_t ios;
	uint64_t over[ACT_BANDS]; /* I/Os whose highest band is this one */
};

struct act_slices {
	uint64_t slice_ns; /* ns: one slice's length */
	uint64_t end;	   /* ns from the clone's start: the current slice ends; UINT64_MAX: last */
	uint32_t nr;	   /* slices */
	uint32_t cur;	   /* the slice I/Os are counted in */
	/* The first slice that failed, judged as it closed: 1-based, 0: none;
	 * its band and share (per mille of its I/Os). */
	uint32_t failed, failed_band;
	double failed_perm;
	struct act_slice v[];
};

/* @nr slices of @slice_ns each, zeroed and faulted in: NULL when @nr is 0. */
struct act_slices *act_new(uint32_t nr, uint64_t slice_ns);
void act_free(struct act_slices *a);

/* Out of line: the I/O at @at (ns from the clone's start) is past the
 * current slice: the slices up to its own are judged (closed) and it
 * becomes the current one.  Whether one failed (the first is kept). */
bool act_turn(struct act_slices *a, uint64_t at);
/* The clone ends @at ns from its start: the current slice is judged if
 * it has lasted its whole length (fio judges a slice only then): whether
 * it failed. */
bool act_close(struct act_slices *a, uint64_t at);

/*
 * One I/O that completed at @at (ns from the clone's measured start) with
 * a total latency of @lat_ns, counted in the current slice: the I/O that
 * completes past the slice's end is counted in the slice it closes, as
 * fio's act_io_u_lat counts it.  An I/O after the last slice (the run's
 * end jitter) counts in the last.  Returns true when it closed a slice that
 * failed the criteria: the clone stops, as fio's thread does.
 */
static inline bool act_record(struct act_slices *a, uint64_t at, uint64_t lat_ns)
{
	uint64_t us = lat_ns / 1000;
	struct act_slice *s = &a->v[a->cur];
	unsigned b;

	s->ios++;
	for (b = ACT_BANDS; b-- > 0;)
		if (us > act_bands[b].over_us) {
			s->over[b]++;
			break;
		}
	return at >= a->end && act_turn(a, at);
}

/* "act: 6.250000% exceeds pass criteria of 5.000000% (slice 2: 16 of its
 * 256 I/Os over 1 ms)", fio's words and the slice's counts; fresh. */
char *act_fail_text(const struct act_slices *a);

/* @src's counts added to *@dst slice by slice (*@dst made when NULL; it
 * keeps the more slices of the two). */
void act_merge(struct act_slices **dst, const struct act_slices *src);
/* @a (may be NULL) written to @fd, and read back into *@out (NULL when
 * none was written).  0, or -errno (-EIO: not what act_save wrote). */
int act_save(const struct act_slices *a, int fd);
int act_load(struct act_slices **out, int fd);

#endif
