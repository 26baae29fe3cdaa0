/* SPDX-License-Identifier: MIT */
/*
 * The engine table: every engine this build has, listed here rather than
 * registered by constructors (a static library drops those).
 */
#include <errno.h>
#include <string.h>

#include "iogauge/engine.h"
#include "iogauge/util.h"

static const struct engine_ops *const engine_table[] = {
	&psync_engine_ops,
};

const struct engine_ops *engine_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engine_table); i++)
		if (!strcmp(engine_table[i]->name, name))
			return engine_table[i];
	return NULL;
}

const struct engine_ops *engine_at(unsigned i)
{
	return i < ARRAY_SIZE(engine_table) ? engine_table[i] : NULL;
}

int engine_ops_check(const struct engine_ops *ops)
{
	if (!ops->name || !ops->desc || !ops->queue)
		return -EINVAL;
	if (!(ops->flags & ENGINE_F_SYNC) && (!ops->commit || !ops->reap))
		return -EINVAL;
	return 0;
}
