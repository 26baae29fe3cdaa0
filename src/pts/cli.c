/* SPDX-License-Identifier: MIT */
/*
 * iogauge pts's command line and its refusals: the test (iops,
 * throughput or latency) and its defaults, the
 * device (a block device, nothing on it that devsafe.c finds: no mount,
 * holder, filesystem, partition table or other signature) and
 * --destroy-data, all checked before anything is written.  Returns the
 * exit status for main.c: 0; 1 a run failed or the report could not be
 * written; 2 bad input (nothing written); 128 + the signal that stopped
 * it (what was measured is still reported).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files/devsafe.h"
#include "jobfile/units.h"
#include "pts/pts.h"
#include "report/output.h"
#include "sweep/sweep.h"

static const char usage[] =
	"usage: iogauge pts iops|throughput|latency DEVICE --destroy-data [--cell-time=T]\n"
	"                   [--max-rounds=N] [--precondition-loops=N] [--mixes=R/W,...]\n"
	"                   [--bs=SIZE,...] [--iodepth=N] [--ioengine=NAME]\n"
	"                   [--output-format=text|json|text,json] [--output=FILE]\n"
	"                   [--plot=DIR]\n"
	"\n"
	"SNIA PTS's tests.  Each purges DEVICE (discard) and preconditions it with\n"
	"sequential writes over twice its capacity, then runs rounds until the\n"
	"tracked value is steady over 5 rounds (at most 25):\n"
	"  iops        7 read/write mixes x 8 block sizes of random I/O; tracked:\n"
	"              4k random write IOPS\n"
	"  throughput  for 1024k, then 128k (each purged and preconditioned with its\n"
	"              own size): sequential 100% reads and 100% writes; tracked: the\n"
	"              write MB/s\n"
	"  latency     100/0, 65/35, 0/100 x 8k, 4k, 0.5k random I/O, one I/O in\n"
	"              flight; tracked: 4k random writes' mean latency\n"
	"It DESTROYS every byte on DEVICE: it runs only on a block device that carries\n"
	"no filesystem, partition table or other signature, and only with\n"
	"--destroy-data.  See iogauge-pts(1).\n";

static const unsigned default_mixes[] = { 100, 95, 65, 50, 35, 5, 0 };
static const uint64_t default_bs[] = { 1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512 };
/* PTS's throughput test: 1024 KiB, then 128 KiB (its client text has only the first). */
static const unsigned tp_mixes[] = { 100, 0 };
static const uint64_t tp_bs[] = { 1048576, 131072 };
/* PTS's latency test: mixes the outer loop, sizes the inner. */
static const unsigned lat_mixes[] = { 100, 65, 0 };
static const uint64_t lat_bs[] = { 8192, 4096, 512 };

/* Bits: both print the text first, as fio does for normal,json. */
enum fmt { FMT_TEXT = 1, FMT_JSON = 2 };

struct opts {
	const char *test, *device, *output, *plot;
	bool destroy, bs_given, mixes_given;
	unsigned fmt; /* enum fmt bits; 0: text */
};

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "iogauge pts: " and the message; -EINVAL. */
static int bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "iogauge pts: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

/* A whole number flag in [lo, hi]. */
static int uint_flag(const char *flag, const char *v, unsigned lo, unsigned hi, unsigned *out)
{
	char *cause = NULL;
	uint64_t n;

	if (units_parse_uint(v, &n, &cause) || n < lo || n > hi) {
		free(cause);
		fprintf(stderr, "iogauge pts: %s=%s: a whole number from %u to %u\n", flag, v, lo,
			hi);
		return -EINVAL;
	}
	*out = (unsigned)n;
	return 0;
}

/* --output-format=text, json, or both: text,json. */
static int fmt_parse(const char *v, unsigned *fmt)
{
	char *list = xstrdup(v), *save = NULL, *item;
	int ret = 0;

	*fmt = 0;
	for (item = strtok_r(list, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save)) {
		if (!strcmp(item, "text") || !strcmp(item, "normal"))
			*fmt |= FMT_TEXT;
		else if (!strcmp(item, "json"))
			*fmt |= FMT_JSON;
		else
			ret = -EINVAL;
	}
	free(list);
	if (ret || !*fmt)
		return bad("--output-format=%s: text, json, or both (text,json)", v);
	return 0;
}

