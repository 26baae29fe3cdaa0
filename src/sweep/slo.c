/* SPDX-License-Identifier: MIT */
/*
 * iogauge slo: the highest rate_iops at which every latency target holds,
 * the latency taken from each I/O's intended start (the response time of
 * an open-loop client, iogauge's resp), found by bisection between a low
 * rate and the job's closed-loop capacity, then confirmed by repeats at
 * the answer; and, with --iodepth, the closed-loop form: the highest
 * depth whose completion latency meets them.  Each run is a child iogauge
 * (point.c).  Returns the exit status for main.c: 0 an answer; 1 no rate
 * meets the targets, a run failed or the output could not be written; 2
 * bad input (nothing ran); 128 + the signal that stopped it.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/options.h"
#include "jobfile/units.h"
#include "report/output.h"
#include "sweep/slo.h"
#include "sweep/sweep.h"

#define SLO_MAX_TARGETS 8
#define SLO_MAX_WALK	64

static const char usage[] =
	"usage: iogauge slo JOBFILE... --target=pP<=T [--target=...] [--min-rate=N]\n"
	"                   [--max-rate=N] [--tolerance=PCT] [--repeat=N] [--iodepth=LIST]\n"
	"                   [--output-format=text|json] [--output=FILE] [--set KEY=VALUE]\n"
	"\n"
	"Finds the highest rate_iops at which every target holds, latency measured from\n"
	"each I/O's intended start (open loop), by bisection up to the job's capacity,\n"
	"confirmed by --repeat runs (default 3); with --iodepth=LIST also the highest\n"
	"depth meeting them in a closed loop.  A target: p99<=2ms, p99.9<10ms.\n"
	"See iogauge-slo(1).\n";

struct slo_opts {
	struct str_list files, sets;
	struct slo_target t[SLO_MAX_TARGETS];
	char *t_text[SLO_MAX_TARGETS];
	unsigned nt, repeat;
	double min_rate, max_rate, tol;
	struct sweep_axis depth;
	bool has_depth, json;
	const char *output;
};

struct slo_step {
	double rate; /* rate_iops, or the depth in the closed loop */
	struct sweep_metrics m;
	bool meets;
	const char *why; /* "probe", "bisect", "confirm", "depth" */
};

struct slo_state {
	const struct slo_opts *o;
	double pcts[SLO_MAX_TARGETS];
	double capacity;
	struct slo_step walk[SLO_MAX_WALK];
	unsigned nwalk;
	struct slo_step depth[64];
	unsigned ndepth;
	double answer, above; /* above: the lowest rate seen to miss; 0 none */
	unsigned met, runs;   /* at the answer */
	int best_depth;	      /* index into depth, or -1 */
	bool stopped;	      /* the search ended early: a signal or a failed run */
};

