/* SPDX-License-Identifier: MIT */
/*
 * The run's flows (flow.h): made by the run's process before any clone
 * starts, in memory the clones' processes inherit shared.
 */
#include <sys/mman.h>

#include "run/flow.h"
#include "util/util.h"

void flow_make(const struct job *jobs, unsigned nr, struct run_flows *out)
{
	unsigned i, k;

	out->v = NULL;
	out->n = 0;
	out->len = 0;
	for (i = 0; i < nr; i++)
		out->n += jobs[i].flow != 0;
	if (!out->n)
		return;
	out->len = out->n * sizeof(*out->v);
	out->v = mmap(NULL, out->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (out->v == MAP_FAILED)
		xalloc_failed(out->len);
	out->n = 0;
	for (i = 0; i < nr; i++) {
		if (!jobs[i].flow)
			continue;
		for (k = 0; k < out->n && out->v[k].id != jobs[i].flow_id; k++)
			;
		if (k == out->n) {
			out->v[k].id = jobs[i].flow_id;
			atomic_init(&out->v[k].count, 1);
			atomic_init(&out->v[k].weight, 0);
			out->n++;
		}
		atomic_fetch_add(&out->v[k].weight, (uint64_t)jobs[i].flow * jobs[i].numjobs);
	}
}

void flow_free(struct run_flows *f)
{
	if (f->v)
		munmap(f->v, f->len);
	f->v = NULL;
	f->n = 0;
}

struct run_flow *flow_of(const struct run_flows *f, const struct job *job)
{
	unsigned k;

	for (k = 0; job->flow && k < f->n; k++)
		if (f->v[k].id == job->flow_id)
			return &f->v[k];
	return NULL;
}
