/* SPDX-License-Identifier: MIT */
/*
 * struct job: one job section, resolved.  Plain data, no behaviour: the
 * option table writes it, workers read it.  Sizes are in bytes and times
 * in nanoseconds unless a field says otherwise.
 */
#ifndef IOGAUGE_JOB_H
#define IOGAUGE_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "util/clock.h"
#include "util/iomem.h"
#include "util/util.h"

struct engine_ops;

enum ddir { DDIR_READ, DDIR_WRITE, DDIR_TRIM, DDIR_COUNT };

enum rw_mode {
	RW_READ,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_READWRITE, /* fio's rw / readwrite: sequential mixed */
	RW_RANDRW,
	RW_TRIM, /* sequential trims: holes punched (files), discards (devices) */
	RW_RANDTRIM,
	RW_TRIMWRITE, /* each block trimmed, then written, as fio's */
	RW_RANDTRIMWRITE,
};

enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };

enum rate_process { RATE_LINEAR, RATE_POISSON };
/* What thinktime_blocks counts: I/Os completed (fio's default) or issued. */
enum think_type { THINK_COMPLETE, THINK_ISSUE };
enum submit_mode { SUBMIT_INLINE, SUBMIT_OFFLOAD };
/* fio's unified_rw_reporting: each direction apart, all of them as one
 * "mixed" direction, or both. */
enum unified_rw { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };
enum fadvise_hint { FADV_HINT_NONE, FADV_HINT_WORKLOAD, FADV_HINT_SEQUENTIAL, FADV_HINT_RANDOM };
/* What exitall ends when a clone ends: its reporting group, the clones
 * running at the time, or every clone of the run (fio's exit_what). */
enum exit_what { EXIT_GROUP, EXIT_STONEWALL, EXIT_ALL };

enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };

enum sub_block_io { SUBIO_SCATTER, SUBIO_COPY };

/* lockfile: how a file shared by clones is locked around each I/O. */
enum lockfile_mode { LOCKFILE_NONE, LOCKFILE_EXCLUSIVE, LOCKFILE_READWRITE };

/* fio's write_hint: the kernel's RWH_WRITE_LIFE_* values; 0: not set. */
enum write_hint {
	WRITE_HINT_UNSET,
	WRITE_HINT_NONE,
	WRITE_HINT_SHORT,
	WRITE_HINT_MEDIUM,
	WRITE_HINT_LONG,
	WRITE_HINT_EXTREME,
};

/* What a duplicate buffer repeats: fio's dedupe_mode. */
enum dedupe_mode { DEDUPE_REPEAT, DEDUPE_WORKING_SET };

enum zone_mode { ZONE_NONE, ZONE_STRIDED };

/* rw=randread:N's other I/Os: after the last (sequential) or at it again (identical). */
enum rw_sequencer { RWSEQ_SEQUENTIAL, RWSEQ_IDENTICAL };

/* steadystate=: what is judged, and the limit (IOPS, bytes/s, or a % of
 * the window's mean). */
enum steady_kind { STEADY_IOPS, STEADY_IOPS_SLOPE, STEADY_BW, STEADY_BW_SLOPE };
struct steady_spec {
	enum steady_kind kind;
	double limit;
	bool pct;
};

/* fio's random_generator: what draws random offsets. */
enum random_generator { RANDGEN_TAUSWORTHE, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };

enum fallocate_mode {
	FALLOC_NONE,
	FALLOC_NATIVE,
	FALLOC_POSIX,
	FALLOC_KEEP,
	FALLOC_TRUNCATE,
};

enum continue_on_error {
	COE_NONE,
	COE_READ,
	COE_WRITE,
	COE_IO,
	COE_VERIFY,
	COE_ALL,
};

/* fio's error types: what continue_on_error and ignore_error name. */
enum error_type { ERR_TYPE_READ, ERR_TYPE_WRITE, ERR_TYPE_VERIFY, ERR_TYPE_COUNT };

