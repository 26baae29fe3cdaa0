/* SPDX-License-Identifier: MIT */
/*
 * blktrace binary traces for read_iolog, and merge_blktrace_file (see
 * blktrace.h).  The record is the kernel's public struct blk_io_trace
 * (include/uapi/linux/blktrace_api.h); what fio 3.33 replays of it:
 * queue events only, a discard as a trim, a flush as a sync, any other as
 * a read or a write; notify events and every other action only count
 * towards the queue depth the trace saw.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engines/engine.h"
#include "jobfile/job.h"
#include "workload/blktrace.h"
#include "workload/replay.h"

struct bt_rec {
	uint32_t magic; /* BT_MAGIC | version */
	uint32_t sequence;
	uint64_t time;	 /* ns from the trace's start */
	uint64_t sector; /* 512-byte units */
	uint32_t bytes;
	uint32_t action; /* low 16 bits: what happened; high: categories */
	uint32_t pid;
	uint32_t device; /* the kernel's dev_t: major << 20 | minor */
	uint32_t cpu;
	uint16_t error;
	uint16_t pdu_len; /* bytes of payload after the record */
};

_Static_assert(sizeof(struct bt_rec) == 48, "struct blk_io_trace is 48 bytes");

#define BT_MAGIC      0x65617400u
#define BT_VERSION    0x07u
#define BT_TC(c)      ((uint32_t)(c) << 16)
#define BT_TC_READ    BT_TC(1u << 0)
#define BT_TC_WRITE   BT_TC(1u << 1)
#define BT_TC_FLUSH   BT_TC(1u << 2)
#define BT_TC_NOTIFY  BT_TC(1u << 10)
#define BT_TC_DISCARD BT_TC(1u << 13)
#define BT_QUEUE      1u
#define BT_BACKMERGE  2u
#define BT_FRONTMERGE 3u
#define BT_COMPLETE   8u
#define BT_MAX_DEPTH  1024u /* fio's cap: stacked devices miss completions */
#define SKIP_READ     (1u << 0)
#define SKIP_WRITE    (1u << 1)
#define SKIP_TRIM     (1u << 2)
#define SKIP_SYNC     (1u << 3)

static void swap_rec(struct bt_rec *r)
{
	r->magic = __builtin_bswap32(r->magic);
	r->sequence = __builtin_bswap32(r->sequence);
	r->time = __builtin_bswap64(r->time);
	r->sector = __builtin_bswap64(r->sector);
	r->bytes = __builtin_bswap32(r->bytes);
	r->action = __builtin_bswap32(r->action);
	r->pid = __builtin_bswap32(r->pid);
	r->device = __builtin_bswap32(r->device);
	r->cpu = __builtin_bswap32(r->cpu);
	r->error = __builtin_bswap16(r->error);
	r->pdu_len = __builtin_bswap16(r->pdu_len);
}

bool blktrace_is(const char *path)
{
	struct bt_rec r;
	FILE *f = fopen(path, "rbe");
	bool is;

	if (!f)
		return false;
	is = fread(&r, sizeof(r), 1, f) == 1 &&
	     ((r.magic & 0xffffff00u) == BT_MAGIC ||
	      (__builtin_bswap32(r.magic) & 0xffffff00u) == BT_MAGIC);
	fclose(f);
	return is;
}

/* One trace read whole: its records in this machine's byte order, their
 * payloads skipped.  0, or -errno with *cause set. */
static int read_trace(const char *path, struct bt_rec **out, size_t *nr, char **cause)
{
	struct bt_rec *v = NULL, r;
	size_t n = 0, cap = 0, got;
	bool swap = false;
	uint64_t at = 0;
	FILE *f;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	f = fopen(path, "rbe");
	if (!f) {
		int err = errno;

		return set_cause_errno(cause, err, "read_iolog %s: %s", path, strerror(err));
	}
	while ((got = fread(&r, 1, sizeof(r), f)) == sizeof(r)) {
		if (!n)
			swap = (r.magic & 0xffffff00u) != BT_MAGIC;
		if (swap)
			swap_rec(&r);
		if ((r.magic & 0xffffff00u) != BT_MAGIC) {
			ret = set_cause(cause,
					"read_iolog %s: byte %" PRIu64 ": bad magic 0x%08x "
					"(not a blktrace record)",
					path, at, r.magic);
			break;
		}
		if ((r.magic & 0xff) != BT_VERSION) {
			ret = set_cause(cause,
					"read_iolog %s: byte %" PRIu64 ": blktrace version %u, "
					"not %u",
					path, at, r.magic & 0xff, BT_VERSION);
			break;
		}
		if (r.pdu_len && fseek(f, r.pdu_len, SEEK_CUR)) {
			int err = errno;

			ret = set_cause_errno(cause, err, "read_iolog %s: %s", path, strerror(err));
			break;
		}
		at += sizeof(r) + r.pdu_len;
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = r;
	}
	if (!ret && ferror(f))
		ret = set_cause_errno(cause, EIO, "read_iolog %s: %s", path, strerror(EIO));
	else if (!ret && got)
		ret = set_cause(cause,
				"read_iolog %s: byte %" PRIu64 ": a record cut short (%zu of %zu "
				"bytes)",
				path, at, got, sizeof(r));
	fclose(f);
	if (ret) {
		free(v);
		return ret;
	}
	*out = v;
	*nr = n;
	return 0;
}

