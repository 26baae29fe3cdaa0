/* SPDX-License-Identifier: MIT */
/*
 * The reporters that write files: fio's logs (write_bw_log and the rest,
 * named PREFIX_KIND.N.log with N the clone's number in the run, as fio)
 * and the --plot SVG files.  They run after the run, never during it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi/ranks.h"
#include "report/plot.h"
#include "report/report.h"

/* Opens @path for writing; NULL with *cause naming it. */
static FILE *create(const char *path, char **cause)
{
	FILE *f = fopen(path, "w");

	if (!f)
		set_cause(cause, "%s: cannot create: %s", path, strerror(errno));
	return f;
}

static int finish(FILE *f, const char *path, char **cause)
{
	int err = ferror(f);

	if (fclose(f) || err)
		return set_cause(cause, "%s: cannot write: %s", path,
				 strerror(errno ? errno : EIO));
	return 0;
}

/* One log: "time, value, ddir, bs[, offset], prio", as fio 3.33 writes it:
 * with log_prio (@prio) the I/O's priority value in hex, else 1 for a
 * realtime-class I/O and 0 for the others. */
static int write_log(const struct iolog *l, const char *path, bool offset, bool prio, char **cause)
{
	const struct iolog_chunk *c;
	FILE *f = create(path, cause);
	unsigned i;

	if (!f)
		return -EIO;
	for (c = l->head; c; c = c->next)
		for (i = 0; i < c->n; i++) {
			const struct iolog_entry *e = &c->e[i];
			unsigned p = prio ? e->prio : (e->prio >> 13) == 1;

			if (offset)
				fprintf(f,
					prio ? "%llu, %llu, %u, %u, %llu, 0x%04x\n"
					     : "%llu, %llu, %u, %u, %llu, %u\n",
					(unsigned long long)e->t, (unsigned long long)e->val,
					e->dir, e->bs, (unsigned long long)e->off, p);
			else
				fprintf(f,
					prio ? "%llu, %llu, %u, %u, 0x%04x\n"
					     : "%llu, %llu, %u, %u, %u\n",
					(unsigned long long)e->t, (unsigned long long)e->val,
					e->dir, e->bs, p);
		}
	return finish(f, path, cause);
}

/* "time, ddir, bs, bin0, bin1, ...": fio's 1856 bins, 2^coarseness merged. */
static int write_hist_log(const struct run_logs *lg, const char *path, unsigned coarse,
			  char **cause)
{
	const struct iolog_hist *h;
	FILE *f = create(path, cause);
	unsigned i, k, step = 1u << coarse;

	if (!f)
		return -EIO;
	for (h = lg->hist_head; h; h = h->next) {
		fprintf(f, "%llu, %u, %u", (unsigned long long)h->t, h->dir, h->bs);
		for (i = 0; i < IOLOG_HIST_BINS; i += step) {
			uint64_t sum = 0;

			for (k = 0; k < step; k++)
				sum += h->bins[i + k];
			fprintf(f, ", %llu", (unsigned long long)sum);
		}
		fputc('\n', f);
	}
	return finish(f, path, cause);
}

/* Log @k of @job (IOLOG_NR: the clat histogram) and the option that asks for it. */
static const char *const log_kinds[IOLOG_NR + 1] = { "bw",   "iops", "lat",
						     "clat", "slat", "clat_hist" };
static const char *const log_options[IOLOG_NR + 1] = { "write_bw_log",	"write_iops_log",
						       "write_lat_log", "write_lat_log",
						       "write_lat_log", "write_hist_log" };

/* The file of log @k of clone number @n (from 1 over the run) of @job, as
 * fio names it; NULL when the job keeps no such log. */
