/* SPDX-License-Identifier: MIT */
/*
 * One round of iogauge crash: the writer forked, its acknowledgements
 * read from the pipe into the witness's log while it runs, SIGKILL at a
 * seeded random moment, the pipe drained (what the writer sent before
 * it died was sent), the log synced, then a fresh process checks the
 * file against the round's acknowledgements.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "crash/crash.h"
#include "util/runclock.h"
#include "workload/rand.h"

/* What the two children leave for the parent: they share this page. */
struct shared {
	struct crash_figures fig;
	struct crash_hists hists; /* their buckets are the two arrays below */
	uint64_t sync_buckets[HIST_NR], wait_buckets[HIST_NR];
	struct crash_result res;
	int check_ret;
	char check_cause[1024];
};

/* Poll at least this often (ns), for a stop; the kill moment is waited
 * for exactly. */
#define POLL_NS 20000000ull

static uint64_t mix(uint64_t z)
{
	return rng_mix(z + 0x9e3779b97f4a7c15ull);
}

/* ns after the fork: uniform in [round / 2, round], from the seed. */
static uint64_t kill_delay(const struct crash_mode *m, unsigned r)
{
	uint64_t half = m->round / 2;

	return half + mix(m->seed * 0x100000001b3ull + r) % (m->round - half + 1);
}

