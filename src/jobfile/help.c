/* SPDX-License-Identifier: MIT */
/*
 * What the command line can ask about iogauge's options and engines
 * (--help-options, --cmdhelp, --list-engines, --enghelp), and --showcmd's
 * job files as one command line.  Prints to standard output, messages to
 * standard error.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "jobfile/help.h"
#include "jobfile/options.h"
#include "util/util.h"

void help_options(void)
{
	unsigned i;

	for (i = 0; i < opt_rows(); i++) {
		const struct opt_def *o = opt_at(i);
		char name[64];

		snprintf(name, sizeof(name), "%s%s%s", o->name, o->alias ? "|" : "",
			 o->alias ? o->alias : "");
		printf("%-34s %-20s %s", name, o->kind->syntax, o->help);
		if (o->def)
			printf(" [default: %s]", o->def);
		putchar('\n');
	}
}

/* fio sorts a section's options before it parses (and prints) them:
 * these first, filename and filename_format last, the rest as read. */
static int showcmd_prio(const struct opt_def *o)
{
	static const char *const first[] = { "cpus_allowed_policy", "kb_base", "lockfile",
					     "unit_base" };
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(first); i++)
		if (!strcmp(o->name, first[i]))
			return 1;
	return !strcmp(o->name, "filename") || !strcmp(o->name, "filename_format") ? -1 : 0;
}

/* The name fio gives an option where it is iogauge's alias. */
static const char *showcmd_name(const struct opt_def *o)
{
	if (!strcmp(o->name, "blockalign"))
		return "ba";
	if (!strcmp(o->name, "iodepth_batch_submit"))
		return "iodepth_batch";
	return o->name;
}

/* Settings @from to @to of @v on --showcmd's line, in fio's order; the
 * command line's own (before any --name) are not the files', left out. */
static void showcmd_settings(const struct setting *v, unsigned from, unsigned to)
{
	const struct setting *st;
	const char *q;
	unsigned i;
	int prio;

	/* An engine's options after the job's, as fio parses them once the
	 * engine is loaded (pass -2). */
	for (prio = 1; prio >= -2; prio--) {
		for (i = from; i < to; i++) {
			st = &v[i];
			if (st->origin.kind == ORIGIN_CMDLINE ||
			    (st->opt->engine ? -2 : showcmd_prio(st->opt)) != prio)
				continue;
			/* fio quotes description's value alone. */
			q = strcmp(st->opt->name, "description") ? "" : "\"";
			if (st->bare)
				printf(" --%s", showcmd_name(st->opt));
			else
				printf(" --%s=%s%s%s", showcmd_name(st->opt), q, st->value, q);
		}
	}
}

/*
 * --showcmd: the jobs as fio's command line, as fio prints it: each
 * section's options in reading order, a job's after --name=NAME, a bare
 * flag without "=".  A [global] read after a job is printed where it was
 * read, before the next --name, as fio does.
 */
void help_showcmd(const struct jobset *js)
{
	const struct settings *g = NULL;
	unsigned i, done = 0;

	fputs("iogauge", stdout);
	for (i = 0; i < js->nr; i++) {
		const struct jobspec *s = &js->specs[i];

		if (s->inherited != g)
			g = s->inherited, done = 0;
		if (s->nr_inherited > done) {
			showcmd_settings(g->v, done, s->nr_inherited);
			done = s->nr_inherited;
		}
		printf(" --name=%s", s->name);
		showcmd_settings(s->vals->v, 0, s->vals->n);
	}
	putchar('\n');
}

/* --cmdhelp: every option's name and help as fio lists them, or one
 * option's rows.  0, or -EINVAL for a name that is no option. */
int help_cmdhelp(const char *name)
{
	const struct opt_def *o;
	const char *why = NULL;
	unsigned i;

	if (!*name) {
		for (i = 0; i < opt_rows(); i++)
			printf("%-24s: %s\n", opt_at(i)->name, opt_at(i)->help);
		return 0;
	}
	o = opt_find(name);
	if (!o) {
		if (fio_option_status(name, &why) != FIO_OPT_UNKNOWN)
			fprintf(stderr,
				"iogauge: --cmdhelp=%s: a fio option that iogauge does not "
				"implement%s%s\n",
				name, why ? ": " : "", why ? why : "");
		else
			fprintf(stderr,
				"iogauge: --cmdhelp=%s: no such option (iogauge --help-options "
				"lists them)\n",
				name);
		return -EINVAL;
	}
	printf("%20s: %s\n", o->name, o->help);
	if (o->alias)
		printf("%20s: %s\n", "alias", o->alias);
	printf("%20s: %s\n", "type", o->kind->syntax);
	if (o->def)
		printf("%20s: %s\n", "default", o->def);
	if (o->engine)
		printf("%20s: %s\n", "engine", o->engine->name);
	return 0;
}

void help_list_engines(void)
{
	const struct engine_ops *e;
	unsigned i;

	int w = 9;

	/* The names in a column as wide as the longest. */
	for (i = 0; (e = engine_at(i)); i++)
		if ((int)strlen(e->name) > w)
			w = (int)strlen(e->name);
	for (i = 0; (e = engine_at(i)); i++)
		printf("%-*s %-5s %s\n", w, e->name, (e->flags & ENGINE_F_SYNC) ? "sync" : "async",
		       e->desc);
}

/* 0, or -EINVAL when @name is no engine of this build. */
int help_enghelp(const char *name)
{
	const struct engine_ops *e = engine_find(name);
	const struct opt_def *d;
	unsigned i;

	if (!e) {
		struct util_nearest near = UTIL_NEAREST_INIT;

		for (i = 0; engine_at(i); i++)
			util_nearest_offer(&near, name, engine_at(i)->name);
		fprintf(stderr, "iogauge: --enghelp=%s: no such engine in this build", name);
		if (near.best)
			fprintf(stderr, "; did you mean '%s'?", near.best);
		fprintf(stderr, " (see iogauge --list-engines)\n");
		return -EINVAL;
	}
	printf("%s (%s): %s\n\n%s\n", e->name, (e->flags & ENGINE_F_SYNC) ? "sync" : "async",
	       e->desc, e->help);
	if (!e->options && (e->flags & ENGINE_F_SYNC))
		return 0;
	printf("\nJob options it acts on:\n");
	for (i = 0; i < opt_rows(); i++) {
		d = opt_at(i);
		if (!engine_takes(e, d))
			continue;
		printf("  %-28s %s", d->name, d->help);
		if (d->def)
			printf(" [default: %s]", d->def);
		putchar('\n');
	}
	return 0;
}
