/* SPDX-License-Identifier: MIT */
/*
 * filestat: the first I/O of each pass over a file looks it up, as fio's
 * filestat engine: stat(2), lstat(2) or statx(2) as stat_type says,
 * timed, recorded as clat; each I/O counts its length (fileop.h).  The
 * files are laid out first as for any job.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>

#include "engines/fileop.h"
#include "jobfile/options.h"

extern const struct engine_ops filestat_engine_ops;

enum stat_type { STAT_TYPE_STAT, STAT_TYPE_LSTAT, STAT_TYPE_STATX };

struct filestat_opts {
	int stat_type; /* enum stat_type */
};

static const struct opt_enum stat_type_enums[] = {
	{ "stat", STAT_TYPE_STAT },
	{ "lstat", STAT_TYPE_LSTAT },
	{ "statx", STAT_TYPE_STATX },
	{ NULL, 0 },
};

/* clang-format off */
static const struct opt_def filestat_options[] = {
	{ .name = "stat_type", .kind = &opt_kind_enum, .engine = &filestat_engine_ops,
	  .off = offsetof(struct filestat_opts, stat_type), .enums = stat_type_enums, .def = "stat",
	  .help = "filestat: the call that looks each file up: stat, lstat or statx" },
	{ .name = NULL }, /* the end */
};
/* clang-format on */

static int filestat_op(const char *path, const void *o)
{
	const struct filestat_opts *opts = o;
	struct statx stx;
	struct stat st;
	int r;

	if (opts->stat_type == STAT_TYPE_STATX)
		r = statx(AT_FDCWD, path, 0, STATX_ALL, &stx);
	else if (opts->stat_type == STAT_TYPE_LSTAT)
		r = lstat(path, &st);
	else
		r = stat(path, &st);
	return r < 0 ? -errno : 0;
}

static int filestat_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	static const struct fileop_kind k = { .op = filestat_op };

	return fileop_init(e, s, &k, cause);
}

const struct engine_ops filestat_engine_ops = {
	.name = "filestat",
	.desc = "looks each file up, timing stat, lstat or statx",
	.help = "No data moves: the files are laid out, then the first I/O of each pass over\n"
		"a file is stat(2), lstat(2) or statx(2) of it (stat_type) and its time is that\n"
		"I/O's clat; every I/O counts as one of its length, with no latency of its own\n"
		"(fio's filestat).  iodepth is 1.",
	.flags = ENGINE_F_SYNC,
	.options = filestat_options,
	.opts_size = sizeof(struct filestat_opts),
	.check = fileop_check,
	.init = filestat_init,
	.queue = fileop_queue,
	.cleanup = fileop_cleanup,
};
