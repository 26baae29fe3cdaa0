/* SPDX-License-Identifier: MIT */
/* steadystate's sampler (see steady.h). */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "run/forkgate.h"
#include "run/steady.h"
#include "util/runclock.h"
#include "util/util.h"

#define STEADY_EVERY 1000000000ull /* ns: fio's STEADYSTATE_MSEC */

/* Whether clone @i shares the judgement of clone @i - 1: group_reporting
 * and the same group.  The jobs are the results' (a clone set up as its
 * batch starts has no worker's job before then). */
static bool steady_grouped(const struct run_result *res, unsigned i)
{
	return i && res[i].job->group_reporting && res[i].group == res[i - 1].group;
}

bool steady_watch_setup(struct steady *ss, const struct run_result *res, unsigned n)
{
	bool any = false;
	unsigned i;

	for (i = 0; i < n; i++) {
		const struct job *job = res[i].job;

		if (job->ss_dur < 1000000000ull || steady_grouped(res, i))
			continue;
		steady_init(&ss[i], &job->steadystate, (unsigned)(job->ss_dur / 1000000000ull));
		any = true;
	}
	return any;
}

/* One round, as fio's steadystate_check: each clone's rate since the last
 * round (or its start), summed over its judgement's running clones past
 * ss_ramp. */
static void steady_round(struct steady_watch *sw)
{
	uint64_t iops = 0, bw = 0;
	unsigned i, d, over = 0;

	for (i = 0; i < sw->n; i++) {
		const struct worker_progress *p = sw->slots[i].w.prog;
		const struct job *job = sw->res[i].job;
		struct steady_clone *c = &sw->cl[i];
		struct steady *s = &sw->ss[c->owner];
		uint64_t now = run_now(), t0, bytes = 0, ios = 0, ms;

		if (!steady_grouped(sw->res, i))
			iops = bw = over = 0;
		if (!s->dur || s->attained ||
		    atomic_load_explicit(&p->state, memory_order_relaxed) != 1)
			continue;
		t0 = atomic_load_explicit(&p->t_start, memory_order_relaxed);
		if (!c->ramp_over && (!job->ss_ramp || now - t0 >= job->ss_ramp + STEADY_EVERY))
			c->ramp_over = true;
		for (d = 0; d < 2; d++) {
			bytes += atomic_load_explicit(&p->bytes[d], memory_order_relaxed);
			ios += atomic_load_explicit(&p->ios[d], memory_order_relaxed);
		}
		if (!c->t)
			c->t = t0; /* as fio: the first rate is from the job's start */
		ms = (now - c->t) / 1000000;
		if (c->ramp_over) {
			if (ms) {
				bw += 1000 * (bytes - c->bytes) / ms;
				iops += 1000 * (ios - c->ios) / ms;
			}
			over++;
		}
		c->t = now;
		c->bytes = bytes;
		c->ios = ios;
		/* The judgement is made at its group's last clone. */
		if (!over || (i + 1 < sw->n && steady_grouped(sw->res, i + 1)))
			continue;
		if (steady_add(s, iops, bw)) {
			unsigned k;

			for (k = c->owner; k <= i; k++)
				atomic_store_explicit(&sw->ctl->halt[k], 1, memory_order_relaxed);
		}
	}
}

static void *steady_main(void *arg)
{
	struct steady_watch *sw = arg;
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	pthread_mutex_lock(&sw->lock);
	while (!sw->quit) {
		until.tv_sec++;
		while (!sw->quit &&
		       pthread_cond_timedwait(&sw->cond, &sw->lock, &until) != ETIMEDOUT)
			;
		if (sw->quit)
			break;
		pthread_mutex_unlock(&sw->lock);
		forkgate_hold();
		steady_round(sw);
		forkgate_release();
		pthread_mutex_lock(&sw->lock);
	}
	pthread_mutex_unlock(&sw->lock);
	return NULL;
}

bool steady_watch_start(struct steady_watch *sw, struct slot *slots, const struct run_result *res,
			unsigned n, struct ctl *ctl, struct steady *ss)
{
	pthread_condattr_t ca;
	unsigned i;

	sw->slots = slots;
	sw->res = res;
	sw->n = n;
	sw->ctl = ctl;
	sw->ss = ss;
	sw->quit = false;
	sw->cl = xcalloc(n, sizeof(*sw->cl));
	for (i = 0; i < n; i++)
		sw->cl[i].owner = steady_grouped(res, i) ? sw->cl[i - 1].owner : i;
	pthread_mutex_init(&sw->lock, NULL);
	/* Rounds a second apart on the monotonic clock, not the wall's. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sw->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (forkgate_thread(&sw->tid, steady_main, sw)) {
		pthread_cond_destroy(&sw->cond);
		pthread_mutex_destroy(&sw->lock);
		free(sw->cl);
		return false;
	}
	return true;
}

void steady_watch_stop(struct steady_watch *sw)
{
	pthread_mutex_lock(&sw->lock);
	sw->quit = true;
	pthread_cond_signal(&sw->cond);
	pthread_mutex_unlock(&sw->lock);
	pthread_join(sw->tid, NULL);
	pthread_cond_destroy(&sw->cond);
	pthread_mutex_destroy(&sw->lock);
	free(sw->cl);
}