static int opts_parse(struct slo_opts *o, int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		char *cause = NULL;
		uint64_t n;

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		if ((v = util_flag_value(a, "--target")) ||
		    (!strcmp(a, "--target") && i + 1 < argc)) {
			v = v ? v : argv[++i];
			if (o->nt == SLO_MAX_TARGETS) {
				bad = fprintf(stderr, "iogauge slo: at most %d targets\n",
					      SLO_MAX_TARGETS);
			} else if (slo_target_parse(v, &o->t[o->nt], &cause)) {
				bad = fprintf(stderr, "iogauge slo: %s\n", cause);
				free(cause);
			} else {
				o->t_text[o->nt++] = xstrdup(v);
			}
		} else if ((v = util_flag_value(a, "--min-rate")) ||
			   (v = util_flag_value(a, "--max-rate"))) {
			bool min = a[2] == 'm' && a[3] == 'i';

			if (units_parse_uint(v, &n, &cause) || !n || n > 100000000) {
				free(cause);
				bad = fprintf(stderr,
					      "iogauge slo: %.10s=%s: a whole number of I/Os per "
					      "second, 1 or more\n",
					      a, v);
			} else {
				*(min ? &o->min_rate : &o->max_rate) = (double)n;
			}
		} else if ((v = util_flag_value(a, "--tolerance"))) {
			if (units_parse_double(v, &o->tol, &cause) ||
			    !(o->tol > 0 && o->tol < 100)) {
				free(cause);
				bad = fprintf(stderr,
					      "iogauge slo: --tolerance=%s: a percentage above 0 "
					      "and below 100\n",
					      v);
			}
		} else if ((v = util_flag_value(a, "--repeat"))) {
			if (units_parse_uint(v, &n, &cause) || n < 1 || n > 100) {
				free(cause);
				bad = fprintf(stderr,
					      "iogauge slo: --repeat=%s: a whole number from 1 to "
					      "100\n",
					      v);
			} else {
				o->repeat = (unsigned)n;
			}
		} else if ((v = util_flag_value(a, "--iodepth")) ||
			   (!strcmp(a, "--iodepth") && i + 1 < argc)) {
			v = v ? v : argv[++i];
			if (o->has_depth) {
				bad = fprintf(stderr, "iogauge slo: --iodepth given twice\n");
			} else if (sweep_axis_parse(&o->depth, "iodepth", v, &cause)) {
				bad = fprintf(stderr, "iogauge slo: %s\n", cause);
				free(cause);
			} else if (!o->depth.numeric || o->depth.n > 64) {
				bad = fprintf(stderr,
					      "iogauge slo: --iodepth=%s: at most 64 numbers\n", v);
				sweep_axis_free(&o->depth);
			} else {
				o->has_depth = true;
			}
		} else if ((v = util_flag_value(a, "--output-format"))) {
			if (!strcmp(v, "json"))
				o->json = true;
			else if (!strcmp(v, "text") || !strcmp(v, "normal"))
				o->json = false;
			else
				bad = fprintf(stderr,
					      "iogauge slo: --output-format=%s: text or json\n", v);
		} else if ((v = util_flag_value(a, "--output"))) {
			o->output = v;
		} else if ((v = util_flag_value(a, "--set")) ||
			   (!strcmp(a, "--set") && i + 1 < argc)) {
			v = v ? v : argv[++i];
			if (!strchr(v, '='))
				bad = fprintf(stderr, "iogauge slo: --set %s: KEY=VALUE\n", v);
			str_list_push(&o->sets, xstrdup(v));
		} else if (a[0] == '-') {
			bad = fprintf(stderr,
				      "iogauge slo: %s: unknown option (iogauge slo --help)\n", a);
		} else {
			str_list_push(&o->files, xstrdup(a));
		}
	}
	/* slo sets these itself in every run, after the sets: a --set of
	 * rate_iops capped the capacity run and was then ignored. */
	for (i = 0; !bad && i < (int)o->sets.n; i++) {
		char *key = xstrndup(o->sets.v[i], strcspn(o->sets.v[i], "="));
		const struct opt_def *d = opt_find(key);

		if (d && (d == opt_find("rate_iops") || d == opt_find("percentile_list")))
			bad = fprintf(stderr,
				      "iogauge slo: --set %s: slo sets %s itself in each run "
				      "(--min-rate, --max-rate and --target rule it)\n",
				      o->sets.v[i], key);
		free(key);
	}
	if (!bad && !o->files.n)
		bad = fprintf(stderr, "iogauge slo: no job file\n%s", usage);
	if (!bad && !o->nt)
		bad = fprintf(stderr,
			      "iogauge slo: no target: give one, e.g. --target='p99<=2ms'\n");
	if (!bad && o->min_rate && o->max_rate && o->min_rate >= o->max_rate)
		bad = fprintf(stderr, "iogauge slo: --min-rate must be below --max-rate\n");
	return bad ? -EINVAL : 0;
}

/* The child's arguments: the job, the sets, the percentiles of the
 * targets, and rate_iops=@rate (0: none) or iodepth=@depth (0: none). */
