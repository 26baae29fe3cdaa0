/* SPDX-License-Identifier: MIT */
/*
 * --idle-prof: how idle the CPUs stayed while the jobs ran, measured as
 * fio measures it.  One thread per configured CPU, pinned to it, times a
 * fixed unit of work (calibration), then drops to SCHED_IDLE and repeats
 * that unit until the run ends: the units done, times the unit's time,
 * over the time that passed, is the share of the CPU nothing else wanted.
 * Not a reporter: the figures are plain data for one.
 */
#ifndef IOGAUGE_IDLEPROF_H
#define IOGAUGE_IDLEPROF_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum idleprof_mode {
	IDLEPROF_NONE,
	IDLEPROF_CALIBRATE, /* calibrate only, print the unit's time, run nothing */
	IDLEPROF_SYSTEM,    /* the mean idleness of all CPUs */
	IDLEPROF_PERCPU,    /* ... and each CPU's */
};

/* What a reporter prints. */
struct idleprof_figures {
	enum idleprof_mode mode;
	unsigned nr_cpus;
	double system;	    /* % idle, the mean of cpu[] */
	double *cpu;	    /* % idle per CPU, nr_cpus of them */
	double unit_mean;   /* us, one unit of work, the mean over the CPUs */
	double unit_stddev; /* us, its sample standard deviation over the CPUs */
};

struct idleprof_cpu;

struct idleprof {
	struct idleprof_figures fig;
	struct idleprof_cpu *cpus;
	unsigned char *pages; /* one page a CPU, the bytes its unit of work writes */
	size_t page_size;
	unsigned nr_threads; /* threads created, to be joined */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready; /* threads calibrated, or failed */
	bool go;	/* released: to profile, or (quit) to end */
	bool quit;
	bool stopped;
	atomic_int stop; /* the profiling loops end */
};

/* The mode named @name (calibrate, system, percpu): 0, or -1. */
int idleprof_mode_of(const char *name, enum idleprof_mode *mode);

/*
 * Starts a thread per configured CPU, each pinned to its CPU, and waits
 * for their calibration: the unit of work's mean and standard deviation
 * are in ip->fig then.  With IDLEPROF_CALIBRATE the threads have ended
 * too.  0, or -errno with *cause naming the CPU when a thread could not
 * be made, pinned or given SCHED_IDLE (no thread is left then).
 */
int idleprof_init(struct idleprof *ip, enum idleprof_mode mode, char **cause);
/* The threads start counting: call as the jobs' I/O starts. */
void idleprof_start(struct idleprof *ip);
/* They stop, and ip->fig gets each CPU's idleness.  Once; safe unstarted. */
void idleprof_stop(struct idleprof *ip);
void idleprof_free(struct idleprof *ip);

#endif
