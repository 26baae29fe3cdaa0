/* SPDX-License-Identifier: MIT */
/*
 * The checksums verify= can put in a block: CRC-32C (Castagnoli; SSE4.2's
 * instruction when the CPU has it), CRC-32 (IEEE, zlib's), CRC-64 (ECMA-182
 * reflected, xz's), CRC-16 (ARC), CRC-7 (MMC's), MD5, XXH32 (libxxhash's)
 * and the SHAs (Nettle's).  Pure
 * functions over memory; the tables are built on first use, thread-safely.
 */
#ifndef IOGAUGE_CHECKSUM_H
#define IOGAUGE_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/* Each takes the previous value to continue a running sum (0 to start). */
uint32_t checksum_crc32c(uint32_t crc, const void *p, size_t len);
uint32_t checksum_crc32(uint32_t crc, const void *p, size_t len);
uint64_t checksum_crc64(uint64_t crc, const void *p, size_t len);
uint16_t checksum_crc16(uint16_t crc, const void *p, size_t len);
/* CRC-7 (x^7 + x^3 + 1, not reflected, as fio's and MMC's), 7 bits. */
uint8_t checksum_crc7(uint8_t crc, const void *p, size_t len);
/* The SHAs verify= names (Nettle's): @which is 1, 256, 512, or 3224,
 * 3256, 3384, 3512 for SHA3-224 to SHA3-512; the digest's first @n bytes
 * (up to its length) into @out. */
void checksum_sha(unsigned which, const void *p, size_t len, uint8_t *out, size_t n);
/* XXH32 with seed 1, fio's verify=xxhash (libxxhash). */
uint32_t checksum_xxh32(const void *p, size_t len);
/* The 16-byte MD5 digest of @len bytes at @p. */
void checksum_md5(const void *p, size_t len, uint8_t out[16]);

#endif
