/* SPDX-License-Identifier: MIT */
/*
 * Reporters: they read a finished run and write text, JSON, terse lines,
 * logs or plots.  They never see engines or threads.
 */
#ifndef IOGAUGE_REPORT_H
#define IOGAUGE_REPORT_H

#include "jobfile/jobfile.h"
#include "run/run.h"
#include "util/util.h"

/* One reported entry: a job clone, or with group_reporting a whole group. */
struct report_entry {
	const struct run_result *r; /* the first clone in it */
	unsigned threads;
	const struct run_stats *st;   /* the clone's, or the group's merged */
	const struct run_result *err; /* the first clone with an error, or NULL */
	/* unified_rw_reporting=mixed or both: reads, writes and trims as one
	 * direction, as fio sums them; NULL with none. */
	const struct dir_stats *mixed;
};

struct report_entries {
	struct report_entry *v;
	unsigned n;
	struct run_stats *merged; /* storage for the groups */
	struct run_stats *mixed;  /* storage for the mixed directions (dir[0]) */
};

/* Builds the entries of @run in order, as fio: one per clone, one per
 * group where group_reporting is set. */
void report_entries(const struct run *run, struct report_entries *out);
void report_entries_free(struct report_entries *e);
/* The group's aggregate bandwidth in direction @d: its bytes over its
 * longest runtime, in bytes per second (fio's rs->agg). */
double report_group_bw(const struct run *run, unsigned group, unsigned d);

/* fio's "Run status group" figures of one group in one direction (or
 * all of them: iogauge's TOTAL), from its entries' bytes and runtimes. */
struct report_group_dir {
	uint64_t bytes;		   /* io= */
	uint64_t agg;		   /* bytes/s: bytes over the longest runtime */
	uint64_t min_bw, max_bw;   /* bytes/s: the entries' lowest and highest */
	uint64_t min_run, max_run; /* ms, rounded up as fio; max_run 0: no I/O */
	unsigned entries;
};

struct report_group {
	unsigned id;
	unsigned kb_base, unit_base; /* the last entry's, as fio */
	unsigned sig_figs;	     /* the last entry's significant_figures */
	unsigned unified;	     /* its entries' unified_rw_reporting, or'ed as fio */
	struct report_group_dir dir[3], total;
};

/* Every group of @run (0 to the last clone's group, with or without
 * entries) from the entries @es: their number, the array (free it) in *out. */
unsigned report_groups(const struct run *run, const struct report_entries *es,
		       struct report_group **out);
/* The "Run status group N (all jobs):" block of @g, fio's lines. */
void report_group_lines(const struct report_group *g, struct strbuf *sb);
/* @num as fio writes quantities: at most @digits digits, with decimals
 * where they fit, a prefix in 1000s or 1024s (@pow2), then @unit; @bits:
 * times 8. */
void report_num(uint64_t num, unsigned digits, bool pow2, bool bits, const char *unit,
		struct strbuf *sb);

/* fio's bw_agg: the entry's mean windowed bandwidth in direction @d as a
 * share of its group's aggregate, capped at 100%; @if_no_agg when the
 * group moved no bytes. */
double report_bw_share(const struct run *run, const struct report_entry *e, unsigned d,
		       double if_no_agg);
/* The same for @e's mixed direction (unified_rw_reporting), as fio. */
double report_mixed_share(const struct run *run, const struct report_entry *e, double if_no_agg);
/* A rate-limited direction (rate, rate_iops): the target of @threads
 * clones and what they achieved, in IOPS (rate_iops) or bytes/s (rate).
 * Kept: achieved at least 99% of the target.  False when @d has no cap. */
struct report_rate {
	double target, achieved;
	bool iops, kept;
};
bool report_rate(const struct job *job, unsigned d, unsigned threads, const struct dir_stats *ds,
		 uint64_t elapsed, struct report_rate *out);
/* continue_on_error: "N I/Os failed and passed over (continue_on_error);
 * the first: ..." for @st's errors, @first the first one (or NULL), with
 * no newline; the report's and standard error's words. */
void report_passed_over(const struct run_stats *st, const char *first, struct strbuf *sb);
/* "verify=crc32c: 2048 blocks (8.00 MiB) read back and checked, 0
 * mismatched", or why the read-back did not run; for a job with verify. */
void report_verify(const struct job *job, const struct run_stats *st, struct strbuf *sb);
/* User and system CPU time of @st as percentages of its measured time. */
void report_cpu(const struct run_stats *st, double *usr_pct, double *sys_pct);
/* Reads and writes together by fio's latency_ns/us/ms buckets, and their total. */
uint64_t report_lat_bins(const struct run_stats *st, uint64_t bins[STATS_LAT_BINS]);

