/* SPDX-License-Identifier: MIT */
/*
 * Tests of run_sleep_until, the one sleep of a run: it sleeps to its
 * time and not less (a signal's EINTR does not cut it short), and a stop
 * or halt flag, set before or while it sleeps, ends it within a slice
 * however far its time is.  Bounds are generous: a loaded machine makes a
 * sleep late, never early.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/runclock.h"
#include "util/util.h"

#define MS 1000000ull

static atomic_int flags[2];

static void test_sleeps_to_its_time(void **state)
{
	static const uint64_t ms[] = { 0, 1, 15, 35 };
	unsigned i;

	(void)state;
	flags[0] = flags[1] = 0;
	for (i = 0; i < ARRAY_SIZE(ms); i++) {
		uint64_t until = run_now() + ms[i] * MS;
		uint64_t end = run_sleep_until(until, &flags[0], &flags[1]);

		assert_true(end >= until);
		assert_true(end < until + 500 * MS);
		assert_true(end <= run_now());
	}
	/* A time already past, and no flags at all. */
	assert_true(run_sleep_until(run_now() - 1, NULL, NULL) <= run_now());
	assert_true(run_sleep_until(run_now() + 12 * MS, NULL, NULL) > 0);
}

static void test_flag_already_set(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < 2; i++) {
		uint64_t t0 = run_now();

		flags[0] = flags[1] = 0;
		flags[i] = 1;
		assert_true(run_sleep_until(t0 + 60000 * MS, &flags[0], &flags[1]) - t0 < 500 * MS);
	}
	flags[0] = flags[1] = 0;
}

struct setter {
	atomic_int *flag; /* set after delay; NULL: a signal instead */
	pthread_t sleeper;
	uint64_t delay; /* ns */
	unsigned signals;
};

static void *set_later(void *arg)
{
	struct setter *s = arg;
	unsigned i;

	run_sleep_until(run_now() + s->delay, NULL, NULL);
	if (s->flag)
		*s->flag = 1;
	for (i = 0; i < s->signals; i++) {
		pthread_kill(s->sleeper, SIGUSR1);
		run_sleep_until(run_now() + 5 * MS, NULL, NULL);
	}
	return NULL;
}

/* A flag set while the sleeper is deep in a 60 s sleep ends it. */
static void test_flag_set_while_asleep(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct setter s = { .flag = &flags[i], .delay = 50 * MS };
		uint64_t t0 = run_now(), end;
		pthread_t t;

		flags[0] = flags[1] = 0;
		assert_int_equal(pthread_create(&t, NULL, set_later, &s), 0);
		end = run_sleep_until(t0 + 60000 * MS, &flags[0], &flags[1]);
		pthread_join(t, NULL);
		assert_true(end - t0 >= 50 * MS);
		assert_true(end - t0 < 1500 * MS);
	}
	flags[0] = flags[1] = 0;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* Signals whose handlers set no flag interrupt the sleep, not end it. */
static void test_signal_does_not_cut_it_short(void **state)
{
	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	struct setter s = { .sleeper = pthread_self(), .delay = 5 * MS, .signals = 8 };
	uint64_t until = run_now() + 120 * MS;
	pthread_t t;

	(void)state;
	flags[0] = flags[1] = 0;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	assert_int_equal(pthread_create(&t, NULL, set_later, &s), 0);
	assert_true(run_sleep_until(until, &flags[0], &flags[1]) >= until);
	pthread_join(t, NULL);
	sigaction(SIGUSR1, &old, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleeps_to_its_time),
		cmocka_unit_test(test_flag_already_set),
		cmocka_unit_test(test_flag_set_while_asleep),
		cmocka_unit_test(test_signal_does_not_cut_it_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
