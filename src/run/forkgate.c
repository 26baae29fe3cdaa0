/* SPDX-License-Identifier: MIT */
/*
 * forkgate: one mutex between the parent's helper threads and the fork of
 * each clone, and a thread start that waits until the thread is running.
 * Not on the I/O path: clones start, and helpers wake a few times a second.
 */
#include <semaphore.h>
#include <unistd.h>

#include "run/forkgate.h"

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;

struct start {
	void *(*fn)(void *);
	void *arg;
	sem_t running;
};

static void *trampoline(void *p)
{
	struct start *s = p;
	void *(*fn)(void *) = s->fn;
	void *arg = s->arg;

	sem_post(&s->running); /* s is the creator's: not touched after this */
	return fn(arg);
}

int forkgate_thread(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	struct start s = { .fn = fn, .arg = arg };
	int ret;

	sem_init(&s.running, 0, 0);
	ret = pthread_create(tid, NULL, trampoline, &s);
	if (!ret)
		while (sem_wait(&s.running))
			;
	sem_destroy(&s.running);
	return ret;
}

void forkgate_hold(void)
{
	pthread_mutex_lock(&gate);
}

void forkgate_release(void)
{
	pthread_mutex_unlock(&gate);
}

pid_t forkgate_fork(void)
{
	pid_t pid;

	pthread_mutex_lock(&gate);
	pid = fork();
	/* In the child too: its one thread is the one that locked it. */
	pthread_mutex_unlock(&gate);
	return pid;
}
