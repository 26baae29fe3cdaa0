/* SPDX-License-Identifier: MIT */
/*
 * --profile=act's judgement failing a job: the error text, formatted once
 * as the job stops (the counting is stats/act.h's, in the I/O loop).
 * fio 3.33's thread fails with EPERM ("Operation not permitted") after
 * printing "act: X% exceeds pass criteria of Y%"; so does the job here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/loop.h"
#include "run/run.h"

void loop_act_failed(struct worker *w, const struct io_req *req)
{
	char *why;

	if (w->error)
		return;
	why = act_fail_text(w->stats.act);
	w->error_no = EPERM;
	w->error = xasprintf("%s: %s at offset %llu, size %zu completed after the slice: %s: %s",
			     req->file < w->files.n ? w->files.v[req->file].path : w->eng.ops->name,
			     io_op_names[req->op], (unsigned long long)req->off, req->len, why,
			     strerror(EPERM));
	free(why);
}

void loop_act_end(struct worker *w, uint64_t at)
{
	char *why;

	if (w->error || !w->stats.act || !act_close(w->stats.act, at))
		return;
	why = act_fail_text(w->stats.act);
	w->error_no = EPERM;
	w->error = xasprintf("the job ended with the slice: %s: %s", why, strerror(EPERM));
	free(why);
}
