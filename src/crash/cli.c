/* SPDX-License-Identifier: MIT */
/*
 * iogauge crash's command line: its own flags, then job files and --name
 * jobs read by the job parser, one mode a job; every job is checked
 * before the first writer starts.  Returns the exit status for main.c:
 * 0 (every promise kept), 1 (a promise broken, or a run-time failure),
 * 2 (bad input: nothing started, nothing written), 128 + a signal.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "crash/crash.h"
#include "crash/wire.h"
#include "jobfile/cli.h"
#include "jobfile/options.h"
#include "report/output.h"

static const char usage[] =
	"usage: iogauge crash [--output-format=normal|json] [--output=FILE] [--witness=LOG]\n"
	"                     [--trigger=CMD]\n"
	"                     JOBFILE... | --name=JOB --OPTION=VALUE...\n"
	"       iogauge crash --check --witness=LOG [--output-format=normal|json] [FILE]\n"
	"\n"
	"Kills a writer that stamps every block it writes and acknowledges each write\n"
	"to a witness (this process), then checks in a fresh process that every\n"
	"acknowledged block is in the file: ok, lost, torn or in the wrong place.\n"
	"Each job is one mode: filename=, size=, bs=, rw=write|randwrite, and sync=,\n"
	"direct=, fsync=N, fdatasync=N, fsync_window=TIME or ack_buffer=SIZE; rounds=N\n"
	"kills (5), each at a moment from seed= within runtime= (1s).\n"
	"  --witness=LOG     keep the acknowledgement log in LOG (one job); a remote\n"
	"                    witness is the job option: --set witness=HOST:PORT/RUN\n"
	"  --check           check the file against the log --witness names, and stop;\n"
	"                    FILE: check it instead of the file the log names\n"
	"  --trigger=CMD     run CMD (sh -c) at each kill moment, before the SIGKILL:\n"
	"                    a power cut's command; the writer's PID in IOGAUGE_CRASH_WRITER\n"
	"  --output-format=F normal (the table) or json\n"
	"  --output=FILE     write the report to FILE\n"
	"Exit status 1 when a mode that promises durability lost an acknowledged write.\n"
	"See iogauge-crash(1).\n";

static atomic_int stop;

static void on_signal(int sig)
{
	stop = sig;
}

/* Whether the job parser takes @arg (--name, --set, --section, a job
 * option): the rest are iogauge's own flags, which mean nothing here. */
static bool for_jobs(const char *arg)
{
	char name[128];
	size_t n;

	if (strncmp(arg, "--", 2))
		return true;
	n = strcspn(arg + 2, "=");
	if (n >= sizeof(name))
		return false;
	memcpy(name, arg + 2, n);
	name[n] = '\0';
	return !strcmp(name, "name") || !strcmp(name, "set") || !strcmp(name, "section") ||
	       opt_find(name);
}

struct crash_args {
	bool check, json, help;
	const char *witness, *output, *trigger;
	const char **rest; /* for the job parser: "iogauge" first */
	int nr_rest;
	int bad;
};

static void parse_args(int argc, char **argv, struct crash_args *a)
{
	const char *v;
	int i;

	a->rest = xcalloc((size_t)argc + 1, sizeof(*a->rest));
	a->rest[a->nr_rest++] = "iogauge";
	for (i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			a->help = true;
		} else if (!strcmp(s, "--check")) {
			a->check = true;
		} else if ((v = util_flag_value(s, "--witness"))) {
			a->witness = v;
		} else if ((v = util_flag_value(s, "--trigger"))) {
			a->trigger = v;
		} else if ((v = util_flag_value(s, "--output"))) {
			a->output = v;
		} else if ((v = util_flag_value(s, "--output-format"))) {
			a->json = !strcmp(v, "json");
			if (!a->json && strcmp(v, "normal")) {
				fprintf(stderr,
					"iogauge crash: --output-format=%s: normal or json\n", v);
				a->bad = 1;
			}
		} else if (!strcmp(s, "--set") && i + 1 < argc) {
			a->rest[a->nr_rest++] = s;
			a->rest[a->nr_rest++] = argv[++i];
		} else if (!for_jobs(s)) {
			fprintf(stderr,
				"iogauge crash: %s: unknown option (iogauge crash --help)\n", s);
			a->bad = 1;
		} else {
			a->rest[a->nr_rest++] = s;
		}
	}
}

