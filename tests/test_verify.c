/* SPDX-License-Identifier: MIT */
/*
 * verify=: the checksums against their published check values,
 * verify_pattern read as fio reads it, every fault a check can find, and,
 * end to end on real files, a corrupted byte, a misplaced block and a
 * lost write each found at their offsets.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "verify/checksum.h"
#include "engines/engine.h"
#include "report/report.h"
#include "verify/verify.h"
#include "testrun.h"

/* pwrite fault injection: the write number @drop_nth (from 1) at offset
 * @drop_at reports success and writes nothing, as a device losing it. */
static off_t drop_at = -1;
static int drop_nth, drop_seen;
ssize_t __real_pwrite64(int fd, const void *buf, size_t len, off_t off);
ssize_t __wrap_pwrite64(int fd, const void *buf, size_t len, off_t off);

ssize_t __wrap_pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	if (off == drop_at && ++drop_seen == drop_nth)
		return (ssize_t)len;
	return __real_pwrite64(fd, buf, len, off);
}

static void test_checksums(void **state)
{
	static const char check[] = "123456789";
	static const struct {
		const char *in, *hex;
	} md5[] = {
		{ "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
		{ "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
		  "57edf4a22be3c955ac49da2e2107b67a" },
	};
	uint8_t d[16];
	char hex[33];
	size_t i, k;

	(void)state;
	assert_int_equal(checksum_crc32c(0, check, 9), 0xe3069283u);
	assert_int_equal(checksum_crc32(0, check, 9), 0xcbf43926u);
	assert_true(checksum_crc64(0, check, 9) == 0x995dc9bbdf1939faull);
	assert_int_equal(checksum_crc16(0, check, 9), 0xbb3d);
	assert_int_equal(checksum_crc7(0, check, 9), 0x75); /* CRC-7/MMC's check */
	/* The SHAs' published digests of "abc": their first bytes. */
	{
		static const struct {
			unsigned which;
			uint8_t head[4];
		} abc[] = {
			{ 1, { 0xa9, 0x99, 0x3e, 0x36 } },    { 256, { 0xba, 0x78, 0x16, 0xbf } },
			{ 512, { 0xdd, 0xaf, 0x35, 0xa1 } },  { 3224, { 0xe6, 0x42, 0x82, 0x4c } },
			{ 3256, { 0x3a, 0x98, 0x5d, 0xa7 } }, { 3384, { 0xec, 0x01, 0x49, 0x82 } },
			{ 3512, { 0xb7, 0x51, 0x85, 0x0b } },
		};

		for (i = 0; i < ARRAY_SIZE(abc); i++) {
			checksum_sha(abc[i].which, "abc", 3, d, 16);
			assert_memory_equal(d, abc[i].head, 4);
		}
	}
	/* XXH32, seed 1 (fio's); with seed 0 libxxhash gives 0x937bad67. */
	assert_int_equal(checksum_xxh32(check, 9), 0xf261918cu);
	/* Running sums continue where they stopped. */
	assert_int_equal(checksum_crc32c(checksum_crc32c(0, check, 4), check + 4, 5), 0xe3069283u);
	for (i = 0; i < ARRAY_SIZE(md5); i++) {
		checksum_md5(md5[i].in, strlen(md5[i].in), d);
		for (k = 0; k < 16; k++)
			snprintf(hex + 2 * k, 3, "%02x", d[k]);
		assert_string_equal(hex, md5[i].hex);
	}
}

/* fio's own examples (lib/pattern.c) give these bytes. */
static void test_pattern_parse(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *bytes;
		unsigned nr_off;
	} ok[] = {
		{ "\"abcd\"", 4, "abcd", 0 },
		{ "-1024", 4, "\x00\xfc\xff\xff", 0 },
		{ "66", 1, "\x42", 0 },
		{ "0xFF0X1", 2, "\xff\x01", 0 },
		{ "%o", 8, "\0\0\0\0\0\0\0\0", 1 },
		{ "\"123\"0xFFeeCC", 6, "123\xff\xee\xcc", 0 },
		{ "-100xab\"1\"%o\"2\"", 15, "\xf6\xff\xff\xff\xab\x31\0\0\0\0\0\0\0\0\x32", 1 },
		{ "0", 1, "\0", 0 },
		{ "0xabc", 2, "\x0a\xbc", 0 },
	};
	static const char *const bad[] = {
		"", "0x", "\"open", "%d", "'file'", "abc", "99999999999"
	};
	struct verify_pattern vp;
	char *cause = NULL;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		if (verify_pattern_parse(ok[i].in, &vp, &cause))
			fail_msg("%s: %s", ok[i].in, cause);
		assert_int_equal(vp.len, ok[i].len);
		assert_memory_equal(vp.bytes, ok[i].bytes, ok[i].len);
		assert_int_equal(vp.nr_off, ok[i].nr_off);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(verify_pattern_parse(bad[i], &vp, &cause), -EINVAL);
		assert_non_null(cause);
		free(cause);
		cause = NULL;
	}
}