static char *log_path(const struct job *job, unsigned k, unsigned n)
{
	const char *prefix[IOLOG_NR + 1] = { job->write_bw_log,	 job->write_iops_log,
					     job->write_lat_log, job->write_lat_log,
					     job->write_lat_log, job->write_hist_log };

	if (!prefix[k])
		return NULL;
	return xasprintf("%s_%s.%u.log", *prefix[k] ? prefix[k] : job->name, log_kinds[k], n);
}

/* @path, freed, with @suffix after it. */
static char *with_suffix(char *path, const char *suffix)
{
	char *p = xasprintf("%s%s", path, suffix);

	free(path);
	return p;
}

/* @suffix (NULL: none) after each file's name: a rank's own (.HOST.rankN). */
static int clone_logs(const struct run_result *r, unsigned n, const char *suffix, char **cause)
{
	static const struct run_logs none;
	const struct job *job = r->job;
	/* stats=0: fio creates the files and logs nothing in them. */
	const struct run_logs *lg = job->stats ? r->logs : &none;
	char *path;
	unsigned k;
	int ret = 0;

	for (k = 0; k < IOLOG_NR && !ret; k++) {
		if (!(path = log_path(job, k, n)))
			continue;
		if (suffix)
			path = with_suffix(path, suffix);
		ret = write_log(&lg->log[k], path, job->log_offset && !job->log_avg_msec,
				job->log_prio, cause);
		free(path);
	}
	if (!ret && (path = log_path(job, IOLOG_NR, n))) {
		if (suffix)
			path = with_suffix(path, suffix);
		ret = write_hist_log(lg, path, job->log_hist_coarseness, cause);
		free(path);
	}
	return ret;
}

int report_logs(const struct run *run, char **cause)
{
	unsigned i, r;
	int ret = 0;

	for (i = 0; i < run->nr && !ret; i++)
		if (run->results[i].logs)
			ret = clone_logs(&run->results[i], i + 1, NULL, cause);
	/* MPI --per-rank: each rank's own too, named as fio names a
	 * client's log (NAME.HOST), with the rank after the host. */
	for (r = 0; run->ranks && run->ranks->per_rank && r < run->ranks->n && !ret; r++) {
		const struct rank_run *rr = &run->ranks->v[r];
		char *suffix = xasprintf(".%s.rank%u", rr->host, rr->rank);

		for (i = 0; i < rr->nr && !ret; i++)
			if (rr->results[i].logs)
				ret = clone_logs(&rr->results[i], i + 1, suffix, cause);
		free(suffix);
	}
	return ret;
}

char *report_log_path(const struct job *job, unsigned k, unsigned n)
{
	return log_path(job, k, n);
}

/* 0, or the errno that stops a new entry at @path: the folder it would go
 * in is missing, not a folder, or takes no new entries. */
static int parent_takes(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir =
		slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	struct stat st;
	int err = 0;

	if (stat(dir, &st))
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else if (access(dir, W_OK | X_OK))
		err = errno;
	free(dir);
	return err;
}

/* 0, or why a file cannot be written at @path. */
static int file_writable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno == ENOENT ? parent_takes(path) : errno;
	if (S_ISDIR(st.st_mode))
		return EISDIR;
	return access(path, W_OK) ? errno : 0;
}

/* 0, or why files cannot be made in the folder @dir (made if missing). */
static int folder_writable(const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return errno == ENOENT ? parent_takes(dir) : errno;
	if (!S_ISDIR(st.st_mode))
		return ENOTDIR;
	return access(dir, W_OK | X_OK) ? errno : 0;
}

int report_files_check(const struct job *jobs, unsigned nr, const char *plot_dir, char **cause)
{
	unsigned i, c, k, n = 0;
	char *path;
	int err;

	if (plot_dir && (err = folder_writable(plot_dir)))
		return set_cause(cause, "--plot %s: the plots could not be written there: %s",
				 plot_dir, strerror(err));
	for (i = 0; i < nr; i++)
		for (c = 0; c < jobs[i].numjobs; c++) {
			n++;
			for (k = 0; k <= IOLOG_NR; k++) {
				if (!(path = log_path(&jobs[i], k, n)))
					continue;
				err = file_writable(path);
				if (err) {
					set_cause(cause, "[%s] %s: %s: cannot create: %s",
						  jobs[i].name, log_options[k], path,
						  strerror(err));
					free(path);
					return -EINVAL;
				}
				free(path);
			}
		}
	return 0;
}

