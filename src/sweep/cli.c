/* SPDX-License-Identifier: MIT */
/*
 * iogauge sweep's command line: the axes, the points checked (each as a
 * child --parse-only, so that a value the job refuses stops the sweep
 * before anything runs), run in order, summed up and written.  Returns
 * the exit status for main.c: 0; 1 a point's run failed or the output
 * could not be written; 2 bad input (nothing ran); 128 + the signal that
 * stopped it (what was measured is still written).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jobfile/options.h"
#include "jobfile/units.h"
#include "report/output.h"
#include "sweep/sweep.h"

static const char usage[] =
	"usage: iogauge sweep JOBFILE... --OPTION=VALUES [--OPTION=VALUES...]\n"
	"                     [--repeat=N] [--output-format=text|csv|json] [--output=FILE]\n"
	"                     [--plot=DIR] [--set KEY=VALUE] [--knee-gain=PCT]\n"
	"                     [--knee-latency=PCT] [--crossover-bw=PCT]\n"
	"\n"
	"Runs the job once per point of the axes (every combination), each run a\n"
	"separate iogauge, and prints IOPS, MB/s, mean, p50, p99, p99.9 completion\n"
	"latency and CPU per I/O, with the knee (and, over bs, the crossover).\n"
	"Any job option is an axis; VALUES is a comma list of values and ranges:\n"
	"A..BxF (multiply by F) or A..B+S (add S), e.g. --iodepth=1..64x2,\n"
	"--bs=4k..1mx4, --rw=read,randread.  See iogauge-sweep(1).\n";

/* A percentage flag's value: 0, or -EINVAL with a message printed. */
static int pct_flag(const char *flag, const char *v, double *out)
{
	char *cause = NULL;

	if (units_parse_double(v, out, &cause) || *out < 0 || *out > 1e6) {
		free(cause);
		fprintf(stderr, "iogauge sweep: %s=%s: a percentage (0 or more)\n", flag, v);
		return -EINVAL;
	}
	return 0;
}

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

struct opts {
	struct str_list files, sets;
	struct sweep_axis *axes;
	unsigned naxes, repeat;
	const char *output, *plot;
	enum fmt fmt;
	double knee_gain, knee_lat, cross_bw;
};