/* ---- merge_blktrace_file ---- */

struct cursor {
	const char *path;
	struct bt_rec *v;
	size_t n, pos;
	uint64_t length; /* ns: the time of the trace's last record */
	unsigned scalar; /* % */
	unsigned iter, nr_iter;
	struct bt_rec cur; /* the next queue event, its time moved and scaled */
};

/* The next read, write or discard queued, as the merge keeps them. */
static bool cursor_next(struct cursor *c)
{
	while (c->pos < c->n) {
		const struct bt_rec *r = &c->v[c->pos++];

		if ((r->action & 0xffff) != BT_QUEUE ||
		    !(r->action & (BT_TC_READ | BT_TC_WRITE | BT_TC_DISCARD)))
			continue;
		c->cur = *r;
		c->cur.time = (r->time + c->iter * c->length) * c->scalar / 100;
		c->cur.pdu_len = 0;
		return true;
	}
	return false;
}

/* One trace's values of a merge list, fio's default when it is empty. */
static int merge_param(const struct job_merge_list *l, const char *name, unsigned nr_traces,
		       unsigned def, unsigned i, unsigned *out, char **cause)
{
	if (l->nr && l->nr != nr_traces)
		return set_cause(cause, "%s has %u values for %u traces in read_iolog", name, l->nr,
				 nr_traces);
	*out = l->nr ? l->v[i] : def;
	return 0;
}

/* read_iolog's traces (A:B:...) merged by their moved and scaled times,
 * as fio's merge_blktrace_iologs means to (see iogauge-jobfile(5)). */
static int merge_traces(const struct job *job, struct bt_rec **out, size_t *nr, char **cause)
{
	struct cursor *cs = NULL;
	struct bt_rec *v = NULL;
	unsigned nc = 0, i, k;
	size_t n = 0, cap = 0;
	char *names = xstrdup(job->read_iolog), *p = names, *name;
	int ret = 0;

	for (i = 1, name = names; *name; name++)
		i += *name == ':';
	cs = xcalloc(i, sizeof(*cs));
	while (!ret && (name = strsep(&p, ":"))) {
		struct cursor *c = &cs[nc];

		c->path = name;
		ret = merge_param(&job->merge_blktrace_scalars, "merge_blktrace_scalars", i, 100,
				  nc, &c->scalar, cause);
		if (!ret)
			ret = merge_param(&job->merge_blktrace_iters, "merge_blktrace_iters", i, 1,
					  nc, &c->nr_iter, cause);
		/* One that cannot be read: read_trace says why. */
		if (!ret && !access(name, R_OK) && !blktrace_is(name))
			ret = set_cause(cause,
					"read_iolog %s: not a blktrace binary trace "
					"(merge_blktrace_file merges those)",
					name);
		if (!ret)
			ret = read_trace(name, &c->v, &c->n, cause);
		nc++;
		if (!ret && c->n)
			c->length = c->v[c->n - 1].time;
	}
	/* Each trace's first event; one with none takes no part. */
	for (k = 0; !ret && k < nc;) {
		if (cursor_next(&cs[k])) {
			k++;
			continue;
		}
		free(cs[k].v);
		cs[k] = cs[--nc];
		cs[nc].v = NULL;
	}
	while (!ret && nc) {
		struct cursor *c;

		/* The earliest; a tie goes to the first, where fio's does. */
		for (i = 0, k = 1; k < nc; k++)
			if (cs[k].cur.time < cs[i].cur.time)
				i = k;
		c = &cs[i];
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[n++] = c->cur;
		if (cursor_next(c))
			continue;
		if (++c->iter < c->nr_iter) {
			c->pos = 0;
			if (cursor_next(c))
				continue;
		}
		/* Done: the last one takes its place, as fio keeps them. */
		free(c->v);
		*c = cs[--nc];
		cs[nc].v = NULL;
	}
	for (k = 0; k < nc; k++)
		free(cs[k].v);
	free(cs);
	free(names);
	if (ret) {
		free(v);
		return ret;
	}
	*out = v;
	*nr = n;
	return 0;
}

