/* SPDX-License-Identifier: MIT */
/*
 * The parent's threads and fork(): a clone process is forked from a
 * parent that may be running other threads of its own (the status
 * reporter, the live status, the steady-state watch, --trigger).  A fork
 * taken while one of them holds a lock leaves that lock held in the child
 * by a thread the child does not have.  glibc's malloc guards its arenas
 * across fork; the sanitizers' allocator (clang 14) does not, and a new
 * thread allocates while it starts: CI's ASan build saw a clone hang at
 * exit, its checking threads waiting for an allocator lock forever.  So:
 * those threads are started only through forkgate_thread, which returns
 * once the thread runs its own function, and they hold the gate while they
 * work (report, sum, judge); clones are forked through forkgate_fork.
 */
#ifndef IOGAUGE_FORKGATE_H
#define IOGAUGE_FORKGATE_H

#include <pthread.h>
#include <sys/types.h>

/* pthread_create, returning (0, or its error) once @fn has been entered. */
int forkgate_thread(pthread_t *tid, void *(*fn)(void *), void *arg);

/* A parent thread's working section: no clone is forked during it. */
void forkgate_hold(void);
void forkgate_release(void);

/* fork() with no working section under way; as fork() returns. */
pid_t forkgate_fork(void);

#endif
