/* SPDX-License-Identifier: MIT */
/* In-memory logs: chunked entry lists, histogram lines and stats windows. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/iolog.h"
#include "util/util.h"

void iolog_grow(struct iolog *l)
{
	struct iolog_chunk *c = xmalloc(sizeof(*c));

	c->next = NULL;
	c->n = 0;
	if (l->tail)
		l->tail->next = c;
	else
		l->head = c;
	l->tail = c;
}

void iolog_add_hist(struct run_logs *lg, uint64_t t_ms, unsigned dir, uint32_t bs,
		    const struct hist *now, const uint64_t *before)
{
	struct iolog_hist *h = xcalloc(1, sizeof(*h));
	unsigned i;

	h->t = t_ms;
	h->dir = dir;
	h->bs = bs;
	for (i = 0; now->bucket && i < HIST_NR; i++)
		h->bins[i < IOLOG_HIST_BINS ? i : IOLOG_HIST_BINS - 1] +=
			now->bucket[i] - before[i];
	if (lg->hist_tail)
		lg->hist_tail->next = h;
	else
		lg->hist_head = h;
	lg->hist_tail = h;
}

void iolog_add_window(struct run_logs *lg, const struct iolog_window *w)
{
	if (lg->nr_win == lg->cap_win) {
		lg->cap_win = lg->cap_win ? lg->cap_win * 2 : 64;
		lg->win = xrealloc(lg->win, lg->cap_win * sizeof(*lg->win));
	}
	lg->win[lg->nr_win++] = *w;
}

void run_logs_free(struct run_logs *lg)
{
	struct iolog_chunk *c, *cn;
	struct iolog_hist *h, *hn;
	unsigned k;

	if (!lg)
		return;
	for (k = 0; k < IOLOG_NR; k++)
		for (c = lg->log[k].head; c; c = cn) {
			cn = c->next;
			free(c);
		}
	for (h = lg->hist_head; h; h = hn) {
		hn = h->next;
		free(h);
	}
	free(lg->win);
	free(lg);
}

static int put(int fd, const void *p, size_t len)
{
	return util_write_all(fd, p, len);
}

static int get(int fd, void *p, size_t len)
{
	return util_read_all(fd, p, len);
}

/* Each log as its count, then its entries; the histogram lines as their
 * count, then each line (its next pointer is rebuilt); the windows as
 * their count, then the array. */
int run_logs_save(const struct run_logs *lg, int fd)
{
	const struct iolog_chunk *c;
	const struct iolog_hist *h;
	uint64_t n = 0;
	unsigned k;
	int ret = 0;

	for (k = 0; k < IOLOG_NR && !ret; k++) {
		ret = put(fd, &lg->log[k].n, sizeof(lg->log[k].n));
		for (c = lg->log[k].head; c && !ret; c = c->next)
			ret = put(fd, c->e, c->n * sizeof(c->e[0]));
	}
	for (h = lg->hist_head; h; h = h->next)
		n++;
	if (!ret)
		ret = put(fd, &n, sizeof(n));
	for (h = lg->hist_head; h && !ret; h = h->next)
		ret = put(fd, h, sizeof(*h));
	n = lg->nr_win;
	if (!ret)
		ret = put(fd, &n, sizeof(n));
	if (!ret && n)
		ret = put(fd, lg->win, n * sizeof(*lg->win));
	return ret;
}

struct run_logs *run_logs_load(int fd)
{
	struct run_logs *lg = xcalloc(1, sizeof(*lg));
	struct iolog_hist *h;
	uint64_t n, i;
	unsigned k;
	int ret = 0;

	for (k = 0; k < IOLOG_NR && !ret; k++) {
		struct iolog *l = &lg->log[k];

		ret = get(fd, &n, sizeof(n));
		/* A chunk at a time, as they were written. */
		for (i = 0; i < n && !ret; i += l->tail->n) {
			iolog_grow(l);
			l->tail->n = n - i < IOLOG_CHUNK ? (unsigned)(n - i) : IOLOG_CHUNK;
			ret = get(fd, l->tail->e, l->tail->n * sizeof(l->tail->e[0]));
		}
		l->n = ret ? 0 : n;
	}
	if (!ret)
		ret = get(fd, &n, sizeof(n));
	for (i = 0; i < n && !ret; i++) {
		h = xmalloc(sizeof(*h));
		ret = get(fd, h, sizeof(*h));
		h->next = NULL;
		if (lg->hist_tail)
			lg->hist_tail->next = h;
		else
			lg->hist_head = h;
		lg->hist_tail = h;
	}
	if (!ret)
		ret = get(fd, &n, sizeof(n));
	if (!ret && n) {
		lg->win = xcalloc(n, sizeof(*lg->win));
		lg->nr_win = lg->cap_win = n;
		ret = get(fd, lg->win, n * sizeof(*lg->win));
	}
	if (ret) {
		run_logs_free(lg);
		errno = -ret;
		return NULL;
	}
	return lg;
}