/* --check: the file against the log, read only. */
static int check_main(const struct crash_args *a, struct output *dest)
{
	struct crash_result *res = xcalloc(1, sizeof(*res));
	struct strbuf out = { 0 };
	char *cause = NULL;
	int ret, status;

	if (!a->witness || a->nr_rest > 2 || (a->nr_rest == 2 && a->rest[1][0] == '-')) {
		fprintf(stderr, "iogauge crash: --check takes --witness=LOG and at most a FILE\n");
		free(res);
		return 2;
	}
	ret = crash_check(a->witness, 0, a->nr_rest == 2 ? a->rest[1] : NULL, res, &cause);
	if (ret) {
		fprintf(stderr, "iogauge crash: %s\n", cause);
		free(cause);
		free(res);
		return ret == -EINVAL ? 2 : 1;
	}
	if (output_open(dest, a->output, &cause)) {
		fprintf(stderr, "iogauge crash: %s\n", cause);
		free(cause);
		free(res);
		return 2;
	}
	if (a->json)
		crash_print_check_json(res, &out);
	else
		crash_print_check_text(res, &out);
	status = crash_result_broken(res) ? 1 : 0;
	if (output_commit(dest, out.buf, out.len, &cause)) {
		fprintf(stderr, "iogauge crash: %s\n", cause);
		free(cause);
		status = 1;
	}
	strbuf_free(&out);
	free(res);
	return status;
}

/* Whether --witness=LOG can be written, said before anything runs (a
 * folder failed the run with exit 1); 0, or -errno with it printed.  A
 * log made for the test is removed: nothing is left on bad input. */
static int witness_log_writable(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644), err;
	bool made = fd >= 0;

	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "iogauge crash: --witness=%s: %s\n", path, strerror(err));
		return -err;
	}
	close(fd);
	if (made)
		unlink(path);
	return 0;
}

/* The jobs read and each made a mode: 0, or 2 with every error printed. */
static int read_jobs(const struct crash_args *a, struct cli *cli, struct job **jobs, unsigned *nr,
		     struct crash_mode **modes)
{
	char *cause = NULL;
	unsigned i;
	int status = 0;

	if (cli_parse(cli, a->nr_rest, (char **)a->rest, &cause) ||
	    job_build_all(&cli->js, jobs, nr, &cause)) {
		fprintf(stderr, "iogauge crash: %s\n", cause);
		free(cause);
		return 2;
	}
	for (i = 0; i < cli->js.warnings.n; i++)
		fprintf(stderr, "iogauge crash: %s\n", cli->js.warnings.v[i]);
	if (!*nr) {
		fprintf(stderr, "iogauge crash: no job file or --name job given\n%s", usage);
		return 2;
	}
	for (i = 0; i < *nr && a->witness; i++)
		if ((*jobs)[i].witness) {
			fprintf(stderr,
				"iogauge crash: --witness=%s keeps the log here, and job "
				"%s sends its acknowledgements to witness=%s\n",
				a->witness, (*jobs)[i].name, (*jobs)[i].witness);
			return 2;
		}
	if (a->witness && *nr > 1) {
		fprintf(stderr,
			"iogauge crash: --witness=%s keeps the log of one job, and %u "
			"are given\n",
			a->witness, *nr);
		return 2;
	}
	if (a->witness && witness_log_writable(a->witness))
		return 2;
	*modes = xcalloc(*nr, sizeof(**modes));
	for (i = 0; i < *nr; i++) {
		(*modes)[i].trigger = a->trigger;
		if (crash_mode_make(&(*jobs)[i], &(*modes)[i], &cause)) {
			fprintf(stderr, "iogauge crash: %s\n", cause);
			free(cause);
			cause = NULL;
			status = 2;
		}
	}
	return status;
}

