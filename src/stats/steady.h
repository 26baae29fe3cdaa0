/* SPDX-License-Identifier: MIT */
/*
 * fio's steady-state judgement (steadystate=, ss_dur=, ss_ramp=): a ring
 * of the last ss_dur one-second samples of IOPS and bandwidth, and after
 * each sample, once the ring is full, whether the criterion holds: the
 * largest deviation from the window's mean (iops, bw) or the least-squares
 * slope over the window (iops_slope, bw_slope) below the limit, as a
 * percentage of the mean or absolute.  Pure: no clock, no threads; the
 * run's sampler (run/steady.c) feeds it.
 */
#ifndef IOGAUGE_STEADY_H
#define IOGAUGE_STEADY_H

#include <stdbool.h>
#include <stdint.h>

#include "jobfile/job.h"

struct steady {
	struct steady_spec spec;
	unsigned dur;	  /* samples in the window (ss_dur in seconds) */
	uint64_t *iops;	  /* the ring: IOPS ... */
	uint64_t *bw;	  /* ... and bytes/s of each sample */
	unsigned next;	  /* where the next sample goes */
	uint64_t samples; /* taken in all */
	bool attained;	  /* the criterion held: the job ended on it */
	double slope;	  /* per second, over the window, of the judged value */
	double deviation; /* largest distance from the mean */
	double criterion; /* what was compared with the limit: slope or deviation, or their % */
};

/* Sets up @s for @dur samples (1 or more).  Aborts as xmalloc
 * does when there is no memory. */
void steady_init(struct steady *s, const struct steady_spec *spec, unsigned dur);
void steady_free(struct steady *s);
/* Adds a sample; true when the window is full and the criterion holds
 * (then s->attained is set). */
bool steady_add(struct steady *s, uint64_t iops, uint64_t bw);
/* Sample @i of the window, oldest first (i < dur); 0 for a slot not yet
 * filled, as fio reports them. */
void steady_sample(const struct steady *s, unsigned i, uint64_t *iops, uint64_t *bw);
/* The means over the ring, integer as fio's (sum over dur). */
uint64_t steady_iops_mean(const struct steady *s);
uint64_t steady_bw_mean(const struct steady *s);
/* "iops", "iops_slope", "bw" or "bw_slope". */
const char *steady_kind_name(enum steady_kind k);

#endif
