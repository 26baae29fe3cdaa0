/* SPDX-License-Identifier: MIT */
/*
 * The files of one job clone: named, laid out, opened, checked for
 * O_DIRECT, with the page cache dropped or warmed as the job says.
 */
#ifndef IOGAUGE_FILES_H
#define IOGAUGE_FILES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"

struct job;
struct files_lock;

/* One file of a clone: what the worker and the engines do I/O on. */
struct run_file {
	char *path;
	int fd;
	uint64_t size;		 /* bytes the job may use from offset 0 of the file */
	uint64_t start;		 /* bytes: first byte of the I/O region (offset) */
	uint64_t len;		 /* bytes: length of the I/O region */
	bool created;		 /* this run created it: unlink may remove it */
	bool blkdev;		 /* a block device: trims are discards */
	bool chardev;		 /* a character device: not laid out, never removed */
	bool fill;		 /* fill_device: laid out until the filesystem is full */
	struct files_lock *lock; /* lockfile: shared with the run's other users of the path */
	bool nosync;		 /* create_fsync=0: no fsync after the layout */
};

struct run_files {
	struct run_file *v;
	unsigned n;
	size_t mem_align; /* bytes: buffer alignment the files need */
	int oflags;	  /* what they were opened with */
	/* openfiles below the number of files: a file is open only while the
	 * workload uses it (files_lazy_open, files_lazy_close), not from set-up
	 * on, so that no more descriptors are held than openfiles asks. */
	bool lazy;
};

/* A file being laid out or pre-read before the run, for a progress line. */
struct run_layout {
	const char *path;
	const char *what;     /* "laying out" or "pre-reading" */
	uint64_t done, total; /* bytes; done == total: the last call for the file */
};

/* What a layout and a pre_read look at as they go: *@stop (a signal) ends
 * them; @layout (either may be NULL) sees their progress about every
 * @every ns once a pass has taken that long, then once at its end. */
struct files_watch {
	const atomic_int *stop;
	void (*layout)(const struct run_layout *l, void *arg);
	void *arg;
	uint64_t every; /* ns */
};

/*
 * Lays out and opens the files of clone @clone of the job @jp plans, in the
 * regions the plan gives (plan_region, plan_region_in_file).  A file that does
 * not exist is created and filled with non-zero data; one too short is
 * extended (unless @engine_flags has ENGINE_F_NOEXTEND: then it is an
 * error); none is shortened.  A character device is only opened: its size
 * is the job's (filesize, or size per file).  With ENGINE_F_NOFILES nothing
 * is created or opened (fd -1) and the regions come from the job alone.  0, or -errno
 * with *cause naming the file; on error nothing stays open and files this
 * call created are removed.  *@fw->stop set during a layout or pre_read
 * ends it at the next MiB: -EINTR.
 */
int files_open(const struct job_plan *jp, unsigned clone, unsigned engine_flags,
	       const struct files_watch *fw, struct run_files *fs, char **cause);
/*
 * What is at @path: *kind is 0 (nothing), 'f' (a regular file), 'b' (a
 * block device), 'c' (a character device: *size 0, it has none) or 'o'
 * (anything else), *size its bytes.  0, or -errno
 * when @path cannot be looked at.
 */
int files_probe(const char *path, char *kind, uint64_t *size);
/* openfiles (fs->lazy): file @i opened for the I/O that needs it, its
 * cache dropped and its access hinted as the job says, as fio does on each
 * open; and closed (fsync_on_close: synced first) once the workload is done
 * with it and none of its I/Os is in flight.  Open: 0, or -errno with
 * *cause naming the file. */
int files_lazy_open(struct run_files *fs, unsigned i, const struct job *job, char **cause);
void files_lazy_close(struct run_files *fs, unsigned i, const struct job *job);
/*
 * unlink_each_loop, as a new loop starts: each regular file is closed and
 * removed, then opened again as fio opens it: made anew (empty, 0600) by a
 * job that writes, missing (ENOENT) for one that only reads.  0, or -errno
 * with *cause naming the file.
 */
int files_reloop(struct run_files *fs, bool writes, char **cause);
/* Closes the files; with @unlink_created, removes those this run created. */
void files_close(struct run_files *fs, bool unlink_created);

#endif