/* --mixes=R/W,...: each R/W two whole percentages adding up to 100. */
static int mixes_parse(const char *v, struct pts_plan *p)
{
	char *list = xstrdup(v), *save = NULL, *item;
	int ret = 0;

	p->nmixes = 0;
	for (item = strtok_r(list, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save)) {
		unsigned r, w;
		int end = 0;

		/* Digits only: %u takes "-1" and wraps 4294967295/101 to 100. */
		if (strspn(item, "0123456789/") != strlen(item) ||
		    sscanf(item, "%3u/%3u%n", &r, &w, &end) != 2 || item[end] || r + w != 100)
			ret = bad("--mixes=%s: '%s' is not a read/write mix such as 65/35", v,
				  item);
		else if (p->nmixes == ARRAY_SIZE(p->mixes))
			ret = bad("--mixes=%s: more than 16 mixes", v);
		else
			p->mixes[p->nmixes++] = r;
	}
	if (!ret && !p->nmixes)
		ret = bad("--mixes=%s: no mix given", v);
	free(list);
	return ret;
}

/* --bs=SIZE,...: sizes with units, 0.5k included, multiples of 512. */
static int bs_parse(const char *v, struct pts_plan *p)
{
	char *list = xstrdup(v), *save = NULL, *item;
	int ret = 0;

	p->nbs = 0;
	for (item = strtok_r(list, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save)) {
		char *cause = NULL;
		uint64_t bs = 0;
		bool pct = false;

		if (!strcmp(item, "0.5k") || !strcmp(item, "0.5K"))
			bs = 512;
		else if (units_parse_size(item, 1024, &bs, &pct, &cause) || pct)
			bs = 0;
		free(cause);
		if (!bs || bs % 512 || bs > (64u << 20))
			ret = bad("--bs=%s: '%s' is not a block size of 512 bytes to 64m in steps "
				  "of 512",
				  v, item);
		else if (p->nbs == ARRAY_SIZE(p->bs))
			ret = bad("--bs=%s: more than 16 sizes", v);
		else
			p->bs[p->nbs++] = bs;
	}
	if (!ret && !p->nbs)
		ret = bad("--bs=%s: no size given", v);
	free(list);
	return ret;
}

/* Reads the command line; 1 for --help, 0, or -EINVAL (printed). */
static int opts_parse(struct opts *o, struct pts_plan *p, int argc, char **argv)
{
	int i, ret = 0;

	for (i = 1; i < argc && ret <= 0; i++) {
		const char *a = argv[i], *v;
		char *cause = NULL;
		double d;
		int r = 0;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "--destroy-data")) {
			o->destroy = true;
		} else if ((v = util_flag_value(a, "--output-format"))) {
			r = fmt_parse(v, &o->fmt);
		} else if ((v = util_flag_value(a, "--output"))) {
			o->output = v;
		} else if ((v = util_flag_value(a, "--plot")) ||
			   (!strcmp(a, "--plot") && i + 1 < argc)) {
			o->plot = v ? v : argv[++i];
		} else if ((v = util_flag_value(a, "--cell-time"))) {
			uint64_t ns;

			/* Seconds may have a fraction (0.5); units_parse_time's do not. */
			char *end = NULL;
			double sec = strtod(v, &end);

			if (v[0] >= '0' && v[0] <= '9' && end && !*end) {
				ns = sec < 4e3 ? (uint64_t)(sec * 1e9) : 0;
			} else if (units_parse_time(v, 1000000000ull, &ns, &cause)) {
				ns = 0;
			}
			if (ns < 1000000 || ns > 3600000000000ull)
				r = bad("--cell-time=%s: a time from 1ms to 1h (seconds without a "
					"unit, as 0.5)",
					v);
			else
				p->cell_ns = ns;
			free(cause);
		} else if ((v = util_flag_value(a, "--max-rounds"))) {
			r = uint_flag("--max-rounds", v, 1, 1000, &p->max_rounds);
		} else if ((v = util_flag_value(a, "--precondition-loops"))) {
			r = uint_flag("--precondition-loops", v, 0, 100, &p->precondition_loops);
		} else if ((v = util_flag_value(a, "--iodepth"))) {
			r = uint_flag("--iodepth", v, 1, 65536, &p->iodepth);
		} else if ((v = util_flag_value(a, "--ioengine"))) {
			p->ioengine = v;
			if (pts_engine_check(v, &cause)) {
				r = bad("%s", cause);
				free(cause);
				cause = NULL;
			}
		} else if ((v = util_flag_value(a, "--mixes"))) {
			r = mixes_parse(v, p);
			o->mixes_given = true;
		} else if ((v = util_flag_value(a, "--bs"))) {
			r = bs_parse(v, p);
			o->bs_given = true;
		} else if ((v = util_flag_value(a, "--range-pct"))) {
			if (units_parse_double(v, &d, &cause) || d <= 0 || d > 1000)
				r = bad("--range-pct=%s: a percentage above 0", v);
			else
				p->range_pct = d;
			free(cause);
		} else if ((v = util_flag_value(a, "--excursion-pct"))) {
			if (units_parse_double(v, &d, &cause) || d <= 0 || d > 1000)
				r = bad("--excursion-pct=%s: a percentage above 0", v);
			else
				p->excursion_pct = d;
			free(cause);
		} else if (a[0] == '-') {
			r = bad("%s: unknown option (iogauge pts --help)", a);
		} else if (!o->test) {
			o->test = a;
		} else if (!o->device) {
			o->device = a;
		} else {
			r = bad("%s: one device only", a);
		}
		ret = r ? r : ret;
	}
	if (ret)
		return ret;
	if (!o->test || !o->device) {
		fprintf(stderr, "iogauge pts: no %s given\n%s", o->test ? "device" : "test", usage);
		return -EINVAL;
	}
	if (!strcmp(o->test, "iops"))
		p->test = PTS_IOPS;
	else if (!strcmp(o->test, "throughput"))
		p->test = PTS_THROUGHPUT;
	else if (!strcmp(o->test, "latency"))
		p->test = PTS_LATENCY;
	else
		return bad("%s: not a PTS test: iops, throughput or latency", o->test);
	return 0;
}

