/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's hosts and ranks (mpirun): a table of them, one row
 * each, then a section per host, and with --per-rank per rank, each
 * holding its entries' DiskSpd-style tables, the same as the page's entries have for the ranks' sum.  The
 * host and rank are in data- attributes for a script to read.
 */
#include "mpi/ranks.h"
#include "report/html/html.h"
#include "report/scope.h"

/* One scope's section: its heading, why it has no figures, or its entries. */
static void scope_section(struct strbuf *sb, const struct report_scope *s, unsigned idx,
			  const struct rank_run *rr)
{
	struct report_entries es;
	unsigned i;

	strbuf_addf(sb, "<section class=\"scope\" id=\"scope-%u\" data-scope=\"%s\" data-host=\"",
		    idx, s->rank < 0 ? "host" : "rank");
	html_text(sb, s->host);
	strbuf_addf(sb, "\" data-ranks=\"%u\"", s->ranks);
	if (s->rank >= 0)
		strbuf_addf(sb, " data-rank=\"%d\"", s->rank);
	strbuf_adds(sb, "><h3>");
	if (s->rank < 0) {
		strbuf_adds(sb, "Host ");
		html_text(sb, s->host);
		strbuf_addf(sb, " <small>(%u rank%s)</small></h3>\n", s->ranks,
			    s->ranks == 1 ? "" : "s");
	} else {
		strbuf_addf(sb, "Rank %d <small>(on ", s->rank);
		html_text(sb, s->host);
		strbuf_adds(sb, ")</small></h3>\n");
		strbuf_addf(sb,
			    "<p class=\"clock\" data-clock-offset-ns=\"%lld\" data-rtt-ns=\"%llu\" "
			    "data-start-skew-ns=\"%lld\">Clock %+.1f \u00b5s (\u00b1 %.1f) from "
			    "rank 0's; started %+.1f \u00b5s after it.</p>\n",
			    (long long)rr->clock_offset_ns, (unsigned long long)rr->rtt_ns,
			    (long long)rr->start_skew_ns, (double)rr->clock_offset_ns / 1e3,
			    (double)rr->rtt_ns / 2e3, (double)rr->start_skew_ns / 1e3);
	}
	if (rr && rr->error) {
		strbuf_adds(sb, "<p class=\"warn\">Its run could not start: ");
		html_text(sb, rr->error);
		strbuf_adds(sb, "</p>\n");
	}
	report_entries(&s->run, &es);
	for (i = 0; i < es.n; i++) {
		strbuf_addf(sb, "<div class=\"scope-entry\" data-job=\"");
		html_text(sb, es.v[i].r->job->name);
		strbuf_addf(sb, "\" data-group=\"%u\"><h4>", es.v[i].r->group);
		html_text(sb, es.v[i].r->job->name);
		if (!es.v[i].r->job->group_reporting && es.v[i].r->job->numjobs > 1)
			strbuf_addf(sb, " <small>(clone %u, group %u)</small>", es.v[i].r->clone,
				    es.v[i].r->group);
		else
			strbuf_addf(sb, " <small>(group %u)</small>", es.v[i].r->group);
		strbuf_adds(sb, "</h4>\n");
		if (es.v[i].err) {
			strbuf_adds(sb, "<p class=\"warn\">");
			html_text(sb, es.v[i].err->error);
			strbuf_adds(sb, "</p>\n");
		}
		html_entry_table(sb, &es.v[i]);
		strbuf_adds(sb, "</div>\n");
	}
	report_entries_free(&es);
	strbuf_adds(sb, "</section>\n");
}

/* The overview: a row per scope, all its entries and directions together
 * over its longest clone's time, linked to its section; exact values in
 * data-v as the entry tables have them. */
static void overview(struct strbuf *sb, const struct report_scope *sc, unsigned n)
{
	unsigned k, i, d;

	strbuf_adds(sb, "<div class=\"scroll\"><table class=\"num scopes\" id=\"scopes\"><tr>"
			"<th>host</th><th>rank</th><th>ranks</th><th>I/Os</th><th>MiB/s</th>"
			"<th>IOPS</th><th>lat avg (\u00b5s)</th><th>p99 (\u00b5s)</th></tr>\n");
	for (k = 0; k < n; k++) {
		uint64_t ios = 0, bytes = 0, elapsed = 0;
		struct hist lat;
		double secs;

		hist_init(&lat);
		for (i = 0; i < sc[k].run.nr; i++) {
			const struct run_stats *st = &sc[k].run.results[i].stats;

			if (!sc[k].run.results[i].job->stats)
				continue;
			for (d = STAT_READ; d <= STAT_TRIM; d++) {
				ios += st->dir[d].ios;
				bytes += st->dir[d].bytes;
				hist_merge(&lat, &st->dir[d].lat);
			}
			if (st->elapsed > elapsed)
				elapsed = st->elapsed;
		}
		secs = (double)elapsed / 1e9;
		strbuf_addf(sb, "<tr data-scope=\"%s\"><td class=\"name\"><a href=\"#scope-%u\">",
			    sc[k].rank < 0 ? "host" : "rank", k + 1);
		html_text(sb, sc[k].host);
		strbuf_adds(sb, "</a></td><td>");
		if (sc[k].rank >= 0)
			strbuf_addf(sb, "%d", sc[k].rank);
		strbuf_addf(sb,
			    "</td><td>%u</td><td data-k=\"ios\" data-v=\"%llu\">%llu</td>"
			    "<td data-k=\"bw_bytes\" data-v=\"%.0f\">%.2f</td>"
			    "<td data-k=\"iops\" data-v=\"%.6f\">%.1f</td>",
			    sc[k].ranks, (unsigned long long)ios, (unsigned long long)ios,
			    secs > 0 ? (double)bytes / secs : 0,
			    secs > 0 ? (double)bytes / secs / 1048576.0 : 0,
			    secs > 0 ? (double)ios / secs : 0, secs > 0 ? (double)ios / secs : 0);
		if (lat.count)
			strbuf_addf(sb,
				    "<td data-k=\"mean\" data-v=\"%.3f\">%.1f</td>"
				    "<td data-k=\"p99\" data-v=\"%llu\">%.1f</td></tr>\n",
				    hist_mean(&lat), hist_mean(&lat) / 1e3,
				    (unsigned long long)hist_percentile(&lat, 99),
				    (double)hist_percentile(&lat, 99) / 1e3);
		else
			strbuf_adds(sb,
				    "<td data-k=\"mean\">-</td><td data-k=\"p99\">-</td></tr>\n");
		hist_free(&lat);
	}
	strbuf_adds(sb, "</table></div>\n");
}

void html_ranks(struct strbuf *sb, const struct run *run)
{
	const struct run_ranks *rk = run->ranks;
	struct report_scope *sc;
	unsigned k, n = report_scopes(run, &sc);

	strbuf_addf(sb,
		    "<p id=\"ranks-sum\" data-ranks=\"%u\" data-hosts=\"%u\">%u ranks on %u "
		    "host%s: the entries above are their sum; here each host's%s.</p>\n",
		    rk->n, rk->hosts, rk->n, rk->hosts, rk->hosts == 1 ? "" : "s",
		    rk->per_rank ? ", then each rank's" : " (--per-rank: each rank's too)");
	overview(sb, sc, n);
	for (k = 0; k < n; k++)
		scope_section(sb, &sc[k], k + 1, sc[k].rank < 0 ? NULL : &rk->v[sc[k].rank]);
	report_scopes_free(sc, n);
}
