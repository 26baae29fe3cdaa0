/* SPDX-License-Identifier: MIT */
/*
 * The errors of one reading of job files and command line, kept in reading
 * order so that all of them are reported at once: at most
 * JOBFILE_ERRORS_MAX messages, the first in that order, and a count of the
 * rest.  Nothing here reads or prints.
 */
#include <stdlib.h>
#include <string.h>

#include "jobfile/jobfile.h"

void job_errors_add(struct job_errors *e, unsigned seq, char *msg)
{
	job_errors_add_in(e, seq, 0, msg);
}

void job_errors_add_in(struct job_errors *e, unsigned seq, unsigned spec, char *msg)
{
	struct job_error *slot;
	unsigned i, last = 0;

	for (i = 0; i < e->n; i++) {
		if (!strcmp(e->v[i].msg, msg)) {
			free(msg);
			return;
		}
		if (e->v[i].seq >= e->v[last].seq)
			last = i;
	}
	e->total++;
	if (!e->v)
		e->v = xcalloc(JOBFILE_ERRORS_MAX, sizeof(*e->v));
	if (e->n < JOBFILE_ERRORS_MAX) {
		slot = &e->v[e->n++];
	} else if (seq < e->v[last].seq) {
		/* Kept: the first in reading order, not the first found. */
		slot = &e->v[last];
		free(slot->msg);
	} else {
		free(msg);
		return;
	}
	slot->seq = seq;
	slot->spec = spec;
	slot->order = e->total;
	slot->msg = msg;
}

static int job_error_cmp(const void *a, const void *b)
{
	const struct job_error *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

char *job_errors_text(const struct job_errors *e)
{
	struct job_error *sorted = xcalloc(e->n ? e->n : 1, sizeof(*sorted));
	struct strbuf sb = { 0 };
	unsigned i;

	if (e->n)
		memcpy(sorted, e->v, e->n * sizeof(*sorted));
	qsort(sorted, e->n, sizeof(*sorted), job_error_cmp);
	for (i = 0; i < e->n; i++)
		strbuf_addf(&sb, "%s%s", i ? "\n" : "", sorted[i].msg);
	if (e->total > e->n)
		strbuf_addf(&sb, "\nand %u more error%s", e->total - e->n,
			    e->total - e->n > 1 ? "s" : "");
	free(sorted);
	return strbuf_detach(&sb);
}

void job_errors_copy(struct job_errors *to, const struct job_errors *from)
{
	unsigned i;

	memset(to, 0, sizeof(*to));
	if (!from->n)
		return;
	to->v = xcalloc(JOBFILE_ERRORS_MAX, sizeof(*to->v));
	for (i = 0; i < from->n; i++) {
		to->v[i] = from->v[i];
		to->v[i].msg = xstrdup(from->v[i].msg);
	}
	to->n = from->n;
	to->total = from->total;
}

void job_errors_clear(struct job_errors *e)
{
	unsigned i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].msg);
	free(e->v);
	memset(e, 0, sizeof(*e));
}
