/* SPDX-License-Identifier: MIT */
/*
 * Whether a block device is safe to write: not mounted (nor any of its
 * partitions), not swap, not held by a device-mapper or md device, and
 * carrying no filesystem, swap, volume or partition-table signature.
 * Reads /proc and /sys and the device's first 68 KiB; writes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "files/devsafe.h"
#include "util/util.h"

/* Known signatures: what is at an offset of a device that holds data. */
static const struct {
	unsigned off;
	const char *magic;
	unsigned len;
	const char *what;
} sigs[] = {
	{ 1080, "\x53\xef", 2, "an ext2/3/4 filesystem" },
	{ 0, "XFSB", 4, "an XFS filesystem" },
	{ 65600, "_BHRfS_M", 8, "a btrfs filesystem" },
	{ 4086, "SWAPSPACE2", 10, "swap space" },
	{ 4086, "SWAP-SPACE", 10, "swap space" },
	{ 512, "LABELONE", 8, "an LVM physical volume" },
	{ 0, "LUKS\xba\xbe", 6, "a LUKS encrypted volume" },
	{ 512, "EFI PART", 8, "a GPT partition table" },
	{ 3, "NTFS    ", 8, "an NTFS filesystem" },
	{ 1024, "\x10\x20\xf5\xf2", 4, "an F2FS filesystem" },
	{ 0, "hsqs", 4, "a squashfs filesystem" },
	{ 32769, "CD001", 5, "an ISO 9660 filesystem" },
	{ 510, "\x55\xaa", 2, "a partition table or boot sector (0x55AA)" },
};

#define SIG_SPAN (68u << 10)

/* The parent device of partition @dev, or @dev itself when it is whole. */
static dev_t whole_of(dev_t dev)
{
	char path[96], buf[32];
	unsigned ma, mi;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", major(dev), minor(dev));
	if (access(path, F_OK))
		return dev;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../dev", major(dev), minor(dev));
	f = fopen(path, "r");
	if (!f)
		return dev;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%u:%u", &ma, &mi) != 2) {
		fclose(f);
		return dev;
	}
	fclose(f);
	return makedev(ma, mi);
}

/* Whether @dev is @target or one of its partitions. */
static bool part_of(dev_t dev, dev_t target)
{
	return dev == target || whole_of(dev) == target;
}

static int mounted(const char *path, dev_t target, char **cause)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], where[1024];
	unsigned ma, mi;
	int ret = 0;

	if (!f)
		return 0; /* no /proc: nothing to say */
	while (!ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &ma, &mi, where) == 3 &&
		    part_of(makedev(ma, mi), target))
			ret = set_cause(cause, "%s%s is mounted on %s", path,
					makedev(ma, mi) == target ? "" : " (a partition of it)",
					where);
	fclose(f);
	return ret;
}

static int swapped(const char *path, dev_t target, char **cause)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[4096], name[1024];
	struct stat st;
	int ret = 0;

	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "%1023s", name) == 1 && !stat(name, &st) && S_ISBLK(st.st_mode) &&
		    part_of(st.st_rdev, target))
			ret = set_cause(cause, "%s is in use as swap (%s)", path, name);
	fclose(f);
	return ret;
}

/* A device-mapper, md or other device built on the device at /sys
 * folder @sys: its holders. */
static int holders(const char *path, const char *sys, char **cause)
{
	char *dir = xasprintf("%s/holders", sys);
	struct dirent *e;
	DIR *d = opendir(dir);
	int ret = 0;

	free(dir);
	if (!d)
		return 0;
	while (!ret && (e = readdir(d)))
		if (e->d_name[0] != '.')
			ret = set_cause(cause, "%s is in use by %s (a device built on it)", path,
					e->d_name);
	closedir(d);
	return ret;
}

/* ... on the device or on any of its partitions (sub-folders with a
 * "partition" file). */
static int held(const char *path, dev_t dev, char **cause)
{
	char *sys = xasprintf("/sys/dev/block/%u:%u", major(dev), minor(dev)), *part;
	struct dirent *e;
	DIR *d;
	int ret = holders(path, sys, cause);

	d = ret ? NULL : opendir(sys);
	while (d && !ret && (e = readdir(d))) {
		part = xasprintf("%s/%s/partition", sys, e->d_name);
		if (e->d_name[0] != '.' && !access(part, F_OK)) {
			free(part);
			part = xasprintf("%s/%s", sys, e->d_name);
			ret = holders(path, part, cause);
		}
		free(part);
	}
	if (d)
		closedir(d);
	free(sys);
	return ret;
}

static int signature(const char *path, char **cause)
{
	char *buf = xcalloc(1, SIG_SPAN);
	ssize_t n = 0, r;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;
	size_t i;

	if (fd < 0) {
		free(buf);
		return 0; /* the open for the job reports it */
	}
	while (n < (ssize_t)SIG_SPAN && (r = pread(fd, buf + n, SIG_SPAN - (size_t)n, n)) > 0)
		n += r;
	close(fd);
	for (i = 0; i < ARRAY_SIZE(sigs) && !ret; i++)
		if (sigs[i].off + sigs[i].len <= (size_t)n &&
		    !memcmp(buf + sigs[i].off, sigs[i].magic, sigs[i].len))
			ret = set_cause(cause, "%s carries %s (its signature at byte %u)", path,
					sigs[i].what, sigs[i].off);
	free(buf);
	return ret;
}

int devsafe_check(const char *path, dev_t rdev, char **cause)
{
	int ret = mounted(path, rdev, cause);

	if (!ret)
		ret = swapped(path, rdev, cause);
	if (!ret)
		ret = held(path, rdev, cause);
	if (!ret)
		ret = signature(path, cause);
	if (ret) {
		char *inner = *cause;

		*cause = xasprintf("%s: writing would destroy it; set allow_mounted_write=1 to "
				   "write anyway",
				   inner);
		free(inner);
	}
	return ret;
}
