/* SPDX-License-Identifier: MIT */
/*
 * iogauge crash: a writer that stamps every block and tells a witness
 * (its parent, over a pipe) each write it acknowledges; the parent kills
 * it with SIGKILL at a seeded random moment, and a fresh process reads
 * the file and classifies each acknowledged block: ok, lost, torn or in
 * the wrong place.  mode.c reads a job into a writer's settings, writer.c
 * is the writer, witness.c the acknowledgement log, check.c the checker,
 * round.c one kill, print.c the table and JSON, cli.c the command line.
 * Nothing here exits; only cli.c prints.
 */
#ifndef IOGAUGE_CRASH_H
#define IOGAUGE_CRASH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "jobfile/job.h"
#include "stats/hist.h"
#include "util/util.h"

/* A stamp's generation: the run's id above, the write's number in the
 * run (from 1, on across rounds) below; a block of another run is not
 * taken for a newer write of this one. */
#define CRASH_GEN_BITS 40
#define CRASH_GEN_MASK ((1ull << CRASH_GEN_BITS) - 1)
/* The checker keeps a generation per block (8 bytes): 2^32 blocks at most
 * (16 TiB of 4 KiB blocks, a 32 GiB table). */
#define CRASH_MAX_BLOCKS (1ull << 32)

/* What a mode promises of a write it acknowledged: nothing (a buffer in
 * the writer), that it survives the writer's kill (it reached the
 * kernel), or a power cut too (it waited for stable storage: O_SYNC,
 * O_DSYNC, fsync, fdatasync, fsync_window). */
enum crash_promise { CRASH_PROMISE_NONE, CRASH_PROMISE_KILL, CRASH_PROMISE_POWER };
/* "none", "kill", "power": the log's and the hello's words. */
extern const char *const crash_promise_names[];

/* What a writer does, read from one job by crash_mode_make(). */
struct crash_mode {
	const struct job *job;
	char *path;
	char *name;	     /* "fsync=8", "O_DSYNC", "ack_buffer=8k", ... */
	uint64_t bs, size;   /* bytes: the block, the region written (from 0) */
	bool random;	     /* randwrite: blocks in a seeded random order */
	int oflags;	     /* O_DSYNC, O_SYNC, O_DIRECT added to the open */
	unsigned sync_every; /* fsync or fdatasync every N writes; 0: none */
	bool datasync;	     /* ... fdatasync */
	uint64_t window;     /* ns: group commit by time; 0: off */
	uint64_t ack_buffer; /* bytes of user-space buffer; 0: none */
	uint64_t round;	     /* ns: the latest a kill comes (runtime=, 1 s by default) */
	unsigned rounds;
	uint64_t seed;
	enum verify_kind verify;
	enum crash_promise promise;
	/* witness=HOST:PORT/RUN: acknowledgements go to iogauge witness over
	 * TCP (and the stamps carry RUN); NULL: to the parent. */
	char *witness_host, *witness_port;
	uint64_t witness_run;
	const char *trigger; /* --trigger: run at each kill moment, before SIGKILL */
};

/* Reads @job (built by job_build_all) into @m.  0, or -EINVAL with
 * *cause naming the option (file:line or flag): an option the writer
 * does not act on, no filename=, no size=, a read, a window of 0, ... */
int crash_mode_make(const struct job *job, struct crash_mode *m, char **cause);
void crash_mode_free(struct crash_mode *m);
/* A plain run's refusal of crash's options (rounds=, seed=, ack_buffer=,
 * fsync_window=).  0, or -EINVAL with *cause set. */
int crash_opts_refuse(const struct job *job, char **cause);

/* The writer's figures, in memory it shares with the parent: the writer
 * dies with everything else.  Written by the writer alone, read once it
 * is dead. */
struct crash_figures {
	uint64_t t_start, t_end; /* ns (run_now): the first write, the last ack */
	uint64_t writes, acks;
	uint64_t write_ns, write_max_ns;
	uint64_t syncs, sync_ns, sync_max_ns;
	uint64_t ack_wait_ns, ack_wait_max_ns; /* from a write's start to its ack */
	int err;			       /* errno of a failed call; 0: none */
	char what[16];			       /* "pwrite", "fsync", "open", "pipe" */
	uint64_t err_off, err_len;
	char note[160]; /* the remote witness's refusal, as it gave it */
	bool witnessed; /* the remote witness said ok to the writer's hello */
};

/* Latency histograms: each sync call, each acknowledgement's wait (from
 * its write's start).  The writer's live in the memory it shares with the
 * parent; a job's add up its rounds'. */
struct crash_hists {
	struct hist sync, wait;
};

/* One acknowledgement, as the writer sends it (host order: same machine). */
struct crash_ack {
	uint64_t off;
	uint64_t gen; /* the write's number in the run, without the run id */
};

/* The writer, in the child: writes from generation @gen0 + 1 on, sends an
 * ack to @ack_fd for each write the mode calls done, until it is killed
 * or fails (then @fig says what failed).  Returns only on failure. */
int crash_writer(const struct crash_mode *m, uint64_t run_id, uint64_t gen0, int ack_fd,
		 struct crash_figures *fig, struct crash_hists *hists);

/* The acknowledgement log the witness keeps: a text header naming the
 * file, its block size, verify kind, mode and run, then "round N", an
 * "a OFFSET GEN" line per acknowledgement and "end N COUNT". */
struct crash_log {
	int fd;
	char *path;
	struct strbuf pend; /* lines not written yet */
};

struct wire_hello;

