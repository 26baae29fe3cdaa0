/* SPDX-License-Identifier: MIT */
/*
 * exec: no I/O, another program run beside the jobs, as fio's exec.  At
 * the job's first "I/O" it starts program with arguments (split at
 * spaces, %r the runtime in seconds, %n the job's name), its standard
 * output and error in JOBNAME.stdout and JOBNAME.stderr (std_redirect=1).
 * Each later I/O sleeps 50 ms and the worker pauses 50 ms more, so the job
 * counts ten reads of 0 bytes a second, as fio's.  When the job ends (its
 * runtime, ENGINE_F_NOIO) the program gets SIGTERM, then SIGKILL if it
 * is still there grace_time seconds later; it is always waited for.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engines/engine.h"
#include "jobfile/options.h"
#include "util/util.h"

extern const struct engine_ops exec_engine_ops;
extern char **environ;

struct exec_opts {
	char *program;
	char *arguments;
	unsigned grace_time; /* s */
	bool std_redirect;
};

#define EF(field) .engine = &exec_engine_ops, .off = offsetof(struct exec_opts, field)

/* clang-format off */
static const struct opt_def exec_options[] = {
	{ .name = "arguments", .kind = &opt_kind_str, EF(arguments),
	  .help = "exec: the program's arguments, split at spaces (%r: runtime in s, %n: job name)" },
	{ .name = "grace_time", .kind = &opt_kind_uint, EF(grace_time), .def = "1",
	  .help = "exec: seconds between SIGTERM and SIGKILL at the job's end" },
	{ .name = "program", .kind = &opt_kind_str, EF(program),
	  .help = "exec: the program to run for the job's runtime (required)" },
	{ .name = "std_redirect", .kind = &opt_kind_bool, EF(std_redirect), .def = "1",
	  .help = "exec: the program's output to JOBNAME.stdout and JOBNAME.stderr" },
	{ .name = NULL },
};
/* clang-format on */

/* The wait between two checks on the program, in the I/O and after it
 * (fio's exec sets thinktime to this and sleeps it in its queue too). */
#define EXEC_TICK_NS 50000000ull

static int exec_check(const struct job *job, const void *o, const struct opt_def **blame,
		      char **cause)
{
	const struct exec_opts *opts = o;

	(void)job;
	(void)blame; /* ioengine=exec's line */
	if (!opts->program || !*opts->program)
		return set_cause(cause, "ioengine=exec needs program= (the program to run)");
	return 0;
}

struct exec_priv {
	char **argv; /* program and arguments, NULL-ended */
	char *cmdline;
	char *out, *err; /* JOBNAME.stdout, JOBNAME.stderr; NULL: not redirected */
	unsigned grace;	 /* s */
	pid_t pid;	 /* 0: not started; -1: ended and waited for */
};

/* @s with every @from replaced by @to, in new memory. */
static char *replace_all(const char *s, const char *from, const char *to)
{
	struct strbuf sb = { 0 };
	const char *p;

	while ((p = strstr(s, from))) {
		strbuf_addf(&sb, "%.*s%s", (int)(p - s), s, to);
		s = p + strlen(from);
	}
	strbuf_adds(&sb, s);
	return strbuf_detach(&sb);
}

/* Whether @prog can be run as execvp would find it: 0 or -errno. */
static int findable(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	int err = ENOENT;

	if (strchr(prog, '/'))
		return access(prog, X_OK) ? -errno : 0;
	for (p = path ? path : "/bin:/usr/bin"; p; p = *end ? end + 1 : NULL) {
		char *full;
		struct stat st;

		end = strchrnul(p, ':');
		full = xasprintf("%.*s%s%s", (int)(end - p), p, end > p ? "/" : "", prog);
		if (!stat(full, &st) && S_ISREG(st.st_mode) && !access(full, X_OK)) {
			free(full);
			return 0;
		}
		if (errno == EACCES)
			err = EACCES;
		free(full);
	}
	return -err;
}

static void exec_release(struct exec_priv *p)
{
	unsigned i;

	for (i = 0; p->argv && p->argv[i]; i++)
		free(p->argv[i]);
	free(p->argv);
	free(p->cmdline);
	free(p->out);
	free(p->err);
	free(p);
}

