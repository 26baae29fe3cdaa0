/* SPDX-License-Identifier: MIT */
/*
 * iogauge sqlio: SQLIO v1.5.SG's command line, read into a struct sqlio,
 * turned into an iogauge job file (so that a SQLIO test is a recipe like
 * any other), and SQLIO's report printed from the run.  The parser does
 * no I/O but stat(2) of the targets, whose sizes the job file and the
 * report need.
 */
#ifndef IOGAUGE_SQLIO_H
#define IOGAUGE_SQLIO_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

enum sqlio_pattern { SQLIO_STRIDE, SQLIO_RANDOM, SQLIO_SEQUENTIAL };

/* One file: a command-line name, or a line of the -F param file. */
struct sqlio_target {
	char *path;
	unsigned threads;
	uint64_t mask;	  /* CPU mask from the param file; 0: no affinity */
	uint64_t size_mb; /* param file size; 0: none given */
	bool exists;	  /* when the command line was read */
	uint64_t size;	  /* bytes: the file's size then (0 when absent) */
	uint64_t use;	  /* bytes the run will find: laid out up to this */
};

struct sqlio {
	char *cmdline; /* the arguments as given, for the job file's comment */
	bool write;    /* -kW */
	unsigned threads;
	unsigned secs;
	enum sqlio_pattern pattern;
	unsigned stride;       /* -f<N>: blocks between the I/Os of a run */
	bool v111;	       /* -v1.1.1: every run reuses the same blocks */
	unsigned outstanding;  /* -o; 0: not given (one I/O per thread) */
	unsigned kb;	       /* -b */
	unsigned ios_per_run;  /* -i */
	char buffering;	       /* -B: N, Y, H or S */
	bool buffering_given;  /* the optional line is printed only then */
	char latency;	       /* -L: 0, 'S' or 'P' */
	bool init_latency;     /* -L?i */
	char util;	       /* -U: 0, 'A' (all CPUs) or 'P' (per CPU) */
	uint64_t start_blocks; /* -S */
	int cpu;	       /* -p; -1: none */
	uint64_t mask;	       /* -a; 0: none */
	bool round_robin;      /* -aR */
	char multi;	       /* -m: 0, 'C' or 'S' */
	unsigned sub_blocks;   /* -m's count */
	char *param_file;      /* -F */
	struct sqlio_target *targets;
	unsigned nr_targets;
	struct str_list notes; /* how a Windows flag is taken on Linux: for stderr */
	/* iogauge's own flags */
	const char *engine; /* --ioengine; io_uring by default */
	bool print_job;	    /* --job */
};

/*
 * Reads SQLIO's flags from @argv (argv[0] is "sqlio"), with the long flags
 * it does not know handed to @other, which returns 1 when it took argv[*i]
 * (advancing *i past a separate value), 0 when it does not know it, or
 * -EINVAL with *cause set.  0; 1 for -? or --help (nothing else is
 * read); or -EINVAL (or -errno for a param file that cannot be read) with
 * *cause naming the flag or FILE:LINE.
 */
int sqlio_parse(struct sqlio *s, int argc, char **argv,
		int (*other)(void *arg, int argc, char **argv, int *i, char **cause), void *arg,
		char **cause);
void sqlio_free(struct sqlio *s);

/* Appends the equivalent job file. */
void sqlio_jobfile(const struct sqlio *s, struct strbuf *out);

struct run;
/* Appends SQLIO's report of @run (the jobs of sqlio_jobfile()); @util is
 * the -U block, or NULL. */
void report_sqlio(const struct sqlio *s, const struct run *run, const char *util,
		  struct strbuf *out);

#endif