static void args_make(const struct slo_state *s, double rate, double depth, struct str_list *args)
{
	struct strbuf pl = { 0 };
	unsigned i;

	str_list_copy(args, &s->o->files);
	for (i = 0; i < s->o->sets.n; i++) {
		str_list_push(args, xstrdup("--set"));
		str_list_push(args, xstrdup(s->o->sets.v[i]));
	}
	strbuf_adds(&pl, "percentile_list=50");
	for (i = 0; i < s->o->nt; i++)
		strbuf_addf(&pl, ":%g", s->pcts[i]);
	str_list_push(args, xstrdup("--set"));
	str_list_push(args, strbuf_detach(&pl));
	if (rate > 0) {
		str_list_push(args, xstrdup("--set"));
		str_list_push(args, xasprintf("rate_iops=%.0f", rate));
	}
	if (depth > 0) {
		str_list_push(args, xstrdup("--set"));
		str_list_push(args, xasprintf("iodepth=%.0f", depth));
	}
}

/* Whether @m meets every target: on the response time with a rate (and
 * the rate kept), else on the completion latency. */
static bool meets(const struct slo_state *s, const struct sweep_metrics *m, bool open)
{
	unsigned i;

	if (open && (!m->rated || !m->kept))
		return false;
	for (i = 0; i < s->o->nt; i++)
		if (!slo_target_met(&s->o->t[i], open ? m->resp[i] : m->clat[i]))
			return false;
	return m->ios > 0;
}

/* One run: 0 with *step filled, or the error (printed). */
static int run_one(struct slo_state *s, double rate, double depth, struct slo_step *step,
		   const char *why)
{
	struct str_list args = { 0 };
	char *cause = NULL, *name;
	int ret;

	memset(step, 0, sizeof(*step));
	step->rate = depth > 0 ? depth : rate;
	step->why = why;
	if (sweep_stop_signal)
		return -EINTR;
	name = depth > 0  ? xasprintf("iodepth=%.0f", depth)
	       : rate > 0 ? xasprintf("rate_iops=%.0f", rate)
			  : xstrdup("the job as written");
	args_make(s, rate, depth, &args);
	ret = sweep_point_run(&args, s->pcts, s->o->nt, &step->m, &cause);
	str_list_clear(&args);
	if (ret == -EINTR) {
		fprintf(stderr, "iogauge slo: stopped by a signal during %s\n", name);
	} else if (ret) {
		fprintf(stderr, "iogauge slo: %s: %s\n", name, cause);
		free(cause);
	} else {
		step->meets = meets(s, &step->m, rate > 0);
		fprintf(stderr, "iogauge slo: %s: %.0f IOPS, %s %.2f us: %s\n", name, step->m.iops,
			s->o->t_text[0], (rate > 0 ? step->m.resp[0] : step->m.clat[0]) / 1e3,
			step->meets ? "meets" : "misses");
	}
	free(name);
	return ret;
}

/* Appends a run to the walk; the error of the run. */
static int walk_run(struct slo_state *s, double rate, const char *why, bool *met)
{
	struct slo_step *step;
	int ret;

	if (s->nwalk == SLO_MAX_WALK) {
		fprintf(stderr, "iogauge slo: %d runs and no answer: stopped\n", SLO_MAX_WALK);
		return -E2BIG;
	}
	step = &s->walk[s->nwalk];
	ret = run_one(s, rate, 0, step, why);
	if (!ret) {
		s->nwalk++;
		*met = step->meets;
		if (!step->meets && (!s->above || rate < s->above))
			s->above = rate;
	}
	return ret;
}

