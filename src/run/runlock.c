/* SPDX-License-Identifier: MIT */
/*
 * The run's shared lock (see runlock.h): PTHREAD_MUTEX_ROBUST, so that
 * EOWNERDEAD, not a hang, is what the next locker meets when a clone's
 * process was killed holding it; pthread_mutex_consistent makes it
 * usable again.
 */
#include <errno.h>

#include "run/runlock.h"

int runlock_init(pthread_mutex_t *m, pthread_cond_t *cond)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	int ret;

	pthread_mutexattr_init(&ma);
	ret = pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	if (!ret)
		ret = pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	if (!ret)
		ret = pthread_mutex_init(m, &ma);
	pthread_mutexattr_destroy(&ma);
	if (ret)
		return ret;
	pthread_condattr_init(&ca);
	ret = pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	if (!ret)
		ret = pthread_cond_init(cond, &ca);
	pthread_condattr_destroy(&ca);
	if (ret)
		pthread_mutex_destroy(m);
	return ret;
}

void runlock_destroy(pthread_mutex_t *m, pthread_cond_t *cond)
{
	pthread_cond_destroy(cond);
	pthread_mutex_destroy(m);
}

/* @ret from a lock or wait: true when it was EOWNERDEAD, after making
 * the mutex consistent (held now). */
static bool owner_died(pthread_mutex_t *m, int ret)
{
	if (ret != EOWNERDEAD)
		return false;
	pthread_mutex_consistent(m);
	return true;
}

bool runlock_lock(pthread_mutex_t *m)
{
	return owner_died(m, pthread_mutex_lock(m));
}

void runlock_unlock(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
}

bool runlock_wait(pthread_cond_t *cond, pthread_mutex_t *m, const struct timespec *until,
		  bool *timed_out)
{
	int ret = until ? pthread_cond_timedwait(cond, m, until) : pthread_cond_wait(cond, m);

	if (timed_out)
		*timed_out = ret == ETIMEDOUT;
	return owner_died(m, ret);
}