/* The native report, modelled on SQLIO's: per job clone, or per group with
 * group_reporting, and per direction. */
void report_text(const struct run *run, struct strbuf *sb);
/* Under mpirun (run->ranks set): a table of each host's ranks, and with
 * --per-rank of each rank; nothing otherwise. */
void report_ranks(const struct run *run, struct strbuf *sb);
/* --profile=act's slice table (@rows slices) and verdict, from every
 * clone's slices (none counted: rows of zeros, as fio's act --prep). */
void report_act(const struct run *run, unsigned rows, struct strbuf *sb);
/* --idle-prof's figures as fio prints them: "CPU idleness:", the system's
 * and each CPU's % idle as the mode asks, the unit of work's time. */
void report_idle(const struct idleprof_figures *f, struct strbuf *sb);
/* fio's JSON (@plus: json+, with histogram bins); @js gives the option
 * strings as written. */
void report_json(const struct run *run, const struct jobset *js, bool plus, struct strbuf *sb);
/* The JSON document(s) in @sb from byte @from on made one line each (JSON
 * lines): the layout's new lines and indents dropped, the last new line
 * kept. */
void report_json_line(struct strbuf *sb, size_t from);
/* fio's terse format, version 3: one line per entry. */
void report_terse(const struct run *run, struct strbuf *sb);
/* The same in fio's terse version @ver, 2 to 5 (--terse-version). */
void report_terse_version(const struct run *run, unsigned ver, struct strbuf *sb);
/* The live status line's units, as fio's ETA line takes them from the
 * jobs: bits (the last job's unit_base=1), SI prefixes (kb_base=1000 in
 * every job); 0: bytes in binary prefixes. */
enum { REPORT_UNITS_BITS = 1, REPORT_UNITS_SI = 2 };
unsigned report_status_units(const struct job *jobs, unsigned nr);
/* --output-format=spreadsheet: CSV, a header, then one row per entry and
 * direction. */
void report_csv(const struct run *run, struct strbuf *sb);
/* --output-format=openmetrics: gauges and the latency histogram per entry
 * and direction, in the OpenMetrics text format, ending in "# EOF". */
void report_openmetrics(const struct run *run, struct strbuf *sb);
/* --summary: the run in one line for a new user (report_summary.c). */
void report_summary(const struct run *run, struct strbuf *sb);
/* The live status line, without the carriage return; @prev (may be NULL)
 * is the one before, for the current rates; @units: REPORT_UNITS_* bits. */
void report_status(const struct run_status *st, const struct run_status *prev, unsigned units,
		   struct strbuf *sb);
/* Before the run: whether every write_*_log file of @jobs and the --plot
 * folder @plot_dir (may be NULL) can be written, so that a long run does
 * not end in a report without them.  0, or -EINVAL (bad input) with
 * *cause naming the job, the option, the file and the reason. */
int report_files_check(const struct job *jobs, unsigned nr, const char *plot_dir, char **cause);
/* Writes the write_*_log files of every clone.  0, or -errno with *cause
 * naming the file. */
int report_logs(const struct run *run, char **cause);
/* The file report_logs() writes log @k (enum iolog_kind; IOLOG_NR: the
 * histogram log) of result @n (from 1) of @job in, malloc'd; NULL when the
 * job keeps no such log. */
char *report_log_path(const struct job *job, unsigned k, unsigned n);
/* Writes SVG plots into @dir (created if missing): per entry the latency
 * histogram of each direction and IOPS and bandwidth over time. */
int report_plots(const struct run *run, const char *dir, char **cause);
struct plot_point;
/* An entry's windows as points for a plot: reads' and writes' IOPS, then
 * their MiB/s, each array of *@n (free them): a group's summed window by
 * window. */
void report_entry_series(const struct report_entry *e, struct plot_point *pts[4], size_t *n);
/* Appends @e's SQLIO millisecond histogram (reads and writes, in percent)
 * as a bar chart titled @title to @sb: the --plot file's and the HTML
 * page's. */
void report_ms_svg(const struct report_entry *e, const char *title, struct strbuf *sb);
/* What the HTML page tells beside the run: the settings as written and
 * the command line. */
struct report_html_about {
	const struct jobset *js;
	int argc;
	char *const *argv;
};
/* --output-format=html: one self-contained page (inline CSS and SVG, no
 * script, nothing from the network) with the machine, the storage under
 * the files, the jobs as written and resolved, and per entry its table,
 * CPU and plots; every string from the user or the system escaped. */
void report_html(const struct run *run, const struct report_html_about *about, struct strbuf *sb);

#endif
