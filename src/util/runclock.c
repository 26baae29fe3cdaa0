/* SPDX-License-Identifier: MIT */
/*
 * The run's sleep (see runclock.h; run_now, the clock, is in clock.c).
 * Every wait of a run (rate pacing, thinktime, startdelay, the run's own
 * polling) goes through run_sleep_until, so none can outlive a stop.
 */
#include <stdbool.h>
#include <time.h>

#include "util/runclock.h"

static bool flag_set(const atomic_int *f)
{
	return f && atomic_load_explicit(f, memory_order_relaxed);
}

uint64_t run_sleep_until(uint64_t until, const atomic_int *stop, const atomic_int *halt)
{
	uint64_t now = run_now();

	while (now < until && !flag_set(stop) && !flag_set(halt)) {
		/* Relative, from a fresh reading each slice: run_now() may be
		 * the TSC or gettimeofday (clocksource), not CLOCK_MONOTONIC's
		 * scale, and an interrupted or late slice still loses no time. */
		uint64_t ns = until - now > RUN_SLEEP_SLICE ? RUN_SLEEP_SLICE : until - now;
		struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

		/* EINTR (a signal's handler ran) only means: look at the flags. */
		(void)clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		now = run_now();
	}
	return now;
}
