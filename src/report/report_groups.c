/* SPDX-License-Identifier: MIT */
/*
 * fio's "Run status group N (all jobs):" block of the native report: per
 * reporting group (stonewall, new_group) and direction, the bytes moved,
 * the aggregate bandwidth, each entry's lowest and highest bandwidth and
 * runtime, figured as fio 3.33 figures them (whole milliseconds rounded
 * up, integer bytes per second), and iogauge's own TOTAL line for a mix.
 * It only reads the entries; it prints nothing of the jobs themselves.
 */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

/* A clone's runtime as fio keeps it: microseconds, then whole ms rounded up. */
static uint64_t run_ms(uint64_t elapsed_ns)
{
	return (elapsed_ns / 1000 + 999) / 1000;
}

/* Adds one entry's @bytes over @ms to @g (fio: an entry without I/O in a
 * direction has no runtime there and is left out). */
static void add_entry(struct report_group_dir *g, uint64_t bytes, uint64_t ms)
{
	uint64_t bw;

	if (!ms)
		return;
	if (!g->min_run || ms < g->min_run)
		g->min_run = ms;
	if (ms > g->max_run)
		g->max_run = ms;
	bw = bytes * 1000 / ms;
	if (!g->entries || bw < g->min_bw)
		g->min_bw = bw;
	if (bw > g->max_bw)
		g->max_bw = bw;
	g->bytes += bytes;
	g->entries++;
}

static void finish_dir(struct report_group_dir *g)
{
	g->agg = g->max_run ? g->bytes * 1000 / g->max_run : 0;
}

/* Entry @e's runtime and bytes per direction: with group_reporting its
 * clones' (the longest of those that moved bytes there, as fio's merged
 * runtime), otherwise its own clone's. */
static void entry_dirs(const struct run *run, const struct report_entry *e, uint64_t bytes[3],
		       uint64_t ms[3])
{
	unsigned i = (unsigned)(e->r - run->results), d;
	unsigned to = i + 1;

	if (e->r->job->group_reporting)
		while (to < run->nr && run->results[to].group == e->r->group)
			to++;
	memset(ms, 0, 3 * sizeof(*ms));
	for (d = 0; d < 3; d++)
		bytes[d] = e->st->dir[d].bytes;
	for (; i < to; i++) {
		const struct run_result *r = &run->results[i];

		if (!r->job->stats)
			continue;
		for (d = 0; d < 3; d++)
			if (r->stats.dir[d].bytes && run_ms(r->stats.elapsed) > ms[d])
				ms[d] = run_ms(r->stats.elapsed);
	}
}

unsigned report_groups(const struct run *run, const struct report_entries *es,
		       struct report_group **out)
{
	unsigned n = run->nr ? run->results[run->nr - 1].group + 1 : 0, i, d;
	struct report_group *g = xcalloc(n ? n : 1, sizeof(*g));

	for (i = 0; i < n; i++) {
		g[i].id = i;
		g[i].kb_base = 1024;
		g[i].sig_figs = 4;
	}
	for (i = 0; i < es->n; i++) {
		const struct report_entry *e = &es->v[i];
		struct report_group *gr = &g[e->r->group];
		uint64_t bytes[3], ms[3], all = 0, longest = 0;

		entry_dirs(run, e, bytes, ms);
		/* As fio: the last entry's units, and every entry's
		 * unified_rw_reporting or'ed together. */
		gr->kb_base = e->r->job->kb_base;
		gr->unit_base = e->r->job->unit_base;
		gr->sig_figs = e->r->job->sig_figs;
		gr->unified |= e->r->job->unified_rw_reporting;
		if (e->r->job->unified_rw_reporting == UNIFIED_MIXED) {
			/* fio's mixed entry: all bytes in the first slot, the longest runtime. */
			for (d = 1; d < 3; d++) {
				bytes[0] += bytes[d];
				ms[0] = ms[d] > ms[0] ? ms[d] : ms[0];
				bytes[d] = ms[d] = 0;
			}
		}
		for (d = 0; d < 3; d++) {
			add_entry(&gr->dir[d], bytes[d], ms[d]);
			all += ms[d] ? bytes[d] : 0;
			longest = ms[d] > longest ? ms[d] : longest;
		}
		add_entry(&gr->total, all, longest);
	}
	for (i = 0; i < n; i++) {
		for (d = 0; d < 3; d++)
			finish_dir(&g[i].dir[d]);
		finish_dir(&g[i].total);
	}
	*out = g;
	return n;
}

/*
 * @num as fio's normal output writes a quantity: at most @digits digits,
 * divided by 1000 or 1024 (@pow2) until it fits, the remainder as the
 * decimals that still fit (rounded, carrying into the whole), then the
 * prefix (k M G ... or Ki Mi Gi ...) and @unit.  @bits: times 8.
 */
