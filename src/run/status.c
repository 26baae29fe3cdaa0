/* SPDX-License-Identifier: MIT */
/* Full reports while the jobs run (see status.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "run/forkgate.h"
#include "run/status.h"
#include "util/util.h"

/* How long the thread waits for the clones' answers: one in a long
 * sleep (thinktime, a rate's gap) or a slow I/O is reported as it last
 * answered.  0.5 s: at 0.1 s a clone on a loaded machine (load 17, 2
 * CPUs) missed the first report of status_interval.py now and then. */
#define STATUS_ANSWER_NS 500000000ull
/* How often the dump file is looked for, as fio's main loop does. */
#define STATUS_POLL_NS 100000000ull
/* How often the thread looks whether the first clone has started. */
#define STATUS_START_NS 10000000ull

uint64_t status_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

char *status_dump_path(void)
{
	const char *dir = getenv("TMPDIR");

	if (!dir || !*dir)
		dir = getenv("TEMP");
	if (!dir || !*dir || strlen(dir) >= PATH_MAX)
		dir = "/tmp";
	return xasprintf("%s/fio-dump-status", dir);
}

struct status_area *status_area_new(unsigned n)
{
	size_t len = sizeof(struct status_area) + (size_t)n * sizeof(struct status_slot);
	struct status_area *a;
	void *p;

	/* Reserved as it is touched: a clone's copies use a few pages of it. */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1,
		 0);
	if (p == MAP_FAILED)
		return NULL;
	a = p;
	a->n = n;
	a->len = len;
	return a;
}

void status_area_free(struct status_area *a)
{
	if (a)
		munmap(a, a->len);
}

void status_begin(struct status_area *a, unsigned i)
{
	/* Read by the thread only once running is set (after it). */
	a->slot[i].began = status_clock();
}

uint32_t status_answer(struct status_area *a, unsigned i, const struct run_stats *st,
		       const char *name, unsigned depth, uint64_t t_start, bool fin)
{
	struct status_slot *s = &a->slot[i];
	uint32_t req = atomic_load_explicit(&a->req, memory_order_acquire);

	if (fin) {
		/* Written once, read only after the flag; the engine, depth
		 * and start are the loop's first answer's. */
		stats_snap_put(&s->fin, st);
		s->finished = status_clock();
		atomic_store_explicit(&s->ended, 1, memory_order_release);
		return req;
	}
	/* The thread reads the live copy only between this answer and its
	 * next request: never while it is written. */
	stats_snap_put(&s->live, st);
	s->engine = name;
	s->depth = depth;
	s->t_start = t_start;
	atomic_store_explicit(&s->answered, req, memory_order_release);
	atomic_store_explicit(&s->running, 1, memory_order_release);
	return req;
}

/* Each clone's latest stats into sr->last[]: asked for, awaited a while. */
static void gather(struct status_reporter *sr)
{
	struct status_area *a = sr->area;
	uint32_t req = atomic_load_explicit(&a->req, memory_order_relaxed) + 1;
	uint64_t until;
	unsigned i, left;
	bool *got = xcalloc(a->n ? a->n : 1, sizeof(*got));

	if (!req) /* 0 is "never answered" */
		req = 1;
	atomic_store_explicit(&a->req, req, memory_order_release);
	until = status_clock() + STATUS_ANSWER_NS;
	for (;;) {
		for (i = 0, left = 0; i < a->n; i++) {
			struct status_slot *s = &a->slot[i];

			if (got[i])
				continue;
			if (atomic_load_explicit(&s->ended, memory_order_acquire)) {
				stats_snap_get(&sr->last[i], &s->fin);
				got[i] = true;
			} else if (atomic_load_explicit(&s->answered, memory_order_acquire) ==
				   req) {
				stats_snap_get(&sr->last[i], &s->live);
				got[i] = true;
			} else if (atomic_load_explicit(&s->running, memory_order_acquire)) {
				left++; /* running: its answer is awaited */
			}
			if (got[i] && s->engine) {
				sr->snap.results[i].engine = s->engine;
				sr->snap.results[i].depth = s->depth;
				sr->snap.results[i].t_start = s->t_start;
			}
		}
		if (!left || status_clock() >= until)
			break;
		forkgate_release(); /* clones may start while it waits */
		usleep(1000);
		forkgate_hold();
	}
	free(got);
}

/* One report of everything so far. */
static void report_now(struct status_reporter *sr)
{
	struct disk_set disks = { 0 };
	const struct run *run = sr->run;
	unsigned i;

	forkgate_hold();
	gather(sr);
	for (i = 0; i < sr->snap.nr; i++)
		sr->snap.results[i].stats = sr->last[i];
	if (run->disks.n) {
		disks.v = xcalloc(run->disks.n, sizeof(*disks.v));
		disks.n = run->disks.n;
		memcpy(disks.v, run->disks.v, run->disks.n * sizeof(*disks.v));
		(void)disks_snapshot(&disks, true);
	}
	sr->snap.disks = disks;
	sr->snap.duration = run_now() - run->t_start;
	/* Its time is the report's, as fio's. */
	sr->snap.epoch_ms = run->epoch_ms + (int64_t)(sr->snap.duration / 1000000);
	sr->watch->report(&sr->snap, sr->watch->report_arg);
	sr->snap.disks.v = NULL;
	sr->snap.disks.n = 0;
	disks_free(&disks);
	forkgate_release();
}

/* The dump file is there: removed, and a report is due (fio's). */
static bool dump_asked(const char *path)
{
	struct stat sb;

	return path && !stat(path, &sb) && !unlink(path);
}

