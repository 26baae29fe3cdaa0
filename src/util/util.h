/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by every module: allocation that aborts on
 * out-of-memory, formatted strings, a growable string buffer, and whole
 * reads and writes of a descriptor.  Nothing else here does I/O but
 * xabort's one message on stderr.
 */
#ifndef IOGAUGE_UTIL_H
#define IOGAUGE_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Says so on stderr and aborts: what the x-allocators do on no memory. */
void xalloc_failed(size_t size) __attribute__((noreturn));
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a fresh allocation; never NULL. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* A growable NUL-terminated string. */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

void strbuf_add(struct strbuf *sb, const char *s, size_t n);
void strbuf_addc(struct strbuf *sb, char c);
/* Appends string @s (cheaper than strbuf_addf "%s"). */
void strbuf_adds(struct strbuf *sb, const char *s);
/* Appends @v in decimal (cheaper than strbuf_addf "%llu"). */
void strbuf_addu(struct strbuf *sb, unsigned long long v);
/* Appends @c until the string is @width long (nothing when it is). */
void strbuf_pad(struct strbuf *sb, size_t width, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the string to the caller (never NULL) and empties @sb. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);

/* A list of owned strings. */
struct str_list {
	char **v;
	unsigned n;
};

/* Appends @s, which the list now owns. */
void str_list_push(struct str_list *l, char *s);
/* Frees every string and the array; the list is empty after. */
void str_list_clear(struct str_list *l);
/* Makes @to a copy of @from, with strings of its own. */
void str_list_copy(struct str_list *to, const struct str_list *from);

/* All @len bytes written to @fd, or read from it, across short transfers
 * and EINTR: 0, or -errno (-EIO at the end of the file). */
int util_write_all(int fd, const void *p, size_t len);
int util_read_all(int fd, void *p, size_t len);

/*
 * An error's class is stated where it is made, by the setter used:
 * set_cause() for bad input (-EINVAL: main.c exits 2, nothing was started)
 * and set_cause_errno() for a failure of the system (-@err: exits 1).  A
 * system call's own EINVAL stays bad input: the kernel refused what the
 * job asked of it (O_DIRECT on tmpfs, an io_uring flag).
 */
/* Sets *cause to a formatted message and returns -EINVAL. */
int set_cause(char **cause, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sets *cause to a formatted message and returns -@err (an errno, > 0). */
int set_cause_errno(char **cause, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "--NAME=VALUE" as @arg: VALUE when @arg is @name (with its dashes)
 * followed by '=', else NULL.  The subcommands' flag parsers. */
const char *util_flag_value(const char *arg, const char *name);
/* @src into @dst of @cap (> 0) bytes, cut to fit, always terminated. */
void util_copy_cut(char *dst, size_t cap, const char *src);

/* Levenshtein distance between two short ASCII strings (for "did you mean"). */
unsigned util_edit_distance(const char *a, const char *b);
/* Whether @dist edits from @name is close enough to be a typo worth a
 * "did you mean": at most 3, and at most about a third of the name. */
bool util_is_typo(const char *name, unsigned dist);

/* The closest of the names offered so far for a "did you mean". */
struct util_nearest {
	const char *best; /* NULL: none is a typo away */
	unsigned dist;
};
#define UTIL_NEAREST_INIT \
	{                 \
		NULL, ~0u \
	}
/* Offers @cand as what @name may have meant: kept when it is a typo away
 * and closer than every name offered before (the first wins a tie). */
void util_nearest_offer(struct util_nearest *n, const char *name, const char *cand);

#endif