/* Every round of one job; the log where --witness says, or in @tmpdir. */
static int run_job(const struct crash_mode *m, const char *log_path, struct crash_job_report *rep,
		   char **cause)
{
	struct wire_hello hello;
	struct crash_log log;
	uint64_t run_id = 0, gen = 0;
	unsigned r;
	int ret;

	if (getrandom(&run_id, sizeof(run_id), 0) < 0)
		run_id = (uint64_t)getpid() ^ (uint64_t)time(NULL);
	run_id = (run_id & ((1ull << (64 - CRASH_GEN_BITS)) - 1)) | 1;
	if (m->witness_host)
		run_id = m->witness_run; /* the run the remote witness was started for */
	crash_mode_hello(m, run_id, &hello);
	rep->mode = m;
	rep->rounds = xcalloc(m->rounds, sizeof(*rep->rounds));
	hist_init(&rep->hists.sync);
	hist_init(&rep->hists.wait);
	ret = crash_log_open(&log, log_path, &hello, false, cause);
	if (ret)
		return ret;
	for (r = 1; r <= m->rounds && !stop; r++) {
		ret = crash_round_run(m, r, run_id, &gen, &log, log_path, &stop,
				      &rep->rounds[rep->nr], &rep->hists, cause);
		if (ret)
			break;
		rep->nr++;
	}
	crash_log_close(&log);
	if (!ret && m->job->unlink && unlink(m->path) && errno != ENOENT)
		ret = set_cause_errno(cause, errno, "%s: unlink: %s", m->path, strerror(errno));
	return ret;
}

static int run_main(const struct crash_args *a, struct output *dest)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct crash_job_report *reps = NULL;
	struct crash_mode *modes = NULL;
	struct job *jobs = NULL;
	struct strbuf out = { 0 };
	char tmpdir[] = "/tmp/iogauge-crash.XXXXXX", *log_path = NULL, *cause = NULL;
	struct cli cli;
	unsigned nr = 0, i, done = 0;
	int status = read_jobs(a, &cli, &jobs, &nr, &modes);

	for (i = 0; !status && i < cli.js.names.n; i++)
		if (output_is_input(a->output, cli.js.names.v[i])) {
			fprintf(stderr,
				"iogauge crash: --output=%s is %s, a job file: it would be replaced\n",
				a->output, cli.js.names.v[i]);
			status = 2;
		}
	if (!status && output_open(dest, a->output, &cause)) {
		fprintf(stderr, "iogauge crash: %s\n", cause);
		status = 2;
	}
	if (!status && !a->witness && !mkdtemp(tmpdir)) {
		fprintf(stderr, "iogauge crash: %s: %s\n", tmpdir, strerror(errno));
		status = 1;
	}
	if (status)
		goto out;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	reps = xcalloc(nr, sizeof(*reps));
	for (i = 0; i < nr && !stop; i++, done++) {
		log_path = a->witness ? xstrdup(a->witness) : xasprintf("%s/witness.%u", tmpdir, i);
		if (run_job(&modes[i], log_path, &reps[i], &cause)) {
			reps[i].failed = true;
			fprintf(stderr, "iogauge crash: [%s] %s\n", jobs[i].name, cause);
			status = 1;
		}
		if (!a->witness)
			unlink(log_path);
		free(log_path);
		if (status) {
			done++;
			break;
		}
	}
	if (!a->witness)
		rmdir(tmpdir);
	if (a->json)
		crash_print_json(reps, done, &out);
	else
		crash_print_text(reps, done, &out);
	for (i = 0; i < done && !status; i++)
		for (unsigned r = 0; r < reps[i].nr; r++)
			if (crash_result_broken(&reps[i].rounds[r].res))
				status = 1;
	if (output_commit(dest, out.buf, out.len, &cause)) {
		fprintf(stderr, "iogauge crash: %s\n", cause);
		status = 1;
	}
	if (stop && !status)
		status = 128 + stop;
out:
	for (i = 0; reps && i < nr; i++) {
		free(reps[i].rounds);
		hist_free(&reps[i].hists.sync);
		hist_free(&reps[i].hists.wait);
	}
	free(reps);
	for (i = 0; modes && i < nr; i++)
		crash_mode_free(&modes[i]);
	free(modes);
	free(cause);
	strbuf_free(&out);
	job_free_all(jobs, nr);
	cli_free(&cli);
	return status;
}

int crash_main(int argc, char **argv)
{
	struct output dest = { .path = NULL, .fd = -1 };
	struct crash_args a = { 0 };
	int status;

	parse_args(argc, argv, &a);
	if (a.help) {
		fputs(usage, stdout);
		status = 0;
	} else if (a.bad) {
		status = 2;
	} else if (a.check) {
		status = check_main(&a, &dest);
	} else {
		status = run_main(&a, &dest);
	}
	output_abandon(&dest);
	free(a.rest);
	return status;
}
