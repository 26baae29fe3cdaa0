/* SPDX-License-Identifier: MIT */
/*
 * iogauge crash's report: per job (mode) the table of rounds (writes
 * acknowledged, lost, torn, in the wrong place) and its total, the
 * writes per second, the sync and acknowledgement latencies, and the
 * first blocks at fault with their offsets; the same figures as JSON.
 */
#include <stdio.h>
#include <string.h>

#include "crash/crash.h"
#include "report/json.h"

/* 1234567 as "1,234,567". */
static void add_count(struct strbuf *sb, uint64_t v, unsigned width)
{
	char digits[32], out[48];
	size_t n = (size_t)snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v), i, k;

	for (i = 0, k = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[k++] = ',';
		out[k++] = digits[i];
	}
	out[k] = '\0';
	if (k < width)
		strbuf_pad(sb, sb->len + width - k, ' ');
	strbuf_adds(sb, out);
}

static void add_ns(struct strbuf *sb, double ns)
{
	if (ns < 1000)
		strbuf_addf(sb, "%.0f ns", ns);
	else if (ns < 1e6)
		strbuf_addf(sb, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		strbuf_addf(sb, "%.2f ms", ns / 1e6);
	else
		strbuf_addf(sb, "%.2f s", ns / 1e9);
}

/* The figures of every round of a job, added up. */
struct sums {
	uint64_t acked, count[4], writes, time_ns;
	uint64_t syncs, sync_ns, sync_max, wait_ns, wait_max, acks, write_ns, write_max;
};

static void sum_rounds(const struct crash_job_report *r, struct sums *s)
{
	unsigned i, k;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < r->nr; i++) {
		const struct crash_figures *f = &r->rounds[i].fig;

		s->acked += r->rounds[i].res.acked;
		for (k = 0; k < 4; k++)
			s->count[k] += r->rounds[i].res.count[k];
		s->writes += f->writes;
		s->time_ns += f->t_end > f->t_start ? f->t_end - f->t_start : 0;
		s->syncs += f->syncs;
		s->sync_ns += f->sync_ns;
		s->sync_max = f->sync_max_ns > s->sync_max ? f->sync_max_ns : s->sync_max;
		s->acks += f->acks;
		s->wait_ns += f->ack_wait_ns;
		s->wait_max = f->ack_wait_max_ns > s->wait_max ? f->ack_wait_max_ns : s->wait_max;
		s->write_ns += f->write_ns;
		s->write_max = f->write_max_ns > s->write_max ? f->write_max_ns : s->write_max;
	}
}

static double per_sec(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : 0;
}

static void text_faults(const struct crash_result *res, struct strbuf *out)
{
	uint64_t shown = 0, all = res->count[CRASH_LOST] + res->count[CRASH_TORN] +
				  res->count[CRASH_WRONG_PLACE];
	unsigned i;

	for (i = 0; i < res->nr_bad; i++, shown++) {
		const struct crash_bad *b = &res->bad[i];

		strbuf_addf(out, "      %s at offset %llu: acknowledged generation %llu",
			    crash_fault_names[b->kind], (unsigned long long)b->off,
			    (unsigned long long)b->acked);
		if (b->kind == CRASH_LOST && b->found)
			strbuf_addf(out, ", found %llu", (unsigned long long)b->found);
		if (b->kind == CRASH_WRONG_PLACE)
			strbuf_addf(out, ", found the block of offset %llu",
				    (unsigned long long)b->found);
		strbuf_addf(out, " (%s)\n", b->detail);
	}
	if (all > shown)
		strbuf_addf(out, "      and %llu more\n", (unsigned long long)(all - shown));
}

