/* SPDX-License-Identifier: MIT */
/*
 * verify=: stamping a block before it is written and checking it after it
 * is read back.  The header layout is iogauge's own (fio's files do not
 * verify here, nor ours in fio); verify_pattern is read as fio reads it.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "verify/checksum.h"
#include "jobfile/options.h"
#include "util/util.h"
#include "verify/verify.h"

_Static_assert(sizeof(struct verify_hdr) == 48, "the header is 48 bytes on disk");

bool verify_has_header(enum verify_kind kind)
{
	return kind != VERIFY_NONE && kind != VERIFY_PATTERN && kind != VERIFY_NULL;
}

bool verify_writes_block(enum verify_kind kind)
{
	return kind != VERIFY_NONE && kind != VERIFY_NULL;
}

/* The checksum of @len bytes at @p, as stored (little-endian, zero-padded). */
static void data_sum(enum verify_kind kind, const uint8_t *p, size_t len, uint8_t out[16])
{
	uint64_t v;

	memset(out, 0, 16);
	switch (kind) {
	case VERIFY_MD5:
		checksum_md5(p, len, out);
		return;
	case VERIFY_CRC64:
		v = checksum_crc64(0, p, len);
		break;
	case VERIFY_CRC32C:
	case VERIFY_CRC32C_INTEL:
		v = checksum_crc32c(0, p, len);
		break;
	case VERIFY_CRC32:
		v = checksum_crc32(0, p, len);
		break;
	case VERIFY_CRC16:
		v = checksum_crc16(0, p, len);
		break;
	case VERIFY_XXHASH:
		v = checksum_xxh32(p, len);
		break;
	case VERIFY_CRC7:
		v = checksum_crc7(0, p, len);
		break;
	/* The SHAs: the digest's first 16 bytes, what the header holds. */
	case VERIFY_SHA1:
		checksum_sha(1, p, len, out, 16);
		return;
	case VERIFY_SHA256:
		checksum_sha(256, p, len, out, 16);
		return;
	case VERIFY_SHA512:
		checksum_sha(512, p, len, out, 16);
		return;
	case VERIFY_SHA3_224:
		checksum_sha(3224, p, len, out, 16);
		return;
	case VERIFY_SHA3_256:
		checksum_sha(3256, p, len, out, 16);
		return;
	case VERIFY_SHA3_384:
		checksum_sha(3384, p, len, out, 16);
		return;
	case VERIFY_SHA3_512:
		checksum_sha(3512, p, len, out, 16);
		return;
	default:
		return; /* meta, pattern_hdr: the header alone is checked */
	}
	memcpy(out, &v, 8);
}

static uint32_t hdr_crc(const struct verify_hdr *h)
{
	struct verify_hdr c = *h;

	c.hdr_crc = 0;
	return checksum_crc32c(0, &c, sizeof(c));
}

/* verify_pattern over the block: the pattern with %o pasted in, then
 * copies of it, doubling (fio's cpy_pattern). */
static void fill_pattern(const struct verify_pattern *vp, uint8_t *p, size_t len, uint64_t off)
{
	size_t n = vp->len < len ? vp->len : len, done;
	unsigned i;

	memcpy(p, vp->bytes, n);
	for (i = 0; i < vp->nr_off; i++)
		if (vp->off_at[i] < n)
			memcpy(p + vp->off_at[i], &off,
			       n - vp->off_at[i] < 8 ? n - vp->off_at[i] : 8);
	for (done = n; done < len; done *= 2)
		memcpy(p + done, p, len - done < done ? len - done : done);
}

/* The bytes a header kind writes around its header: random, from a seed
 * made of the chunk's offset and the write's generation, so that a check
 * (and verify_dump's "expected" file) can make them again, as fio's
 * verify data comes from a seed in its header. */
static void fill_random(uint8_t *p, size_t len, uint64_t off, uint64_t gen)
{
	uint64_t x = off * 0x9e3779b97f4a7c15ull ^ gen * 0xc2b2ae3d27d4eb4full ^ 0x5647494f;
	size_t i;

	for (i = 0; i < len; i += 8) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ull);

		z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ z >> 27) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		memcpy(p + i, &z, len - i < 8 ? len - i : 8);
	}
}

