/* SPDX-License-Identifier: MIT */
/*
 * The iogauge command line: flags, fio-style jobs (--name=a --rw=read),
 * job files, --set overrides and --section filters, gathered into a
 * jobset.  Nothing here prints or exits: main.c does.
 */
#ifndef IOGAUGE_CLI_H
#define IOGAUGE_CLI_H

#include "jobfile/jobfile.h"

enum cli_format {
	CLI_FMT_NORMAL = 1,
	CLI_FMT_JSON = 2,
	CLI_FMT_JSONPLUS = 4,
	CLI_FMT_TERSE = 8,
	CLI_FMT_SQLIO = 16,	  /* iogauge sqlio only */
	CLI_FMT_SPREADSHEET = 32, /* CSV with a header, not fio's "csv" (terse) */
	CLI_FMT_OPENMETRICS = 64,
	CLI_FMT_HTML = 128, /* the page: alone, or with --html=FILE beside the others */
};

enum cli_eta { CLI_ETA_AUTO, CLI_ETA_ALWAYS, CLI_ETA_NEVER };

struct cli {
	bool help;
	bool version;
	bool help_options;
	bool parse_only;
	bool readonly; /* --readonly: refuse every job that writes, trims or lays out */
	bool clock_info;
	bool list_engines;
	const char *enghelp; /* --enghelp=NAME; points into argv */
	unsigned formats;    /* enum cli_format bits; 0: normal */
	const char *output;  /* --output=FILE, or NULL: standard output */
	const char *plot;    /* --plot=DIR, or NULL */
	const char *html;    /* --html=FILE: the HTML page's own file, or NULL */
	enum cli_eta eta;
	uint64_t eta_interval;	  /* ns between status lines (--eta-interval), default 1 s */
	uint64_t eta_newline;	  /* --eta-newline: ns between kept lines on a terminal; 0: none */
	bool showcmd;		  /* --showcmd: print the job files as one command line */
	unsigned terse_version;	  /* --terse-version: 2 to 5; 0 for fio's default, 3 */
	bool warnings_fatal;	  /* --warnings-fatal: a job's warning is bad input */
	const char *cmdhelp;	  /* --cmdhelp[=OPTION]; "" for every option; into argv */
	const char *crctest;	  /* --crctest[=LIST]; "" for every checksum; into argv */
	bool bandwidth_log;	  /* --bandwidth-log: agg-{read,write,trim}_bw.log */
	bool merge_blktrace_only; /* --merge-blktrace-only: write the merges, run nothing */
	const char *inflate_log;  /* --inflate-log=FILE: print its text and stop */
	const char *trigger_file; /* --trigger-file: the run stops when it appears */
	uint64_t trigger_timeout; /* --trigger-timeout: ns, whole seconds; 0: none */
	const char *trigger_cmd;  /* --trigger: run by the shell when a trigger fires */
	unsigned idle_prof;	  /* --idle-prof: 1 calibrate, 2 system, 3 percpu; 0: none */
	const char *aux_path;	  /* --aux-path: verify state and dump files' folder, or NULL */
	const char *profile;	  /* --profile=NAME: fio's built-in benchmark; into argv */
	uint64_t status_interval; /* --status-interval: ns, whole ms; 0: none */
	bool summary;		  /* --summary: the run in one line after the report */
	const char *bundle;	  /* --bundle=PATH: the run's .tar.gz, or NULL; into argv */
	bool per_rank;		  /* --per-rank: MPI, a report row per rank */
	bool rank_stonewall;	  /* --rank-stonewall: MPI, the first rank done stops all */
	bool act_prep;		  /* --profile=act --prep: its table counts no I/O, as fio's */
	uint32_t act_rows;	  /* --profile=act: its table's slices; 0: not act */
	uint64_t act_slice_ns;	  /* --profile=act: a slice's length (--slice-duration) */
	unsigned nr_inputs;	  /* job files and --name jobs */
	struct jobset js;
	int argc; /* the command line, for the HTML page */
	char **argv;
};

/*
 * Parses argv and reads the job files it names into cli->js, with --set
 * applied and --section filtered.  0, or -EINVAL (or -errno for a file that
 * cannot be read) with *cause naming the flag, or FILE:LINE.
 */
int cli_parse(struct cli *cli, int argc, char **argv, char **cause);
void cli_free(struct cli *cli);

/* For the shell completion (src/complete/): the flags' names without
 * "--", and the names a flag takes (output-format, eta, idle-prof; NULL
 * for any other flag). */
const char *const *cli_flag_names(unsigned *n);
const char *const *cli_flag_values(const char *flag, unsigned *n);
/* --output-format=html's place: 0, or -EINVAL with *cause when the page
 * would share its file with other formats or with --status-interval's
 * reports (then --html=FILE is needed). */
int cli_html_check(const struct cli *cli, char **cause);

/*
 * One report flag at argv[*i] (--output-format, --minimal, --output, --html, --plot,
 * --eta), for iogauge sqlio's command line; a value given as the next word
 * advances *i.  1 when taken, 0 when argv[*i] is none of them, or -EINVAL
 * with *cause naming the flag.
 */
int cli_report_flag(struct cli *cli, int argc, char **argv, int *i, char **cause);

#endif