/* Each fault a check can find, in a block stamped for offset 8192. */
static void test_faults(void **state)
{
	static const enum verify_kind kinds[] = { VERIFY_MD5,	   VERIFY_CRC64,    VERIFY_CRC32C,
						  VERIFY_CRC32,	   VERIFY_CRC16,    VERIFY_CRC7,
						  VERIFY_XXHASH,   VERIFY_SHA1,	    VERIFY_SHA256,
						  VERIFY_SHA512,   VERIFY_SHA3_224, VERIFY_SHA3_256,
						  VERIFY_SHA3_384, VERIFY_SHA3_512, VERIFY_META };
	struct job job = { 0 };
	struct verify_result res;
	uint8_t blk[4096], copy[4096];
	size_t i, k;
	char *why;

	(void)state;
	for (i = 0; i < sizeof(blk); i++)
		blk[i] = (uint8_t)(i * 7 + 3);
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		job.verify = kinds[k];
		verify_stamp(&job, blk, sizeof(blk), 8192, 5);
		assert_int_equal(verify_check(&job, blk, sizeof(blk), 8192, 5, &res), VERIFY_OK);
		assert_int_equal(verify_check(&job, blk, sizeof(blk), 8192, 0, &res), VERIFY_OK);
		assert_int_equal(verify_check(&job, blk, sizeof(blk), 4096, 5, &res),
				 VERIFY_BAD_OFF);
		assert_int_equal(res.got, 8192);
		assert_int_equal(verify_check(&job, blk, sizeof(blk), 8192, 6, &res),
				 VERIFY_BAD_GEN);
		why = verify_describe(&job, &res);
		assert_non_null(strstr(why, "write 5 (a lost write)"));
		free(why);
		assert_int_equal(verify_check(&job, blk, 2048, 8192, 5, &res), VERIFY_BAD_LEN);
		memcpy(copy, blk, sizeof(blk));
		copy[3000] ^= 1;
		assert_int_equal(verify_check(&job, copy, sizeof(copy), 8192, 5, &res),
				 kinds[k] == VERIFY_META ? VERIFY_OK : VERIFY_BAD_SUM);
		copy[3000] ^= 1;
		copy[20] ^= 1; /* in the header: the offset */
		assert_int_equal(verify_check(&job, copy, sizeof(copy), 8192, 5, &res),
				 VERIFY_BAD_HDR);
		copy[20] ^= 1;
		copy[0] ^= 1;
		assert_int_equal(verify_check(&job, copy, sizeof(copy), 8192, 5, &res),
				 VERIFY_BAD_MAGIC);
	}
	job.verify = VERIFY_CRC32C;
	verify_stamp(&job, blk, sizeof(blk), 0, 1);
	job.verify = VERIFY_MD5;
	assert_int_equal(verify_check(&job, blk, sizeof(blk), 0, 1, &res), VERIFY_BAD_KIND);

	/* pattern: the byte that differs, and %o's offset in each block. */
	job.verify = VERIFY_PATTERN;
	assert_int_equal(verify_pattern_parse("0xa5%o", &job.verify_pattern, NULL), 0);
	verify_stamp(&job, blk, sizeof(blk), 1 << 20, 0);
	assert_int_equal(blk[0], 0xa5);
	assert_int_equal(blk[3], 0x10); /* 1 MiB, little-endian, after the 0xa5 */
	assert_int_equal(blk[9], 0xa5);
	assert_int_equal(verify_check(&job, blk, sizeof(blk), 1 << 20, 0, &res), VERIFY_OK);
	assert_int_equal(verify_check(&job, blk, sizeof(blk), 0, 0, &res), VERIFY_BAD_PATTERN);
	assert_int_equal(res.at, 3);
	blk[4000] ^= 0xff; /* 4000 % 9: the offset's fourth byte, 0 */
	assert_int_equal(verify_check(&job, blk, sizeof(blk), 1 << 20, 0, &res),
			 VERIFY_BAD_PATTERN);
	assert_int_equal(res.at, 4000);
	why = verify_describe(&job, &res);
	assert_non_null(strstr(why, "at byte 4000 of the block: 0xff, expected 0x00"));
	free(why);
	job.verify = VERIFY_PATTERN_HDR;
	verify_stamp(&job, blk, sizeof(blk), 1 << 20, 9);
	assert_int_equal(verify_check(&job, blk, sizeof(blk), 1 << 20, 9, &res), VERIFY_OK);
	blk[100] ^= 0xff;
	assert_int_equal(verify_check(&job, blk, sizeof(blk), 1 << 20, 9, &res),
			 VERIFY_BAD_PATTERN);
	assert_int_equal(res.at, 100);
}