/* The open-loop search.  0 with s->answer set (0: no rate meets). */
static int search(struct slo_state *s)
{
	const struct slo_opts *o = s->o;
	double lo, hi, mid;
	bool met = false;
	int ret;

	/* 10% over the closed-loop capacity: a rate that cannot be kept, so
	 * the top of the search misses and the answer has an upper bound. */
	hi = o->max_rate ? o->max_rate : floor(s->capacity * 1.1);
	lo = o->min_rate ? o->min_rate : fmax(1, floor(s->capacity / 100));
	if (hi <= lo)
		hi = lo + 1;
	ret = walk_run(s, lo, "lowest", &met);
	if (ret || !met)
		return ret;
	ret = walk_run(s, hi, "highest", &met);
	if (ret)
		return ret;
	if (met) {
		lo = hi;
	} else {
		while (hi - lo > fmax(1, lo * o->tol / 100)) {
			mid = floor((lo + hi) / 2);
			if (mid <= lo || mid >= hi)
				break;
			ret = walk_run(s, mid, "bisect", &met);
			if (ret)
				return ret;
			if (met)
				lo = mid;
			else
				hi = mid;
		}
	}
	/* Repeats at the answer: a rate that misses once is not the answer;
	 * the next lower rate that met is tried, down to the lowest. */
	for (;;) {
		unsigned r, ok = 1;

		for (r = 1; r < o->repeat; r++) {
			ret = walk_run(s, lo, "confirm", &met);
			if (ret)
				return ret;
			ok += met;
		}
		s->met = ok;
		s->runs = o->repeat;
		if (ok == o->repeat) {
			s->answer = lo;
			return 0;
		}
		/* The next lower rate that met. */
		mid = 0;
		for (r = 0; r < s->nwalk; r++)
			if (s->walk[r].meets && s->walk[r].rate < lo && s->walk[r].rate > mid)
				mid = s->walk[r].rate;
		if (!mid)
			return 0;
		lo = mid;
	}
}

static int closed_loop(struct slo_state *s)
{
	unsigned i;
	int ret = 0;

	s->best_depth = -1;
	for (i = 0; i < s->o->depth.n && !ret; i++) {
		struct slo_step *step = &s->depth[s->ndepth];

		ret = run_one(s, 0, s->o->depth.x[i], step, "depth");
		if (ret)
			break;
		s->ndepth++;
		if (!step->meets)
			break; /* deeper queues only wait longer */
		s->best_depth = (int)i;
	}
	return ret;
}

static void print_text(const struct slo_state *s, struct strbuf *out)
{
	const struct slo_opts *o = s->o;
	unsigned i, k;

	strbuf_adds(out, "targets:");
	for (k = 0; k < o->nt; k++)
		strbuf_addf(out, " %s", o->t_text[k]);
	strbuf_adds(out, " (open loop: response time from each I/O's intended start)\n");
	strbuf_addf(out, "capacity: %.0f IOPS (the job as written, closed loop)\n", s->capacity);
	strbuf_addf(out, "%-8s %10s %12s %5s", "step", "rate_iops", "IOPS", "kept");
	for (k = 0; k < o->nt; k++) {
		char *h = xasprintf("p%g(us)", o->t[k].pct);

		strbuf_addf(out, " %12s", h);
		free(h);
	}
	strbuf_adds(out, "  verdict\n");
	for (i = 0; i < s->nwalk; i++) {
		const struct slo_step *w = &s->walk[i];

		strbuf_addf(out, "%-8s %10.0f %12.1f %5s", w->why, w->rate, w->m.iops,
			    w->m.kept ? "yes" : "no");
		for (k = 0; k < o->nt; k++)
			strbuf_addf(out, " %12.2f", w->m.resp[k] / 1e3);
		strbuf_addf(out, "  %s\n", w->meets ? "meets" : "misses");
	}
	if (s->stopped) {
		double best = 0;

		for (i = 0; i < s->nwalk; i++)
			if (s->walk[i].meets && s->walk[i].rate > best)
				best = s->walk[i].rate;
		strbuf_adds(out, "answer: none: the search stopped before it ended");
		if (best > 0)
			strbuf_addf(out, " (the highest rate that met so far: rate_iops=%.0f)",
				    best);
		strbuf_addc(out, '\n');
	} else if (!s->answer)
		strbuf_addf(out,
			    "answer: no rate meets the targets: the lowest tried, rate_iops=%.0f, "
			    "misses\n",
			    s->walk[0].rate);
	else if (!s->above)
		strbuf_addf(out,
			    "answer: rate_iops=%.0f (met in %u of %u runs), the highest "
			    "tried: every rate up to it meets the targets\n",
			    s->answer, s->met, s->runs);
	else
		strbuf_addf(out,
			    "answer: rate_iops=%.0f (met in %u of %u runs); the highest rate "
			    "meeting the targets lies in [%.0f, %.0f)\n",
			    s->answer, s->met, s->runs, s->answer, s->above);
	if (!o->has_depth)
		return;
	strbuf_adds(out, "closed loop (no rate, latency from submission):\n");
	for (i = 0; i < s->ndepth; i++) {
		const struct slo_step *d = &s->depth[i];

		strbuf_addf(out, "  iodepth=%-6.0f %12.1f IOPS", d->rate, d->m.iops);
		for (k = 0; k < o->nt; k++)
			strbuf_addf(out, "  p%g %.2f us", o->t[k].pct, d->m.clat[k] / 1e3);
		strbuf_addf(out, "  %s\n", d->meets ? "meets" : "misses");
	}
	if (s->best_depth < 0)
		strbuf_adds(out, "closed-loop answer: no depth meets the targets\n");
	else
		strbuf_addf(out, "closed-loop answer: iodepth=%.0f, %.0f IOPS\n",
			    s->depth[s->best_depth].rate, s->depth[s->best_depth].m.iops);
}

