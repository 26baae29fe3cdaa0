/* SPDX-License-Identifier: MIT */
/*
 * The ranks' interval logs merged into rank 0's (issue 25), each rank's
 * clone's log time 0 already on rank 0's run clock (logs.c), so that a
 * rank's entry at t ms lands where it happened in rank 0's clone's log.
 * Per clone: averaged bw and iops logs (log_avg_msec) and the histogram
 * log (log_hist_msec) become one entry per window and direction, the sum
 * across ranks, as group_reporting sums clones; the per-I/O logs (lat,
 * clat, slat, and bw and iops without log_avg_msec) are every rank's
 * entries in time order.  Rank 0's own stay as its rank's, for
 * --per-rank's files.  Pure: no MPI, no files (tests/test_logmerge.c).
 */
#include <stdlib.h>
#include <string.h>

#include "jobfile/job.h"
#include "mpi/logmerge.h"
#include "mpi/ranks.h"
#include "run/run.h"
#include "stats/interval.h"
#include "util/util.h"

bool mpi_logs_wanted(const struct job *job)
{
	return job->stats && (job->write_bw_log || job->write_iops_log || job->write_lat_log ||
			      job->write_hist_log);
}

/* One entry of a rank's log on rank 0's clone's time line. */
struct placed {
	uint64_t t_ns; /* after rank 0's clone's log time 0 */
	uint64_t idx;  /* its window, for the summed logs */
	unsigned rank;
	uint64_t seq; /* its place in its rank's log: ties keep the order */
	unsigned dir; /* its direction; 0 for a stats window */
	const struct iolog_entry *e;
	const struct iolog_hist *h;
	const struct iolog_window *w;
};

