/* SPDX-License-Identifier: MIT */
/*
 * write_iolog: the I/Os one clone issued, kept in memory as they are
 * issued (one allocation per IOTRACE_CHUNK entries) and written after the
 * run in fio's iolog version 3 format ("TIME_US FILE ACTION [OFFSET
 * LENGTH]"), which fio's read_iolog replays.  Not the stats logs of
 * iolog.h, which keep latencies and rates.
 */
#ifndef IOGAUGE_IOTRACE_H
#define IOGAUGE_IOTRACE_H

#include <stdbool.h>
#include <stdint.h>

#define IOTRACE_CHUNK 4096

struct iotrace_entry {
	uint64_t t;   /* ns, the run's clock, when the I/O was issued */
	uint64_t off; /* bytes */
	uint32_t len; /* bytes */
	uint32_t file;
	uint8_t op; /* enum io_op */
};

struct iotrace_chunk {
	struct iotrace_chunk *next;
	unsigned n;
	struct iotrace_entry e[IOTRACE_CHUNK];
};

struct iotrace {
	bool on; /* fd is open: write_iolog is set (a zeroed struct is off) */
	int fd;	 /* the log, opened for appending at set-up */
	struct iotrace_chunk *head, *tail;
};

/*
 * Opens @path for appending (created 0644 if missing, as fio's fopen "a").
 * 0, or -errno with *cause naming the file.
 */
int iotrace_open(struct iotrace *tr, const char *path, char **cause);
void iotrace_grow(struct iotrace *tr);

static inline void iotrace_add(struct iotrace *tr, uint64_t t, unsigned file, unsigned op,
			       uint64_t off, uint64_t len)
{
	struct iotrace_entry *e;

	if (!tr->tail || tr->tail->n == IOTRACE_CHUNK)
		iotrace_grow(tr);
	e = &tr->tail->e[tr->tail->n++];
	e->t = t;
	e->off = off;
	e->len = (uint32_t)len;
	e->file = file;
	e->op = (uint8_t)op;
}

/*
 * Writes the log: the version line, an "add" and an "open" line per file
 * of @paths (@nr of them) at time 0, a line per I/O (times in us since
 * @t0, ns), then a "close" line per file at @t_end.  The file is locked
 * while it is written, so clones writing one log do not interleave.
 * 0, or -errno with *cause naming the file.
 */
int iotrace_write(struct iotrace *tr, const char *path, const char *const *paths, unsigned nr,
		  uint64_t t0, uint64_t t_end, char **cause);
void iotrace_free(struct iotrace *tr);

#endif
