/* SPDX-License-Identifier: MIT */
/*
 * read_iolog: a log of I/Os (fio's iolog, version 2 or 3) read into
 * memory before the run, to be issued as logged instead of the
 * workload's offsets.  Parsing only: no I/O here.
 */
#ifndef IOGAUGE_REPLAY_H
#define IOGAUGE_REPLAY_H

#include <stdint.h>

#include "util/util.h"

struct replay_io {
	uint64_t t;   /* us from the log's first I/O (version 3); 0 in version 2 */
	uint64_t off; /* bytes, after replay_scale and replay_align */
	uint32_t len; /* bytes */
	uint32_t file;
	uint8_t op; /* enum io_op */
};

struct replay {
	struct replay_io *v;
	uint64_t n;
	struct str_list files; /* in the order the log adds them */
	uint64_t bytes[3];     /* read, write, trim: their sum is the job's size */
	uint32_t max_len[3];   /* the largest I/O per direction: the buffers' size */
	unsigned version;      /* 2 or 3; 0: a blktrace binary trace */
	unsigned depth;	       /* blktrace: the deepest queue the trace saw; else 0 */
};

struct job;

/*
 * Reads @job's read_iolog: fio's iolog, or a blktrace binary trace
 * (workload/blktrace.h).  replay_redirect (NULL: none) replaces every file
 * name; offsets are divided by replay_scale (0 or 1: as logged) and then
 * rounded down to a multiple of replay_align (0: as logged); times are
 * stretched by 100 / replay_time_scale.  0, or -errno with *cause naming
 * the file and, for a bad line, its number.
 */
int replay_load(struct replay *rp, const struct job *job, char **cause);
void replay_free(struct replay *rp);

#endif
