/* SPDX-License-Identifier: MIT */
#ifndef IOGAUGE_RUN_TRIGGER_H
#define IOGAUGE_RUN_TRIGGER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * --trigger-file and --trigger-timeout: a thread that looks every 100 ms,
 * as fio's main loop does.  When the file is there (it is removed) or the
 * time has passed since the run started, the run stops as on Ctrl-C, but
 * its exit status is the run's own, and the --trigger command runs.
 */
/* *stop's value when a trigger fired (no signal's number): each clone
 * saves its verify state as it ends, as fio saves every job's. */
#define TRIGGER_STOP 0x10000

struct trigger {
	const char *file; /* --trigger-file; NULL: none */
	uint64_t timeout; /* --trigger-timeout, ns; 0: none */
	const char *cmd;  /* --trigger; NULL: none */
	atomic_int *stop; /* the run's stop, set to TRIGGER_STOP when one fires */
	uint64_t t0;	  /* ns, run_now() at the run's start */
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool quit;
	atomic_bool fired;
};

/* Starts the thread when a file or a timeout is given: true when it
 * runs (then trigger_stop must follow). */
bool trigger_start(struct trigger *tg, const char *file, uint64_t timeout, const char *cmd,
		   atomic_int *stop);
/* Ends the thread, whether it fired or not. */
void trigger_stop(struct trigger *tg);

#endif