/* Reads the command line into @o; 1 for --help, 0, or -EINVAL (printed). */
static int opts_parse(struct opts *o, int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		char *cause = NULL, *name;
		const char *eq;
		uint64_t n;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if ((v = util_flag_value(a, "--output-format"))) {
			if (!strcmp(v, "text") || !strcmp(v, "normal"))
				o->fmt = FMT_TEXT;
			else if (!strcmp(v, "csv"))
				o->fmt = FMT_CSV;
			else if (!strcmp(v, "json"))
				o->fmt = FMT_JSON;
			else
				bad = fprintf(stderr,
					      "iogauge sweep: --output-format=%s: text, csv "
					      "or json\n",
					      v);
		} else if ((v = util_flag_value(a, "--output"))) {
			o->output = v;
		} else if ((v = util_flag_value(a, "--plot")) ||
			   (!strcmp(a, "--plot") && i + 1 < argc)) {
			o->plot = v ? v : argv[++i];
		} else if ((v = util_flag_value(a, "--repeat"))) {
			if (units_parse_uint(v, &n, &cause) || n < 1 || n > 1000) {
				free(cause);
				bad = fprintf(stderr,
					      "iogauge sweep: --repeat=%s: a whole number "
					      "from 1 to 1000\n",
					      v);
			} else {
				o->repeat = (unsigned)n;
			}
		} else if ((v = util_flag_value(a, "--knee-gain"))) {
			bad |= pct_flag("--knee-gain", v, &o->knee_gain) ? 1 : 0;
		} else if ((v = util_flag_value(a, "--knee-latency"))) {
			bad |= pct_flag("--knee-latency", v, &o->knee_lat) ? 1 : 0;
		} else if ((v = util_flag_value(a, "--crossover-bw"))) {
			bad |= pct_flag("--crossover-bw", v, &o->cross_bw) ? 1 : 0;
		} else if ((v = util_flag_value(a, "--set")) ||
			   (!strcmp(a, "--set") && i + 1 < argc)) {
			v = v ? v : argv[++i];
			if (!strchr(v, '='))
				bad = fprintf(stderr, "iogauge sweep: --set %s: KEY=VALUE\n", v);
			str_list_push(&o->sets, xstrdup(v));
		} else if (a[0] == '-' && a[1] == '-' && a[2]) {
			eq = strchr(a, '=');
			name = eq ? xstrndup(a + 2, (size_t)(eq - a - 2)) : xstrdup(a + 2);
			v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!opt_find(name)) {
				bad = fprintf(
					stderr,
					"iogauge sweep: --%s: not a job option, nor a flag of "
					"iogauge sweep (iogauge --help-options lists the "
					"options)\n",
					name);
			} else if (!v) {
				bad = fprintf(stderr, "iogauge sweep: --%s: no values given\n",
					      name);
			} else {
				unsigned k;

				/* An alias is the same option: --bs and --blocksize
				 * as two axes measured only the last one's value. */
				for (k = 0; k < o->naxes; k++)
					if (opt_find(o->axes[k].name) == opt_find(name))
						break;
				o->axes = xrealloc(o->axes, (o->naxes + 1) * sizeof(*o->axes));
				if (k < o->naxes && strcmp(o->axes[k].name, name)) {
					bad = fprintf(stderr,
						      "iogauge sweep: --%s: the same option as "
						      "--%s, given twice\n",
						      name, o->axes[k].name);
				} else if (k < o->naxes) {
					bad = fprintf(stderr, "iogauge sweep: --%s: given twice\n",
						      name);
				} else if (sweep_axis_parse(&o->axes[o->naxes], name, v, &cause)) {
					bad = fprintf(stderr, "iogauge sweep: %s\n", cause);
					free(cause);
				} else {
					o->naxes++;
				}
			}
			free(name);
		} else if (a[0] == '-') {
			bad = fprintf(stderr,
				      "iogauge sweep: %s: unknown option (iogauge sweep "
				      "--help)\n",
				      a);
		} else {
			str_list_push(&o->files, xstrdup(a));
		}
	}
	/* The axis's --set comes last and wins: --bs=4k,8k --set bs=1k
	 * ignored the 1k without a word. */
	for (i = 0; !bad && i < (int)o->sets.n; i++) {
		char *key = xstrndup(o->sets.v[i], strcspn(o->sets.v[i], "="));
		unsigned k;

		for (k = 0; k < o->naxes && !bad; k++)
			if (opt_find(key) && opt_find(key) == opt_find(o->axes[k].name))
				bad = fprintf(stderr,
					      "iogauge sweep: --set %s: --%s is an axis of this "
					      "sweep, which sets it at each point\n",
					      o->sets.v[i], o->axes[k].name);
		free(key);
	}
	if (!bad && !o->files.n)
		bad = fprintf(stderr, "iogauge sweep: no job file\n%s", usage);
	if (!bad && !o->naxes)
		bad = fprintf(stderr, "iogauge sweep: no axis: give a job option with its "
				      "values, e.g. --iodepth=1,2,4,8\n");
	return bad ? -EINVAL : 0;
}

/* The child's arguments for point @p. */
static void point_args(const struct opts *o, const struct sweep_result *r, unsigned p,
		       struct str_list *args)
{
	unsigned i;

	str_list_copy(args, &o->files);
	for (i = 0; i < o->sets.n; i++) {
		str_list_push(args, xstrdup("--set"));
		str_list_push(args, xstrdup(o->sets.v[i]));
	}
	for (i = 0; i < r->naxes; i++) {
		str_list_push(args, xstrdup("--set"));
		str_list_push(args, xasprintf("%s=%s", r->axes[i].name,
					      r->axes[i].vals[sweep_value_of(r, p, i)]));
	}
}

