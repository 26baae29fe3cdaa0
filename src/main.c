/* SPDX-License-Identifier: MIT */
/*
 * iogauge: the executable.  Wires the command line to the job parser and
 * prints; the only file that calls exit().  Exit status: 0 success, 1 a
 * run that could not complete, 2 bad input (nothing started, nothing
 * written), 128 + the signal for a run a signal stopped.
 */
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jobfile/cli.h"
#include "jobfile/help.h"
#include "bundle/bundle.h"
#include "compare/compare.h"
#include "crash/crash.h"
#include "engines/engine.h"
#include "jobfile/job.h"
#include "jobfile/options.h"
#include "mpi/mpi.h"
#include "plan/plan.h"
#include "report/inflate.h"
#include "report/output.h"
#include "report/eta.h"
#include "report/report.h"
#include "recipe/recipe.h"
#include "run/run.h"
#include "run/status.h"
#include "run/trigger.h"
#include "sqlio/sqlio.h"
#include "pts/pts.h"
#include "sweep/sweep.h"
#include "util/sysutil.h"
#include "verify/crctest.h"
#include "version/version.h"
#include "workload/blktrace.h"

#define EXIT_FAILED    1
#define EXIT_BAD_INPUT 2

/* An error's status from its code: -EINVAL is bad input (set_cause(), or
 * the kernel refusing what the job asked), anything else the system's. */
static int exit_status_of(int err)
{
	return err == -EINVAL ? EXIT_BAD_INPUT : EXIT_FAILED;
}

/*
 * A closed 0, 1 or 2 would be the next file opened: a job's data file
 * would take the status lines or the report.  Each is filled with
 * /dev/null opened the other way round, as glibc does for set-user-ID
 * programs, so that using it fails with EBADF as a closed one would.
 * 0, or -errno.
 */
static int std_fds_fill(void)
{
	int fd, got;

	for (fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		got = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
		if (got != fd) {
			int err = got < 0 ? errno : EBADF;

			if (got >= 0)
				close(got);
			return -err;
		}
	}
	return 0;
}

static char stdout_buf[1 << 16];

/* Errors of the job files and command line, one a line: each gets the
 * program's name, and @what ("" or "warning: "). */
static void print_lines(const char *what, const char *text)
{
	const char *nl;

	for (; (nl = strchr(text, '\n')); text = nl + 1)
		fprintf(stderr, "iogauge: %s%.*s\n", what, (int)(nl - text), text);
	fprintf(stderr, "iogauge: %s%s\n", what, text);
}

static void print_errors(const char *text)
{
	print_lines("", text);
}

/* Standard output's last flush (help, --parse-only, --job): a write that
 * failed is status 1, unless the status already tells of a failure. */
static int flush_stdout(int status)
{
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return status;
	if (!status) {
		fprintf(stderr, "iogauge: standard output: %s\n", strerror(errno ? errno : EIO));
		status = EXIT_FAILED;
	}
	return status;
}

