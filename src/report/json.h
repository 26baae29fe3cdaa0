/* SPDX-License-Identifier: MIT */
/*
 * A JSON writer into a strbuf, laid out as fio lays out its JSON (two
 * spaces per level, "key" : value).  Strings are escaped; doubles that are
 * not finite are written as 0, so the document always parses.  It checks
 * nothing else: the caller closes what it opens.
 */
#ifndef IOGAUGE_JSON_H
#define IOGAUGE_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

#define JSON_MAX_DEPTH 16

struct json {
	struct strbuf *sb;
	unsigned depth;
	bool first[JSON_MAX_DEPTH]; /* no member written yet at this level */
};

void json_init(struct json *j, struct strbuf *sb);
/* @key is NULL inside an array and at the top. */
void json_open(struct json *j, const char *key, char brace);
void json_close(struct json *j, char brace);
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_dbl(struct json *j, const char *key, double v); /* %f, as fio */

#endif
