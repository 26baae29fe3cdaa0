/* SPDX-License-Identifier: MIT */
/*
 * verify=: what a written block carries and how a read one is checked.
 * With a checksum kind (md5, crc*), a block starts with a header: a magic
 * number, the kind, the block's length, its file offset, the write's
 * generation (its number in the clone that wrote it), the checksum of the
 * rest of the block, and a CRC-32C of the header itself.  meta is the
 * header alone; pattern is verify_pattern repeated over the whole block;
 * pattern_hdr is the pattern under a header.  Pure: no I/O, no allocation.
 */
#ifndef IOGAUGE_VERIFY_H
#define IOGAUGE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobfile/job.h"

#define VERIFY_MAGIC 0x5647494fu /* "OIGV" in memory order */

struct verify_hdr {
	uint32_t magic;
	uint8_t kind; /* enum verify_kind */
	uint8_t pad[3];
	uint32_t len;	  /* bytes: the block's length */
	uint32_t hdr_crc; /* CRC-32C of the header with this field zero */
	uint64_t off;	  /* bytes: where in the file the block was written */
	uint64_t gen;	  /* the write's number in its clone, from 1 */
	uint8_t sum[16];  /* the checksum of the bytes after the header */
};

/* What a check found wrong. */
enum verify_fault {
	VERIFY_OK,
	VERIFY_BAD_MAGIC,   /* no header: never written with verify, or overwritten */
	VERIFY_BAD_HDR,	    /* the header's own CRC does not match */
	VERIFY_BAD_KIND,    /* written with another verify= */
	VERIFY_BAD_LEN,	    /* written with another block size */
	VERIFY_BAD_OFF,	    /* the block belongs elsewhere in the file */
	VERIFY_BAD_GEN,	    /* an older (or another clone's) write: a lost write */
	VERIFY_BAD_SUM,	    /* the data does not match its checksum */
	VERIFY_BAD_PATTERN, /* a byte differs from verify_pattern */
};

struct verify_result {
	enum verify_fault fault;
	uint64_t want, got; /* what was expected and found (offset, gen, sum, byte, ...) */
	size_t at;	    /* bytes into the block: the first byte that differs (pattern) */
	size_t chunk_at;    /* bytes into the block: the chunk (verify_interval) at fault */
	size_t chunk;	    /* bytes: that chunk's length (the block's without an interval) */
	uint64_t gen;	    /* the generation the chunk's header says it was written with */
};

/* Whether @kind writes a header into each block. */
bool verify_has_header(enum verify_kind kind);
/* Whether @kind puts anything in the block at all (null does not). */
bool verify_writes_block(enum verify_kind kind);

/* The bytes each header covers in a block of @len: verify_interval, or
 * the whole block. */
size_t verify_chunk(const struct job *job, size_t len);
/* Makes the block at @buf of @len bytes, to be written at @off as write
 * number @gen: the pattern, or random bytes from @off and @gen, then per
 * chunk (verify_interval) a header with its checksums, placed at
 * verify_offset in the chunk. */
void verify_stamp(const struct job *job, void *buf, size_t len, uint64_t off, uint64_t gen);
/* Checks a block read from @off; @gen is the generation expected, or 0
 * when unknown (a read job checking a file written earlier).  The buffer
 * is left as it was read (verify_offset's swap is undone). */
enum verify_fault verify_check(const struct job *job, void *buf, size_t len, uint64_t off,
			       uint64_t gen, struct verify_result *res);
/* "crc32c mismatch: stored 0x..., computed 0x..." and the like. */
char *verify_describe(const struct job *job, const struct verify_result *res);

/* verify_pattern's value: 0x hex digits, "quoted" or 'quoted' text, decimal
 * numbers (as 32-bit little-endian, fio's), and %o (the block's offset, 8
 * bytes), one after another.  0, or -EINVAL with *cause set. */
int verify_pattern_parse(const char *s, struct verify_pattern *out, char **cause);

#endif
