/* SPDX-License-Identifier: MIT */
/*
 * Whether a block device is safe to write.  The device and everything
 * built on it (devtree.h: partitions, holders, loop devices on it or on a
 * region of it, and so on down) must be unmounted, not swap, not held and
 * not open exclusively; and none may carry a signature libblkid knows
 * (filesystems, swap, RAID, crypto, partition tables).  Only reads.
 */
#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "files/devsafe.h"
#include "files/devtree.h"
#include "util/util.h"

#define PROBE_SIGNATURE 4 /* the last probe: what is on, not what uses */

/* What one check found on node @i: a message without the device's name. */
typedef char *devsafe_probe_fn(const struct devtree *t, unsigned i, const char *node);

/* Where node @i is mounted (mountinfo's major:minor), or NULL. */
static char *probe_mounted(const struct devtree *t, unsigned i, const char *node)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], where[1024];
	unsigned ma, mi;
	char *found = NULL;

	(void)node;
	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &ma, &mi, where) == 3 &&
		    makedev(ma, mi) == t->v[i].dev)
			found = xasprintf("is mounted on %s", where);
	if (f)
		fclose(f);
	return found;
}

static char *probe_swap(const struct devtree *t, unsigned i, const char *node)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[4096], name[1024];
	struct stat st;
	char *found = NULL;

	(void)node;
	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%1023s", name) == 1 && !stat(name, &st) && S_ISBLK(st.st_mode) &&
		    st.st_rdev == t->v[i].dev)
			found = xasprintf("is in use as swap (%s)", name);
	if (f)
		fclose(f);
	return found;
}

/* A holder holds its parent: the chain to it says what and on what. */
static char *probe_holder(const struct devtree *t, unsigned i, const char *node)
{
	(void)node;
	return t->v[i].rel == DEVTREE_HOLDER ? xstrdup("") : NULL;
}

/* An exclusive opener that /proc and /sys do not show (a btrfs mount, a
 * program's O_EXCL): the open with O_EXCL fails with EBUSY. */
static char *probe_exclusive(const struct devtree *t, unsigned i, const char *node)
{
	int fd;

	(void)t;
	(void)i;
	if (!node)
		return NULL;
	fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		close(fd);
		return NULL;
	}
	return errno == EBUSY ? xstrdup("is open exclusively by something else (an O_EXCL open: "
					"Device or resource busy)")
			      : NULL;
}

/* What blkid's probe result is, in words. */
static const char *sig_words(const char *usage, const char *type)
{
	if (!strcmp(type, "swap"))
		return "swap space";
	if (!usage)
		return "a partition table";
	if (!strcmp(usage, "filesystem"))
		return "a filesystem";
	if (!strcmp(usage, "raid"))
		return "a RAID member";
	if (!strcmp(usage, "crypto"))
		return "an encrypted volume";
	return "a signature";
}

/* The first signature of a superblock or partition table on @node, as
 * wipefs finds them (damaged checksums count), or NULL for none. */
static char *probe_signature(const struct devtree *t, unsigned i, const char *node)
{
	const char *type = NULL, *usage = NULL, *off = NULL, *key = "TYPE";
	blkid_probe pr;
	char *found = NULL;
	int r;

	(void)t;
	(void)i;
	if (!node)
		return NULL;
	pr = blkid_new_probe_from_filename(node);
	if (!pr)
		return xasprintf("could not be read for signatures (blkid: %s)", strerror(errno));
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
						      BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
	r = blkid_do_probe(pr);
	if (r < 0) {
		found = xstrdup("could not be probed for signatures (blkid failed)");
	} else if (r == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL)) {
			key = "PTTYPE";
			blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL);
			blkid_probe_lookup_value(pr, "PTMAGIC_OFFSET", &off, NULL);
		} else {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			blkid_probe_lookup_value(pr, "SBMAGIC_OFFSET", &off, NULL);
			if (!usage)
				usage = "other";
		}
		if (!type)
			type = "?";
		found = xasprintf("carries %s (blkid: %s=%s, its signature at byte %s)",
				  sig_words(usage, type), key, type, off ? off : "?");
	}
	blkid_free_probe(pr);
	return found;
}

/* The path to open node @i by: @path for node 0, else /dev/NAME when that
 * is the device (NULL when it is not there: not probed). */
static const char *node_path(const struct devtree *t, unsigned i, const char *path, char *buf,
			     size_t len)
{
	struct stat st;

	if (!i)
		return path;
	devtree_path(t, i, buf, len);
	return !stat(buf, &st) && S_ISBLK(st.st_mode) && st.st_rdev == t->v[i].dev ? buf : NULL;
}

/* The message for @what found on node @i of the tree of @path: by probe
 * @p, in use, or (the signatures) carrying data. */
static char *refusal(const struct devtree *t, unsigned i, const char *path, unsigned p,
		     const char *what)
{
	char *chain, *msg, me[96];

	if (!i)
		return xasprintf("%s %s", path, what);
	chain = devtree_chain(t, i);
	if (t->v[i].rel == DEVTREE_HOLDER && !what[0])
		msg = xasprintf("%s is held: %s", path, chain);
	else
		msg = xasprintf("%s %s: %s; %s %s", path,
				p == PROBE_SIGNATURE ? "holds data" : "is in use", chain,
				devtree_path(t, i, me, sizeof(me)), what);
	free(chain);
	return msg;
}

/* The first thing found, probe by probe over every node (the most telling
 * first: what uses the device, then what is on it), with its probe in
 * *@p and node in *@i; NULL for nothing. */
static char *first_found(const struct devtree *t, const char *path, unsigned *p, unsigned *i)
{
	static devsafe_probe_fn *const probes[] = {
		probe_mounted,
		probe_swap,
		probe_holder,
		probe_exclusive,
		[PROBE_SIGNATURE] = probe_signature,
	};
	char *what, buf[96];

	for (*p = 0; *p < ARRAY_SIZE(probes); ++*p)
		for (*i = 0; *i < t->n; ++*i) {
			what = probes[*p](t, *i, node_path(t, *i, path, buf, sizeof(buf)));
			if (what)
				return what;
		}
	return NULL;
}

int devsafe_check(const char *path, dev_t rdev, char **cause)
{
	struct devtree t;
	unsigned p, i;
	char *what, *msg;
	int ret = 0;

	devtree_build("/sys", rdev, &t); /* without sysfs: node 0 alone */
	what = first_found(&t, path, &p, &i);
	if (what) {
		msg = refusal(&t, i, path, p, what);
		ret = set_cause(cause,
				"%s: writing would destroy it; set allow_mounted_write=1 to "
				"write anyway",
				msg);
		free(msg);
		free(what);
	}
	devtree_free(&t);
	return ret;
}
