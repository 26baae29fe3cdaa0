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
	snprintf(h->promise, sizeof(h->promise), "%s", m->promises ? "kill" : "none");
	snprintf(h->mode, sizeof(h->mode), "%s", m->name);
	snprintf(h->file, sizeof(h->file), "%s", m->path);
}

int crash_log_open(struct crash_log *log, const char *path, const struct wire_hello *h,
		   char **cause)
{
	memset(log, 0, sizeof(*log));
	log->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log->fd < 0)
		return set_cause_errno(cause, errno, "witness log %s: %s", path, strerror(errno));
	log->path = xstrdup(path);
	strbuf_addf(&log->pend,
		    "iogauge crash witness 1\nrun %llx\nfile %s\nbs %llu\nsize %llu\n"
		    "verify %s\nmode %s\npromise %s\n",
		    (unsigned long long)h->run, h->file, (unsigned long long)h->bs,
		    (unsigned long long)h->size, h->verify, h->mode, h->promise);
	return crash_log_flush(log, false, 0, 0, cause);
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
