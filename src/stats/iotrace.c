/* SPDX-License-Identifier: MIT */
/*
 * write_iolog's record and file (see iotrace.h).  The text is made after
 * the run, a buffer at a time; nothing here runs per I/O but
 * iotrace_add() and, once per IOTRACE_CHUNK I/Os, iotrace_grow().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "stats/iotrace.h"
#include "util/util.h"

/* fio's names of the directions, as its iolog writes them (io_ddir_name). */
static const char *const op_names[] = { "read", "write", "sync", "datasync", "trim" };

int iotrace_open(struct iotrace *tr, const char *path, char **cause)
{
	memset(tr, 0, sizeof(*tr));
	tr->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (tr->fd < 0) {
		int err = errno;

		return set_cause_errno(cause, err, "write_iolog %s: cannot open it: %s", path,
				       strerror(err));
	}
	tr->on = true;
	return 0;
}

void iotrace_grow(struct iotrace *tr)
{
	struct iotrace_chunk *c = xmalloc(sizeof(*c));

	c->next = NULL;
	c->n = 0;
	if (tr->tail)
		tr->tail->next = c;
	else
		tr->head = c;
	tr->tail = c;
}

/* Flushes @sb to the log when it holds more than @keep bytes. */
static int flush(int fd, struct strbuf *sb, size_t keep)
{
	int ret = 0;

	if (sb->len > keep) {
		ret = util_write_all(fd, sb->buf, sb->len);
		sb->len = 0;
		if (sb->buf)
			sb->buf[0] = '\0';
	}
	return ret;
}

int iotrace_write(struct iotrace *tr, const char *path, const char *const *paths, unsigned nr,
		  uint64_t t0, uint64_t t_end, char **cause)
{
	const struct iotrace_chunk *c;
	struct strbuf sb = { 0 };
	unsigned i;
	int ret;

	if (!tr->on)
		return 0;
	while (flock(tr->fd, LOCK_EX) < 0) {
		int err = errno;

		if (err != EINTR)
			return set_cause_errno(cause, err, "write_iolog %s: cannot lock it: %s",
					       path, strerror(err));
	}
	strbuf_addf(&sb, "fio version 3 iolog\n");
	for (i = 0; i < nr; i++)
		strbuf_addf(&sb, "0 %s add\n", paths[i]);
	for (i = 0; i < nr; i++)
		strbuf_addf(&sb, "0 %s open\n", paths[i]);
	ret = 0;
	for (c = tr->head; c && !ret; c = c->next) {
		for (i = 0; i < c->n && !ret; i++) {
			const struct iotrace_entry *e = &c->e[i];

			strbuf_addf(&sb, "%llu %s %s %llu %u\n",
				    (unsigned long long)(e->t > t0 ? (e->t - t0) / 1000 : 0),
				    e->file < nr ? paths[e->file] : "?",
				    e->op < ARRAY_SIZE(op_names) ? op_names[e->op] : "?",
				    (unsigned long long)e->off, e->len);
			ret = flush(tr->fd, &sb, 1 << 16);
		}
	}
	for (i = 0; i < nr && !ret; i++)
		strbuf_addf(&sb, "%llu %s close\n",
			    (unsigned long long)(t_end > t0 ? (t_end - t0) / 1000 : 0), paths[i]);
	if (!ret)
		ret = flush(tr->fd, &sb, 0);
	strbuf_free(&sb);
	flock(tr->fd, LOCK_UN);
	if (ret)
		return set_cause_errno(cause, -ret, "write_iolog %s: cannot write it: %s", path,
				       strerror(-ret));
	return 0;
}

void iotrace_free(struct iotrace *tr)
{
	struct iotrace_chunk *c = tr->head, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	tr->head = tr->tail = NULL;
	if (tr->on)
		close(tr->fd);
	tr->on = false;
}