#define JOB_MAX_IGNORE_ERRORS 32
/* ignore_error: per error type, the errnos passed over; a type with none
 * listed passes over fio's default two, EIO and EILSEQ. */
struct ignore_errors {
	uint8_t nr[ERR_TYPE_COUNT];
	int err[ERR_TYPE_COUNT][JOB_MAX_IGNORE_ERRORS];
};

enum verify_kind {
	VERIFY_NONE,
	VERIFY_MD5,
	VERIFY_CRC64,
	VERIFY_CRC32C,
	VERIFY_CRC32C_INTEL,
	VERIFY_CRC32,
	VERIFY_CRC16,
	VERIFY_CRC7,
	VERIFY_XXHASH,
	VERIFY_SHA1,
	VERIFY_SHA256,
	VERIFY_SHA512,
	VERIFY_SHA3_224,
	VERIFY_SHA3_256,
	VERIFY_SHA3_384,
	VERIFY_SHA3_512,
	VERIFY_META,
	VERIFY_PATTERN,
	VERIFY_PATTERN_HDR,
	VERIFY_NULL,
};

enum rand_dist_kind {
	RDIST_RANDOM,
	RDIST_ZIPF,
	RDIST_PARETO,
	RDIST_NORMAL,
	RDIST_ZONED,
	RDIST_ZONED_ABS,
};

#define JOB_MAX_ZONES	    256
#define JOB_MAX_BSSPLIT	    64
#define JOB_MAX_PERCENTILES 20
#define JOB_MAX_MERGE	    20 /* merge_blktrace_scalars, _iters: fio's list length */
#define JOB_MAX_CPUS	    1024
#define JOB_MAX_NUMJOBS	    4096

/* A CPU list (verify_async_cpus): CPUs 0 to JOB_MAX_CPUS - 1. */
struct cpu_list {
	uint64_t mask[JOB_MAX_CPUS / 64];
	bool set;
};

struct rand_zone {
	double access_pct; /* % of accesses */
	double size_pct;   /* % of the region (zoned) */
	uint64_t size;	   /* bytes (zoned_abs) */
};

struct rand_dist {
	enum rand_dist_kind kind;
	double param;		       /* zipf theta, pareto h, normal sigma (%) */
	double center;		       /* 0..1; 0 when not given */
	bool has_center;	       /* center given: zipf/pareto put the hottest block there */
	unsigned nr_zones[DDIR_COUNT]; /* zoned, zoned_abs: per direction, as bssplit */
	/* DDIR_COUNT rows, allocated for zoned and zoned_abs only: a job is
	 * small unless it uses them. */
	struct rand_zone (*zones)[JOB_MAX_ZONES];
};

/* file_service_type: how the next file is chosen (fio's get_next_file). */
enum file_service_kind {
	FSRV_ROUNDROBIN, /* in turn, nr I/Os each */
	FSRV_SEQUENTIAL, /* one file until its pass is done, then the next */
	FSRV_RANDOM,	 /* uniformly, nr I/Os each */
	FSRV_ZIPF,	 /* skewed: each I/O, a file drawn as these distributions */
	FSRV_PARETO,
	FSRV_NORMAL,
};

struct file_service {
	enum file_service_kind kind;
	unsigned nr;  /* roundrobin, sequential, random: I/Os before the next pick (:N) */
	double param; /* zipf theta, pareto h, normal deviation (%) */
	double center;
	bool has_center;
};

struct bssplit_entry {
	uint64_t bs; /* bytes */
	double pct;  /* share of I/Os in this direction */
};

/* verify_pattern: up to 512 bytes, repeated over each block; %o places
 * the block's offset (8 bytes, little-endian) at off_at. */
struct verify_pattern {
	uint8_t bytes[512];
	uint16_t len; /* bytes; 0: none */
	uint8_t nr_off;
	uint16_t off_at[8];
};

