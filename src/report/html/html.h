/* SPDX-License-Identifier: MIT */
/*
 * The pieces of the HTML report (report_html.c puts them in order): each
 * appends one part of the page to a strbuf.  Every string from the user or
 * the system goes through html_text().  The host and storage parts read
 * /proc and /sys as the page is written, after the run; nothing here
 * writes a file or prints.
 */
#ifndef IOGAUGE_REPORT_HTML_H
#define IOGAUGE_REPORT_HTML_H

#include "report/report.h"
#include "util/util.h"

/* @s as HTML text or an attribute's value: & < > " ' as entities, control
 * bytes other than tab and line breaks as '?' (HTML allows none). */
void html_text(struct strbuf *sb, const char *s);
/* The same for printf-style text. */
void html_textf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The page's stylesheet, screen and print, with no URL in it. */
extern const char html_style[];

/* A <tr> of two cells, a heading @k and the text @v ("-" when NULL or ""). */
void html_kv(struct strbuf *sb, const char *k, const char *v);

/* The machine: host name, CPU model and count, memory, kernel. */
void html_host(struct strbuf *sb);
/* Where the jobs' files are: per path, its filesystem and mount options
 * (/proc/self/mountinfo) and the block device under it with its model,
 * firmware, rotational, scheduler, queue depth and block sizes (/sys),
 * and the devices a stacked one (dm, md) is built on. */
void html_storage(struct strbuf *sb, const struct run *run);

/* Each job's settings in reading order, as the job files and the command
 * line wrote them, with where each was written. */
void html_jobs_as_written(struct strbuf *sb, const struct jobset *js);
/* Each job's every option with its final value and origin (--parse-only's). */
void html_jobs_resolved(struct strbuf *sb, const struct run *run);

/* An entry's DiskSpd-style table: read, write (trim when it has any) and
 * total rows of I/Os, MiB/s, IOPS and total latency (avg, p50 to p99.99,
 * max), each figure also in a data- attribute exactly as the JSON has it. */
void html_entry_table(struct strbuf *sb, const struct report_entry *e);
/* Per group of two entries or more (no group_reporting), its entries'
 * statistics merged into one DiskSpd-style table: over the longest
 * entry's time, as fio's group bandwidth. */
void html_group_tables(struct strbuf *sb, const struct report_entries *es);
/* Every entry's total row (reads, writes and trims together), one a line,
 * each linked to its section. */
void html_summary(struct strbuf *sb, const struct report_entries *es);
/* An entry's CPU line: usr, sys, context switches, page faults. */
void html_entry_cpu(struct strbuf *sb, const struct report_entry *e);
/* fio's "Run status group" figures of every group, as a table. */
void html_groups(struct strbuf *sb, const struct run *run, const struct report_entries *es);
/* mpirun (run->ranks set): a section per host, and with --per-rank per
 * rank, each with its entries' tables. */
void html_ranks(struct strbuf *sb, const struct run *run);
/* The disks under the files: /proc/diskstats over the run and utilisation. */
void html_disks(struct strbuf *sb, const struct run *run);

/* An entry's plots: latency by percentile (every direction and sync), IOPS
 * and bandwidth over time, latency histograms. */
void html_entry_plots(struct strbuf *sb, const struct report_entry *e);

#endif
