/* SPDX-License-Identifier: MIT */
/* The live status thread (see watch.h). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "run/forkgate.h"
#include "run/watch.h"

/* One clone's share done: bytes issued of its limit, or time of its runtime. */
static double clone_frac(const struct slot *s, uint64_t now)
{
	const struct worker_progress *p = s->w.prog;
	const struct job *job = s->w.job;
	uint64_t t0 = atomic_load_explicit(&p->t_start, memory_order_relaxed);
	uint64_t limit = atomic_load_explicit(&p->limit, memory_order_relaxed);
	double f = 0;

	if (atomic_load_explicit(&p->state, memory_order_relaxed) == 2)
		return 1;
	if (!t0)
		return 0;
	if (job->runtime && now > t0)
		f = (double)(now - t0) / (double)(job->runtime + job->ramp_time);
	if (limit != UINT64_MAX && limit) {
		double g = (double)atomic_load_explicit(&p->issued, memory_order_relaxed) /
			   (double)limit;

		f = f > g ? f : g;
	}
	return f < 1 ? f : 1;
}

static void watch_once(struct watcher *wt)
{
	struct run_status st = { .total = wt->n };
	uint64_t now = run_now();
	double sum = 0;
	unsigned i, d;

	for (i = 0; i < wt->n; i++) {
		const struct worker_progress *p = wt->slots[i].w.prog;
		int state = atomic_load_explicit(&p->state, memory_order_relaxed);

		st.waiting += state == 0;
		st.running += state == 1;
		st.done += state == 2;
		for (d = 0; d < 2; d++) {
			st.bytes[d] += atomic_load_explicit(&p->bytes[d], memory_order_relaxed);
			st.ios[d] += atomic_load_explicit(&p->ios[d], memory_order_relaxed);
		}
		st.trim_bytes += atomic_load_explicit(&p->bytes[2], memory_order_relaxed);
		sum += clone_frac(&wt->slots[i], now);
	}
	st.frac = wt->n ? sum / wt->n : 1;
	st.elapsed = now - wt->t_start;
	st.eta = st.frac > 0.001 ? (uint64_t)((double)st.elapsed * (1 - st.frac) / st.frac)
				 : UINT64_MAX;
	wt->watch->fn(&st, wt->watch->arg);
}

static void *watch_main(void *arg)
{
	struct watcher *wt = arg;
	struct timespec until;

	pthread_mutex_lock(&wt->lock);
	while (!wt->quit) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += (time_t)(wt->watch->every / 1000000000ull);
		until.tv_nsec += (long)(wt->watch->every % 1000000000ull);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!wt->quit &&
		       pthread_cond_timedwait(&wt->cond, &wt->lock, &until) != ETIMEDOUT)
			;
		if (wt->quit)
			break;
		pthread_mutex_unlock(&wt->lock);
		forkgate_hold();
		watch_once(wt);
		forkgate_release();
		pthread_mutex_lock(&wt->lock);
	}
	pthread_mutex_unlock(&wt->lock);
	return NULL;
}

bool watch_start(struct watcher *wt, const struct run_watch *watch, struct slot *slots, unsigned n,
		 uint64_t t_start)
{
	if (!watch || !watch->fn || !watch->every)
		return false;
	wt->watch = watch;
	wt->slots = slots;
	wt->n = n;
	wt->t_start = t_start;
	wt->quit = false;
	pthread_mutex_init(&wt->lock, NULL);
	pthread_cond_init(&wt->cond, NULL);
	if (forkgate_thread(&wt->tid, watch_main, wt)) {
		pthread_cond_destroy(&wt->cond);
		pthread_mutex_destroy(&wt->lock);
		return false;
	}
	return true;
}

void watch_stop(struct watcher *wt)
{
	pthread_mutex_lock(&wt->lock);
	wt->quit = true;
	pthread_cond_signal(&wt->cond);
	pthread_mutex_unlock(&wt->lock);
	pthread_join(wt->tid, NULL);
	pthread_cond_destroy(&wt->cond);
	pthread_mutex_destroy(&wt->lock);
}
