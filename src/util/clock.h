/* SPDX-License-Identifier: MIT */
/*
 * The clock every time in a run is read from, fio's clocksource:
 * CLOCK_MONOTONIC (clock_gettime, the default), gettimeofday, or the CPU's
 * time-stamp counter scaled to ns by a calibration against
 * CLOCK_MONOTONIC (cpu).  One for the whole run, as fio's is global; the
 * readers are run_now() and its users, never a second clock.
 */
#ifndef IOGAUGE_CLOCK_H
#define IOGAUGE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

enum clocksource { CLOCKSOURCE_CLOCK_GETTIME, CLOCKSOURCE_GETTIMEOFDAY, CLOCKSOURCE_CPU };

/* Whether this build can read a TSC at all (x86). */
bool clock_have_tsc(void);
/* Whether /proc/cpuinfo says the TSC runs at one rate in every power
 * state (constant_tsc and nonstop_tsc): fio's "reliable". */
bool clock_tsc_reliable(void);
/* Makes @cs the clock of run_now(); cpu calibrates first (about 25 ms). */
void clock_use(enum clocksource cs);
enum clocksource clock_in_use(void);

#endif