static void point_label(const struct sweep_result *r, unsigned p, struct strbuf *sb)
{
	unsigned a;

	for (a = 0; a < r->naxes; a++)
		strbuf_addf(sb, "%s%s=%s", a ? " " : "", r->axes[a].name,
			    r->axes[a].vals[sweep_value_of(r, p, a)]);
}

/* The means over the first @n repeats of a point, and the intervals. */
static void point_sum_up(struct sweep_result *r, unsigned p, unsigned n)
{
	const struct sweep_metrics *m = &r->m[p * r->repeat];
	struct sweep_metrics *avg = &r->avg[p];
	double v[1000] = { 0 }, half;
	unsigned k;

#define MEAN_OF(field)                                   \
	do {                                             \
		for (k = 0; k < n; k++)                  \
			v[k] = m[k].field;               \
		sweep_mean_ci(v, n, &avg->field, &half); \
	} while (0)
	MEAN_OF(bw);
	MEAN_OF(mean);
	MEAN_OF(p50);
	MEAN_OF(p999);
	MEAN_OF(cpu_per_io);
	MEAN_OF(iops);
	r->iops_ci[p] = half;
	MEAN_OF(p99);
	r->p99_ci[p] = half;
#undef MEAN_OF
	for (k = 0; k < n; k++)
		avg->ios += m[k].ios / n;
}

/* Every point's job checked with --parse-only: 0, or the first error
 * (printed). */
static int check_points(const struct opts *o, struct sweep_result *r)
{
	struct str_list args = { 0 };
	struct strbuf label = { 0 };
	char *cause = NULL;
	unsigned p;
	int ret = 0;

	for (p = 0; p < r->npoints && !ret; p++) {
		point_args(o, r, p, &args);
		strbuf_free(&label);
		point_label(r, p, &label);
		ret = sweep_point_check(&args, &cause);
		if (ret) {
			fprintf(stderr, "iogauge sweep: point %s: %s\n", label.buf, cause);
			free(cause);
			cause = NULL;
		}
		str_list_clear(&args);
	}
	strbuf_free(&label);
	return ret;
}

static int run_points(const struct opts *o, struct sweep_result *r)
{
	struct str_list args = { 0 };
	struct strbuf label = { 0 };
	char *cause = NULL;
	unsigned p, rep;
	int ret = 0;

	sweep_signals_install();
	for (p = 0; p < r->npoints && !ret; p++) {
		unsigned measured = 0;

		point_args(o, r, p, &args);
		strbuf_free(&label);
		point_label(r, p, &label);
		for (rep = 0; rep < r->repeat && !ret; rep++) {
			struct sweep_metrics *m = &r->m[p * r->repeat + rep];

			if (sweep_stop_signal) {
				ret = -EINTR;
				break;
			}

			ret = sweep_point_run(&args, NULL, 0, m, &cause);
			if (ret == -EINTR) {
				fprintf(stderr, "iogauge sweep: stopped by a signal during %s\n",
					label.buf);
				/* The run reported the part it did: it counts. */
				if (m->ios)
					measured++;
			} else if (ret) {
				fprintf(stderr, "iogauge sweep: point %s: %s\n", label.buf, cause);
				free(cause);
				cause = NULL;
			} else {
				measured++;
				fprintf(stderr,
					"iogauge sweep: %s (%u/%u): %.0f IOPS, p99 %.2f us\n",
					label.buf, p * r->repeat + rep + 1, r->npoints * r->repeat,
					m->iops, m->p99 / 1e3);
			}
		}
		str_list_clear(&args);
		if (!ret || (ret == -EINTR && measured)) {
			point_sum_up(r, p, measured);
			r->done = p + 1;
		}
	}
	strbuf_free(&label);
	return ret;
}

