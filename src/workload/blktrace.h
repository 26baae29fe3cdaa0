/* SPDX-License-Identifier: MIT */
/*
 * read_iolog of a blktrace binary trace (the kernel's struct
 * blk_io_trace records, as blktrace or "blkparse -d" write them), and
 * merge_blktrace_file's merge of several such traces into one.  Parsing
 * into struct replay only: no I/O to the traced devices here.
 */
#ifndef IOGAUGE_BLKTRACE_H
#define IOGAUGE_BLKTRACE_H

#include <stdbool.h>

struct job;
struct replay;

/* Whether the file at @path starts with a blktrace record (either byte
 * order), as fio decides whether read_iolog is a blktrace. */
bool blktrace_is(const char *path);

/*
 * @job's read_iolog (or, with merge_blktrace_file, its traces merged) into
 * @rp as fio 3.33 replays it: the queue events, each device a file (its
 * /dev node, or replay_redirect), replay_skip's kinds left out, the
 * trace's times and the deepest queue it saw (rp->depth).  0, or -errno
 * with *cause set (-EINVAL: the trace or the options are wrong).
 */
int blktrace_load(struct replay *rp, const struct job *job, char **cause);

/* merge_blktrace_file: writes @job's merged trace there (once per job,
 * before its clones start).  0, or -errno with *cause set. */
int blktrace_merge_write(const struct job *job, char **cause);

#endif
