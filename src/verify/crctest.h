/* SPDX-License-Identifier: MIT */
/*
 * --crctest: the speed of each checksum verify= can use, measured as
 * fio's --crctest measures it, in fio's order (2048 passes over one 128 KiB buffer of
 * random bytes).  Nothing here prints: main.c does.
 */
#ifndef IOGAUGE_CRCTEST_H
#define IOGAUGE_CRCTEST_H

/* The checksums, in fio's --crctest order; NULL after the last. */
const char *crctest_name(unsigned i);
/* The index of @name, or -1 when it is none of them. */
int crctest_find(const char *name);
/*
 * Runs checksum @i over the buffer (made and warmed on the first call)
 * and returns MiB/s as fio computes it, or 0 when it took no measurable
 * time.  -1 when the buffer cannot be made.
 */
double crctest_run(unsigned i);
/* Frees the buffer. */
void crctest_done(void);

#endif
