/* SPDX-License-Identifier: MIT */
/*
 * --trigger-file, --trigger-timeout and --trigger: the thread that watches
 * for them while the run lasts (see trigger.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "run/forkgate.h"
#include "run/run.h"
#include "run/trigger.h"

static bool due(struct trigger *tg)
{
	struct stat sb;

	if (tg->file && !stat(tg->file, &sb)) {
		if (unlink(tg->file) < 0)
			fprintf(stderr, "iogauge: --trigger-file %s: cannot remove it: %s\n",
				tg->file, strerror(errno));
		return true;
	}
	return tg->timeout && run_now() - tg->t0 >= tg->timeout;
}

static void *watch_main(void *arg)
{
	struct trigger *tg = arg;
	struct timespec until;
	int ret;

	pthread_mutex_lock(&tg->lock);
	while (!tg->quit) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!tg->quit &&
		       pthread_cond_timedwait(&tg->cond, &tg->lock, &until) != ETIMEDOUT)
			;
		if (tg->quit || !due(tg))
			continue;
		atomic_store(&tg->fired, true);
		if (!*tg->stop)
			*tg->stop = TRIGGER_STOP;
		pthread_mutex_unlock(&tg->lock);
		if (tg->cmd) {
			fflush(NULL);
			ret = system(tg->cmd);
			if (ret == -1)
				fprintf(stderr, "iogauge: --trigger %s: cannot run it: %s\n",
					tg->cmd, strerror(errno));
		}
		pthread_mutex_lock(&tg->lock);
		break;
	}
	pthread_mutex_unlock(&tg->lock);
	return NULL;
}

bool trigger_start(struct trigger *tg, const char *file, uint64_t timeout, const char *cmd,
		   atomic_int *stop)
{
	memset(tg, 0, sizeof(*tg));
	tg->file = file;
	tg->timeout = timeout;
	tg->cmd = cmd;
	tg->stop = stop;
	tg->t0 = run_now();
	if (!file && !timeout)
		return false;
	pthread_mutex_init(&tg->lock, NULL);
	pthread_cond_init(&tg->cond, NULL);
	if (forkgate_thread(&tg->tid, watch_main, tg)) {
		pthread_cond_destroy(&tg->cond);
		pthread_mutex_destroy(&tg->lock);
		return false;
	}
	return true;
}

void trigger_stop(struct trigger *tg)
{
	pthread_mutex_lock(&tg->lock);
	tg->quit = true;
	pthread_cond_signal(&tg->cond);
	pthread_mutex_unlock(&tg->lock);
	pthread_join(tg->tid, NULL);
	pthread_cond_destroy(&tg->cond);
	pthread_mutex_destroy(&tg->lock);
}