/* The test's own mixes, sizes and depth where none were given. */
static void test_defaults(const struct opts *o, struct pts_plan *p)
{
	const unsigned *mixes = default_mixes;
	const uint64_t *bs = default_bs;
	unsigned nm = ARRAY_SIZE(default_mixes), nb = ARRAY_SIZE(default_bs), depth = 32;

	if (p->test == PTS_THROUGHPUT) {
		mixes = tp_mixes, nm = ARRAY_SIZE(tp_mixes);
		bs = tp_bs, nb = ARRAY_SIZE(tp_bs);
	} else if (p->test == PTS_LATENCY) {
		mixes = lat_mixes, nm = ARRAY_SIZE(lat_mixes);
		bs = lat_bs, nb = ARRAY_SIZE(lat_bs);
		depth = 1;
	}
	if (!o->mixes_given) {
		memcpy(p->mixes, mixes, nm * sizeof(*mixes));
		p->nmixes = nm;
	}
	if (!o->bs_given) {
		memcpy(p->bs, bs, nb * sizeof(*bs));
		p->nbs = nb;
	}
	if (!p->iodepth)
		p->iodepth = depth;
}

/* The tracked cell, 0/100 at 4k (throughput: at each size), must be in
 * the matrix. */
static int find_tracked(struct pts_plan *p)
{
	unsigned i;

	p->tracked_mix = p->tracked_bs = ~0u;
	for (i = 0; i < p->nmixes; i++)
		if (p->mixes[i] == 0)
			p->tracked_mix = i;
	for (i = 0; i < p->nbs; i++)
		if (p->bs[i] == 4096)
			p->tracked_bs = i;
	if (p->test == PTS_THROUGHPUT && p->tracked_mix == ~0u)
		return bad("the throughput test tracks 0/100 at each block size: --mixes must "
			   "hold it");
	if (p->test != PTS_THROUGHPUT && (p->tracked_mix == ~0u || p->tracked_bs == ~0u))
		return bad("the matrix must hold the tracked cell, 4k at 0/100 (--mixes and --bs "
			   "select a subset that includes it)");
	return 0;
}

/* The device: a block device that is safe to write; its capacity and
 * logical block size.  0, or -EINVAL (printed): nothing was written. */