/* verify_interval and verify_offset: a header per chunk, where the
 * offset puts it; a bad byte named by its chunk; the buffer left as read;
 * the bytes after a header made again from its offset and generation. */
static void test_interval_offset(void **state)
{
	struct job job = { .verify = VERIFY_CRC32C, .verify_interval = 512, .verify_offset = 64 };
	struct verify_result res;
	uint8_t blk[4096], copy[4096], again[4096];
	uint32_t magic;
	size_t k;

	(void)state;
	verify_stamp(&job, blk, sizeof(blk), 1 << 20, 7);
	for (k = 0; k < 8; k++) {
		memcpy(&magic, blk + k * 512 + 64, 4);
		assert_int_equal(magic, VERIFY_MAGIC);
	}
	memcpy(copy, blk, sizeof(blk));
	assert_int_equal(verify_check(&job, copy, sizeof(copy), 1 << 20, 7, &res), VERIFY_OK);
	assert_memory_equal(copy, blk, sizeof(blk)); /* the swap undone */
	copy[3 * 512 + 300] ^= 1;
	assert_int_equal(verify_check(&job, copy, sizeof(copy), 1 << 20, 7, &res), VERIFY_BAD_SUM);
	assert_int_equal(res.chunk_at, 3 * 512);
	assert_int_equal(res.chunk, 512);
	assert_int_equal(res.gen, 7);
	verify_stamp(&job, again, sizeof(again), 1 << 20, res.gen);
	assert_memory_equal(again, blk, sizeof(blk));
	copy[3 * 512 + 300] ^= 1;
	copy[5 * 512 + 64] ^= 1; /* chunk 5's magic */
	assert_int_equal(verify_check(&job, copy, sizeof(copy), 1 << 20, 7, &res),
			 VERIFY_BAD_MAGIC);
	assert_int_equal(res.chunk_at, 5 * 512);
	/* Another offset reads no header where it looks. */
	job.verify_offset = 128;
	assert_int_equal(verify_check(&job, blk, sizeof(blk), 1 << 20, 7, &res), VERIFY_BAD_MAGIC);
}

static char *path(const char *name)
{
	return xasprintf("%s/%s", testrun_dir, name);
}

static void flip(const char *name, off_t at)
{
	char *p = path(name);
	int fd = open(p, O_RDWR);
	unsigned char c;

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, at), 1);
	c ^= 0x40;
	assert_int_equal(pwrite(fd, &c, 1, at), 1);
	close(fd);
	free(p);
}

/* Written with verify, then a byte flipped: a read job with the same
 * verify= names the file and the block's offset; every other block passes. */