/* ---- plots ---- */

/* A job name as a file name: what is not [A-Za-z0-9._-] becomes '_'. */
static char *file_part(const char *name)
{
	char *s = xstrdup(name), *p;

	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
			*p = '_';
	return s;
}

static int save(const char *dir, const char *base, const char *kind, const struct strbuf *sb,
		char **cause)
{
	char *path = xasprintf("%s/%s_%s.svg", dir, base, kind);
	FILE *f = create(path, cause);
	int ret = -EIO;

	if (f) {
		fputs(sb->buf, f);
		ret = finish(f, path, cause);
		/* A cut SVG (a full disk) is no picture and no XML: not left. */
		if (ret)
			unlink(path);
	}
	free(path);
	return ret;
}

/*
 * An entry's windows: a clone's own, or a group's summed window by window
 * (each clone's k-th window ends about k * 500 ms after it started).
 */
void report_entry_series(const struct report_entry *e, struct plot_point *pts[4], size_t *n)
{
	const struct run_result *first = e->r;
	size_t k, i, most = 0;

	for (i = 0; i < e->threads; i++)
		if (first[i].logs && first[i].logs->nr_win > most)
			most = first[i].logs->nr_win;
	for (k = 0; k < 4; k++)
		pts[k] = xcalloc(most ? most : 1, sizeof(struct plot_point));
	for (i = 0; i < e->threads; i++) {
		const struct run_logs *lg = first[i].logs;

		for (k = 0; lg && k < lg->nr_win; k++) {
			const struct iolog_window *w = &lg->win[k];

			/* The first clone with a k-th window stamps it (t > 0). */
			if (pts[0][k].t == 0)
				pts[0][k].t = pts[1][k].t = pts[2][k].t = pts[3][k].t = w->t;
			pts[0][k].v += w->iops[0];
			pts[1][k].v += w->iops[1];
			pts[2][k].v += w->bw[0] / 1024;
			pts[3][k].v += w->bw[1] / 1024;
		}
	}
	*n = most;
}

/* Every direction's latency and the sync latency on one exceedance plot. */
static int plot_entry_cdf(const struct report_entry *e, const char *base, const char *dir,
			  char **cause)
{
	static const char *const dnames[STAT_NR] = { "read", "write", "trim", "sync" };
	struct plot_dist ds[STAT_NR];
	struct strbuf sb = { 0 };
	unsigned d, n = 0;
	char *title;
	int ret;

	for (d = 0; d < STAT_NR; d++)
		if (e->st->dir[d].ios)
			ds[n++] = (struct plot_dist){ dnames[d], &e->st->dir[d].lat };
	title = xasprintf("[%s] latency by percentile", e->r->job->name);
	plot_cdf_svg(&sb, title, ds, n);
	ret = save(dir, base, "cdf", &sb, cause);
	free(title);
	strbuf_free(&sb);
	return ret;
}

/* Latency over time of each direction, where the histogram log was kept
 * (write_hist_log): the clones of a group summed window by window. */
