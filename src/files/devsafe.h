/* SPDX-License-Identifier: MIT */
/*
 * Before a job writes or trims a block device: is anything on it?  A
 * mount, swap, a holder (dm, md) or an exclusive opener of the device or
 * of anything built on it (partitions, holders, loop devices on it or on
 * a region of it, followed down), or a superblock or partition table
 * that libblkid recognises on any of them.  Only reads.
 */
#ifndef IOGAUGE_DEVSAFE_H
#define IOGAUGE_DEVSAFE_H

#include <sys/types.h>

/* 0 when block device @path (number @rdev) holds nothing found; else
 * -EINVAL with *cause naming the device, what holds it or what it
 * carries, and how to write anyway (allow_mounted_write=1). */
int devsafe_check(const char *path, dev_t rdev, char **cause);

#endif
