/* SPDX-License-Identifier: MIT */
/* The remote witness's lines (see wire.h): a parser that takes any bytes. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "crash/wire.h"

/* A decimal (or, @hex, hexadecimal) number of 1 to 19 digits at *@p,
 * which moves past it.  0, or -EINVAL. */
static int number(const char **p, uint64_t *v, int hex)
{
	const char *s = *p;
	uint64_t x = 0;
	unsigned n = 0;

	for (;; s++, n++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (hex && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else
			break;
		if (n == (hex ? 16u : 19u))
			return -EINVAL;
		x = x * (hex ? 16 : 10) + d;
	}
	if (!n)
		return -EINVAL;
	*p = s;
	*v = x;
	return 0;
}

/* A word of [a-z0-9-] up to a space into @out of @cap bytes. */
static int word(const char **p, char *out, size_t cap)
{
	size_t n = 0;
	const char *s = *p;

	while ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-') {
		if (n + 1 >= cap)
			return -EINVAL;
		out[n++] = *s++;
	}
	if (!n)
		return -EINVAL;
	out[n] = '\0';
	*p = s;
	return 0;
}

/* Text up to a tab or the end: printable, no tab, into @out of @cap. */
static int field(const char **p, char *out, size_t cap, char end)
{
	size_t n = 0;
	const char *s = *p;

	while (*s && *s != end) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f || n + 1 >= cap)
			return -EINVAL;
		out[n++] = *s++;
	}
	if (!n || *s != end)
		return -EINVAL;
	out[n] = '\0';
	*p = s;
	return 0;
}

int wire_parse_hello(const char *line, struct wire_hello *h, const char **why)
{
	static const char magic[] = "iogauge-witness 1 ";
	const char *p = line;

	memset(h, 0, sizeof(*h));
	if (strncmp(p, magic, sizeof(magic) - 1)) {
		*why = "not iogauge crash's hello (version 1)";
		return -EINVAL;
	}
	p += sizeof(magic) - 1;
	if (number(&p, &h->run, 1) || *p++ != ' ' || number(&p, &h->bs, 0) || *p++ != ' ' ||
	    number(&p, &h->size, 0) || *p++ != ' ' || word(&p, h->verify, sizeof(h->verify)) ||
	    *p++ != ' ' || word(&p, h->promise, sizeof(h->promise)) || *p++ != '\t' ||
	    field(&p, h->mode, sizeof(h->mode), '\t') || *p++ != '\t' ||
	    field(&p, h->file, sizeof(h->file), '\0')) {
		*why = "a malformed hello";
		return -EINVAL;
	}
	if (!h->run || !h->bs || !h->size || h->size % h->bs ||
	    (strcmp(h->promise, "power") && strcmp(h->promise, "kill") &&
	     strcmp(h->promise, "none"))) {
		*why = "a hello with a bad run, bs, size or promise";
		return -EINVAL;
	}
	return 0;
}

size_t wire_format_hello(const struct wire_hello *h, char *buf, size_t cap)
{
	int n;

	if (strpbrk(h->mode, "\t\n") || strpbrk(h->file, "\t\n"))
		return 0;
	n = snprintf(buf, cap, "iogauge-witness 1 %llx %llu %llu %s %s\t%s\t%s\n",
		     (unsigned long long)h->run, (unsigned long long)h->bs,
		     (unsigned long long)h->size, h->verify, h->promise, h->mode, h->file);
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

enum wire_kind wire_parse_line(const char *line, uint64_t *a, uint64_t *b)
{
	const char *p;

	if ((line[0] != 'a' && line[0] != 's') || line[1] != ' ')
		return WIRE_BAD;
	p = line + 2;
	if (line[0] == 'a') {
		if (number(&p, a, 0) || *p++ != ' ' || number(&p, b, 0) || *p)
			return WIRE_BAD;
		return WIRE_ACK;
	}
	if (number(&p, a, 0) || *p)
		return WIRE_BAD;
	return WIRE_SYNC;
}

static size_t put_u64(char *p, uint64_t v)
{
	char t[20];
	size_t n = 0, i;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		p[i] = t[n - 1 - i];
	return n;
}

size_t wire_format_ack(char *p, uint64_t off, uint64_t gen)
{
	size_t n = 0;

	p[n++] = 'a';
	p[n++] = ' ';
	n += put_u64(p + n, off);
	p[n++] = ' ';
	n += put_u64(p + n, gen);
	p[n++] = '\n';
	return n;
}

size_t wire_format_count(char *p, char c, uint64_t v)
{
	size_t n = 0;

	p[n++] = c;
	p[n++] = ' ';
	n += put_u64(p + n, v);
	p[n++] = '\n';
	return n;
}
