/* SPDX-License-Identifier: MIT */
/*
 * The lock the run's process and its clones' processes share: a
 * process-shared mutex that is robust, so that a clone killed while it
 * holds the lock does not hang the run.  The next locker is told that the
 * owner died and repairs what the lock guards.  Not a general lock
 * library: one mutex, one condition, the calls the run makes.
 */
#ifndef IOGAUGE_RUNLOCK_H
#define IOGAUGE_RUNLOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <time.h>

/* @m robust and process-shared, @cond process-shared (both in memory the
 * processes share).  0, or an error number from pthread_*_init. */
int runlock_init(pthread_mutex_t *m, pthread_cond_t *cond);
void runlock_destroy(pthread_mutex_t *m, pthread_cond_t *cond);
/* Locks @m.  True when its owner died holding it: the lock is held and
 * usable again, and the caller must repair the state it guards. */
bool runlock_lock(pthread_mutex_t *m);
void runlock_unlock(pthread_mutex_t *m);
/* pthread_cond_wait (@until NULL) or pthread_cond_timedwait (CLOCK_REALTIME)
 * on @cond with @m held.  *@timed_out (when not NULL) says whether the
 * time passed.  True, as runlock_lock, when @m's owner died holding it. */
bool runlock_wait(pthread_cond_t *cond, pthread_mutex_t *m, const struct timespec *until,
		  bool *timed_out);

#endif