/* The hello a writer of @m gives a witness (its log's header). */
void crash_mode_hello(const struct crash_mode *m, uint64_t run_id, struct wire_hello *h);
/* Creates @path (truncated) and writes the header of @h; @remote: a remote
 * witness's log ("witness remote": what it tests is a power cut).  0 or
 * -errno, *cause set. */
int crash_log_open(struct crash_log *log, const char *path, const struct wire_hello *h, bool remote,
		   char **cause);
/* Room a remote witness leaves above the highest generation it knows of
 * for writes made but never acknowledged (a batch, a window: at most
 * 65536 writes). */
#define CRASH_LOG_GEN_MARGIN (1ull << 24)
/* Goes on with the log at @path when it is one of run @run: its header
 * into @h, its last round into *rounds, into *next a generation past
 * every one its writers may have stamped, and @log open to append (a
 * last line cut short is cut off).  1 then; 0 when @path is missing or
 * not a log of @run (*rounds and *next untouched); -errno with *cause
 * set when it cannot be read. */
int crash_log_resume(struct crash_log *log, const char *path, uint64_t run, struct wire_hello *h,
		     uint64_t *next, unsigned *rounds, char **cause);
int crash_log_round(struct crash_log *log, unsigned round, char **cause);
void crash_log_ack(struct crash_log *log, const struct crash_ack *a);
/* Pending log text is written out past this many bytes. */
#define CRASH_LOG_FLUSH_AT (256u << 10)

/* Writes what is pending; @end: the round's end line too, and an fdatasync. */
int crash_log_flush(struct crash_log *log, bool end, unsigned round, uint64_t acks, char **cause);
/* Writes what is pending and syncs it: 0 or -errno, *cause set. */
int crash_log_sync(struct crash_log *log, char **cause);
void crash_log_close(struct crash_log *log);

/* What the checker found. */
enum crash_fault { CRASH_OK, CRASH_LOST, CRASH_TORN, CRASH_WRONG_PLACE };
extern const char *const crash_fault_names[];

#define CRASH_FAULTS_MAX 32

struct crash_bad {
	uint64_t off;
	enum crash_fault kind;
	uint64_t acked;	  /* the newest generation acknowledged for it */
	uint64_t found;	  /* the stamp's generation (lost), its offset (wrong place) */
	char detail[120]; /* torn: verify's description */
};

struct crash_result {
	uint64_t acked;	   /* acknowledgements read */
	uint64_t blocks;   /* distinct blocks acknowledged */
	uint64_t count[4]; /* enum crash_fault: blocks of each */
	unsigned nr_bad;   /* in bad[]: the first CRASH_FAULTS_MAX by offset */
	struct crash_bad bad[CRASH_FAULTS_MAX];
	enum crash_promise promise; /* the log's mode's */
	bool power_cut;		    /* a remote witness's log: the test is a power cut */
	bool log_cut;		    /* the log's last line was cut short (not read) */
	unsigned unended;	    /* rounds without their end line: the witness stopped */
	char file[4096];	    /* the file the log names */
	char mode[64];
};

/* Whether the checker can check a region of @size bytes in blocks of @bs
 * stamped with @verify (a log's header, a remote writer's hello). */
bool crash_region_checkable(uint64_t bs, uint64_t size, const char *verify);

/* The checker: reads the log at @log_path (acks of round @round, or of
 * every round when 0) and the file it names (@file: another path for it,
 * or NULL), read only, and fills @res.  0; -EINVAL with *cause for bad
 * input (no log, a log that is not one, no file, a file that holds no
 * stamp of iogauge crash); -errno for a read that failed. */
int crash_check(const char *log_path, unsigned round, const char *file, struct crash_result *res,
		char **cause);

/* One round: the writer forked and killed, its acks logged, the file
 * checked by a fresh process. */
struct crash_round {
	unsigned round;
	uint64_t kill_at;      /* ns from the fork: the moment drawn from seed= */
	uint64_t killed_after; /* ns from the fork to SIGKILL */
	int trigger_status;    /* --trigger's wait status; -1: it did not start */
	struct crash_figures fig;
	struct crash_result res;
};

/* Runs round @r of @m, its acks into @log, its latencies added to @acc.
 * @stop: a signal came (the writer is killed at once).  0, or -errno with
 * *cause set (a writer that failed: file, offset, size and errno text). */
int crash_round_run(const struct crash_mode *m, unsigned r, uint64_t run_id, uint64_t *gen,
		    struct crash_log *log, const char *log_path, const atomic_int *stop,
		    struct crash_round *out, struct crash_hists *acc, char **cause);

/* A job's rounds, for the report. */
struct crash_job_report {
	const struct crash_mode *mode;
	struct crash_round *rounds;
	unsigned nr;
	bool failed;		  /* the run stopped at round nr + 1 (an error, told apart) */
	struct crash_hists hists; /* every round's */
};

void crash_print_text(const struct crash_job_report *r, unsigned nr, struct strbuf *out);
void crash_print_json(const struct crash_job_report *r, unsigned nr, struct strbuf *out);
/* --check's result alone. */
void crash_print_check_text(const struct crash_result *res, struct strbuf *out);
void crash_print_check_json(const struct crash_result *res, struct strbuf *out);
/* Whether a report breaks a promise: a lost, torn or misplaced block in a
 * mode that promised durability against what was tested (the writer's
 * kill; a power cut, for a remote witness's log). */
bool crash_result_broken(const struct crash_result *res);

/* iogauge crash ARGS (argv[0] is "crash"): the exit status. */
int crash_main(int argc, char **argv);
/* iogauge witness ARGS (argv[0] is "witness"): the remote witness (serve.c);
 * the exit status, 0 after SIGINT or SIGTERM, 1, or 2 for bad flags. */
int witness_main(int argc, char **argv);

#endif
