/* SPDX-License-Identifier: MIT */
/*
 * Completion latency per I/O priority (fio's clat_prio): one histogram per
 * distinct ioprio value a direction's I/Os were sent with, when cmdprio*
 * splits a job's I/Os, or when group_reporting puts jobs of different
 * prio/prioclass in one report.  The histograms hold clat, or the total
 * latency with lat_percentiles, as fio's.  Set up before the run; recording
 * neither allocates nor locks.  No I/O but stats_save's, no printing.
 */
#ifndef IOGAUGE_STATS_PRIO_H
#define IOGAUGE_STATS_PRIO_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/hist.h"

/* Distinct ioprio values: classes 0..3 (none, realtime, best-effort,
 * idle), levels 0..7. */
#define PRIO_STATS_MAX 32

/* An ioprio value's class and level, as fio prints them ("1/0"). */
#define PRIO_CLASS(v) ((unsigned)(v) >> 13)
#define PRIO_LEVEL(v) ((unsigned)(v)&7)

struct prio_stats {
	unsigned nr; /* priorities, in fio's order: the job's first */
	uint16_t ioprio[PRIO_STATS_MAX];
	uint8_t slot[PRIO_STATS_MAX];  /* by prio_key(): index + 1; 0: not listed */
	struct hist h[PRIO_STATS_MAX]; /* ns */
};

static inline unsigned prio_key(uint16_t ioprio)
{
	return (PRIO_CLASS(ioprio) & 3) << 3 | PRIO_LEVEL(ioprio);
}

/* A new list with @job_ioprio first, then each of @prios[0..n) not yet
 * in it, their histograms' buckets allocated: before the run. */
struct prio_stats *prio_stats_new(uint16_t job_ioprio, const uint16_t *prios, unsigned n);
/* @p's histograms and @p let go; NULL is fine. */
void prio_stats_free(struct prio_stats *p);

/* One I/O's latency @ns under its priority @ioprio; a priority that is
 * not listed (none can be: every one the engine may send is) is not
 * recorded. */
static inline void prio_stats_record(struct prio_stats *p, uint16_t ioprio, uint64_t ns)
{
	unsigned s = p->slot[prio_key(ioprio)];

	if (s)
		hist_record(&p->h[s - 1], ns);
}

/* Adds @h's samples under @ioprio to *@dst (made when NULL), appending
 * the priority when it is new, as fio sums a group's: nothing when @h is
 * empty. */
void prio_stats_add(struct prio_stats **dst, uint16_t ioprio, const struct hist *h);
/* Adds a source direction to *@dst as fio's sum_clat_prio_stats: its
 * per-priority histograms when it has them (@src not NULL), else the
 * whole direction's @whole (clat, or lat with lat_percentiles) under the
 * source's own priority @ioprio. */
void prio_stats_merge(struct prio_stats **dst, const struct prio_stats *src, uint16_t ioprio,
		      const struct hist *whole);
/* The priorities with samples: fio reports them when there are two or
 * more. */
unsigned prio_stats_used(const struct prio_stats *p);

/* @p (may be NULL) written to @fd, and read back into *@p (NULL when
 * none was written), as stats_save and stats_load do.  0, or -errno
 * (-EIO: not what prio_stats_save wrote). */
int prio_stats_save(const struct prio_stats *p, int fd);
int prio_stats_load(struct prio_stats **p, int fd);

#endif