struct size_or_pct {
	uint64_t val; /* bytes, or a percentage when pct */
	bool pct;
};

struct job {
	char *name;
	char *description;
	struct str_list filename;
	struct str_list directory;
	char *filename_format;
	unsigned nrfiles;
	unsigned openfiles; /* most files open at once; 0: nrfiles */
	struct file_service file_service;
	struct size_or_pct size;
	uint64_t filesize_min, filesize_max; /* 0: not set */
	struct size_or_pct io_size;
	struct size_or_pct offset;
	struct size_or_pct offset_increment;
	struct size_or_pct offset_rank_increment; /* under mpirun: rank N starts N of these later */
	/* bytes a percentage start is rounded up to; 0: the smallest block */
	uint64_t offset_align;

	enum rw_mode rw;
	int64_t rw_seq_add;  /* bytes skipped (or, < 0, gone back) after each sequential I/O */
	unsigned stride;     /* SQLIO's -f: blocks between I/Os in a run; 0: off */
	unsigned rw_rand_nr; /* I/Os per random offset */
	enum rw_sequencer rw_sequencer;
	unsigned rwmix_read;  /* %; writes get the rest */
	unsigned rwmix_write; /* % as set by rwmixwrite, kept to cross-check */
	uint64_t bs[DDIR_COUNT];
	bool bs_is_seq_rand; /* the read sizes are for sequential I/Os, the write ones for random */
	bool bs_unaligned;   /* bsrange sizes of any byte count, not multiples of the low end */
	uint64_t bsrange_min[DDIR_COUNT], bsrange_max[DDIR_COUNT]; /* 0: not set */
	struct bssplit_entry (*bssplit)[JOB_MAX_BSSPLIT]; /* DDIR_COUNT rows; NULL until set */
	unsigned nr_bssplit[DDIR_COUNT];
	uint64_t blockalign[DDIR_COUNT]; /* 0: same as the block size */
	unsigned sub_blocks;		 /* SQLIO's -m: pieces of each I/O's buffer; 1: off */
	enum sub_block_io sub_block_io;
	enum zone_mode zonemode; /* strided: I/O in zones of zonerange, zoneskip apart */
	uint64_t zonesize;	 /* bytes done in a zone before the next */
	uint64_t zonerange;	 /* bytes: a zone's span (0: zonesize) */
	uint64_t zoneskip;	 /* bytes between the end of a zone's span and the next */

	const struct engine_ops *ioengine; /* maybe an ENGINE_F_ABSENT one: job_engine() */
	unsigned iodepth;
	unsigned iodepth_batch_submit;
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max; /* 0: same as iodepth */
	unsigned iodepth_low; /* a full queue drains to this before it is filled; 0: iodepth */
	bool direct;
	bool atomic; /* fio's O_ATOMIC: direct, and nothing more on Linux */
	enum sync_mode sync;
	unsigned fsync; /* every N writes; 0: never */
	unsigned fdatasync;
	char *sync_file_range;	    /* fio's FLAGS[:N], as written; NULL: none */
	unsigned sfr_flags, sfr_nr; /* ... read by job.c: SYNC_FILE_RANGE_*, every N writes */
	bool end_fsync;
	char *exec_prerun;  /* NULL: none; a shell command before the first I/O */
	char *exec_postrun; /* ... after the last */
	bool fsync_on_close;
	/* iogauge crash's (src/crash/): a plain run refuses them (preflight.c). */
	uint64_t ack_buffer;   /* bytes of the writer's user-space buffer; 0: none */
	uint64_t fsync_window; /* ns: group commit's window; 0: off */
	unsigned rounds;       /* kills of the writer */
	uint64_t seed;	       /* of the kill moments */
	char *witness;	       /* HOST:PORT/RUN of a remote witness; NULL: the parent */