static void text_row(const struct crash_result *res, struct strbuf *out)
{
	add_count(out, res->acked, 10);
	strbuf_adds(out, " writes acked ");
	add_count(out, res->count[CRASH_LOST], 6);
	strbuf_adds(out, " lost ");
	add_count(out, res->count[CRASH_TORN], 4);
	strbuf_adds(out, " torn ");
	add_count(out, res->count[CRASH_WRONG_PLACE], 4);
	strbuf_adds(out, " wrong place\n");
}

void crash_print_text(const struct crash_job_report *r, unsigned nr, struct strbuf *out)
{
	unsigned j, i;
	struct sums s;

	for (j = 0; j < nr; j++) {
		const struct crash_mode *m = r[j].mode;

		sum_rounds(&r[j], &s);
		strbuf_addf(out,
			    "%s%s: killing the writer, %u time%s, mode %s (%s, bs=%llu, "
			    "size=%llu)\n",
			    j ? "\n" : "", m->job->name, r[j].nr, r[j].nr == 1 ? "" : "s", m->name,
			    m->path, (unsigned long long)m->bs, (unsigned long long)m->size);
		for (i = 0; i < r[j].nr; i++) {
			strbuf_addf(out, "  round %2u", r[j].rounds[i].round);
			if (m->witness_host) {
				add_count(out, r[j].rounds[i].res.acked, 10);
				strbuf_adds(out, " writes acked, witnessed remotely\n");
				continue;
			}
			text_row(&r[j].rounds[i].res, out);
			text_faults(&r[j].rounds[i].res, out);
			if (m->trigger && r[j].rounds[i].trigger_status)
				strbuf_addf(out, "      (--trigger %s: wait status %d)\n",
					    r[j].rounds[i].trigger_status < 0 ? "did not start"
									      : "failed",
					    r[j].rounds[i].trigger_status);
		}
		if (m->witness_host)
			strbuf_addf(out,
				    "  (the witness at %s:%s, run %llx, holds the log: check "
				    "with iogauge crash --check --witness=LOG)\n",
				    m->witness_host, m->witness_port,
				    (unsigned long long)m->witness_run);
		strbuf_adds(out, "total: ");
		add_count(out, s.acked, 0);
		strbuf_adds(out, " acked, ");
		add_count(out, s.count[CRASH_LOST], 0);
		strbuf_adds(out, " lost, ");
		add_count(out, s.count[CRASH_TORN], 0);
		strbuf_adds(out, " torn, ");
		add_count(out, s.count[CRASH_WRONG_PLACE], 0);
		strbuf_adds(out, " wrong place\n  ");
		add_count(out, (uint64_t)(per_sec(s.writes, s.time_ns) + 0.5), 0);
		strbuf_adds(out, " writes/s; write latency mean ");
		add_ns(out, s.writes ? (double)s.write_ns / (double)s.writes : 0);
		strbuf_adds(out, ", max ");
		add_ns(out, (double)s.write_max);
		if (s.syncs) {
			strbuf_adds(out, "; ");
			add_count(out, s.syncs, 0);
			strbuf_adds(out, " syncs, mean ");
			add_ns(out, (double)s.sync_ns / (double)s.syncs);
			strbuf_adds(out, ", p99 ");
			add_ns(out, (double)hist_percentile(&r[j].hists.sync, 99));
			strbuf_adds(out, ", max ");
			add_ns(out, (double)s.sync_max);
		}
		strbuf_adds(out, "\n  acknowledgement wait mean ");
		add_ns(out, s.acks ? (double)s.wait_ns / (double)s.acks : 0);
		strbuf_adds(out, ", p99 ");
		add_ns(out, (double)hist_percentile(&r[j].hists.wait, 99));
		strbuf_adds(out, ", worst ");
		add_ns(out, (double)s.wait_max);
		strbuf_addf(
			out, "\n  %s\n",
			r[j].failed ? "ERROR: the run stopped (the error is on standard error)"
			: m->witness_host ? "not checked here"
			: !m->promise	  ? "(no promise: acknowledged before the bytes leave the "
					    "process, losses expected)"
			: s.count[CRASH_LOST] + s.count[CRASH_TORN] + s.count[CRASH_WRONG_PLACE]
				? "FAILED: acknowledged writes did not survive the writer's kill"
			/* A pass over nothing is no pass: runtime=1ns killed
			 * each writer before its first write. */
			: !s.acked ? "nothing checked: no write was acknowledged before the kills "
				     "(a longer runtime= lets the writer start)"
				   : "ok: every acknowledged write survived the writer's kill");
	}
}

