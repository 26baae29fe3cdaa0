/* SPDX-License-Identifier: MIT */
/*
 * Before a job writes or trims a block device: is anything on it?  A
 * mount (of it or a partition), swap, a device built on it (dm, md), or a
 * filesystem, swap, LVM, LUKS or partition-table signature in its first
 * 68 KiB.  Only reads.
 */
#ifndef IOGAUGE_DEVSAFE_H
#define IOGAUGE_DEVSAFE_H

#include <sys/types.h>

/* 0 when block device @path (number @rdev) holds nothing found; else
 * -EINVAL with *cause saying what is there and how to write anyway
 * (allow_mounted_write=1). */
int devsafe_check(const char *path, dev_t rdev, char **cause);

#endif
