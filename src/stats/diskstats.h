/* SPDX-License-Identifier: MIT */
/*
 * fio's "Disk stats": the whole-disk block devices under the files of a
 * run, with their /proc/diskstats counters read before and after it.
 * It is not a reporter (it prints nothing) and not a sampler: it reads
 * /proc and /sys only when asked, before and after the run.
 */
#ifndef IOGAUGE_DISKSTATS_H
#define IOGAUGE_DISKSTATS_H

#include <stdbool.h>
#include <stdint.h>

struct disk_counters {	 /* one /proc/diskstats line, fields as the kernel names them */
	uint64_t ios[2]; /* reads, writes completed */
	uint64_t merges[2];
	uint64_t sectors[2]; /* 512-byte sectors */
	uint64_t ticks[2];   /* ms spent reading, writing */
	uint64_t io_ticks;   /* ms the device had I/O in flight */
	uint64_t in_queue;   /* ms, weighted (time_in_queue) */
};
struct disk_entry {
	char name[64]; /* e.g. "vda", "loop3", "nvme0n1" */
	unsigned major, minor;
	struct disk_counters before, after;
};
/* Start from a zeroed set ({ 0 }); disks_free() empties it again. */
struct disk_set {
	struct disk_entry *v;
	unsigned n;
};

/* Adds the whole-disk block device that holds @path: the device itself for a block
 * device node, else the device of the file system holding the file (st_dev). A partition maps to its
 * parent disk (as fio reports "vda", not "vda1"). Devices not in /proc/diskstats (tmpfs, overlay with
 * major 0, etc.) are silently skipped; duplicates are added once. Returns 0, or -errno.
 * A @path that does not exist yet (a file the run will create) uses its parent directory's device. */
int disks_add_path(struct disk_set *ds, const char *path);
/* Reads /proc/diskstats into every entry's before (@after false) or after (@after true). 0 or -errno;
 * -ENODEV when an entry's device has left /proc/diskstats (the others are still read). */
int disks_snapshot(struct disk_set *ds, bool after);
/* after - before for one entry; util in percent = io_ticks delta / @elapsed_ms * 100, capped at 100.
 * A counter that went backwards gives 0; @elapsed_ms 0 gives util 0. */
void disks_delta(const struct disk_entry *e, uint64_t elapsed_ms, struct disk_counters *d,
		 double *util_pct);
/* Frees the entries; @ds is empty after. */
void disks_free(struct disk_set *ds);

#endif
