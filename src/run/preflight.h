/* SPDX-License-Identifier: MIT */
/*
 * Checks made on the jobs before anything of a run is set up: what this
 * version cannot run yet, and whether the I/O buffers fit in memory.
 * Each refuses with a message rather than let the run fail midway.
 */
#ifndef IOGAUGE_PREFLIGHT_H
#define IOGAUGE_PREFLIGHT_H

#include "jobfile/job.h"
#include "plan/plan.h"

/* Whether @job sets only what this version runs: 0, or -EINVAL with
 * *cause naming the option. */
int preflight_runnable(const struct job *job, char **cause);
/* The I/O buffers of every clone, as @plan sums them, against
 * MemAvailable: 0, or -EINVAL with *cause set. */
int preflight_memory(const struct run_plan *plan, char **cause);

#endif
