/* SPDX-License-Identifier: MIT */
/*
 * Running a set of jobs: every clone set up before any I/O (files laid
 * out, O_DIRECT checked, buffers allocated), then the clones started in
 * stonewall batches, each batch released together through a gate, with
 * wait_for and startdelay honoured, and the results collected.
 *
 * The orchestration only: the checks are preflight.c's, the hand-off to
 * clone threads and processes clone.c's, the status line watch.c's.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "files/filelock.h"
#include "files/iosched.h"
#include "run/cgroup.h"
#include "run/clone.h"
#include "run/preflight.h"
#include "run/run.h"
#include "run/status.h"
#include "run/steady.h"
#include "run/watch.h"
#include "run/worker.h"
#include "workload/blktrace.h"

static unsigned find_job(const struct job *jobs, unsigned before, const char *name)
{
	unsigned i;

	for (i = 0; i < before; i++)
		if (!strcmp(jobs[i].name, name))
			return i;
	return ~0u;
}

/* lockfile: slot @s's files take the run's lock of their path. */
static void share_locks(struct filelocks *fl, struct slot *s)
{
	unsigned k;

	for (k = 0; s->w.job->lockfile && k < s->w.files.n; k++)
		s->w.files.v[k].lock = filelocks_get(fl, s->w.files.v[k].path);
}

/* dedupe_global: each clone's working set from every clone's buffers,
 * once all are set up and before any writes (those set up late, with
 * create_serialize=0, keep sets of their own). */
static void share_dedupe(struct slot *slots, const bool *up, unsigned n)
{
	struct payload **pls = xcalloc(n ? n : 1, sizeof(*pls));
	unsigned i, k = 0;

	for (i = 0; i < n; i++)
		if (up[i])
			pls[k++] = &slots[i].w.pl;
	payload_dedupe_share(pls, k);
	free(pls);
}

/*
 * create_serialize=0: the clones of slots [from, to) not set up yet are set
 * up now, as their stonewall batch starts (fio lays such a job's files out
 * as it starts, after the jobs before its stonewall ran).  The status
 * thread, which reads the slots, is stopped meanwhile.  0, or -errno with
 * *cause set.
 */
static int setup_late(const struct run_plan *plan, struct ctl *c, bool *up, unsigned from,
		      unsigned to, atomic_int *stop, const struct run_watch *watch,
		      struct watcher *wt, bool *watching, const struct run_flows *flows,
		      struct filelocks *fl, struct iosched_set *sched, struct run *out,
		      char **cause)
{
	struct slot *slots = c->slots;
	unsigned i;
	int ret = 0;

	for (i = from; i < to && up[i]; i++)
		;
	if (i == to)
		return 0;
	if (*watching)
		watch_stop(wt);
	for (i = from; i < to && !ret; i++) {
		struct run_result *r = &out->results[i];

		if (up[i])
			continue;
		ret = worker_setup(&slots[i].w, &plan->v[r->job_index], r->clone, i + 1, stop,
				   watch, cause);
		if (ret)
			break;
		up[i] = true;
		slots[i].w.halt = &c->halt[i];
		slots[i].w.status = c->status;
		slots[i].w.status_idx = i;
		slots[i].w.flow = flow_of(flows, &plan->jobs[r->job_index]);
		r->engine = slots[i].w.eng.ops->name;
		r->depth = slots[i].w.eng.depth;
		share_locks(fl, &slots[i]);
		clone_prepare(&slots[i], 1);
		if (slots[i].w.job->ioscheduler && !(slots[i].w.eng.ops->flags & ENGINE_F_NOFILES))
			ret = iosched_prepare(sched, &slots[i].w.files, slots[i].w.job->ioscheduler,
					      cause);
	}
	*watching = watch_start(wt, watch, slots, out->nr, out->t_start);
	return ret;
}

