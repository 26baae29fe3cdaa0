/* SPDX-License-Identifier: MIT */
/*
 * The option table: one row per job option (name, alias, kind, field,
 * bounds, default, one-line help).  A row's kind knows how to parse a value
 * into struct job and how to print it back.  Adding an option is one row
 * here plus its entry in man/iogauge-jobfile.5; an engine's own options
 * are rows of the same kind in its own file (engine_ops.options).
 */
#ifndef IOGAUGE_OPTIONS_H
#define IOGAUGE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobfile/job.h"
#include "util/util.h"

enum origin_kind {
	ORIGIN_DEFAULT,
	ORIGIN_FILE,	/* file:line */
	ORIGIN_CMDLINE, /* --name=value on the command line */
	ORIGIN_SET,	/* --set name=value */
};

struct origin {
	enum origin_kind kind;
	const char *file; /* ORIGIN_FILE: the path as given; not owned */
	unsigned line;	  /* ORIGIN_FILE: 1-based */
	bool global;	  /* inherited from a global section or from before --name */
	unsigned seq;	  /* reading order: later values win */
	unsigned section; /* which section (or --name, or --set) it was read in */
	const char *via;  /* set through another option sharing the field */
};

/* "jobs/a.ini:3", "--bs", "--set bs" or "default". */
void origin_format(const struct origin *o, const char *optname, struct strbuf *sb);

