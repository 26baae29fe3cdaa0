/* SPDX-License-Identifier: MIT */
/*
 * --output-format=html: the run as one self-contained page.  CSS and SVG
 * are inline; there is no script, and no font, image or link leaves the
 * file.  The sections, in order: the header (what ran, where, when), the
 * machine, the storage under the files, each entry (a clone, or a group
 * with group_reporting) with its table, CPU and plots, the group totals,
 * under mpirun each host's and rank's tables, the disks, the jobs as written and as resolved.  The pieces are in
 * src/report/html/; this file puts them in order.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/html/html.h"

/* Entries past this many get their table and no plots: a run of 1000
 * clones without group_reporting would make a page of 100 MB. */
#define HTML_PLOTTED_ENTRIES 32

/* The command line as one shell line: words with spaces or quotes quoted. */
static void command_line(struct strbuf *t, int argc, char *const *argv)
{
	int i;
	const char *p;

	for (i = 0; i < argc; i++) {
		if (i)
			strbuf_addc(t, ' ');
		if (argv[i][0] && !argv[i][strcspn(argv[i], " \t\n'\"\\$`*?;&|<>()[]{}!#~")]) {
			strbuf_adds(t, argv[i]);
			continue;
		}
		strbuf_addc(t, '\'');
		for (p = argv[i]; *p; p++)
			if (*p == '\'')
				strbuf_adds(t, "'\\''");
			else
				strbuf_addc(t, *p);
		strbuf_addc(t, '\'');
	}
}

