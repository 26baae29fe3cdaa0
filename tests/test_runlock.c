/* SPDX-License-Identifier: MIT */
/*
 * Tests of the run's shared lock: a process that dies holding it (ends,
 * or is killed by SIGKILL, also right after waking a waiter) does not
 * hang the next locker, who is told the owner died and gets a lock that
 * works as before.  An alarm ends a test that would hang (a lock that is
 * not robust) as a failure.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/runlock.h"

struct shared {
	pthread_mutex_t m;
	pthread_cond_t cond;
	int woken;
};

static struct shared *shared_make(void)
{
	struct shared *sh =
		mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	assert_true(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	assert_int_equal(runlock_init(&sh->m, &sh->cond), 0);
	return sh;
}

static void shared_drop(struct shared *sh)
{
	runlock_destroy(&sh->m, &sh->cond);
	munmap(sh, sizeof(*sh));
}

/* A child that takes the lock, tells the parent through a pipe, and then
 * either ends (@kill_it false) or waits to be killed with SIGKILL. */
static void holder_dies(struct shared *sh, bool kill_it)
{
	int fds[2], status;
	char c;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		runlock_lock(&sh->m);
		if (write(fds[1], "l", 1) != 1)
			_exit(3);
		if (kill_it)
			for (;;)
				pause();
		_exit(0);
	}
	assert_int_equal(read(fds[0], &c, 1), 1);
	if (kill_it)
		assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(kill_it ? WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL
			    : WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fds[0]);
	close(fds[1]);
}

static void test_owner_ends_holding_it(void **state)
{
	struct shared *sh = shared_make();
	unsigned i;

	(void)state;
	for (i = 0; i < 2; i++) {
		bool kill_it = i == 1;

		holder_dies(sh, kill_it);
		alarm(10);
		assert_true(runlock_lock(&sh->m)); /* the owner died */
		runlock_unlock(&sh->m);
		assert_false(runlock_lock(&sh->m)); /* usable again, nobody died */
		runlock_unlock(&sh->m);
		alarm(0);
	}
	shared_drop(sh);
}

static void test_live_owner_is_waited_for(void **state)
{
	struct shared *sh = shared_make();
	int status;
	pid_t pid;

	(void)state;
	runlock_lock(&sh->m);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* Blocks until the parent lets go; nobody died then. */
		bool died = runlock_lock(&sh->m);

		sh->woken = 1;
		runlock_unlock(&sh->m);
		_exit(died ? 1 : 0);
	}
	usleep(100000);
	assert_int_equal(sh->woken, 0); /* still held by this process */
	runlock_unlock(&sh->m);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(sh->woken, 1);
	shared_drop(sh);
}

static void test_waiter_woken_by_a_dying_owner(void **state)
{
	struct shared *sh = shared_make();
	bool timed_out = true, died = false;
	int status;
	pid_t pid;

	(void)state;
	runlock_lock(&sh->m);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* Gets the lock once the parent waits, wakes it, dies holding it. */
		runlock_lock(&sh->m);
		sh->woken = 1;
		pthread_cond_broadcast(&sh->cond);
		raise(SIGKILL);
		_exit(2);
	}
	alarm(10);
	/* The wake comes with the dead owner's lock. */
	while (!died)
		died = runlock_wait(&sh->cond, &sh->m, NULL, &timed_out);
	assert_int_equal(sh->woken, 1);
	assert_false(timed_out);
	runlock_unlock(&sh->m);
	assert_false(runlock_lock(&sh->m));
	runlock_unlock(&sh->m);
	alarm(0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	shared_drop(sh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_owner_ends_holding_it),
		cmocka_unit_test(test_live_owner_is_waited_for),
		cmocka_unit_test(test_waiter_woken_by_a_dying_owner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
