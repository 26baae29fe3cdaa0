/* SPDX-License-Identifier: MIT */
/*
 * The live status line on standard error (--eta): rewritten in place on a
 * terminal, a line each time elsewhere, kept every --eta-newline; a long
 * layout's progress in its place; and --bandwidth-log's aggregate samples,
 * taken as fio takes them when it makes its status line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "report/eta.h"
#include "report/report.h"

void eta_agg_sample(struct eta_state *es, const struct run_status *st, uint64_t now)
{
	uint64_t bytes[3] = { st->bytes[0], st->bytes[1], st->trim_bytes };
	uint64_t ms = (now - es->agg_prev_t) / 1000000;
	unsigned d;

	if (ms <= 500)
		return;
	for (d = 0; d < 3; d++) {
		/* fio's calc_rate: whole KiB/s of the bytes since the last sample. */
		strbuf_addf(&es->agg_log[d], "%llu, %llu, %u, 0, 0\n",
			    (unsigned long long)((now - es->agg_t0) / 1000000),
			    (unsigned long long)((1000 * (bytes[d] - es->agg_prev[d])) / ms / 1024),
			    d);
		es->agg_prev[d] = bytes[d];
	}
	es->agg_prev_t = now;
}

/* Writes agg-read_bw.log, agg-write_bw.log and agg-trim_bw.log into the
 * current folder, as fio does.  0, or -errno with *cause set. */
int eta_agg_write(struct eta_state *es, char **cause)
{
	static const char *const names[] = { "agg-read_bw.log", "agg-write_bw.log",
					     "agg-trim_bw.log" };
	unsigned d;
	int fd, err;
	ssize_t n;

	for (d = 0; d < 3; d++) {
		fd = open(names[d], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			err = errno;
			return set_cause_errno(cause, err, "--bandwidth-log: %s: %s", names[d],
					       strerror(err));
		}
		n = es->agg_log[d].len ? write(fd, es->agg_log[d].buf, es->agg_log[d].len) : 0;
		err = n < 0 ? errno : (size_t)n < es->agg_log[d].len ? EIO : 0;
		if (close(fd) < 0 && !err)
			err = errno;
		if (err)
			return set_cause_errno(cause, err, "--bandwidth-log: %s: %s", names[d],
					       strerror(err));
	}
	return 0;
}

void eta_show(const struct run_status *st, void *arg)
{
	struct eta_state *es = arg;
	struct strbuf sb = { 0 };
	uint64_t now = run_now();

	report_status(st, es->have_prev ? &es->prev : NULL, es->units, &sb);
	if (es->agg)
		eta_agg_sample(es, st, now);
	/* --eta-newline: as fio, the first line shown after more than that
	 * time is kept; the line after it starts below it. */
	if (es->tty && es->newline_due) {
		fputc('\n', stderr);
		es->width = 0;
		es->newline_due = false;
	}
	if (es->tty) {
		fprintf(stderr, "\r%-*s", (int)es->width, sb.buf);
		es->width = sb.len;
		if (es->newline && now - es->kept > es->newline) {
			es->newline_due = true;
			es->kept = now;
		}
	} else {
		fprintf(stderr, "%s\n", sb.buf);
	}
	fflush(stderr);
	es->prev = *st;
	es->have_prev = true;
	strbuf_free(&sb);
}

/* A long layout's or pre_read's progress, as the status line goes: in
 * place on a terminal (blanked at the end), a line each time elsewhere. */
void eta_layout_show(const struct run_layout *l, void *arg)
{
	struct eta_state *es = arg;
	char line[512];
	int n;

	n = snprintf(line, sizeof(line), "%s %s: %llu of %llu MiB (%.0f%%)", l->what, l->path,
		     (unsigned long long)(l->done >> 20), (unsigned long long)(l->total >> 20),
		     l->total ? 100.0 * (double)l->done / (double)l->total : 100.0);
	if (n < 0)
		return;
	if (!es->tty) {
		fprintf(stderr, "%s\n", line);
	} else if (l->done == l->total) {
		fprintf(stderr, "\r%*s\r", (int)es->width, "");
		es->width = 0;
	} else {
		fprintf(stderr, "\r%-*s", (int)es->width, line);
		es->width = strlen(line);
	}
	fflush(stderr);
}
