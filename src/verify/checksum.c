/* SPDX-License-Identifier: MIT */
/*
 * Checksums for verify=.  The CRCs are the reflected, table-driven kind
 * (one table of 256 per polynomial, made once); CRC-32C uses the CPU's
 * crc32 instruction where there is one, 8 bytes at a time; CRC-7 (MMC's,
 * x^7 + x^3 + 1) goes the other way, a byte in at the top.  MD5 is RFC 1321.
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#include <xxhash.h>

#include "verify/checksum.h"

/* Reflected polynomials. */
#define POLY_CRC32C 0x82f63b78u
#define POLY_CRC32  0xedb88320u
#define POLY_CRC64  0xc96c5795d7870f42ull
#define POLY_CRC16  0xa001u

static uint64_t tab_crc32c[256], tab_crc32[256], tab_crc64[256], tab_crc16[256];
static uint8_t tab_crc7[256]; /* each byte times x^7, modulo CRC-7's polynomial */
static pthread_once_t tabs_once = PTHREAD_ONCE_INIT;

static void table(uint64_t *t, uint64_t poly)
{
	unsigned i, k;

	for (i = 0; i < 256; i++) {
		uint64_t c = i;

		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ poly : c >> 1;
		t[i] = c;
	}
}

/* CRC-7 is not reflected: the byte goes in at the top, x^7 + x^3 + 1
 * (0x89) is taken away from bit 14 down to bit 7. */
static void crc7_table(void)
{
	unsigned i, b;

	for (i = 0; i < 256; i++) {
		unsigned r = i << 7;

		for (b = 14; b >= 7; b--)
			if (r >> b & 1)
				r ^= 0x89u << (b - 7);
		tab_crc7[i] = (uint8_t)r;
	}
}

#if defined(__x86_64__)
static bool have_sse42;
#endif

static void tables(void)
{
#if defined(__x86_64__)
	have_sse42 = __builtin_cpu_supports("sse4.2");
#endif
	table(tab_crc32c, POLY_CRC32C);
	table(tab_crc32, POLY_CRC32);
	table(tab_crc64, POLY_CRC64);
	table(tab_crc16, POLY_CRC16);
	crc7_table();
}

/* The register as it runs (already inverted where the CRC inverts). */
static uint64_t crc_run(const uint64_t *t, uint64_t c, const uint8_t *p, size_t len)
{
	while (len--)
		c = t[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(uint32_t c, const uint8_t *p,
							    size_t len)
{
	uint64_t c64 = c;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c64 = __builtin_ia32_crc32di(c64, v);
	}
	c = (uint32_t)c64;
	while (len--)
		c = __builtin_ia32_crc32qi(c, *p++);
	return c;
}
#endif

uint32_t checksum_crc32c(uint32_t crc, const void *p, size_t len)
{
	pthread_once(&tabs_once, tables);
#if defined(__x86_64__)
	if (have_sse42)
		return ~crc32c_hw(~crc, p, len);
#endif
	return ~(uint32_t)crc_run(tab_crc32c, (uint32_t)~crc, p, len);
}

uint32_t checksum_crc32(uint32_t crc, const void *p, size_t len)
{
	pthread_once(&tabs_once, tables);
	return ~(uint32_t)crc_run(tab_crc32, (uint32_t)~crc, p, len);
}

uint64_t checksum_crc64(uint64_t crc, const void *p, size_t len)
{
	pthread_once(&tabs_once, tables);
	return ~crc_run(tab_crc64, ~crc, p, len);
}

uint16_t checksum_crc16(uint16_t crc, const void *p, size_t len)
{
	pthread_once(&tabs_once, tables);
	return (uint16_t)crc_run(tab_crc16, crc, p, len); /* ARC: no inversion */
}

/* ---- MD5 (RFC 1321) ---- */

static const uint32_t md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
	0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
	0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
	0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
	0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
	0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
	0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
	0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
	0xeb86d391,
};

static const uint8_t md5_r[64] = {
	7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 5,  9,	14, 20, 5,  9,
	14, 20, 5,  9,	14, 20, 5,  9,	14, 20, 4,  11, 16, 23, 4,  11, 16, 23, 4,  11, 16, 23,
	4,  11, 16, 23, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21,
};

