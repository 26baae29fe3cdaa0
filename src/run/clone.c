/* SPDX-License-Identifier: MIT */
/*
 * The hand-off to the clones (see clone.h).  As in fio, a clone runs in a
 * process of its own unless its job sets thread.  The run's process sets
 * it up, lets its engine go and forks; the child makes the engine again,
 * runs, and hands back its error texts through the shared slot and its
 * stats and logs through a memfd.  The gate, the counts and the stop and
 * exitall flags are in memory that the processes share (MAP_SHARED, a
 * process-shared lock and conditions, a futex for the gate).
 *
 * Nothing here is done once per pair of clones: a clone's readiness and
 * end are counts the run's process waits on, the gate is one futex word
 * whose opening wakes every clone of the batch at once, and a clone's
 * process inherits no other clone's buffers (those made at set-up were a
 * check, and the run lets them go before the first fork).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "files/iosched.h"
#include "run/cgroup.h"
#include "run/clone.h"
#include "run/forkgate.h"
#include "run/jobexec.h"
#include "run/run.h"
#include "run/runlock.h"

const int run_stop_signals[RUN_NR_STOP_SIGNALS] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* A clone's process died holding c->lock: c->left and c->nready counted
 * again from the slots, whatever the dead holder was changing, and the
 * waiters woken to look again.  Under c->lock. */
static void ctl_repair(struct ctl *c)
{
	unsigned i;

	for (i = 0; i < c->n; i++)
		c->left[c->slots[i].job] = 0;
	for (i = 0; i < c->n; i++)
		if (!c->slots[i].counted)
			c->left[c->slots[i].job]++;
	c->nready = 0;
	for (i = c->batch_from; i < c->batch_to; i++)
		c->nready += c->slots[i].ready;
	pthread_cond_broadcast(&c->cond);
	pthread_cond_signal(&c->ready_cond);
}

static void ctl_lock(struct ctl *c)
{
	if (runlock_lock(&c->lock))
		ctl_repair(c);
}

static void ctl_unlock(struct ctl *c)
{
	runlock_unlock(&c->lock);
}

/* Waits on @cond, c->cond or c->ready_cond (until @until, CLOCK_REALTIME,
 * when not NULL); whether the time passed. */
static bool ctl_wait(struct ctl *c, pthread_cond_t *cond, const struct timespec *until)
{
	bool timed_out;

	if (runlock_wait(cond, &c->lock, until, &timed_out))
		ctl_repair(c);
	return timed_out;
}

/* Slot @s's clone is done with (ended, failed or gone): off c->left,
 * once; the clones waiting for its job (wait_for) are woken when it was
 * the last.  Under c->lock. */
static void count_done(struct ctl *c, struct slot *s)
{
	if (s->counted)
		return;
	s->counted = true;
	if (!--c->left[s->job])
		pthread_cond_broadcast(&c->cond);
}

/* The gate's futex: shared between processes, so not FUTEX_PRIVATE. */
static void gate_wait(struct ctl *c)
{
	while (!atomic_load_explicit(&c->gate, memory_order_acquire))
		syscall(SYS_futex, &c->gate, FUTEX_WAIT, 0, NULL, NULL, 0);
}

