/* SPDX-License-Identifier: MIT */
/*
 * verify_async: threads of a clone's own that check the blocks it reads
 * back, fed a copy of each through a ring per thread, and what they found
 * merged into the clone's counts when they are joined.  Not the check
 * itself (worker_verify.c's verify_check_block) nor when blocks are read.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "verify/worker_verify_int.h"
#include "run/worker.h"

#define VASYNC_SLOTS 16 /* blocks queued per thread; past that the worker checks */

struct vasync_slot {
	struct io_req req; /* its buf: the thread's copy */
	uint64_t gen, seq;
};

/* One checking thread, fed through a ring of VASYNC_SLOTS (one writer,
 * one reader): the worker owns head, the thread tail; each publishes with
 * release and reads the other's with acquire.  What the thread found is
 * read once it has been joined, or its first mismatch once failed is set. */
struct vasync_thread {
	pthread_t tid;
	struct worker *w;
	sem_t ready; /* posted per block queued, and to stop */
	_Atomic uint32_t head, tail;
	_Atomic int stop, failed;
	struct vasync_slot slot[VASYNC_SLOTS];
	char *bufs; /* VASYNC_SLOTS x buf_size */
	uint64_t verified, bytes, bad, first_seq;
	uint64_t bad_off[VERIFY_LISTED], bad_seq[VERIFY_LISTED];
	unsigned nbad;
	char *first;
	bool started;
};

struct verify_async {
	unsigned n, next;
	uint64_t seq;
	size_t buf_size;
	struct vasync_thread *t;
};

static void *vasync_main(void *arg)
{
	struct vasync_thread *t = arg;

	for (;;) {
		uint32_t tail = atomic_load_explicit(&t->tail, memory_order_relaxed);
		struct vasync_slot *s;
		char *msg;

		if (tail == atomic_load_explicit(&t->head, memory_order_acquire)) {
			if (atomic_load_explicit(&t->stop, memory_order_acquire))
				break;
			while (sem_wait(&t->ready) && errno == EINTR)
				;
			continue;
		}
		s = &t->slot[tail % VASYNC_SLOTS];
		msg = verify_check_block(t->w, &s->req, s->gen);
		if (!msg) {
			t->verified++;
			t->bytes += s->req.len;
		} else {
			if (t->nbad < VERIFY_LISTED) {
				t->bad_off[t->nbad] = s->req.off;
				t->bad_seq[t->nbad++] = s->seq;
			}
			if (t->bad++) {
				free(msg);
			} else {
				t->first = msg;
				t->first_seq = s->seq;
				atomic_store_explicit(&t->failed, 1, memory_order_release);
			}
		}
		atomic_store_explicit(&t->tail, tail + 1, memory_order_release);
	}
	return NULL;
}

/* verify_async_cpus: @attr binds a thread made with it to them, so that
 * it never runs elsewhere.  0, or an errno. */
