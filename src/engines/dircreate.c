/* SPDX-License-Identifier: MIT */
/*
 * dircreate: the first I/O of each pass over a "file" makes it a directory,
 * mkdir(2) (mode 0700), timed, recorded as clat; each I/O counts its
 * length (fileop.h).  Not in fio 3.33: fio 3.37's engine of that name.
 */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/fileop.h"

static int dircreate_op(const char *path, const void *opts)
{
	(void)opts;
	return mkdir(path, 0700) < 0 ? -errno : 0;
}

static int dircreate_remove(const char *path, const void *opts)
{
	(void)opts;
	return rmdir(path) < 0 ? -errno : 0;
}

static int dircreate_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	static const struct fileop_kind k = { .op = dircreate_op, .remove = dircreate_remove };

	return fileop_init(e, s, &k, cause);
}

const struct engine_ops dircreate_engine_ops = {
	.name = "dircreate",
	.desc = "makes each directory, timing the mkdir",
	.help = "No data moves: the first I/O of each pass over a file name makes a directory\n"
		"of it, mkdir(2) with mode 0700, and its time is that I/O's clat; every I/O\n"
		"counts as one of its length, with no latency of its own (fio 3.37's dircreate;\n"
		"fio 3.33 has none).  unlink=1 removes the directories at the end.",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILES | ENGINE_F_MODIFIES | ENGINE_F_BLOCKFILE,
	.check = fileop_check,
	.init = dircreate_init,
	.queue = fileop_queue,
	.cleanup = fileop_cleanup,
};
