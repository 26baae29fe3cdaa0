/* SPDX-License-Identifier: MIT */
/*
 * A job read as iogauge crash's writer: which file, block size, region
 * and durability mode.  The writer acts on a short list of options; any
 * other one a job sets is refused rather than run as if it were not
 * there.  Also the plain run's refusal of crash's own options.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "crash/crash.h"
#include "engines/engine.h"
#include "jobfile/options.h"
#include "verify/verify.h"

/* The options the writer acts on (and the harmless ones: a name, a
 * description, stonewall and new_group as the jobs run one by one). */
static const enum opt_id acted_on[] = {
	OPT_ACK_BUFFER, OPT_BS,		OPT_BUFFERED,  OPT_DESCRIPTION, OPT_DIRECT,
	OPT_DIRECTORY,	OPT_FDATASYNC,	OPT_FILENAME,  OPT_FSYNC,	OPT_FSYNC_WINDOW,
	OPT_IOENGINE,	OPT_NAME,	OPT_NEW_GROUP, OPT_RANDSEED,	OPT_ROUNDS,
	OPT_RUNTIME,	OPT_RW,		OPT_SEED,      OPT_SIZE,	OPT_STONEWALL,
	OPT_SYNC,	OPT_TIME_BASED, OPT_UNLINK,    OPT_VERIFY,	OPT_WITNESS,
};

static const enum opt_id crash_only[] = { OPT_ACK_BUFFER, OPT_FSYNC_WINDOW, OPT_ROUNDS, OPT_SEED,
					  OPT_WITNESS };

static bool is_set(const struct job *job, enum opt_id id)
{
	return job_origin(job, id)->kind != ORIGIN_DEFAULT;
}

int crash_opts_refuse(const struct job *job, char **cause)
{
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(crash_only); i++)
		if (is_set(job, crash_only[i]))
			return job_fail_at(job, opt_at(crash_only[i])->name, cause,
					   "%s= is an option of iogauge crash, which kills its "
					   "writer: run the job with iogauge crash "
					   "(iogauge-crash(1))",
					   opt_at(crash_only[i])->name);
	return 0;
}

/* The option that sets something the writer would not do, or -1. */
static int not_acted_on(const struct job *job)
{
	unsigned i, k;

	for (i = 0; i < opt_rows(); i++) {
		if (!is_set(job, i))
			continue;
		for (k = 0; k < ARRAY_SIZE(acted_on) && acted_on[k] != (enum opt_id)i; k++)
			;
		if (k == ARRAY_SIZE(acted_on))
			return (int)i;
	}
	return -1;
}

