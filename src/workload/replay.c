/* SPDX-License-Identifier: MIT */
/*
 * read_iolog's parser (see replay.h).  The formats, as fio 3.33 reads
 * them: a first line "fio version 2 iolog" or "fio version 3 iolog", then
 * per line, version 2: "FILE ACTION" or "FILE ACTION OFFSET LENGTH";
 * version 3: the same after a time in microseconds.  ACTION is add, open
 * or close (file lines), or read, write, trim, sync, datasync (I/O lines;
 * version 2 also wait, whose OFFSET is milliseconds from the start).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "jobfile/job.h"
#include "workload/blktrace.h"
#include "workload/replay.h"

static int file_index(struct replay *rp, const char *name)
{
	unsigned i;

	for (i = 0; i < rp->files.n; i++)
		if (!strcmp(rp->files.v[i], name))
			return (int)i;
	return -1;
}

static void push(struct replay *rp, const struct replay_io *io, uint64_t *cap)
{
	if (rp->n == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		rp->v = xrealloc(rp->v, (size_t)*cap * sizeof(*rp->v));
	}
	rp->v[rp->n++] = *io;
}

static int iolog_load(struct replay *rp, const char *path, const char *redirect, uint64_t scale,
		      uint64_t align, unsigned time_scale, char **cause)
{
	char line[4096], name[257], act[257];
	unsigned long long t = 0, off, t_first = 0, wait_ms = 0;
	unsigned len, lineno = 1;
	uint64_t cap = 0;
	bool have_first = false;
	FILE *f;
	int r, k, ret = 0;

	memset(rp, 0, sizeof(*rp));
	f = fopen(path, "re");
	if (!f) {
		int err = errno;

		return set_cause_errno(cause, err, "read_iolog %s: %s", path, strerror(err));
	}
	if (!fgets(line, sizeof(line), f)) {
		ret = set_cause(cause, "read_iolog %s: empty, not an iolog", path);
		goto out;
	}
	if (!strncmp(line, "fio version 2 iolog", 19))
		rp->version = 2;
	else if (!strncmp(line, "fio version 3 iolog", 19))
		rp->version = 3;
	else {
		ret = set_cause(cause,
				"read_iolog %s:1: not fio's iolog version 2 or 3, nor a "
				"blktrace binary trace",
				path);
		goto out;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		struct replay_io io = { 0 };
		const char *fname = name;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			ret = set_cause(cause, "read_iolog %s:%u: a line longer than %zu bytes",
					path, lineno, sizeof(line) - 1);
			break;
		}
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		off = 0;
		len = 0;
		if (rp->version == 3)
			r = sscanf(line, "%llu %256s %256s %llu %u", &t, name, act, &off, &len) - 1;
		else
			r = sscanf(line, "%256s %256s %llu %u", name, act, &off, &len);
		if (r != 2 && r != 4) {
			ret = set_cause(cause,
					"read_iolog %s:%u: expected %sFILE ACTION [OFFSET LENGTH]",
					path, lineno, rp->version == 3 ? "TIME " : "");
			break;
		}
		if (redirect)
			fname = redirect;
		if (r == 2) {
			if (!strcmp(act, "add")) {
				if (file_index(rp, fname) < 0)
					str_list_push(&rp->files, xstrdup(fname));
			} else if (strcmp(act, "open") && strcmp(act, "close")) {
				ret = set_cause(cause,
						"read_iolog %s:%u: '%s' is no file action "
						"(add, open, close)",
						path, lineno, act);
			}
			continue;
		}
		if (rp->version == 2 && !strcmp(act, "wait")) {
			wait_ms = off;
			continue;
		}
		if (!strcmp(act, "read"))
			io.op = IO_OP_READ;
		else if (!strcmp(act, "write"))
			io.op = IO_OP_WRITE;
		else if (!strcmp(act, "trim"))
			io.op = IO_OP_TRIM;
		else if (!strcmp(act, "sync"))
			io.op = IO_OP_FSYNC;
		else if (!strcmp(act, "datasync"))
			io.op = IO_OP_FDATASYNC;
		else {
			ret = set_cause(cause,
					"read_iolog %s:%u: '%s' is no I/O action (read, "
					"write, trim, sync, datasync)",
					path, lineno, act);
			break;
		}
		k = file_index(rp, fname);
		if (k < 0) {
			ret = set_cause(cause, "read_iolog %s:%u: %s has no 'add' line before it",
					path, lineno, fname);
			break;
		}
		if (io.op <= IO_OP_WRITE || io.op == IO_OP_TRIM) {
			unsigned d = io.op == IO_OP_TRIM ? 2 : io.op;

			if (!len) {
				ret = set_cause(cause, "read_iolog %s:%u: a %s of 0 bytes", path,
						lineno, act);
				break;
			}
			rp->bytes[d] += len;
			if (len > rp->max_len[d])
				rp->max_len[d] = len;
		}
		if (scale > 1)
			off /= scale;
		if (align)
			off -= off % align;
		io.off = off;
		io.len = len;
		io.file = (uint32_t)k;
		if (rp->version == 3) {
			if (!have_first)
				t_first = t, have_first = true;
			/* fio waits only forward: a time that goes back is no wait. */
			io.t = t > t_first ? (t - t_first) * 100 / (time_scale ? time_scale : 100)
					   : 0;
		} else {
			io.t = wait_ms * 1000;
		}
		push(rp, &io, &cap);
	}
	if (!ret && ferror(f))
		ret = set_cause_errno(cause, EIO, "read_iolog %s: %s", path, strerror(EIO));
	if (!ret && !rp->n)
		ret = set_cause(cause, "read_iolog %s: no I/O in it", path);
out:
	fclose(f);
	if (ret)
		replay_free(rp);
	return ret;
}

int replay_load(struct replay *rp, const struct job *job, char **cause)
{
	/* fio tells a blktrace by its magic number, as here. */
	if (job->merge_blktrace_file || blktrace_is(job->read_iolog))
		return blktrace_load(rp, job, cause);
	return iolog_load(rp, job->read_iolog, job->replay_redirect, job->replay_scale,
			  job->replay_align, job->replay_time_scale, cause);
}

void replay_free(struct replay *rp)
{
	free(rp->v);
	str_list_clear(&rp->files);
	memset(rp, 0, sizeof(*rp));
}