int blktrace_merge_write(const struct job *job, char **cause)
{
	const char *path = job->merge_blktrace_file;
	struct bt_rec *v;
	size_t n;
	FILE *f;
	int ret = merge_traces(job, &v, &n, cause), err = 0;

	if (ret)
		return ret;
	f = fopen(path, "wbe");
	if (!f) {
		err = errno;
	} else {
		if (n && fwrite(v, sizeof(*v), n, f) != n)
			err = errno ? errno : EIO;
		if (fclose(f) && !err)
			err = errno;
	}
	free(v);
	if (err)
		return set_cause_errno(cause, err, "merge_blktrace_file %s: offset 0, size %zu: %s",
				       path, n * sizeof(*v), strerror(err));
	return 0;
}

/* ---- the replay ---- */

#define DEV_MAX 64u /* devices in one trace */

struct dev_file {
	uint32_t dev;
	unsigned file;
};

/* The /dev node of the kernel device @dev (major << 20 | minor), as
 * sysfs names it.  0, or -EINVAL with *cause set. */
static int dev_node(uint32_t dev, const char *path, char *node, size_t size, char **cause)
{
	unsigned maj = dev >> 20, min = dev & 0xfffff;
	char sys[64], line[256], *name = NULL;
	struct stat st;
	FILE *f;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/uevent", maj, min);
	f = fopen(sys, "re");
	if (f) {
		while (!name && fgets(line, sizeof(line), f))
			if (!strncmp(line, "DEVNAME=", 8))
				name = line + 8;
		fclose(f);
	}
	if (name) {
		name[strcspn(name, "\n")] = '\0';
		snprintf(node, size, "/dev/%s", name);
		if (!stat(node, &st) && S_ISBLK(st.st_mode) && major(st.st_rdev) == maj &&
		    minor(st.st_rdev) == min)
			return 0;
	}
	return set_cause(cause,
			 "read_iolog %s: the trace's device %u:%u is no block device here "
			 "(replay_redirect sends its I/O to one)",
			 path, maj, min);
}

/* The file index of device @dev, added at its first I/O, as fio's. */
static int dev_file(struct replay *rp, struct dev_file *map, unsigned *nmap, uint32_t dev,
		    const struct job *job, const char *path, unsigned *file, char **cause)
{
	char node[300];
	unsigned i;
	int ret;

	for (i = 0; i < *nmap; i++)
		if (map[i].dev == dev) {
			*file = map[i].file;
			return 0;
		}
	if (*nmap == DEV_MAX)
		return set_cause(cause, "read_iolog %s: more than %u devices in the trace", path,
				 DEV_MAX);
	if (job->replay_redirect) {
		snprintf(node, sizeof(node), "%s", job->replay_redirect);
	} else {
		ret = dev_node(dev, path, node, sizeof(node), cause);
		if (ret)
			return ret;
	}
	for (i = 0; i < rp->files.n && strcmp(rp->files.v[i], node); i++)
		;
	if (i == rp->files.n)
		str_list_push(&rp->files, xstrdup(node));
	map[*nmap].dev = dev;
	map[(*nmap)++].file = i;
	*file = i;
	return 0;
}

/* ns from the last queue event to this one, as fio's delay_since_ttime. */
static uint64_t delay_ns(uint64_t last, uint64_t t, unsigned time_scale)
{
	if (!last || t < last)
		return 0;
	if (time_scale == 100 || !time_scale)
		return t - last;
	return (uint64_t)((double)(t - last) * (100.0 / (double)time_scale));
}