void report_num(uint64_t num, unsigned digits, bool pow2, bool bits, const char *unit,
		struct strbuf *sb)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const unsigned thousand = pow2 ? 1024 : 1000;
	unsigned p = 0, rem = 0, len;
	bool divided = false, carry = false;
	char whole[24], frac[32];

	if (bits)
		num *= 8;
	for (;;) {
		len = (unsigned)snprintf(whole, sizeof(whole), "%llu", (unsigned long long)num);
		if (len <= digits || p >= ARRAY_SIZE(si))
			break;
		rem = (unsigned)(num % thousand);
		num /= thousand;
		carry = rem >= thousand / 2;
		divided = true;
		p++;
	}
	if (p >= ARRAY_SIZE(si))
		p = 0;
	len = (unsigned)snprintf(whole, sizeof(whole), "%llu", (unsigned long long)num);
	if (!divided || (int)digits - (int)len <= 1) {
		strbuf_addf(sb, "%llu%s%s", (unsigned long long)num + (divided && carry),
			    (pow2 ? iec : si)[p], unit);
		return;
	}
	snprintf(frac, sizeof(frac), "%.*f", (int)(digits - len - 1), (double)rem / thousand);
	strbuf_addf(sb, "%llu.%s%s%s", (unsigned long long)num + (frac[0] == '1'), frac + 2,
		    (pow2 ? iec : si)[p], unit);
}

/* "@a-@b" (or "@a" without @b) in one base, then the other in brackets. */
static void both_bases(const uint64_t *v, unsigned n, unsigned digits, bool pow2, bool bits,
		       const char *unit, struct strbuf *sb)
{
	unsigned k, i;

	for (k = 0; k < 2; k++) {
		strbuf_addf(sb, k ? " (" : "");
		for (i = 0; i < n; i++) {
			strbuf_addf(sb, i ? "-" : "");
			report_num(v[i], digits, k ? !pow2 : pow2, bits, unit, sb);
		}
	}
	strbuf_addc(sb, ')');
}

/* One line: "   READ: bw=47.6MiB/s (49.9MB/s), 47.6MiB/s-47.6MiB/s
 * (49.9MB/s-49.9MB/s), io=1024KiB (1049kB), run=21-21msec". */
static void line(const char *name, const struct report_group *g, const struct report_group_dir *d,
		 struct strbuf *sb)
{
	bool pow2 = !(g->kb_base & (g->kb_base - 1)), bits = g->unit_base == 1;
	const char *rate = bits ? "bit/s" : "B/s";
	uint64_t range[2] = { d->min_bw, d->max_bw };

	strbuf_addf(sb, "%7s: bw=", name);
	both_bases(&d->agg, 1, g->sig_figs, pow2, bits, rate, sb);
	strbuf_addf(sb, ", ");
	both_bases(range, 2, g->sig_figs, pow2, bits, rate, sb);
	strbuf_addf(sb, ", io=");
	both_bases(&d->bytes, 1, g->sig_figs, pow2, false, "B", sb);
	strbuf_addf(sb, ", run=%llu-%llumsec\n", (unsigned long long)d->min_run,
		    (unsigned long long)d->max_run);
}

/* fio's MIXED line of unified_rw_reporting=both: the directions' figures
 * put together as fio 3.33 does (aggregates added, the lowest of the
 * lowest and the highest of the highest). */
static void mixed_both(const struct report_group *g, struct strbuf *sb)
{
	struct report_group_dir m = { .min_bw = UINT64_MAX, .min_run = UINT64_MAX };
	unsigned d;

	for (d = 0; d < 3; d++) {
		const struct report_group_dir *x = &g->dir[d];

		if (!x->max_run)
			continue;
		m.bytes += x->bytes;
		m.agg += x->agg;
		m.min_bw = x->min_bw < m.min_bw ? x->min_bw : m.min_bw;
		m.max_bw = x->max_bw > m.max_bw ? x->max_bw : m.max_bw;
		m.min_run = x->min_run < m.min_run ? x->min_run : m.min_run;
		m.max_run = x->max_run > m.max_run ? x->max_run : m.max_run;
	}
	line("MIXED", g, &m, sb);
}

void report_group_lines(const struct report_group *g, struct strbuf *sb)
{
	static const char *const names[3] = { "READ", "WRITE", "TRIM" };
	unsigned d, lines = 0;

	strbuf_addf(sb, "\nRun status group %u (all jobs):\n", g->id);
	for (d = 0; d < 3; d++) {
		if (!g->dir[d].max_run)
			continue;
		line(g->unified == UNIFIED_MIXED ? "MIXED" : names[d], g, &g->dir[d], sb);
		lines++;
	}
	if (g->unified == UNIFIED_BOTH && lines)
		mixed_both(g, sb);
	/* iogauge's own: a mix's directions together, over each entry's longest. */
	else if (g->unified == UNIFIED_NONE && lines > 1)
		line("TOTAL", g, &g->total, sb);
}
