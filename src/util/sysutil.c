/* SPDX-License-Identifier: MIT */
/*
 * /proc/stat and /proc/interrupts, and SQLIO's utilization table.  The
 * layout is measured from SQLIO's own output: a 16-character
 * "ProcessorNumber:" and a 12-wide ALL heading, then rows of an 18-wide
 * label, an 11-wide ALL value and 9-wide processor columns (so the value
 * columns end one place right of their headings, as in SQLIO).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sysutil.h"

static int parse_fail(char **cause, const char *path, unsigned line)
{
	return set_cause(cause, "%s:%u: not in the format of the Linux file", path, line);
}

static int read_stat(struct sysutil_snap *s, const char *path, unsigned **ids, char **cause)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0, id, k;
	int ret = 0, n;

	if (!f) {
		ret = -errno;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return ret;
	}
	while (!ret && getline(&line, &cap, f) >= 0) {
		unsigned long long v[SU_NR] = { 0 };
		struct sysutil_cpu *c;

		lineno++;
		if (!strncmp(line, "intr ", 5)) {
			if (sscanf(line + 5, "%llu", &v[0]) != 1)
				ret = parse_fail(cause, path, lineno);
			s->all.intr = v[0];
			continue;
		}
		if (strncmp(line, "cpu", 3))
			continue;
		if (line[3] == ' ') {
			c = &s->all;
		} else if (sscanf(line + 3, "%u", &id) == 1) {
			s->cpu = xrealloc(s->cpu, (s->nr_cpus + 1) * sizeof(*s->cpu));
			*ids = xrealloc(*ids, (s->nr_cpus + 1) * sizeof(**ids));
			(*ids)[s->nr_cpus] = id;
			c = &s->cpu[s->nr_cpus++];
			memset(c, 0, sizeof(*c));
		} else {
			ret = parse_fail(cause, path, lineno);
			break;
		}
		/* Kernels before 2.6.11 have no steal column; guest time is
		 * already in user and nice. */
		n = sscanf(line + strcspn(line, " "), "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n < 7)
			ret = parse_fail(cause, path, lineno);
		for (k = 0; k < SU_NR; k++)
			c->t[k] = v[k];
	}
	if (!ret && !s->nr_cpus)
		ret = set_cause(cause, "%s: no cpuN line", path);
	free(line);
	fclose(f);
	return ret;
}

/* Per-processor interrupt counts: each row's columns, headed CPU0 CPU1 ...;
 * rows with one count (ERR, MIS) are totals, not per processor. */
static int read_interrupts(struct sysutil_snap *s, const char *path, const unsigned *ids,
			   char **cause)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *p, *end, *save;
	size_t cap = 0;
	unsigned *col = NULL, ncols = 0, lineno = 0, k, j;
	unsigned long long cnt[1024];
	int ret = 0;

	if (!f) {
		ret = -errno;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return ret;
	}
	while (!ret && getline(&line, &cap, f) >= 0) {
		lineno++;
		if (lineno == 1) {
			for (p = strtok_r(line, " \t\n", &save); p;
			     p = strtok_r(NULL, " \t\n", &save)) {
				if (strncmp(p, "CPU", 3) || ncols == ARRAY_SIZE(cnt)) {
					ret = parse_fail(cause, path, lineno);
					break;
				}
				col = xrealloc(col, (ncols + 1) * sizeof(*col));
				/* The stat index of this processor, or ~0u. */
				col[ncols] = ~0u;
				for (k = 0; k < s->nr_cpus; k++)
					if (ids[k] == (unsigned)strtoul(p + 3, NULL, 10))
						col[ncols] = k;
				ncols++;
			}
			continue;
		}
		p = strchr(line, ':');
		if (!p) {
			ret = parse_fail(cause, path, lineno);
			break;
		}
		for (j = 0, p++; j < ncols; j++, p = end) {
			cnt[j] = strtoull(p, &end, 10);
			if (end == p)
				break;
		}
		if (j < ncols)
			continue;
		for (j = 0; j < ncols; j++)
			if (col[j] != ~0u)
				s->cpu[col[j]].intr += cnt[j];
	}
	if (!ret && !ncols)
		ret = set_cause(cause, "%s: no CPU heading", path);
	free(col);
	free(line);
	fclose(f);
	return ret;
}

int sysutil_snap_read(struct sysutil_snap *s, const char *proc_root, char **cause)
{
	char *path = xasprintf("%s/stat", proc_root);
	unsigned *ids = NULL;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = read_stat(s, path, &ids, cause);
	free(path);
	if (!ret) {
		path = xasprintf("%s/interrupts", proc_root);
		ret = read_interrupts(s, path, ids, cause);
		free(path);
	}
	free(ids);
	if (ret)
		sysutil_snap_free(s);
	return ret;
}

void sysutil_snap_free(struct sysutil_snap *s)
{
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

static void column(const struct sysutil_cpu *a, const struct sysutil_cpu *b, double seconds,
		   double *v, unsigned stride)
{
	uint64_t d[SU_NR], total = 0;
	double pct;
	unsigned k;

	for (k = 0; k < SU_NR; k++) {
		d[k] = b->t[k] > a->t[k] ? b->t[k] - a->t[k] : 0;
		total += d[k];
	}
	pct = total ? 100.0 / (double)total : 0;
	v[0 * stride] = (double)d[SU_SOFTIRQ] * pct;
	v[1 * stride] = (double)d[SU_IRQ] * pct;
	v[2 * stride] = (double)(d[SU_SYSTEM] + d[SU_IRQ] + d[SU_SOFTIRQ]) * pct;
	v[3 * stride] = (double)(total - d[SU_IDLE] - d[SU_IOWAIT] - d[SU_STEAL]) * pct;
	v[4 * stride] = (double)(d[SU_USER] + d[SU_NICE]) * pct;
	v[5 * stride] =
		seconds > 0 && b->intr > a->intr ? (double)(b->intr - a->intr) / seconds : 0;
}

double *sysutil_table_of(const struct sysutil_snap *a, const struct sysutil_snap *b, double seconds)
{
	unsigned n = (a->nr_cpus < b->nr_cpus ? a->nr_cpus : b->nr_cpus) + 1, k;
	double *v = xcalloc((size_t)SYSUTIL_ROWS * n, sizeof(*v));

	column(&a->all, &b->all, seconds, v, n);
	for (k = 1; k < n; k++)
		column(&a->cpu[k - 1], &b->cpu[k - 1], seconds, v + k, n);
	return v;
}

void sysutil_table(const double *v, unsigned cols, unsigned stride, struct strbuf *out)
{
	static const char *const label[SYSUTIL_ROWS] = {
		"DPCTime(%):",	     "InterruptTime(%):", "PrivilegedTime(%):",
		"ProcessorTime(%):", "UserTime(%):",	  "Interrupts/sec:",
	};
	unsigned r, k;

	strbuf_addf(out, "%-16s%12s", "ProcessorNumber:", "ALL");
	for (k = 1; k < cols; k++)
		strbuf_addf(out, "%9u", k - 1);
	strbuf_addc(out, '\n');
	for (r = 0; r < SYSUTIL_ROWS; r++) {
		strbuf_addf(out, "%-18s%11.2f", label[r], v[r * stride]);
		for (k = 1; k < cols; k++)
			strbuf_addf(out, "%9.2f", v[r * stride + k]);
		strbuf_addc(out, '\n');
	}
}