int sweep_main(int argc, char **argv)
{
	struct opts o = { .repeat = 1, .knee_gain = 10, .knee_lat = 20, .cross_bw = 10 };
	struct output dest = { .path = NULL, .fd = -1 };
	struct sweep_result r = { 0 };
	struct strbuf out = { 0 };
	struct stat st;
	char *cause = NULL;
	unsigned a;
	int ret, status = 0;

	ret = opts_parse(&o, argc, argv);
	if (ret > 0) {
		fputs(usage, stdout);
		goto free;
	}
	if (ret) {
		status = 2;
		goto free;
	}
	r.axes = o.axes;
	r.naxes = o.naxes;
	r.repeat = o.repeat;
	r.npoints = 1;
	r.bs_axis = -1;
	r.knee_gain = o.knee_gain;
	r.knee_lat = o.knee_lat;
	r.cross_bw = o.cross_bw;
	for (a = 0; a < r.naxes; a++) {
		if (r.npoints > 100000 / r.axes[a].n) {
			fprintf(stderr, "iogauge sweep: more than 100000 points\n");
			status = 2;
			goto free;
		}
		r.npoints *= r.axes[a].n;
		if (r.bs_axis < 0 && r.axes[a].numeric &&
		    (!strcmp(r.axes[a].name, "bs") || !strcmp(r.axes[a].name, "blocksize")))
			r.bs_axis = (int)a;
	}
	/* Nothing is made or run before every point's job is seen to parse. */
	ret = check_points(&o, &r);
	if (!ret && o.plot && mkdir(o.plot, 0777) && errno != EEXIST) {
		fprintf(stderr, "iogauge sweep: --plot=%s: %s\n", o.plot, strerror(errno));
		ret = -EINVAL;
	}
	/* A file where the folder should be failed only after every point ran. */
	if (!ret && o.plot && (stat(o.plot, &st) || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "iogauge sweep: --plot=%s: %s\n", o.plot,
			strerror(errno == ENOENT ? ENOENT : ENOTDIR));
		ret = -EINVAL;
	}
	for (a = 0; a < o.files.n && !ret; a++)
		if (output_is_input(o.output, o.files.v[a])) {
			fprintf(stderr,
				"iogauge sweep: --output=%s is %s, a job file: it would be "
				"replaced\n",
				o.output, o.files.v[a]);
			ret = -EINVAL;
		}
	if (!ret && output_open(&dest, o.output, &cause)) {
		fprintf(stderr, "iogauge sweep: %s\n", cause);
		free(cause);
		cause = NULL;
		ret = -EINVAL;
	}
	if (ret) {
		status = ret == -EINVAL ? 2 : 1;
		output_abandon(&dest);
		goto free;
	}
	r.m = xcalloc((size_t)r.npoints * r.repeat, sizeof(*r.m));
	r.avg = xcalloc(r.npoints, sizeof(*r.avg));
	r.iops_ci = xcalloc(r.npoints, sizeof(double));
	r.p99_ci = xcalloc(r.npoints, sizeof(double));
	ret = run_points(&o, &r);
	if (ret && !r.done) {
		/* A point refused before anything ran is bad input. */
		status = ret == -EINVAL ? 2 : ret == -EINTR ? 128 + sweep_stop_signal : 1;
		if (status != 2)
			goto write;
		output_abandon(&dest);
		goto free;
	}
	status = !ret ? 0 : ret == -EINTR ? 128 + sweep_stop_signal : 1;
write:
	if (o.fmt == FMT_CSV)
		sweep_print_csv(&r, &out);
	else if (o.fmt == FMT_JSON)
		sweep_print_json(&r, &out);
	else
		sweep_print_text(&r, &out);
	if (output_commit(&dest, out.buf, out.len, &cause)) {
		fprintf(stderr, "iogauge sweep: %s\n", cause);
		free(cause);
		cause = NULL;
		status = status ? status : 1;
	}
	output_abandon(&dest);
	if (o.plot && r.done && sweep_plots_write(&r, o.plot, &cause)) {
		fprintf(stderr, "iogauge sweep: %s\n", cause);
		free(cause);
		status = status ? status : 1;
	}
free:
	strbuf_free(&out);
	for (a = 0; a < o.naxes; a++)
		sweep_axis_free(&o.axes[a]);
	free(o.axes);
	free(r.m);
	free(r.avg);
	free(r.iops_ci);
	free(r.p99_ci);
	str_list_clear(&o.files);
	str_list_clear(&o.sets);
	return status;
}
