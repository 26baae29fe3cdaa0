/* SPDX-License-Identifier: MIT */
/*
 * Command-line parsing.  As in fio, job options before the first --name
 * are defaults for every job (here: for every job file's jobs too, where
 * fio forgets them after the first file), --name starts a job, and any
 * argument that is not a flag is a job file ("-" is standard input).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jobfile/cli.h"
#include "jobfile/profiles.h"
#include "jobfile/units.h"

/* Five columns, which clang-format gives up past 30 names. */
/* clang-format off */
static const char *const cli_flags[] = {
	"help",		 "version",	   "help-options",  "parse-only",   "section",
	"set",		 "name",	   "clock-info",    "list-engines", "enghelp",
	"output-format", "output",	   "minimal",	    "eta",	    "plot",
	"readonly",	 "eta-interval",   "eta-newline",   "showcmd",	    "cmdhelp",
	"max-jobs",	 "warnings-fatal", "terse-version", "trigger-file", "trigger-timeout",
	"trigger",	 "crctest",	   "bandwidth-log", "inflate-log",  "merge-blktrace-only",
	"idle-prof",	 "aux-path",	   "profile",	    "html",
	"status-interval", "summary",	   "bundle",
	"per-rank",	 "rank-stonewall",
};
/* clang-format on */

/* The bits of enum cli_format in order, then "csv": fio 3.33 takes it as
 * terse (init.c), though its HOWTO does not say so. */
static const char *const format_names[] = { "normal",	   "json",	  "json+", "terse", "sqlio",
					    "spreadsheet", "openmetrics", "html",  "csv" };
static const char *const eta_names[] = { "auto", "always", "never" };
/* In the order of enum idleprof_mode, from 1. */
static const char *const idle_prof_names[] = { "calibrate", "system", "percpu" };

/* The index of @val in @names, or -1 with *cause naming the flag and a
 * "did you mean". */
static int pick(const char *flag, const char *val, const char *const *names, unsigned n,
		char **cause)
{
	struct util_nearest near = UTIL_NEAREST_INIT;
	struct strbuf sb = { 0 };
	unsigned i;

	for (i = 0; i < n; i++) {
		if (!strcmp(val, names[i]))
			return (int)i;
		util_nearest_offer(&near, val, names[i]);
	}
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
	if (near.best)
		*cause = xasprintf("--%s=%s: did you mean '%s'? (one of: %s)", flag, val, near.best,
				   sb.buf);
	else
		*cause = xasprintf("--%s=%s: expected one of: %s", flag, val, sb.buf);
	strbuf_free(&sb);
	return -1;
}

/* --output-format=LIST: comma-separated, each printed in turn. */
static int parse_formats(struct cli *cli, const char *val, char **cause)
{
	char *copy = xstrdup(val), *tok, *save = NULL;
	int k, ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		k = pick("output-format", tok, format_names, ARRAY_SIZE(format_names), cause);
		if (k < 0)
			ret = -EINVAL;
		else
			cli->formats |= !strcmp(tok, "csv") ? CLI_FMT_TERSE : 1u << k;
	}
	if (!ret && !cli->formats) {
		*cause = xasprintf(
			"--output-format needs a value (normal, json, json+, terse, sqlio, "
			"spreadsheet, openmetrics, html, csv)");
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

static const char *suggest(const char *name)
{
	const char *opt = opt_suggest(name);
	struct util_nearest n = { opt, opt ? util_edit_distance(name, opt) : ~0u };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cli_flags); i++)
		util_nearest_offer(&n, name, cli_flags[i]);
	return n.best;
}

static int unknown_flag(const char *arg, const char *name, char **cause)
{
	const char *near = suggest(name);

	if (near)
		*cause = xasprintf("unknown option '%s'; did you mean '--%s'?", arg, near);
	else
		*cause = xasprintf("unknown option '%s' (see iogauge --help)", arg);
	return -EINVAL;
}