/* verify_offset: the header and the bytes at @voff trade places (fio's
 * memswp); its own inverse, as the two never overlap (job.c). */
static void swap_hdr(uint8_t *p, size_t voff)
{
	uint8_t t[sizeof(struct verify_hdr)];

	if (!voff)
		return;
	memcpy(t, p, sizeof(t));
	memcpy(p, p + voff, sizeof(t));
	memcpy(p + voff, t, sizeof(t));
}

size_t verify_chunk(const struct job *job, size_t len)
{
	return job->verify_interval && job->verify_interval < len ? job->verify_interval : len;
}

void verify_stamp(const struct job *job, void *buf, size_t len, uint64_t off, uint64_t gen)
{
	enum verify_kind kind = job->verify;
	size_t chunk = verify_chunk(job, len), at;

	if (kind == VERIFY_PATTERN || kind == VERIFY_PATTERN_HDR)
		fill_pattern(&job->verify_pattern, buf, len, off);
	if (!verify_has_header(kind))
		return;
	for (at = 0; at + chunk <= len; at += chunk) {
		uint8_t *p = (uint8_t *)buf + at;
		struct verify_hdr h = { 0 };

		if (kind != VERIFY_PATTERN_HDR)
			fill_random(p + sizeof(h), chunk - sizeof(h), off + at, gen);
		h.magic = VERIFY_MAGIC;
		h.kind = (uint8_t)kind;
		h.len = (uint32_t)chunk;
		h.off = off + at;
		h.gen = gen;
		data_sum(kind, p + sizeof(h), chunk - sizeof(h), h.sum);
		h.hdr_crc = hdr_crc(&h);
		memcpy(p, &h, sizeof(h));
		swap_hdr(p, job->verify_offset);
	}
}

static enum verify_fault bad(struct verify_result *res, enum verify_fault f, uint64_t want,
			     uint64_t got)
{
	res->fault = f;
	res->want = want;
	res->got = got;
	return f;
}

/* The first byte from @from on that differs from what the pattern puts
 * there; @len when none does.  As fio's cmp_pattern: the block must repeat
 * with the pattern's period, and its first period must be the pattern;
 * the byte is searched for only when one of the two fails. */
static size_t pattern_diff(const struct verify_pattern *vp, const uint8_t *p, size_t from,
			   size_t len, uint64_t off, uint8_t *want)
{
	uint8_t chunk[sizeof(vp->bytes)];
	size_t n = vp->len, i, first;

	fill_pattern(vp, chunk, n, off);
	first = len - from < n ? len - from : n;
	for (i = 0; i < first && p[from + i] == chunk[(from + i) % n]; i++)
		;
	if (i == first && (len - from <= n || !memcmp(p + from, p + from + n, len - from - n)))
		return len;
	for (i = from; i < len; i++)
		if (p[i] != chunk[i % n]) {
			*want = chunk[i % n];
			return i;
		}
	return len;
}

/* One chunk (the block, or a verify_interval of it) at @p, its header
 * where verify_offset put it.  @off: the chunk's own offset. */
static enum verify_fault check_chunk(const struct job *job, uint8_t *p, size_t len, uint64_t off,
				     uint64_t gen, struct verify_result *res)
{
	enum verify_kind kind = job->verify;
	struct verify_hdr h;
	uint8_t sum[16];

	swap_hdr(p, job->verify_offset);
	memcpy(&h, p, sizeof(h));
	data_sum(kind, p + sizeof(h), len - sizeof(h), sum);
	swap_hdr(p, job->verify_offset); /* the buffer as read, for verify_dump */
	res->gen = h.gen;
	if (h.magic != VERIFY_MAGIC)
		return bad(res, VERIFY_BAD_MAGIC, VERIFY_MAGIC, h.magic);
	if (h.hdr_crc != hdr_crc(&h))
		return bad(res, VERIFY_BAD_HDR, hdr_crc(&h), h.hdr_crc);
	if (h.kind != kind)
		return bad(res, VERIFY_BAD_KIND, (uint64_t)kind, h.kind);
	if (h.len != len)
		return bad(res, VERIFY_BAD_LEN, len, h.len);
	if (h.off != off)
		return bad(res, VERIFY_BAD_OFF, off, h.off);
	if (gen && h.gen != gen)
		return bad(res, VERIFY_BAD_GEN, gen, h.gen);
	if (memcmp(sum, h.sum, sizeof(sum))) {
		uint64_t a, b;

		memcpy(&a, h.sum, 8);
		memcpy(&b, sum, 8);
		return bad(res, VERIFY_BAD_SUM, a, b);
	}
	return VERIFY_OK;
}

