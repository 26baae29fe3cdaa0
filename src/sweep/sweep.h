/* SPDX-License-Identifier: MIT */
/*
 * iogauge sweep and iogauge slo: a job run again and again with some of
 * its options changed, each run a child iogauge whose json+ report is
 * read back (point.c), so that a point that fails or is stopped cannot
 * take the others with it.  axis.c reads the axes (lists and ranges),
 * knee.c has the rules for the knee and the crossover (pure), svg.c the
 * plots, print.c the table, CSV and JSON, cli.c `iogauge sweep`, slo.c
 * `iogauge slo`.  Only the two *_main() print; nothing here exits.
 */
#ifndef IOGAUGE_SWEEP_H
#define IOGAUGE_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

/* One swept option and its values, as the job file would spell them. */
struct sweep_axis {
	char *name;  /* the job option, as written after "--" */
	char **vals; /* the values, in the order they run */
	double *x;   /* each value as a number (sizes in bytes), for plots */
	unsigned n;
	bool numeric; /* every value read as a number; else x is 0, 1, 2... */
};

/* Reads an axis's values: a comma list whose items are values or ranges
 * A..BxF (A, A*F, ... up to B; F > 1) and A..B+S (A, A+S, ... up to B;
 * S > 0), where A, B and S may carry size units (4k..1mx2).  0, or
 * -EINVAL with *cause naming the flag (--NAME) and what is wrong: an
 * empty list or range, a factor or step that does not grow, a range
 * whose ends are not numbers. */
int sweep_axis_parse(struct sweep_axis *a, const char *name, const char *spec, char **cause);
void sweep_axis_free(struct sweep_axis *a);

/* What a point's run measured, over every job and direction of its
 * report.  Latencies in ns. */
struct sweep_metrics {
	double iops, bw;       /* summed; bw in bytes/s */
	double mean;	       /* completion latency, weighted by I/Os */
	double p50, p99, p999; /* completion latency of all I/Os (json+ bins) */
	double max;	       /* the highest completion latency of any entry */
	double cpu_per_io;     /* (user + system CPU time) / I/Os, ns */
	uint64_t ios;
	uint64_t rbytes, wbytes; /* io_bytes read and written */
	/* Under a rate cap (rate_iops): response time from each I/O's
	 * intended start, the highest of the report's entries, at the
	 * percentiles slo asked for, and whether every entry kept its rate. */
	bool rated, kept;
	double resp[8];
	double clat[8]; /* completion latency at the same percentiles (bins) */
	double target_iops, achieved_iops;
};

/* One child run.  @args: the arguments after the executable (the job
 * files, the --set flags); --output-format=json+ and --eta=never are
 * added.  @pcts (@npcts up to 8) are the percentiles to read from the
 * response time.  0 with *m filled; -EINVAL when the child refused the
 * job (exit 2: its messages are in *cause); -EINTR when a signal stopped
 * it (*m still filled when it reported); another -errno, or -EIO with
 * *cause holding the child's messages when it failed. */
int sweep_point_run(const struct str_list *args, const double *pcts, unsigned npcts,
		    struct sweep_metrics *m, char **cause);
/* The child with --parse-only: 0, or -EINVAL with its messages in *cause. */
int sweep_point_check(const struct str_list *args, char **cause);
/* Set by a SIGINT or SIGTERM the sweep took (forwarded to the child). */
extern volatile int sweep_stop_signal;
void sweep_signals_install(void);

/* The mean and the half width of its 95% interval (Student's t) of @n
 * values; a half width of 0 for fewer than 2. */
void sweep_mean_ci(const double *v, unsigned n, double *mean, double *half);

/* Appends @ns as microseconds with 2 decimals. */
void sweep_add_us(struct strbuf *sb, double ns);

/* A sweep's points and what they measured.  Point p has value
 * (p / stride[a]) % axes[a].n of axis a: the first axis runs fastest, so
 * each line along it (the other axes fixed) is a run of neighbours. */
struct sweep_result {
	struct sweep_axis *axes;
	unsigned naxes;
	unsigned npoints, repeat;
	unsigned done;		   /* points measured, in order */
	struct sweep_metrics *m;   /* npoints * repeat: point p, repeat r at p * repeat + r */
	struct sweep_metrics *avg; /* npoints: the means over the repeats */
	double *iops_ci, *p99_ci;  /* npoints: half widths of the 95% intervals */
	double knee_gain, knee_lat, cross_bw; /* the rules' margins, percent */
	int bs_axis;			      /* the axis named bs or blocksize, or -1 */
};

/* The value index of point @p on axis @a. */
unsigned sweep_value_of(const struct sweep_result *r, unsigned p, unsigned a);

/* One line of points along axis @along with the other axes fixed: the
 * first point and the distance between neighbours. */
struct sweep_line {
	unsigned first, stride, n;
};
/* The lines along axis @along: *nr of them (the caller frees). */
struct sweep_line *sweep_lines(const struct sweep_result *r, unsigned along, unsigned *nr);

/* The knee (crossover) of a line on the means, or on repeat @rep when
 * @rep >= 0: the index along the line, or -1. */
int sweep_line_knee(const struct sweep_result *r, const struct sweep_line *l, int rep);
int sweep_line_crossover(const struct sweep_result *r, const struct sweep_line *l, int rep);

/* The table (text), CSV or JSON of what is done of @r. */
void sweep_print_text(const struct sweep_result *r, struct strbuf *out);
void sweep_print_csv(const struct sweep_result *r, struct strbuf *out);
void sweep_print_json(const struct sweep_result *r, struct strbuf *out);
/* The plots' files in @dir (made if missing).  0, or -errno with *cause. */
int sweep_plots_write(const struct sweep_result *r, const char *dir, char **cause);

/* A line chart of y against x with a point marked: one polyline class
 * "series" (data-name) per series with a circle class "point" (data-x,
 * data-y) per point, and the mark as <g class="mark" data-x data-y>.  A
 * log2 x axis when @logx.  Self-contained SVG. */
struct sweep_series {
	const char *name;
	const double *x, *y;
	unsigned n;
	int mark; /* the point marked, or -1 */
	const char *mark_label;
};
void sweep_svg(struct strbuf *sb, const char *title, const char *xlabel, const char *ylabel,
	       bool logx, const struct sweep_series *s, unsigned ns);

int sweep_main(int argc, char **argv);
int slo_main(int argc, char **argv);

#endif
