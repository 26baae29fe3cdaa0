/* SPDX-License-Identifier: MIT */
/*
 * dirdelete: the directories are made first where missing (mkdir, 0700);
 * the first I/O of each pass over one removes it, rmdir(2), timed,
 * recorded as clat; each I/O counts its length (fileop.h).  Not in fio
 * 3.33: fio 3.37's engine of that name.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/fileop.h"

static int dirdelete_prepare(const char *path, const void *opts)
{
	(void)opts;
	return mkdir(path, 0700) < 0 && errno != EEXIST ? -errno : 0;
}

static int dirdelete_op(const char *path, const void *opts)
{
	(void)opts;
	return rmdir(path) < 0 ? -errno : 0;
}

static int dirdelete_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	static const struct fileop_kind k = { .op = dirdelete_op, .prepare = dirdelete_prepare };

	return fileop_init(e, s, &k, cause);
}

const struct engine_ops dirdelete_engine_ops = {
	.name = "dirdelete",
	.desc = "removes each directory, timing the rmdir",
	.help = "No data moves: each file name is made a directory if it is not one\n"
		"(mkdir, 0700), then the first I/O of each pass over it removes it, rmdir(2),\n"
		"and its time is that I/O's clat; every I/O counts as one of its length, with\n"
		"no latency of its own (fio 3.37's dirdelete; fio 3.33 has none).",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILES | ENGINE_F_MODIFIES | ENGINE_F_BLOCKFILE,
	.check = fileop_check,
	.init = dirdelete_init,
	.queue = fileop_queue,
	.cleanup = fileop_cleanup,
};