enum verify_fault verify_check(const struct job *job, void *buf, size_t len, uint64_t off,
			       uint64_t gen, struct verify_result *res)
{
	enum verify_kind kind = job->verify;
	uint8_t *p = buf, want = 0;
	size_t chunk = verify_chunk(job, len), at, from = 0;

	memset(res, 0, sizeof(*res));
	res->chunk = len;
	if (verify_has_header(kind)) {
		for (at = 0; at + chunk <= len; at += chunk)
			if (check_chunk(job, p + at, chunk, off + at, gen, res) != VERIFY_OK) {
				res->chunk_at = at;
				res->chunk = chunk;
				return res->fault;
			}
		from = sizeof(struct verify_hdr);
	}
	if (kind == VERIFY_PATTERN) {
		res->at = pattern_diff(&job->verify_pattern, p, 0, len, off, &want);
		if (res->at < len)
			return bad(res, VERIFY_BAD_PATTERN, want, p[res->at]);
	}
	/* pattern_hdr: the pattern around each chunk's header, with the
	 * header back at the chunk's start while it is compared. */
	for (at = 0; kind == VERIFY_PATTERN_HDR && at + chunk <= len; at += chunk) {
		uint8_t got;

		swap_hdr(p + at, job->verify_offset);
		res->at = pattern_diff(&job->verify_pattern, p, at + from, at + chunk, off, &want);
		got = res->at < at + chunk ? p[res->at] : 0;
		swap_hdr(p + at, job->verify_offset);
		if (res->at < at + chunk) {
			res->chunk_at = at;
			res->chunk = chunk;
			return bad(res, VERIFY_BAD_PATTERN, want, got);
		}
	}
	return VERIFY_OK;
}

char *verify_describe(const struct job *job, const struct verify_result *res)
{
	const char *kind = opt_enum_name(OPT_VERIFY, (int)job->verify);
	unsigned long long want = (unsigned long long)res->want, got = (unsigned long long)res->got;

	switch (res->fault) {
	case VERIFY_BAD_MAGIC:
		if ((res->got & 0xffff) == 0xacca)
			return xstrdup("a header of fio's verify (magic 0xacca): fio's blocks do "
				       "not verify in iogauge; write the file with iogauge");
		return xasprintf("no verify header (magic 0x%08llx, expected 0x%08llx): not "
				 "written by a verify= job, or overwritten since",
				 got, want);
	case VERIFY_BAD_HDR:
		return xasprintf(
			"the header is damaged (its crc32c is 0x%08llx, computed 0x%08llx)", got,
			want);
	case VERIFY_BAD_KIND:
		return xasprintf(
			"the block was written with another verify= (kind %llu, this job's "
			"%s)",
			got, kind);
	case VERIFY_BAD_LEN:
		return xasprintf("the block was written %llu bytes long, and read %llu bytes long",
				 got, want);
	case VERIFY_BAD_OFF:
		return xasprintf("the block was written for offset %llu", got);
	case VERIFY_BAD_GEN:
		return xasprintf("stale data: the block is write %llu%s, the last written here was "
				 "write %llu",
				 got, got < want ? " (a lost write)" : "", want);
	case VERIFY_BAD_SUM:
		return xasprintf("%s mismatch: stored 0x%llx, computed 0x%llx", kind, want, got);
	case VERIFY_BAD_PATTERN:
		return xasprintf("pattern mismatch at byte %zu of the block: 0x%02llx, expected "
				 "0x%02llx",
				 res->at, got, want);
	default:
		return xstrdup("no fault");
	}
}

