/* SPDX-License-Identifier: MIT */
/*
 * Between job.c (building a job from its settings) and jobcheck.c (the
 * checks across options and jobs): where an option's value came from.
 * Private to those two files.
 */
#ifndef IOGAUGE_JOB_INT_H
#define IOGAUGE_JOB_INT_H

#include <stdbool.h>

#include "jobfile/job.h"
#include "jobfile/jobfile.h"

/* Where option @name of @job got its value (the default's origin when
 * it was not set), and whether it was set at all. */
const struct origin *job_origin_of(const struct job *job, const char *name);
bool job_is_set(const struct job *job, const char *name);
/* Option @name of @job now has the value option @via gave: @via's origin. */
void job_origin_via(struct job *job, const char *name, const char *via);
/* Job @i of @v, all of whose values were taken: its conflicts (with its
 * own options, then with the jobs before it) added to @errs at the place
 * each blames. */
void job_check_built(struct job *v, unsigned i, const struct jobspec *spec,
		     struct job_errors *errs);

#endif
