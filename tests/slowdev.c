/* SPDX-License-Identifier: MIT */
/*
 * slowdev: a FUSE file system of one file, /img, whose every read takes a
 * fixed service time on one of a fixed number of slots: a device whose
 * capacity (slots / service time) and knee (depth = slots) are known, for
 * the sweep and slo tests (a loop device with direct I/O over /img).  Not
 * a benchmark and not part of iogauge: a test fixture.
 *
 * usage: slowdev MOUNTPOINT SIZE_MIB SERVICE_US SLOTS [fuse options]
 *
 * Reads return zeros and take SERVICE_US on average (0.5 to 1.5 times
 * it) on a slot, at most SLOTS at once; writes are refused (EROFS).  At unmount it prints to stderr
 * "slowdev: N reads, at most M at once", the count a test
 * checks the tool's against.
 */
#define _GNU_SOURCE
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fuse.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>

/* The slots keep their own time: a read takes the slot free soonest and
 * ends its service time after the later of its arrival and that slot's
 * last end.  A read waiting for a slot so starts the moment the slot
 * frees, whenever its thread wakes: the capacity is exactly slots / mean
 * service time, not less by each thread's wake-up delay.  Each service
 * time is drawn evenly from 0.5 to 1.5 times SERVICE_US: with one fixed
 * time, slots that start together end together, for ever after (a
 * queue's reads all arrive at once), and their bursts of completions at
 * a window's edges put the rate measured off by slots per window. */
#define SLOTS_MAX 1024

static struct {
	off_t size;	     /* bytes */
	uint64_t service_ns; /* per read */
	unsigned nslots;
	pthread_mutex_t mu;	     /* all below */
	uint64_t free_at[SLOTS_MAX]; /* ns, CLOCK_MONOTONIC: each slot's last end */
	unsigned long reads;	     /* served */
	unsigned busy, most;	     /* reads in the server now, the most at once */
	uint64_t rng;		     /* xorshift64 state: the service times */
} dev;

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void *dev_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	/* Async direct I/O goes out as background requests: let a deep
	 * queue reach the slots rather than the kernel's 12. */
	conn->max_background = 128;
	conn->congestion_threshold = 96;
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->attr_timeout = 3600;
	cfg->entry_timeout = 3600;
	return NULL;
}

static int dev_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/img"))
		return -ENOENT;
	st->st_mode = S_IFREG | 0444;
	st->st_nlink = 1;
	st->st_size = dev.size;
	return 0;
}

static int dev_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/img"))
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EROFS;
	fi->direct_io = 1;
	return 0;
}

static int dev_read(const char *path, char *buf, size_t len, off_t off, struct fuse_file_info *fi)
{
	uint64_t now = now_ns(), end;
	unsigned i, best = 0;
	struct timespec until;

	(void)path;
	(void)fi;
	if (off >= dev.size)
		return 0;
	if ((off_t)len > dev.size - off)
		len = (size_t)(dev.size - off);
	pthread_mutex_lock(&dev.mu);
	for (i = 1; i < dev.nslots; i++)
		if (dev.free_at[i] < dev.free_at[best])
			best = i;
	dev.rng ^= dev.rng << 13;
	dev.rng ^= dev.rng >> 7;
	dev.rng ^= dev.rng << 17;
	end = (dev.free_at[best] > now ? dev.free_at[best] : now) + dev.service_ns / 2 +
	      (dev.rng >> 11) % (dev.service_ns + 1);
	dev.free_at[best] = end;
	if (++dev.busy > dev.most)
		dev.most = dev.busy;
	pthread_mutex_unlock(&dev.mu);
	until.tv_sec = (time_t)(end / 1000000000ull);
	until.tv_nsec = (long)(end % 1000000000ull);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
	memset(buf, 0, len);
	pthread_mutex_lock(&dev.mu);
	dev.busy--;
	dev.reads++;
	pthread_mutex_unlock(&dev.mu);
	return (int)len;
}

static void dev_destroy(void *p)
{
	(void)p;
	fprintf(stderr, "slowdev: %lu reads, at most %u at once\n", dev.reads, dev.most);
}

static const struct fuse_operations ops = {
	.init = dev_init,
	.getattr = dev_getattr,
	.open = dev_open,
	.read = dev_read,
	.destroy = dev_destroy,
};

int main(int argc, char **argv)
{
	static char opt_f[] = "-f", opt_o[] = "-o",
		    opt_threads[] = "max_threads=256,max_idle_threads=256";
	char *fargv[64];
	int fargc = 0, i;
	long mib, us, slots;

	if (argc < 5 || argc > 50) {
		fprintf(stderr,
			"usage: slowdev MOUNTPOINT SIZE_MIB SERVICE_US SLOTS [fuse options]\n");
		return 2;
	}
	mib = strtol(argv[2], NULL, 10);
	us = strtol(argv[3], NULL, 10);
	slots = strtol(argv[4], NULL, 10);
	if (mib < 1 || mib > 4096 || us < 1 || us > 10000000 || slots < 1 || slots > SLOTS_MAX) {
		fprintf(stderr,
			"slowdev: SIZE_MIB 1..4096, SERVICE_US 1..10000000, SLOTS 1..1024\n");
		return 2;
	}
	/* Sleeps that end when asked, not up to 50 us later; and, as a
	 * device's own hardware is, out of the reach of the machine's other
	 * work: its threads (which inherit this) run before ordinary ones. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	{
		struct sched_param sp = { .sched_priority = 10 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
			fprintf(stderr, "slowdev: no SCHED_FIFO (%s): timed as any process\n",
				strerror(errno));
	}
	dev.size = (off_t)mib << 20;
	dev.service_ns = (uint64_t)us * 1000;
	dev.nslots = (unsigned)slots;
	dev.rng = 0x9e3779b97f4a7c15ull;
	pthread_mutex_init(&dev.mu, NULL);
	/* Foreground, and threads enough for every slot and then some. */
	fargv[fargc++] = argv[0];
	fargv[fargc++] = opt_f;
	fargv[fargc++] = opt_o;
	fargv[fargc++] = opt_threads;
	for (i = 5; i < argc; i++)
		fargv[fargc++] = argv[i];
	fargv[fargc++] = argv[1];
	fargv[fargc] = NULL;
	return fuse_main(fargc, fargv, &ops, NULL);
}
