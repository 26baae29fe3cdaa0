/* SPDX-License-Identifier: MIT */
/* The JSON writer: fio's layout, escaped strings, finite numbers only. */
#include <inttypes.h>
#include <math.h>

#include "report/json.h"

void json_init(struct json *j, struct strbuf *sb)
{
	j->sb = sb;
	j->depth = 0;
	j->first[0] = true;
}

static void escaped(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	strbuf_addc(sb, '"');
	for (; *p; p++) {
		if (*p == '"' || *p == '\\') {
			strbuf_addc(sb, '\\');
			strbuf_addc(sb, (char)*p);
		} else if (*p == '\n') {
			strbuf_add(sb, "\\n", 2);
		} else if (*p == '\t') {
			strbuf_add(sb, "\\t", 2);
		} else if (*p < 0x20 || *p == 0x7f) {
			strbuf_addf(sb, "\\u%04x", *p);
		} else {
			strbuf_addc(sb, (char)*p);
		}
	}
	strbuf_addc(sb, '"');
}

/* The comma, the new line and the indent before a member, and its key. */
static void member(struct json *j, const char *key)
{
	unsigned i;

	if (j->depth) {
		strbuf_add(j->sb, j->first[j->depth] ? "\n" : ",\n", j->first[j->depth] ? 1 : 2);
		for (i = 0; i < j->depth; i++)
			strbuf_add(j->sb, "  ", 2);
	}
	j->first[j->depth] = false;
	if (key) {
		escaped(j->sb, key);
		strbuf_add(j->sb, " : ", 3);
	}
}

void json_open(struct json *j, const char *key, char brace)
{
	member(j, key);
	strbuf_addc(j->sb, brace);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

void json_close(struct json *j, char brace)
{
	bool empty = j->first[j->depth];
	unsigned i;

	if (j->depth)
		j->depth--;
	if (!empty) {
		strbuf_addc(j->sb, '\n');
		for (i = 0; i < j->depth; i++)
			strbuf_add(j->sb, "  ", 2);
	}
	strbuf_addc(j->sb, brace);
	if (!j->depth)
		strbuf_addc(j->sb, '\n');
}

void json_str(struct json *j, const char *key, const char *v)
{
	member(j, key);
	escaped(j->sb, v ? v : "");
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	strbuf_addf(j->sb, "%" PRIu64, v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	member(j, key);
	strbuf_addf(j->sb, "%" PRId64, v);
}

void json_dbl(struct json *j, const char *key, double v)
{
	member(j, key);
	strbuf_addf(j->sb, "%f", isfinite(v) ? v : 0.0);
}
