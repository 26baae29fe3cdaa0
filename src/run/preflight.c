/* SPDX-License-Identifier: MIT */
/* Checks on the jobs before a run is set up (see preflight.h). */
#include <stdint.h>
#include <stdio.h>

#include "crash/crash.h"
#include "engines/engine.h"
#include "jobfile/options.h"
#include "run/preflight.h"
#include "util/util.h"

/* What this version parses and checks but does not yet act on at run
 * time: a job that asks for it is refused rather than run as if it had
 * not. */
int preflight_runnable(const struct job *job, char **cause)
{
	return crash_opts_refuse(job, cause);
}

/* bytes of memory the kernel could give without swapping (MemAvailable),
 * or UINT64_MAX when it cannot be read. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kib = 0;
	char line[256];

	if (!f)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return kib ? (uint64_t)kib * 1024 : UINT64_MAX;
}

/* The I/O buffers of every clone, as the plan sums them, against the
 * memory available: refused up front rather than killed by the OOM
 * killer midway. */
int preflight_memory(const struct run_plan *plan, char **cause)
{
	uint64_t avail = mem_available();
	const struct job_plan *jp = &plan->v[plan->mem_most];

	if (avail == UINT64_MAX || plan->mem <= avail)
		return 0;
	return set_cause(cause,
			 "the I/O buffers need %llu MiB (the most, [%s]: %u clones x iodepth %u x "
			 "%llu-byte buffers), and %llu MiB of memory is available (MemAvailable); "
			 "lower iodepth, bs or numjobs",
			 (unsigned long long)(plan->mem >> 20), jp->job->name, jp->job->numjobs,
			 jp->depth, (unsigned long long)(jp->clone_mem / jp->depth),
			 (unsigned long long)(avail >> 20));
}
