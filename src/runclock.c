/* SPDX-License-Identifier: MIT */
/*
 * The run's clock and its sleep (see runclock.h).  Every wait of a run
 * (rate pacing, thinktime, startdelay, the run's own polling) goes
 * through run_sleep_until, so none can outlive a stop.
 */
#include <stdbool.h>
#include <time.h>

#include "iogauge/runclock.h"

uint64_t run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool flag_set(const volatile sig_atomic_t *f)
{
	return f && *f;
}

uint64_t run_sleep_until(uint64_t until, const volatile sig_atomic_t *stop,
			 const volatile sig_atomic_t *halt)
{
	uint64_t now = run_now();

	while (now < until && !flag_set(stop) && !flag_set(halt)) {
		/* Absolute: an interrupted or late slice loses no time, and
		 * the last one ends at @until, not a slice's rounding later. */
		uint64_t to = until - now > RUN_SLEEP_SLICE ? now + RUN_SLEEP_SLICE : until;
		struct timespec ts = { (time_t)(to / 1000000000ull), (long)(to % 1000000000ull) };

		/* EINTR (a signal's handler ran) only means: look at the flags. */
		(void)clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		now = run_now();
	}
	return now;
}
