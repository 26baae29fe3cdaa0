/* SPDX-License-Identifier: MIT */
/*
 * System utilization for SQLIO's -U and -Up: CPU time from /proc/stat and
 * interrupts from /proc/stat and /proc/interrupts, read before and after
 * a run, printed in SQLIO's table.  Linux has no DPC or "privileged" time
 * of its own; the mapping (see sysutil_table_of()) is:
 *   DPCTime        softirq
 *   InterruptTime  irq
 *   PrivilegedTime system + irq + softirq (Windows counts DPCs and
 *                  interrupts as privileged time)
 *   ProcessorTime  all but idle, iowait and steal (steal is time the
 *                  hypervisor took, not this machine's work)
 *   UserTime       user + nice
 * each as a percentage of the CPU's time in the interval, and
 * Interrupts/sec.
 */
#ifndef IOGAUGE_SYSUTIL_H
#define IOGAUGE_SYSUTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

enum sysutil_field {
	SU_USER,
	SU_NICE,
	SU_SYSTEM,
	SU_IDLE,
	SU_IOWAIT,
	SU_IRQ,
	SU_SOFTIRQ,
	SU_STEAL,
	SU_NR
};

struct sysutil_cpu {
	uint64_t t[SU_NR]; /* jiffies */
	uint64_t intr;	   /* interrupts */
};

struct sysutil_snap {
	struct sysutil_cpu all;
	struct sysutil_cpu *cpu; /* cpuN lines of /proc/stat, in order */
	unsigned nr_cpus;
};

#define SYSUTIL_ROWS 6 /* DPC, Interrupt, Privileged, Processor, User, Interrupts/sec */

/* Reads @proc_root/stat and @proc_root/interrupts.  0, or -errno (-EINVAL
 * for a line that cannot be read) with *cause naming the file. */
int sysutil_snap_read(struct sysutil_snap *s, const char *proc_root, char **cause);
void sysutil_snap_free(struct sysutil_snap *s);

/* The table from @a to @b over @seconds: SYSUTIL_ROWS rows of 1 + nr_cpus
 * values (ALL first), row-major, in a fresh array. */
double *sysutil_table_of(const struct sysutil_snap *a, const struct sysutil_snap *b,
			 double seconds);
/* Appends SQLIO's table: the ALL column, then @cols - 1 processors. */
void sysutil_table(const double *v, unsigned cols, unsigned stride, struct strbuf *out);

#endif