static void header(struct strbuf *sb, const struct run *run, const struct report_html_about *ab)
{
	struct strbuf t = { 0 };
	time_t secs = (time_t)(run->epoch_ms / 1000);
	struct tm tm;
	char date[64] = "?";
	unsigned i, jobs = run->nr ? 1 : 0;

	if (gmtime_r(&secs, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", &tm);
	strbuf_adds(sb, "<header id=\"top\"><h1>iogauge report");
	for (i = 1; i < run->nr; i++)
		jobs += run->results[i].job != run->results[i - 1].job;
	if (run->nr) {
		strbuf_adds(sb, ": ");
		html_text(sb, run->results[0].job->name);
		if (jobs > 1)
			strbuf_addf(sb, " and %u more job%s", jobs - 1, jobs > 2 ? "s" : "");
	}
	strbuf_adds(sb, "</h1>\n<p class=\"sub\">");
	html_textf(sb, "%s, for %.3f s; iogauge %s", date, (double)run->duration / 1e9,
		   IOGAUGE_VERSION);
	strbuf_adds(sb, "</p>\n");
	if (run->interrupted)
		strbuf_adds(sb, "<p class=\"warn\" id=\"interrupted\">The run was interrupted: "
				"partial results.</p>\n");
	strbuf_adds(sb, "<div class=\"scroll\"><table class=\"kv\" id=\"run-table\">\n");
	html_kv(sb, "iogauge", IOGAUGE_VERSION);
	html_kv(sb, "date", date);
	if (ab && ab->argc > 0) {
		command_line(&t, ab->argc, ab->argv);
		strbuf_adds(sb, "<tr data-key=\"command line\"><th>command line</th><td><code "
				"id=\"cmdline\">");
		html_text(sb, t.buf);
		strbuf_adds(sb, "</code></td></tr>\n");
	}
	strbuf_free(&t);
	t = (struct strbuf){ 0 };
	strbuf_addf(&t, "%u job%s, %u clone%s", jobs, jobs == 1 ? "" : "s", run->nr,
		    run->nr == 1 ? "" : "s");
	html_kv(sb, "jobs", t.buf);
	strbuf_free(&t);
	strbuf_adds(sb, "</table></div></header>\n");
}

/* Links to the sections, on one line: the page is long; @ranks: an MPI
 * run's hosts and ranks have theirs. */
static void contents(struct strbuf *sb, const struct report_entries *es, bool ranks)
{
	static const char *const parts[][2] = { { "summary", "summary" },
						{ "host", "machine" },
						{ "storage", "storage" } };
	static const char *const tail[][2] = { { "groups", "groups" },
					       { "disks", "disks" },
					       { "jobfile", "jobs as written" },
					       { "options", "as resolved" } };
	unsigned i;

	strbuf_adds(sb, "<nav id=\"contents\">");
	for (i = 0; i < ARRAY_SIZE(parts); i++)
		strbuf_addf(sb, "<a href=\"#%s\">%s</a> \u00b7 ", parts[i][0], parts[i][1]);
	for (i = 0; i < es->n && i < HTML_PLOTTED_ENTRIES; i++) {
		strbuf_addf(sb, "<a href=\"#entry-%u\">", i + 1);
		html_text(sb, es->v[i].r->job->name);
		strbuf_adds(sb, "</a> \u00b7 ");
	}
	if (es->n > HTML_PLOTTED_ENTRIES)
		strbuf_addf(sb, "(%u entries in all) \u00b7 ", es->n);
	if (ranks)
		strbuf_adds(sb, "<a href=\"#ranks\">hosts and ranks</a> \u00b7 ");
	for (i = 0; i < ARRAY_SIZE(tail); i++)
		strbuf_addf(sb, "<a href=\"#%s\">%s</a>%s", tail[i][0], tail[i][1],
			    i + 1 < ARRAY_SIZE(tail) ? " \u00b7 " : "");
	strbuf_adds(sb, "</nav>\n");
}

/* Section @id headed @title. */
static void section(struct strbuf *sb, const char *id, const char *title)
{
	strbuf_addf(sb, "<section id=\"%s\"><h2>%s</h2>\n", id, title);
}

/* What the text report says beside the figures: the verify pass, a rate
 * cap kept or not, errors passed over (continue_on_error). */
static void notes(struct strbuf *sb, const struct report_entry *e)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	struct strbuf t = { 0 };
	struct report_rate rr;
	unsigned d;

	if (e->r->job->verify != VERIFY_NONE) {
		report_verify(e->r->job, e->st, &t);
		strbuf_adds(sb, "<p class=\"verify\">");
		html_text(sb, t.buf);
		strbuf_adds(sb, "</p>\n");
		t.len = 0;
	}
	for (d = STAT_READ; d <= STAT_TRIM; d++) {
		/* As the text report: a direction the job did not do has no line. */
		if (!report_rate(e->r->job, d, e->threads, &e->st->dir[d], e->st->elapsed, &rr) ||
		    !e->st->dir[d].resp.count)
			continue;
		strbuf_addf(sb, "<p class=\"rate%s\" data-dir=\"%s\">%s rate: target ",
			    rr.kept ? "" : " warn", dirs[d], dirs[d]);
		if (rr.iops)
			strbuf_addf(sb, "%.0f IOPS, achieved %.2f", rr.target, rr.achieved);
		else
			strbuf_addf(sb, "%.2f MiB/s, achieved %.2f", rr.target / 1048576.0,
				    rr.achieved / 1048576.0);
		strbuf_addf(sb, ": %s</p>\n",
			    rr.kept ? "kept" : "not kept (the job fell behind its schedule)");
	}
	if (e->st->errors) {
		report_passed_over(e->st, e->r->first_error, &t);
		strbuf_adds(sb, "<p class=\"warn errors\">");
		html_text(sb, t.buf);
		strbuf_adds(sb, "</p>\n");
	}
	strbuf_free(&t);
}

static void entry(struct strbuf *sb, const struct report_entry *e, unsigned idx, bool plots)
{
	const struct job *job = e->r->job;

	strbuf_addf(sb, "<section class=\"entry\" id=\"entry-%u\" data-job=\"", idx);
	html_text(sb, job->name);
	strbuf_addf(sb, "\" data-group=\"%u\"><h2>", e->r->group);
	html_text(sb, job->name);
	if (job->group_reporting)
		strbuf_addf(sb, " <small>(group %u, %u clone%s)</small>", e->r->group, e->threads,
			    e->threads == 1 ? "" : "s");
	else if (job->numjobs > 1)
		strbuf_addf(sb, " <small>(clone %u, group %u)</small>", e->r->clone, e->r->group);
	else
		strbuf_addf(sb, " <small>(group %u)</small>", e->r->group);
	strbuf_adds(sb, "</h2>\n");
	if (job->description) {
		strbuf_adds(sb, "<p class=\"desc\">");
		html_text(sb, job->description);
		strbuf_adds(sb, "</p>\n");
	}
	if (e->err) {
		strbuf_adds(sb, "<p class=\"warn\">");
		html_text(sb, e->err->error);
		strbuf_adds(sb, "</p>\n");
	}
	html_entry_table(sb, e);
	html_entry_cpu(sb, e);
	notes(sb, e);
	if (plots)
		html_entry_plots(sb, e);
	strbuf_adds(sb, "</section>\n");
}

void report_html(const struct run *run, const struct report_html_about *about, struct strbuf *sb)
{
	struct report_entries es;
	unsigned i;

	strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			"<meta name=\"generator\" content=\"iogauge " IOGAUGE_VERSION "\">\n"
			"<title>iogauge report");
	if (run->nr) {
		strbuf_adds(sb, ": ");
		html_text(sb, run->results[0].job->name);
	}
	strbuf_addf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", html_style);
	header(sb, run, about);
	report_entries(run, &es);
	contents(sb, &es, run->ranks != NULL);
	section(sb, "summary", "Summary");
	html_summary(sb, &es);
	strbuf_adds(sb, "</section>\n");
	section(sb, "host", "Machine");
	html_host(sb);
	strbuf_adds(sb, "</section>\n");
	section(sb, "storage", "Storage under the files");
	html_storage(sb, run);
	strbuf_adds(sb, "</section>\n");
	for (i = 0; i < es.n; i++)
		entry(sb, &es.v[i], i + 1, i < HTML_PLOTTED_ENTRIES);
	if (es.n > HTML_PLOTTED_ENTRIES)
		strbuf_addf(sb,
			    "<p class=\"warn\" id=\"plots-cut\">The plots of the first %u entries "
			    "only, of %u: group_reporting makes one entry of a group.</p>\n",
			    HTML_PLOTTED_ENTRIES, es.n);
	section(sb, "groups", "Run status groups");
	html_groups(sb, run, &es);
	html_group_tables(sb, &es);
	strbuf_adds(sb, "</section>\n");
	report_entries_free(&es);
	if (run->ranks) {
		section(sb, "ranks", "Hosts and ranks");
		html_ranks(sb, run);
		strbuf_adds(sb, "</section>\n");
	}
	section(sb, "disks", "Disk utilisation");
	html_disks(sb, run);
	strbuf_adds(sb, "</section>\n");
	/* --idle-prof: in the text report's words. */
	if (run->idle) {
		struct strbuf t = { 0 };

		report_idle(run->idle, &t);
		section(sb, "idle", "CPU idleness (--idle-prof)");
		strbuf_adds(sb, "<pre>");
		html_text(sb, t.buf[0] == '\n' ? t.buf + 1 : t.buf);
		strbuf_adds(sb, "</pre>\n</section>\n");
		strbuf_free(&t);
	}
	section(sb, "jobfile", "Jobs as written");
	if (about && about->js)
		html_jobs_as_written(sb, about->js);
	strbuf_adds(sb, "</section>\n");
	section(sb, "options", "Jobs as resolved");
	html_jobs_resolved(sb, run);
	strbuf_adds(sb, "</section>\n</body>\n</html>\n");
}