static void test_corrupted_byte_found(void **state)
{
	static const char *const kinds[] = { "crc32c", "md5", "crc64", "xxhash", "pattern_hdr" };
	struct ran r;
	size_t k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		run_text(&r, NULL,
			 "[w]\nfilename=%s/vc\nsize=256k\nrw=randwrite\nbs=4k\nverify=%s\n"
			 "verify_pattern=0x1234\ndo_verify=0\n",
			 testrun_dir, kinds[k]);
		assert_int_equal(r.ret, 0);
		assert_null(r.run.results[0].error);
		assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 0);
		ran_free(&r);
		flip("vc", 12288 + 1000);
		run_text(&r, NULL,
			 "[r]\nfilename=%s/vc\nsize=256k\nrw=read\nbs=4k\nverify=%s\n"
			 "verify_pattern=0x1234\n",
			 testrun_dir, kinds[k]);
		/* As fio: the job ends at the block that fails. */
		assert_int_equal(r.ret, 0);
		assert_int_equal(r.run.results[0].stats.verified, 3);
		assert_int_equal(r.run.results[0].stats.verify_bad, 1);
		assert_int_equal(r.run.results[0].stats.dir[STAT_READ].ios, 4);
		assert_int_equal(r.run.results[0].error_no, EILSEQ);
		if (!strstr(r.run.results[0].error, "/vc: verify at offset 12288, size 4096: "))
			fail_msg("%s: %s", kinds[k], r.run.results[0].error);
		ran_free(&r);
	}
}

/* A block copied over another (a misdirected write), and a write the
 * "device" dropped: the first is named by the offset it was written for,
 * the second as stale, with the generations. */
static void test_misplaced_and_lost(void **state)
{
	char *p = path("vm"), blk[4096];
	struct ran r;
	int fd;

	(void)state;
	run_text(&r, NULL,
		 "[w]\nfilename=%s\nsize=64k\nrw=write\nbs=4k\nverify=crc32c\ndo_verify=0\n", p);
	assert_null(r.run.results[0].error);
	ran_free(&r);
	fd = open(p, O_RDWR);
	assert_int_equal(pread(fd, blk, sizeof(blk), 4096), 4096);
	assert_int_equal(pwrite(fd, blk, sizeof(blk), 32768), 4096);
	close(fd);
	run_text(&r, NULL, "[r]\nfilename=%s\nsize=64k\nrw=randread\nbs=4k\nverify=crc32c\n", p);
	if (!strstr(r.run.results[0].error, "verify at offset 32768, size 4096: the block was "
					    "written for offset 4096"))
		fail_msg("%s", r.run.results[0].error);
	ran_free(&r);

	/* Two passes of writes; the second write to 8192 is lost. */
	drop_at = 8192;
	drop_nth = 2;
	drop_seen = 0;
	/* thread: drop_seen counts this process's writes. */
	run_text(&r, NULL,
		 "[w]\nfilename=%s\nsize=64k\nrw=write\nbs=4k\nloops=2\nverify=crc32c\nthread\n",
		 p);
	drop_at = -1;
	assert_int_equal(drop_seen, 2);
	/* 16 read back after the first loop (as fio, after each), then the
	 * second pass ends the job at 8192. */
	assert_int_equal(r.run.results[0].stats.verified, 18);
	assert_int_equal(r.run.results[0].stats.verify_bad, 1);
	if (!strstr(r.run.results[0].error, "verify at offset 8192, size 4096: stale data: the "
					    "block is write 3 (a lost write), the last written "
					    "here was write 19"))
		fail_msg("%s", r.run.results[0].error);
	ran_free(&r);
	free(p);
}

/* verify_backlog: every write read back once (fio's t0005: read bytes ==
 * write bytes), in passes during the run; with an engine at depth. */
static void test_backlog(void **state)
{
	struct ran r;

	(void)state;
	run_text(&r, NULL,
		 "[b]\nfilename=%s/vb\nsize=1m\nrw=randwrite\nbs=4k\nverify=md5\n"
		 "verify_backlog=10\nioengine=%s\niodepth=8\n",
		 testrun_dir, engine_find("io_uring") ? "io_uring" : "psync");
	assert_int_equal(r.ret, 0);
	assert_null(r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.dir[STAT_WRITE].bytes, 1 << 20);
	assert_int_equal(r.run.results[0].stats.dir[STAT_READ].bytes, 1 << 20);
	assert_int_equal(r.run.results[0].stats.verified, 256);
	ran_free(&r);
}