int run_jobs(const struct run_plan *plan, atomic_int *stop, const struct run_watch *watch,
	     struct run *out, char **cause)
{
	const struct job *jobs = plan->jobs;
	unsigned nr = plan->nr;
	struct ctl *c;
	struct watcher wt;
	struct steady_watch sw;
	struct status_reporter sr;
	bool watching = false, steadying = false, reporting = false;
	struct timeval tv;
	unsigned i, k, n = 0, batch = 0, group = 0;
	struct slot *slots;
	struct run_flows flows;
	struct iosched_set sched = { 0 };
	struct cgroup_made cg = { 0 };
	bool *up; /* per slot: set up (worker_setup succeeded) */
	struct filelocks fl;
	unsigned nlocks = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	/* Before any time is read: every time of the run is from one clock
	 * (job.c checked that the jobs agree on it). */
	if (nr)
		clock_use(jobs[0].clocksource);
	out->clock = clock_in_use();
	n = plan->clones;
	ret = clone_ctl_new(nr, n, &c, cause);
	if (ret)
		return ret;
	if (watch && watch->report && !(c->status = status_area_new(n))) {
		clone_ctl_free(c);
		return set_cause_errno(cause, errno,
				       "cannot map the status reports' memory for %u clones: %s", n,
				       strerror(errno));
	}
	flow_make(jobs, nr, &flows);
	slots = c->slots;
	for (i = 0; i < nr; i++)
		c->exitall |= jobs[i].exitall;
	out->results = xcalloc(n, sizeof(*out->results));
	out->nr = n;
	up = xcalloc(n ? n : 1, sizeof(*up));
	for (i = 0; i < nr; i++)
		if (jobs[i].lockfile)
			nlocks += jobs[i].numjobs * plan->v[i].nfiles;
	ret = filelocks_init(&fl, nlocks, cause);
	for (i = 0; i < nr && !ret; i++)
		ret = preflight_runnable(&jobs[i], cause);
	if (!ret)
		ret = preflight_memory(plan, cause);
	/* Everything that can fail, for every clone, before any I/O. */
	for (i = 0, n = 0; i < nr && !ret; i++) {
		if (i && (jobs[i].stonewall || jobs[i].new_group))
			group++;
		c->left[i] = jobs[i].numjobs;
		for (k = 0; k < jobs[i].numjobs && !ret; k++, n++) {
			struct run_result *r = &out->results[n];

			slots[n].ctl = c;
			slots[n].job = i;
			slots[n].group = group;
			slots[n].wait_job =
				jobs[i].wait_for ? find_job(jobs, i, jobs[i].wait_for) : ~0u;
			r->job = &jobs[i];
			r->job_index = i;
			r->clone = k;
			r->group = group;
			/* merge_blktrace_file: written once, before its clones. */
			if (!k && jobs[i].merge_blktrace_file) {
				ret = blktrace_merge_write(&jobs[i], cause);
				if (ret)
					break;
			}
			/* cgroup: made (and its weight set) before any clone starts. */
			if (!k && jobs[i].cgroup) {
				ret = cgroup_prepare(&cg, &jobs[i], cause);
				if (ret)
					break;
			}
			if (!jobs[i].create_serialize) {
				/* Set up as its batch starts (setup_late). */
				slots[n].w.prog = &slots[n].w.prog_own;
				r->engine = "?";
				continue;
			}
			ret = worker_setup(&slots[n].w, &plan->v[i], k, n + 1, stop, watch, cause);
			if (!ret) {
				up[n] = true;
				slots[n].w.halt = &c->halt[n];
				slots[n].w.status = c->status;
				slots[n].w.status_idx = n;
				slots[n].w.flow = flow_of(&flows, &jobs[i]);
			}
			/* ioscheduler: checked, and what it replaces noted. */
			if (!ret && jobs[i].ioscheduler &&
			    !(slots[n].w.eng.ops->flags & ENGINE_F_NOFILES))
				ret = iosched_prepare(&sched, &slots[n].w.files,
						      jobs[i].ioscheduler, cause);
			r->engine = slots[n].w.eng.ops ? slots[n].w.eng.ops->name : "?";
			r->depth = slots[n].w.eng.depth;
		}
	}
	if (ret)
		goto out;
	share_dedupe(slots, up, out->nr);
	clone_prepare(slots, out->nr);
	for (i = 0; i < out->nr; i++)
		if (up[i])
			share_locks(&fl, &slots[i]);
	for (i = 0; i < out->nr; i++)
		if (up[i] && !(slots[i].w.eng.ops->flags & ENGINE_F_NOFILES))
			for (k = 0; k < slots[i].w.files.n; k++)
				disks_add_path(&out->disks, slots[i].w.files.v[k].path);
	disks_snapshot(&out->disks, false);
	gettimeofday(&tv, NULL);
	out->epoch_ms = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
	out->t_start = run_now();
	watching = watch_start(&wt, watch, slots, out->nr, out->t_start);
	if (watch && watch->idle)
		idleprof_start(watch->idle);
	reporting = status_start(&sr, watch, c->status, out);
	out->steady = xcalloc(out->nr, sizeof(*out->steady));
	if (steady_watch_setup(out->steady, out->results, out->nr))
		steadying = steady_watch_start(&sw, slots, out->results, out->nr, c, out->steady);
	/* stonewall: a job waits for every job before it. */
	for (i = 0, n = 0; i < nr && !ret; i++) {
		if (i && jobs[i].stonewall) {
			ret = setup_late(plan, c, up, batch, n, stop, watch, &wt, &watching, &flows,
					 &fl, &sched, out, cause);
			if (!ret)
				ret = clone_start_batch(slots, batch, n, c, watch, cause);
			clone_join_all(slots, n, c, stop);
			batch = n;
			if (*stop)
				break;
		}
		n += jobs[i].numjobs;
	}
	if (!ret && !*stop)
		ret = setup_late(plan, c, up, batch, n, stop, watch, &wt, &watching, &flows, &fl,
				 &sched, out, cause);
	if (!ret && !*stop)
		ret = clone_start_batch(slots, batch, n, c, watch, cause);
	clone_join_all(slots, out->nr, c, stop);
	if (reporting)
		status_stop(&sr);
	out->duration = run_now() - out->t_start;
	if (watch && watch->idle) {
		idleprof_stop(watch->idle);
		out->idle = &watch->idle->fig;
	}
	disks_snapshot(&out->disks, true);
	if (watching)
		watch_stop(&wt);
	if (steadying)
		steady_watch_stop(&sw);
	out->interrupted = *stop != 0;
	for (i = 0; i < out->nr; i++) {
		/* Moved: the buckets are the result's now. */
		out->results[i].stats = slots[i].w.stats;
		stats_init(&slots[i].w.stats);
		out->results[i].error = slots[i].w.error;
		out->results[i].error_no = slots[i].w.error_no;
		out->results[i].first_error = slots[i].w.first_error;
		out->results[i].first_error_no = slots[i].w.first_error_no;
		slots[i].w.first_error = NULL;
		out->results[i].logs = slots[i].w.iv.logs;
		out->results[i].t_start = slots[i].w.iv.t0;
		out->results[i].t_end = slots[i].w.iv.t_end;
		for (k = i; out->steady[k].dur == 0 && k && out->results[i].job->ss_dur &&
			    slots[k].group == slots[k - 1].group;
		     k--)
			;
		if (out->steady[k].dur)
			out->results[i].ss = &out->steady[k];
		slots[i].w.error = NULL;
		slots[i].w.iv.logs = NULL;
	}
out:
	iosched_restore(&sched);
	cgroup_remove(&cg);
	/* A run that could not start leaves no file it created behind. */
	for (i = 0; i < out->nr; i++)
		if (up[i])
			worker_cleanup(&slots[i].w, ret || slots[i].w.job->unlink);
	free(up);
	filelocks_free(&fl);
	if (ret)
		run_free(out);
	status_area_free(c->status);
	clone_ctl_free(c);
	flow_free(&flows);
	return ret;
}

void run_free(struct run *r)
{
	unsigned i;

	for (i = 0; i < r->nr; i++) {
		free(r->results[i].error);
		free(r->results[i].first_error);
		stats_free(&r->results[i].stats);
		run_logs_free(r->results[i].logs);
	}
	free(r->results);
	for (i = 0; r->steady && i < r->nr; i++)
		steady_free(&r->steady[i]);
	free(r->steady);
	disks_free(&r->disks);
	memset(r, 0, sizeof(*r));
}