/* The value of --flag=VALUE or --flag VALUE; NULL and *cause when missing. */
static const char *flag_value(int argc, char **argv, int *i, const char *eq, const char *flag,
			      char **cause)
{
	if (eq)
		return eq + 1;
	if (*i + 1 < argc)
		return argv[++*i];
	*cause = xasprintf("--%s needs a value", flag);
	return NULL;
}

/* Each --set error is added to js->errors: -EINVAL when there are any. */
/* A time flag's value (@val, seconds when bare) into *@ns, cut to whole
 * multiples of @unit; at least @least ns, else the error @too_short.  0,
 * or -EINVAL with *cause set. */
static int time_flag(const char *name, const char *val, uint64_t unit, uint64_t least,
		     const char *too_short, uint64_t *ns, char **cause)
{
	char *inner = NULL;

	if (units_parse_time(val, 1000000000ull, ns, &inner)) {
		*cause = xasprintf("--%s=%s: %s", name, val, inner);
		free(inner);
		return -EINVAL;
	}
	if (*ns < least) {
		*cause = xasprintf("--%s=%s: %s", name, val, too_short);
		return -EINVAL;
	}
	*ns = *ns / unit * unit;
	return 0;
}

static int apply_sets(struct jobset *js, const struct str_list *sets)
{
	struct origin where = { .kind = ORIGIN_SET };
	unsigned i, j;
	char *key, *eq, *inner = NULL;
	int ret = 0;

	js->section++;
	for (i = 0; i < sets->n; i++) {
		eq = strchr(sets->v[i], '=');
		key = eq ? xstrndup(sets->v[i], (size_t)(eq - sets->v[i])) : xstrdup(sets->v[i]);
		/* Checked once even when no job exists, so a typo never passes;
		 * an option iogauge only warns about is not set (nor warned) again. */
		ret = jobset_set(js, js->cmdline, key, eq ? eq + 1 : NULL, &where, &inner);
		for (j = 0; j < js->nr && !ret && opt_find(key); j++)
			ret = jobset_set(js, js->specs[j].vals, key, eq ? eq + 1 : NULL, &where,
					 &inner);
		if (ret) {
			jobset_error(js, xasprintf("--set %s: %s", sets->v[i], inner));
			free(inner);
			inner = NULL;
			ret = 0;
		}
		free(key);
	}
	return js->errors.total ? -EINVAL : 0;
}

/*
 * --eta-interval and --eta-newline: a time, seconds when bare, as fio's;
 * the interval at least fio's 250 ms, as fio refuses a shorter one.
 */
static int eta_time(struct cli *cli, const char *name, const char *val, char **cause)
{
	char *inner = NULL;
	uint64_t ns;

	if (units_parse_time(val, 1000000000ull, &ns, &inner)) {
		*cause = xasprintf("--%s=%s: %s", name, val, inner);
		free(inner);
		return -EINVAL;
	}
	if (name[4] == 'i' && ns < 250000000ull)
		return set_cause(cause, "--%s=%s: shorter than 250ms, the least fio takes", name,
				 val);
	if (name[4] == 'n' && ns < 1000000ull)
		return set_cause(cause, "--%s=%s: shorter than 1ms", name, val);
	if (name[4] == 'i')
		cli->eta_interval = ns;
	else
		cli->eta_newline = ns;
	return 0;
}

/*
 * The report flags, shared with iogauge sqlio: --output-format, --minimal,
 * --output, --html, --plot and --eta (@name without the dashes, @eq at its "=" or
 * NULL).  1 when taken, 0 when @name is none of them, -EINVAL with *cause.
 */