/* ---- verify_pattern=... ---- */

static int pattern_number(const char **sp, struct verify_pattern *vp)
{
	const char *s = *sp;
	size_t room = sizeof(vp->bytes) - vp->len;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		const char *h = s + 2, *e = h;
		size_t n;

		while (isxdigit((unsigned char)*e) &&
		       !(e > h && (e[0] == '0') && (e[1] == 'x' || e[1] == 'X')))
			e++;
		n = (size_t)(e - h);
		if (!n || (n + 1) / 2 > room)
			return -EINVAL;
		/* An odd count: the first digit is a byte alone, as fio. */
		for (; h < e; h += n & 1 ? 1 : 2, n -= n & 1 ? 1 : 2) {
			char pair[3] = { h[0], n & 1 ? 0 : h[1], 0 };

			vp->bytes[vp->len++] = (uint8_t)strtoul(pair, NULL, 16);
		}
		*sp = e;
		return 0;
	} else {
		char num[24], *e;
		size_t n = 0;
		long v;
		uint32_t u;

		/* As fio: a number runs up to a "0x" that starts the next one. */
		while (s[n] && n + 1 < sizeof(num) &&
		       !(s[n] == '0' && (s[n + 1] == 'x' || s[n + 1] == 'X'))) {
			num[n] = s[n];
			n++;
		}
		num[n] = '\0';
		errno = 0;
		v = strtol(num, &e, 10);
		if (e == num || errno || v > INT_MAX || v < INT_MIN)
			return -EINVAL;
		e = (char *)s + (e - num);
		u = (uint32_t)v;
		do {
			if (!room--)
				return -EINVAL;
			vp->bytes[vp->len++] = (uint8_t)u;
			u >>= 8;
		} while (u);
		*sp = e;
		return 0;
	}
}

int verify_pattern_parse(const char *s, struct verify_pattern *out, char **cause)
{
	struct verify_pattern vp = { 0 };
	const char *start = s;

	if (!*s)
		return set_cause(cause, "an empty pattern");
	while (*s) {
		const char *at = s;

		if (*s == '"') {
			const char *e = strchr(s + 1, '"');
			size_t n = e ? (size_t)(e - s - 1) : 0;

			if (!e)
				return set_cause(cause,
						 "'%s': the string at '%s' has no closing \"",
						 start, at);
			if (!n || n > sizeof(vp.bytes) - vp.len)
				goto toolong;
			memcpy(vp.bytes + vp.len, s + 1, n);
			vp.len += (uint16_t)n;
			s = e + 1;
		} else if (*s == '%') {
			if (s[1] != 'o')
				return set_cause(cause,
						 "'%s': %%%c at '%s': the only format is %%o "
						 "(the block's offset)",
						 start, s[1] ? s[1] : ' ', at);
			if (vp.nr_off == ARRAY_SIZE(vp.off_at) || sizeof(vp.bytes) - vp.len < 8)
				goto toolong;
			vp.off_at[vp.nr_off++] = vp.len;
			memset(vp.bytes + vp.len, 0, 8);
			vp.len += 8;
			s += 2;
		} else if (*s == '\'') {
			return set_cause(
				cause, "'%s': a pattern read from a file ('name') is not supported",
				start);
		} else if (pattern_number(&s, &vp)) {
			return set_cause(cause,
					 "'%s': '%s' is not a 0x hex string, a decimal number from "
					 "%d to %d, a \"string\" or %%o, or the pattern passes %zu "
					 "bytes",
					 start, at, INT_MIN, INT_MAX, sizeof(vp.bytes));
		}
	}
	*out = vp;
	return 0;
toolong:
	return set_cause(cause, "'%s': the pattern is empty in places or longer than %zu bytes",
			 start, sizeof(vp.bytes));
}
