/* SPDX-License-Identifier: MIT */
/*
 * One point of a sweep: a child iogauge (this executable) runs the job
 * with the point's --set flags and writes its json+ report into a memfd;
 * the report is read here with libjansson and summed over its entries.
 * A SIGINT or SIGTERM the sweep takes is passed on to the child, which
 * stops and still reports, as a run of iogauge does; a sweep killed
 * outright (SIGKILL) takes the child with it (PR_SET_PDEATHSIG).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep/sweep.h"

volatile int sweep_stop_signal;
static volatile pid_t child_pid;

static void on_stop(int sig)
{
	pid_t pid = child_pid;

	sweep_stop_signal = sig;
	if (pid > 0)
		kill(pid, sig);
}

void sweep_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The whole of memfd @fd as a string. */
static char *memfd_text(int fd)
{
	struct stat st;
	char *text;

	if (fstat(fd, &st) || st.st_size < 0)
		return xstrdup("");
	text = xmalloc((size_t)st.st_size + 1);
	if (pread(fd, text, (size_t)st.st_size, 0) != st.st_size)
		st.st_size = 0;
	text[st.st_size] = 0;
	return text;
}

/* Runs this executable with @args and @extra; *status is waitpid's.
 * 0, or -errno with *cause. */
static int child_run(const struct str_list *args, const char *const *extra, int *status, char **out,
		     char **err, char **cause)
{
	int ofd = memfd_create("iogauge-sweep-out", MFD_CLOEXEC);
	int efd = memfd_create("iogauge-sweep-err", MFD_CLOEXEC);
	char **argv = NULL;
	sigset_t stop, old;
	unsigned n = 0, i;
	pid_t pid, parent;
	int ret = 0;

	if (ofd < 0 || efd < 0) {
		ret = set_cause_errno(cause, errno, "memfd_create");
		goto out;
	}
	argv = xcalloc(args->n + 8, sizeof(*argv));
	argv[n++] = (char *)"iogauge";
	for (i = 0; i < args->n; i++)
		argv[n++] = args->v[i];
	for (i = 0; extra[i]; i++)
		argv[n++] = (char *)extra[i];
	/* Blocked until child_pid is set: a SIGINT or SIGTERM in between is
	 * then passed on; the child takes the default actions back. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, &old);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		ret = set_cause_errno(cause, errno, "fork");
		sigprocmask(SIG_SETMASK, &old, NULL);
		goto out;
	}
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* A sweep or pts killed outright (SIGKILL) must not leave its
		 * point writing on: the child stops as at a SIGTERM. */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(127);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (dup2(ofd, STDOUT_FILENO) < 0 || dup2(efd, STDERR_FILENO) < 0)
			_exit(127);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	child_pid = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* A signal taken before the fork is passed on here. */
	if (sweep_stop_signal)
		kill(pid, sweep_stop_signal);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			ret = set_cause_errno(cause, errno, "waitpid");
			break;
		}
	}
	child_pid = 0;
	if (!ret) {
		*out = memfd_text(ofd);
		*err = memfd_text(efd);
	}
out:
	free(argv);
	if (ofd >= 0)
		close(ofd);
	if (efd >= 0)
		close(efd);
	return ret;
}

/* The child's messages, without a trailing newline. */
static char *messages(char *err, const char *fallback)
{
	size_t len = strlen(err);

	while (len && err[len - 1] == '\n')
		err[--len] = 0;
	return len ? xstrdup(err) : xstrdup(fallback);
}