static int report_flag(struct cli *cli, const char *name, const char *eq, int argc, char **argv,
		       int *i, char **cause)
{
	const char *val;
	int k;

	if (!strcmp(name, "output-format")) {
		val = flag_value(argc, argv, i, eq, name, cause);
		return val && !parse_formats(cli, val, cause) ? 1 : -EINVAL;
	}
	if (!strcmp(name, "readonly") && !eq) {
		cli->readonly = true; /* fio's: a guard against writing by mistake */
		return 1;
	}
	if (!strcmp(name, "minimal") && !eq) {
		cli->formats |= CLI_FMT_TERSE; /* fio's name for terse */
		return 1;
	}
	/* mpirun's (iogauge sqlio takes them too). */
	if (!strcmp(name, "per-rank") && !eq) {
		cli->per_rank = true;
		return 1;
	}
	if (!strcmp(name, "rank-stonewall") && !eq) {
		cli->rank_stonewall = true;
		return 1;
	}
	if (!strcmp(name, "output") || !strcmp(name, "plot")) {
		val = flag_value(argc, argv, i, eq, name, cause);
		if (val && !*val)
			*cause = xasprintf("--%s needs a path", name), val = NULL;
		if (val && name[0] == 'o')
			cli->output = val;
		else if (val)
			cli->plot = val;
		return val ? 1 : -EINVAL;
	}
	if (!strcmp(name, "html")) {
		val = flag_value(argc, argv, i, eq, name, cause);
		if (val && !*val)
			*cause = xasprintf("--html needs a path"), val = NULL;
		cli->html = val;
		return val ? 1 : -EINVAL;
	}
	if (!strcmp(name, "eta-interval") || !strcmp(name, "eta-newline")) {
		val = flag_value(argc, argv, i, eq, name, cause);
		return val && !eta_time(cli, name, val, cause) ? 1 : -EINVAL;
	}
	if (!strcmp(name, "terse-version")) {
		val = flag_value(argc, argv, i, eq, name, cause);
		if (val && (strlen(val) != 1 || val[0] < '2' || val[0] > '5'))
			*cause = xasprintf("--terse-version=%s: expected 2, 3, 4 or 5", val),
			val = NULL;
		if (val)
			cli->terse_version = (unsigned)(val[0] - '0');
		return val ? 1 : -EINVAL;
	}
	if (!strcmp(name, "eta")) {
		val = flag_value(argc, argv, i, eq, name, cause);
		k = val ? pick("eta", val, eta_names, ARRAY_SIZE(eta_names), cause) : -1;
		cli->eta = k < 0 ? CLI_ETA_AUTO : (enum cli_eta)k;
		return k < 0 ? -EINVAL : 1;
	}
	return 0;
}

int cli_report_flag(struct cli *cli, int argc, char **argv, int *i, char **cause)
{
	const char *arg = argv[*i], *eq = strchr(arg, '=');
	char *name;
	int ret;

	if (strncmp(arg, "--", 2))
		return 0;
	name = eq ? xstrndup(arg + 2, (size_t)(eq - arg - 2)) : xstrdup(arg + 2);
	ret = report_flag(cli, name, eq, argc, argv, i, cause);
	free(name);
	return ret;
}

int cli_html_check(const struct cli *cli, char **cause)
{
	unsigned f = cli->formats;

	if (cli->html && cli->output && !strcmp(cli->html, cli->output))
		return set_cause(cause,
				 "--html=%s: the same file as --output: the page would "
				 "replace the report",
				 cli->html);
	if (cli->html || !(f & CLI_FMT_HTML))
		return 0;
	/* A page with other text before or after it is no HTML document. */
	if (f != CLI_FMT_HTML)
		return set_cause(cause, "--output-format=html with other formats: the page needs a "
					"file of its own, --html=FILE");
	if (cli->status_interval)
		return set_cause(cause, "--output-format=html with --status-interval: every report "
					"would be a page of its own in one file; write the page "
					"with --html=FILE");
	return 0;
}

