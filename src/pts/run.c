/* SPDX-License-Identifier: MIT */
/*
 * A PTS run, part by part: the purge (BLKDISCARD over the whole device,
 * where it is supported), the preconditioning (sequential writes over
 * the device, precondition_loops times: 128 KiB, or the throughput
 * part's block size), then rounds of the part's cells, each a child
 * iogauge (sweep/point.c) for cell_ns, until the tracked value is steady
 * over the last PTS_WINDOW rounds or max_rounds have run.
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

const char *pts_test_name(enum pts_test t)
{
	return t == PTS_THROUGHPUT ? "throughput" : t == PTS_LATENCY ? "latency" : "iops";
}

const struct pts_cell *pts_cell_at(const struct pts_plan *p, const struct pts_part *pt,
				   unsigned round, unsigned m, unsigned b)
{
	return &pt->cells[((size_t)round * p->nmixes + m) * pt->nbs + b];
}

double pts_tracked(const struct pts_plan *p, const struct pts_part *pt, unsigned round)
{
	const struct pts_cell *c;

	/* A throughput part has one size: its own. */
	c = pts_cell_at(p, pt, round, p->tracked_mix,
			p->test == PTS_THROUGHPUT ? 0 : p->tracked_bs - pt->bs_first);
	return p->test == PTS_THROUGHPUT ? c->bw : p->test == PTS_LATENCY ? c->mean : c->iops;
}

/* Discards the whole device; a device without discard is noted, not an
 * error. */
