/* SPDX-License-Identifier: MIT */
/*
 * Scalar value parsers with fio's meaning: sizes with k/m/g/t/p suffixes
 * under kb_base, times with a per-option default unit, booleans, plain
 * integers and two-sided ranges.  Pure functions: no I/O, no globals.
 *
 * Every parser returns 0 on success, or -EINVAL with *cause set to a
 * malloc'd message that names the problem and what would be valid.
 */
#ifndef IOGAUGE_UNITS_H
#define IOGAUGE_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#define NSEC_PER_USEC 1000ull
#define NSEC_PER_MSEC 1000000ull
#define NSEC_PER_SEC  1000000000ull

/*
 * A size: "4k", "1.5m", "0x1000", "64KiB".  With kb_base=1024 (fio's
 * default) k/kb mean 1024 and kib means 1000; kb_base=1000 swaps them.
 * "%" is accepted only when @pct is non-NULL: then *pct is set and *out
 * holds the percentage (1..100); "0%" is a plain 0, as in fio.
 */
int units_parse_size(const char *s, unsigned kb_base, uint64_t *out, bool *pct, char **cause);

/* The longest time: 2^62 ns, about 146 years. */
#define UNITS_TIME_MAX (1ull << 62)

/* A time: "10", "1.5s", "500ms", "2m" (minutes), "1h", "1d"; a bare number
 * is in @unit_ns.  *out is in nanoseconds, at most UNITS_TIME_MAX. */
int units_parse_time(const char *s, uint64_t unit_ns, uint64_t *out, char **cause);

/* 0/1, true/false, yes/no, on/off (case-insensitive). */
int units_parse_bool(const char *s, bool *out, char **cause);

/* A plain unsigned integer, decimal or 0x hex, no suffix. */
int units_parse_uint(const char *s, uint64_t *out, char **cause);

/* A float such as "99.9". */
int units_parse_double(const char *s, double *out, char **cause);

/* Splits "LO-HI" or "LO:HI" at the separator; a single value gives lo == hi.
 * Returns the length of the low half, or -1 when there is no separator. */
long units_range_split(const char *s);

/* Prints @ns as the largest exact unit ("60s", "1500ms", "250us", "7ns"). */
void units_format_time(uint64_t ns, char *buf, unsigned len);

#endif