static void json_result(struct json *j, const struct crash_result *res)
{
	unsigned i;

	json_u64(j, "acked", res->acked);
	json_u64(j, "blocks", res->blocks);
	json_u64(j, "ok", res->count[CRASH_OK]);
	json_u64(j, "lost", res->count[CRASH_LOST]);
	json_u64(j, "torn", res->count[CRASH_TORN]);
	json_u64(j, "wrong_place", res->count[CRASH_WRONG_PLACE]);
	json_open(j, "faults", '[');
	for (i = 0; i < res->nr_bad; i++) {
		json_open(j, NULL, '{');
		json_u64(j, "offset", res->bad[i].off);
		json_str(j, "kind",
			 res->bad[i].kind == CRASH_WRONG_PLACE
				 ? "wrong_place"
				 : crash_fault_names[res->bad[i].kind]);
		json_u64(j, "acked_gen", res->bad[i].acked);
		json_u64(j, res->bad[i].kind == CRASH_WRONG_PLACE ? "found_offset" : "found_gen",
			 res->bad[i].found);
		json_str(j, "detail", res->bad[i].detail);
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* @h: the latencies' histogram for percentiles, or NULL (none kept). */
static void json_latency(struct json *j, const char *key, uint64_t n, uint64_t sum, uint64_t max,
			 const struct hist *h)
{
	json_open(j, key, '{');
	json_u64(j, "count", n);
	json_dbl(j, "mean_ns", n ? (double)sum / (double)n : 0);
	if (h) {
		json_u64(j, "p50_ns", hist_percentile(h, 50));
		json_u64(j, "p99_ns", hist_percentile(h, 99));
		json_u64(j, "p99.9_ns", hist_percentile(h, 99.9));
	}
	json_u64(j, "max_ns", max);
	json_close(j, '}');
}

void crash_print_json(const struct crash_job_report *r, unsigned nr, struct strbuf *out)
{
	struct json j;
	unsigned k, i;
	struct sums s;
	bool broken = false;

	json_init(&j, out);
	json_open(&j, NULL, '{');
	json_str(&j, "iogauge_version", IOGAUGE_VERSION);
	json_open(&j, "jobs", '[');
	for (k = 0; k < nr; k++) {
		const struct crash_mode *m = r[k].mode;
		bool lost;

		sum_rounds(&r[k], &s);
		lost = s.count[CRASH_LOST] + s.count[CRASH_TORN] + s.count[CRASH_WRONG_PLACE];
		broken |= m->promise >= CRASH_PROMISE_KILL && lost;
		json_open(&j, NULL, '{');
		json_str(&j, "jobname", m->job->name);
		json_str(&j, "mode", m->name);
		json_str(&j, "filename", m->path);
		json_u64(&j, "bs", m->bs);
		json_u64(&j, "size", m->size);
		json_u64(&j, "seed", m->seed);
		json_str(&j, "promise", crash_promise_names[m->promise]);
		json_open(&j, "rounds", '[');
		for (i = 0; i < r[k].nr; i++) {
			const struct crash_figures *f = &r[k].rounds[i].fig;

			json_open(&j, NULL, '{');
			json_u64(&j, "round", r[k].rounds[i].round);
			json_u64(&j, "kill_at_ns", r[k].rounds[i].kill_at);
			json_u64(&j, "killed_after_ns", r[k].rounds[i].killed_after);
			if (m->trigger)
				json_i64(&j, "trigger_status", r[k].rounds[i].trigger_status);
			json_u64(&j, "writes", f->writes);
			json_dbl(&j, "writes_per_sec",
				 per_sec(f->writes,
					 f->t_end > f->t_start ? f->t_end - f->t_start : 0));
			json_result(&j, &r[k].rounds[i].res);
			json_close(&j, '}');
		}
		json_close(&j, ']');
		json_open(&j, "total", '{');
		json_u64(&j, "acked", s.acked);
		json_u64(&j, "lost", s.count[CRASH_LOST]);
		json_u64(&j, "torn", s.count[CRASH_TORN]);
		json_u64(&j, "wrong_place", s.count[CRASH_WRONG_PLACE]);
		json_u64(&j, "writes", s.writes);
		json_dbl(&j, "writes_per_sec", per_sec(s.writes, s.time_ns));
		json_latency(&j, "write", s.writes, s.write_ns, s.write_max, NULL);
		json_latency(&j, "sync", s.syncs, s.sync_ns, s.sync_max, &r[k].hists.sync);
		json_latency(&j, "ack_wait", s.acks, s.wait_ns, s.wait_max, &r[k].hists.wait);
		json_close(&j, '}');
		if (m->witness_host)
			json_str(&j, "witness", m->job->witness);
		json_str(&j, "verdict",
			 r[k].failed	   ? "error"
			 : m->witness_host ? "not_checked"
			 : !m->promise	   ? "no_promise"
			 : lost		   ? "failed"
					   : "ok");
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_str(&j, "result", broken ? "failed" : "ok");
	json_close(&j, '}');
	strbuf_addc(out, '\n');
}

void crash_print_check_text(const struct crash_result *res, struct strbuf *out)
{
	strbuf_addf(out, "checking %s against its witness log, mode %s\n", res->file, res->mode);
	strbuf_adds(out, "  check   ");
	text_row(res, out);
	text_faults(res, out);
	if (res->log_cut)
		strbuf_adds(out, "  the log's last line was cut short: read to the line before\n");
	if (res->unended)
		strbuf_addf(out,
			    "  %u round%s without an end line: the witness stopped before the "
			    "writer did (its last acknowledgements may be missing, never extra)\n",
			    res->unended, res->unended == 1 ? "" : "s");
	if (res->power_cut)
		strbuf_addf(out, "  a power cut's log (a remote witness's); the mode promised %s\n",
			    res->promise == CRASH_PROMISE_POWER	 ? "stable storage"
			    : res->promise == CRASH_PROMISE_KILL ? "only to survive a kill"
								 : "nothing");
	strbuf_addf(out, "  %s\n",
		    !res->promise	       ? "(the mode promised nothing: losses expected)"
		    : crash_result_broken(res) ? "FAILED: acknowledged writes are not in the file"
		    : res->count[CRASH_LOST] + res->count[CRASH_TORN] +
				    res->count[CRASH_WRONG_PLACE]
			    ? "(the mode does not wait for stable storage: losses after a power "
			      "cut expected)"
			    : "ok: every acknowledged write is in the file");
}

void crash_print_check_json(const struct crash_result *res, struct strbuf *out)
{
	struct json j;

	json_init(&j, out);
	json_open(&j, NULL, '{');
	json_str(&j, "iogauge_version", IOGAUGE_VERSION);
	json_str(&j, "filename", res->file);
	json_str(&j, "mode", res->mode);
	json_str(&j, "promise", crash_promise_names[res->promise]);
	json_str(&j, "power_cut", res->power_cut ? "yes" : "no");
	json_str(&j, "log_cut_short", res->log_cut ? "yes" : "no");
	json_u64(&j, "rounds_without_end", res->unended);
	json_result(&j, res);
	json_str(&j, "result", crash_result_broken(res) ? "failed" : "ok");
	json_close(&j, '}');
	strbuf_addc(out, '\n');
}