static void gate_set(struct ctl *c, uint32_t open)
{
	atomic_store_explicit(&c->gate, open, memory_order_release);
	if (open)
		syscall(SYS_futex, &c->gate, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* As fio's fio_terminate_threads: a clone of @s's job has ended, and its
 * exit_what says which others end with it: its group (those not started
 * yet too), the clones running now (the rest of the stonewall batch, not
 * those still waiting), or every clone of the run.  Under c->lock. */
static void halt_others(struct ctl *c, const struct slot *s)
{
	enum exit_what what = s->w.job->exit_what;
	unsigned i;

	for (i = 0; i < c->n; i++) {
		const struct slot *o = &c->slots[i];

		if (what == EXIT_ALL || (what == EXIT_GROUP && o->group == s->group) ||
		    (what == EXIT_STONEWALL &&
		     atomic_load_explicit(&o->w.prog->state, memory_order_relaxed) == 1))
			c->halt[i] = 1;
	}
}

/* cpuio's exit_on_io_done, as fio's fio_running_or_pending_io_threads:
 * once the run's clones that do I/O (there were some) have all ended,
 * the clones that wait for that end.  Under c->lock. */
static void halt_when_io_done(struct ctl *c)
{
	unsigned i, io = 0;

	for (i = 0; i < c->n; i++) {
		const struct slot *o = &c->slots[i];

		if (!o->w.eng.ops || (o->w.eng.ops->flags & ENGINE_F_NOIO))
			continue;
		if (!o->counted)
			return;
		io++;
	}
	for (i = 0; io && i < c->n; i++)
		if (c->slots[i].w.eng.until_io_done)
			c->halt[i] = 1;
}

/* exec_prerun, exec_postrun: @cmd (NULL: none) run in the clone, as fio
 * runs them; a failure is the clone's error, unless it has one. */
static int clone_exec(struct worker *w, const char *cmd, const char *mode)
{
	char *why = NULL;
	int ret;

	if (!cmd)
		return 0;
	ret = jobexec_run(w->job, cmd, mode, &why);
	if (ret && !w->error) {
		w->error = why;
		w->error_no = -ret;
	} else {
		free(why);
	}
	return ret;
}

/* A clone's life, in its thread or its process (@w: the slot's worker,
 * or the process's copy of it): the gate, wait_for, startdelay, the run,
 * and the exitall that its end may set off. */
static void clone_body(struct slot *s, struct worker *w)
{
	struct ctl *c = s->ctl;
	const struct job *job = w->job;

	gate_wait(c);
	if (s->wait_job != ~0u) {
		ctl_lock(c);
		while (c->left[s->wait_job] && !worker_stopped(w))
			ctl_wait(c, &c->cond, NULL);
		ctl_unlock(c);
	}
	/* MPI: counted from the batch's agreed zero (not after a wait_for). */
	w->t_from = s->wait_job == ~0u ? c->t_zero : 0;
	if (job->startdelay_max) {
		uint64_t delay = job->startdelay_min; /* ns */
		struct rng r;

		rng_seed(&r, job->randseed + w->clone);
		delay += rng_below(&r, job->startdelay_max - job->startdelay_min + 1);
		/* Before the job's runtime starts: only a stop (or a halt) cuts it. */
		run_sleep_until((w->t_from ? w->t_from : run_now()) + delay, w->stop, w->halt);
		w->t_from += w->t_from ? delay : 0;
	}
	atomic_store_explicit(&w->prog->state, 1, memory_order_relaxed);
	if (w->eng.until_io_done) {
		ctl_lock(c);
		halt_when_io_done(c);
		ctl_unlock(c);
	}
	if (!worker_stopped(w) && !clone_exec(w, job->exec_prerun, "prerun")) {
		worker_run(w);
		clone_exec(w, job->exec_postrun, "postrun");
	}
	worker_flow_leave(w); /* when it did not run */
	if (job->cgroup) {
		char *why = NULL;

		(void)cgroup_move(job, false, &why); /* as fio: back to the root */
		free(why);
	}
	atomic_store_explicit(&w->prog->state, 2, memory_order_relaxed);
	ctl_lock(c);
	/* As fio: with exitall (any job's) a clone's end ends others. */
	if (c->exitall || (job->exitall_on_error && w->error)) {
		halt_others(c, s);
		pthread_cond_broadcast(&c->cond); /* a halted wait_for ends */
	}
	count_done(c, s);
	halt_when_io_done(c);
	ctl_unlock(c);
}

/* The clone's CPUs, buffers and engine, in the clone's own thread or
 * process (@w: the slot's worker, or the process's copy of it): bound
 * first, as fio, so that the pages it faults in are near those CPUs; the
 * buffers made again and faulted in before its clock starts; an AIO
 * context belongs to the process's memory, an io_uring ring and its
 * registrations to the thread that made it.  Then the clone is ready.
 * 0, or -errno with w->error set when any of it could not be done. */
static int clone_ready(struct slot *s, struct worker *w)
{
	struct ctl *c = s->ctl;
	char *cause = NULL;
	int ret = worker_pin(w);

	if (!ret)
		ret = worker_prio(w);
	if (!ret) {
		ret = worker_buffers_renew(w, &cause);
		if (!ret)
			ret = worker_engine_init(w, &cause);
		/* As fio: into the job's cgroup, then its scheduler. */
		if (!ret && w->job->cgroup)
			ret = cgroup_move(w->job, true, &cause);
		if (!ret && w->job->ioscheduler && !(w->eng.ops->flags & ENGINE_F_NOFILES))
			ret = iosched_apply(&w->files, w->job->ioscheduler, &cause);
		if (!ret) {
			worker_prefault(w);
		} else {
			w->error = cause;
			w->error_no = -ret;
		}
	}
	if (ret)
		worker_flow_leave(w);
	ctl_lock(c);
	s->ready = true;
	c->nready++;
	if (ret)
		count_done(c, s);
	pthread_cond_signal(&c->ready_cond);
	ctl_unlock(c);
	return ret;
}

static void *slot_main(void *arg)
{
	struct slot *s = arg;

	if (!clone_ready(s, &s->w))
		clone_body(s, &s->w);
	/* The engine goes with its clone, as a process's does: exec's
	 * program ends at its job's end, not at the run's. */
	worker_engine_release(&s->w);
	return NULL;
}

static void put_text(char *dst, const char *src)
{
	if (src)
		snprintf(dst, PROC_TEXT, "%s", src);
}

/* The clone's process, forked from the run's (@parent).  It works on a
 * copy of the slot's worker, so that the slot keeps the run's process's
 * pointers, and writes back only the stats, times and texts.  It never
 * returns. */
static void __attribute__((noreturn)) clone_process(struct slot *s, pid_t parent)
{
	struct ctl *c = s->ctl;
	struct worker *w = xmalloc(sizeof(*w));
	unsigned i;

	/* Gone with the run's process; stopped by it, not by signals. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	for (i = 0; i < RUN_NR_STOP_SIGNALS; i++)
		signal(run_stop_signals[i], SIG_IGN);
	*w = s->w;
	w->stop = &c->stop;
	if (!clone_ready(s, w)) {
		clone_body(s, w);
		s->w.iv.t0 = w->iv.t0;
		s->w.iv.t_end = w->iv.t_end;
		s->w.first_error_no = w->first_error_no;
		put_text(s->first_error, w->first_error);
		if (stats_save(&w->stats, s->logfd) == 0 &&
		    run_logs_save(w->iv.logs, s->logfd) == 0)
			s->done = true;
	}
	s->w.error_no = w->error_no;
	put_text(s->error, w->error);
	free(w->error);
	worker_cleanup(w, false);
	free(w);
	s->ending = true;
	atomic_fetch_add_explicit(&c->ended, 1, memory_order_release);
	_exit(0);
}

/* The run's process takes back what the clone's process left in @s once
 * it has ended (@status from waitpid). */
static void clone_collect(struct slot *s, int status)
{
	struct worker *w = &s->w;
	struct run_logs *lg = NULL;

	if (s->done && lseek(s->logfd, 0, SEEK_SET) == 0 && stats_load(&w->stats, s->logfd) == 0)
		lg = run_logs_load(s->logfd);
	else
		s->done = false;
	if (!lg && s->done) {
		stats_free(&w->stats);
		s->done = false;
	}
	if (lg) {
		/* Into the same block: the slot's pointer to it does not
		 * change under the clones' processes still running, each of
		 * which holds its own copy of that block through it. */
		struct run_logs old = *w->iv.logs;

		*w->iv.logs = *lg;
		*lg = old;
		run_logs_free(lg);
	}
	if (s->error[0])
		w->error = xstrdup(s->error);
	if (s->first_error[0])
		w->first_error = xstrdup(s->first_error);
	if (!s->done && !w->error) {
		w->error_no = EIO;
		if (WIFSIGNALED(status))
			w->error = xasprintf(
				"clone %u of %u: its process was killed by signal %d (%s)",
				w->clone + 1, w->job->numjobs, WTERMSIG(status),
				strsignal(WTERMSIG(status)));
		else
			w->error = xasprintf("clone %u of %u: its process ended (status %d) before "
					     "handing back its results",
					     w->clone + 1, w->job->numjobs,
					     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	if (s->ending)
		s->ctl->ended_collected++;
	close(s->logfd);
	s->logfd = -1;
	s->pid = 0;
	s->running = false;
}

int clone_ctl_new(unsigned nr, unsigned n, struct ctl **out, char **cause)
{
	size_t at_slots = (sizeof(struct ctl) + 63) & ~(size_t)63;
	size_t at_left = at_slots + (size_t)n * sizeof(struct slot);
	size_t at_halt = at_left + (size_t)nr * sizeof(unsigned);
	size_t len = at_halt + (size_t)n * sizeof(atomic_int);
	struct ctl *c;
	char *p;
	unsigned i;
	int ret;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		xalloc_failed(len);
	c = (struct ctl *)p;
	c->len = len;
	c->slots = (struct slot *)(p + at_slots);
	c->left = (unsigned *)(p + at_left);
	c->halt = (atomic_int *)(p + at_halt);
	c->n = n;
	ret = runlock_init(&c->lock, &c->cond);
	if (!ret) {
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		ret = pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
		if (!ret)
			ret = pthread_cond_init(&c->ready_cond, &ca);
		pthread_condattr_destroy(&ca);
		if (ret)
			runlock_destroy(&c->lock, &c->cond);
	}
	if (ret) {
		munmap(p, len);
		*cause = xasprintf("cannot make the run's shared lock: %s", strerror(ret));
		return -ret;
	}
	for (i = 0; i < n; i++)
		c->slots[i].logfd = -1;
	*out = c;
	return 0;
}

void clone_ctl_free(struct ctl *c)
{
	pthread_cond_destroy(&c->ready_cond);
	runlock_destroy(&c->lock, &c->cond);
	munmap(c, c->len);
}

/*
 * The heap that every clone's process inherits, tidied once: what the
 * run's process freed is merged and filed in malloc's bins (the trim
 * merges the small chunks; a request of a size no free chunk has files
 * every one on its way, as glibc sorts its unsorted chunks before it
 * picks one).  Else each clone's process would do it at its first malloc,
 * writing to, and so copying, every page that holds a freed chunk: pages
 * in proportion to the clones, times the clones.  96 KiB: below the mmap
 * threshold, so that the request changes nothing else of malloc's.
 */
static void heap_tidy(void)
{
	void *volatile p; /* volatile: the pair is not optimised away */

	malloc_trim(0);
	p = malloc((size_t)96 << 10);
	free(p);
}

void clone_prepare(struct slot *slots, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		worker_engine_release(&slots[i].w);
		worker_buffers_release(&slots[i].w);
	}
	heap_tidy();
}

/* Starts slot @s: a thread, or (thread=0, fio's default) a process.
 * 0, or -errno with *cause set. */
static int start_clone(struct slot *s, char **cause)
{
	pid_t parent = getpid(), pid;
	int ret;

	if (s->w.job->thread) {
		ret = pthread_create(&s->tid, NULL, slot_main, s);
		if (ret)
			return set_cause_errno(cause, ret, "cannot start a worker thread: %s",
					       strerror(ret));
		s->running = true;
		return 0;
	}
	s->logfd = memfd_create("iogauge-logs", MFD_CLOEXEC);
	if (s->logfd < 0)
		return set_cause_errno(cause, errno, "cannot make a memfd for a clone's logs: %s",
				       strerror(errno));
	/* Not straight into the slot: the child would write its 0 there. */
	pid = forkgate_fork();
	if (pid < 0) {
		ret = set_cause_errno(cause, errno,
				      "cannot start a process for [%s]: %s (thread=1 runs the "
				      "clones as threads)",
				      s->w.job->name, strerror(errno));
		close(s->logfd);
		return ret;
	}
	if (!pid)
		clone_process(s, parent);
	s->pid = pid;
	s->running = true;
	return 0;
}

/* Whether process @pid has ended (and is reaped now), without waiting.
 * One that cannot be waited for (ECHILD) has ended too. */
static bool reaped(pid_t pid, int *status)
{
	pid_t r = waitpid(pid, status, WNOHANG);

	if (r < 0 && errno == ECHILD)
		*status = 0;
	return r == pid || (r < 0 && errno == ECHILD);
}

/* Waits until the @started clones of the batch are past their set-up (or
 * gone), so that none starts I/O before the others could. */
static void wait_ready(struct slot *slots, unsigned started, struct ctl *c)
{
	struct timespec until;
	unsigned i;
	int status;

	ctl_lock(c);
	while (c->nready < started) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 50000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (!ctl_wait(c, &c->ready_cond, &until))
			continue;
		/* One that died before it was ready counts as ready. */
		for (i = c->batch_from; i < c->batch_to; i++)
			if (slots[i].pid > 0 && !slots[i].ready && reaped(slots[i].pid, &status)) {
				clone_collect(&slots[i], status);
				slots[i].ready = true;
				c->nready++;
				count_done(c, &slots[i]);
			}
	}
	ctl_unlock(c);
}

int clone_start_batch(struct slot *slots, unsigned from, unsigned to, struct ctl *c,
		      const struct run_watch *watch, char **cause)
{
	unsigned i;
	int ret = 0;

	gate_set(c, 0);
	ctl_lock(c);
	c->batch_from = from;
	c->batch_to = to;
	c->nready = 0;
	ctl_unlock(c);
	for (i = from; i < to && !ret; i++)
		ret = start_clone(&slots[i], cause);
	/* The clones already started end at once when the gate opens. */
	if (ret) {
		*slots[from].w.stop = 1;
		c->stop = 1;
	}
	wait_ready(slots, i - from - (ret ? 1 : 0), c);
	/* Set-up done on this rank: the ranks start together (its stop, if
	 * it sets one, reaches the clones' processes before they start). */
	c->t_zero = 0;
	if (!ret && watch && watch->gate) {
		watch->gate(watch->gate_arg);
		c->t_zero = watch->t_zero;
		if (from < to && *slots[from].w.stop)
			c->stop = *slots[from].w.stop;
	}
	gate_set(c, 1);
	return ret;
}

/* Slot @s's process has ended (and been collected).  One killed before it
 * counted itself done is counted here, and ends others as its own end
 * would have: else a job waiting for its job (wait_for) would wait for
 * ever. */
static void clone_gone(struct ctl *c, struct slot *s)
{
	ctl_lock(c);
	if (!s->counted) {
		atomic_store_explicit(&s->w.prog->state, 2, memory_order_relaxed);
		if (c->exitall || (s->w.job->exitall_on_error && s->w.error))
			halt_others(c, s);
		count_done(c, s);
		pthread_cond_broadcast(&c->cond);
	}
	ctl_unlock(c);
}

void clone_join_all(struct slot *slots, unsigned n, struct ctl *c, atomic_int *stop)
{
	unsigned i, live = 0, rounds = 0;
	int status;

	for (i = 0; i < n; i++)
		live += slots[i].pid > 0;
	while (live) {
		if (*stop)
			c->stop = *stop;
		if (atomic_load_explicit(&c->ended, memory_order_acquire) > c->ended_collected ||
		    rounds++ % 10 == 0) {
			for (i = 0; i < n; i++)
				if (slots[i].pid > 0 && reaped(slots[i].pid, &status)) {
					clone_collect(&slots[i], status);
					clone_gone(c, &slots[i]);
					live--;
				}
		}
		/* As fio's main loop: 10 ms, so that a clone sees the stop
		 * within two slices of its own sleep. */
		if (live)
			run_sleep_until(run_now() + RUN_SLEEP_SLICE, NULL, NULL);
	}
	for (i = 0; i < n; i++) {
		if (slots[i].running)
			pthread_join(slots[i].tid, NULL);
		slots[i].running = false;
	}
}