static int device_check(struct opts *o, struct pts_plan *p)
{
	struct stat st;
	char *cause = NULL, *cut;
	int fd, lbs = 0, ro = 0;
	unsigned i, n;

	if (stat(o->device, &st))
		return bad("%s: %s", o->device, strerror(errno));
	if (!S_ISBLK(st.st_mode))
		return bad("%s: not a block device (%s): PTS runs only on a whole block device, "
			   "whose every byte it destroys",
			   o->device,
			   S_ISREG(st.st_mode) ? "a regular file" : "another kind of file");
	if (devsafe_check(o->device, st.st_rdev, &cause)) {
		/* allow_mounted_write= is the plain run's way past; pts has none. */
		cut = strstr(cause, ": writing would destroy it");
		if (cut)
			*cut = 0;
		fprintf(stderr, "iogauge pts: %s: PTS would destroy it; nothing was written%s\n",
			cause,
			strstr(cause, " carries ") ? " (wipe the device first, e.g. wipefs -a, "
						     "if its data may go)"
						   : "");
		free(cause);
		return -EINVAL;
	}
	if (pts_device_whole("/sys", o->device, st.st_rdev, &cause)) {
		fprintf(stderr, "iogauge pts: %s\n", cause);
		free(cause);
		return -EINVAL;
	}
	fd = open(o->device, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bad("%s: %s", o->device, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &p->capacity) || ioctl(fd, BLKSSZGET, &lbs) ||
	    ioctl(fd, BLKROGET, &ro)) {
		close(fd);
		return bad("%s: its size: %s", o->device, strerror(errno));
	}
	close(fd);
	if (ro)
		return bad("%s: read-only (blockdev --getro): PTS writes every byte of it; "
			   "nothing was written",
			   o->device);
	p->lbs = lbs > 0 ? (unsigned)lbs : 512;
	if (p->capacity < 2u << 20)
		return bad("%s: %s: smaller than 2 MiB", o->device, "too small for PTS");
	for (i = n = 0; i < p->nbs; i++) {
		char name[32];

		if (p->bs[i] % p->lbs == 0) {
			p->bs[n++] = p->bs[i];
			continue;
		}
		pts_bs_name(p->bs[i], name, sizeof(name));
		if (o->bs_given) {
			fprintf(stderr,
				"iogauge pts: --bs: %s is not a multiple of %s's logical block "
				"size (%u bytes): direct I/O cannot do it\n",
				name, o->device, p->lbs);
			return -EINVAL;
		}
		fprintf(stderr,
			"iogauge pts: %s left out of the matrix: %s's logical block size is %u "
			"bytes\n",
			name, o->device, p->lbs);
	}
	p->nbs = n;
	if (!o->destroy)
		return bad("%s: PTS destroys every byte on it (purge, preconditioning, random "
			   "writes): give --destroy-data to run; nothing was written",
			   o->device);
	p->hold_fd = open(o->device, O_RDWR | O_EXCL | O_CLOEXEC);
	if (p->hold_fd < 0)
		return bad("%s: %s (an O_EXCL open: a mount or another program, a second pts, "
			   "took it); nothing was written",
			   o->device, strerror(errno));
	return 0;
}

static void free_result(struct pts_result *r)
{
	unsigned k;

	for (k = 0; k < r->nparts; k++) {
		free(r->parts[k].purge_note);
		free(r->parts[k].cells);
	}
}

int pts_main(int argc, char **argv)
{
	struct pts_plan p = { .hold_fd = -1,
			      .cell_ns = 60000000000ull,
			      .max_rounds = 25,
			      .precondition_loops = 2,
			      .iodepth = 0,
			      .ioengine = "libaio",
			      .range_pct = 20,
			      .excursion_pct = 10 };
	struct output dest = { .path = NULL, .fd = -1 };
	struct pts_result r = { 0 };
	struct opts o = { 0 };
	struct strbuf out = { 0 };
	struct stat pst;
	char *cause = NULL;
	int ret, status = 0;

	ret = opts_parse(&o, &p, argc, argv);
	if (ret > 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (!ret)
		test_defaults(&o, &p);
	if (!ret)
		ret = device_check(&o, &p);
	if (!ret)
		ret = find_tracked(&p);
	p.device = o.device;
	if (!ret && o.plot && mkdir(o.plot, 0777) && errno != EEXIST)
		ret = bad("--plot=%s: %s", o.plot, strerror(errno));
	/* A file there failed the plots after the whole run (exit 1). */
	if (!ret && o.plot && (stat(o.plot, &pst) || !S_ISDIR(pst.st_mode)))
		ret = bad("--plot=%s: not a folder; nothing was written", o.plot);
	if (!ret && output_open(&dest, o.output, &cause)) {
		fprintf(stderr, "iogauge pts: %s\n", cause);
		free(cause);
		cause = NULL;
		ret = -EINVAL;
	}
	if (ret) {
		output_abandon(&dest);
		if (p.hold_fd >= 0)
			close(p.hold_fd);
		return 2;
	}
	ret = pts_run(&p, &r, &cause);
	if (ret == -EINTR) {
		r.stopped = true;
		fprintf(stderr, "iogauge pts: stopped by a signal\n");
		status = 128 + sweep_stop_signal;
	} else if (ret) {
		fprintf(stderr, "iogauge pts: %s\n", cause);
		free(cause);
		cause = NULL;
		status = 1;
	}
	if (o.fmt & FMT_TEXT || !o.fmt)
		pts_print_text(&p, &r, &out);
	if (o.fmt & FMT_JSON)
		pts_print_json(&p, &r, &out);
	if (output_commit(&dest, out.buf, out.len, &cause)) {
		fprintf(stderr, "iogauge pts: %s\n", cause);
		free(cause);
		cause = NULL;
		status = status ? status : 1;
	}
	output_abandon(&dest);
	if (o.plot && r.nparts && pts_plot_write(&p, &r, o.plot, &cause)) {
		fprintf(stderr, "iogauge pts: %s\n", cause);
		free(cause);
		status = status ? status : 1;
	}
	strbuf_free(&out);
	free_result(&r);
	close(p.hold_fd);
	return status;
}
