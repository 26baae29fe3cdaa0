/* SPDX-License-Identifier: MIT */
/*
 * Reading the reports iogauge compare is given: fio 3.33's JSON layout,
 * which iogauge writes too (json or json+), parsed with libjansson.  fio
 * may print notes before the document: the text from the first '{' is
 * read.  A folder is repeated runs: its *.json files, in name order.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bundle/bundle.h"
#include "compare/compare.h"

const double cmp_pcts[CMP_NR_PCT] = { 50.0, 90.0, 99.0, 99.9 };

static const char *const dir_keys[3] = { "read", "write", "trim" };

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

static int bin_cmp(const void *a, const void *b)
{
	const struct cmp_bin *x = a, *y = b;

	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* The first of a direction's figures that no run can have (negative, or
 * 2^64 and past: a count cast from it would be undefined), or NULL. */
static const char *bad_figure(json_t *d, json_t *clat)
{
	static const char *const dkeys[] = {
		"iops",		"bw_bytes", "iops_mean", "iops_stddev",
		"iops_samples", "bw_mean",  "bw_dev",	 "bw_samples"
	};
	static const char *const ckeys[] = { "mean", "stddev", "N" };
	json_t *pct = json_object_get(clat, "percentile"), *v;
	const char *key;
	unsigned i;
	double x;

	for (i = 0; i < sizeof(dkeys) / sizeof(dkeys[0]); i++) {
		x = num(d, dkeys[i]);
		if (!(x >= 0 && x < 18446744073709551616.0))
			return dkeys[i];
	}
	for (i = 0; i < sizeof(ckeys) / sizeof(ckeys[0]); i++) {
		x = num(clat, ckeys[i]);
		if (!(x >= 0 && x < 18446744073709551616.0))
			return ckeys[i];
	}
	json_object_foreach (pct, key, v) {
		x = json_is_number(v) ? json_number_value(v) : 0;
		if (!(x >= 0 && x < 18446744073709551616.0))
			return "percentile";
	}
	return NULL;
}

/* One direction's figures; -EINVAL when one that did I/O has no
 * percentiles, or has a figure no run can have. */
static int load_dir(json_t *d, struct cmp_dir *out, const char *path, const char *job,
		    const char *dname, char **cause)
{
	json_t *clat = json_object_get(d, "clat_ns"), *pct, *bins, *v;
	const char *key;
	unsigned k;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(d) || num(d, "total_ios") <= 0)
		return 0;
	key = bad_figure(d, clat);
	if (key)
		return set_cause(cause,
				 "%s: job '%s', %s: its %s is negative or past 2^64: not a "
				 "figure of a run",
				 path, job, dname, key);
	out->present = true;
	out->iops = num(d, "iops");
	out->bw = num(d, "bw_bytes");
	out->iops_mean = num(d, "iops_mean");
	out->iops_sd = num(d, "iops_stddev");
	out->iops_samples = (uint64_t)num(d, "iops_samples");
	out->bw_mean = num(d, "bw_mean");
	out->bw_sd = num(d, "bw_dev");
	out->bw_samples = (uint64_t)num(d, "bw_samples");
	out->lat_mean = num(clat, "mean");
	out->lat_sd = num(clat, "stddev");
	out->lat_n = (uint64_t)num(clat, "N");
	pct = json_object_get(clat, "percentile");
	if (!json_is_object(pct))
		return set_cause(cause,
				 "%s: job '%s', %s: no completion latency percentiles "
				 "(clat_ns.percentile); run with clat_percentiles=1",
				 path, job, dname);
	for (k = 0; k < CMP_NR_PCT; k++) {
		bool found = false;

		json_object_foreach (pct, key, v) {
			if (fabs(strtod(key, NULL) - cmp_pcts[k]) < 1e-6 && json_is_number(v)) {
				out->pct[k] = json_number_value(v);
				found = true;
			}
		}
		if (!found)
			return set_cause(cause,
					 "%s: job '%s', %s: no %g%% completion latency "
					 "percentile (percentile_list= leaves it out)",
					 path, job, dname, cmp_pcts[k]);
	}
	bins = json_object_get(clat, "bins");
	if (json_is_object(bins) && json_object_size(bins)) {
		out->bins = xcalloc(json_object_size(bins), sizeof(*out->bins));
		json_object_foreach (bins, key, v) {
			/* A count that is no whole number of I/Os is no bin. */
			if (!json_is_integer(v) || json_integer_value(v) <= 0)
				continue;
			out->bins[out->nr_bins].ns = strtoull(key, NULL, 10);
			out->bins[out->nr_bins++].count = (uint64_t)json_integer_value(v);
		}
		qsort(out->bins, out->nr_bins, sizeof(*out->bins), bin_cmp);
	}
	return 0;
}

static void run_free(struct cmp_run *r)
{
	unsigned i, d;

	for (i = 0; i < r->nr; i++) {
		free(r->jobs[i].name);
		for (d = 0; d < 3; d++)
			free(r->jobs[i].dir[d].bins);
	}
	free(r->jobs);
	free(r->path);
	memset(r, 0, sizeof(*r));
}

/* A report far past any fio or iogauge wrote: /dev/zero or a stray
 * file is refused before it takes the machine's memory. */
#define CMP_MAX_REPORT (256u << 20) /* bytes */

/* The whole of @path, NUL-terminated; NULL with errno set (EFBIG past
 * CMP_MAX_REPORT). */
