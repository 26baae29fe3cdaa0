/* SPDX-License-Identifier: MIT */
/*
 * Disk stats: finds the whole disk under each file of a run through
 * /sys/dev/block/MAJ:MIN and reads its /proc/diskstats line before and
 * after the run.  It is not a reporter and not a sampler: nothing here
 * runs while I/O is timed, so stdio is fine.  A device-mapper or md
 * device is reported itself; unlike fio, its slaves are not aggregated.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "stats/diskstats.h"
#include "util/util.h"

/*
 * The device under @path: a block node's own, else its file system's.
 * A path not there yet (a file the run will create) takes its parent
 * directory's.  0 or -errno.
 */
static int path_dev(const char *path, dev_t *dev)
{
	struct stat st;
	char *dir, *slash;
	int ret = 0;

	if (!*path)
		return -ENOENT;
	if (stat(path, &st) == 0) {
		*dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		return 0;
	}
	if (errno != ENOENT)
		return -errno;
	dir = xstrdup(path);
	for (slash = dir + strlen(dir); slash > dir + 1 && slash[-1] == '/';)
		*--slash = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0'; /* "/x" -> "/", "a/b" -> "a" */
	if (stat(slash ? dir : ".", &st))
		ret = -errno;
	else
		*dev = st.st_dev;
	free(dir);
	return ret;
}

/* Reads a small sysfs file into @buf, NUL-terminated.  0 or -errno. */
static int read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		ret = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return ret;
}

/*
 * Names the whole disk holding @dev into @e.  /sys/dev/block/MAJ:MIN
 * links to .../block/DISK, or .../block/DISK/PART for a partition (which
 * has a "partition" file).  1 found, 0 not a block device, or -errno.
 */
static int whole_disk(dev_t dev, struct disk_entry *e)
{
	char link[48], buf[32], *real, *p;
	const char *name;
	int ret;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	real = realpath(link, NULL);
	if (!real)
		return errno == ENOENT ? 0 : -errno;
	p = xasprintf("%s/partition", real);
	if (access(p, F_OK) == 0)
		*strrchr(real, '/') = '\0';
	free(p);
	p = xasprintf("%s/dev", real);
	ret = read_small(p, buf, sizeof(buf));
	free(p);
	if (ret)
		goto out;
	ret = -EINVAL;
	if (sscanf(buf, "%u:%u", &e->major, &e->minor) != 2)
		goto out;
	name = strrchr(real, '/') + 1;
	ret = -ENAMETOOLONG;
	if (strlen(name) >= sizeof(e->name))
		goto out;
	strcpy(e->name, name);
	ret = 1;
out:
	free(real);
	return ret;
}

/* Parses one /proc/diskstats line, in the kernel's field order; false if it is short. */
static bool parse_line(const char *line, unsigned *maj, unsigned *min, struct disk_counters *c)
{
	uint64_t in_flight;

	return sscanf(line,
		      "%u %u %*s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		      " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		      maj, min, &c->ios[0], &c->merges[0], &c->sectors[0], &c->ticks[0], &c->ios[1],
		      &c->merges[1], &c->sectors[1], &c->ticks[1], &in_flight, &c->io_ticks,
		      &c->in_queue) == 13;
}

/*
 * Reads /proc/diskstats into the before or after counters of @n entries
 * (distinct devices); *@found counts the entries it had a line for.
 * 0 or -errno.
 */
static int diskstats_read(struct disk_entry *v, unsigned n, bool after, unsigned *found)
{
	struct disk_counters c;
	unsigned maj, min, i;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	*found = 0;
	f = fopen("/proc/diskstats", "re");
	if (!f)
		return -errno;
	errno = 0;
	while (getline(&line, &cap, f) >= 0) {
		if (!parse_line(line, &maj, &min, &c))
			continue;
		for (i = 0; i < n; i++) {
			if (v[i].major == maj && v[i].minor == min) {
				*(after ? &v[i].after : &v[i].before) = c;
				(*found)++;
				break;
			}
		}
		errno = 0;
	}
	if (ferror(f))
		ret = errno ? -errno : -EIO;
	free(line);
	fclose(f);
	return ret;
}

int disks_add_path(struct disk_set *ds, const char *path)
{
	struct disk_entry e = { 0 };
	unsigned i, found;
	dev_t dev;
	int ret;

	ret = path_dev(path, &dev);
	if (ret)
		return ret;
	ret = whole_disk(dev, &e);
	if (ret <= 0)
		return ret;
	for (i = 0; i < ds->n; i++)
		if (ds->v[i].major == e.major && ds->v[i].minor == e.minor)
			return 0;
	ret = diskstats_read(&e, 1, false, &found);
	if (ret || !found)
		return ret;
	ds->v = xrealloc(ds->v, (ds->n + 1) * sizeof(*ds->v));
	ds->v[ds->n++] = e;
	return 0;
}

int disks_snapshot(struct disk_set *ds, bool after)
{
	unsigned found;
	int ret;

	ret = diskstats_read(ds->v, ds->n, after, &found);
	if (!ret && found < ds->n)
		ret = -ENODEV;
	return ret;
}

/* Counters only grow; one that went backwards (a device re-created) gives 0. */
static uint64_t sub(uint64_t after, uint64_t before)
{
	return after > before ? after - before : 0;
}

void disks_delta(const struct disk_entry *e, uint64_t elapsed_ms, struct disk_counters *d,
		 double *util_pct)
{
	const struct disk_counters *a = &e->after, *b = &e->before;
	double util;
	unsigned i;

	for (i = 0; i < 2; i++) {
		d->ios[i] = sub(a->ios[i], b->ios[i]);
		d->merges[i] = sub(a->merges[i], b->merges[i]);
		d->sectors[i] = sub(a->sectors[i], b->sectors[i]);
		d->ticks[i] = sub(a->ticks[i], b->ticks[i]);
	}
	d->io_ticks = sub(a->io_ticks, b->io_ticks);
	d->in_queue = sub(a->in_queue, b->in_queue);
	util = elapsed_ms ? (double)d->io_ticks * 100.0 / (double)elapsed_ms : 0.0;
	*util_pct = util > 100.0 ? 100.0 : util;
}

void disks_free(struct disk_set *ds)
{
	free(ds->v);
	ds->v = NULL;
	ds->n = 0;
}