/* Each option's row in opt_table: the compiler checks a name used in code. */
enum opt_id {
	OPT_ACK_BUFFER,
	OPT_ALLOW_FILE_CREATE,
	OPT_ALLOW_MOUNTED_WRITE,
	OPT_ALLRANDREPEAT,
	OPT_ATOMIC,
	OPT_BLOCKALIGN,
	OPT_BS,
	OPT_BS_IS_SEQ_RAND,
	OPT_BS_UNALIGNED,
	OPT_BSRANGE,
	OPT_BSSPLIT,
	OPT_BUFFER_COMPRESS_CHUNK,
	OPT_BUFFER_COMPRESS_PERCENTAGE,
	OPT_BUFFER_PATTERN,
	OPT_BUFFERED,
	OPT_BWAVGTIME,
	OPT_CGROUP,
	OPT_CGROUP_NODELETE,
	OPT_CGROUP_WEIGHT,
	OPT_CLAT_PERCENTILES,
	OPT_CLOCKSOURCE,
	OPT_CONTINUE_ON_ERROR,
	OPT_CPUMASK,
	OPT_CPUS_ALLOWED,
	OPT_CPUS_ALLOWED_POLICY,
	OPT_CREATE_FSYNC,
	OPT_CREATE_ON_OPEN,
	OPT_CREATE_ONLY,
	OPT_CREATE_SERIALIZE,
	OPT_DEDUPE_GLOBAL,
	OPT_DEDUPE_MODE,
	OPT_DEDUPE_PERCENTAGE,
	OPT_DEDUPE_WORKING_SET_PERCENTAGE,
	OPT_DESCRIPTION,
	OPT_DIRECT,
	OPT_DIRECTORY,
	OPT_DISABLE_BW_MEASUREMENT,
	OPT_DISABLE_CLAT,
	OPT_DISABLE_LAT,
	OPT_DISABLE_SLAT,
	OPT_DO_VERIFY,
	OPT_END_FSYNC,
	OPT_ERROR_DUMP,
	OPT_EXEC_POSTRUN,
	OPT_EXEC_PRERUN,
	OPT_EXIT_WHAT,
	OPT_EXITALL,
	OPT_EXITALL_ON_ERROR,
	OPT_EXPERIMENTAL_VERIFY,
	OPT_FADVISE_HINT,
	OPT_FALLOCATE,
	OPT_FDATASYNC,
	OPT_FILE_APPEND,
	OPT_FILE_SERVICE_TYPE,
	OPT_FILENAME,
	OPT_FILENAME_FORMAT,
	OPT_FILESIZE,
	OPT_FILL_DEVICE,
	OPT_FLOW,
	OPT_FLOW_ID,
	OPT_FLOW_SLEEP,
	OPT_FSYNC,
	OPT_FSYNC_ON_CLOSE,
	OPT_FSYNC_WINDOW,
	OPT_GID,
	OPT_GROUP_REPORTING,
	OPT_GTOD_REDUCE,
	OPT_HUGEPAGE_SIZE,
	OPT_IGNORE_ERROR,
	OPT_INVALIDATE,
	OPT_IO_SIZE,
	OPT_IO_SUBMIT_MODE,
	OPT_IODEPTH,
	OPT_IODEPTH_BATCH_COMPLETE_MAX,
	OPT_IODEPTH_BATCH_COMPLETE_MIN,
	OPT_IODEPTH_BATCH_SUBMIT,
	OPT_IODEPTH_LOW,
	OPT_IOENGINE,
	OPT_IOMEM,
	OPT_IOMEM_ALIGN,
	OPT_IOPSAVGTIME,
	OPT_IOSCHEDULER,
	OPT_KB_BASE,
	OPT_LAT_PERCENTILES,
	OPT_LATENCY_PERCENTILE,
	OPT_LATENCY_RUN,
	OPT_LATENCY_TARGET,
	OPT_LATENCY_WINDOW,
	OPT_LOCKFILE,
	OPT_LOCKMEM,
	OPT_LOG_AVG_MSEC,
	OPT_LOG_HIST_COARSENESS,
	OPT_LOG_HIST_MSEC,
	OPT_LOG_OFFSET,
	OPT_LOG_PRIO,
	OPT_LOOPS,
	OPT_MAX_LATENCY,
	OPT_MERGE_BLKTRACE_FILE,
	OPT_MERGE_BLKTRACE_ITERS,
	OPT_MERGE_BLKTRACE_SCALARS,
	OPT_NAME,
	OPT_NEW_GROUP,
	OPT_NICE,
	OPT_NORANDOMMAP,
	OPT_NRFILES,
	OPT_NUMA_CPU_NODES,
	OPT_NUMA_MEM_POLICY,
	OPT_NUMBER_IOS,
	OPT_NUMJOBS,
	OPT_OFFSET,
	OPT_OFFSET_ALIGN,
	OPT_OFFSET_INCREMENT,
	OPT_OFFSET_RANK_INCREMENT,
	OPT_OPENDIR,
	OPT_OPENFILES,
	OPT_OVERWRITE,
	OPT_PERCENTAGE_RANDOM,
	OPT_PERCENTILE_LIST,
	OPT_PRE_READ,
	OPT_PRIO,
	OPT_PRIOCLASS,
	OPT_RAMP_TIME,
	OPT_RANDOM_DISTRIBUTION,
	OPT_RANDOM_GENERATOR,
	OPT_RANDREPEAT,
	OPT_RANDSEED,
	OPT_RATE,
	OPT_RATE_CYCLE,
	OPT_RATE_IGNORE_THINKTIME,
	OPT_RATE_IOPS,
	OPT_RATE_IOPS_MIN,
	OPT_RATE_MIN,
	OPT_RATE_PROCESS,
	OPT_READ_IOLOG,
	OPT_REFILL_BUFFERS,
	OPT_REPLAY_ALIGN,
	OPT_REPLAY_NO_STALL,
	OPT_REPLAY_REDIRECT,
	OPT_REPLAY_SCALE,
	OPT_REPLAY_SKIP,
	OPT_REPLAY_TIME_SCALE,
	OPT_ROUNDS,
	OPT_RUNTIME,
	OPT_RW,
	OPT_RW_SEQUENCER,
	OPT_RWMIXREAD,
	OPT_RWMIXWRITE,
	OPT_SCRAMBLE_BUFFERS,
	OPT_SEED,
	OPT_SERIALIZE_OVERLAP,
	OPT_SIGNIFICANT_FIGURES,
	OPT_SIZE,
	OPT_SOFTRANDOMMAP,
	OPT_STARTDELAY,
	OPT_STATS,
	OPT_STEADYSTATE,
	OPT_STEADYSTATE_DURATION,
	OPT_STEADYSTATE_RAMP_TIME,
	OPT_STONEWALL,
	OPT_STRIDE,
	OPT_SUB_BLOCK_IO,
	OPT_SUB_BLOCKS,
	OPT_SYNC,
	OPT_SYNC_FILE_RANGE,
	OPT_THINKTIME,
	OPT_THINKTIME_BLOCKS,
	OPT_THINKTIME_BLOCKS_TYPE,
	OPT_THINKTIME_IOTIME,
	OPT_THINKTIME_SPIN,
	OPT_THREAD,
	OPT_TIME_BASED,
	OPT_TRIM_BACKLOG,
	OPT_TRIM_BACKLOG_BATCH,
	OPT_TRIM_PERCENTAGE,
	OPT_TRIM_VERIFY_ZERO,
	OPT_UID,
	OPT_UNIFIED_RW_REPORTING,
	OPT_UNIQUE_FILENAME,
	OPT_UNIT_BASE,
	OPT_UNLINK,
	OPT_UNLINK_EACH_LOOP,
	OPT_VERIFY,
	OPT_VERIFY_ASYNC,
	OPT_VERIFY_ASYNC_CPUS,
	OPT_VERIFY_BACKLOG,
	OPT_VERIFY_BACKLOG_BATCH,
	OPT_VERIFY_DUMP,
	OPT_VERIFY_FATAL,
	OPT_VERIFY_INTERVAL,
	OPT_VERIFY_OFFSET,
	OPT_VERIFY_ONLY,
	OPT_VERIFY_PATTERN,
	OPT_VERIFY_STATE_LOAD,
	OPT_VERIFY_STATE_SAVE,
	OPT_WAIT_FOR,
	OPT_WITNESS,
	OPT_WRITE_BARRIER,
	OPT_WRITE_BW_LOG,
	OPT_WRITE_HINT,
	OPT_WRITE_HIST_LOG,
	OPT_WRITE_IOLOG,
	OPT_WRITE_IOPS_LOG,
	OPT_WRITE_LAT_LOG,
	OPT_ZERO_BUFFERS,
	OPT_ZONEMODE,
	OPT_ZONERANGE,
	OPT_ZONESIZE,
	OPT_ZONESKIP,
	OPT_NR, /* rows in opt_table */
};