static char *slurp(const char *path, size_t *len)
{
	struct strbuf sb = { 0 };
	char buf[65536];
	ssize_t n;
	size_t plen = strlen(path);
	int fd, err;
	char *why = NULL;

	/* A bundle (--bundle): the report.json it holds. */
	if ((plen > 7 && !strcmp(path + plen - 7, ".tar.gz")) ||
	    (plen > 4 && !strcmp(path + plen - 4, ".tgz"))) {
		err = bundle_tar_read_member(path, "report.json", &sb, &why);
		free(why);
		if (err) {
			strbuf_free(&sb);
			errno = -err;
			return NULL;
		}
		*len = sb.len;
		return sb.buf ? strbuf_detach(&sb) : xstrdup("");
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (sb.len + (size_t)n > CMP_MAX_REPORT) {
			n = -1;
			errno = EFBIG;
			break;
		}
		strbuf_add(&sb, buf, (size_t)n);
	}
	err = errno;
	close(fd);
	if (n < 0) {
		strbuf_free(&sb);
		errno = err;
		return NULL;
	}
	*len = sb.len;
	return sb.buf ? strbuf_detach(&sb) : xstrdup("");
}

static int load_run(const char *path, struct cmp_run *run, char **cause)
{
	json_error_t jerr;
	json_t *doc, *jobs, *j;
	size_t len = 0, i, alls = 0;
	char *text = slurp(path, &len), *start;
	unsigned d;
	int ret = 0;

	memset(run, 0, sizeof(*run));
	if (!text && errno == EFBIG)
		return set_cause(cause, "%s: not a JSON report (over %u MiB)", path,
				 CMP_MAX_REPORT >> 20);
	if (!text)
		return set_cause(cause, "%s: %s", path, strerror(errno));
	start = strchr(text, '{');
	doc = start ? json_loadb(start, len - (size_t)(start - text), 0, &jerr) : NULL;
	if (!doc) {
		ret = start ? set_cause(cause, "%s: not a JSON report: line %d: %s", path,
					jerr.line, jerr.text)
			    : set_cause(cause, "%s: not a JSON report (no '{' in it)", path);
		free(text);
		return ret;
	}
	free(text);
	jobs = json_object_get(doc, "jobs");
	/* fio's client/server JSON, and iogauge's under mpirun: the summed
	 * "All clients" entries (a single client's own when there are none). */
	if (!jobs && (jobs = json_object_get(doc, "client_stats")))
		json_array_foreach (jobs, i, j)
			alls += !strcmp(json_string_value(json_object_get(j, "jobname"))
						? json_string_value(json_object_get(j, "jobname"))
						: "",
					"All clients");
	if (!json_is_array(jobs) || !json_array_size(jobs)) {
		json_decref(doc);
		return set_cause(cause, "%s: not an iogauge or fio JSON report (no \"jobs\")",
				 path);
	}
	run->path = xstrdup(path);
	run->jobs = xcalloc(json_array_size(jobs), sizeof(*run->jobs));
	json_array_foreach (jobs, i, j) {
		const char *name = json_string_value(json_object_get(j, "jobname"));
		struct cmp_job *cj;

		if (alls && strcmp(name ? name : "", "All clients"))
			continue;
		cj = &run->jobs[run->nr++];
		cj->name = xstrdup(name ? name : "");
		for (d = 0; d < 3 && !ret; d++)
			ret = load_dir(json_object_get(j, dir_keys[d]), &cj->dir[d], path, cj->name,
				       dir_keys[d], cause);
		if (ret)
			break;
	}
	json_decref(doc);
	if (ret)
		run_free(run);
	return ret;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether two runs have the same jobs, in order, with the same directions. */
static bool same_jobs(const struct cmp_run *a, const struct cmp_run *b)
{
	unsigned i, d;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++) {
		if (strcmp(a->jobs[i].name, b->jobs[i].name))
			return false;
		for (d = 0; d < 3; d++)
			if (a->jobs[i].dir[d].present != b->jobs[i].dir[d].present)
				return false;
	}
	return true;
}

int cmp_load(const char *path, struct cmp_side *side, char **cause)
{
	struct stat st;
	DIR *dir;
	struct dirent *e;
	char **names = NULL;
	unsigned n = 0, i;
	size_t len;
	int ret = 0;

	memset(side, 0, sizeof(*side));
	if (stat(path, &st) < 0)
		return set_cause(cause, "%s: %s", path, strerror(errno));
	side->path = xstrdup(path);
	if (!S_ISDIR(st.st_mode)) {
		side->runs = xcalloc(1, sizeof(*side->runs));
		ret = load_run(path, &side->runs[0], cause);
		if (!ret)
			side->nr = 1;
		if (ret)
			cmp_side_free(side);
		return ret;
	}
	dir = opendir(path);
	if (!dir) {
		ret = set_cause(cause, "%s: %s", path, strerror(errno));
		cmp_side_free(side);
		return ret;
	}
	while ((e = readdir(dir))) {
		len = strlen(e->d_name);
		if (len > 5 && !strcmp(e->d_name + len - 5, ".json")) {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xasprintf("%s/%s", path, e->d_name);
		}
	}
	closedir(dir);
	if (!n)
		ret = set_cause(cause, "%s: a folder without *.json reports", path);
	qsort(names, n, sizeof(*names), name_cmp);
	side->runs = xcalloc(n ? n : 1, sizeof(*side->runs));
	for (i = 0; i < n && !ret; i++) {
		ret = load_run(names[i], &side->runs[i], cause);
		if (!ret)
			side->nr++;
		if (!ret && i && !same_jobs(&side->runs[0], &side->runs[i]))
			ret = set_cause(cause,
					"%s: its jobs (names, order or directions) are not those "
					"of %s: a folder holds repeated runs of the same jobs",
					names[i], names[0]);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (ret)
		cmp_side_free(side);
	return ret;
}

void cmp_side_free(struct cmp_side *side)
{
	unsigned i;

	for (i = 0; i < side->nr; i++)
		run_free(&side->runs[i]);
	free(side->runs);
	free(side->path);
	memset(side, 0, sizeof(*side));
}
