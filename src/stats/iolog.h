/* SPDX-License-Identifier: MIT */
/*
 * What one worker logs over time, kept in memory and written out after
 * the run: fio's write_bw_log, write_iops_log, write_lat_log (entries per
 * I/O, or averaged over log_avg_msec), write_hist_log (histogram deltas
 * per log_hist_msec), and the timeline of stats windows that the JSON
 * interval fields and the plots are made from.  Appending is amortised:
 * one allocation per IOLOG_CHUNK entries.  No I/O here.
 */
#ifndef IOGAUGE_IOLOG_H
#define IOGAUGE_IOLOG_H

#include <stdint.h>

#include "stats/hist.h"

#define IOLOG_CHUNK 4096
/* fio's histogram log has 29 groups of 64 bins: larger values are folded
 * into its last bin, so fio's tools read ours. */
#define IOLOG_HIST_BINS (29 * HIST_VAL)

struct iolog_entry {
	uint64_t t;   /* ms since the job started */
	uint64_t val; /* ns, KiB/s or IOPS, as the log's kind */
	uint64_t off; /* bytes; 0 for averaged entries */
	uint32_t bs;  /* bytes; 0 for averaged entries */
	uint16_t dir; /* 0 read, 1 write, as fio */
	/* The I/O's ioprio value; 0 for averaged entries. */
	uint16_t prio;
};

struct iolog_chunk {
	struct iolog_chunk *next;
	unsigned n;
	struct iolog_entry e[IOLOG_CHUNK];
};

struct iolog {
	struct iolog_chunk *head, *tail;
	uint64_t n;
};

/* One histogram-log line: completion latency counts of one window. */
struct iolog_hist {
	struct iolog_hist *next;
	uint64_t t; /* ms since the job started */
	uint32_t dir, bs;
	uint64_t bins[IOLOG_HIST_BINS];
};

/* One stats window (500 ms, as fio's bwavgtime and iopsavgtime). */
struct iolog_window {
	double t;	/* s since the job started, at the window's end */
	double bw[3];	/* KiB/s, read, write and trim */
	double iops[3]; /* I/Os per second */
};

enum iolog_kind { IOLOG_BW, IOLOG_IOPS, IOLOG_LAT, IOLOG_CLAT, IOLOG_SLAT, IOLOG_NR };

struct run_logs {
	struct iolog log[IOLOG_NR];
	struct iolog_hist *hist_head, *hist_tail;
	struct iolog_window *win;
	size_t nr_win, cap_win;
};

void iolog_grow(struct iolog *l);
static inline void iolog_add(struct iolog *l, uint64_t t_ms, uint64_t val, unsigned dir,
			     uint32_t bs, uint64_t off)
{
	struct iolog_entry *e;

	if (!l->tail || l->tail->n == IOLOG_CHUNK)
		iolog_grow(l);
	e = &l->tail->e[l->tail->n++];
	e->t = t_ms;
	e->val = val;
	e->dir = (uint16_t)dir;
	e->bs = bs;
	e->off = off;
	e->prio = 0;
	l->n++;
}

/* The same, for one I/O sent with priority @prio (an ioprio value). */
static inline void iolog_add_io(struct iolog *l, uint64_t t_ms, uint64_t val, unsigned dir,
				uint32_t bs, uint64_t off, uint16_t prio)
{
	iolog_add(l, t_ms, val, dir, bs, off);
	l->tail->e[l->tail->n - 1].prio = prio;
}

/* Appends a histogram line: the counts of @now minus those of @before
 * (both ns histograms), folded to fio's IOLOG_HIST_BINS. */
void iolog_add_hist(struct run_logs *lg, uint64_t t_ms, unsigned dir, uint32_t bs,
		    const struct hist *now, const uint64_t *before);
void iolog_add_window(struct run_logs *lg, const struct iolog_window *w);
void run_logs_free(struct run_logs *lg);
/* The logs written to @fd from where it is, to be read back by another
 * process of the same binary (a clone run in a process of its own hands
 * them back so): 0, or -errno. */
int run_logs_save(const struct run_logs *lg, int fd);
/* What run_logs_save wrote, read from where @fd is; NULL (errno set, EIO
 * for a short file) when it cannot be read. */
struct run_logs *run_logs_load(int fd);

#endif