static json_t *step_json(const struct slo_state *s, const struct slo_step *w, bool open)
{
	json_t *o = json_object(), *lat = json_object();
	unsigned k;

	for (k = 0; k < s->o->nt; k++) {
		char key[32];

		snprintf(key, sizeof(key), "p%g_ns", s->o->t[k].pct);
		json_object_set_new(lat, key, json_real(open ? w->m.resp[k] : w->m.clat[k]));
	}
	json_object_set_new(o, open ? "rate_iops" : "iodepth", json_integer((json_int_t)w->rate));
	if (open)
		json_object_set_new(o, "step", json_string(w->why));
	json_object_set_new(o, "iops", json_real(w->m.iops));
	if (open)
		json_object_set_new(o, "kept", json_boolean(w->m.kept));
	json_object_set_new(o, open ? "resp" : "clat", lat);
	json_object_set_new(o, "meets", json_boolean(w->meets));
	return o;
}

static void print_json(const struct slo_state *s, struct strbuf *out)
{
	json_t *doc = json_object(), *targets = json_array(), *walk = json_array();
	unsigned i;
	char *text;

	for (i = 0; i < s->o->nt; i++)
		json_array_append_new(targets, json_string(s->o->t_text[i]));
	for (i = 0; i < s->nwalk; i++)
		json_array_append_new(walk, step_json(s, &s->walk[i], true));
	json_object_set_new(doc, "targets", targets);
	json_object_set_new(doc, "capacity_iops", json_real(s->capacity));
	json_object_set_new(doc, "walk", walk);
	json_object_set_new(doc, "answer_rate_iops",
			    s->answer && !s->stopped ? json_integer((json_int_t)s->answer)
						     : json_null());
	json_object_set_new(doc, "complete", json_boolean(!s->stopped));
	json_object_set_new(doc, "answer_met", json_integer(s->met));
	json_object_set_new(doc, "answer_runs", json_integer(s->runs));
	json_object_set_new(doc, "lowest_missed_rate_iops",
			    s->above ? json_integer((json_int_t)s->above) : json_null());
	if (s->o->has_depth) {
		json_t *d = json_array();

		for (i = 0; i < s->ndepth; i++)
			json_array_append_new(d, step_json(s, &s->depth[i], false));
		json_object_set_new(doc, "closed_loop", d);
		json_object_set_new(
			doc, "answer_iodepth",
			s->best_depth < 0 ? json_null()
					  : json_integer((json_int_t)s->depth[s->best_depth].rate));
	}
	text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	strbuf_adds(out, text);
	strbuf_addc(out, '\n');
	free(text);
	json_decref(doc);
}

