/* SPDX-License-Identifier: MIT */
/*
 * The file-operation engines' common part (see fileop.h): per file, the
 * bytes issued, so that the first I/O of each pass over its region
 * performs the operation (fio performs it as it opens the file, which it
 * does again on each loop).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engines/fileop.h"
#include "files/files.h"
#include "jobfile/options.h"
#include "util/runclock.h"
#include "util/util.h"

struct fileop_priv {
	const struct run_files *files;
	const void *opts;
	fileop_fn op;
	fileop_fn remove; /* at the end, on every path; NULL: none */
	uint64_t *issued; /* bytes, per file */
};

int fileop_refuse_verify(const struct job *job, const struct opt_def **blame, char **cause)
{
	if (job->verify == VERIFY_NONE)
		return 0;
	*blame = &opt_table[OPT_VERIFY];
	return set_cause(cause,
			 "ioengine=%s moves no data, so verify=%s has nothing to read back; "
			 "remove verify",
			 job->ioengine->name, opt_enum_name(OPT_VERIFY, (int)job->verify));
}

int fileop_check(const struct job *job, const void *opts, const struct opt_def **blame,
		 char **cause)
{
	(void)opts;
	if (fileop_refuse_verify(job, blame, cause))
		return -EINVAL;
	if (job_does(job, DDIR_TRIM) || (job_does(job, DDIR_READ) && job_does(job, DDIR_WRITE))) {
		*blame = &opt_table[OPT_RW];
		return set_cause(cause,
				 "ioengine=%s times its file operation as reads or as writes; "
				 "rw=%s mixes directions or trims: use read, write, randread or "
				 "randwrite",
				 job->ioengine->name, opt_enum_name(OPT_RW, (int)job->rw));
	}
	return 0;
}

int fileop_init(struct engine *e, const struct engine_setup *s, const struct fileop_kind *k,
		char **cause)
{
	struct fileop_priv *p;
	unsigned i;
	int r;

	for (i = 0; k->prepare && i < s->files->n; i++) {
		r = k->prepare(s->files->v[i].path, s->opts);
		if (r < 0) {
			*cause = xasprintf("%s: %s", s->files->v[i].path, strerror(-r));
			return r;
		}
	}
	p = xcalloc(1, sizeof(*p));
	p->remove = s->job->unlink ? k->remove : NULL;
	p->files = s->files;
	p->opts = s->opts;
	p->op = k->op;
	p->issued = xcalloc(s->files->n ? s->files->n : 1, sizeof(*p->issued));
	e->priv = p;
	return 0;
}

void fileop_cleanup(struct engine *e)
{
	struct fileop_priv *p = e->priv;
	unsigned i;

	for (i = 0; p->remove && i < p->files->n; i++)
		(void)p->remove(p->files->v[i].path, p->opts); /* not there: fine */
	free(p->issued);
	free(p);
	e->priv = NULL;
}

enum engine_q fileop_queue(struct engine *e, struct io_req *req)
{
	struct fileop_priv *p = e->priv;
	const struct run_file *f = &p->files->v[req->file];
	uint64_t *done = &p->issued[req->file];
	uint64_t t0;
	int r;

	req->fake = true;
	req->op_ns = UINT64_MAX;
	req->res = (int64_t)req->len;
	if (req->op != IO_OP_READ && req->op != IO_OP_WRITE)
		return ENGINE_Q_DONE; /* a sync: nothing to sync */
	if (!f->len || *done % f->len == 0) {
		t0 = run_now();
		r = p->op(f->path, p->opts);
		req->op_ns = run_now() - t0;
		if (r < 0)
			req->res = r;
	}
	*done += req->len;
	return ENGINE_Q_DONE;
}
