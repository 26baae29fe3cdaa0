/* SPDX-License-Identifier: MIT */
/*
 * What pts asks of its device beyond devsafe.c's rules for a plain run:
 * a whole device, not a partition of one (its siblings may be mounted,
 * the disk's table is another's), with nothing built on it at all (a
 * loop device stacked on it carries no mount or signature devsafe.c sees,
 * yet its data is someone's), and writable.  Reads sysfs only.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "files/devtree.h"
#include "pts/pts.h"
#include "util/util.h"

/* The kernel's name of the disk whose partition is @rdev, from sysfs's
 * path (.../block/DISK/PART), into @buf; false when it is no partition. */
static bool partition_of(const char *sys, dev_t rdev, char *buf, size_t len)
{
	char link[PATH_MAX], *real, *slash;
	struct stat st;
	bool part;

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u/partition", sys, major(rdev), minor(rdev));
	part = !stat(link, &st);
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u/..", sys, major(rdev), minor(rdev));
	real = part ? realpath(link, NULL) : NULL;
	slash = real ? strrchr(real, '/') : NULL;
	util_copy_cut(buf, len, slash ? slash + 1 : "its disk");
	free(real);
	return part;
}

/* A loop device whose backing file cannot be looked at (its node was
 * removed: "(deleted)", or it lives in another mount namespace) may be
 * built on any device: its name into @buf, true.  PTS then refuses to
 * guess. */
static bool loop_unknown(const char *sys, char *buf, size_t len)
{
	char *bdir = xasprintf("%s/block", sys), line[PATH_MAX + 16];
	DIR *d = opendir(bdir);
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		char *p = xasprintf("%s/%s/loop/backing_file", bdir, e->d_name);
		FILE *f = strncmp(e->d_name, "loop", 4) ? NULL : fopen(p, "re");
		struct stat st;

		if (f && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (stat(line, &st) < 0) {
				char *name = xasprintf("/dev/%s (backing %s)", e->d_name, line);

				util_copy_cut(buf, len, name);
				free(name);
				found = true;
			}
		}
		if (f)
			fclose(f);
		free(p);
	}
	if (d)
		closedir(d);
	free(bdir);
	return found;
}

int pts_device_whole(const char *sys, const char *path, dev_t rdev, char **cause)
{
	struct devtree t;
	char disk[PATH_MAX + 64], *chain;
	int ret = 0;

	if (partition_of(sys, rdev, disk, sizeof(disk)))
		return set_cause(cause,
				 "%s is a partition of /dev/%s: PTS runs only on a whole device; "
				 "nothing was written",
				 path, disk);
	if (loop_unknown(sys, disk, sizeof(disk)))
		return set_cause(cause,
				 "%s may be in use: %s cannot be looked at, so what it is built "
				 "on cannot be told (detach it, or run on another machine); "
				 "nothing was written",
				 path, disk);
	devtree_build(sys, rdev, &t);
	if (t.n > 1) {
		/* devsafe.c refused holders, mounts and signatures already:
		 * what is left is a loop device or an empty partition. */
		chain = devtree_chain(&t, 1);
		ret = set_cause(cause,
				"%s is in use: %s: PTS would destroy what is on it; nothing was "
				"written",
				path, chain);
		free(chain);
	}
	devtree_free(&t);
	return ret;
}
