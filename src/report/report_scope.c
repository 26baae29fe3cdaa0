/* SPDX-License-Identifier: MIT */
/*
 * The per-host and per-rank views of an MPI run (report/scope.h): a
 * host's ranks' clones added as gather.c adds every rank's into the
 * whole, so that a host's row is what the aggregate is for all hosts.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi/ranks.h"
#include "report/scope.h"
#include "util/util.h"

/* Whether @rr was stopped short: not when the rank stonewall (--rank-
 * stonewall) alone stopped it, as gather.c rules for the whole run. */
static bool rank_interrupted(const struct run *run, const struct run_ranks *rk,
			     const struct rank_run *rr)
{
	return rr->stopped && !(rk->stonewalled && !run->interrupted);
}

/* A sub-run of @run with @rr's results: what rank 0 knows of the rest
 * (clock, epoch) kept, what only rank 0 has (disks, steadystate) dropped. */
static struct run sub_run(const struct run *run, const struct run_ranks *rk,
			  const struct rank_run *rr)
{
	struct run one = *run;

	one.results = rr->results;
	one.nr = rr->nr;
	one.duration = rr->duration;
	one.interrupted = rank_interrupted(run, rk, rr);
	one.ranks = NULL;
	one.steady = NULL;
	one.idle = NULL;
	memset(&one.disks, 0, sizeof(one.disks));
	return one;
}

/* The host @host's ranks of @rk added clone by clone into @s. */
static void host_sum(const struct run *run, const struct run_ranks *rk, const char *host,
		     struct report_scope *s)
{
	const struct rank_run *first = NULL;
	unsigned r, i;

	s->host = host;
	s->rank = -1;
	for (r = 0; r < rk->n; r++) {
		if (strcmp(rk->v[r].host, host))
			continue;
		s->ranks += rk->v[r].nr > 0; /* ranks that ran: "how many ran there" */
		if (!first && rk->v[r].nr)
			first = &rk->v[r];
	}
	s->run = sub_run(run, rk, first ? first : &(struct rank_run){ 0 });
	if (!first)
		return;
	s->run.results = xcalloc(first->nr, sizeof(*s->run.results));
	s->owned = true;
	for (i = 0; i < first->nr; i++) {
		s->run.results[i] = first->results[i];
		s->run.results[i].error = NULL;
		stats_init(&s->run.results[i].stats);
		s->run.results[i].stats.latency_depth = first->results[i].stats.latency_depth;
		s->run.results[i].stats.ioprio = first->results[i].stats.ioprio;
	}
	for (r = 0; r < rk->n; r++) {
		const struct rank_run *rr = &rk->v[r];

		if (strcmp(rr->host, host) || rr->nr != first->nr)
			continue;
		for (i = 0; i < rr->nr; i++) {
			stats_merge(&s->run.results[i].stats, &rr->results[i].stats);
			/* The first error of the host's ranks, borrowed. */
			if (!s->run.results[i].error && rr->results[i].error) {
				s->run.results[i].error = rr->results[i].error;
				s->run.results[i].error_no = rr->results[i].error_no;
			}
		}
		if (rr->duration > s->run.duration)
			s->run.duration = rr->duration;
		s->run.interrupted |= rank_interrupted(run, rk, rr);
	}
}

unsigned report_scopes(const struct run *run, struct report_scope **out)
{
	const struct run_ranks *rk = run->ranks;
	struct report_scope *v;
	unsigned r, k, n = 0;

	*out = NULL;
	if (!rk)
		return 0;
	v = xcalloc(rk->n * 2 + 1, sizeof(*v));
	for (r = 0; r < rk->n; r++) {
		for (k = 0; k < r && strcmp(rk->v[k].host, rk->v[r].host); k++)
			;
		if (k == r)
			host_sum(run, rk, rk->v[r].host, &v[n++]);
	}
	for (r = 0; rk->per_rank && r < rk->n; r++) {
		v[n].host = rk->v[r].host;
		v[n].rank = (int)rk->v[r].rank;
		v[n].ranks = 1;
		v[n].run = sub_run(run, rk, &rk->v[r]);
		n++;
	}
	*out = v;
	return n;
}

void report_scopes_free(struct report_scope *v, unsigned n)
{
	unsigned i, k;

	for (i = 0; i < n; i++) {
		if (!v[i].owned)
			continue;
		for (k = 0; k < v[i].run.nr; k++)
			stats_free(&v[i].run.results[k].stats);
		free(v[i].run.results);
	}
	free(v);
}

char *report_scope_name(const struct report_scope *s, const char *name)
{
	if (s->rank < 0)
		return xasprintf("%s@%s", name, s->host);
	return xasprintf("%s@%s:%d", name, s->host, s->rank);
}
