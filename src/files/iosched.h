/* SPDX-License-Identifier: MIT */
/*
 * fio's ioscheduler=: the I/O scheduler of the disk under each of a job's
 * files (its queue/scheduler in sysfs; a partition's disk), checked and
 * noted by the run before any clone starts, set by each clone before its
 * I/O as fio sets it, and put back by the run when it ends (fio leaves
 * it).  Files on no block device (tmpfs) have no scheduler: skipped, as
 * fio skips them.
 */
#ifndef IOGAUGE_IOSCHED_H
#define IOGAUGE_IOSCHED_H

#include <stddef.h>

#include "files/files.h"

/* The schedulers the run found, to put back. */
struct iosched_saved {
	char *path; /* .../queue/scheduler */
	char *name; /* the one selected before the run */
};
struct iosched_set {
	struct iosched_saved *v;
	unsigned n;
};

/* For each file of @fs: the disk's scheduler noted in @s (once a disk),
 * and @want checked against those it offers.  0; -EINVAL with *cause
 * when @want is not one of them; -errno when sysfs cannot be read. */
int iosched_prepare(struct iosched_set *s, const struct run_files *fs, const char *want,
		    char **cause);
/* Selects @want for the disks under @fs's files, and reads it back.
 * 0, or -errno with *cause naming the sysfs file. */
int iosched_apply(const struct run_files *fs, const char *want, char **cause);
/* Puts back what @s noted, and empties it. */
void iosched_restore(struct iosched_set *s);

#endif