int sweep_point_check(const struct str_list *args, char **cause)
{
	static const char *const extra[] = { "--parse-only", NULL };
	char *out = NULL, *err = NULL;
	int status = 0, ret;

	ret = child_run(args, extra, &status, &out, &err, cause);
	if (!ret && !(WIFEXITED(status) && !WEXITSTATUS(status))) {
		*cause = messages(err, "the job does not parse");
		ret = -EINVAL;
	}
	free(out);
	free(err);
	return ret;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

/* Percentile @p of @pct (an object "99.000000": ns), or -1. */
static double pct_of(json_t *pct, double p)
{
	const char *key;
	json_t *v;

	json_object_foreach (pct, key, v) {
		if (fabs(strtod(key, NULL) - p) < 1e-6 && json_is_number(v))
			return json_number_value(v);
	}
	return -1;
}

struct bin {
	double ns;
	double count;
};

static int bin_cmp(const void *a, const void *b)
{
	const struct bin *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* The smallest bin value at which the count reaches @p percent of all. */
static double bins_pct(const struct bin *b, size_t n, double total, double p)
{
	double want = ceil(total * p / 100), sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sum += b[i].count;
		if (sum >= want)
			return b[i].ns;
	}
	return n ? b[n - 1].ns : 0;
}

static void metrics_read(json_t *doc, const double *pcts, unsigned npcts, struct sweep_metrics *m)
{
	static const char *const dirs[3] = { "read", "write", "trim" };
	struct bin *bins = NULL;
	size_t nb = 0, cap = 0;
	double lat_sum = 0, cpu_ns = 0, total = 0;
	json_t *j, *jobs = json_object_get(doc, "jobs");
	size_t i;
	unsigned d, k;

	memset(m, 0, sizeof(*m));
	m->kept = true;
	json_array_foreach (jobs, i, j) {
		json_t *rate = json_object_get(json_object_get(j, "iogauge"), "rate");
		double ios = 0;

		for (d = 0; d < 3; d++) {
			json_t *dj = json_object_get(j, dirs[d]), *clat, *bj, *v, *r;
			const char *key;
			double n = num(dj, "total_ios");

			if (n <= 0)
				continue;
			clat = json_object_get(dj, "clat_ns");
			m->iops += num(dj, "iops");
			m->bw += num(dj, "bw_bytes");
			lat_sum += num(clat, "mean") * num(clat, "N");
			m->max = fmax(m->max, num(clat, "max"));
			if (d < 2)
				*(d ? &m->wbytes : &m->rbytes) += (uint64_t)num(dj, "io_bytes");
			total += num(clat, "N");
			ios += n;
			bj = json_object_get(clat, "bins");
			json_object_foreach (bj, key, v) {
				if (nb == cap) {
					cap = cap ? 2 * cap : 256;
					bins = xrealloc(bins, cap * sizeof(*bins));
				}
				bins[nb].ns = strtod(key, NULL);
				bins[nb++].count = json_is_number(v) ? json_number_value(v) : 0;
			}
			r = json_object_get(rate, dirs[d]);
			if (!json_is_object(r))
				continue;
			m->rated = true;
			m->kept = m->kept && num(r, "kept") > 0;
			if (json_string_value(json_object_get(r, "unit")) &&
			    !strcmp(json_string_value(json_object_get(r, "unit")), "iops")) {
				m->target_iops += num(r, "target");
				m->achieved_iops += num(r, "achieved");
			}
			for (k = 0; k < npcts && k < 8; k++) {
				double v2 = pct_of(json_object_get(json_object_get(r, "resp_ns"),
								   "percentile"),
						   pcts[k]);

				if (v2 < 0)
					v2 = INFINITY; /* not reported: cannot be met */
				if (v2 > m->resp[k])
					m->resp[k] = v2;
			}
		}
		cpu_ns +=
			(num(j, "usr_cpu") + num(j, "sys_cpu")) / 100 * num(j, "job_runtime") * 1e6;
		m->ios += (uint64_t)ios;
	}
	if (!m->rated)
		m->kept = false;
	m->mean = total > 0 ? lat_sum / total : 0;
	if (nb) {
		double n = 0;
		size_t a, b;

		qsort(bins, nb, sizeof(*bins), bin_cmp);
		/* The same value from several entries: one bin. */
		for (a = 0, b = 1; b < nb; b++) {
			if (bins[b].ns == bins[a].ns)
				bins[a].count += bins[b].count;
			else
				bins[++a] = bins[b];
		}
		nb = a + 1;
		for (a = 0; a < nb; a++)
			n += bins[a].count;
		m->p50 = bins_pct(bins, nb, n, 50);
		m->p99 = bins_pct(bins, nb, n, 99);
		m->p999 = bins_pct(bins, nb, n, 99.9);
		for (k = 0; k < npcts && k < 8; k++)
			m->clat[k] = bins_pct(bins, nb, n, pcts[k]);
	}
	m->cpu_per_io = m->ios ? cpu_ns / (double)m->ios : 0;
	free(bins);
}

int sweep_point_run(const struct str_list *args, const double *pcts, unsigned npcts,
		    struct sweep_metrics *m, char **cause)
{
	static const char *const extra[] = { "--output-format=json+", "--eta=never", NULL };
	char *out = NULL, *err = NULL;
	const char *start;
	json_error_t jerr;
	json_t *doc = NULL;
	int status = 0, ret, code;

	memset(m, 0, sizeof(*m));
	ret = child_run(args, extra, &status, &out, &err, cause);
	if (ret)
		return ret;
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	start = strchr(out, '{');
	if (start)
		doc = json_loads(start, 0, &jerr);
	if (doc)
		metrics_read(doc, pcts, npcts, m);
	if (code == 2) {
		*cause = messages(err, "the job was refused");
		ret = -EINVAL;
	} else if (sweep_stop_signal || (WIFEXITED(status) && code > 128)) {
		ret = -EINTR; /* stopped: by the signal passed on, or its own */
	} else if (WIFSIGNALED(status)) {
		/* A crash or the OOM killer is a failure, not a stop. */
		*cause = xasprintf("the run was killed by signal %d (%s)", WTERMSIG(status),
				   strsignal(WTERMSIG(status)));
		ret = -EIO;
	} else if (code || !doc) {
		*cause = messages(err, "the run printed no report");
		ret = -EIO;
	}
	json_decref(doc);
	free(out);
	free(err);
	return ret;
}
