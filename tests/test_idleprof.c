/* SPDX-License-Identifier: MIT */
/*
 * Tests of --idle-prof's profiler and its report lines: the modes' names,
 * a calibration's figures, a profile's per-CPU figures and their mean,
 * threads that end when never started, and fio's text for each mode.
 * An alarm ends a test that would hang (a thread never released) as a
 * failure.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/report.h"
#include "run/idleprof.h"

static void test_modes(void **state)
{
	enum idleprof_mode m = IDLEPROF_NONE;

	(void)state;
	assert_int_equal(idleprof_mode_of("calibrate", &m), 0);
	assert_int_equal(m, IDLEPROF_CALIBRATE);
	assert_int_equal(idleprof_mode_of("system", &m), 0);
	assert_int_equal(m, IDLEPROF_SYSTEM);
	assert_int_equal(idleprof_mode_of("percpu", &m), 0);
	assert_int_equal(m, IDLEPROF_PERCPU);
	assert_int_equal(idleprof_mode_of("System", &m), -1);
	assert_int_equal(idleprof_mode_of("", &m), -1);
}

/* Init, or a skip when a configured CPU is one this process may not use. */
static void init_or_skip(struct idleprof *ip, enum idleprof_mode mode)
{
	char *cause = NULL;

	if (idleprof_init(ip, mode, &cause) && cause && strstr(cause, "cannot pin")) {
		free(cause);
		skip();
	}
	assert_null(cause);
}

static void test_calibrate(void **state)
{
	struct idleprof ip;

	(void)state;
	alarm(60);
	init_or_skip(&ip, IDLEPROF_CALIBRATE);
	assert_int_equal(ip.fig.nr_cpus, (unsigned)sysconf(_SC_NPROCESSORS_CONF));
	/* A page written a byte at a time: microseconds, not ms or ns. */
	assert_true(ip.fig.unit_mean > 0.05 && ip.fig.unit_mean < 10000.0);
	assert_true(ip.fig.unit_stddev >= 0.0 && isfinite(ip.fig.unit_stddev));
	assert_int_equal(ip.nr_threads, 0); /* calibrate: the threads have ended */
	idleprof_free(&ip);
	alarm(0);
}

static void test_profile(void **state)
{
	struct timespec ts = { 0, 200000000 };
	struct idleprof ip;
	double sum = 0.0;
	unsigned i;

	(void)state;
	alarm(60);
	init_or_skip(&ip, IDLEPROF_PERCPU);
	idleprof_start(&ip);
	nanosleep(&ts, NULL);
	idleprof_stop(&ip);
	for (i = 0; i < ip.fig.nr_cpus; i++) {
		/* Above 100% only when the calibration was slowed. */
		assert_true(ip.fig.cpu[i] >= 0.0 && ip.fig.cpu[i] < 10000.0);
		sum += ip.fig.cpu[i];
	}
	assert_true(fabs(ip.fig.system - sum / ip.fig.nr_cpus) < 1e-9);
	idleprof_stop(&ip); /* once only: the figures stay */
	assert_true(fabs(ip.fig.system - sum / ip.fig.nr_cpus) < 1e-9);
	idleprof_free(&ip);
	alarm(0);
}

/* A run that never started (its set-up failed): the threads still end. */
static void test_never_started(void **state)
{
	struct idleprof ip;

	(void)state;
	alarm(60);
	init_or_skip(&ip, IDLEPROF_SYSTEM);
	idleprof_free(&ip);
	init_or_skip(&ip, IDLEPROF_SYSTEM);
	idleprof_stop(&ip);
	assert_true(ip.fig.system >= 0.0);
	idleprof_free(&ip);
	alarm(0);
}

static void text_is(const struct idleprof_figures *f, const char *want)
{
	struct strbuf sb = { 0 };

	report_idle(f, &sb);
	assert_string_equal(sb.buf, want);
	strbuf_free(&sb);
}

/* fio's lines, for each mode. */
static void test_report_text(void **state)
{
	double cpu[3] = { 97.124, 2.5, 100.0 };
	struct idleprof_figures f = { .mode = IDLEPROF_PERCPU,
				      .nr_cpus = 3,
				      .system = 66.541666,
				      .cpu = cpu,
				      .unit_mean = 11.239,
				      .unit_stddev = 0.0234 };

	(void)state;
	text_is(&f, "\nCPU idleness:\n  system: 66.54%\n  percpu: 97.12%, 2.50%, 100.00%\n"
		    "  unit work: mean=11.24us, stddev=0.02\n");
	f.mode = IDLEPROF_SYSTEM;
	text_is(&f, "\nCPU idleness:\n  system: 66.54%\n  unit work: mean=11.24us, stddev=0.02\n");
	f.mode = IDLEPROF_CALIBRATE;
	text_is(&f, "CPU idleness:\n  unit work: mean=11.24us, stddev=0.02\n");
	f.mode = IDLEPROF_PERCPU;
	f.nr_cpus = 1;
	text_is(&f, "\nCPU idleness:\n  system: 66.54%\n  percpu: 97.12%\n"
		    "  unit work: mean=11.24us, stddev=0.02\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),	    cmocka_unit_test(test_calibrate),
		cmocka_unit_test(test_profile),	    cmocka_unit_test(test_never_started),
		cmocka_unit_test(test_report_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