static const char usage[] =
	"usage: iogauge [options] [JOBFILE...] [--name=JOB --OPTION=VALUE...]\n"
	"\n"
	"Runs fio-style job files and command-line jobs.\n"
	"\n"
	"  --parse-only        print every job with each option's final value and its origin\n"
	"  --readonly          refuse every job that writes or trims, and any file to lay out\n"
	"  --section=NAME      use only the job(s) named NAME (repeatable)\n"
	"  --set KEY=VALUE     override KEY in every job after the files are read (repeatable)\n"
	"  --name=NAME         start a command-line job; job options follow as --OPTION=VALUE\n"
	"  --OPTION=VALUE      a job option; before the first --name it is a default for all\n"
	"  --output-format=F   normal, json, json+, terse (or csv), spreadsheet, openmetrics\n"
	"                      or html; a comma list prints several\n"
	"  --minimal           the same as --output-format=terse\n"
	"  --terse-version=N   fio's terse format version 2, 3 (the default), 4 or 5\n"
	"  --output=FILE       write the report to FILE instead of standard output\n"
	"  --html=FILE         write the HTML page to FILE, beside the other formats\n"
	"  --eta=WHEN          live status on stderr: auto (a terminal only), always, never\n"
	"  --eta-interval=T    a status line every T (default 1s, at least 250ms)\n"
	"  --eta-newline=T     on a terminal, keep a status line every T instead of rewriting it\n"
	"  --status-interval=T the full report so far every T while jobs run (also on SIGUSR1)\n"
	"  --plot=DIR          write SVG plots of latency, IOPS and bandwidth into DIR\n"
	"  --help-options      list every job option\n"
	"  --cmdhelp=OPTION    one option's help, type and default; alone, every option's help\n"
	"  --showcmd           print the job files as one command line and stop\n"
	"  --warnings-fatal    a warning about a job is an error: nothing runs\n"
	"  --max-jobs=N        read and ignored, as fio 3.33 does\n"
	"  --trigger-file=F    stop the run when file F appears (it is removed)\n"
	"  --trigger-timeout=T stop the run T (whole seconds) after it starts\n"
	"  --trigger=CMD       run CMD through the shell when a trigger fires\n"
	"  --crctest=LIST      the speed of each checksum verify= can use (list: --crctest=list)\n"
	"  --bandwidth-log     with the status line, write agg-{read,write,trim}_bw.log\n"
	"  --summary           end with the run in one line: rates, latency, page cache or not\n"
	"  --bundle=PATH       also write PATH, a .tar.gz of the job files, options, json+ report\n"
	"                      and the machine's description (no data of the files under test)\n"
	"  --inflate-log=FILE  print the text of a log fio stored compressed (.fz)\n"
	"  --merge-blktrace-only write each merge_blktrace_file and stop\n"
	"  --per-rank          under mpirun, a report row per rank besides each host's\n"
	"  --rank-stonewall    under mpirun, the first rank to finish its jobs stops every rank\n"
	"  --idle-prof=MODE    CPU idleness during the run: system, percpu; calibrate: the unit only\n"
	"  --aux-path=DIR      write verify state and verify_dump files in DIR, not here\n"
	"  --profile=NAME      add the jobs of fio's built-in benchmark NAME (tiobench, act)\n"
	"  --clock-info        print the clock source and the cost of one clock read\n"
	"  --list-engines      list the I/O engines of this build\n"
	"  --enghelp=ENGINE    what ENGINE does and the job options it acts on\n"
	"  --version           print the version\n"
	"  --help              this text\n"
	"\n"
	"A JOBFILE of - is read from standard input.  See iogauge(1) and iogauge-jobfile(5).\n"
	"\n"
	"iogauge sqlio [SQLIO FLAGS] [FILE...] runs a SQLIO v1.5.SG command line (iogauge sqlio -?).\n"
	"iogauge compare A B [C...] compares runs' JSON reports (iogauge compare --help).\n"
	"iogauge sweep JOBFILE --OPTION=V1,V2,... runs the job over values (iogauge sweep --help).\n"
	"iogauge slo JOBFILE --target='p99<=2ms' finds the highest rate meeting it (iogauge slo --help).\n"
	"iogauge pts iops|throughput|latency DEVICE --destroy-data: SNIA PTS (iogauge pts --help).\n"
	"iogauge crash JOBFILE kills a writer and checks its acknowledged writes (iogauge crash --help).\n"
	"iogauge witness --listen=ADDR:PORT records a remote writer's acknowledgements (--help).\n"
	"iogauge recipes lists the recipes; iogauge recipe NAME [--set KEY=VALUE...] runs one.\n";

static const char sqlio_usage[] =
	"usage: iogauge sqlio [options] [<filename>...]\n"
	"        SQLIO v1.5.SG's options, on Linux:\n"
	"        -k<R|W>                 kind of IO (R=reads, W=writes)\n"
	"        -t<threads>             number of threads\n"
	"        -s<secs>                number of seconds to run\n"
	"        -d<drive>               accepted with one letter; Linux uses the path as given\n"
	"        -f<stripe factor>       stripe size in blocks, random, or sequential\n"
	"        -p[I]<cpu affinity>     cpu number for affinity (0 based)\n"
	"        -a[R[I]]<cpu mask>      cpu mask for (R=roundrobin) affinity\n"
	"        -o<#outstanding>        I/Os in flight per thread per file\n"
	"        -b<io size(KB)>         IO block size in KB\n"
	"        -i<#IOs/run>            number of IOs per IO run (stripe factor only)\n"
	"        -m<[C|S]><#sub-blks>    do multi blk IO (C=copy, S=scatter/gather)\n"
	"        -L<[S|P][i|]>           latencies (i: initiation latencies too)\n"
	"        -U[p]                   report system (p=per processor) utilization\n"
	"        -B<[N|Y|H|S]>           N: O_DIRECT+O_DSYNC, Y: buffered, H: O_DIRECT, S: O_DSYNC\n"
	"        -S<#blocks>             start I/Os #blocks into file\n"
	"        -v1.1.1                 I/O runs use the same blocks, as in version 1.1.1\n"
	"        -64                     accepted (iogauge is 64-bit)\n"
	"        -F<paramfile>           read '<file> <threads> [<mask> [<size MB>]]' lines\n"
	"Defaults:\n"
	"        -kR -t1 -s30 -f64 -b2 -i64 -BN testfile.dat\n"
	"iogauge's own:\n"
	"        --job                   print the equivalent job file and stop\n"
	"        --ioengine=NAME         io_uring (the default), libaio, psync, ...\n"
	"        --output-format=LIST    sqlio (the default), normal, json, json+, terse,\n"
	"                                spreadsheet, openmetrics, html\n"
	"        --output=FILE, --html=FILE, --eta=WHEN, --plot=DIR, --readonly   as for iogauge\n"
	"        --per-rank, --rank-stonewall  under mpirun, as for iogauge\n"
	"See iogauge-sqlio(1).\n";

/* fio's checksums that iogauge does not have, for a clearer refusal. */
static const char *const fio_only_sums[] = { "murmur3", "jhash", "fnv" };

/* --crctest[=LIST]: each checksum's speed, in fio's format and order.
 * 0, or EXIT_BAD_INPUT for a name that is none of them. */
