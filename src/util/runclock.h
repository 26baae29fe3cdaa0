/* SPDX-License-Identifier: MIT */
/*
 * The run's clock, CLOCK_MONOTONIC in ns, and the one way a run sleeps on
 * it: in slices, so that a stop (Ctrl-C, exitall) ends any wait within a
 * slice.  Not a timer: nothing here runs on its own.
 */
#ifndef IOGAUGE_RUNCLOCK_H
#define IOGAUGE_RUNCLOCK_H

#include <stdatomic.h>
#include <stdint.h>

/* ns: the longest a sleeper goes without looking at its stop flags. */
#define RUN_SLEEP_SLICE 10000000ull

/* Now, in ns, from the run's clock: CLOCK_MONOTONIC unless the job says
 * clocksource= (clock.h; defined in clock.c). */
uint64_t run_now(void);

/*
 * Sleeps until @until (ns, run_now's clock), or until *@stop or *@halt is
 * set (either may be NULL), whichever is first; a flag set while it sleeps
 * is seen within RUN_SLEEP_SLICE.  Callers with a deadline pass the
 * earlier of it and their wake time.  Returns run_now() as it ends.
 */
uint64_t run_sleep_until(uint64_t until, const atomic_int *stop, const atomic_int *halt);

#endif
