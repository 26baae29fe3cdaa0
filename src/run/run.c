/* SPDX-License-Identifier: MIT */
/*
 * Running a set of jobs: every clone set up before any I/O (files laid
 * out, O_DIRECT checked, buffers allocated), then the clones started in
 * stonewall batches, each batch released together through a gate, with
 * wait_for and startdelay honoured, and the results collected.
 *
 * As in fio, a clone runs in a process of its own unless its job sets
 * thread.  The run's process sets it up, lets its engine go and forks;
 * the child makes the engine again, runs, and hands back its stats and
 * error texts through the shared slot and its logs through a memfd.  The
 * gate, the counts and the stop and exitall flags are in memory that the
 * processes share (MAP_SHARED, process-shared lock and condition).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/run.h"
#include "run/runlock.h"
#include "run/worker.h"

struct ctl {
	/* Robust (runlock.h): a clone's process killed holding it leaves
	 * left[] to be counted again from the slots' counted flags. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool open;	/* the gate of the current batch */
	unsigned *left; /* per job: clones not yet finished */
	/* per clone: set when exitall (or exitall_on_error) ends it */
	atomic_int *halt;
	struct slot *slots;
	unsigned n;
	bool exitall; /* a job sets it: as in fio, it then holds for every job */
	/* The run's stop, copied here by the run's process for the clones in
	 * processes (their signals are the run's process's to take). */
	atomic_int stop;
	size_t len; /* of the shared mapping this is the start of */
};

const int run_stop_signals[RUN_NR_STOP_SIGNALS] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* What a clone in a process hands back through its slot. */
#define PROC_TEXT 4096

struct slot {
	struct worker w;
	struct ctl *ctl;
	const struct job *jobs;
	unsigned job;
	unsigned group;	   /* reporting group */
	unsigned wait_job; /* index of wait_for's job, or ~0u */
	pthread_t tid;
	bool running;
	/* A clone in a process: its pid while it runs, the memfd its logs
	 * come back through, and what it wrote into the slot (besides the
	 * worker's stats, t0 and errnos, which it writes there). */
	pid_t pid;
	int logfd;
	bool ready, done;
	/* Taken off c->left[job]: the clone ended, failed to get ready, or
	 * its process is gone.  Set before left[] is lowered, so that a
	 * process killed between the two is counted once (ctl_repair). */
	bool counted;
	char error[PROC_TEXT], first_error[PROC_TEXT];
};

/* A clone's process died holding c->lock: c->left counted again from
 * the slots, whatever the dead holder was changing.  Under c->lock. */