struct opt_def;

/* How one kind of value is parsed and printed. */
struct opt_kind {
	const char *syntax; /* shown by --help-options: "size", "bool", ... */
	/* 0, or -EINVAL with *cause set; @val is never NULL. */
	int (*parse)(const struct opt_def *o, struct job *job, const char *val, char **cause);
	/* Appends the value as a job file would spell it. */
	void (*format)(const struct opt_def *o, const struct job *job, struct strbuf *sb);
	/* Kinds whose field owns memory: after a memberwise copy of a job,
	 * gives the copy memory of its own; and frees it.  NULL: plain data. */
	void (*own)(const struct opt_def *o, struct job *job);
	void (*release)(const struct opt_def *o, struct job *job);
};

struct opt_enum {
	const char *name;
	int value;
};

#define OPTF_BARE   (1u << 0) /* may stand alone: "time_based" means "time_based=1" */
#define OPTF_INVERT (1u << 1) /* bool stored inverted (buffered writes direct) */

struct engine_ops;

struct opt_def {
	const char *name;
	const char *alias; /* NULL, or fio's other spelling */
	const struct opt_kind *kind;
	size_t off;		      /* offsetof(struct job, field) */
	size_t off2;		      /* ranges: the field for the high end */
	uint64_t min, max;	      /* inclusive, after units; max 0: no bound */
	uint64_t unit;		      /* times: ns per unit of a bare number */
	const struct opt_enum *enums; /* NULL-terminated */
	const char *def;	      /* default, parsed by the same code; NULL: none */
	unsigned flags;
	const char *help;
	/* An engine's own option, in that engine's file: off (and off2) are
	 * into its option struct, not struct job.  NULL: a job option. */
	const struct engine_ops *engine;
};

