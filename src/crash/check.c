/* SPDX-License-Identifier: MIT */
/*
 * iogauge crash's checker: the witness's log against the file, which it
 * opens read only.  Each block acknowledged is ok (its stamp is the
 * newest generation acknowledged, or newer, and its checksum holds), lost
 * (an older generation, another run's block, zeros, or past the end of
 * the file), torn (a damaged header or checksum, or bytes that are no
 * stamp) or in the wrong place (a stamp written for another offset).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crash/crash.h"
#include "jobfile/options.h"
#include "verify/verify.h"

const char *const crash_fault_names[] = { "ok", "lost", "torn", "wrong place" };
const char *const crash_promise_names[] = { "none", "kill", "power" };

struct log_head {
	uint64_t run, bs, size;
	int verify;
	char file[4096];
	char mode[64];
	int promise;   /* enum crash_promise; -1: a word it does not know */
	bool remote;   /* "witness remote": a power cut's log */
	unsigned seen; /* bit per header line read */
};

static int verify_kind_of(const char *name)
{
	const struct opt_enum *e;

	for (e = opt_at(OPT_VERIFY)->enums; e && e->name; e++)
		if (!strcmp(e->name, name))
			return e->value;
	return -1;
}

bool crash_region_checkable(uint64_t bs, uint64_t size, const char *verify)
{
	int v = verify_kind_of(verify);

	return v >= 0 && bs >= sizeof(struct verify_hdr) && size && !(size % bs) &&
	       size / bs <= CRASH_MAX_BLOCKS && verify_has_header((enum verify_kind)v);
}

/* One header line into @h: 1 when it was one, 0 when it was not. */
static int head_line(struct log_head *h, const char *line)
{
	unsigned long long v;
	char word[64];

	if (sscanf(line, "run %llx", &v) == 1) {
		h->run = v;
		h->seen |= 1;
	} else if (!strncmp(line, "file ", 5)) {
		util_copy_cut(h->file, sizeof(h->file), line + 5);
		h->seen |= 2;
	} else if (sscanf(line, "bs %llu", &v) == 1) {
		h->bs = v;
		h->seen |= 4;
	} else if (sscanf(line, "size %llu", &v) == 1) {
		h->size = v;
		h->seen |= 8;
	} else if (sscanf(line, "verify %63s", word) == 1) {
		h->verify = verify_kind_of(word);
		h->seen |= 16;
	} else if (!strncmp(line, "mode ", 5)) {
		util_copy_cut(h->mode, sizeof(h->mode), line + 5);
		h->seen |= 32;
	} else if (sscanf(line, "promise %63s", word) == 1) {
		for (h->promise = CRASH_PROMISE_POWER;
		     h->promise >= 0 && strcmp(word, crash_promise_names[h->promise]); h->promise--)
			;
		h->seen |= 64;
	} else if (!strcmp(line, "witness remote")) {
		h->remote = true;
	} else {
		return 0;
	}
	return 1;
}

/* Reads the log: its header into @h, and into @acked (allocated: a
 * counter per block, 0 for none) the newest acknowledgement of each
 * block in round @round (0: every round). */
static int read_log(const char *path, unsigned round, struct log_head *h, uint64_t **acked,
		    struct crash_result *res, char **cause)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	char line[4200];
	unsigned lineno = 0, cur = 0;
	unsigned long long off, gen;
	uint64_t *a = NULL;
	int ret = 0;

	if (!f)
		return set_cause(cause, "witness log %s: %s", path, strerror(errno));
	/* fopen takes a folder; its first read fails with EISDIR. */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		return set_cause(cause, "witness log %s: %s", path, strerror(EISDIR));
	}
	memset(h, 0, sizeof(*h));
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		lineno++;
		if (lineno == 1 && strcmp(line, "iogauge crash witness 1\n")) {
			ret = set_cause(cause,
					"%s: not a witness log of iogauge crash (its first "
					"line is not 'iogauge crash witness 1')",
					path);
			break;
		}
		if (!len || line[len - 1] != '\n') {
			/* The last line, cut short: the witness died writing it. */
			if (feof(f)) {
				res->log_cut = true;
				break;
			}
			ret = set_cause(cause, "%s:%u: a line too long for a witness log", path,
					lineno);
			break;
		}
		line[len - 1] = '\0';
		if (lineno == 1)
			continue;
		if (h->seen != 127) {
			if (!head_line(h, line)) {
				ret = set_cause(cause, "%s:%u: the header is incomplete", path,
						lineno);
				break;
			}
			if (h->seen == 127 &&
			    (h->verify < 0 || h->bs < sizeof(struct verify_hdr) || !h->size ||
			     h->size % h->bs || h->size / h->bs > CRASH_MAX_BLOCKS ||
			     !verify_has_header((enum verify_kind)h->verify))) {
				ret = set_cause(cause,
						"%s:%u: a header with a bad bs, size or "
						"verify",
						path, lineno);
				break;
			}
			if (h->seen == 127 && h->promise < 0) {
				ret = set_cause(cause,
						"%s:%u: a header whose promise is not power, "
						"kill or none",
						path, lineno);
				break;
			}
			if (h->seen == 127)
				a = xcalloc(h->size / h->bs, sizeof(*a));
			continue;
		}
		if (sscanf(line, "round %u", &cur) == 1) {
			res->unended += !round || cur == round;
			continue;
		}
		if (!strncmp(line, "end ", 4)) {
			res->unended -= res->unended && (!round || cur == round);
			continue;
		}
		if (sscanf(line, "a %llu %llu", &off, &gen) != 2 || off % h->bs || off >= h->size ||
		    !gen || gen > CRASH_GEN_MASK) {
			ret = set_cause(cause,
					"%s:%u: not an acknowledgement ('a OFFSET GEN' "
					"of a block in the file): %s",
					path, lineno, line);
			break;
		}
		if (round && cur != round)
			continue;
		res->acked++;
		if (a[off / h->bs] < gen)
			a[off / h->bs] = gen;
	}
	if (!ret && ferror(f))
		ret = set_cause_errno(cause, EIO, "witness log %s: a read failed: %s", path,
				      strerror(errno));
	if (!ret && h->seen != 127)
		ret = set_cause(cause,
				"%s: the header is incomplete (a log cut short before "
				"its first acknowledgement?)",
				path);
	fclose(f);
	if (ret) {
		free(a);
		return ret;
	}
	*acked = a;
	return 0;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && !p[i]; i++)
		;
	return i == len;
}

