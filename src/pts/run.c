/* SPDX-License-Identifier: MIT */
/*
 * A PTS IOPS run: the purge (BLKDISCARD over the whole device, where it
 * is supported), the preconditioning (128 KiB sequential writes over the
 * device, precondition_loops times), then rounds of the matrix, each
 * cell a child iogauge (sweep/point.c) doing random I/O for cell_ns,
 * until the tracked cell (4k, 0/100) is steady over the last PTS_WINDOW
 * rounds or max_rounds have run.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pts/pts.h"
#include "sweep/sweep.h"

void pts_bs_name(uint64_t bs, char *buf, size_t len)
{
	if (bs % 1024)
		snprintf(buf, len, "%gk", (double)bs / 1024);
	else
		snprintf(buf, len, "%lluk", (unsigned long long)(bs / 1024));
}

/* Discards the whole device; a device without discard is noted, not an
 * error. */
static void purge(const struct pts_plan *p, struct pts_result *res)
{
	uint64_t range[2] = { 0, p->capacity };
	int fd = open(p->device, O_WRONLY | O_EXCL | O_CLOEXEC), err;

	if (fd < 0) {
		res->purge_note = xasprintf("not purged: open: %s", strerror(errno));
		return;
	}
	if (ioctl(fd, BLKDISCARD, range)) {
		err = errno;
		res->purge_note = xasprintf("not purged: the device does not support discard "
					    "(BLKDISCARD: %s)",
					    strerror(err));
	} else {
		res->purged = true;
		res->purge_note =
			xasprintf("BLKDISCARD over %llu bytes", (unsigned long long)p->capacity);
	}
	close(fd);
}

static void common_args(const struct pts_plan *p, const char *name, struct str_list *a)
{
	struct strbuf f = { 0 };
	const char *c;

	/* fio's filename= splits at ':' (a list): /dev/disk/by-path names
	 * hold them, so each is written as fio's "\:". */
	strbuf_adds(&f, "--filename=");
	for (c = p->device; *c; c++) {
		if (*c == ':')
			strbuf_addc(&f, '\\');
		strbuf_addc(&f, *c);
	}
	str_list_push(a, xasprintf("--name=%s", name));
	str_list_push(a, strbuf_detach(&f));
	str_list_push(a, xasprintf("--ioengine=%s", p->ioengine));
	str_list_push(a, xasprintf("--iodepth=%u", p->iodepth));
	str_list_push(a, xstrdup("--direct=1"));
}

/* One child run; 0, -EINTR, or -errno with *cause. */
static int child(const struct str_list *args, struct sweep_metrics *m, const char *what,
		 char **cause)
{
	char *why = NULL;
	int ret = sweep_point_run(args, NULL, 0, m, &why);

	if (ret && ret != -EINTR)
		set_cause(cause, "%s: %s", what, why ? why : strerror(-ret));
	free(why);
	return ret;
}

static int precondition(const struct pts_plan *p, char **cause)
{
	struct str_list a = { 0 };
	struct sweep_metrics m;
	int ret;

	common_args(p, "pts-precondition", &a);
	str_list_push(&a, xstrdup("--rw=write"));
	str_list_push(&a, xstrdup("--bs=128k"));
	str_list_push(&a, xasprintf("--loops=%u", p->precondition_loops));
	ret = child(&a, &m, "precondition", cause);
	str_list_clear(&a);
	return ret;
}

static int cell(const struct pts_plan *p, unsigned mix, unsigned b, double *iops, char **cause)
{
	struct str_list a = { 0 };
	struct sweep_metrics m;
	char bs[32], *what;
	unsigned rd = p->mixes[mix];
	int ret;

	common_args(p, "pts-cell", &a);
	str_list_push(&a, xstrdup(rd == 100 ? "--rw=randread"
				  : rd == 0 ? "--rw=randwrite"
					    : "--rw=randrw"));
	if (rd != 100 && rd)
		str_list_push(&a, xasprintf("--rwmixread=%u", rd));
	str_list_push(&a, xasprintf("--bs=%llu", (unsigned long long)p->bs[b]));
	str_list_push(&a, xasprintf("--runtime=%lluus", (unsigned long long)(p->cell_ns / 1000)));
	str_list_push(&a, xstrdup("--time_based=1"));
	str_list_push(&a, xstrdup("--norandommap=1"));
	str_list_push(&a, xstrdup("--randrepeat=0"));
	pts_bs_name(p->bs[b], bs, sizeof(bs));
	what = xasprintf("cell %u/%u %s", rd, 100 - rd, bs);
	ret = child(&a, &m, what, cause);
	*iops = m.iops;
	if (!ret || ret == -EINTR)
		fprintf(stderr, "iogauge pts: %s: %.0f IOPS\n", what, m.iops);
	free(what);
	str_list_clear(&a);
	return ret;
}

static void judge(const struct pts_plan *p, struct pts_result *res)
{
	double y[PTS_WINDOW] = { 0 };
	unsigned n = res->rounds < PTS_WINDOW ? res->rounds : PTS_WINDOW, i, cells;

	cells = p->nmixes * p->nbs;
	res->window_first = res->rounds - n;
	for (i = 0; i < n; i++)
		y[i] = res->iops[(size_t)(res->window_first + i) * cells + p->tracked_mix * p->nbs +
				 p->tracked_bs];
	pts_steady_judge(y, n, p->range_pct, p->excursion_pct, &res->ss);
	/* PTS asks for a whole window. */
	if (n < PTS_WINDOW)
		res->ss.steady = false;
}

int pts_run(const struct pts_plan *p, struct pts_result *res, char **cause)
{
	unsigned cells = p->nmixes * p->nbs, r, m, b;
	int ret;

	res->iops = xcalloc((size_t)p->max_rounds * cells, sizeof(double));
	sweep_signals_install();
	purge(p, res);
	fprintf(stderr, "iogauge pts: purge: %s\n", res->purge_note);
	fprintf(stderr, "iogauge pts: preconditioning: %u x %llu bytes of 128k sequential writes\n",
		p->precondition_loops, (unsigned long long)p->capacity);
	ret = p->precondition_loops ? precondition(p, cause) : 0;
	if (ret)
		return ret;
	res->preconditioned = p->precondition_loops > 0;
	for (r = 0; r < p->max_rounds; r++) {
		for (m = 0; m < p->nmixes; m++)
			for (b = 0; b < p->nbs; b++) {
				ret = cell(p, m, b,
					   &res->iops[((size_t)r * p->nmixes + m) * p->nbs + b],
					   cause);
				if (!ret && sweep_stop_signal)
					ret = -EINTR;
				if (ret) {
					/* A round cut short is not judged. */
					judge(p, res);
					return ret;
				}
			}
		res->rounds = r + 1;
		judge(p, res);
		fprintf(stderr, "iogauge pts: round %u: tracked %.0f IOPS%s\n", r + 1,
			res->iops[((size_t)r * p->nmixes + p->tracked_mix) * p->nbs +
				  p->tracked_bs],
			res->ss.steady ? ": steady" : "");
		if (res->ss.steady)
			break;
	}
	return 0;
}
