/* SPDX-License-Identifier: MIT */
#ifndef IOGAUGE_ETA_H
#define IOGAUGE_ETA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/run.h"
#include "util/util.h"

/* The live status line: stderr, rewritten in place on a terminal. */
struct eta_state {
	struct run_status prev;
	bool have_prev;
	bool tty;
	size_t width;	  /* of the last line, to blank it */
	uint64_t newline; /* --eta-newline, ns; 0: none */
	uint64_t kept;	  /* run_now() when a line was last kept */
	bool newline_due;
	unsigned units; /* REPORT_UNITS_*: unit_base and kb_base's */
	/* --bandwidth-log: fio's aggregate samples, taken as it takes them
	 * when it computes its status line: one per direction once more than
	 * 500 ms (its bw_avg_time) have passed since the last. */
	bool agg;
	uint64_t agg_t0, agg_prev_t; /* ns */
	uint64_t agg_prev[3];	     /* bytes at the last sample */
	struct strbuf agg_log[3];    /* "ms, KiB/s, dir, 0, 0" lines */
};

/* run_watch's callbacks: a status line, a layout's progress (@arg: the
 * struct eta_state). */
void eta_show(const struct run_status *st, void *arg);
void eta_layout_show(const struct run_layout *l, void *arg);
/* --bandwidth-log: a sample of @st's bytes when more than 500 ms have
 * passed since the last; the three logs written into the current folder
 * (0, or -errno with *cause set). */
void eta_agg_sample(struct eta_state *es, const struct run_status *st, uint64_t now);
int eta_agg_write(struct eta_state *es, char **cause);

#endif