static int replay_recs(struct replay *rp, const struct bt_rec *v, size_t n, const struct job *job,
		       const char *path, char **cause)
{
	struct dev_file map[DEV_MAX];
	unsigned nmap = 0, d;
	int depth[3] = { 0 }, now[3] = { 0 };
	uint64_t ios[4] = { 0 }, last = 0, t_us = 0, cap = 0;
	uint64_t align = job->replay_align, scale = job->replay_scale;
	size_t i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		struct bt_rec r = v[i];
		unsigned act = r.action & 0xffff, file = 0;
		int dir = r.action & BT_TC_READ	     ? 0
			  : r.action & BT_TC_WRITE   ? 1
			  : r.action & BT_TC_DISCARD ? 2
						     : -1;
		struct replay_io io = { 0 };
		uint64_t delay = 0;

		/* The depth: queued less merged, its peak taken at a completion. */
		if (!(r.action & BT_TC_NOTIFY) && dir >= 0) {
			if (act == BT_QUEUE)
				now[dir]++;
			else if (act == BT_BACKMERGE || act == BT_FRONTMERGE)
				now[dir]--;
			else if (act == BT_COMPLETE) {
				if (now[dir] > depth[dir])
					depth[dir] = now[dir];
				now[dir] = 0;
			}
		}
		if (act != BT_QUEUE || r.action & BT_TC_NOTIFY)
			continue;
		delay = delay_ns(last, r.time, job->replay_time_scale);
		last = r.time;
		if (align)
			r.bytes = (uint32_t)((r.bytes + align - 1) / align * align);
		if (r.action & BT_TC_DISCARD) {
			if (job->replay_skip & SKIP_TRIM)
				continue;
			io.op = IO_OP_TRIM;
		} else if (r.action & BT_TC_FLUSH) {
			if (job->replay_skip & SKIP_SYNC)
				continue;
			io.op = IO_OP_FSYNC;
		} else {
			io.op = r.action & BT_TC_WRITE ? IO_OP_WRITE : IO_OP_READ;
		}
		/* fio opens a read's or write's device before it looks at
		 * replay_skip and the length. */
		ret = dev_file(rp, map, &nmap, r.device, job, path, &file, cause);
		if (ret)
			break;
		if (io.op == IO_OP_READ || io.op == IO_OP_WRITE) {
			if (job->replay_skip & (io.op == IO_OP_READ ? SKIP_READ : SKIP_WRITE) ||
			    !r.bytes)
				continue;
		}
		if (io.op != IO_OP_FSYNC) {
			d = io.op == IO_OP_TRIM ? 2 : io.op;
			if (!r.bytes) {
				ret = set_cause(
					cause,
					"read_iolog %s: a discard of 0 bytes at sector %" PRIu64,
					path, r.sector);
				break;
			}
			io.off = r.sector * 512;
			if (scale > 1)
				io.off /= scale;
			if (align)
				io.off -= io.off % align;
			io.len = r.bytes;
			rp->bytes[d] += r.bytes;
			if (r.bytes > rp->max_len[d])
				rp->max_len[d] = r.bytes;
			ios[d]++;
		} else {
			ios[3]++;
		}
		/* fio waits each I/O's delay after the one before. */
		t_us += delay / 1000;
		io.t = t_us;
		io.file = file;
		if (rp->n == cap) {
			cap = cap ? cap * 2 : 1024;
			rp->v = xrealloc(rp->v, (size_t)cap * sizeof(*rp->v));
		}
		rp->v[rp->n++] = io;
	}
	if (ret)
		return ret;
	if (!rp->n)
		return set_cause(cause, "read_iolog %s: no I/O in it%s", path,
				 job->replay_skip ? " (after replay_skip)" : "");
	for (d = 0; d < 3; d++) {
		unsigned k = depth[d] > (int)BT_MAX_DEPTH ? BT_MAX_DEPTH
			     : depth[d] > 0		  ? (unsigned)depth[d]
			     : ios[d]			  ? 1
							  : 0;

		if (k > rp->depth)
			rp->depth = k;
	}
	return 0;
}

int blktrace_load(struct replay *rp, const struct job *job, char **cause)
{
	const char *path = job->merge_blktrace_file ? job->merge_blktrace_file : job->read_iolog;
	struct bt_rec *v;
	size_t n;
	int ret;

	memset(rp, 0, sizeof(*rp));
	ret = job->merge_blktrace_file ? merge_traces(job, &v, &n, cause)
				       : read_trace(path, &v, &n, cause);
	if (ret)
		return ret;
	ret = replay_recs(rp, v, n, job, path, cause);
	free(v);
	if (ret)
		replay_free(rp);
	return ret;
}
