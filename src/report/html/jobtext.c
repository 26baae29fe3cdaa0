/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's jobs as text: the settings as the job files and the
 * command line wrote them (the jobset, in reading order, each with where it
 * was written), and every option's final value (job_dump, --parse-only's).
 */
#include <stdlib.h>
#include <string.h>

#include "report/html/html.h"

/* "@text ; @where" with the comments in a column, into @t. */
static void commented(struct strbuf *t, const char *text, const char *where, bool global)
{
	size_t n = strlen(text);

	strbuf_adds(t, text);
	for (; n < 40; n++)
		strbuf_addc(t, ' ');
	strbuf_addf(t, " ; %s%s\n", where, global ? " (global)" : "");
}

void html_jobs_as_written(struct strbuf *sb, const struct jobset *js)
{
	struct strbuf t = { 0 }, where = { 0 }, text = { 0 };
	unsigned i, k;

	for (i = 0; i < js->nr; i++) {
		const struct jobspec *spec = &js->specs[i];

		where.len = text.len = 0;
		origin_format(&spec->where, "name", &where);
		if (i)
			strbuf_addc(&t, '\n');
		strbuf_addf(&text, "[%s]", spec->name);
		commented(&t, text.buf, where.buf ? where.buf : "", false);
		for (k = 0; k < jobspec_nr_settings(spec); k++) {
			const struct setting *s = jobspec_setting(spec, k);

			where.len = text.len = 0;
			origin_format(&s->origin, s->opt->name, &where);
			strbuf_addf(&text, "%s%s%s", s->opt->name, s->bare ? "" : "=", s->value);
			commented(&t, text.buf, where.buf ? where.buf : "", s->origin.global);
		}
	}
	strbuf_adds(sb, "<pre id=\"jobfile-text\">");
	html_text(sb, t.buf ? t.buf : "");
	strbuf_adds(sb, "</pre>\n");
	strbuf_free(&t);
	strbuf_free(&where);
	strbuf_free(&text);
}

void html_jobs_resolved(struct strbuf *sb, const struct run *run)
{
	struct strbuf t = { 0 };
	unsigned i;

	for (i = 0; i < run->nr; i++) {
		const struct job *job = run->results[i].job;

		if (i && run->results[i - 1].job == job)
			continue; /* clones share their job */
		t.len = 0;
		job_dump(job, &t);
		strbuf_adds(sb, "<details class=\"resolved\"><summary>");
		html_textf(sb, "[%s]: every option's value and origin", job->name);
		strbuf_adds(sb, "</summary><pre>");
		html_text(sb, t.buf ? t.buf : "");
		strbuf_adds(sb, "</pre></details>\n");
	}
	strbuf_free(&t);
}
