/* SPDX-License-Identifier: MIT */
/*
 * The run's clock (fio's clocksource).  cpu reads the TSC and scales it
 * with one multiply: ns = base + (tsc - tsc0) * mult >> 32, mult taken from
 * a calibration against CLOCK_MONOTONIC, and base from the same
 * CLOCK_MONOTONIC, so that times from before and after clock_use() are on
 * one scale (not so gettimeofday's, the wall clock: run_jobs chooses the
 * clock before it reads any time).  Not a general timer library: one
 * clock for the whole run.
 */
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "util/clock.h"
#include "util/runclock.h"

static enum clocksource clock_kind;
static struct {
	uint64_t tsc0, base; /* the TSC and CLOCK_MONOTONIC (ns) at calibration */
	uint64_t mult;	     /* ns per tick, times 2^32 */
} tsc;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t tsc_read(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

bool clock_have_tsc(void)
{
	return true;
}
#else
static inline uint64_t tsc_read(void)
{
	return 0;
}

bool clock_have_tsc(void)
{
	return false;
}
#endif

bool clock_tsc_reliable(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	bool constant = false, nonstop = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break; /* the first CPU's: the flags are the same on every one */
	}
	fclose(f);
	return constant && nonstop;
}

/* A TSC read paired with the CLOCK_MONOTONIC time between the two reads
 * around it; the closest of a few pairs, so that a preemption between
 * the reads does not skew the pair. */
static void tsc_pair(uint64_t *t, uint64_t *ns)
{
	uint64_t best = UINT64_MAX, a, b, c;
	unsigned i;

	for (i = 0; i < 8; i++) {
		a = mono_ns();
		c = tsc_read();
		b = mono_ns();
		if (i == 0 || b - a < best) { /* i == 0: always set */
			best = b - a;
			*t = c;
			*ns = a + (b - a) / 2;
		}
	}
}

/* Two pairs 25 ms apart: an error of ~100 ns at each end is a rate error
 * of a few parts per million, a few us in a second (fio calibrates for
 * about 64 ms, 50 times 1.28 ms). */
static void tsc_calibrate(void)
{
	struct timespec gap = { 0, 25000000 };
	uint64_t t0, n0, t1, n1;

	tsc_pair(&t0, &n0);
	nanosleep(&gap, NULL);
	tsc_pair(&t1, &n1);
	tsc.tsc0 = t1;
	tsc.base = n1;
	tsc.mult = t1 > t0 ? (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0)) : 0;
}

void clock_use(enum clocksource cs)
{
	if (cs == CLOCKSOURCE_CPU && (!clock_have_tsc() || (tsc_calibrate(), !tsc.mult)))
		cs = CLOCKSOURCE_CLOCK_GETTIME; /* no TSC, or one that does not tick */
	clock_kind = cs;
}

enum clocksource clock_in_use(void)
{
	return clock_kind;
}

/* runclock.h's reader, defined here so that a read is one call; the default
 * clock first, with no more than a compare in front of it. */
uint64_t run_now(void)
{
	struct timeval tv;
	uint64_t d;

	if (__builtin_expect(clock_kind == CLOCKSOURCE_CLOCK_GETTIME, 1))
		return mono_ns();
	if (clock_kind == CLOCKSOURCE_GETTIMEOFDAY) {
		gettimeofday(&tv, NULL);
		return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000;
	}
	/* A TSC read on another CPU may be a few ticks behind the
	 * calibration's: never before base. */
	d = tsc_read() - tsc.tsc0;
	if ((int64_t)d < 0)
		d = 0;
	return tsc.base + (uint64_t)(((unsigned __int128)d * tsc.mult) >> 32);
}
