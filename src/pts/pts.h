/* SPDX-License-Identifier: MIT */
/*
 * iogauge pts: the SNIA Solid State Storage Performance Test
 * Specification's IOPS, throughput and latency tests on a whole block
 * device, which they destroy.  steady.c has the steady-state rule (pure),
 * cli.c the refusals and the command line, run.c the purge, the
 * preconditioning and the rounds (each cell a child iogauge, through
 * sweep/point.c), report.c what the reports share and the steady-state
 * plots, iops.c, throughput.c and latency.c each test's tables and JSON.
 * Only pts_main() prints; nothing here exits.
 */
#ifndef IOGAUGE_PTS_H
#define IOGAUGE_PTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

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

enum pts_test {
	PTS_IOPS,	/* random mixes x sizes; tracked: 4k 0/100 IOPS */
	PTS_THROUGHPUT, /* sequential 100/0 and 0/100 per size; tracked: its 0/100 bandwidth */
	PTS_LATENCY,	/* random, one I/O in flight; tracked: 4k 0/100 mean latency */
};

/* The test's name as the command line spells it. */
const char *pts_test_name(enum pts_test t);

/* What the test runs: mixes (the read percentage) by block sizes. */
struct pts_plan {
	enum pts_test test;
	const char *device;
	/* The device opened O_EXCL from its check to the run's end, so that
	 * nothing mounts or claims it (nor a second pts) meanwhile; -1: none. */
	int hold_fd;
	uint64_t capacity;  /* bytes */
	unsigned lbs;	    /* the logical block size, bytes */
	unsigned mixes[16]; /* read percent, in the order they run */
	unsigned nmixes;
	uint64_t bs[16]; /* bytes, in the order they run */
	unsigned nbs;
	unsigned tracked_mix, tracked_bs; /* indexes of 0/100 and 4k (throughput: no bs) */
	uint64_t cell_ns;
	unsigned max_rounds, precondition_loops, iodepth;
	const char *ioengine;
	double range_pct, excursion_pct;
};

/* What one cell measured (completion latency, over both directions). */
struct pts_cell {
	double iops;
	double bw;		      /* bytes/s */
	double mean, max;	      /* ns */
	double p9999, p99999;	      /* ns: the 99.99th and 99.999th percentiles */
	uint64_t ios, rbytes, wbytes; /* I/Os, bytes read and written */
};

/*
 * A part: one purge, one preconditioning and the rounds until its tracked
 * value is steady.  The IOPS and latency tests have one part over every
 * block size; the throughput test one part a block size (PTS purges and
 * preconditions again before each).
 */
struct pts_part {
	unsigned bs_first, nbs;	  /* the plan's block sizes this part runs */
	uint64_t precondition_bs; /* bytes: 128k, or the throughput part's size */
	bool purged;
	char *purge_note; /* how, or why not */
	bool preconditioned;
	unsigned rounds;	/* rounds finished */
	struct pts_cell *cells; /* max_rounds x nmixes x nbs: [(r * nmixes + m) * nbs + b] */
	struct pts_steady ss;	/* over the last PTS_WINDOW rounds run (or fewer) */
	unsigned window_first;	/* index of the window's first round */
};

/* What a run did. */
struct pts_result {
	struct pts_part parts[16];
	unsigned nparts; /* begun */
	bool stopped;	 /* by a signal */
};

/* Cell (@m, @b) of round @round of part @pt (@b counts from the part's first size). */
const struct pts_cell *pts_cell_at(const struct pts_plan *p, const struct pts_part *pt,
				   unsigned round, unsigned m, unsigned b);
/* The tracked value of round @round: IOPS, bytes/s or ns by the test. */
double pts_tracked(const struct pts_plan *p, const struct pts_part *pt, unsigned round);
/* The mean over the part's window of what @get reads from cell (@m, @b). */
double pts_window_mean(const struct pts_plan *p, const struct pts_part *pt, unsigned m, unsigned b,
		       double (*get)(const struct pts_cell *));
/* The largest over the window. */
double pts_window_max(const struct pts_plan *p, const struct pts_part *pt, unsigned m, unsigned b,
		      double (*get)(const struct pts_cell *));
/* "reached", "not reached", "not reached (stopped)" or "... (the run failed)". */
const char *pts_decision(const struct pts_plan *p, const struct pts_part *pt, bool stopped);

/* How report.c shows a tracked value: divided by @scale, @digits
 * decimals, then @unit ("IOPS", "MB/s", "us"). */
struct pts_unit {
	const char *unit;
	double scale;
	int digits;
};
/* "purge: ..." and "precondition: ..." lines. */
void pts_print_prep(const struct pts_plan *p, const struct pts_part *pt, struct strbuf *out);
/* "steady state: ..." and the window's figures. */
void pts_print_steady(const struct pts_plan *p, const struct pts_part *pt, bool stopped,
		      const struct pts_unit *u, struct strbuf *out);
/* The window's table of part @pt: a row a mix, a column a block size,
 * each the window's mean (or largest, @largest) of @get / @scale. */
void pts_print_table(const struct pts_plan *p, const struct pts_part *pt,
		     double (*get)(const struct pts_cell *), bool largest, double scale, int digits,
		     struct strbuf *out);
/* The same as JSON members of @o: purge, precondition and steady_state. */
struct json_t;
void pts_json_part(const struct pts_plan *p, const struct pts_part *pt, bool stopped,
		   struct json_t *o);
/* The run's common members (test, device, capacity_bytes ...) of @o. */
void pts_json_common(const struct pts_plan *p, struct json_t *o);
/* The table as JSON (unscaled): an array a mix of one value a block size. */
struct json_t *pts_json_table(const struct pts_plan *p, const struct pts_part *pt,
			      double (*get)(const struct pts_cell *), bool largest);
/* Every figure of a cell as a JSON object. */
struct json_t *pts_json_cell(const struct pts_cell *c);
/* Appends @o as indented JSON and frees it. */
void pts_json_finish(struct json_t *o, struct strbuf *out);

/* The size of a block as PTS spells it: 1024k, 4k, 0.5k. */
void pts_bs_name(uint64_t bs, char *buf, size_t len);

/* Purge, precondition, rounds until steady or max_rounds.  0; -EINTR
 * when a signal stopped it; another -errno with *cause (what is done is
 * in *@res all the same). */
int pts_run(const struct pts_plan *p, struct pts_result *res, char **cause);

/* The report of any test, by p->test. */
void pts_print_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
void pts_print_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
void pts_iops_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
void pts_iops_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
void pts_throughput_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
void pts_throughput_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
void pts_latency_text(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
void pts_latency_json(const struct pts_plan *p, const struct pts_result *r, struct strbuf *out);
/* The steady-state plot of each part in @dir: steady-state.svg, or
 * steady-state-SIZE.svg a throughput part.  0, or -errno with *cause. */
int pts_plot_write(const struct pts_plan *p, const struct pts_result *r, const char *dir,
		   char **cause);

/* Refuses a partition, or a device anything is built on (sysfs at @sys:
 * "/sys"), that devsafe.c passed: 0, or -EINVAL with *cause (whole.c). */
int pts_device_whole(const char *sys, const char *path, dev_t rdev, char **cause);
/* 0 when engine @name reads and writes blocks and is built, else
 * -EINVAL with *cause (engine.c). */
int pts_engine_check(const char *name, char **cause);
int pts_main(int argc, char **argv);

#endif