static int crctest(const char *list)
{
	bool want[32] = { false };
	char *copy = xstrdup(list), *tok, *save = NULL;
	unsigned i, k;
	int status = 0, n;
	double mib;

	if (!strcmp(list, "help") || !strcmp(list, "list")) {
		for (i = 0; crctest_name(i); i++)
			printf("%s\n", crctest_name(i));
		free(copy);
		return 0;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		n = crctest_find(tok);
		if (n >= 0) {
			want[n] = true;
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(fio_only_sums) && strcmp(tok, fio_only_sums[k]); k++)
			;
		fprintf(stderr, "iogauge: --crctest=%s: %s (iogauge --crctest=list lists them)\n",
			tok,
			k < ARRAY_SIZE(fio_only_sums) ? "a fio checksum that iogauge does not have"
						      : "no such checksum");
		status = EXIT_BAD_INPUT;
	}
	free(copy);
	for (i = 0; !status && crctest_name(i); i++) {
		if (*list && !want[i])
			continue;
		mib = crctest_run(i);
		if (mib < 0) {
			fprintf(stderr, "iogauge: --crctest: no memory for the buffer\n");
			status = EXIT_FAILED;
		} else if (mib == 0) {
			printf("%s:inf MiB/sec\n", crctest_name(i));
		} else {
			/* fio's layout: one tab after a name of 7 characters or more. */
			printf("%s:%s%8.2f MiB/sec\n", crctest_name(i),
			       strlen(crctest_name(i)) >= 7 ? "\t" : "\t\t", mib);
		}
	}
	crctest_done();
	return status;
}

static atomic_int stop;
/* A copy of --output's temporary's name while the run and the report
 * last: a second signal removes it (after the rename, nothing is there).
 * Atomic: the signal may land in any thread. */
static char *_Atomic output_tmp;
static char *_Atomic html_tmp; /* the same for --html's file */

/* A signal this soon after the first is the same event told twice:
 * timeout(1) sends its SIGTERM to the program and to its process group,
 * and both reach this process; a terminal's Ctrl-C is one keypress. */
#define SIGNAL_REPEAT_NS 100000000ull

/* When the first signal came (CLOCK_MONOTONIC ns). */
static _Atomic uint64_t stop_ns;

static uint64_t signal_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The first Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) drains and reports; a
 * second one, 0.1 s or more later, ends the program, as in SQLIO.  stop
 * holds the signal: the exit status is 128 + it, as a shell reports a
 * program the signal killed (fio 3.33 exits 128 for any). */