static int exec_init(struct engine *e, const struct engine_setup *s, char **cause)
{
	const struct exec_opts *o = s->opts;
	struct exec_priv *p = xcalloc(1, sizeof(*p));
	char secs[24], *args, *named, *tok, *save = NULL;
	unsigned n = 0;
	int r;

	/* As fio: program and arguments make one line, split at spaces. */
	snprintf(secs, sizeof(secs), "%llu", (unsigned long long)(s->job->runtime / 1000000000));
	args = replace_all(o->arguments ? o->arguments : "", "%r", secs);
	named = replace_all(args, "%n", s->job->name);
	free(args);
	p->cmdline = xasprintf("%s%s%s", o->program, *named ? " " : "", named);
	free(named);
	args = xstrdup(p->cmdline);
	p->argv = xcalloc(strlen(args) / 2 + 2, sizeof(*p->argv));
	for (tok = strtok_r(args, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		p->argv[n++] = xstrdup(tok);
	free(args);
	r = findable(p->argv[0]);
	if (r) {
		*cause = xasprintf("program=%s: %s", p->argv[0], strerror(-r));
		exec_release(p);
		return r;
	}
	if (o->std_redirect) {
		p->out = xasprintf("%s.stdout", s->job->name);
		p->err = xasprintf("%s.stderr", s->job->name);
	}
	p->grace = o->grace_time;
	e->priv = p;
	e->think = EXEC_TICK_NS;
	return 0;
}

/* The program started, its output where std_redirect says: 0 or -errno. */
static int exec_start(struct exec_priv *p)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t all, none;
	int r;

	/* The clone ignores the stop signals (the run's process takes
	 * them): the program gets them back, and nothing blocked. */
	sigfillset(&all);
	sigemptyset(&none);
	r = posix_spawnattr_init(&at);
	if (r)
		return -r;
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	r = posix_spawn_file_actions_init(&fa);
	if (r) {
		posix_spawnattr_destroy(&at);
		return -r;
	}
	if (p->out) {
		r = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, p->out,
						     O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (!r)
			r = posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, p->err,
							     O_WRONLY | O_CREAT | O_TRUNC, 0644);
	}
	if (!r)
		r = posix_spawnp(&p->pid, p->argv[0], &fa, &at, p->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (r) {
		p->pid = -1;
		return -r;
	}
	return 0;
}

static enum engine_q exec_queue(struct engine *e, struct io_req *req)
{
	struct exec_priv *p = e->priv;
	struct timespec tick = { 0, (long)EXEC_TICK_NS };
	int r = 0;

	if (!p->pid) {
		r = exec_start(p);
	} else {
		/* An early end is waited for; the job still runs its time. */
		if (p->pid > 0 && waitpid(p->pid, NULL, WNOHANG) == p->pid)
			p->pid = -1;
		while (nanosleep(&tick, &tick) && errno == EINTR)
			;
	}
	req->len = 0;
	req->res = r;
	return ENGINE_Q_DONE;
}

/* SIGTERM, up to grace seconds for it to end, then SIGKILL; waited for. */
static void exec_stop(struct exec_priv *p)
{
	struct timespec tick = { 0, 10000000 };
	unsigned waited = 0;

	if (p->pid <= 0)
		return;
	kill(p->pid, SIGTERM);
	while (waitpid(p->pid, NULL, WNOHANG) == 0) {
		if (waited++ >= p->grace * 100u) {
			kill(p->pid, SIGKILL);
			while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
				;
			break;
		}
		nanosleep(&tick, NULL);
	}
	p->pid = -1;
}

static void exec_cleanup(struct engine *e)
{
	exec_stop(e->priv);
	exec_release(e->priv);
	e->priv = NULL;
}

const struct engine_ops exec_engine_ops = {
	.name = "exec",
	.desc = "runs a program for the job's runtime, no I/O",
	.help = "No I/O: runs program with arguments (%r: the runtime in seconds, %n: the\n"
		"job's name) for the job's runtime, its output in JOBNAME.stdout and\n"
		"JOBNAME.stderr (std_redirect=0: iogauge's own), then SIGTERM and,\n"
		"grace_time seconds later, SIGKILL.  Counts ten reads of 0 bytes a second.",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOFILES | ENGINE_F_NOIO,
	.options = exec_options,
	.opts_size = sizeof(struct exec_opts),
	.check = exec_check,
	.init = exec_init,
	.queue = exec_queue,
	.cleanup = exec_cleanup,
};