static void child_signals(void)
{
	/* The parent decides when a child dies: a terminal's Ctrl-C reaches
	 * the whole process group. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
}

/* --trigger: @cmd through the shell, with the writer's process ID in
 * IOGAUGE_CRASH_WRITER, waited for: a power cut's command never returns.
 * A stop (SIGINT, SIGTERM) kills its process group: a command that hangs
 * held the stop for as long.  What it prints goes to standard error.
 * *@status: its wait status, or -1 when it could not start. */
static void run_trigger(const char *cmd, pid_t writer, const atomic_int *stop, int *status)
{
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = 10000000 };
	bool killed = false;
	char id[24];
	pid_t t, r;

	snprintf(id, sizeof(id), "%d", (int)writer);
	t = fork();
	if (!t) {
		setpgid(0, 0);
		/* Its output is not the report's: standard output may be JSON. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		setenv("IOGAUGE_CRASH_WRITER", id, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	*status = -1;
	if (t < 0)
		return;
	setpgid(t, t); /* either side may run first */
	while ((r = waitpid(t, status, WNOHANG)) != t) {
		if (r < 0 && errno != EINTR)
			break;
		if (*stop && !killed) {
			kill(-t, SIGKILL);
			killed = true;
		}
		nanosleep(&tick, NULL);
	}
}

/* Reads what the pipe holds into the log; @carry holds a record cut in
 * two.  1 at the end of the pipe, 0, or -errno. */
static int drain(int fd, struct crash_log *log, uint8_t *buf, size_t cap, size_t *carry,
		 uint64_t *acks, char **cause)
{
	ssize_t n = read(fd, buf + *carry, cap - *carry);
	size_t have, i;
	struct crash_ack a;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (!n)
		return 1;
	have = *carry + (size_t)n;
	for (i = 0; i + sizeof(a) <= have; i += sizeof(a)) {
		memcpy(&a, buf + i, sizeof(a));
		crash_log_ack(log, &a);
		(*acks)++;
	}
	*carry = have - i;
	memmove(buf, buf + i, *carry);
	if (log->pend.len >= CRASH_LOG_FLUSH_AT)
		return crash_log_flush(log, false, 0, 0, cause);
	return 0;
}

/* Ends round @r in the log, synced, whatever became of it: the
 * acknowledgements drained before a failure @ret were made, and a later
 * --check must see them.  @ret when it is an error (a log that cannot
 * be written then says nothing more), else the flush's. */
static int end_round(struct crash_log *log, unsigned r, uint64_t acks, int ret, char **cause)
{
	char *why = NULL;
	int fret = crash_log_flush(log, true, r, acks, ret ? &why : cause);

	free(why);
	return ret ? ret : fret;
}

/* Runs the writer until its kill; the pipe read to its end. */
static int witness_writer(const struct crash_mode *m, unsigned r, uint64_t run_id, uint64_t gen0,
			  struct crash_log *log, const atomic_int *stop, struct shared *sh,
			  struct crash_round *out, char **cause)
{
	const struct crash_figures *f = &sh->fig;
	uint8_t buf[65536];
	size_t carry = 0;
	uint64_t acks = 0, t0, kill_at, now;
	bool killed = false;
	int p[2], st, ret = 0;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return set_cause_errno(cause, errno, "pipe: %s", strerror(errno));
	(void)fcntl(p[0], F_SETPIPE_SZ, 1 << 20); /* fewer stalls; a smaller one works */
	t0 = run_now();
	out->kill_at = kill_delay(m, r);
	kill_at = t0 + out->kill_at;
	pid = fork();
	if (pid < 0) {
		ret = set_cause_errno(cause, errno, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return ret;
	}
	if (!pid) {
		close(p[0]);
		child_signals();
		crash_writer(m, run_id, gen0, p[1], &sh->fig, &sh->hists);
		_exit(1);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };

		now = run_now();
		if (!killed && (now >= kill_at || *stop)) {
			if (m->trigger && !*stop)
				run_trigger(m->trigger, pid, stop, &out->trigger_status);
			/* After the trigger: the writer lived on while it ran. */
			out->killed_after = run_now() - t0;
			kill(pid, SIGKILL);
			killed = true;
		}
		uint64_t wait = killed || kill_at - now > POLL_NS ? POLL_NS : kill_at - now;
		struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)wait };

		if (ppoll(&pf, 1, &ts, NULL) < 0 && errno != EINTR) {
			ret = set_cause_errno(cause, errno, "poll: %s", strerror(errno));
			break;
		}
		if (!(pf.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		ret = drain(p[0], log, buf, sizeof(buf), &carry, &acks, cause);
		if (ret)
			break;
	}
	if (!killed)
		kill(pid, SIGKILL); /* it ended by itself, or the witness failed */
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (ret < 0)
		return end_round(log, r, acks, ret, cause);
	ret = 0;
	if (killed && m->witness_host && !f->witnessed) {
		/* Killed still waiting for the witness's ok: nothing was witnessed. */
		ret = set_cause_errno(cause, ETIMEDOUT,
				      "round %u: the witness at %s:%s had not answered the "
				      "writer's hello when it was killed, %.3f s in: nothing "
				      "was witnessed",
				      r, m->witness_host, m->witness_port,
				      (double)out->killed_after / 1e9);
	} else if (!killed && !strcmp(f->what, "witness")) {
		ret = set_cause_errno(
			cause, f->err, "the writer stopped: the witness at %s:%s: %s%s%s%s",
			m->witness_host, m->witness_port, strerror(f->err),
			f->note[0] ? " (it said '" : "", f->note, f->note[0] ? "')" : "");
	} else if (!killed) {
		ret = set_cause_errno(
			cause, f->err ? f->err : EIO,
			"%s: the writer failed before its kill: %s at offset %llu, "
			"%llu bytes: %s",
			m->path, f->what[0] ? f->what : "?", (unsigned long long)f->err_off,
			(unsigned long long)f->err_len, strerror(f->err ? f->err : EIO));
	}
	return end_round(log, r, acks, ret, cause);
}

int crash_round_run(const struct crash_mode *m, unsigned r, uint64_t run_id, uint64_t *gen,
		    struct crash_log *log, const char *log_path, const atomic_int *stop,
		    struct crash_round *out, struct crash_hists *acc, char **cause)
{
	struct shared *sh =
		mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ret, st;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	out->round = r;
	if (sh == MAP_FAILED)
		return set_cause_errno(cause, errno, "mmap: %s", strerror(errno));
	memset(sh, 0, sizeof(*sh));
	hist_init(&sh->hists.sync);
	hist_init(&sh->hists.wait);
	sh->hists.sync.bucket = sh->sync_buckets;
	sh->hists.wait.bucket = sh->wait_buckets;
	ret = crash_log_round(log, r, cause);
	if (!ret)
		ret = witness_writer(m, r, run_id, *gen, log, stop, sh, out, cause);
	out->fig = sh->fig;
	hist_merge(&acc->sync, &sh->hists.sync);
	hist_merge(&acc->wait, &sh->hists.wait);
	out->res.acked = sh->fig.acks; /* until the check says more */
	/* Past every generation the writer may have put in the file: a write
	 * in flight at the kill has no count yet. */
	*gen += sh->fig.writes + 2;
	if (ret || m->witness_host)
		goto out; /* a remote witness holds the log: checked there, later */
	pid = fork();
	if (pid < 0) {
		ret = set_cause_errno(cause, errno, "fork: %s", strerror(errno));
		goto out;
	}
	if (!pid) {
		char *why = NULL;

		child_signals();
		sh->check_ret = crash_check(log_path, r, NULL, &sh->res, &why);
		if (why)
			snprintf(sh->check_cause, sizeof(sh->check_cause), "%s", why);
		free(why);
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		ret = set_cause_errno(cause, EIO, "the checker of round %u died", r);
		goto out;
	}
	out->res = sh->res;
	ret = sh->check_ret;
	if (ret)
		*cause = xstrdup(sh->check_cause);
out:
	munmap(sh, sizeof(*sh));
	return ret;
}
