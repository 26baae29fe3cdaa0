/* SPDX-License-Identifier: MIT */
/*
 * filedelete: the first I/O of each pass over a file unlinks it, as fio's
 * filedelete engine: unlink(2), timed, recorded as clat; each I/O counts
 * its length (fileop.h).  The files are laid out first as for any job.
 */
#include <errno.h>
#include <unistd.h>

#include "engines/fileop.h"

static int filedelete_op(const char *path, const void *opts)
{
	(void)opts;
	return unlink(path) < 0 ? -errno : 0;
}

static int filedelete_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	static const struct fileop_kind k = { .op = filedelete_op };

	return fileop_init(e, s, &k, cause);
}

const struct engine_ops filedelete_engine_ops = {
	.name = "filedelete",
	.desc = "deletes each file, timing the unlink",
	.help = "No data moves: the files are laid out, then the first I/O of each pass over\n"
		"a file unlinks it and its time is that I/O's clat; every I/O counts as one of\n"
		"its length, with no latency of its own (fio's filedelete).  iodepth is 1.",
	.flags = ENGINE_F_SYNC | ENGINE_F_MODIFIES,
	.check = fileop_check,
	.init = filedelete_init,
	.queue = fileop_queue,
	.cleanup = fileop_cleanup,
};
