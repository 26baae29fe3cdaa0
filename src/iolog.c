/* SPDX-License-Identifier: MIT */
/* In-memory logs: chunked entry lists, histogram lines and stats windows. */
#include <stdlib.h>
#include <string.h>

#include "iogauge/iolog.h"
#include "iogauge/util.h"

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
	for (i = 0; i < HIST_NR; i++)
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