static int by_time(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_window(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return by_time(a, b);
}

/* @t_ms of a rank whose clone's log time 0 was @shift_ns after rank 0's. */
static uint64_t place(uint64_t t_ms, int64_t shift_ns)
{
	int64_t t = (int64_t)(t_ms * 1000000) + shift_ns;

	return t > 0 ? (uint64_t)t : 0;
}

/* Window @win_ms's index of @p, nearest; a rank's entries of one
 * direction stay in distinct, increasing windows (its last, partial
 * window is one of its own), @last holding each direction's last + 1. */
static void window_of(struct placed *p, uint64_t win_ms, uint64_t last[3])
{
	uint64_t w = win_ms * 1000000, d = p->dir < 3 ? p->dir : 2;

	p->idx = (p->t_ns + w / 2) / w;
	if (p->idx < last[d])
		p->idx = last[d];
	last[d] = p->idx + 1;
}

/* Every rank's entries of log @k of clone @i (rank 0's in @own). */
static struct placed *gather_entries(const struct run_result *own, const struct rank_run *ranks,
				     unsigned n, unsigned i, unsigned k, size_t *count)
{
	struct placed *v = NULL;
	size_t cnt = 0, cap = 0;
	unsigned q;

	for (q = 0; q < n; q++) {
		const struct run_result *r =
			q ? (i < ranks[q].nr ? &ranks[q].results[i] : NULL) : own;
		const struct iolog_chunk *c;
		uint64_t seq = 0;
		int64_t shift;
		unsigned j;

		if (!r || !r->logs)
			continue;
		shift = q && r->t_start && own->t_start
				? (int64_t)r->t_start - (int64_t)own->t_start
				: 0;
		for (c = r->logs->log[k].head; c; c = c->next)
			for (j = 0; j < c->n; j++) {
				if (cnt == cap) {
					cap = cap ? 2 * cap : 1024;
					v = xrealloc(v, cap * sizeof(*v));
				}
				v[cnt++] = (struct placed){ .t_ns = place(c->e[j].t, shift),
							    .rank = q,
							    .seq = seq++,
							    .dir = c->e[j].dir,
							    .e = &c->e[j] };
			}
	}
	*count = cnt;
	return v;
}

static void merge_log(struct iolog *out, const struct run_result *own, const struct rank_run *ranks,
		      unsigned n, unsigned i, unsigned k, unsigned win_ms)
{
	size_t cnt, a, b;
	struct placed *v = gather_entries(own, ranks, n, i, k, &cnt);
	uint64_t last[3] = { 0, 0, 0 };
	unsigned q = ~0u;

	if (!win_ms) {
		if (cnt > 1)
			qsort(v, cnt, sizeof(*v), by_time);
		for (a = 0; a < cnt; a++)
			iolog_add_io(out, v[a].t_ns / 1000000, v[a].e->val, v[a].e->dir, v[a].e->bs,
				     v[a].e->off, v[a].e->prio);
		free(v);
		return;
	}
	/* Each rank's entries come together, in its order. */
	for (a = 0; a < cnt; a++) {
		if (v[a].rank != q) {
			q = v[a].rank;
			memset(last, 0, sizeof(last));
		}
		window_of(&v[a], win_ms, last);
	}
	if (cnt > 1)
		qsort(v, cnt, sizeof(*v), by_window);
	for (a = 0; a < cnt; a = b) {
		uint64_t sum = 0;

		for (b = a; b < cnt && v[b].idx == v[a].idx && v[b].dir == v[a].dir; b++)
			sum += v[b].e->val;
		iolog_add_io(out, v[a].idx * win_ms, sum, v[a].e->dir, v[a].e->bs, 0, v[a].e->prio);
	}
	free(v);
}

static void merge_hist(struct run_logs *out, const struct run_result *own,
		       const struct rank_run *ranks, unsigned n, unsigned i, unsigned win_ms)
{
	struct placed *v = NULL;
	size_t cnt = 0, cap = 0, a, b;
	uint64_t last[3];
	unsigned q, j;

	for (q = 0; q < n; q++) {
		const struct run_result *r =
			q ? (i < ranks[q].nr ? &ranks[q].results[i] : NULL) : own;
		const struct iolog_hist *h;
		int64_t shift;
		uint64_t seq = 0;

		if (!r || !r->logs)
			continue;
		shift = q && r->t_start && own->t_start
				? (int64_t)r->t_start - (int64_t)own->t_start
				: 0;
		memset(last, 0, sizeof(last));
		for (h = r->logs->hist_head; h; h = h->next) {
			if (cnt == cap) {
				cap = cap ? 2 * cap : 256;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[cnt] = (struct placed){ .t_ns = place(h->t, shift),
						  .rank = q,
						  .seq = seq++,
						  .dir = h->dir,
						  .h = h };
			window_of(&v[cnt++], win_ms ? win_ms : 1, last);
		}
	}
	if (cnt > 1)
		qsort(v, cnt, sizeof(*v), by_window);
	for (a = 0; a < cnt; a = b) {
		struct iolog_hist *m = xcalloc(1, sizeof(*m));

		m->t = v[a].idx * (win_ms ? win_ms : 1);
		m->dir = v[a].h->dir;
		m->bs = v[a].h->bs;
		for (b = a; b < cnt && v[b].idx == v[a].idx && v[b].dir == v[a].dir; b++)
			for (j = 0; j < IOLOG_HIST_BINS; j++)
				m->bins[j] += v[b].h->bins[j];
		if (out->hist_tail)
			out->hist_tail->next = m;
		else
			out->hist_head = m;
		out->hist_tail = m;
	}
	free(v);
}

/* The 500 ms stats windows (--plot's, the HTML report's series): each
 * rank's in the nearest of rank 0's, their rates added. */
static void merge_windows(struct run_logs *out, const struct run_result *own,
			  const struct rank_run *ranks, unsigned n, unsigned i)
{
	struct placed *v = NULL;
	size_t cnt = 0, cap = 0, a, b;
	uint64_t last[3];
	unsigned q, d;

	for (q = 0; q < n; q++) {
		const struct run_result *r =
			q ? (i < ranks[q].nr ? &ranks[q].results[i] : NULL) : own;
		int64_t shift;
		size_t k;

		if (!r || !r->logs)
			continue;
		shift = q && r->t_start && own->t_start
				? (int64_t)r->t_start - (int64_t)own->t_start
				: 0;
		memset(last, 0, sizeof(last));
		for (k = 0; k < r->logs->nr_win; k++) {
			int64_t t = (int64_t)(r->logs->win[k].t * 1e9) + shift;

			if (cnt == cap) {
				cap = cap ? 2 * cap : 256;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[cnt] = (struct placed){ .t_ns = t > 0 ? (uint64_t)t : 0,
						  .rank = q,
						  .seq = k,
						  .w = &r->logs->win[k] };
			window_of(&v[cnt++], STATS_WINDOW / 1000000, last);
		}
	}
	if (cnt > 1)
		qsort(v, cnt, sizeof(*v), by_window);
	for (a = 0; a < cnt; a = b) {
		struct iolog_window m = { (double)(v[a].idx * STATS_WINDOW) / 1e9, { 0 }, { 0 } };

		for (b = a; b < cnt && v[b].idx == v[a].idx; b++)
			for (d = 0; d < 3; d++) {
				m.bw[d] += v[b].w->bw[d];
				m.iops[d] += v[b].w->iops[d];
			}
		iolog_add_window(out, &m);
	}
	free(v);
}

void mpi_logs_merge(struct run *run, struct rank_run *ranks, unsigned n)
{
	unsigned i, k;

	for (i = 0; i < run->nr; i++) {
		struct run_result *own = &run->results[i];
		const struct job *job = own->job;
		struct run_logs *m;

		if (!own->logs)
			continue;
		m = xcalloc(1, sizeof(*m));
		for (k = 0; k < IOLOG_NR && mpi_logs_wanted(job); k++)
			merge_log(&m->log[k], own, ranks, n, i, k,
				  (k == IOLOG_BW || k == IOLOG_IOPS) ? job->log_avg_msec : 0);
		if (mpi_logs_wanted(job))
			merge_hist(m, own, ranks, n, i, job->log_hist_msec);
		merge_windows(m, own, ranks, n, i);
		if (n && i < ranks[0].nr)
			ranks[0].results[i].logs = own->logs;
		else
			run_logs_free(own->logs);
		own->logs = m;
	}
}
