/* SPDX-License-Identifier: MIT */
/*
 * Latency per I/O priority (prio.h): the list set up before the run, the
 * sums of a group's or a mixed direction's, and the clone hand-off.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "util/util.h"

/* @ioprio's index in @p, appended (empty) when it is new. */
static unsigned slot_of(struct prio_stats *p, uint16_t ioprio)
{
	unsigned k = prio_key(ioprio);

	if (!p->slot[k]) {
		/* At most PRIO_STATS_MAX keys, so never past the end. */
		p->ioprio[p->nr] = ioprio;
		hist_init(&p->h[p->nr]);
		p->slot[k] = (uint8_t)++p->nr;
	}
	return p->slot[k] - 1u;
}

static struct prio_stats *prio_new(void)
{
	return xcalloc(1, sizeof(struct prio_stats));
}

struct prio_stats *prio_stats_new(uint16_t job_ioprio, const uint16_t *prios, unsigned n)
{
	struct prio_stats *p = prio_new();
	unsigned i;

	/* As fio: the job's own priority is index 0, the others in turn. */
	hist_prepare(&p->h[slot_of(p, job_ioprio)]);
	for (i = 0; i < n; i++)
		hist_prepare(&p->h[slot_of(p, prios[i])]);
	return p;
}

void prio_stats_free(struct prio_stats *p)
{
	unsigned i;

	/* Every one: a list read back short has buckets past its nr. */
	for (i = 0; p && i < PRIO_STATS_MAX; i++)
		hist_free(&p->h[i]);
	free(p);
}

void prio_stats_add(struct prio_stats **dst, uint16_t ioprio, const struct hist *h)
{
	if (!h->count)
		return;
	if (!*dst)
		*dst = prio_new();
	hist_merge(&(*dst)->h[slot_of(*dst, ioprio)], h);
}

void prio_stats_merge(struct prio_stats **dst, const struct prio_stats *src, uint16_t ioprio,
		      const struct hist *whole)
{
	unsigned i;

	if (!src) {
		prio_stats_add(dst, ioprio, whole);
		return;
	}
	for (i = 0; i < src->nr; i++)
		prio_stats_add(dst, src->ioprio[i], &src->h[i]);
}

unsigned prio_stats_used(const struct prio_stats *p)
{
	unsigned i, n = 0;

	for (i = 0; p && i < p->nr; i++)
		n += p->h[i].count != 0;
	return n;
}

/* The number of priorities (0: none), the struct as it is, then each
 * histogram's buckets as stats_hist_save writes them. */
int prio_stats_save(const struct prio_stats *p, int fd)
{
	uint32_t n = p ? p->nr : 0;
	unsigned i;
	int ret = util_write_all(fd, &n, sizeof(n));

	if (!ret && n)
		ret = util_write_all(fd, p, sizeof(*p));
	for (i = 0; i < n && !ret; i++)
		ret = stats_hist_save(&p->h[i], fd);
	return ret;
}

int prio_stats_load(struct prio_stats **out, int fd)
{
	struct prio_stats *p;
	uint32_t n;
	unsigned i;
	int ret = util_read_all(fd, &n, sizeof(n));

	*out = NULL;
	if (ret || !n)
		return ret;
	if (n > PRIO_STATS_MAX)
		return -EIO;
	p = prio_new();
	ret = util_read_all(fd, p, sizeof(*p));
	for (i = 0; i < PRIO_STATS_MAX; i++)
		p->h[i].bucket = NULL;
	if (!ret && p->nr != n)
		ret = -EIO;
	for (i = 0; i < PRIO_STATS_MAX && !ret; i++)
		if (p->slot[i] > n)
			ret = -EIO;
	for (i = 0; i < n && !ret; i++)
		ret = stats_hist_load(&p->h[i], fd);
	if (ret) {
		prio_stats_free(p);
		return ret;
	}
	*out = p;
	return 0;
}
