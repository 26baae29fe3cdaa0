/* SPDX-License-Identifier: MIT */
/*
 * A clone's priorities, set by the clone's own thread before its I/O
 * starts: its CPU nice value (nice) and its I/O priority (prio,
 * prioclass) through ioprio_set, as fio's job threads do.  Not the
 * per-I/O priorities (cmdprio*), which the engines put in each request;
 * but the latency histograms kept per priority of those.
 */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run/worker.h"

/* The kernel's ioprio encoding (linux/ioprio.h): class above level. */
#define PRIO_WHO_PROCESS 1
#define PRIO_CLASS_SHIFT 13
#define PRIO_CLASS_BE	 2

unsigned worker_ioprio_value(unsigned prioclass, unsigned prio)
{
	/* As fio: no class given is best-effort. */
	return (prioclass ? prioclass : PRIO_CLASS_BE) << PRIO_CLASS_SHIFT | prio;
}

int worker_prio(struct worker *w)
{
	const struct job *job = w->job;
	int err;

	/* Linux: who 0 is the calling thread, for nice as for ioprio. */
	if (job->nice && setpriority(PRIO_PROCESS, 0, job->nice) < 0) {
		err = errno;
		w->error_no = err;
		w->error = xasprintf("nice=%d: cannot set clone %u's CPU priority: %s", job->nice,
				     w->clone, strerror(err));
		return -err;
	}
	if (job->ioprio_set && syscall(SYS_ioprio_set, PRIO_WHO_PROCESS, 0,
				       (int)worker_ioprio_value(job->prioclass, job->prio)) < 0) {
		err = errno;
		w->error_no = err;
		w->error = xasprintf("prioclass=%u prio=%u: ioprio_set for clone %u: %s",
				     job->prioclass, job->prio, w->clone, strerror(err));
		return -err;
	}
	return 0;
}

void worker_prio_stats(struct worker *w, unsigned which)
{
	const struct job *job = w->job;
	unsigned d, i;

	/* As fio's ts->ioprio: what I/Os go with unless cmdprio* picks them. */
	w->stats.ioprio =
		job->ioprio_set ? (uint16_t)worker_ioprio_value(job->prioclass, job->prio) : 0;
	if (!(which & (job->lat_percentiles ? STATS_H_LAT : STATS_H_CLAT)))
		return;
	for (d = 0; d < 2; d++) {
		struct prio_stats *p;

		if (!w->eng.nr_cmdprios[d] || w->stats.dir[d].prio)
			continue;
		p = prio_stats_new(w->stats.ioprio, w->eng.cmdprios[d], w->eng.nr_cmdprios[d]);
		for (i = 0; i < p->nr; i++) /* faulted in, as the others */
			memset(p->h[i].bucket, 0, HIST_NR * sizeof(uint64_t));
		w->stats.dir[d].prio = p;
	}
}
