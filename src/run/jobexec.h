/* SPDX-License-Identifier: MIT */
/*
 * fio's exec_prerun and exec_postrun: a shell command run by a clone
 * before its first I/O and after its last, its output kept in
 * JOBNAME.prerun.txt or JOBNAME.postrun.txt in the current folder, as fio
 * keeps it.  Not the I/O loop.
 */
#ifndef IOGAUGE_JOBEXEC_H
#define IOGAUGE_JOBEXEC_H

#include "jobfile/job.h"

/* Runs @cmd through system(3), as "@cmd > NAME.@mode.txt 2>&1" (NAME: the
 * job's).  0 when it ran and exited 0; else -errno (-ECHILD for a status
 * that is not 0) with *cause saying which command and how it ended. */
int jobexec_run(const struct job *job, const char *cmd, const char *mode, char **cause);

#endif
