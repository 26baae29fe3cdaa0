/* SPDX-License-Identifier: MIT */
/*
 * iogauge pts: the SNIA Solid State Storage Performance Test
 * Specification's IOPS test on a whole block device, which it destroys.
 * steady.c has the steady-state rule (pure), cli.c the refusals and the
 * command line, run.c the purge, the preconditioning and the rounds (each
 * cell a child iogauge, through sweep/point.c), report.c the tables, the
 * JSON and the plot.  Only pts_main() prints; nothing here exits.
 */
#ifndef IOGAUGE_PTS_H
#define IOGAUGE_PTS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

/* What the steady-state rule found over a window of rounds. */
struct pts_steady {
	bool steady;
	double avg;			 /* the window's mean */
	double range;			 /* max - min */
	double slope;			 /* least-squares slope, per round */
	double excursion;		 /* |slope| x (rounds - 1): the fitted line's rise */
	double range_pct, excursion_pct; /* of avg */
};

/*
 * PTS's rule on the @n values of a window (one a round): steady when the
 * range is within @range_pct percent of the window's average and the
 * least-squares line's excursion within @excursion_pct percent of it.
 * An average of 0 or less, or fewer than 2 values, is never steady.
 * Fills *@s; returns s->steady.
 */
bool pts_steady_judge(const double *y, unsigned n, double range_pct, double excursion_pct,
		      struct pts_steady *s);

#define PTS_WINDOW 5

/* One read/write mix: the read percentage. */
struct pts_plan {
	const char *device;
	uint64_t capacity;  /* bytes */
	unsigned lbs;	    /* the logical block size, bytes */
	unsigned mixes[16]; /* read percent, in the order they run */
	unsigned nmixes;
	uint64_t bs[16]; /* bytes, in the order they run */
	unsigned nbs;
	unsigned tracked_mix, tracked_bs; /* indexes of 0/100 and 4k */
	uint64_t cell_ns;
	unsigned max_rounds, precondition_loops, iodepth;
	const char *ioengine;
	double range_pct, excursion_pct;
};

/* What a run did. */
struct pts_result {
	bool purged;
	char *purge_note; /* how, or why not */
	bool preconditioned;
	unsigned rounds;       /* rounds finished */
	double *iops;	       /* max_rounds x nmixes x nbs: [(r * nmixes + m) * nbs + b] */
	struct pts_steady ss;  /* over the last PTS_WINDOW rounds run (or fewer) */
	unsigned window_first; /* index of the window's first round */
	bool stopped;	       /* by a signal */
};

/* The size of a block as PTS spells it: 1024k, 4k, 0.5k. */
void pts_bs_name(uint64_t bs, char *buf, size_t len);

/* Purge, precondition, rounds until steady or max_rounds.  0; -EINTR
 * when a signal stopped it; another -errno with *cause (what is done is
 * in *@res all the same). */
int pts_run(const struct pts_plan *p, struct pts_result *res, char **cause);

void pts_print_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
void pts_print_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
/* steady-state.svg in @dir.  0, or -errno with *cause. */
int pts_plot_write(const struct pts_plan *p, const struct pts_result *r, const char *dir,
		   char **cause);

int pts_main(int argc, char **argv);

#endif
