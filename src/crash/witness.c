/* SPDX-License-Identifier: MIT */
/*
 * The witness's log: what the writer acknowledged, kept by a process that
 * outlives it.  Text, one acknowledgement a line, so that a person (or a
 * test) can read it; synced at the end of each round, before the check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crash/crash.h"
#include "crash/wire.h"
#include "jobfile/options.h"

void crash_mode_hello(const struct crash_mode *m, uint64_t run_id, struct wire_hello *h)
{
	memset(h, 0, sizeof(*h));
	h->run = run_id;
	h->bs = m->bs;
	h->size = m->size;
	snprintf(h->verify, sizeof(h->verify), "%s", opt_enum_name(OPT_VERIFY, (int)m->verify));
	snprintf(h->promise, sizeof(h->promise), "%s", crash_promise_names[m->promise]);
	snprintf(h->mode, sizeof(h->mode), "%s", m->name);
	snprintf(h->file, sizeof(h->file), "%s", m->path);
}

int crash_log_open(struct crash_log *log, const char *path, const struct wire_hello *h, bool remote,
		   char **cause)
{
	memset(log, 0, sizeof(*log));
	log->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log->fd < 0)
		return set_cause_errno(cause, errno, "witness log %s: %s", path, strerror(errno));
	log->path = xstrdup(path);
	strbuf_addf(&log->pend,
		    "iogauge crash witness 1\nrun %llx\nfile %s\nbs %llu\nsize %llu\n"
		    "verify %s\nmode %s\n%spromise %s\n",
		    (unsigned long long)h->run, h->file, (unsigned long long)h->bs,
		    (unsigned long long)h->size, h->verify, h->mode,
		    remote ? "witness remote\n" : "", h->promise);
	return crash_log_flush(log, false, 0, 0, cause);
}

/* Undoes fgets's line: 1 when @line of @len bytes was whole (its newline
 * cut), 0 when it was cut short at the file's end, -1 when too long. */
static int whole_line(FILE *f, char *line, size_t len)
{
	if (len && line[len - 1] == '\n') {
		line[len - 1] = '\0';
		return 1;
	}
	return feof(f) ? 0 : -1;
}

int crash_log_resume(struct crash_log *log, const char *path, uint64_t run, struct wire_hello *h,
		     uint64_t *next, unsigned *rounds, char **cause)
{
	FILE *f = fopen(path, "re");
	char line[WIRE_LINE_MAX + 64];
	unsigned long long v, off, gen, max_gen = 0;
	unsigned r, last = 0, seen = 0, lineno = 0;
	off_t whole = 0;
	int ret = 0, fd;

	memset(log, 0, sizeof(*log));
	log->fd = -1;
	memset(h, 0, sizeof(*h));
	if (!f)
		return errno == ENOENT ? 0
				       : set_cause_errno(cause, errno, "witness log %s: %s", path,
							 strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		int w = whole_line(f, line, len);

		if (w <= 0) {
			/* A line cut short: the witness died writing it, unanswered. */
			if (w < 0)
				ret = set_cause(cause, "%s:%u: a line too long for a witness log",
						path, lineno + 1);
			break;
		}
		if (++lineno == 1) {
			if (strcmp(line, "iogauge crash witness 1"))
				break;
		} else if (sscanf(line, "a %llu %llu", &off, &gen) == 2) {
			if (gen > max_gen)
				max_gen = gen;
		} else if (sscanf(line, "round %u", &r) == 1) {
			if (r > last)
				last = r;
		} else if (sscanf(line, "run %llx", &v) == 1) {
			h->run = v;
			seen |= 1;
		} else if (!strncmp(line, "file ", 5)) {
			util_copy_cut(h->file, sizeof(h->file), line + 5);
			seen |= 2;
		} else if (sscanf(line, "bs %llu", &v) == 1) {
			h->bs = v;
			seen |= 4;
		} else if (sscanf(line, "size %llu", &v) == 1) {
			h->size = v;
			seen |= 8;
		} else if (!strncmp(line, "verify ", 7)) {
			util_copy_cut(h->verify, sizeof(h->verify), line + 7);
			seen |= 16;
		} else if (!strncmp(line, "mode ", 5)) {
			util_copy_cut(h->mode, sizeof(h->mode), line + 5);
			seen |= 32;
		} else if (!strncmp(line, "promise ", 8)) {
			util_copy_cut(h->promise, sizeof(h->promise), line + 8);
			seen |= 64;
		}
		whole += (off_t)len;
	}
	if (!ret && ferror(f))
		ret = set_cause_errno(cause, EIO, "witness log %s: a read failed", path);
	fclose(f);
	/* Not a whole header of @run: another run's log, emptied as before. */
	if (ret || seen != 127 || h->run != run)
		return ret;
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || ftruncate(fd, whole)) {
		ret = set_cause_errno(cause, errno, "witness log %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	log->fd = fd;
	log->path = xstrdup(path);
	/* Each round's writer started at most CRASH_LOG_GEN_MARGIN past the
	 * generations before it: the log's rounds bound all they wrote. */
	*rounds = last;
	*next = max_gen + (uint64_t)last * CRASH_LOG_GEN_MARGIN;
	return 1;
}

int crash_log_round(struct crash_log *log, unsigned round, char **cause)
{
	strbuf_addf(&log->pend, "round %u\n", round);
	return crash_log_flush(log, false, 0, 0, cause);
}

void crash_log_ack(struct crash_log *log, const struct crash_ack *a)
{
	strbuf_addf(&log->pend, "a %llu %llu\n", (unsigned long long)a->off,
		    (unsigned long long)a->gen);
}

int crash_log_flush(struct crash_log *log, bool end, unsigned round, uint64_t acks, char **cause)
{
	int ret;

	if (end)
		strbuf_addf(&log->pend, "end %u %llu\n", round, (unsigned long long)acks);
	ret = util_write_all(log->fd, log->pend.buf, log->pend.len);
	log->pend.len = 0;
	if (!ret && end && fdatasync(log->fd))
		ret = -errno;
	if (ret)
		return set_cause_errno(cause, -ret, "witness log %s: %s", log->path,
				       strerror(-ret));
	return 0;
}

int crash_log_sync(struct crash_log *log, char **cause)
{
	int ret = util_write_all(log->fd, log->pend.buf, log->pend.len);

	log->pend.len = 0;
	if (!ret && fdatasync(log->fd))
		ret = -errno;
	if (ret)
		return set_cause_errno(cause, -ret, "witness log %s: %s", log->path,
				       strerror(-ret));
	return 0;
}

void crash_log_close(struct crash_log *log)
{
	if (log->fd >= 0)
		close(log->fd);
	log->fd = -1;
	free(log->path);
	log->path = NULL;
	strbuf_free(&log->pend);
}
