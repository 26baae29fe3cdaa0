/* SPDX-License-Identifier: MIT */
/*
 * Running a set of jobs: every clone set up before any I/O (files laid
 * out, O_DIRECT checked, buffers allocated), then the clones started in
 * stonewall batches, each batch released together through a gate, with
 * wait_for and startdelay honoured, and the results collected.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iogauge/run.h"
#include "iogauge/worker.h"

struct ctl {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool open;	/* the gate of the current batch */
	unsigned *left; /* per job: clones not yet finished */
};

struct slot {
	struct worker w;
	struct ctl *ctl;
	const struct job *jobs;
	unsigned job;
	unsigned wait_job; /* index of wait_for's job, or ~0u */
	pthread_t tid;
	bool running;
};

uint64_t run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sleeps @ns, waking early when *stop is set. */
static void nap(uint64_t ns, volatile sig_atomic_t *stop)
{
	uint64_t end = run_now() + ns;
	struct timespec step = { 0, 10000000 };

	while (!*stop && run_now() < end)
		nanosleep(&step, NULL);
}

static void *slot_main(void *arg)
{
	struct slot *s = arg;
	struct ctl *c = s->ctl;
	const struct job *job = s->w.job;

	pthread_mutex_lock(&c->lock);
	while (!c->open)
		pthread_cond_wait(&c->cond, &c->lock);
	while (s->wait_job != ~0u && c->left[s->wait_job] && !*s->w.stop)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	if (job->startdelay_max) {
		struct rng r;

		rng_seed(&r, job->randseed + s->w.clone);
		nap(job->startdelay_min +
			    rng_below(&r, job->startdelay_max - job->startdelay_min + 1),
		    s->w.stop);
	}
	if (!*s->w.stop)
		worker_run(&s->w);
	pthread_mutex_lock(&c->lock);
	c->left[s->job]--;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

static unsigned find_job(const struct job *jobs, unsigned before, const char *name)
{
	unsigned i;

	for (i = 0; i < before; i++)
		if (!strcmp(jobs[i].name, name))
			return i;
	return ~0u;
}

/* Starts slots [from, to) behind a closed gate, then opens it. */
static int start_batch(struct slot *slots, unsigned from, unsigned to, struct ctl *c, char **cause)
{
	unsigned i;
	int ret;

	pthread_mutex_lock(&c->lock);
	c->open = false;
	pthread_mutex_unlock(&c->lock);
	for (i = from; i < to; i++) {
		ret = pthread_create(&slots[i].tid, NULL, slot_main, &slots[i]);
		if (ret) {
			set_cause(cause, "cannot start a worker thread: %s", strerror(ret));
			/* The clones already started end at once when the gate opens. */
			*slots[from].w.stop = 1;
			break;
		}
		slots[i].running = true;
	}
	pthread_mutex_lock(&c->lock);
	c->open = true;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return i == to ? 0 : -ret;
}

static void join_all(struct slot *slots, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (slots[i].running)
			pthread_join(slots[i].tid, NULL);
		slots[i].running = false;
	}
}

/*
 * Options this version parses and checks but does not yet act on at run
 * time.  A job that sets one is refused rather than run as if it had not.
 */
static const char *const not_run_yet[] = {
	"buffer_compress_percentage",
	"continue_on_error",
	"cpus_allowed",
	"create_on_open",
	"random_distribution",
	"rate",
	"rate_iops",
	"refill_buffers",
	"thinktime",
	"verify",
	"write_bw_log",
	"write_hist_log",
	"write_iops_log",
	"write_lat_log",
};

static int check_runnable(const struct job *job, char **cause)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(not_run_yet); i++)
		if (!job_option_is_default(job, not_run_yet[i]))
			return set_cause(cause,
					 "[%s] %s is read and checked, but this version of iogauge "
					 "does not run it yet; remove it to run the job without it",
					 job->name, not_run_yet[i]);
	if (job->rw_rand_nr > 1)
		return set_cause(cause,
				 "[%s] rw=...:%u (I/Os per random offset) is read and checked, but "
				 "this version of iogauge does not run it yet",
				 job->name, job->rw_rand_nr);
	return 0;
}

int run_jobs(const struct job *jobs, unsigned nr, volatile sig_atomic_t *stop, struct run *out,
	     char **cause)
{
	struct ctl c = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
	unsigned i, k, n = 0, ready = 0, batch = 0, group = 0;
	struct slot *slots;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nr; i++)
		n += jobs[i].numjobs;
	slots = xcalloc(n, sizeof(*slots));
	c.left = xcalloc(nr, sizeof(*c.left));
	out->results = xcalloc(n, sizeof(*out->results));
	out->nr = n;
	for (i = 0; i < nr && !ret; i++)
		ret = check_runnable(&jobs[i], cause);
	/* Everything that can fail, for every clone, before any I/O. */
	for (i = 0, n = 0; i < nr && !ret; i++) {
		if (i && (jobs[i].stonewall || jobs[i].new_group))
			group++;
		c.left[i] = jobs[i].numjobs;
		for (k = 0; k < jobs[i].numjobs && !ret; k++, n++) {
			struct run_result *r = &out->results[n];

			slots[n].ctl = &c;
			slots[n].job = i;
			slots[n].wait_job =
				jobs[i].wait_for ? find_job(jobs, i, jobs[i].wait_for) : ~0u;
			ret = worker_setup(&slots[n].w, &jobs[i], k, stop, cause);
			if (!ret)
				ready++;
			r->job = &jobs[i];
			r->job_index = i;
			r->clone = k;
			r->group = group;
			r->engine = slots[n].w.eng.ops ? slots[n].w.eng.ops->name : "?";
			r->depth = slots[n].w.eng.depth;
		}
	}
	if (ret)
		goto out;
	/* stonewall: a job waits for every job before it. */
	for (i = 0, n = 0; i < nr && !ret; i++) {
		if (i && jobs[i].stonewall) {
			ret = start_batch(slots, batch, n, &c, cause);
			join_all(slots, n);
			batch = n;
			if (*stop)
				break;
		}
		n += jobs[i].numjobs;
	}
	if (!ret && !*stop)
		ret = start_batch(slots, batch, n, &c, cause);
	join_all(slots, out->nr);
	out->interrupted = *stop != 0;
	for (i = 0; i < out->nr; i++) {
		out->results[i].stats = slots[i].w.stats;
		out->results[i].error = slots[i].w.error;
		slots[i].w.error = NULL;
	}
out:
	/* A run that could not start leaves no file it created behind. */
	for (i = 0; i < ready; i++)
		worker_cleanup(&slots[i].w, ret || slots[i].w.job->unlink);
	if (ret)
		run_free(out);
	free(slots);
	free(c.left);
	return ret;
}

void run_free(struct run *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++)
		free(r->results[i].error);
	free(r->results);
	memset(r, 0, sizeof(*r));
}