/* Every run's job checked with --parse-only before any runs. */
static int check_all(struct slo_state *s)
{
	struct str_list args = { 0 };
	char *cause = NULL;
	unsigned i;
	int ret;

	args_make(s, 1, 0, &args);
	ret = sweep_point_check(&args, &cause);
	str_list_clear(&args);
	for (i = 0; !ret && s->o->has_depth && i < s->o->depth.n; i++) {
		args_make(s, 0, s->o->depth.x[i], &args);
		ret = sweep_point_check(&args, &cause);
		str_list_clear(&args);
	}
	if (ret) {
		fprintf(stderr, "iogauge slo: %s\n", cause);
		free(cause);
	}
	return ret;
}

int slo_main(int argc, char **argv)
{
	struct slo_opts o = { .repeat = 3, .tol = 5 };
	struct output dest = { .path = NULL, .fd = -1 };
	struct slo_state *s = xcalloc(1, sizeof(*s));
	struct slo_step cap;
	struct strbuf out = { 0 };
	char *cause = NULL;
	unsigned i;
	int ret, status = 0;

	s->o = &o;
	ret = opts_parse(&o, argc, argv);
	if (ret > 0) {
		fputs(usage, stdout);
		goto free;
	}
	for (i = 0; i < o.nt; i++)
		s->pcts[i] = o.t[i].pct;
	for (i = 0; i < o.files.n && !ret; i++)
		if (output_is_input(o.output, o.files.v[i])) {
			fprintf(stderr,
				"iogauge slo: --output=%s is %s, a job file: it would be replaced\n",
				o.output, o.files.v[i]);
			ret = -EINVAL;
		}
	if (!ret && output_open(&dest, o.output, &cause)) {
		fprintf(stderr, "iogauge slo: %s\n", cause);
		free(cause);
		ret = -EINVAL;
	}
	if (!ret)
		ret = check_all(s);
	if (ret) {
		status = ret == -EINVAL ? 2 : 1;
		output_abandon(&dest);
		goto free;
	}
	sweep_signals_install();
	ret = run_one(s, 0, 0, &cap, "capacity");
	if (!ret && cap.m.iops < 1) {
		fprintf(stderr, "iogauge slo: the job as written did no I/O\n");
		ret = -EIO;
	}
	if (!ret) {
		s->capacity = cap.m.iops;
		ret = search(s);
	}
	if (!ret && o.has_depth)
		ret = closed_loop(s);
	s->stopped = ret != 0;
	if (ret == -EINTR)
		status = 128 + sweep_stop_signal;
	else if (ret)
		status = 1;
	else if (!s->answer)
		status = 1;
	if (s->nwalk || s->capacity > 0) {
		if (o.json)
			print_json(s, &out);
		else
			print_text(s, &out);
		if (output_commit(&dest, out.buf, out.len, &cause)) {
			fprintf(stderr, "iogauge slo: %s\n", cause);
			free(cause);
			status = status ? status : 1;
		}
	}
	output_abandon(&dest);
	if (!ret && !s->answer)
		fprintf(stderr,
			"iogauge slo: no rate meets the targets: rate_iops=%.0f, the lowest "
			"tried, misses (--min-rate sets it)\n",
			s->walk[0].rate);
free:
	strbuf_free(&out);
	for (i = 0; i < o.nt; i++)
		free(o.t_text[i]);
	if (o.has_depth)
		sweep_axis_free(&o.depth);
	str_list_clear(&o.files);
	str_list_clear(&o.sets);
	free(s);
	return status;
}
