/* SPDX-License-Identifier: MIT */
/* --inflate-log (see inflate.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "report/inflate.h"

/* fio's struct io_sample as it lies in memory (x86-64 and the like):
 * time, value, direction with two flag bits, priority, bs; then the
 * offset when the offset bit is set. */
#define SAMPLE_SIZE	  32
#define SAMPLE_OFF_SIZE	  40
#define SAMPLE_OFFSET_BIT 0x80000000u
#define SAMPLE_PRIO_BIT	  0x40000000u

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* The samples' text, as fio's flush_samples prints them. */
static void samples_text(const unsigned char *b, size_t len, struct strbuf *out)
{
	uint32_t ddir;
	uint16_t prio;
	size_t i, sz;
	bool offset, has_prio;
	unsigned pv;

	if (len < SAMPLE_SIZE)
		return;
	memcpy(&ddir, b + 16, 4);
	offset = ddir & SAMPLE_OFFSET_BIT;
	has_prio = ddir & SAMPLE_PRIO_BIT;
	sz = offset ? SAMPLE_OFF_SIZE : SAMPLE_SIZE;
	for (i = 0; i + sz <= len; i += sz) {
		memcpy(&ddir, b + i + 16, 4);
		memcpy(&prio, b + i + 20, 2);
		/* Without the priority bit, fio prints 1 for the RT class, else 0. */
		pv = has_prio ? prio : (prio >> 13) == 1;
		strbuf_addf(out, "%lu, %" PRId64 ", %u, %llu", (unsigned long)get_u64(b + i),
			    (int64_t)get_u64(b + i + 8),
			    ddir & ~(SAMPLE_OFFSET_BIT | SAMPLE_PRIO_BIT),
			    (unsigned long long)get_u64(b + i + 24));
		if (offset)
			strbuf_addf(out, ", %llu", (unsigned long long)get_u64(b + i + 32));
		strbuf_addf(out, has_prio ? ", 0x%04x\n" : ", %u\n", pv);
	}
}

int log_inflate(const char *path, struct strbuf *out, char **cause)
{
	struct strbuf bin = { 0 };
	unsigned char chunk[1 << 16];
	unsigned char *in = NULL;
	struct stat sb;
	z_stream zs;
	size_t used = 0;
	int fd, err, zret = Z_OK;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) < 0) {
		err = errno;
		if (fd >= 0)
			close(fd);
		return set_cause_errno(cause, err, "--inflate-log %s: %s", path, strerror(err));
	}
	in = xmalloc(sb.st_size ? (size_t)sb.st_size : 1);
	err = util_read_all(fd, in, (size_t)sb.st_size);
	close(fd);
	if (err) {
		free(in);
		return set_cause_errno(cause, -err, "--inflate-log %s: %s", path, strerror(-err));
	}
	/* One zlib stream per chunk, as fio stores them: each to its end,
	 * then the next, until the input is used up. */
	while (used < (size_t)sb.st_size) {
		memset(&zs, 0, sizeof(zs));
		if (inflateInit(&zs) != Z_OK) {
			free(in);
			return set_cause_errno(cause, ENOMEM, "--inflate-log %s: %s", path,
					       strerror(ENOMEM));
		}
		zs.next_in = in + used;
		zs.avail_in = (uInt)((size_t)sb.st_size - used);
		do {
			zs.next_out = chunk;
			zs.avail_out = sizeof(chunk);
			zret = inflate(&zs, Z_NO_FLUSH);
			if (zret != Z_OK && zret != Z_STREAM_END)
				break;
			strbuf_add(&bin, (const char *)chunk, sizeof(chunk) - zs.avail_out);
		} while (zret != Z_STREAM_END);
		used = (size_t)sb.st_size - zs.avail_in;
		inflateEnd(&zs);
		if (zret != Z_STREAM_END)
			break;
	}
	free(in);
	if (zret != Z_STREAM_END) {
		strbuf_free(&bin);
		return set_cause(cause,
				 "--inflate-log %s: not a log fio compressed (%s at byte %zu)",
				 path, zret == Z_BUF_ERROR ? "cut short" : "not zlib data", used);
	}
	samples_text((const unsigned char *)bin.buf, bin.len, out);
	strbuf_free(&bin);
	return 0;
}