static int plot_entry_heat(const struct report_entry *e, const char *base, const char *dir,
			   char **cause)
{
	static const char *const dnames[2] = { "read", "write" };
	const struct iolog_hist **heads = xcalloc(e->threads, sizeof(*heads));
	struct strbuf sb = { 0 };
	unsigned i, d, any = 0;
	char *title, *kind;
	int ret = 0;

	for (i = 0; i < e->threads; i++)
		if (e->r[i].logs && (heads[i] = e->r[i].logs->hist_head))
			any++;
	for (d = 0; d < 2 && any && !ret; d++) {
		if (!job_does(e->r->job, (enum ddir)d))
			continue;
		title = xasprintf("[%s] %s latency over time (%u ms windows)", e->r->job->name,
				  dnames[d], e->r->job->log_hist_msec);
		kind = xasprintf("heat-%s", dnames[d]);
		plot_heat_svg(&sb, title, heads, e->threads, (int)d);
		ret = save(dir, base, kind, &sb, cause);
		free(title);
		free(kind);
		sb.len = 0;
	}
	strbuf_free(&sb);
	free(heads);
	return ret;
}

/* SQLIO's millisecond histogram of reads and writes, in percent. */
static int plot_entry_ms(const struct report_entry *e, const char *base, const char *dir,
			 char **cause)
{
	uint64_t ios = e->st->dir[STAT_READ].ios + e->st->dir[STAT_WRITE].ios;
	char *title = xasprintf("[%s] latency in whole milliseconds, reads and writes (%llu I/Os)",
				e->r->job->name, (unsigned long long)ios);
	struct strbuf sb = { 0 };
	int ret;

	report_ms_svg(e, title, &sb);
	ret = save(dir, base, "ms", &sb, cause);
	free(title);
	strbuf_free(&sb);
	return ret;
}

static int plot_entry(const struct report_entry *e, unsigned idx, const char *dir, char **cause)
{
	const struct job *job = e->r->job;
	const struct run_stats *st = e->st;
	static const char *const dnames[STAT_NR] = { "read", "write", "trim", "sync" };
	struct strbuf sb = { 0 };
	struct plot_point *pts[4];
	struct plot_series s[2];
	char *name = file_part(job->name), *base = xasprintf("%s.%u", name, idx), *title;
	unsigned d, ns = 0, k;
	size_t n;
	int ret = 0;

	for (d = 0; d < STAT_NR && !ret; d++) {
		if (!st->dir[d].ios)
			continue;
		title = xasprintf("[%s] %s latency (%llu I/Os)", job->name, dnames[d],
				  (unsigned long long)st->dir[d].ios);
		plot_hist_svg(&sb, title, &st->dir[d].lat, job->percentile_list,
			      job->nr_percentiles);
		free(title);
		title = xasprintf("lat-%s", dnames[d]);
		ret = save(dir, base, title, &sb, cause);
		free(title);
		sb.len = 0;
	}
	if (!ret)
		ret = plot_entry_cdf(e, base, dir, cause);
	if (!ret)
		ret = plot_entry_heat(e, base, dir, cause);
	if (!ret)
		ret = plot_entry_ms(e, base, dir, cause);
	report_entry_series(e, pts, &n);
	for (k = 0; k < 2 && !ret; k++) {
		ns = 0;
		for (d = 0; d < 2; d++)
			if (job_does(job, (enum ddir)d))
				s[ns++] = (struct plot_series){ dnames[d], pts[k * 2 + d], n };
		title = xasprintf("[%s] %s over time (500 ms windows)", job->name,
				  k ? "bandwidth" : "IOPS");
		plot_lines_svg(&sb, title, k ? "MiB/s" : "IOPS", s, ns);
		free(title);
		ret = save(dir, base, k ? "bw" : "iops", &sb, cause);
		sb.len = 0;
	}
	for (k = 0; k < 4; k++)
		free(pts[k]);
	strbuf_free(&sb);
	free(name);
	free(base);
	return ret;
}

int report_plots(const struct run *run, const char *dir, char **cause)
{
	struct report_entries es;
	unsigned i;
	int ret = 0;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return set_cause(cause, "--plot %s: cannot create the folder: %s", dir,
				 strerror(errno));
	report_entries(run, &es);
	for (i = 0; i < es.n && !ret; i++)
		ret = plot_entry(&es.v[i], i + 1, dir, cause);
	report_entries_free(&es);
	return ret;
}