static void on_signal(int sig)
{
	uint64_t now = signal_clock();

	if (stop) {
		char *tmp = output_tmp;

		if (now - stop_ns < SIGNAL_REPEAT_NS)
			return;
		if (tmp)
			unlink(tmp);
		tmp = html_tmp;
		if (tmp)
			unlink(tmp);
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stop_ns = now;
	stop = sig;
}

/* The clock every latency is read from, and what one read costs. */
static void clock_info(void)
{
	char src[64] = "unknown";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	uint64_t t0, t1;
	unsigned i, n = 1000000;

	if (f) {
		if (fgets(src, sizeof(src), f))
			src[strcspn(src, "\n")] = '\0';
		fclose(f);
	}
	t0 = run_now();
	for (i = 0; i < n; i++)
		(void)run_now(); /* in another file: the call is not optimised away */
	t1 = run_now();
	printf("clock: CLOCK_MONOTONIC (clock_gettime), kernel clocksource %s\n", src);
	printf("cost: %.1f ns per read (%u reads)\n", (double)(t1 - t0) / n, n);
}

/* --idle-prof=calibrate: the unit of work's time, as fio prints it; nothing runs. */
static int idle_calibrate(void)
{
	struct idleprof ip;
	struct strbuf sb = { 0 };
	char *cause = NULL;

	if (idleprof_init(&ip, IDLEPROF_CALIBRATE, &cause)) {
		fprintf(stderr, "iogauge: %s\n", cause);
		free(cause);
		return EXIT_FAILED;
	}
	report_idle(&ip.fig, &sb);
	fputs(sb.buf, stdout);
	strbuf_free(&sb);
	idleprof_free(&ip);
	return 0;
}

/* The report in every format asked for: terse, then JSON, then normal,
 * as fio 3.33 orders them; @sep: a report came before, and the normal
 * one starts with a blank line after it; then the spreadsheet's CSV and
 * OpenMetrics, iogauge's own (OpenMetrics last: it ends in # EOF). */
static void report(const struct cli *cli, const struct sqlio *sq, const struct run *run,
		   const char *util, bool sep, struct strbuf *out)
{
	unsigned f = cli->formats ? cli->formats : CLI_FMT_NORMAL;

	if (f & CLI_FMT_SQLIO)
		report_sqlio(sq, run, util, out);
	if (f & CLI_FMT_TERSE)
		report_terse_version(run, cli->terse_version ? cli->terse_version : 3, out);
	if (f & (CLI_FMT_JSON | CLI_FMT_JSONPLUS)) {
		size_t at = out->len;

		report_json(run, &cli->js, f & CLI_FMT_JSONPLUS, out);
		/* --status-interval: JSON lines, a report a line, for a dashboard to tail. */
		if (cli->status_interval)
			report_json_line(out, at);
	}
	if (f & CLI_FMT_NORMAL) {
		if (sep)
			strbuf_addc(out, '\n');
		report_text(run, out);
	}
	if (f & CLI_FMT_SPREADSHEET)
		report_csv(run, out);
	if (f & CLI_FMT_OPENMETRICS)
		report_openmetrics(run, out);
	if ((f & CLI_FMT_HTML) && !cli->html)
		report_html(run, &(struct report_html_about){ &cli->js, cli->argc, cli->argv },
			    out);
}

/* SIGUSR1, as fio's: a full report of the run so far.  sem_post is
 * async-signal-safe. */
static sem_t status_sem;

static void on_status_signal(int sig)
{
	(void)sig;
	sem_post(&status_sem);
}

/* The status reports' hook (--status-interval, SIGUSR1, fio-dump-status). */
struct status_show {
	const struct cli *cli;
	const struct sqlio *sq;
	struct output *dest;
	unsigned shown;
	bool failed;
	bool below_eta; /* the status line and the reports share a terminal */
};

/* A report of the run so far, from the run's status thread, where the
 * last one will go; a failure to write it is told once. */
static void status_show(const struct run *snap, void *arg)
{
	struct status_show *ss = arg;
	struct strbuf out = { 0 };
	char *cause = NULL;

	report(ss->cli, ss->sq, snap, NULL, ss->shown > 0, &out);
	/* As fio: the report starts below the status line, not over it. */
	if (ss->below_eta && !ss->dest->path) {
		fputc('\n', stderr);
		fflush(stderr);
	}
	if (output_append(ss->dest, out.buf ? out.buf : "", out.len, &cause)) {
		if (!ss->failed)
			fprintf(stderr, "iogauge: %s\n", cause);
		free(cause);
		ss->failed = true;
	}
	ss->shown++;
	strbuf_free(&out);
}

/* An output.c message about --html's file: it names the file as --output's. */
static void print_html_cause(char *cause)
{
	const char *rest = strncmp(cause, "--output=", 9) ? NULL : cause + 9;

	fprintf(stderr, "iogauge: %s%s\n", rest ? "--html=" : "", rest ? rest : cause);
	free(cause);
}

static int run_and_report(const struct cli *cli, const struct sqlio *sq,
			  const struct run_plan *plan, struct output *dest, struct output *html)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct eta_state es = { .tty = isatty(STDERR_FILENO),
				.newline = cli->eta_newline,
				.kept = run_now(),
				.agg = cli->bandwidth_log,
				.agg_t0 = run_now(),
				.agg_prev_t = run_now(),
				.units = report_status_units(plan->jobs, plan->nr) };
	struct status_show ss = { .cli = cli, .sq = sq, .dest = dest };
	struct sigaction su1 = { .sa_handler = on_status_signal, .sa_flags = SA_RESTART };
	struct run_watch watch = { .fn = eta_show,
				   .layout = eta_layout_show,
				   .arg = &es,
				   .every = cli->eta_interval ? cli->eta_interval : 1000000000ull,
				   .report = status_show,
				   .report_arg = &ss,
				   .report_every = cli->status_interval,
				   .report_now = &status_sem };
	struct strbuf out = { 0 }, util = { 0 }, summary = { 0 };
	struct sysutil_snap su[2] = { 0 };
	struct trigger tg;
	bool triggering;
	struct idleprof idle;
	struct run run;
	char *dump_path;
	char *cause = NULL, *ranks_failed;
	bool had_failed_ranks;
	uint64_t t0;
	unsigned i;
	int status = 0, ret;

	sigemptyset(&sa.sa_mask);
	/* A closed terminal (SIGHUP) and Ctrl-\ (SIGQUIT) stop the run as
	 * Ctrl-C does: the report still comes, unlink=1 files still go. */
	for (i = 0; i < RUN_NR_STOP_SIGNALS; i++)
		sigaction(run_stop_signals[i], &sa, NULL);
	sem_init(&status_sem, 0, 0);
	sigemptyset(&su1.sa_mask);
	sigaction(SIGUSR1, &su1, NULL);
	watch.dump_file = dump_path = status_dump_path();
	if (cli->eta == CLI_ETA_NEVER || (cli->eta == CLI_ETA_AUTO && !es.tty)) {
		watch.fn = NULL;
		watch.layout = NULL;
	}
	ss.below_eta = watch.fn && es.tty && isatty(STDOUT_FILENO);
	if (sq && sq->util && sysutil_snap_read(&su[0], "/proc", &cause)) {
		fprintf(stderr, "iogauge: -U: %s\n", cause);
		free(cause);
		return EXIT_FAILED;
	}
	/* Calibrated before anything is opened: a failure here starts nothing. */
	if (cli->idle_prof && idleprof_init(&idle, (enum idleprof_mode)cli->idle_prof, &cause)) {
		fprintf(stderr, "iogauge: %s\n", cause);
		free(cause);
		sysutil_snap_free(&su[0]);
		return EXIT_FAILED;
	}
	watch.idle = cli->idle_prof ? &idle : NULL;
	t0 = run_now();
	triggering = trigger_start(&tg, cli->trigger_file, cli->trigger_timeout, cli->trigger_cmd,
				   &stop);
	mpi_run_begin(&stop, &watch, cli->rank_stonewall);
	ret = run_jobs(plan, &stop, &watch, &run, &cause);
	/* MPI: rank 0 sums every rank's results into run and names the failed. */
	ret = mpi_run_end(ret, cause, &run, cli->per_rank, &ranks_failed);
	had_failed_ranks = ranks_failed != NULL;
	if (ranks_failed)
		print_errors(ranks_failed);
	free(dump_path);
	if (triggering)
		trigger_stop(&tg);
	if (ret && cli->idle_prof)
		idleprof_free(&idle);
	if (ret) {
		if (es.width && es.tty)
			fprintf(stderr, "\r%*s\r", (int)es.width, "");
		fprintf(stderr, "iogauge: %s\n", cause);
		free(cause);
		free(ranks_failed);
		sysutil_snap_free(&su[0]);
		for (i = 0; i < 3; i++)
			strbuf_free(&es.agg_log[i]);
		/* A signal ended a layout: 128 + it, as after a run it stopped;
		 * not when another rank's failure stopped it (MPI): that failed. */
		if (ret == -EINTR && stop && !had_failed_ranks)
			return 128 + (stop == TRIGGER_STOP ? SIGTERM : stop);
		return exit_status_of(ret);
	}
	if (sq && sq->util) {
		double secs = (double)(run_now() - t0) / 1e9, *v;

		if (sysutil_snap_read(&su[1], "/proc", &cause)) {
			fprintf(stderr, "iogauge: -U: %s\n", cause);
			free(cause);
			status = EXIT_FAILED;
		} else {
			unsigned cols =
				su[1].nr_cpus < su[0].nr_cpus ? su[1].nr_cpus : su[0].nr_cpus;

			v = sysutil_table_of(&su[0], &su[1], secs);
			sysutil_table(v, sq->util == 'P' ? cols + 1 : 1, cols + 1, &util);
			free(v);
		}
		sysutil_snap_free(&su[0]);
		sysutil_snap_free(&su[1]);
	}
	if (es.have_prev && es.tty)
		fprintf(stderr, "\r%*s\r", (int)es.width, "");
	/* fio's JSON report works out an ETA as it starts, and that takes a
	 * --bandwidth-log sample too: the run's bytes since the last one. */
	if (cli->bandwidth_log && (cli->formats & (CLI_FMT_JSON | CLI_FMT_JSONPLUS))) {
		struct run_status fin = { 0 };

		for (i = 0; i < run.nr; i++) {
			fin.bytes[0] += run.results[i].stats.dir[STAT_READ].bytes;
			fin.bytes[1] += run.results[i].stats.dir[STAT_WRITE].bytes;
			fin.trim_bytes += run.results[i].stats.dir[STAT_TRIM].bytes;
		}
		eta_agg_sample(&es, &fin, run_now());
	}
	/* fio prints act's table once, as its last job ends, before the report. */
	if (cli->act_rows)
		report_act(&run, cli->act_rows, &out);
	report(cli, sq, &run, util.buf, ss.shown > 0, &out);
	/* After the normal report; with only other formats, on stderr (JSON
	 * stays JSON), past its blank line. */
	if (cli->summary)
		report_summary(&run, cli->formats & ~CLI_FMT_NORMAL ? &summary : &out);
	strbuf_free(&util);
	if (output_commit(dest, out.buf ? out.buf : "", out.len, &cause)) {
		fprintf(stderr, "iogauge: %s\n", cause);
		free(cause);
		status = EXIT_FAILED;
	}
	if (summary.len)
		fputs(summary.buf + 1, stderr);
	strbuf_free(&summary);
	if (ss.failed)
		status = EXIT_FAILED;
	if (cli->html) {
		out.len = 0;
		report_html(&run, &(struct report_html_about){ &cli->js, cli->argc, cli->argv },
			    &out);
		if (output_commit(html, out.buf, out.len, &cause)) {
			print_html_cause(cause);
			status = EXIT_FAILED;
		}
	}
	strbuf_free(&out);
	for (i = 0; i < run.nr; i++) {
		/* Passed over, still failed: the report has them, the status too. */
		if (run.results[i].stats.errors) {
			struct strbuf line = { 0 };

			report_passed_over(&run.results[i].stats, run.results[i].first_error,
					   &line);
			fprintf(stderr, "iogauge: [%s] %s\n", run.results[i].job->name, line.buf);
			strbuf_free(&line);
			/* As fio, errnos ignore_error names do not fail the run. */
			if (run.results[i].stats.errors > run.results[i].stats.errors_listed)
				status = EXIT_FAILED;
		}
		if (run.results[i].error) {
			fprintf(stderr, "iogauge: [%s] %s\n", run.results[i].job->name,
				run.results[i].error);
			status = EXIT_FAILED;
		}
	}
	if (!mpi_rank() &&
	    (report_logs(&run, &cause) || (cli->plot && report_plots(&run, cli->plot, &cause)) ||
	     (cli->bundle &&
	      bundle_write(cli->bundle,
			   &(struct report_html_about){ &cli->js, cli->argc, cli->argv }, &run,
			   &cause)) ||
	     (cli->bandwidth_log && eta_agg_write(&es, &cause)))) {
		fprintf(stderr, "iogauge: %s\n", cause);
		free(cause);
		status = EXIT_FAILED;
	}
	/* A trigger's stop is the run's end, as in fio: not a signal's. */
	if (run.interrupted && !atomic_load(&tg.fired))
		status = 128 + stop; /* 130 SIGINT, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT */
	if (ranks_failed)
		status = EXIT_FAILED;
	free(ranks_failed);
	run_free(&run);
	if (cli->idle_prof)
		idleprof_free(&idle);
	for (i = 0; i < 3; i++)
		strbuf_free(&es.agg_log[i]);
	return status;
}