/* A mismatch stops the job, verify_fatal or not, as fio's;
 * continue_on_error=verify counts them as errors passed over, lists the
 * first ten, and does not fail the job. */
static void test_fatal_and_continue(void **state)
{
	struct ran r;
	int i;

	(void)state;
	run_text(&r, NULL,
		 "[w]\nfilename=%s/vf\nsize=64k\nrw=write\nbs=4k\nverify=crc32\ndo_verify=0\n",
		 testrun_dir);
	ran_free(&r);
	for (i = 0; i < 4; i++)
		flip("vf", 4096 * (2 + 3 * i) + 100);
	run_text(&r, NULL,
		 "[r]\nfilename=%s/vf\nsize=64k\nrw=read\nbs=4k\nverify=crc32\nverify_fatal=1\n",
		 testrun_dir);
	assert_int_equal(r.run.results[0].stats.verify_bad, 1);
	assert_int_equal(r.run.results[0].stats.verified, 2);
	assert_non_null(strstr(r.run.results[0].error, "verify at offset 8192, size 4096: crc32 "
						       "mismatch"));
	ran_free(&r);
	run_text(&r, NULL, "[r]\nfilename=%s/vf\nsize=64k\nrw=read\nbs=4k\nverify=crc32\n",
		 testrun_dir);
	assert_int_equal(r.run.results[0].stats.verify_bad, 1);
	assert_int_equal(r.run.results[0].stats.verified, 2);
	assert_non_null(strstr(r.run.results[0].error, "verify at offset 8192, size 4096: crc32 "
						       "mismatch"));
	ran_free(&r);
	run_text(&r, NULL,
		 "[r]\nfilename=%s/vf\nsize=64k\nrw=read\nbs=4k\nverify=crc32\n"
		 "continue_on_error=verify\n",
		 testrun_dir);
	assert_null(r.run.results[0].error);
	assert_int_equal(r.run.results[0].stats.errors, 4);
	assert_int_equal(r.run.results[0].first_error_no, EILSEQ);
	if (!strstr(r.run.results[0].first_error,
		    "4 of 16 blocks read failed verify; the first: ") ||
	    !strstr(r.run.results[0].first_error, "; the next at offsets 20480, 32768, 45056"))
		fail_msg("%s", r.run.results[0].first_error);
	ran_free(&r);
}

/* Mixed sizes and a mixed job: what a later, larger block partly covered
 * is not checked (and said so); everything else is, with no false alarm. */
static void test_mixed_sizes(void **state)
{
	struct strbuf sb = { 0 };
	struct ran r;

	(void)state;
	run_text(&r, NULL,
		 "[m]\nfilename=%s/vx\nsize=1m\nrw=randrw\nbssplit=4k/50:12k/50\nnorandommap\n"
		 "io_size=4m\nverify=crc32c\n",
		 testrun_dir);
	assert_int_equal(r.ret, 0);
	assert_null(r.run.results[0].error);
	assert_true(r.run.results[0].stats.verified > 50);
	assert_true(r.run.results[0].stats.verify_skipped > 0);
	report_text(&r.run, &sb);
	if (!strstr(sb.buf, "mismatched, ") ||
	    !strstr(sb.buf, "partly overwritten by later blocks"))
		fail_msg("%s", sb.buf);
	strbuf_free(&sb);
	ran_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksums),
		cmocka_unit_test(test_pattern_parse),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_interval_offset),
		cmocka_unit_test(test_corrupted_byte_found),
		cmocka_unit_test(test_misplaced_and_lost),
		cmocka_unit_test(test_backlog),
		cmocka_unit_test(test_fatal_and_continue),
		cmocka_unit_test(test_mixed_sizes),
	};

	return cmocka_run_group_tests(tests, testrun_setup, testrun_teardown);
}
