/* SPDX-License-Identifier: MIT */
/* --crctest's measurements (see crctest.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/runclock.h"
#include "verify/checksum.h"
#include "verify/crctest.h"
#include "workload/rand.h"

#define CRCTEST_CHUNK  131072u /* bytes, fio's CHUNK */
#define CRCTEST_CHUNKS 2048u   /* passes, fio's NR_CHUNKS */

static void run_md5(const void *p, size_t len)
{
	uint8_t out[16];

	checksum_md5(p, len, out);
}

/* The results go to a volatile, so the sums are not optimised away. */
static volatile uint64_t sink;

static void run_crc64(const void *p, size_t len)
{
	sink = checksum_crc64(0, p, len);
}

static void run_crc32(const void *p, size_t len)
{
	sink = checksum_crc32(0, p, len);
}

static void run_crc32c(const void *p, size_t len)
{
	sink = checksum_crc32c(0, p, len);
}

static void run_crc16(const void *p, size_t len)
{
	sink = checksum_crc16(0, p, len);
}

static void run_crc7(const void *p, size_t len)
{
	sink = checksum_crc7(0, p, len);
}

static void run_xxhash(const void *p, size_t len)
{
	sink = checksum_xxh32(p, len);
}

/* The SHAs: the whole digest, as fio's tests take it. */
static void run_sha(unsigned which, const void *p, size_t len)
{
	uint8_t out[64];

	checksum_sha(which, p, len, out, sizeof(out));
}

static void run_sha1(const void *p, size_t len)
{
	run_sha(1, p, len);
}

static void run_sha256(const void *p, size_t len)
{
	run_sha(256, p, len);
}

static void run_sha512(const void *p, size_t len)
{
	run_sha(512, p, len);
}

static void run_sha3_224(const void *p, size_t len)
{
	run_sha(3224, p, len);
}

static void run_sha3_256(const void *p, size_t len)
{
	run_sha(3256, p, len);
}

static void run_sha3_384(const void *p, size_t len)
{
	run_sha(3384, p, len);
}

static void run_sha3_512(const void *p, size_t len)
{
	run_sha(3512, p, len);
}

static const struct {
	const char *name;
	void (*fn)(const void *p, size_t len);
} tests[] = {
	{ "md5", run_md5 },	      { "crc64", run_crc64 },	    { "crc32", run_crc32 },
	{ "crc32c", run_crc32c },     { "crc16", run_crc16 },	    { "crc7", run_crc7 },
	{ "sha1", run_sha1 },	      { "sha256", run_sha256 },	    { "sha512", run_sha512 },
	{ "xxhash", run_xxhash },     { "sha3-224", run_sha3_224 }, { "sha3-256", run_sha3_256 },
	{ "sha3-384", run_sha3_384 }, { "sha3-512", run_sha3_512 },
};

static uint8_t *buf;

const char *crctest_name(unsigned i)
{
	return i < sizeof(tests) / sizeof(tests[0]) ? tests[i].name : NULL;
}

int crctest_find(const char *name)
{
	unsigned i;

	for (i = 0; crctest_name(i); i++)
		if (!strcmp(name, tests[i].name))
			return (int)i;
	return -1;
}

void crctest_done(void)
{
	free(buf);
	buf = NULL;
}

double crctest_run(unsigned i)
{
	uint64_t t0, ns;
	unsigned k;

	if (!buf) {
		struct rng r;

		buf = malloc(CRCTEST_CHUNK);
		if (!buf)
			return -1;
		rng_seed(&r, 0x8989);
		for (k = 0; k < CRCTEST_CHUNK; k += 8) {
			uint64_t v = rng_next(&r);

			memcpy(buf + k, &v, 8);
		}
		/* As fio: the first one measured after a pass that warms it up. */
		tests[i].fn(buf, CRCTEST_CHUNK);
	}
	t0 = run_now();
	for (k = 0; k < CRCTEST_CHUNKS; k++)
		tests[i].fn(buf, CRCTEST_CHUNK);
	ns = run_now() - t0;
	if (ns < 1000)
		return 0;
	/* fio: MiB per us over 1.024 squared, i.e. MiB/s. */
	return (double)CRCTEST_CHUNK * CRCTEST_CHUNKS / ((double)ns / 1000) / (1.024 * 1.024);
}