/* Plans, warns, opens --output, runs and reports: the exit status. */
static int run_to_output(const struct cli *cli, const struct sqlio *sq, struct job *jobs,
			 unsigned nr)
{
	struct str_list warn = { 0 };
	struct run_plan plan;
	struct output dest, html = { .fd = -1 };
	char *cause = NULL, *tmp;
	unsigned i;
	int status;

	/* Every job that --readonly refuses, not the first alone. */
	for (i = 0, status = 0; cli->readonly && i < nr; i++) {
		if (job_modifies(&jobs[i])) {
			fprintf(stderr,
				"iogauge: [%s] rw=%s %s, and --readonly refuses every job that "
				"writes or trims\n",
				jobs[i].name, opt_enum_name(OPT_RW, (int)jobs[i].rw),
				job_does(&jobs[i], DDIR_TRIM) ? "trims" : "writes");
			status = EXIT_BAD_INPUT;
		}
		jobs[i].read_only = true;
	}
	if (status)
		return status;
	for (i = 0; i < nr; i++) {
		jobs[i].aux_path = cli->aux_path;
		/* --profile=act's slices, counted by every job as in fio. */
		jobs[i].act_slices = cli->act_prep ? 0 : cli->act_rows;
		jobs[i].act_slice_ns = cli->act_slice_ns;
	}

	job_warnings(jobs, nr, &warn);
	for (i = 0; i < warn.n; i++)
		fprintf(stderr, "iogauge: warning: %s\n", warn.v[i]);
	if (warn.n && cli->warnings_fatal) {
		fprintf(stderr, "iogauge: --warnings-fatal: nothing runs\n");
		str_list_clear(&warn);
		return EXIT_BAD_INPUT;
	}
	str_list_clear(&warn);
	/* Every size checked before anything is opened or written. */
	if (plan_jobs(jobs, nr, (uint64_t)sysconf(_SC_PAGESIZE), &plan, &cause)) {
		print_errors(cause);
		free(cause);
		return EXIT_BAD_INPUT;
	}
	/* Checked before anything runs: a report, log or plot that cannot be
	 * written is bad input, not the end of a long run. */
	for (i = 0; i < cli->js.names.n && !cause; i++) {
		const char *in = cli->js.names.v[i];

		if (output_is_input(cli->output, in))
			cause = xasprintf("--output=%s is %s, a job file: it would be replaced",
					  cli->output, in);
		else if (output_is_input(cli->html, in))
			cause = xasprintf("--html=%s is %s, a job file: it would be replaced",
					  cli->html, in);
		else if (output_is_input(cli->bundle, in))
			cause = xasprintf("--bundle=%s is %s, a job file: it would be replaced",
					  cli->bundle, in);
	}
	if (!cause && cli->bundle &&
	    ((cli->output &&
	      (!strcmp(cli->bundle, cli->output) || output_is_input(cli->bundle, cli->output))) ||
	     (cli->html &&
	      (!strcmp(cli->bundle, cli->html) || output_is_input(cli->bundle, cli->html)))))
		cause = xasprintf("--bundle=%s: the same file as --output or --html: one would "
				  "replace the other",
				  cli->bundle);
	if (cause || report_files_check(jobs, nr, cli->plot, &cause) ||
	    (cli->bundle && bundle_check(cli->bundle, &cause)) ||
	    output_open(&dest, mpi_rank() ? NULL : cli->output, &cause)) {
		fprintf(stderr, "iogauge: %s\n", cause);
		free(cause);
		plan_free(&plan);
		return EXIT_BAD_INPUT;
	}
	if (cli->html && output_open(&html, mpi_rank() ? NULL : cli->html, &cause)) {
		print_html_cause(cause);
		output_abandon(&dest);
		plan_free(&plan);
		return EXIT_BAD_INPUT;
	}
	output_tmp = dest.tmp ? xstrdup(dest.tmp) : NULL;
	html_tmp = html.tmp ? xstrdup(html.tmp) : NULL;
	/* MPI: no rank runs unless every rank got this far. */
	status = mpi_agree(0);
	if (!status)
		status = run_and_report(cli, sq, &plan, &dest, &html);
	plan_free(&plan);
	tmp = atomic_exchange(&output_tmp, NULL);
	free(tmp);
	tmp = atomic_exchange(&html_tmp, NULL);
	free(tmp);
	output_abandon(&dest);
	output_abandon(&html);
	return status;
}