static uint32_t rol32(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

static void md5_block(uint32_t h[4], const uint8_t *blk)
{
	uint32_t m[16], a = h[0], b = h[1], c = h[2], d = h[3];
	unsigned i;

	for (i = 0; i < 16; i++)
		m[i] = (uint32_t)blk[4 * i] | (uint32_t)blk[4 * i + 1] << 8 |
		       (uint32_t)blk[4 * i + 2] << 16 | (uint32_t)blk[4 * i + 3] << 24;
	for (i = 0; i < 64; i++) {
		uint32_t f, t;
		unsigned g;

		if (i < 16) {
			f = (b & c) | (~b & d);
			g = i;
		} else if (i < 32) {
			f = (d & b) | (~d & c);
			g = (5 * i + 1) % 16;
		} else if (i < 48) {
			f = b ^ c ^ d;
			g = (3 * i + 5) % 16;
		} else {
			f = c ^ (b | ~d);
			g = 7 * i % 16;
		}
		t = d;
		d = c;
		c = b;
		b = b + rol32(a + f + md5_k[i] + m[g], md5_r[i]);
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
}

void checksum_md5(const void *p, size_t len, uint8_t out[16])
{
	uint32_t h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	const uint8_t *s = p;
	uint64_t bits = (uint64_t)len * 8;
	uint8_t tail[128] = { 0 };
	size_t rest, n, i;

	for (; len >= 64; len -= 64, s += 64)
		md5_block(h, s);
	/* The tail, the 0x80, zeros, and the length in bits: one or two blocks. */
	rest = len;
	memcpy(tail, s, rest);
	tail[rest] = 0x80;
	n = rest < 56 ? 64 : 128;
	for (i = 0; i < 8; i++)
		tail[n - 8 + i] = (uint8_t)(bits >> (8 * i));
	for (i = 0; i < n; i += 64)
		md5_block(h, tail + i);
	for (i = 0; i < 16; i++)
		out[i] = (uint8_t)(h[i / 4] >> (8 * (i % 4)));
}

uint8_t checksum_crc7(uint8_t crc, const void *p, size_t len)
{
	const uint8_t *b = p;

	pthread_once(&tabs_once, tables);
	while (len--)
		crc = tab_crc7[(uint8_t)(crc << 1) ^ *b++];
	return crc;
}

uint32_t checksum_xxh32(const void *p, size_t len)
{
	return XXH32(p, len, 1);
}

void checksum_sha(unsigned which, const void *p, size_t len, uint8_t *out, size_t n)
{
	uint8_t d[SHA512_DIGEST_SIZE];
	size_t dn;

	switch (which) {
	case 1: {
		struct sha1_ctx c;

		sha1_init(&c);
		sha1_update(&c, len, p);
		sha1_digest(&c, dn = SHA1_DIGEST_SIZE, d);
		break;
	}
	case 256: {
		struct sha256_ctx c;

		sha256_init(&c);
		sha256_update(&c, len, p);
		sha256_digest(&c, dn = SHA256_DIGEST_SIZE, d);
		break;
	}
	case 512: {
		struct sha512_ctx c;

		sha512_init(&c);
		sha512_update(&c, len, p);
		sha512_digest(&c, dn = SHA512_DIGEST_SIZE, d);
		break;
	}
	case 3224: {
		struct sha3_224_ctx c;

		sha3_224_init(&c);
		sha3_224_update(&c, len, p);
		sha3_224_digest(&c, dn = SHA3_224_DIGEST_SIZE, d);
		break;
	}
	case 3256: {
		struct sha3_256_ctx c;

		sha3_256_init(&c);
		sha3_256_update(&c, len, p);
		sha3_256_digest(&c, dn = SHA3_256_DIGEST_SIZE, d);
		break;
	}
	case 3384: {
		struct sha3_384_ctx c;

		sha3_384_init(&c);
		sha3_384_update(&c, len, p);
		sha3_384_digest(&c, dn = SHA3_384_DIGEST_SIZE, d);
		break;
	}
	default: {
		struct sha3_512_ctx c;

		sha3_512_init(&c);
		sha3_512_update(&c, len, p);
		sha3_512_digest(&c, dn = SHA3_512_DIGEST_SIZE, d);
		break;
	}
	}
	memcpy(out, d, n < dn ? n : dn);
}