static void purge(const struct pts_plan *p, struct pts_part *pt)
{
	uint64_t range[2] = { 0, p->capacity };
	int fd = p->hold_fd >= 0 ? fcntl(p->hold_fd, F_DUPFD_CLOEXEC, 0)
				 : open(p->device, O_WRONLY | O_EXCL | O_CLOEXEC);
	int err;

	if (fd < 0) {
		pt->purge_note = xasprintf("not purged: open: %s", strerror(errno));
		return;
	}
	if (ioctl(fd, BLKDISCARD, range)) {
		err = errno;
		pt->purge_note = xasprintf("not purged: the device does not support discard "
					   "(BLKDISCARD: %s)",
					   strerror(err));
	} else {
		pt->purged = true;
		pt->purge_note =
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
	/* pts checked the device and holds it O_EXCL (cli.c): the child's
	 * own check would find that hold and refuse. */
	if (p->hold_fd >= 0)
		str_list_push(a, xstrdup("--allow_mounted_write=1"));
}

/* One child run; 0, -EINTR, or -errno with *cause. */
static int child(const struct str_list *args, struct sweep_metrics *m, const char *what,
		 char **cause)
{
	/* The latency test's percentiles; the others ignore them. */
	static const double pcts[] = { 99.99, 99.999 };
	char *why = NULL;
	int ret = sweep_point_run(args, pcts, 2, m, &why);

	if (ret && ret != -EINTR)
		set_cause(cause, "%s: %s", what, why ? why : strerror(-ret));
	free(why);
	return ret;
}

static int precondition(const struct pts_plan *p, const struct pts_part *pt, char **cause)
{
	struct str_list a = { 0 };
	struct sweep_metrics m;
	int ret;

	common_args(p, "pts-precondition", &a);
	str_list_push(&a, xstrdup("--rw=write"));
	str_list_push(&a, xasprintf("--bs=%llu", (unsigned long long)pt->precondition_bs));
	str_list_push(&a, xasprintf("--loops=%u", p->precondition_loops));
	ret = child(&a, &m, "precondition", cause);
	str_list_clear(&a);
	return ret;
}

/* The rw= of a mix: sequential for the throughput test, random else. */
static const char *rw_of(const struct pts_plan *p, unsigned rd)
{
	if (p->test == PTS_THROUGHPUT)
		return rd == 100 ? "--rw=read" : rd == 0 ? "--rw=write" : "--rw=rw";
	return rd == 100 ? "--rw=randread" : rd == 0 ? "--rw=randwrite" : "--rw=randrw";
}

static int cell(const struct pts_plan *p, unsigned mix, uint64_t bsize, struct pts_cell *c,
		char **cause)
{
	struct str_list a = { 0 };
	struct sweep_metrics m;
	char bs[32], *what;
	unsigned rd = p->mixes[mix];
	int ret;

	common_args(p, "pts-cell", &a);
	str_list_push(&a, xstrdup(rw_of(p, rd)));
	if (rd != 100 && rd)
		str_list_push(&a, xasprintf("--rwmixread=%u", rd));
	str_list_push(&a, xasprintf("--bs=%llu", (unsigned long long)bsize));
	str_list_push(&a, xasprintf("--runtime=%lluus", (unsigned long long)(p->cell_ns / 1000)));
	str_list_push(&a, xstrdup("--time_based=1"));
	if (p->test != PTS_THROUGHPUT) {
		str_list_push(&a, xstrdup("--norandommap=1"));
		str_list_push(&a, xstrdup("--randrepeat=0"));
	}
	pts_bs_name(bsize, bs, sizeof(bs));
	what = xasprintf("cell %u/%u %s", rd, 100 - rd, bs);
	ret = child(&a, &m, what, cause);
	*c = (struct pts_cell){ .iops = m.iops,
				.bw = m.bw,
				.mean = m.mean,
				.max = m.max,
				.p9999 = m.clat[0],
				.p99999 = m.clat[1],
				.ios = m.ios,
				.rbytes = m.rbytes,
				.wbytes = m.wbytes };
	/* A percentile read from the bins is the bin's value, which can lie
	 * above the largest latency seen. */
	c->p9999 = c->p9999 < c->max ? c->p9999 : c->max;
	c->p99999 = c->p99999 < c->max ? c->p99999 : c->max;
	if (!ret || ret == -EINTR) {
		if (p->test == PTS_THROUGHPUT)
			fprintf(stderr, "iogauge pts: %s: %.1f MB/s\n", what, m.bw / 1e6);
		else if (p->test == PTS_LATENCY)
			fprintf(stderr, "iogauge pts: %s: %.1f us mean, %.1f us max\n", what,
				m.mean / 1e3, m.max / 1e3);
		else
			fprintf(stderr, "iogauge pts: %s: %.0f IOPS\n", what, m.iops);
	}
	free(what);
	str_list_clear(&a);
	return ret;
}

static void judge(const struct pts_plan *p, struct pts_part *pt)
{
	double y[PTS_WINDOW] = { 0 };
	unsigned n = pt->rounds < PTS_WINDOW ? pt->rounds : PTS_WINDOW, i;

	pt->window_first = pt->rounds - n;
	for (i = 0; i < n; i++)
		y[i] = pts_tracked(p, pt, pt->window_first + i);
	pts_steady_judge(y, n, p->range_pct, p->excursion_pct, &pt->ss);
	/* PTS asks for a whole window. */
	if (n < PTS_WINDOW)
		pt->ss.steady = false;
}

/* One part: purge, precondition, rounds. */
static int part_run(const struct pts_plan *p, struct pts_part *pt, char **cause)
{
	unsigned r, m, b;
	char bs[32];
	int ret;

	pt->cells = xcalloc((size_t)p->max_rounds * p->nmixes * pt->nbs, sizeof(*pt->cells));
	purge(p, pt);
	fprintf(stderr, "iogauge pts: purge: %s\n", pt->purge_note);
	pts_bs_name(pt->precondition_bs, bs, sizeof(bs));
	fprintf(stderr, "iogauge pts: preconditioning: %u x %llu bytes of %s sequential writes\n",
		p->precondition_loops, (unsigned long long)p->capacity, bs);
	ret = p->precondition_loops ? precondition(p, pt, cause) : 0;
	if (!ret && sweep_stop_signal)
		ret = -EINTR;
	if (ret)
		return ret;
	pt->preconditioned = p->precondition_loops > 0;
	for (r = 0; r < p->max_rounds; r++) {
		for (m = 0; m < p->nmixes; m++)
			for (b = 0; b < pt->nbs; b++) {
				ret = cell(p, m, p->bs[pt->bs_first + b],
					   &pt->cells[((size_t)r * p->nmixes + m) * pt->nbs + b],
					   cause);
				if (!ret && sweep_stop_signal)
					ret = -EINTR;
				if (ret) {
					/* A round cut short is not judged. */
					judge(p, pt);
					return ret;
				}
			}
		pt->rounds = r + 1;
		judge(p, pt);
		if (p->test == PTS_THROUGHPUT)
			fprintf(stderr, "iogauge pts: round %u: tracked %.1f MB/s%s\n", r + 1,
				pts_tracked(p, pt, r) / 1e6, pt->ss.steady ? ": steady" : "");
		else if (p->test == PTS_LATENCY)
			fprintf(stderr, "iogauge pts: round %u: tracked %.1f us%s\n", r + 1,
				pts_tracked(p, pt, r) / 1e3, pt->ss.steady ? ": steady" : "");
		else
			fprintf(stderr, "iogauge pts: round %u: tracked %.0f IOPS%s\n", r + 1,
				pts_tracked(p, pt, r), pt->ss.steady ? ": steady" : "");
		if (pt->ss.steady)
			break;
	}
	return 0;
}

int pts_run(const struct pts_plan *p, struct pts_result *res, char **cause)
{
	unsigned k, nparts = p->test == PTS_THROUGHPUT ? p->nbs : 1;
	int ret = 0;

	sweep_signals_install();
	for (k = 0; k < nparts && !ret; k++) {
		struct pts_part *pt = &res->parts[k];

		/* PTS's throughput test purges and preconditions before each
		 * size, with that size's sequential writes. */
		if (p->test == PTS_THROUGHPUT) {
			pt->bs_first = k;
			pt->nbs = 1;
			pt->precondition_bs = p->bs[k];
		} else {
			pt->nbs = p->nbs;
			pt->precondition_bs = 128 << 10;
		}
		res->nparts = k + 1;
		ret = part_run(p, pt, cause);
	}
	return ret;
}