	uint64_t runtime; /* ns; 0: no limit */
	bool time_based;
	struct steady_spec steadystate;
	uint64_t ss_dur;	   /* ns: steadystate's window; under a second: off */
	uint64_t ss_ramp;	   /* ns before steadystate's samples start */
	uint64_t latency_target;   /* ns: latency_target's target; 0: no search */
	uint64_t latency_window;   /* ns each depth is tried for */
	double latency_percentile; /* % of a window's I/Os that must meet the target */
	bool latency_run;	   /* keep searching rather than end at the depth found */
	bool serialize_overlap;	   /* an I/O over one in flight waits for it (writes, trims) */
	/* ns: an I/O's total latency that fails the job; 0: none */
	uint64_t max_latency[DDIR_COUNT];
	uint64_t ramp_time;			 /* ns */
	uint64_t startdelay_min, startdelay_max; /* ns */
	unsigned loops;
	uint64_t number_ios; /* I/Os per loop (fio counts them all, times loops); 0: no cap */
	unsigned numjobs;
	bool thread;
	bool stonewall;
	char *wait_for;
	bool new_group;
	bool group_reporting;
	bool stats; /* 0: left out of the report, its logs empty (fio's stats=0) */
	enum unified_rw unified_rw_reporting;
	unsigned unit_base;	   /* fio's: 1, rates in bits in the text report; 0 or 8: bytes */
	unsigned sig_figs;	   /* significant_figures: digits in the group lines' figures */
	uint64_t thinktime;	   /* ns */
	unsigned thinktime_blocks; /* I/Os between thinks */
	uint64_t thinktime_spin;   /* ns of the think spent spinning */
	enum think_type thinktime_blocks_type;
	uint64_t thinktime_iotime;  /* ns of I/O between thinks; 0: off */
	bool thinktime_iotime_only; /* ... and thinktime_blocks not given: time alone */
	bool rate_ignore_thinktime;
	uint64_t rate[DDIR_COUNT]; /* bytes/s; 0: no cap */
	uint64_t rate_iops[DDIR_COUNT];
	enum rate_process rate_process;
	unsigned flow; /* weight in flow_id's flow, 0..1000; 0: none */
	unsigned flow_id;
	uint64_t flow_sleep;	       /* ns */
	uint64_t rate_min[DDIR_COUNT]; /* bytes/s: a job below it fails; 0: none */
	uint64_t rate_iops_min[DDIR_COUNT];
	unsigned rate_cycle;	  /* ms */
	bool exitall;		  /* when any clone ends (any job's sets it for all), end others */
	bool exitall_on_error;	  /* ... when a clone ends in error */
	enum exit_what exit_what; /* ... or what else exitall ends */
	enum submit_mode io_submit_mode;
	enum iomem_kind iomem;	    /* I/O buffer memory */
	char *ioscheduler;	    /* NULL: leave it; the disks' scheduler while the job runs */
	unsigned mem_align;	    /* bytes past a page boundary where the buffers start */
	struct size_or_pct lockmem; /* bytes each clone mlocks (never a %); 0: none */
	struct size_or_pct hugepage_size; /* huge buffers round to it (bytes); 0: the system's */
	enum fadvise_hint
		fadvise_hint;	  /* posix_fadvise at the start: fio's default, the workload's */
	bool allow_mounted_write; /* write a block device that holds something */
	bool read_only;
	/* --readonly (not a job option): files are neither created nor grown */ /* offload: read, warned about, run inline */
	/* --aux-path (not a job option): verify state and dump files' folder, or NULL */
	const char *aux_path;
	/* --profile=act (not a job option): the slices each clone counts
	 * (0: none) and their length in ns. */
	uint32_t act_slices;
	uint64_t act_slice_ns;

