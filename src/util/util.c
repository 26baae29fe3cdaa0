/* SPDX-License-Identifier: MIT */
/*
 * Allocation wrappers that abort on out-of-memory (so that real error paths
 * stay for I/O and input), string formatting, a string buffer, and the edit
 * distance used for "did you mean" suggestions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

void xalloc_failed(size_t size)
{
	fprintf(stderr, "iogauge: out of memory allocating %zu bytes\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		xalloc_failed(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		xalloc_failed(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		xalloc_failed(size);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *p;

	if (vasprintf(&p, fmt, ap) < 0)
		xalloc_failed(strlen(fmt));
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

static void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->cap)
		return;
	sb->cap = sb->cap ? sb->cap : 64;
	while (sb->cap < need)
		sb->cap *= 2;
	sb->buf = xrealloc(sb->buf, sb->cap);
}

void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addc(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addu(struct strbuf *sb, unsigned long long v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	strbuf_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

void strbuf_pad(struct strbuf *sb, size_t width, char c)
{
	if (sb->len >= width)
		return;
	strbuf_grow(sb, width - sb->len);
	memset(sb->buf + sb->len, c, width - sb->len);
	sb->len = width;
	sb->buf[sb->len] = '\0';
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	/* Straight into the buffer: a second try only when it was too small. */
	strbuf_grow(sb, 64);
	room = sb->cap - sb->len;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		xalloc_failed(strlen(fmt));
	if ((size_t)n >= room) {
		strbuf_grow(sb, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

char *strbuf_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return p;
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

/* The array holds the next power of two of n: it doubles when n reaches
 * one, so n pushes copy O(n) pointers in all. */
void str_list_push(struct str_list *l, char *s)
{
	if (!(l->n & (l->n - 1)))
		l->v = xrealloc(l->v, sizeof(*l->v) * (l->n ? 2 * (size_t)l->n : 1));
	l->v[l->n++] = s;
}

void str_list_copy(struct str_list *to, const struct str_list *from)
{
	unsigned i;

	memset(to, 0, sizeof(*to));
	for (i = 0; i < from->n; i++)
		str_list_push(to, xstrdup(from->v[i]));
}

void str_list_clear(struct str_list *l)
{
	while (l->n)
		free(l->v[--l->n]);
	free(l->v);
	l->v = NULL;
}

int set_cause(char **cause, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*cause = xvasprintf(fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int set_cause_errno(char **cause, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*cause = xvasprintf(fmt, ap);
	va_end(ap);
	return -err;
}

unsigned util_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[64], i, j;

	if (la >= ARRAY_SIZE(row) || lb >= ARRAY_SIZE(row))
		return (unsigned)(la > lb ? la : lb);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned diag = row[0], tmp;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned best = diag + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			diag = tmp;
		}
	}
	return row[lb];
}

bool util_is_typo(const char *name, unsigned dist)
{
	return dist <= 3 && dist * 3 <= strlen(name) + 2;
}

void util_nearest_offer(struct util_nearest *n, const char *name, const char *cand)
{
	unsigned d = util_edit_distance(name, cand);

	if (d < n->dist && util_is_typo(name, d)) {
		n->dist = d;
		n->best = cand;
	}
}

static int xfer(int fd, char *c, size_t len, bool out)
{
	ssize_t n;

	while (len) {
		n = out ? write(fd, c, len) : read(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

int util_write_all(int fd, const void *p, size_t len)
{
	return xfer(fd, (char *)p, len, true);
}

int util_read_all(int fd, void *p, size_t len)
{
	return xfer(fd, p, len, false);
}

const char *util_flag_value(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arg, name, n) && arg[n] == '=' ? arg + n + 1 : NULL;
}

void util_copy_cut(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}
