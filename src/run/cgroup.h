/* SPDX-License-Identifier: MIT */
/*
 * fio's cgroup, cgroup_weight, cgroup_nodelete: each clone of a job runs
 * in the cgroup it names, under the first blkio (v1) or cgroup2 mount of
 * /proc/mounts, as fio picks it.  The run makes the cgroup and sets its
 * blkio.weight before any clone starts, each clone moves its own thread
 * in before its I/O and back to the root after, and the run removes the
 * cgroups it made when it ends unless cgroup_nodelete says keep them.
 */
#ifndef IOGAUGE_CGROUP_H
#define IOGAUGE_CGROUP_H

#include <stdbool.h>

#include "jobfile/job.h"

/* The cgroups a run made, to remove at its end. */
struct cgroup_made {
	char **path;
	bool *keep; /* cgroup_nodelete */
	unsigned n;
};

/* Makes @job's cgroup if it is not there (noted in @m) and writes its
 * weight.  0, or -errno with *cause naming the path. */
int cgroup_prepare(struct cgroup_made *m, const struct job *job, char **cause);
/* Moves the calling thread into @job's cgroup (@into) or back to the
 * root of the hierarchy.  0, or -errno with *cause. */
int cgroup_move(const struct job *job, bool into, char **cause);
/* Removes what @m made (but what cgroup_nodelete keeps), and empties it. */
void cgroup_remove(struct cgroup_made *m);

#endif