	struct rand_dist random_distribution;
	enum random_generator random_generator;
	/* %: a random job's random I/Os; the rest sequential */
	uint64_t percentage_random[DDIR_COUNT];
	bool randrepeat;
	bool allrandrepeat; /* every generator from fio's fixed seeds, randrepeat or not */
	uint64_t randseed;
	bool norandommap;
	bool softrandommap; /* no memory for the random map: run as norandommap */
	bool zero_buffers;
	bool refill_buffers;
	bool scramble_buffers; /* fio's default: each write's 512-byte blocks made unique */
	unsigned buffer_compress_chunk; /* bytes of random-then-zero in compressible buffers */
	unsigned buffer_compress_percentage;
	struct verify_pattern buffer_pattern; /* len 0: none; never a %o */
	unsigned dedupe_percentage;	      /* % of writes that repeat a buffer */
	enum dedupe_mode dedupe_mode;
	unsigned dedupe_working_set_percentage; /* % of size: the pages repeated */
	bool dedupe_global;			/* working sets shared by the run's clones */

	enum verify_kind verify;
	bool do_verify;
	bool verify_fatal;
	unsigned verify_backlog; /* writes between read-backs; 0: all at the end */
	struct verify_pattern verify_pattern;
	unsigned verify_interval; /* bytes each header covers; 0: the block (job.c sets it) */
	unsigned verify_offset;	  /* bytes into each chunk where its header goes */
	bool verify_dump;	  /* a chunk that fails: what was read and expected, to files */
	bool verify_only;	  /* the writes not issued: only the read-back of them */
	unsigned verify_backlog_batch;	   /* blocks read back per verify_backlog pass; 0: all */
	unsigned verify_async;		   /* threads that check the blocks read back; 0: none */
	struct cpu_list verify_async_cpus; /* ... and the CPUs they may run on */
	bool verify_state_save;		   /* the writes issued, saved for verify_state_load */
	bool verify_state_load;		   /* verify_only: only as many writes as saved */
	bool experimental_verify;	   /* read back in the order written, not by offset */
	unsigned trim_percentage;	   /* % of the blocks written that are trimmed after */
	uint64_t trim_backlog;		   /* writes between trim passes; 0: none */
	unsigned trim_backlog_batch;	   /* trims per pass; 0: trim_backlog */
	bool trim_verify_zero;		   /* a block trimmed so must read back as zeros */
	bool invalidate;
	bool pre_read;
	bool unlink;
	bool create_on_open;
	bool allow_file_create; /* 0: a file that does not exist is an error */
	bool create_fsync;	/* fsync a file after laying it out */
	bool create_only;	/* lay out, then no I/O */
	bool create_serialize;	/* 0: laid out as the job's stonewall batch starts */
	bool file_append;	/* the region starts at the file's end */
	bool overwrite;		/* a short file: truncated, laid out whole */
	bool unique_filename;	/* fio's client-name prefix: no clients here */
	bool unlink_each_loop;	/* files removed before each loop after the first */
	char *opendir;		/* files below it are the job's files */
	enum lockfile_mode lockfile;
	bool fill_device; /* write until ENOSPC or EDQUOT: the end, not an error */
	/* write_hint: set on each file's inode (F_SET_RW_HINT) */
	enum write_hint write_hint;
	unsigned write_barrier; /* fio's: read, and unused by these engines (as fio's) */
	enum fallocate_mode fallocate;
	unsigned kb_base;