static int take_report_flag(void *arg, int argc, char **argv, int *i, char **cause)
{
	return cli_report_flag(arg, argc, argv, i, cause);
}

/* iogauge sqlio: SQLIO's command line, run as the job file it stands for. */
static int sqlio_main(int argc, char **argv)
{
	struct strbuf text = { 0 };
	struct job *jobs = NULL;
	struct sqlio sq;
	struct cli cli;
	char *cause = NULL;
	unsigned nr = 0, i;
	int ret, status = 0;

	memset(&cli, 0, sizeof(cli));
	memset(&sq, 0, sizeof(sq));
	jobset_init(&cli.js);
	/* Under mpirun, as the job-file path: one report from rank 0. */
	if ((ret = mpi_start(&argc, &argv, &cause))) {
		fprintf(stderr, "iogauge sqlio: %s\n", cause);
		free(cause);
		cli_free(&cli);
		return mpi_finish(ret == -EINVAL ? EXIT_BAD_INPUT : EXIT_FAILED);
	}
	cli.argc = argc + 1; /* "iogauge" too: main() passed argv + 1 */
	cli.argv = argv - 1;
	ret = sqlio_parse(&sq, argc, argv, take_report_flag, &cli, &cause);
	if (!ret && cli_html_check(&cli, &cause))
		ret = -EINVAL;
	if (ret > 0) {
		fputs(sqlio_usage, stdout);
		goto out;
	}
	if (ret) {
		fprintf(stderr, "iogauge sqlio: %s\n", cause);
		status = EXIT_BAD_INPUT;
		goto out;
	}
	for (i = 0; i < sq.notes.n; i++)
		fprintf(stderr, "iogauge sqlio: %s\n", sq.notes.v[i]);
	sqlio_jobfile(&sq, &text);
	if (sq.print_job) {
		fputs(text.buf, stdout);
		goto out;
	}
	if (!cli.formats)
		cli.formats = CLI_FMT_SQLIO;
	/* Checked by sqlio_parse(): a failure here is iogauge's own bug. */
	if (jobfile_parse_mem(&cli.js, "sqlio", text.buf, text.len, &cause) ||
	    job_build_all(&cli.js, &jobs, &nr, &cause) || job_check_threads(jobs, nr, &cause)) {
		fprintf(stderr,
			"iogauge sqlio: the job file for this command line does not build "
			"(a bug; --job prints it): %s\n",
			cause);
		status = EXIT_BAD_INPUT;
		goto out;
	}
	status = run_to_output(&cli, &sq, jobs, nr);
out:
	free(cause);
	strbuf_free(&text);
	job_free_all(jobs, nr);
	cli_free(&cli);
	sqlio_free(&sq);
	return mpi_finish(flush_stdout(status));
}

