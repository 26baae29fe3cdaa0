/* SPDX-License-Identifier: MIT */
/*
 * --inflate-log: the text of a log fio stored compressed
 * (log_store_compressed=1: a .fz file of zlib streams, one per chunk,
 * back to back, of fio's binary samples), as fio's --inflate-log prints
 * it.  Nothing here prints.
 */
#ifndef IOGAUGE_INFLATE_H
#define IOGAUGE_INFLATE_H

#include "util/util.h"

/*
 * Appends the text of @path to @out.  0, or -errno with *cause naming the
 * file (-EINVAL: not zlib data, or cut short).
 */
int log_inflate(const char *path, struct strbuf *out, char **cause);

#endif
