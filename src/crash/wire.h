/* SPDX-License-Identifier: MIT */
/*
 * What a writer and a remote witness say to each other over TCP, one
 * line at a time.  The writer's hello:
 *   "iogauge-witness 1 RUN BS SIZE VERIFY PROMISE\tMODE\tFILE\n"
 * (RUN in hex; the file's path and the mode after tabs, as they may hold
 * spaces); the witness answers "ok NEXT\n", or "no REASON\n" and hangs
 * up.  NEXT: the generation the writer starts from, past every one this
 * run has sent or handed out, its log's earlier sessions included, so
 * that each writer of a run stamps newer generations than the last.
 * Then a batch of "a OFFSET GEN\n" lines, and "s COUNT\n" after them: the
 * witness writes the batch into its log, syncs it, and answers "k COUNT\n";
 * only then are the batch's writes acknowledged.  Pure: parsing and
 * formatting, no I/O.
 */
#ifndef IOGAUGE_CRASH_WIRE_H
#define IOGAUGE_CRASH_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* The longest line either side sends or reads. */
#define WIRE_LINE_MAX 4352

struct wire_hello {
	uint64_t run, bs, size;
	char verify[32];
	char promise[8];
	char mode[64];
	char file[4096];
};

/* Parses the hello @line (without its newline).  0, or -EINVAL with a
 * static reason in *why. */
int wire_parse_hello(const char *line, struct wire_hello *h, const char **why);
/* The hello for @h into @buf of @cap bytes, with its newline: its length,
 * or 0 when it does not fit or a field holds a tab or a newline. */
size_t wire_format_hello(const struct wire_hello *h, char *buf, size_t cap);

enum wire_kind { WIRE_BAD, WIRE_ACK, WIRE_SYNC };

/* One line after the hello (without its newline): an ack (*a, *b: offset
 * and generation) or a sync (*a: the batch's count). */
enum wire_kind wire_parse_line(const char *line, uint64_t *a, uint64_t *b);

/* "a OFF GEN\n" into @p (room for 44 bytes): its length.  No stdio: the
 * writer's loop calls it. */
size_t wire_format_ack(char *p, uint64_t off, uint64_t gen);
/* "s COUNT\n" or "k COUNT\n" (@c is 's' or 'k') into @p (room for 24). */
size_t wire_format_count(char *p, char c, uint64_t n);

#endif
