/* SPDX-License-Identifier: MIT */
/*
 * --idle-prof: a SCHED_IDLE thread per CPU counts units of work while
 * the jobs run (see idleprof.h).  Not the run's clock: the threads read
 * CLOCK_MONOTONIC themselves, as the figures are ratios of their own.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/idleprof.h"
#include "util/util.h"

/* Calibration: the least time of CALIB_RUNS runs of CALIB_UNITS units.
 * fio times 10 runs of 1000: the same work, but on a loaded machine each
 * of its 11 ms runs is cut into by others, the unit reads slow and the
 * idleness above 100%; the least of 100 shorter runs stays near the truth. */
#define CALIB_RUNS  100
#define CALIB_UNITS 100

struct idleprof_cpu {
	struct idleprof *ip;
	pthread_t tid;
	unsigned cpu;
	unsigned char *page;
	double unit_us;	 /* calibration: us for one unit */
	double units;	 /* done while profiling, the last one in part */
	uint64_t t0, t1; /* ns, CLOCK_MONOTONIC: profiling began, ended */
	int err;	 /* errno: the thread could not be pinned or made idle */
	const char *what;
};

static const char *const mode_names[] = { "calibrate", "system", "percpu" };

int idleprof_mode_of(const char *name, enum idleprof_mode *mode)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(mode_names); i++)
		if (!strcmp(name, mode_names[i])) {
			*mode = (enum idleprof_mode)(i + 1);
			return 0;
		}
	return -1;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * One unit of work: every byte of the page written once, the stop flag
 * read at each byte (so that the loop ends within a byte of being told,
 * and so that calibration times the very loop the profiling runs).  The
 * bytes done before a stop, or the page size.
 */
static size_t unit(struct idleprof_cpu *c, size_t j)
{
	size_t k, psz = c->ip->page_size;

	for (k = 0; k < psz; k++) {
		c->page[(k + j) % psz] = (unsigned char)(k % 256);
		if (atomic_load_explicit(&c->ip->stop, memory_order_relaxed))
			break;
	}
	return k;
}

static void calibrate(struct idleprof_cpu *c)
{
	uint64_t t, best = 0;
	unsigned i, j;

	for (i = 0; i < CALIB_RUNS; i++) {
		t = mono_ns();
		for (j = 0; j < CALIB_UNITS; j++)
			unit(c, j);
		t = mono_ns() - t;
		if (t && (!best || t < best))
			best = t;
	}
	c->unit_us = (double)best / 1000.0 / CALIB_UNITS;
}

static void *idle_main(void *arg)
{
	struct idleprof_cpu *c = arg;
	struct idleprof *ip = c->ip;
	struct sched_param sp = { 0 };
	cpu_set_t set;
	size_t j = 0, k;
	int err;

	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err) {
		c->what = "cannot pin a thread to it";
	} else {
		calibrate(c);
		/* Idle only now: calibration ran at the normal priority. */
		err = pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
		if (err)
			c->what = "cannot make a thread SCHED_IDLE on it";
	}
	pthread_mutex_lock(&ip->lock);
	c->err = err;
	ip->ready++;
	pthread_cond_broadcast(&ip->cond);
	while (!ip->go)
		pthread_cond_wait(&ip->cond, &ip->lock);
	err = err || ip->quit;
	pthread_mutex_unlock(&ip->lock);
	if (err)
		return NULL;
	c->t0 = mono_ns();
	for (;;) {
		k = unit(c, j);
		if (k < ip->page_size)
			break;
		j++;
	}
	c->t1 = mono_ns();
	c->units = (double)j + (double)k / (double)ip->page_size;
	return NULL;
}

/* Lets every thread past its wait (to profile, or with @quit to end). */
static void release(struct idleprof *ip, bool quit)
{
	pthread_mutex_lock(&ip->lock);
	ip->quit = ip->quit || quit;
	ip->go = true;
	pthread_cond_broadcast(&ip->cond);
	pthread_mutex_unlock(&ip->lock);
}

static void join_all(struct idleprof *ip)
{
	unsigned i;

	for (i = 0; i < ip->nr_threads; i++)
		pthread_join(ip->cpus[i].tid, NULL);
	ip->nr_threads = 0;
}