static int verify_async_pin(const struct worker *w, pthread_attr_t *attr)
{
	const struct job *job = w->job;
	cpu_set_t set;
	unsigned c;

	if (!job->verify_async_cpus.set)
		return 0;
	CPU_ZERO(&set);
	for (c = 0; c < JOB_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (job->verify_async_cpus.mask[c / 64] >> (c % 64) & 1)
			CPU_SET(c, &set);
	return pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

void worker_verify_start(struct worker *w)
{
	const struct job *job = w->job;
	struct verify_async *a;
	pthread_attr_t attr;
	unsigned i;
	int ret;

	if (!job->verify_async || (!w->v.stamp && !w->v.check_reads))
		return;
	a = xcalloc(1, sizeof(*a));
	a->n = job->verify_async;
	a->buf_size = w->buf_size;
	a->t = xcalloc(a->n, sizeof(*a->t));
	w->v.async = a;
	for (i = 0; i < a->n; i++) {
		struct vasync_thread *t = &a->t[i];

		t->w = w;
		sem_init(&t->ready, 0, 0);
		t->bufs = malloc(VASYNC_SLOTS * a->buf_size);
		if (!t->bufs) {
			w->error_no = ENOMEM;
			w->error = xasprintf("[%s] verify_async=%u: cannot allocate %zu bytes of "
					     "copies for checking thread %u: %s",
					     job->name, a->n, VASYNC_SLOTS * a->buf_size, i + 1,
					     strerror(ENOMEM));
			return;
		}
		pthread_attr_init(&attr);
		ret = verify_async_pin(w, &attr);
		if (!ret)
			ret = pthread_create(&t->tid, &attr, vasync_main, t);
		pthread_attr_destroy(&attr);
		if (ret) {
			w->error_no = ret;
			w->error =
				job->verify_async_cpus.set
					? xasprintf("[%s] verify_async_cpus: cannot start checking "
						    "thread %u bound to them: %s",
						    job->name, i + 1, strerror(ret))
					: xasprintf("[%s] verify_async=%u: cannot start checking "
						    "thread %u: %s",
						    job->name, a->n, i + 1, strerror(ret));
			return;
		}
		t->started = true;
		pthread_setname_np(t->tid, "iogauge-verify");
	}
}

bool verify_async_submit(struct worker *w, const struct io_req *req, uint64_t gen)
{
	struct verify_async *a = w->v.async;
	struct vasync_thread *t = &a->t[a->next];
	uint32_t head = atomic_load_explicit(&t->head, memory_order_relaxed);
	struct vasync_slot *s;
	unsigned i;

	/* A thread's mismatch stops the job, as the worker's. */
	for (i = 0; i < a->n && !w->error; i++)
		if (atomic_load_explicit(&a->t[i].failed, memory_order_acquire) &&
		    !verify_passes_over(w->job)) {
			w->error = xstrdup(a->t[i].first);
			w->error_no = EILSEQ;
		}
	a->next = (a->next + 1) % a->n;
	if (head - atomic_load_explicit(&t->tail, memory_order_acquire) == VASYNC_SLOTS)
		return false; /* its ring is full: the worker checks this one */
	s = &t->slot[head % VASYNC_SLOTS];
	s->req = *req;
	s->req.buf = t->bufs + (size_t)(head % VASYNC_SLOTS) * a->buf_size;
	memcpy(s->req.buf, req->buf, req->len);
	s->gen = gen;
	s->seq = a->seq++;
	atomic_store_explicit(&t->head, head + 1, memory_order_release);
	sem_post(&t->ready);
	return true;
}

/* The threads finish what was queued and are joined; what they found
 * joins the worker's: counts, offsets in the order read, the first. */
void verify_async_stop(struct worker *w)
{
	struct verify_async *a = w->v.async;
	uint64_t first_seq = UINT64_MAX, from = 0;
	unsigned i, k, n;
	char *first = NULL;

	if (!a)
		return;
	for (i = 0; i < a->n; i++) {
		struct vasync_thread *t = &a->t[i];

		if (!t->started)
			continue;
		atomic_store_explicit(&t->stop, 1, memory_order_release);
		sem_post(&t->ready);
		pthread_join(t->tid, NULL);
		t->started = false;
		w->stats.verified += t->verified;
		w->stats.verify_bytes += t->bytes;
		if (t->first && t->first_seq < first_seq) {
			first_seq = t->first_seq;
			first = t->first;
		}
	}
	/* The threads' offsets after the worker's own, by the order read. */
	for (n = (unsigned)w->stats.verify_bad; n < VERIFY_LISTED; n++) {
		uint64_t best = UINT64_MAX;
		unsigned bi = 0, bk = 0;

		for (i = 0; i < a->n; i++)
			for (k = 0; k < a->t[i].nbad; k++)
				if (a->t[i].bad_seq[k] >= from && a->t[i].bad_seq[k] < best) {
					best = a->t[i].bad_seq[k];
					bi = i;
					bk = k;
				}
		if (best == UINT64_MAX)
			break;
		w->v.bad_off[n] = a->t[bi].bad_off[bk];
		from = best + 1;
	}
	for (i = 0; i < a->n; i++) {
		w->stats.verify_bad += a->t[i].bad;
		if (a->t[i].first && a->t[i].first == first && !w->v.first)
			w->v.first = first;
		else
			free(a->t[i].first);
		a->t[i].first = NULL;
	}
}

void verify_async_free(struct worker *w)
{
	struct verify_async *a = w->v.async;
	unsigned i;

	if (!a)
		return;
	for (i = 0; i < a->n; i++) {
		free(a->t[i].bufs);
		free(a->t[i].first);
		if (a->t[i].w) /* its semaphore was made */
			sem_destroy(&a->t[i].ready);
	}
	free(a->t);
	free(a);
	w->v.async = NULL;
}
