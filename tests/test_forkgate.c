/* SPDX-License-Identifier: MIT */
/*
 * run/forkgate.c: a clone is not forked while a helper thread holds the
 * gate (a bare fork() does not wait: this fails).  forkgate_thread's half,
 * that a thread has finished starting when it returns, is not observable
 * from outside without a race (the thread can run its start-up and not
 * yet its function); verify_opts' strace runs under ASan, which hung 1 in
 * 6 without it, are its check.
 */
#include <pthread.h>
#include <semaphore.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/forkgate.h"

static atomic_int released;
static sem_t held;

static void *holds(void *arg)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	(void)arg;
	forkgate_hold();
	sem_post(&held);
	nanosleep(&ts, NULL);
	atomic_store(&released, 1);
	forkgate_release();
	return NULL;
}

static void test_fork_waits(void **state)
{
	pthread_t tid;
	int status;
	pid_t pid;

	(void)state;
	sem_init(&held, 0, 0);
	atomic_store(&released, 0);
	assert_int_equal(pthread_create(&tid, NULL, holds, NULL), 0);
	sem_wait(&held);
	pid = forkgate_fork();
	if (!pid)
		_exit(0);
	assert_true(pid > 0);
	assert_int_equal(atomic_load(&released), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	pthread_join(tid, NULL);
	sem_destroy(&held);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fork_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