int idleprof_init(struct idleprof *ip, enum idleprof_mode mode, char **cause)
{
	long n = sysconf(_SC_NPROCESSORS_CONF), psz = sysconf(_SC_PAGESIZE);
	double sum = 0.0, var = 0.0;
	unsigned i;
	int err = 0;

	memset(ip, 0, sizeof(*ip));
	pthread_mutex_init(&ip->lock, NULL);
	pthread_cond_init(&ip->cond, NULL);
	ip->fig.mode = mode;
	ip->fig.nr_cpus = n > 0 ? (unsigned)n : 1;
	ip->page_size = psz > 0 ? (size_t)psz : 4096;
	ip->cpus = xcalloc(ip->fig.nr_cpus, sizeof(*ip->cpus));
	ip->fig.cpu = xcalloc(ip->fig.nr_cpus, sizeof(*ip->fig.cpu));
	ip->pages = xcalloc(ip->fig.nr_cpus, ip->page_size);
	for (i = 0; i < ip->fig.nr_cpus && !err; i++) {
		ip->cpus[i].ip = ip;
		ip->cpus[i].cpu = i;
		ip->cpus[i].page = ip->pages + (size_t)i * ip->page_size;
		err = pthread_create(&ip->cpus[i].tid, NULL, idle_main, &ip->cpus[i]);
		if (err)
			ip->cpus[i].what = "cannot start a thread for it";
		else
			ip->nr_threads++;
	}
	pthread_mutex_lock(&ip->lock);
	while (ip->ready < ip->nr_threads)
		pthread_cond_wait(&ip->cond, &ip->lock);
	pthread_mutex_unlock(&ip->lock);
	for (i = 0; i < ip->fig.nr_cpus && !err; i++)
		err = ip->cpus[i].err;
	if (err) {
		for (i = 0; !ip->cpus[i].what; i++)
			;
		release(ip, true);
		join_all(ip);
		return set_cause_errno(cause, err, "--idle-prof: CPU %u: %s: %s", i,
				       ip->cpus[i].what, strerror(err));
	}
	for (i = 0; i < ip->fig.nr_cpus; i++)
		sum += ip->cpus[i].unit_us;
	ip->fig.unit_mean = sum / ip->fig.nr_cpus;
	for (i = 0; i < ip->fig.nr_cpus; i++)
		var += (ip->cpus[i].unit_us - ip->fig.unit_mean) *
		       (ip->cpus[i].unit_us - ip->fig.unit_mean);
	/* One CPU has no spread: 0, where fio divides 0 by 0. */
	ip->fig.unit_stddev = ip->fig.nr_cpus > 1 ? sqrt(var / (ip->fig.nr_cpus - 1)) : 0.0;
	if (mode == IDLEPROF_CALIBRATE) {
		release(ip, true);
		join_all(ip);
	}
	return 0;
}

void idleprof_start(struct idleprof *ip)
{
	release(ip, false);
}

void idleprof_stop(struct idleprof *ip)
{
	struct idleprof_cpu *c;
	double sum = 0.0;
	unsigned i;

	if (ip->stopped || !ip->nr_threads)
		return;
	ip->stopped = true;
	atomic_store(&ip->stop, 1);
	release(ip, false);
	join_all(ip);
	for (i = 0; i < ip->fig.nr_cpus; i++) {
		c = &ip->cpus[i];
		/* As fio: whole microseconds of profiling, the mean unit's time. */
		if (c->t1 / 1000 > c->t0 / 1000)
			ip->fig.cpu[i] = 100.0 * c->units * ip->fig.unit_mean /
					 (double)(c->t1 / 1000 - c->t0 / 1000);
		sum += ip->fig.cpu[i];
	}
	ip->fig.system = sum / ip->fig.nr_cpus;
}

void idleprof_free(struct idleprof *ip)
{
	atomic_store(&ip->stop, 1);
	release(ip, true);
	join_all(ip);
	free(ip->cpus);
	free(ip->pages);
	free(ip->fig.cpu);
	pthread_mutex_destroy(&ip->lock);
	pthread_cond_destroy(&ip->cond);
	memset(ip, 0, sizeof(*ip));
}