static void ctl_repair(struct ctl *c)
{
	unsigned i;

	for (i = 0; i < c->n; i++)
		c->left[c->slots[i].job] = 0;
	for (i = 0; i < c->n; i++)
		if (!c->slots[i].counted)
			c->left[c->slots[i].job]++;
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

/* Waits on c->cond (until @until, CLOCK_REALTIME, when not NULL); whether
 * the time passed. */
static bool ctl_wait(struct ctl *c, const struct timespec *until)
{
	bool timed_out;

	if (runlock_wait(&c->cond, &c->lock, until, &timed_out))
		ctl_repair(c);
	return timed_out;
}

/* Slot @s's clone is done with (ended, failed or gone): off c->left,
 * once.  Under c->lock. */
static void count_done(struct ctl *c, struct slot *s)
{
	if (s->counted)
		return;
	s->counted = true;
	c->left[s->job]--;
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

/* A clone's life, in its thread or its process (@w: the slot's worker,
 * or the process's copy of it): the gate, wait_for, startdelay, the run,
 * and the exitall that its end may set off. */
static void clone_body(struct slot *s, struct worker *w)
{
	struct ctl *c = s->ctl;
	const struct job *job = w->job;

	ctl_lock(c);
	while (!c->open)
		ctl_wait(c, NULL);
	while (s->wait_job != ~0u && c->left[s->wait_job] && !worker_stopped(w))
		ctl_wait(c, NULL);
	ctl_unlock(c);
	if (job->startdelay_max) {
		uint64_t delay = job->startdelay_min; /* ns */
		struct rng r;

		rng_seed(&r, job->randseed + w->clone);
		delay += rng_below(&r, job->startdelay_max - job->startdelay_min + 1);
		/* Before the job's runtime starts: only a stop (or a halt) cuts it. */
		run_sleep_until(run_now() + delay, w->stop, w->halt);
	}
	atomic_store_explicit(&w->prog->state, 1, memory_order_relaxed);
	if (!worker_stopped(w))
		worker_run(w);
	atomic_store_explicit(&w->prog->state, 2, memory_order_relaxed);
	ctl_lock(c);
	/* As fio: with exitall (any job's) a clone's end ends others. */
	if (c->exitall || (job->exitall_on_error && w->error))
		halt_others(c, s);
	count_done(c, s);
	pthread_cond_broadcast(&c->cond);
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

	if (!ret) {
		ret = worker_buffers_renew(w, &cause);
		if (!ret)
			ret = worker_engine_init(w, &cause);
		if (!ret) {
			worker_prefault(w);
		} else {
			w->error = cause;
			w->error_no = -ret;
		}
	}
	ctl_lock(c);
	s->ready = true;
	if (ret)
		count_done(c, s);
	pthread_cond_broadcast(&c->cond);
	ctl_unlock(c);
	return ret;
}

static void *slot_main(void *arg)
{
	struct slot *s = arg;

	if (!clone_ready(s, &s->w))
		clone_body(s, &s->w);
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
	/* The other clones' buffers came along: not ours.  The run's process
	 * lets go of its own copies only once every clone of the batch is
	 * ready (see start_batch), so none changes under this loop.  Not a
	 * thread's: it makes its own anew meanwhile, in the run's process,
	 * and shared pages cost this process nothing while it does not
	 * write them. */
	for (i = 0; i < c->n; i++)
		if (&c->slots[i] != s && !c->slots[i].w.job->thread)
			worker_buffers_drop(&c->slots[i].w);
	*w = s->w;
	w->stop = &c->stop;
	if (!clone_ready(s, w)) {
		clone_body(s, w);
		s->w.stats = w->stats;
		s->w.iv.t0 = w->iv.t0;
		s->w.first_error_no = w->first_error_no;
		put_text(s->first_error, w->first_error);
		if (run_logs_save(w->iv.logs, s->logfd) == 0)
			s->done = true;
	}
	s->w.error_no = w->error_no;
	put_text(s->error, w->error);
	free(w->error);
	worker_cleanup(w, false);
	free(w);
	_exit(0);
}

/* The run's process takes back what the clone's process left in @s once
 * it has ended (@status from waitpid). */
static void clone_collect(struct slot *s, int status)
{
	struct worker *w = &s->w;
	struct run_logs *lg = NULL;

	if (s->done && lseek(s->logfd, 0, SEEK_SET) == 0)
		lg = run_logs_load(s->logfd);
	if (lg) {
		run_logs_free(w->iv.logs);
		w->iv.logs = lg;
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
	close(s->logfd);
	s->logfd = -1;
	s->pid = 0;
	s->running = false;
}

/* ---- the live status ---- */

struct watcher {
	const struct run_watch *watch;
	struct slot *slots;
	unsigned n;
	uint64_t t_start; /* ns */
	pthread_t tid;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool quit;
};

/* One clone's share done: bytes issued of its limit, or time of its runtime. */
static double clone_frac(const struct slot *s, uint64_t now)
{
	const struct worker_progress *p = s->w.prog;
	const struct job *job = s->w.job;
	uint64_t t0 = atomic_load_explicit(&p->t_start, memory_order_relaxed);
	uint64_t limit = atomic_load_explicit(&p->limit, memory_order_relaxed);
	double f = 0;

	if (atomic_load_explicit(&p->state, memory_order_relaxed) == 2)
		return 1;
	if (!t0)
		return 0;
	if (job->runtime && now > t0)
		f = (double)(now - t0) / (double)(job->runtime + job->ramp_time);
	if (limit != UINT64_MAX && limit) {
		double g = (double)atomic_load_explicit(&p->issued, memory_order_relaxed) /
			   (double)limit;

		f = f > g ? f : g;
	}
	return f < 1 ? f : 1;
}

static void watch_once(struct watcher *wt)
{
	struct run_status st = { .total = wt->n };
	uint64_t now = run_now();
	double sum = 0;
	unsigned i, d;

	for (i = 0; i < wt->n; i++) {
		const struct worker_progress *p = wt->slots[i].w.prog;
		int state = atomic_load_explicit(&p->state, memory_order_relaxed);

		st.waiting += state == 0;
		st.running += state == 1;
		st.done += state == 2;
		for (d = 0; d < 2; d++) {
			st.bytes[d] += atomic_load_explicit(&p->bytes[d], memory_order_relaxed);
			st.ios[d] += atomic_load_explicit(&p->ios[d], memory_order_relaxed);
		}
		sum += clone_frac(&wt->slots[i], now);
	}
	st.frac = wt->n ? sum / wt->n : 1;
	st.elapsed = now - wt->t_start;
	st.eta = st.frac > 0.001 ? (uint64_t)((double)st.elapsed * (1 - st.frac) / st.frac)
				 : UINT64_MAX;
	wt->watch->fn(&st, wt->watch->arg);
}

static void *watch_main(void *arg)
{
	struct watcher *wt = arg;
	struct timespec until;

	pthread_mutex_lock(&wt->lock);
	while (!wt->quit) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += (time_t)(wt->watch->every / 1000000000ull);
		until.tv_nsec += (long)(wt->watch->every % 1000000000ull);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!wt->quit &&
		       pthread_cond_timedwait(&wt->cond, &wt->lock, &until) != ETIMEDOUT)
			;
		if (wt->quit)
			break;
		pthread_mutex_unlock(&wt->lock);
		watch_once(wt);
		pthread_mutex_lock(&wt->lock);
	}
	pthread_mutex_unlock(&wt->lock);
	return NULL;
}

static unsigned find_job(const struct job *jobs, unsigned before, const char *name)
{
	unsigned i;

	for (i = 0; i < before; i++)
		if (!strcmp(jobs[i].name, name))
			return i;
	return ~0u;
}

/* The control block, the slots, the per-job counts and the per-clone
 * halt flags, in one mapping that forked clones share with the run's
 * process; zeroed, in *@out.  Aborts as xmalloc does when there is no
 * memory; 0, or -errno with *cause set when the lock cannot be made. */
static int shared_new(unsigned nr, unsigned n, struct ctl **out, char **cause)
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

static void shared_free(struct ctl *c)
{
	runlock_destroy(&c->lock, &c->cond);
	munmap(c, c->len);
}

/* Starts slot @s: a thread, or (thread=0, fio's default) a process.
 * 0, or -errno with *cause set. */
static int start_clone(struct slot *s, char **cause)
{
	pid_t parent = getpid(), pid;
	int ret;

	/* The engine is made again in the clone's thread or process. */
	worker_engine_release(&s->w);
	if (s->w.job->thread) {
		ret = pthread_create(&s->tid, NULL, slot_main, s);
		if (ret)
			return set_cause(cause, "cannot start a worker thread: %s", strerror(ret));
		s->running = true;
		return 0;
	}
	s->logfd = memfd_create("iogauge-logs", MFD_CLOEXEC);
	if (s->logfd < 0)
		return set_cause(cause, "cannot make a memfd for a clone's logs: %s",
				 strerror(errno));
	/* Not straight into the slot: the child would write its 0 there. */
	pid = fork();
	if (pid < 0) {
		ret = set_cause(cause,
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

/* Whether a clone started of slots [from, to) is not past its set-up
 * yet.  Under c->lock. */
static bool any_unready(const struct slot *slots, unsigned from, unsigned to)
{
	unsigned i;

	for (i = from; i < to; i++)
		if (slots[i].running && !slots[i].ready)
			return true;
	return false;
}

/* Waits until the clones started of slots [from, to) are past their
 * set-up (or gone), so that none starts I/O before the others could. */
static void wait_ready(struct slot *slots, unsigned from, unsigned to, struct ctl *c)
{
	struct timespec until;
	unsigned i;
	int status;

	ctl_lock(c);
	while (any_unready(slots, from, to)) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 50000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (!ctl_wait(c, &until))
			continue;
		/* One that died before it was ready counts as ready. */
		for (i = from; i < to; i++)
			if (slots[i].pid > 0 && !slots[i].ready && reaped(slots[i].pid, &status)) {
				clone_collect(&slots[i], status);
				slots[i].ready = true;
				count_done(c, &slots[i]);
			}
	}
	ctl_unlock(c);
}

/* Starts slots [from, to) behind a closed gate, then opens it. */
static int start_batch(struct slot *slots, unsigned from, unsigned to, struct ctl *c, char **cause)
{
	unsigned i;
	int ret = 0;

	ctl_lock(c);
	c->open = false;
	ctl_unlock(c);
	for (i = from; i < to && !ret; i++)
		ret = start_clone(&slots[i], cause);
	/* The clones already started end at once when the gate opens. */
	if (ret) {
		*slots[from].w.stop = 1;
		c->stop = 1;
	}
	wait_ready(slots, from, to, c);
	/* The clones' processes have their copies of their workers now, and
	 * their buffers are theirs: kept here too, each page a clone wrote to
	 * would be copied. */
	for (i = from; i < to; i++)
		if (slots[i].pid > 0)
			worker_buffers_release(&slots[i].w);
	ctl_lock(c);
	c->open = true;
	pthread_cond_broadcast(&c->cond);
	ctl_unlock(c);
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

/* Waits for every clone started: the processes first, handing each the
 * run's stop as it comes (@stop), then the threads. */
static void join_all(struct slot *slots, unsigned n, struct ctl *c, atomic_int *stop)
{
	unsigned i, live;
	int status;

	do {
		live = 0;
		if (*stop)
			c->stop = *stop;
		for (i = 0; i < n; i++) {
			if (slots[i].pid <= 0)
				continue;
			if (reaped(slots[i].pid, &status)) {
				clone_collect(&slots[i], status);
				clone_gone(c, &slots[i]);
			} else
				live++;
		}
		/* As fio's main loop: 10 ms, so that a clone sees the stop
		 * within two slices of its own sleep. */
		if (live)
			run_sleep_until(run_now() + RUN_SLEEP_SLICE, NULL, NULL);
	} while (live);
	for (i = 0; i < n; i++) {
		if (slots[i].running)
			pthread_join(slots[i].tid, NULL);
		slots[i].running = false;
	}
}

/*
 * Options this version parses and checks but does not yet act on at run
 * time.  A job that sets one is refused rather than run as if it had not.
 */
static const char *const not_run_yet[] = {
	"create_on_open",
};

static int check_runnable(const struct job *job, char **cause)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(not_run_yet); i++)
		if (!job_option_is_default(job, not_run_yet[i]))
			return set_cause(cause,
					 "[%s] %s is read and checked, but this version of iogauge "
					 "does not run it yet; remove it to run the job without it",
					 job->name, not_run_yet[i]);
	if (job->rw_rand_nr > 1)
		return set_cause(cause,
				 "[%s] rw=...:%u (I/Os per random offset) is read and checked, but "
				 "this version of iogauge does not run it yet",
				 job->name, job->rw_rand_nr);
	return 0;
}

/* bytes of memory the kernel could give without swapping (MemAvailable),
 * or UINT64_MAX when it cannot be read. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kib = 0;
	char line[256];

	if (!f)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return kib ? (uint64_t)kib * 1024 : UINT64_MAX;
}

/* The I/O buffers of every clone (iodepth x the largest block, per clone)
 * against the memory available: refused up front rather than killed by
 * the OOM killer midway. */
static int check_memory(const struct job *jobs, unsigned nr, char **cause)
{
	uint64_t avail = mem_available(), total = 0, lo, hi, mine, worst = 0;
	unsigned i, w = 0;

	for (i = 0; i < nr; i++) {
		const struct engine_ops *ops = job_engine(&jobs[i]);
		uint64_t depth = ops && (ops->flags & ENGINE_F_SYNC) ? 1 : jobs[i].iodepth;

		job_bs_span(&jobs[i], &lo, &hi);
		mine = depth * hi * jobs[i].numjobs;
		total += mine;
		if (mine > worst) {
			worst = mine;
			w = i;
		}
	}
	if (avail == UINT64_MAX || total <= avail)
		return 0;
	return set_cause(cause,
			 "the I/O buffers need %llu MiB (the most, [%s]: %u clones x iodepth %u x "
			 "%llu-byte blocks), and %llu MiB of memory is available (MemAvailable); "
			 "lower iodepth, bs or numjobs",
			 (unsigned long long)(total >> 20), jobs[w].name, jobs[w].numjobs,
			 jobs[w].iodepth,
			 (unsigned long long)(worst / jobs[w].numjobs / jobs[w].iodepth),
			 (unsigned long long)(avail >> 20));
}

int run_jobs(const struct job *jobs, unsigned nr, atomic_int *stop, const struct run_watch *watch,
	     struct run *out, char **cause)
{
	struct ctl *c;
	struct watcher wt = { .watch = watch,
			      .lock = PTHREAD_MUTEX_INITIALIZER,
			      .cond = PTHREAD_COND_INITIALIZER };
	bool watching = false;
	struct timeval tv;
	unsigned i, k, n = 0, ready = 0, batch = 0, group = 0;
	struct slot *slots;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	/* Before any time is read: every time of the run is from one clock
	 * (job.c checked that the jobs agree on it). */
	if (nr)
		clock_use(jobs[0].clocksource);
	out->clock = clock_in_use();
	for (i = 0; i < nr; i++)
		n += jobs[i].numjobs;
	ret = shared_new(nr, n, &c, cause);
	if (ret)
		return ret;
	slots = c->slots;
	for (i = 0; i < nr; i++)
		c->exitall |= jobs[i].exitall;
	out->results = xcalloc(n, sizeof(*out->results));
	out->nr = n;
	for (i = 0; i < nr && !ret; i++)
		ret = check_runnable(&jobs[i], cause);
	if (!ret)
		ret = check_memory(jobs, nr, cause);
	/* Everything that can fail, for every clone, before any I/O. */
	for (i = 0, n = 0; i < nr && !ret; i++) {
		if (i && (jobs[i].stonewall || jobs[i].new_group))
			group++;
		c->left[i] = jobs[i].numjobs;
		for (k = 0; k < jobs[i].numjobs && !ret; k++, n++) {
			struct run_result *r = &out->results[n];

			slots[n].ctl = c;
			slots[n].job = i;
			slots[n].group = group;
			slots[n].wait_job =
				jobs[i].wait_for ? find_job(jobs, i, jobs[i].wait_for) : ~0u;
			ret = worker_setup(&slots[n].w, &jobs[i], k, n + 1, stop, watch, cause);
			if (!ret) {
				ready++;
				slots[n].w.halt = &c->halt[n];
			}
			r->job = &jobs[i];
			r->job_index = i;
			r->clone = k;
			r->group = group;
			r->engine = slots[n].w.eng.ops ? slots[n].w.eng.ops->name : "?";
			r->depth = slots[n].w.eng.depth;
		}
	}
	if (ret)
		goto out;
	for (i = 0; i < out->nr; i++)
		if (!(slots[i].w.eng.ops->flags & ENGINE_F_NOFILES))
			for (k = 0; k < slots[i].w.files.n; k++)
				disks_add_path(&out->disks, slots[i].w.files.v[k].path);
	disks_snapshot(&out->disks, false);
	gettimeofday(&tv, NULL);
	out->epoch_ms = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
	out->t_start = run_now();
	if (watch && watch->fn && watch->every) {
		wt.slots = slots;
		wt.n = out->nr;
		wt.t_start = out->t_start;
		watching = !pthread_create(&wt.tid, NULL, watch_main, &wt);
	}
	/* stonewall: a job waits for every job before it. */
	for (i = 0, n = 0; i < nr && !ret; i++) {
		if (i && jobs[i].stonewall) {
			ret = start_batch(slots, batch, n, c, cause);
			join_all(slots, n, c, stop);
			batch = n;
			if (*stop)
				break;
		}
		n += jobs[i].numjobs;
	}
	if (!ret && !*stop)
		ret = start_batch(slots, batch, n, c, cause);
	join_all(slots, out->nr, c, stop);
	out->duration = run_now() - out->t_start;
	disks_snapshot(&out->disks, true);
	if (watching) {
		pthread_mutex_lock(&wt.lock);
		wt.quit = true;
		pthread_cond_signal(&wt.cond);
		pthread_mutex_unlock(&wt.lock);
		pthread_join(wt.tid, NULL);
	}
	out->interrupted = *stop != 0;
	for (i = 0; i < out->nr; i++) {
		out->results[i].stats = slots[i].w.stats;
		out->results[i].error = slots[i].w.error;
		out->results[i].error_no = slots[i].w.error_no;
		out->results[i].first_error = slots[i].w.first_error;
		out->results[i].first_error_no = slots[i].w.first_error_no;
		slots[i].w.first_error = NULL;
		out->results[i].logs = slots[i].w.iv.logs;
		out->results[i].t_start = slots[i].w.iv.t0;
		slots[i].w.error = NULL;
		slots[i].w.iv.logs = NULL;
	}
out:
	/* A run that could not start leaves no file it created behind. */
	for (i = 0; i < ready; i++)
		worker_cleanup(&slots[i].w, ret || slots[i].w.job->unlink);
	if (ret)
		run_free(out);
	shared_free(c);
	return ret;
}

void run_free(struct run *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++) {
		free(r->results[i].error);
		free(r->results[i].first_error);
		run_logs_free(r->results[i].logs);
	}
	free(r->results);
	disks_free(&r->disks);
	memset(r, 0, sizeof(*r));
}
