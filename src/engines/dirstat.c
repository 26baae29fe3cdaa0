/* SPDX-License-Identifier: MIT */
/*
 * dirstat: the directories are made first where missing (mkdir, 0700); the
 * first I/O of each pass over one looks it up, stat(2), timed, recorded as
 * clat; each I/O counts its length (fileop.h).  Not in fio 3.33: fio
 * 3.37's engine of that name.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/fileop.h"

static int dirstat_prepare(const char *path, const void *opts)
{
	(void)opts;
	return mkdir(path, 0700) < 0 && errno != EEXIST ? -errno : 0;
}

static int dirstat_op(const char *path, const void *opts)
{
	struct stat st;

	(void)opts;
	return stat(path, &st) < 0 ? -errno : 0;
}

static int dirstat_remove(const char *path, const void *opts)
{
	(void)opts;
	return rmdir(path) < 0 ? -errno : 0;
}

static int dirstat_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	static const struct fileop_kind k = { .op = dirstat_op,
					      .prepare = dirstat_prepare,
					      .remove = dirstat_remove };

	return fileop_init(e, s, &k, cause);
}

const struct engine_ops dirstat_engine_ops = {
	.name = "dirstat",
	.desc = "looks each directory up, timing the stat",
	.help = "No data moves: each file name is made a directory if it is not one\n"
		"(mkdir, 0700), then the first I/O of each pass over it is stat(2) of it and\n"
		"its time is that I/O's clat; every I/O counts as one of its length, with no\n"
		"latency of its own (fio 3.37's dirstat; fio 3.33 has none).  unlink=1 removes\n"
		"the directories at the end.",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILES | ENGINE_F_MODIFIES,
	.check = fileop_check,
	.init = dirstat_init,
	.queue = fileop_queue,
	.cleanup = fileop_cleanup,
};