int main(int argc, char **argv)
{
	struct job *jobs = NULL;
	struct output to_stdout = { .path = NULL, .fd = -1 };
	struct strbuf out = { 0 };
	struct cli cli;
	char *cause = NULL;
	unsigned nr = 0, i;
	int status = 0;

	if (std_fds_fill()) {
		fprintf(stderr, "iogauge: standard input, output or error is closed and "
				"/dev/null cannot take its place\n");
		return EXIT_FAILED;
	}
	/* The texts printed to standard output (help, lists) fit: it is
	 * written once, at the end, and a failed write's errno is the one
	 * flush_stdout() prints.  The report and --parse-only are written
	 * and checked by output_commit(). */
	setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
	if (argc > 1 && !strcmp(argv[1], "sqlio"))
		return sqlio_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return flush_stdout(compare_main(argc - 1, argv + 1));
	if (argc > 1 && !strcmp(argv[1], "sweep"))
		return flush_stdout(sweep_main(argc - 1, argv + 1));
	if (argc > 1 && !strcmp(argv[1], "slo"))
		return flush_stdout(slo_main(argc - 1, argv + 1));
	if (argc > 1 && !strcmp(argv[1], "pts"))
		return flush_stdout(pts_main(argc - 1, argv + 1));
	if (argc > 1 && !strcmp(argv[1], "crash"))
		return flush_stdout(crash_main(argc - 1, argv + 1));
	if (argc > 1 && !strcmp(argv[1], "witness"))
		return flush_stdout(witness_main(argc - 1, argv + 1));
	if (argc > 1 && !strcmp(argv[1], "recipes"))
		return flush_stdout(recipes_main(argc - 1, argv + 1));
	if (argc > 1 && !strcmp(argv[1], "recipe"))
		return recipe_main(argc - 1, argv + 1, main);
	if ((status = mpi_start(&argc, &argv, &cause))) {
		fprintf(stderr, "iogauge: %s\n", cause);
		free(cause);
		return mpi_finish(status == -EINVAL ? EXIT_BAD_INPUT : EXIT_FAILED);
	}
	if (cli_parse(&cli, argc, argv, &cause)) {
		for (i = 0; i < cli.js.warnings.n; i++)
			fprintf(stderr, "iogauge: %s\n", cli.js.warnings.v[i]);
		/* The jobs are built all the same, so that their bad values are
		 * reported with the rest; with cli's errors they never run. */
		free(cause);
		cause = NULL;
		if (!job_build_all(&cli.js, &jobs, &nr, &cause))
			abort(); /* job_build_all refuses a jobset with errors */
		print_errors(cause);
		status = EXIT_BAD_INPUT;
		goto out;
	}
	for (i = 0; i < cli.js.warnings.n; i++)
		fprintf(stderr, "iogauge: %s\n", cli.js.warnings.v[i]);
	if (cli.js.warnings.n && cli.warnings_fatal && !cli.parse_only) {
		fprintf(stderr, "iogauge: --warnings-fatal: nothing runs\n");
		status = EXIT_BAD_INPUT;
		goto out;
	}
	if (cli.help || cli.version || cli.help_options || cli.clock_info || cli.list_engines ||
	    cli.enghelp || cli.cmdhelp || cli.crctest || cli.inflate_log ||
	    cli.idle_prof == IDLEPROF_CALIBRATE) {
		if (cli.idle_prof == IDLEPROF_CALIBRATE)
			status = idle_calibrate();
		if (cli.inflate_log) {
			if (log_inflate(cli.inflate_log, &out, &cause)) {
				fprintf(stderr, "iogauge: %s\n", cause);
				status = EXIT_FAILED;
			} else if (output_commit(&to_stdout, out.buf ? out.buf : "", out.len,
						 &cause)) {
				fprintf(stderr, "iogauge: %s\n", cause);
				status = EXIT_FAILED;
			}
		}
		if (cli.crctest)
			status = crctest(cli.crctest);
		if (cli.cmdhelp)
			status = help_cmdhelp(cli.cmdhelp) ? EXIT_BAD_INPUT : 0;
		if (cli.list_engines)
			help_list_engines();
		if (cli.enghelp)
			status = help_enghelp(cli.enghelp) ? EXIT_BAD_INPUT : 0;
		if (cli.clock_info)
			clock_info();
		if (cli.help)
			fputs(usage, stdout);
		if (cli.version) {
			struct strbuf v = { 0 };

			version_text(&v);
			fputs(v.buf, stdout);
			strbuf_free(&v);
		}
		if (cli.help_options)
			help_options();
		goto out;
	}
	if (!cli.nr_inputs) {
		fprintf(stderr, "iogauge: no job file or --name job given\n%s", usage);
		status = EXIT_BAD_INPUT;
		goto out;
	}
	if (!cli.js.nr && cli.showcmd && cli.profile)
		goto out; /* as fio: --showcmd prints no profile's jobs */
	if (!cli.js.nr) {
		fprintf(stderr, "iogauge: the job files define no jobs (only global sections)\n");
		status = EXIT_BAD_INPUT;
		goto out;
	}
	if (job_build_all(&cli.js, &jobs, &nr, &cause)) {
		print_errors(cause);
		status = EXIT_BAD_INPUT;
		goto out;
	}
	/* As fio: the values are checked before the line is printed. */
	if (cli.showcmd) {
		help_showcmd(&cli.js);
		goto out;
	}
	if (cli.merge_blktrace_only) {
		for (i = 0; i < nr && !status; i++)
			if (jobs[i].merge_blktrace_file) {
				int err = blktrace_merge_write(&jobs[i], &cause);

				if (err) {
					fprintf(stderr, "iogauge: %s\n", cause);
					status = exit_status_of(err);
				}
			}
		goto out;
	}
	if (job_check_threads(jobs, nr, &cause)) {
		fprintf(stderr, "iogauge: %s%s\n", cli.parse_only ? "warning: " : "", cause);
		if (!cli.parse_only) {
			status = EXIT_BAD_INPUT;
			goto out;
		}
	}
	if (!cli.parse_only) {
		status = run_to_output(&cli, NULL, jobs, nr);
		goto out;
	}
	/* What a run would refuse before opening anything (sizes, regions,
	 * buffers): warnings here, as the thread limit above. */
	{
		struct run_plan plan;

		free(cause);
		cause = NULL;
		if (plan_jobs(jobs, nr, (uint64_t)sysconf(_SC_PAGESIZE), &plan, &cause))
			print_lines("warning: ", cause);
		else
			plan_free(&plan);
	}
	/* A job at a time: a file of many jobs need not be held as text. */
	for (i = 0; i < nr; i++) {
		out.len = 0;
		if (i)
			strbuf_addc(&out, '\n');
		job_dump(&jobs[i], &out);
		if (output_commit(&to_stdout, out.buf ? out.buf : "", out.len, &cause)) {
			fprintf(stderr, "iogauge: %s\n", cause);
			status = EXIT_FAILED;
			break;
		}
	}
out:
	free(cause);
	strbuf_free(&out);
	job_free_all(jobs, nr);
	cli_free(&cli);
	return mpi_finish(flush_stdout(status));
}
