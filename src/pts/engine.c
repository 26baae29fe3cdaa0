/* SPDX-License-Identifier: MIT */
/*
 * Which --ioengine pts takes: one that reads and writes the device's
 * blocks.  The others parse as a job and then measure something else
 * (null moves nothing, filecreate opens the device a million times a
 * second, mmap the page cache) or are refused by the child only after
 * the purge has discarded the device.  Pure but for the engine table.
 */
#include <string.h>

#include "engines/engine.h"
#include "pts/pts.h"

static const char *const block_engines[] = { "libaio",	"io_uring", "psync",	"sync",	  "pvsync",
					     "pvsync2", "vsync",    "posixaio", "splice", "mmap" };

int pts_engine_check(const char *name, char **cause)
{
	const struct engine_ops *ops = engine_find(name);
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(block_engines); i++)
		if (!strcmp(name, block_engines[i]))
			break;
	if (i == ARRAY_SIZE(block_engines))
		return set_cause(
			cause,
			"--ioengine=%s: PTS reads and writes the device's blocks: libaio, "
			"io_uring, psync, sync, pvsync, pvsync2, vsync, posixaio or splice",
			name);
	if (!ops)
		return set_cause(cause, "--ioengine=%s: this build has no %s engine", name, name);
	/* PTS measures the device, not the page cache (cells run direct=1). */
	if (ops->flags & ENGINE_F_PAGECACHE)
		return set_cause(cause,
				 "--ioengine=%s: always goes through the page cache (direct=1 does "
				 "not bypass it): PTS measures the device",
				 name);
	return 0;
}
