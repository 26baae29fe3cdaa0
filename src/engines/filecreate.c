/* SPDX-License-Identifier: MIT */
/*
 * filecreate: the first I/O of each pass over a file creates it, as fio's
 * filecreate engine: open(O_CREAT | O_RDWR, 0600), timed, recorded as
 * clat; the file stays empty, and each I/O counts its length (fileop.h).
 * Nothing is laid out beforehand; an existing file is opened, not
 * truncated.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "engines/fileop.h"

static int filecreate_op(const char *path, const void *opts)
{
	int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);

	(void)opts;
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int filecreate_remove(const char *path, const void *opts)
{
	(void)opts;
	return unlink(path) < 0 ? -errno : 0;
}

static int filecreate_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	static const struct fileop_kind k = { .op = filecreate_op, .remove = filecreate_remove };

	return fileop_init(e, s, &k, cause);
}

const struct engine_ops filecreate_engine_ops = {
	.name = "filecreate",
	.desc = "creates each file, timing the open(O_CREAT)",
	.help = "No data moves: the first I/O of each pass over a file creates it with\n"
		"open(O_CREAT | O_RDWR, 0600) and its time is that I/O's clat; every I/O counts\n"
		"as one of its length, with no latency of its own (fio's filecreate).  The\n"
		"files are not laid out and stay empty; iodepth is 1.",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILES | ENGINE_F_MODIFIES | ENGINE_F_BLOCKFILE,
	.check = fileop_check,
	.init = filecreate_init,
	.queue = fileop_queue,
	.cleanup = fileop_cleanup,
};