static void size_text(uint64_t v, char *buf, size_t len)
{
	if (v && !(v % (1ull << 20)))
		snprintf(buf, len, "%llum", (unsigned long long)(v >> 20));
	else if (v && !(v % 1024))
		snprintf(buf, len, "%lluk", (unsigned long long)(v >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

/* The mode's name, as a user would write it: "fsync=8", "O_DSYNC". */
static char *mode_name(const struct crash_mode *m)
{
	struct strbuf sb = { 0 };
	char sz[32];

	if (m->ack_buffer) {
		size_text(m->ack_buffer, sz, sizeof(sz));
		strbuf_addf(&sb, "ack_buffer=%s", sz);
	}
	if (m->oflags & O_DIRECT)
		strbuf_addf(&sb, "%sO_DIRECT", sb.len ? " " : "");
	if ((m->oflags & O_SYNC) == O_SYNC)
		strbuf_addf(&sb, "%sO_SYNC", sb.len ? " " : "");
	else if (m->oflags & O_DSYNC)
		strbuf_addf(&sb, "%sO_DSYNC", sb.len ? " " : "");
	if (m->sync_every)
		strbuf_addf(&sb, "%s%s=%u", sb.len ? " " : "", m->datasync ? "fdatasync" : "fsync",
			    m->sync_every);
	if (m->window) {
		if (m->window % 1000000)
			strbuf_addf(&sb, "%sfsync_window=%lluus", sb.len ? " " : "",
				    (unsigned long long)(m->window / 1000));
		else
			strbuf_addf(&sb, "%sfsync_window=%llums", sb.len ? " " : "",
				    (unsigned long long)(m->window / 1000000));
	}
	if (!sb.len)
		strbuf_adds(&sb, "none");
	return strbuf_detach(&sb);
}

/* witness=HOST:PORT/RUN, HOST a name, an IPv4 address or [IPv6], RUN 1 to
 * 6 hex digits (the stamps' run id).  0, or -EINVAL. */
static int witness_parse(const struct job *job, struct crash_mode *m, char **cause)
{
	const char *v = job->witness, *slash = strrchr(v, '/'), *colon, *host = v;
	size_t hl;
	char *end;

	if (!slash)
		goto bad;
	m->witness_run = strtoull(slash + 1, &end, 16);
	if (!slash[1] || *end || !m->witness_run || m->witness_run >> (64 - CRASH_GEN_BITS) ||
	    strlen(slash + 1) > 6)
		goto bad;
	colon = slash;
	while (colon > v && colon[-1] != ':')
		colon--;
	if (colon == v || colon == slash)
		goto bad;
	hl = (size_t)(colon - 1 - v);
	if (*v == '[' && hl > 2 && v[hl - 1] == ']') {
		host++;
		hl -= 2;
	}
	if (!hl)
		goto bad;
	m->witness_host = xstrndup(host, hl);
	m->witness_port = xstrndup(colon, (size_t)(slash - colon));
	return 0;
bad:
	return job_fail_at(job, "witness", cause,
			   "witness=%s: HOST:PORT/RUN, RUN the run id iogauge witness was "
			   "started with (1 to 6 hex digits, not 0)",
			   v);
}

int crash_mode_make(const struct job *job, struct crash_mode *m, char **cause)
{
	const struct engine_ops *eng = job_engine(job);
	int bad = not_acted_on(job);
	enum rw_mode rw;
	struct stat st;
	char *path;
	int ret = 0;

	const char *trigger = m->trigger; /* the command line's, set before */

	memset(m, 0, sizeof(*m));
	m->trigger = trigger;
	m->job = job;
	if (bad >= 0)
		return job_fail_at(job, opt_at((unsigned)bad)->name, cause,
				   "%s= is not acted on by iogauge crash's writer (it writes "
				   "blocks with pwrite(2) and acknowledges them; see "
				   "iogauge-crash(1) for the options it takes)",
				   opt_at((unsigned)bad)->name);
	if (!eng || (strcmp(eng->name, "psync") && strcmp(eng->name, "sync")))
		return job_fail_at(job, "ioengine", cause,
				   "iogauge crash's writer is psync (or sync): a write is "
				   "acknowledged when the call returns, one at a time");
	if (job->filename.n != 1)
		return job_fail_at(job, job->filename.n ? "filename" : "name", cause,
				   "iogauge crash needs filename=: one file, which the writer "
				   "writes and the checker reads");
	/* A writer: rw=write unless told otherwise. */
	rw = is_set(job, OPT_RW) ? job->rw : RW_WRITE;
	if (rw != RW_WRITE && rw != RW_RANDWRITE)
		return job_fail_at(job, "rw", cause,
				   "iogauge crash's writer writes: rw=write "
				   "or rw=randwrite");
	if (!job->size.val || job->size.pct)
		return job_fail_at(job, is_set(job, OPT_SIZE) ? "size" : "name", cause,
				   "iogauge crash needs size= in bytes: the region the writer "
				   "writes over and over");
	m->bs = job->bs[DDIR_WRITE];
	m->size = job->size.val / m->bs * m->bs;
	if (m->bs < sizeof(struct verify_hdr) || !m->size)
		return job_fail_at(job, m->bs < sizeof(struct verify_hdr) ? "bs" : "size", cause,
				   "a block of %llu bytes in a region of %llu: each block needs "
				   "room for its %zu-byte stamp, and the region one block",
				   (unsigned long long)m->bs, (unsigned long long)job->size.val,
				   sizeof(struct verify_hdr));
	if (m->size / m->bs > CRASH_MAX_BLOCKS)
		return job_fail_at(job, "size", cause,
				   "%llu blocks of %llu bytes: the checker holds %llu at most",
				   (unsigned long long)(m->size / m->bs), (unsigned long long)m->bs,
				   CRASH_MAX_BLOCKS);
	m->verify = is_set(job, OPT_VERIFY) ? job->verify : VERIFY_CRC32C;
	if (!verify_has_header(m->verify))
		return job_fail_at(job, "verify", cause,
				   "iogauge crash stamps each block with a header: a checksum "
				   "kind (crc32c by default, md5, sha256, ...)");
	if (is_set(job, OPT_FSYNC_WINDOW) && !job->fsync_window)
		return job_fail_at(job, "fsync_window", cause,
				   "a window of 0: nothing would be grouped (leave it out, or "
				   "use fsync=1)");
	if (job->fsync && job->fdatasync)
		return job_fail_at(job, "fdatasync", cause,
				   "fsync= and fdatasync= together: one "
				   "sync a write");
	if (job->fsync_window && (job->fsync || job->fdatasync))
		return job_fail_at(job, "fsync_window", cause,
				   "fsync_window= with fsync= or fdatasync=: the window decides "
				   "when the sync comes");
	if (job->ack_buffer && (job->fsync_window || job->fsync || job->fdatasync || job->direct ||
				job->sync != SYNC_NONE))
		return job_fail_at(job, "ack_buffer", cause,
				   "ack_buffer= is a runtime's buffer with nothing under it: "
				   "alone, without syncs, O_DIRECT or O_SYNC");
	if (job->ack_buffer && rw != RW_WRITE)
		return job_fail_at(job, "ack_buffer", cause,
				   "ack_buffer= buffers a stream: rw=write");
	if (job->ack_buffer && job->ack_buffer < m->bs)
		return job_fail_at(job, "ack_buffer", cause,
				   "ack_buffer=%llu is smaller than a block (bs=%llu)",
				   (unsigned long long)job->ack_buffer, (unsigned long long)m->bs);
	/* As the plain run places it: a relative name under directory=. */
	path = job->directory.n && job->filename.v[0][0] != '/'
		       ? xasprintf("%s/%s", job->directory.v[0], job->filename.v[0])
		       : xstrdup(job->filename.v[0]);
	if (strpbrk(path, "\t\n"))
		ret = job_fail_at(job, "filename", cause,
				  "a file name with a tab or a newline: the witness's log "
				  "holds it on one line");
	/* Devices are the plain run's, with its checks of what a device
	 * holds (devsafe.c): the writer here overwrites what it is given. */
	else if (!stat(path, &st) && !S_ISREG(st.st_mode))
		ret = job_fail_at(job, "filename", cause,
				  "%s is not a regular file: iogauge crash writes regular files "
				  "only",
				  path);
	else if (job->witness && witness_parse(job, m, cause))
		ret = -EINVAL;
	if (ret) {
		free(path);
		return ret;
	}
	m->path = path;
	m->random = rw == RW_RANDWRITE;
	m->oflags = (job->direct ? O_DIRECT : 0) | (job->sync == SYNC_SYNC    ? O_SYNC
						    : job->sync == SYNC_DSYNC ? O_DSYNC
									      : 0);
	m->sync_every = job->fsync ? job->fsync : job->fdatasync;
	m->datasync = job->fdatasync > 0;
	m->window = job->fsync_window;
	m->ack_buffer = job->ack_buffer;
	m->round = job->runtime ? job->runtime : 1000000000ull;
	m->rounds = job->rounds;
	m->seed = job->seed;
	/* O_DIRECT alone leaves the device's volatile cache: a kill's promise. */
	m->promise = m->ack_buffer					    ? CRASH_PROMISE_NONE
		     : job->sync != SYNC_NONE || m->sync_every || m->window ? CRASH_PROMISE_POWER
									    : CRASH_PROMISE_KILL;
	m->name = mode_name(m);
	return 0;
}

void crash_mode_free(struct crash_mode *m)
{
	free(m->path);
	free(m->name);
	free(m->witness_host);
	free(m->witness_port);
	m->path = m->name = m->witness_host = m->witness_port = NULL;
}