/* When the first clone that has started its I/O loop began its job's
 * time (the intervals count from then); 0 before any has. */
static uint64_t status_started(const struct status_area *a)
{
	uint64_t first = 0;
	unsigned i;

	for (i = 0; i < a->n; i++)
		if (atomic_load_explicit(&a->slot[i].running, memory_order_acquire) &&
		    a->slot[i].began && (!first || a->slot[i].began < first))
			first = a->slot[i].began;
	return first;
}

/* When the last clone that started ended, once none that started is
 * still running; 0 while one is (or none started). */
static uint64_t status_ended(const struct status_area *a)
{
	uint64_t last = 0;
	unsigned i;

	for (i = 0; i < a->n; i++) {
		if (!atomic_load_explicit(&a->slot[i].running, memory_order_acquire))
			continue;
		if (!atomic_load_explicit(&a->slot[i].ended, memory_order_acquire))
			return 0;
		if (a->slot[i].finished > last)
			last = a->slot[i].finished;
	}
	return last;
}

/* A periodic report is due: its time has come, before the clones that
 * started have all ended (their last stats are the final report's). */
static bool status_due(const struct status_reporter *sr, uint64_t now)
{
	uint64_t end;

	if (!sr->next || now < sr->next)
		return false;
	end = status_ended(sr->area);
	return !end || sr->next <= end;
}

static void *status_main(void *arg)
{
	struct status_reporter *sr = arg;
	uint64_t now, wake, began, every = sr->watch->report_every;
	struct timespec ts;
	bool poked;

	while (!atomic_load(&sr->quit)) {
		now = status_clock();
		wake = sr->next ? sr->next : UINT64_MAX;
		if (sr->watch->dump_file && wake - now > STATUS_POLL_NS)
			wake = now + STATUS_POLL_NS;
		/* Until the first clone starts: looked for every 10 ms. */
		if (every && !sr->next && wake - now > STATUS_START_NS)
			wake = now + STATUS_START_NS;
		ts.tv_sec = (time_t)(wake / 1000000000ull);
		ts.tv_nsec = (long)(wake % 1000000000ull);
		if (wake == UINT64_MAX)
			poked = !sem_wait(sr->wake);
		else
			poked = !sem_clockwait(sr->wake, CLOCK_MONOTONIC, &ts);
		if (atomic_load(&sr->quit))
			break;
		now = status_clock();
		if (every && !sr->next && (began = status_started(sr->area)))
			sr->next = began + every;
		if (status_due(sr, now)) {
			/* A report per interval, a late one at once, so that a
			 * loaded machine gets as many; one more than ten
			 * intervals behind starts the count again from now. */
			sr->next += every;
			if (now > sr->next + 10 * every)
				sr->next = now + every;
			report_now(sr);
		} else if (poked || dump_asked(sr->watch->dump_file)) {
			report_now(sr);
		}
	}
	return NULL;
}

bool status_start(struct status_reporter *sr, const struct run_watch *watch,
		  struct status_area *area, const struct run *run)
{
	unsigned i;

	memset(sr, 0, sizeof(*sr));
	if (!watch || !watch->report || !area)
		return false;
	sr->watch = watch;
	sr->area = area;
	sr->run = run;
	/* sr->next stays 0 until the first clone starts its I/O: the
	 * intervals count from then (fio's from before its set-up). */
	sr->last = xcalloc(run->nr ? run->nr : 1, sizeof(*sr->last));
	for (i = 0; i < run->nr; i++)
		stats_init(&sr->last[i]);
	sr->snap = *run;
	sr->snap.results = xcalloc(run->nr ? run->nr : 1, sizeof(*sr->snap.results));
	for (i = 0; i < run->nr; i++) {
		struct run_result *r = &sr->snap.results[i];

		r->job = run->results[i].job;
		r->job_index = run->results[i].job_index;
		r->clone = run->results[i].clone;
		r->group = run->results[i].group;
		r->engine = run->results[i].engine ? run->results[i].engine : "?";
		r->depth = run->results[i].depth;
	}
	sr->snap.interrupted = false;
	sr->snap.steady = NULL;
	sr->snap.idle = NULL; /* --idle-prof's figures are the run's end's */
	sr->wake = watch->report_now;
	if (!sr->wake) {
		sem_init(&sr->own, 0, 0);
		sr->wake = &sr->own;
	}
	if (forkgate_thread(&sr->tid, status_main, sr)) {
		if (sr->wake == &sr->own)
			sem_destroy(&sr->own);
		free(sr->snap.results);
		free(sr->last);
		return false;
	}
	/* Told apart from the workers in ps and /proc. */
	pthread_setname_np(sr->tid, "iogauge-status");
	return true;
}

void status_stop(struct status_reporter *sr)
{
	uint64_t began;
	unsigned i;

	atomic_store(&sr->quit, true);
	sem_post(sr->wake);
	pthread_join(sr->tid, NULL);
	/* An interval that ended before the jobs did still gets its report
	 * (the first too, of jobs that ended before the thread saw them). */
	if (sr->watch->report_every && !sr->next && (began = status_started(sr->area)))
		sr->next = began + sr->watch->report_every;
	if (status_due(sr, status_clock()))
		report_now(sr);
	if (sr->wake == &sr->own)
		sem_destroy(&sr->own);
	for (i = 0; i < sr->snap.nr; i++)
		stats_free(&sr->last[i]);
	free(sr->last);
	free(sr->snap.results);
}