/* The job options, sorted by name; the engines' own follow them (rows
 * OPT_NR and up, in engine table order). */
extern const struct opt_def opt_table[OPT_NR];

/* How many rows there are, the engines' included, and row @i of them. */
unsigned opt_rows(void);
const struct opt_def *opt_at(unsigned i);
/* The row for @name or its alias (exact, case-sensitive as fio), or NULL. */
const struct opt_def *opt_find(const char *name);
/* @o's place among the rows (opt_at(opt_index(o)) == o): what
 * struct job's origin is indexed by. */
unsigned opt_index(const struct opt_def *o);
/* Where @o's field, at @off, is in @job (its engine's block for an
 * engine's option). */
void *opt_field(const struct opt_def *o, const struct job *job, size_t off);
/* The name enum option @id gives @value ("randread" for OPT_RW), or "?". */
const char *opt_enum_name(enum opt_id id, int value);
/* The closest option name, or NULL when nothing is close enough. */
const char *opt_suggest(const char *name);

/*
 * Sets one option in @job from its text.  @bare: the option stood alone
 * without "=value".  0, or -EINVAL with *cause set (the value and what
 * would be valid; no location: the caller knows it).
 */
int opt_apply(const struct opt_def *o, struct job *job, const char *val, bool bare, char **cause);
void opt_format(const struct opt_def *o, const struct job *job, struct strbuf *sb);

/* Value kinds, defined in optvals.c. */
extern const struct opt_kind opt_kind_str, opt_kind_str_list, opt_kind_bool, opt_kind_uint,
	opt_kind_u64, opt_kind_pct, opt_kind_size_pct, opt_kind_size_ddir, opt_kind_range,
	opt_kind_range_ddir, opt_kind_time, opt_kind_time_range, opt_kind_enum, opt_kind_u64_ddir,
	opt_kind_rw, opt_kind_bssplit, opt_kind_rand_dist, opt_kind_percentiles, opt_kind_cpus,
	opt_kind_pattern, opt_kind_engine;
/* ignore_error's lists of errnos, and a CPU list of a field's own (opterrors.c). */
extern const struct opt_kind opt_kind_errors, opt_kind_cpu_list;
/* A signed int: the row's min and max are int64_t values (nice=-20..19). */
extern const struct opt_kind opt_kind_int;
extern const struct opt_kind opt_kind_file_service;
/* Plain sizes, steadystate's kind:limit, times per direction, fractions. */
extern const struct opt_kind opt_kind_size, opt_kind_steady, opt_kind_time_ddir, opt_kind_float;
/* replay_skip's names, merge_blktrace_*'s lists (optreplay.c). */
extern const struct opt_kind opt_kind_replay_skip, opt_kind_merge_list;

/*
 * Options fio knows that iogauge does not implement.  FIO_OPT_UNSUPPORTED
 * is an error; FIO_OPT_HARMLESS (it cannot change the workload) warns;
 * FIO_OPT_NOT_BUILT is an error too, for an option of what iogauge will not
 * build (network, cluster, GPU, persistent-memory, passthrough and
 * zoned-device engines): *why is then "fio's X engine, for Y".
 */
enum fio_opt_status { FIO_OPT_UNKNOWN, FIO_OPT_UNSUPPORTED, FIO_OPT_HARMLESS, FIO_OPT_NOT_BUILT };
enum fio_opt_status fio_option_status(const char *name, const char **why);
/* When @val is a value fio accepts for option @name but iogauge does not
 * ("sg" for ioengine), a phrase saying what it is; else NULL. */
const char *fio_value_unsupported(const char *name, const char *val);
/* When @val is a value fio accepts for option @name that iogauge will not
 * build ("rdma" for ioengine, "cudamalloc" for iomem): "fio's engine for
 * Y"; else NULL. */
const char *fio_value_not_built(const char *name, const char *val);

#endif