/* Counts @kind for the block at @off and keeps the first ones. */
static void add(struct crash_result *res, uint64_t off, enum crash_fault kind, uint64_t acked,
		uint64_t found, const char *detail)
{
	struct crash_bad *b;

	res->count[kind]++;
	if (kind == CRASH_OK || res->nr_bad == CRASH_FAULTS_MAX)
		return;
	b = &res->bad[res->nr_bad++];
	b->off = off;
	b->kind = kind;
	b->acked = acked;
	b->found = found;
	util_copy_cut(b->detail, sizeof(b->detail), detail ? detail : "");
}

/* Sorts one block read at @off (@n bytes of @bs) into its class. */
static void classify(const struct job *vj, const struct log_head *h, uint8_t *buf, size_t n,
		     uint64_t off, uint64_t want, struct crash_result *res, unsigned *stamped,
		     unsigned *garbage)
{
	struct verify_result vr;
	enum verify_fault f;
	char *why;

	if (n < h->bs) {
		add(res, off, CRASH_LOST, want, 0, "the file ends before it");
		return;
	}
	f = verify_check(vj, buf, h->bs, off, 0, &vr);
	if (f != VERIFY_BAD_MAGIC)
		(*stamped)++;
	switch (f) {
	case VERIFY_OK:
		if (vr.gen >> CRASH_GEN_BITS != h->run)
			add(res, off, CRASH_LOST, want, 0, "a block of another run");
		else if ((vr.gen & CRASH_GEN_MASK) < want)
			add(res, off, CRASH_LOST, want, vr.gen & CRASH_GEN_MASK,
			    "an older generation");
		else
			add(res, off, CRASH_OK, want, vr.gen & CRASH_GEN_MASK, NULL);
		return;
	case VERIFY_BAD_MAGIC:
		if (all_zero(buf, h->bs)) {
			add(res, off, CRASH_LOST, want, 0, "zeros: never written there");
			return;
		}
		(*garbage)++;
		break;
	case VERIFY_BAD_OFF:
		add(res, off, CRASH_WRONG_PLACE, want, vr.got, "a stamp for another offset");
		return;
	default:
		break;
	}
	why = verify_describe(vj, &vr);
	add(res, off, CRASH_TORN, want, 0, why);
	free(why);
}

int crash_check(const char *log_path, unsigned round, const char *file, struct crash_result *res,
		char **cause)
{
	struct log_head h;
	struct job *vj = NULL;
	uint64_t *acked = NULL, i;
	unsigned stamped = 0, garbage = 0;
	void *buf = NULL;
	const char *path;
	int fd = -1, ret;

	memset(res, 0, sizeof(*res));
	ret = read_log(log_path, round, &h, &acked, res, cause);
	if (ret)
		return ret;
	path = file ? file : h.file;
	util_copy_cut(res->file, sizeof(res->file), path);
	util_copy_cut(res->mode, sizeof(res->mode), h.mode);
	res->promise = (enum crash_promise)h.promise;
	res->power_cut = h.remote;
	vj = xcalloc(1, sizeof(*vj));
	vj->verify = (enum verify_kind)h.verify;
	if (posix_memalign(&buf, 4096, h.bs)) {
		ret = set_cause_errno(cause, ENOMEM, "no memory for a block of %llu bytes",
				      (unsigned long long)h.bs);
		goto out;
	}
	if (round && !res->acked)
		goto out; /* killed before its first acknowledgement: nothing to check */
	/* Read only: the checker never writes to what it checks. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = errno == ENOENT || errno == ENOTDIR
			      ? set_cause(cause, "%s: %s (the file the witness log %s names)", path,
					  strerror(errno), log_path)
			      : set_cause_errno(cause, errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	for (i = 0; i < h.size / h.bs; i++) {
		uint64_t off = i * h.bs;
		size_t n = 0;
		ssize_t got;

		if (!acked[i])
			continue;
		res->blocks++;
		while (n < h.bs) {
			got = pread(fd, (uint8_t *)buf + n, h.bs - n, (off_t)(off + n));
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0) {
				ret = set_cause_errno(cause, errno,
						      "%s: reading %llu bytes at offset %llu: %s",
						      path, (unsigned long long)h.bs,
						      (unsigned long long)off, strerror(errno));
				goto out;
			}
			if (!got)
				break;
			n += (size_t)got;
		}
		classify(vj, &h, buf, n, off, acked[i], res, &stamped, &garbage);
	}
	if (res->blocks && !stamped && garbage)
		ret = set_cause(cause,
				"%s holds no block stamped by iogauge crash where the "
				"witness log %s has acknowledgements: not the file its "
				"writer wrote",
				path, log_path);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	free(vj);
	free(acked);
	return ret;
}

bool crash_result_broken(const struct crash_result *res)
{
	enum crash_promise needed = res->power_cut ? CRASH_PROMISE_POWER : CRASH_PROMISE_KILL;

	return res->promise >= needed &&
	       (res->count[CRASH_LOST] || res->count[CRASH_TORN] || res->count[CRASH_WRONG_PLACE]);
}