	double percentile_list[JOB_MAX_PERCENTILES];
	unsigned nr_percentiles;
	bool clat_percentiles;
	bool lat_percentiles;
	/* fio's gtod_reduce and its parts: which latencies are measured (and
	 * so which clock reads the loop takes); disable_bw drops the per-I/O
	 * bandwidth log entries, as fio's. */
	bool gtod_reduce;
	bool disable_lat, disable_clat, disable_slat, disable_bw;
	enum clocksource clocksource; /* one for the whole run (checked) */
	char *write_bw_log;	      /* NULL: off; "": named after the job */
	char *write_iops_log;
	char *write_lat_log;
	char *write_hist_log;
	char *write_iolog;	    /* NULL: off; each I/O issued appended to it, as fio's */
	char *read_iolog;	    /* NULL: off; the I/Os come from this log */
	char *replay_redirect;	    /* NULL: the logged files */
	uint64_t replay_align;	    /* bytes; 0: as logged */
	uint64_t replay_scale;	    /* offsets divided by it */
	unsigned replay_time_scale; /* % of the log's pace */
	bool replay_no_stall;
	unsigned replay_skip; /* blktrace replay: bit 0 read, 1 write, 2 trim, 3 sync skipped */
	/* read_iolog's blktrace traces merged into this one file first (NULL:
	 * not merged); each trace's times in % and its runs (nr 0: all 100, 1). */
	char *merge_blktrace_file;
	struct job_merge_list {
		unsigned v[JOB_MAX_MERGE];
		unsigned nr;
	} merge_blktrace_scalars, merge_blktrace_iters;
	unsigned bwavgtime;	      /* ms: a bandwidth sample's window */
	unsigned iopsavgtime;	      /* ms: an IOPS sample's window */
	unsigned log_avg_msec;	      /* ms; 0: every I/O */
	unsigned log_hist_msec;	      /* ms; 0: no histogram log lines */
	unsigned log_hist_coarseness; /* histogram log bins merged 2^N at a time */
	bool log_offset;	      /* an offset column in per-I/O logs */
	bool log_prio; /* the last column: the I/O's ioprio value, not whether it is realtime */
	uint64_t cpus_allowed[JOB_MAX_CPUS / 64];
	bool cpus_allowed_set;
	uint64_t cpumask; /* fio's cpumask: CPUs 0-31 as bits; job.c makes it cpus_allowed */
	enum cpus_policy cpus_allowed_policy;
	int nice;		/* CPU nice value, -20..19 */
	unsigned prio;		/* I/O priority level 0..7 (with prioclass: ioprio_set) */
	unsigned prioclass;	/* I/O priority class 0..3; 0: best-effort when prio is set */
	bool ioprio_set;	/* prio or prioclass given: each clone calls ioprio_set */
	char *cgroup;		/* NULL: none; the clones' cgroup, under the blkio mount */
	unsigned cgroup_weight; /* its blkio.weight; 0: not set */
	bool cgroup_nodelete;	/* keep a cgroup the run made */
	unsigned uid, gid;	/* taken by each clone before its buffers are made */
	bool uid_set, gid_set;	/* uid=, gid= given (job.c) */
	char *numa_cpu_nodes;	/* NULL: not set; a libnuma node list */
	char *numa_mem_policy;	/* NULL: not set; MODE[:NODES], checked */
	enum continue_on_error continue_on_error;
	struct ignore_errors ignore_error;
	/* Bits 1 << enum error_type: the types errors are passed over for,
	 * from continue_on_error and ignore_error (job.c sets it). */
	unsigned continue_types;
	bool error_dump; /* every error passed over listed, not only the first */

	/* Every engine's own options, one block (engine_opts_of() finds an
	 * engine's struct in it); owned. */
	void *eng_opts;

	/* Where each option's value came from (job_origin): origin_slot[i] is
	 * 0 while option i (an opt_table index) has its default, else 1 + its
	 * place in origin_at.  Only the options a job sets take room. */
	uint16_t *origin_slot;
	struct origin *origin_at;
	unsigned nr_origins;
};

struct origin;

/* The error type of errno @err from an I/O that read (@read) or not:
 * EILSEQ is verify's, as fio's. */
enum error_type job_error_type(bool read, int err);
/* Whether error @err of type @t is passed over: continue_on_error (or
 * ignore_error) covers the type, and @err is in the type's list. */
bool job_error_passes(const struct job *job, enum error_type t, int err);
/* Whether ignore_error names @err for type @t itself (not by default). */
bool job_error_listed(const struct job *job, enum error_type t, int err);
/* Where option @i (an opt_table index) of @job got its value. */
const struct origin *job_origin(const struct job *job, unsigned i);
/* Notes that option @i got its value from *@from (copied, so it may be
 * another of @job's origins), set through option @via or NULL. */
