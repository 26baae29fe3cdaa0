/* SPDX-License-Identifier: MIT */
/*
 * iogauge compare: two or more runs' JSON reports (iogauge's or fio 3.33's,
 * json or json+), each a file or a folder of repeated runs, compared per
 * job and direction with a verdict at 95% confidence.  load.c reads the
 * reports (libjansson), compare.c makes the rows, cmp_stats.c has the
 * statistics, print.c the text and JSON, print_html.c the HTML page.
 * Nothing here prints or exits.
 */
#ifndef IOGAUGE_COMPARE_H
#define IOGAUGE_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

/* The completion-latency percentiles compared (fio's default list has them). */
#define CMP_NR_PCT 4
extern const double cmp_pcts[CMP_NR_PCT]; /* 50, 90, 99, 99.9 */

/* One latency bin of a json+ report: its value (ns) and count. */
struct cmp_bin {
	uint64_t ns;
	uint64_t count;
};

/* One direction of one job in one run. */
struct cmp_dir {
	bool present;	 /* it did I/O */
	double iops, bw; /* the run's IOPS and bytes/s */
	/* fio's per-window samples of IOPS and bandwidth (KiB/s): mean,
	 * standard deviation, count (0 when the run was shorter than one). */
	double iops_mean, iops_sd, bw_mean, bw_sd;
	uint64_t iops_samples, bw_samples;
	double lat_mean, lat_sd; /* completion latency, ns */
	uint64_t lat_n;
	double pct[CMP_NR_PCT]; /* ns */
	struct cmp_bin *bins;	/* json+ only; NULL otherwise */
	unsigned nr_bins;
};

struct cmp_job {
	char *name;
	struct cmp_dir dir[3]; /* read, write, trim */
};

/* One report: a run of every job. */
struct cmp_run {
	char *path;
	struct cmp_job *jobs;
	unsigned nr;
};

/* What a command-line argument names: one run (a file) or repeated runs
 * of the same jobs (the .json files of a folder). */
struct cmp_side {
	char *path;
	struct cmp_run *runs;
	unsigned nr;
};

/* Reads @path (a report, or a folder of them).  0, or -EINVAL with *cause
 * naming the file: missing, not JSON, no jobs, a job without percentiles,
 * or runs in a folder whose jobs differ. */
int cmp_load(const char *path, struct cmp_side *side, char **cause);
void cmp_side_free(struct cmp_side *side);

enum cmp_verdict {
	CMP_NONE,	  /* no interval can be had: one run and no samples or bins */
	CMP_SAME,	  /* the interval lies within the threshold */
	CMP_BETTER,	  /* faster: more IOPS or bandwidth, less latency */
	CMP_WORSE,	  /* slower */
	CMP_INCONCLUSIVE, /* the interval is wider than the threshold and holds 1 */
};

extern const char *const cmp_verdict_names[];

/* One metric of one job and direction, B against A. */
struct cmp_row {
	const char *job;
	unsigned dir; /* 0 read, 1 write, 2 trim */
	const char *metric;
	const char *unit;
	double a, b;	 /* the means over each side's runs */
	double ratio;	 /* b / a */
	double lo, hi;	 /* the 95% interval of the ratio; 0, 0: none */
	const char *how; /* how the interval was had */
	enum cmp_verdict verdict;
};

struct cmp_table {
	const char *a_path, *b_path;
	struct cmp_row *rows;
	unsigned nr;
	double threshold; /* as a fraction: 0.05 for 5% */
};

/* The rows of @b against @a.  0, or -EINVAL with *cause when their jobs
 * differ (names, order or directions). */
int cmp_table_make(const struct cmp_side *a, const struct cmp_side *b, double threshold,
		   struct cmp_table *t, char **cause);
void cmp_table_free(struct cmp_table *t);

/* A row's figures as the tables print them: A and B (2 decimals for us
 * and MiB/s, else 1), the change and the interval in %% ("-" without). */
struct cmp_cells {
	char a[32], b[32], change[32], interval[64];
};
void cmp_row_cells(const struct cmp_row *r, struct cmp_cells *c);
extern const char *const cmp_dir_names[3];

/* The tables as text (one block per table) or as one JSON document. */
void cmp_print_text(const struct cmp_table *t, unsigned nr, struct strbuf *out);
void cmp_print_json(const struct cmp_table *t, unsigned nr, struct strbuf *out);
/* The tables as one self-contained HTML page, with the latency CDFs of
 * @sides (json+ bins) overlaid per job and direction. */
void cmp_print_html(const struct cmp_table *t, unsigned nr, const struct cmp_side *sides,
		    unsigned nsides, struct strbuf *out);

/* iogauge compare ARGS (argv[0] is "compare"): the exit status, 0, 1
 * (the output could not be written) or 2 (bad input, nothing written). */
int compare_main(int argc, char **argv);

#endif