int cli_parse(struct cli *cli, int argc, char **argv, char **cause)
{
	struct str_list sets = { 0 }, sections = { 0 }, prof_flags = { 0 };
	struct settings *cur = NULL;
	const char *val, *eq;
	char *name = NULL, *inner = NULL;
	int i, k, ret = 0;

	memset(cli, 0, sizeof(*cli));
	jobset_init(&cli->js);
	cli->argc = argc;
	cli->argv = argv;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		struct origin where = { .kind = ORIGIN_CMDLINE };

		/* Every error is noted and the next argument read: all are
		 * reported together. */
		if (ret) {
			jobset_error(&cli->js, *cause);
			*cause = NULL;
			ret = 0;
		}

		if (!strcmp(arg, "-h")) {
			cli->help = true;
			continue;
		}
		if (strncmp(arg, "--", 2) || !arg[2]) {
			if (arg[0] == '-' && arg[1] && strcmp(arg, "--"))
				ret = unknown_flag(arg, arg + 1, cause);
			else if (!strcmp(arg, "--"))
				continue;
			else {
				/* Its errors are in cli->js.errors already. */
				if (jobfile_parse_file(&cli->js, arg, &inner))
					free(inner);
				inner = NULL;
				cli->nr_inputs++;
			}
			continue;
		}
		eq = strchr(arg, '=');
		free(name);
		name = eq ? xstrndup(arg + 2, (size_t)(eq - arg - 2)) : xstrdup(arg + 2);
		if (!strcmp(name, "help") && !eq) {
			cli->help = true;
		} else if (!strcmp(name, "version") && !eq) {
			cli->version = true;
		} else if (!strcmp(name, "help-options") && !eq) {
			cli->help_options = true;
		} else if (!strcmp(name, "parse-only") && !eq) {
			cli->parse_only = true;
		} else if (!strcmp(name, "clock-info") && !eq) {
			cli->clock_info = true;
		} else if (!strcmp(name, "list-engines") && !eq) {
			cli->list_engines = true;
		} else if (!strcmp(name, "showcmd") && !eq) {
			cli->showcmd = true;
		} else if (!strcmp(name, "warnings-fatal") && !eq) {
			cli->warnings_fatal = true;
		} else if (!strcmp(name, "inflate-log")) {
			val = flag_value(argc, argv, &i, eq, name, cause);
			if (val && !*val)
				*cause = xasprintf("--inflate-log needs a path"), val = NULL;
			cli->inflate_log = val;
			ret = val ? 0 : -EINVAL;
		} else if (!strcmp(name, "merge-blktrace-only") && !eq) {
			cli->merge_blktrace_only = true;
		} else if (!strcmp(name, "profile")) {
			/* fio's flag: the profile's jobs are added after all others. */
			val = flag_value(argc, argv, &i, eq, name, cause);
			cli->profile = val;
			ret = val ? 0 : -EINVAL;
		} else if (!strcmp(name, "bandwidth-log") && !eq) {
			cli->bandwidth_log = true;
		} else if (!strcmp(name, "summary") && !eq) {
			cli->summary = true;
		} else if (!strcmp(name, "bundle")) {
			cli->bundle = flag_value(argc, argv, &i, eq, name, cause);
			ret = cli->bundle ? 0 : -EINVAL;
		} else if (!strcmp(name, "crctest")) {
			cli->crctest = eq ? eq + 1 : "";
		} else if (!strcmp(name, "cmdhelp")) {
			/* As fio: --cmdhelp alone (or =all) lists every option. */
			cli->cmdhelp = eq && strcmp(eq + 1, "all") ? eq + 1 : "";
		} else if (!strcmp(name, "max-jobs")) {
			uint64_t n;

			/* fio 3.33 reads it and ignores it: checked, then ignored. */
			val = flag_value(argc, argv, &i, eq, name, cause);
			if (val && (units_parse_uint(val, &n, &inner) || !n)) {
				*cause = xasprintf("--max-jobs=%s: %s", val,
						   inner ? inner : "expected a positive number");
				free(inner);
				inner = NULL;
				val = NULL;
			}
			ret = val ? 0 : -EINVAL;
		} else if (!strcmp(name, "trigger-file") || !strcmp(name, "trigger")) {
			val = flag_value(argc, argv, &i, eq, name, cause);
			if (val && !*val)
				*cause = xasprintf("--%s needs a value", name), val = NULL;
			if (val && name[7])
				cli->trigger_file = val;
			else if (val)
				cli->trigger_cmd = val;
			ret = val ? 0 : -EINVAL;
		} else if (!strcmp(name, "trigger-timeout")) {
			uint64_t ns = 0;

			/* fio counts it in whole seconds: less would never fire. */
			val = flag_value(argc, argv, &i, eq, name, cause);
			ret = val ? time_flag(name, val, 1000000000ull, 1000000000ull,
					      "less than 1s", &ns, cause)
				  : -EINVAL;
			cli->trigger_timeout = ret ? 0 : ns;
		} else if (!strcmp(name, "idle-prof")) {
			val = flag_value(argc, argv, &i, eq, name, cause);
			k = val ? pick(name, val, idle_prof_names, ARRAY_SIZE(idle_prof_names),
				       cause)
				: -1;
			cli->idle_prof = k < 0 ? 0 : (unsigned)k + 1;
			ret = k < 0 ? -EINVAL : 0;
		} else if (!strcmp(name, "aux-path")) {
			struct stat sb;

			/* Checked now: fio finds a missing folder only as the
			 * state file fails to open, at the end of the run. */
			val = flag_value(argc, argv, &i, eq, name, cause);
			if (val && !*val)
				*cause = xasprintf("--aux-path needs a folder"), val = NULL;
			else if (val && stat(val, &sb))
				*cause = xasprintf("--aux-path=%s: %s", val, strerror(errno)),
				val = NULL;
			else if (val && !S_ISDIR(sb.st_mode))
				*cause = xasprintf("--aux-path=%s: not a folder", val), val = NULL;
			cli->aux_path = val;
			ret = val ? 0 : -EINVAL;
		} else if (!strcmp(name, "status-interval")) {
			uint64_t ns = 0;

			/* fio's: seconds when bare, at least 1 ms, whole ms. */
			val = flag_value(argc, argv, &i, eq, name, cause);
			ret = val ? time_flag(name, val, 1000000ull, 1000000ull,
					      "shorter than 1ms, the least fio takes", &ns, cause)
				  : -EINVAL;
			cli->status_interval = ret ? 0 : ns;
		} else if (!strcmp(name, "client") || !strcmp(name, "server") ||
			   !strcmp(name, "remote-config") || !strcmp(name, "trigger-remote")) {
			ret = set_cause(cause,
					"--%s: fio's client/server mode is not in iogauge; a "
					"multi-host mode is planned (see DIFFERENCES FROM FIO in "
					"iogauge(1)); run iogauge on each host meanwhile",
					name);
		} else if (!strcmp(name, "enghelp")) {
			/* As fio: --enghelp alone lists the engines. */
			if (eq && eq[1])
				cli->enghelp = eq + 1;
			else
				cli->list_engines = true;
		} else if ((k = report_flag(cli, name, eq, argc, argv, &i, cause))) {
			ret = k < 0 ? k : 0;
		} else if (!strcmp(name, "section")) {
			val = flag_value(argc, argv, &i, eq, name, cause);
			if (val)
				str_list_push(&sections, xstrdup(val));
			ret = val ? 0 : -EINVAL;
		} else if (!strcmp(name, "set")) {
			val = flag_value(argc, argv, &i, eq, name, cause);
			if (val && !strchr(val, '='))
				ret = -EINVAL,
				*cause = xasprintf("--set %s: expected KEY=VALUE", val);
			else if (val)
				str_list_push(&sets, xstrdup(val));
			else
				ret = -EINVAL;
		} else if (!strcmp(name, "name")) {
			val = flag_value(argc, argv, &i, eq, name, cause);
			if (!val || !*val) {
				ret = -EINVAL;
				if (val)
					*cause = xasprintf("--name needs a job name");
				continue;
			}
			cur = jobset_add_cmdline_job(&cli->js, val, &where)->vals;
			cli->nr_inputs++;
		} else {
			const struct opt_def *o = opt_find(name);
			enum fio_opt_status st = FIO_OPT_UNKNOWN;
			const char *why;

			if (!o)
				st = fio_option_status(name, &why);
			/* iogauge's own profile option (act's --slice-duration). */
			if (!o && st == FIO_OPT_UNKNOWN && profile_opt_has_value(name)) {
				val = flag_value(argc, argv, &i, eq, name, cause);
				if (val)
					str_list_push(&prof_flags, xasprintf("--%s=%s", name, val));
				ret = val ? 0 : -EINVAL;
				continue;
			}
			if (!o && st == FIO_OPT_UNKNOWN) {
				ret = unknown_flag(arg, name, cause);
				continue;
			}
			val = eq ? eq + 1 : NULL;
			/* A profile's option, maybe; --device-names da takes the next word, as fio's. */
			if (st == FIO_OPT_HARMLESS && !val && profile_opt_has_value(name) &&
			    i + 1 < argc && strncmp(argv[i + 1], "--", 2))
				val = argv[++i];
			if (st == FIO_OPT_HARMLESS)
				str_list_push(&prof_flags,
					      val ? xasprintf("--%s=%s", name, val) : xstrdup(arg));
			/* --bs 4k takes the next word; a flag that may stand alone does not. */
			if (!val && o && !(o->flags & OPTF_BARE) && i + 1 < argc &&
			    strncmp(argv[i + 1], "--", 2))
				val = argv[++i];
			where.global = !cur;
			ret = jobset_set(&cli->js, cur ? cur : cli->js.cmdline, name, val, &where,
					 &inner);
			if (ret) {
				*cause = xasprintf("%s: %s", arg, inner);
				free(inner);
			}
		}
	}
	if (ret) {
		jobset_error(&cli->js, *cause);
		*cause = NULL;
	}
	if (cli->formats & CLI_FMT_SQLIO)
		jobset_error(&cli->js,
			     xstrdup("--output-format=sqlio is the report of 'iogauge sqlio' "
				     "(SQLIO command lines); job files get normal, json, json+, "
				     "terse, spreadsheet, openmetrics or html"));
	/* Each status report would be an OpenMetrics document of its own. */
	if ((cli->formats & CLI_FMT_OPENMETRICS) && cli->status_interval)
		jobset_error(&cli->js,
			     xstrdup("--output-format=openmetrics with --status-interval: every "
				     "report would end in its own '# EOF', and a collector reads "
				     "only one document"));
	if (cli_html_check(cli, &inner)) {
		jobset_error(&cli->js, inner);
		inner = NULL;
	}
	/* As fio: --showcmd and --parse-only never load it; here only
	 * --showcmd leaves it out, --parse-only checks its jobs too. */
	if (cli->profile && !cli->showcmd) {
		struct str_list *keep = sections.n ? &sections : NULL, names = { 0 };

		profile_add(&cli->js, cli->profile, &prof_flags, keep ? keep : &names);
		cli->act_prep = profile_act_prep(cli->profile, &prof_flags);
		if (!profile_act_slicing(cli->profile, &prof_flags, &cli->act_rows,
					 &cli->act_slice_ns))
			cli->act_rows = 0;
		str_list_clear(&names);
	}
	profile_own_flags_check(&cli->js, cli->profile, &prof_flags);
	cli->nr_inputs += !!cli->profile;
	apply_sets(&cli->js, &sets);
	if (sections.n && jobset_keep(&cli->js, &sections, cause)) {
		free(*cause); /* its errors are in cli->js.errors already */
		*cause = NULL;
	}
	ret = 0;
	if (cli->js.errors.total) {
		*cause = job_errors_text(&cli->js.errors);
		ret = -EINVAL;
	}
	free(name);
	str_list_clear(&sets);
	str_list_clear(&sections);
	str_list_clear(&prof_flags);
	return ret;
}

void cli_free(struct cli *cli)
{
	jobset_free(&cli->js);
}

const char *const *cli_flag_names(unsigned *n)
{
	*n = ARRAY_SIZE(cli_flags);
	return cli_flags;
}

const char *const *cli_flag_values(const char *flag, unsigned *n)
{
	*n = 0;
	if (!strcmp(flag, "output-format"))
		*n = ARRAY_SIZE(format_names);
	else if (!strcmp(flag, "eta"))
		*n = ARRAY_SIZE(eta_names);
	else if (!strcmp(flag, "idle-prof"))
		*n = ARRAY_SIZE(idle_prof_names);
	else
		return NULL;
	return flag[0] == 'o' ? format_names : flag[0] == 'e' ? eta_names : idle_prof_names;
}
