/* SPDX-License-Identifier: MIT */
/*
 * cmdprio, cmdprio_class, cmdprio_percentage, cmdprio_bssplit: a priority
 * on each I/O (fio's, for its io_uring and libaio engines), not on the
 * thread.  The options live in each engine's own option struct (struct
 * cmdprio_opts embedded there, rows from CMDPRIO_ROWS); the pick, per I/O,
 * is here: cmdprio_percentage of a direction's I/Os, or cmdprio_bssplit's
 * share of those of a block size, get the priority, the others keep the
 * job's (prio, prioclass).  The engine puts req->ioprio in the request.
 */
#ifndef IOGAUGE_CMDPRIO_H
#define IOGAUGE_CMDPRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/engine.h"
#include "jobfile/options.h"
#include "workload/rand.h"

#define CMDPRIO_MAX_SPLIT 32 /* cmdprio_bssplit entries per direction */

struct cmdprio_split_entry {
	uint64_t bs;  /* bytes */
	uint32_t pct; /* of the I/Os of this size */
	int32_t prio; /* ioprio value; -1: cmdprio_class and cmdprio's */
};

/* The options, in an engine's option struct; reads and writes only. */
struct cmdprio_opts {
	uint64_t percentage[DDIR_COUNT]; /* % of a direction's I/Os */
	uint64_t class[DDIR_COUNT];	 /* 1 realtime, 2 best-effort, 3 idle; 0: realtime */
	uint64_t level[DDIR_COUNT];	 /* 0..7 */
	/* cmdprio_bssplit, per direction, sorted by size, no 0% entry */
	struct cmdprio_split_entry split[2][CMDPRIO_MAX_SPLIT];
	unsigned nr_split[2];
	bool split_set;
};

extern const struct opt_kind opt_kind_cmdprio_bssplit;

/* clang-format off */
/* An engine's four rows, sorted, for its option struct TYPE whose
 * struct cmdprio_opts is FIELD; OPS its engine_ops, WHO its name. */
#define CMDPRIO_ROWS(OPS, TYPE, FIELD, WHO)                                                      \
	{ .name = "cmdprio", .kind = &opt_kind_u64_ddir, .engine = &(OPS),                       \
	  .off = offsetof(TYPE, FIELD.level), .max = 7, .def = "0",                              \
	  .help = WHO ": priority level of cmdprio_percentage's I/Os, 0..7, per direction" },    \
		{ .name = "cmdprio_bssplit", .kind = &opt_kind_cmdprio_bssplit, .engine = &(OPS), \
		  .off = offsetof(TYPE, FIELD.split),                                            \
		  .help = WHO ": bs/pct[/class/level]:...[,...]: which I/Os, by size, get "      \
			      "a priority" },                                                    \
		{ .name = "cmdprio_class", .kind = &opt_kind_u64_ddir, .engine = &(OPS),         \
		  .off = offsetof(TYPE, FIELD.class), .min = 1, .max = 3,                        \
		  .help = WHO ": priority class of cmdprio_percentage's I/Os: 1 realtime "       \
			      "(default), 2 best-effort, 3 idle" },                              \
		{ .name = "cmdprio_percentage", .kind = &opt_kind_u64_ddir, .engine = &(OPS),    \
		  .off = offsetof(TYPE, FIELD.percentage), .max = 100, .def = "0",               \
		  .help = WHO ": % of a direction's I/Os sent with cmdprio_class and cmdprio" }
/* clang-format on */

/* What the engine refuses (@blame: its cmdprio_bssplit row): both
 * cmdprio_percentage and cmdprio_bssplit, as fio.  0, or -EINVAL. */
int cmdprio_check(const struct cmdprio_opts *o, const struct opt_def *blame_row,
		  const struct opt_def **blame, char **cause);

/* The engine's per-run state: what to pick from, and its random numbers. */
struct cmdprio {
	const struct cmdprio_opts *o;
	bool on;
	uint32_t prio[2]; /* cmdprio_percentage's priority, per direction */
	struct rng rng;
};

void cmdprio_init(struct cmdprio *cp, const struct cmdprio_opts *o, const struct job *job);
/* The priorities @cp may give each direction's I/Os, into @e's cmdprios
 * (struct engine): for the worker's per-priority latency statistics. */
void cmdprio_list(const struct cmdprio *cp, const struct job *job, struct engine *e);

/* Sets req->ioprio when this read or write is one to get a priority, as
 * fio's: a number below 100 against the percentage (or the block size's
 * entries, in turn).  True when it did. */
bool cmdprio_pick(struct cmdprio *cp, struct io_req *req);

#endif