void job_set_origin(struct job *job, unsigned i, const struct origin *from, const char *via);
/* Sets *@cause to "ORIGIN: [job] message", ORIGIN being where option @name
 * of @job was set, and returns -EINVAL (bad input). */
int job_fail_at(const struct job *job, const char *name, char **cause, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Whether the job's rw pattern issues I/O in direction @d. */
static inline bool job_does(const struct job *job, enum ddir d)
{
	switch (job->rw) {
	case RW_READ:
	case RW_RANDREAD:
		return d == DDIR_READ;
	case RW_WRITE:
	case RW_RANDWRITE:
		return d == DDIR_WRITE;
	case RW_TRIM:
	case RW_RANDTRIM:
		return d == DDIR_TRIM;
	case RW_TRIMWRITE:
	case RW_RANDTRIMWRITE:
		return d != DDIR_READ;
	default:
		return d != DDIR_TRIM;
	}
}

/* Whether the job changes what is stored: writes or trims. */
static inline bool job_modifies(const struct job *job)
{
	return job_does(job, DDIR_WRITE) || job_does(job, DDIR_TRIM);
}

static inline bool job_is_random(enum rw_mode rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW || rw == RW_RANDTRIM ||
	       rw == RW_RANDTRIMWRITE;
}

/* The smallest and largest block sizes direction @d can use, from bs,
 * bsrange or bssplit (the last one set wins, as the run uses them). */
void job_bs_bounds(const struct job *job, enum ddir d, uint64_t *lo, uint64_t *hi);
/* The same over every direction the job does. */
void job_bs_span(const struct job *job, uint64_t *lo, uint64_t *hi);

struct jobset;
struct strbuf;

/* Fills @job with every option at its default, with default origins
 * (job_free_all releases it).  0, or -EINVAL with *cause set when a
 * default of the table does not parse (a bug). */
int job_defaults(struct job *job, char **cause);

/* The engine @job's ioengine names, or NULL when this build lacks it. */
const struct engine_ops *job_engine(const struct job *job);

/*
 * Builds every job of @js (defaults, then kb_base, then values in the
 * order they were read) and checks the rules that involve two options or
 * two jobs.  Returns 0 with *jobs and *nr set, or -EINVAL with *cause set to
 * "ORIGIN: message" lines naming the file:line or flag of each error: those
 * js->errors holds from reading, every bad value, and each job's first
 * conflict between options, in reading order (job_errors_text).
 */
int job_build_all(const struct jobset *js, struct job **jobs, unsigned *nr, char **cause);
void job_free_all(struct job *jobs, unsigned nr);
/* Whether a run can start @jobs: every clone takes a thread, and a run
 * takes at most JOB_MAX_NUMJOBS (as fio's).  --parse-only reads more, as
 * fio's does.  0, or -EINVAL with *cause set at the job that passes it. */
int job_check_threads(const struct job *jobs, unsigned nr, char **cause);

/* Appends to @out a line for each job whose options work, but not as a
 * reader may think (buffered libaio, mmap with direct=1, iodepth on a sync
 * engine). */
void job_warnings(const struct job *jobs, unsigned nr, struct str_list *out);
/* Whether direction @d's cap is rate_iops: when rate is given too, rate
 * wins, as in fio (job_warnings says so). */
static inline bool job_rate_in_iops(const struct job *job, unsigned d)
{
	return !job->rate[d] && job->rate_iops[d];
}

struct opt_def;
/* Whether option @o of @job has its default value (or was never set). */
bool job_option_is_default(const struct job *job, const struct opt_def *o);

/* Appends @job as a job file: every option, its final value, and where the
 * value came from as a comment (--parse-only). */
void job_dump(const struct job *job, struct strbuf *sb);

#endif
