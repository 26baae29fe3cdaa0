/* SPDX-License-Identifier: MIT */
/*
 * The devices built on a block device, from sysfs: partitions (folders
 * with a "partition" file), holders (holders/), and loop devices whose
 * loop/backing_file is a node of it.  A breadth-first walk with a bound
 * on the nodes, each device once.  Reads sysfs and stats backing files.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "files/devtree.h"
#include "util/util.h"

/* More than any real stack: a bound against a sysfs that loops. */
#define DEVTREE_MAX 512

/* The first line of file @dir/@name into @buf (newline cut); 0 or -errno. */
static int read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "re");
	int ret = 0;

	free(path);
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

/* The device number in @dir/dev ("MAJ:MIN"); 0 or -errno. */
static int read_dev(const char *dir, dev_t *dev)
{
	char buf[32];
	unsigned ma, mi;
	int ret = read_line(dir, "dev", buf, sizeof(buf));

	if (ret)
		return ret;
	if (sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -EINVAL;
	*dev = makedev(ma, mi);
	return 0;
}

static uint64_t read_u64(const char *dir, const char *name)
{
	char buf[32];

	return read_line(dir, name, buf, sizeof(buf)) ? 0 : strtoull(buf, NULL, 10);
}

/* The kernel's name of the device whose sysfs folder is @dir: DEVNAME in
 * its uevent, else the folder's own name. */
static void read_name(const char *dir, const char *fallback, char *name, size_t len)
{
	char *path = xasprintf("%s/uevent", dir), line[256];
	FILE *f = fopen(path, "re");

	free(path);
	util_copy_cut(name, len, fallback);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			util_copy_cut(name, len, line + 8);
			break;
		}
	if (f)
		fclose(f);
}

/* Appends device @dev (sysfs folder @dir) built on node @parent as @rel,
 * unless it is in the tree already.  Returns its index, or -1. */
static int add(struct devtree *t, const char *dir, const char *fallback, dev_t dev, int parent,
	       enum devtree_rel rel)
{
	struct devtree_node *nd;
	unsigned i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].dev == dev)
			return -1;
	if (t->n >= DEVTREE_MAX)
		return -1;
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	nd = &t->v[t->n];
	memset(nd, 0, sizeof(*nd));
	nd->dev = dev;
	nd->parent = parent;
	nd->rel = rel;
	read_name(dir, fallback, nd->name, sizeof(nd->name));
	if (read_line(dir, "dm/name", nd->dm_name, sizeof(nd->dm_name)))
		nd->dm_name[0] = '\0';
	return (int)t->n++;
}

/* The partitions of node @i (sysfs folder @dir): sub-folders with a
 * "partition" file. */
static void add_partitions(struct devtree *t, unsigned i, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *sub = xasprintf("%s/%s", dir, e->d_name), buf[16];
		dev_t dev;

		if (e->d_name[0] != '.' && !read_line(sub, "partition", buf, sizeof(buf)) &&
		    !read_dev(sub, &dev))
			add(t, sub, e->d_name, dev, (int)i, DEVTREE_PARTITION);
		free(sub);
	}
	if (d)
		closedir(d);
}

static void add_holders(struct devtree *t, unsigned i, const char *dir)
{
	char *hdir = xasprintf("%s/holders", dir);
	DIR *d = opendir(hdir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *sub = xasprintf("%s/%s", hdir, e->d_name);
		dev_t dev;

		if (e->d_name[0] != '.' && !read_dev(sub, &dev))
			add(t, sub, e->d_name, dev, (int)i, DEVTREE_HOLDER);
		free(sub);
	}
	if (d)
		closedir(d);
	free(hdir);
}

/* Loop devices (@sys/block/loop*) whose backing file is a block device
 * node of node @i: they are built on it, whatever their offset. */
static void add_loops(struct devtree *t, unsigned i, const char *sys)
{
	char *bdir = xasprintf("%s/block", sys);
	DIR *d = opendir(bdir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *sub = xasprintf("%s/%s", bdir, e->d_name), back[4096];
		struct stat st;
		dev_t dev;
		int at;

		if (!strncmp(e->d_name, "loop", 4) &&
		    !read_line(sub, "loop/backing_file", back, sizeof(back)) && !stat(back, &st) &&
		    S_ISBLK(st.st_mode) && st.st_rdev == t->v[i].dev && !read_dev(sub, &dev)) {
			at = add(t, sub, e->d_name, dev, (int)i, DEVTREE_LOOP);
			if (at >= 0) {
				t->v[at].loop_offset = read_u64(sub, "loop/offset");
				t->v[at].loop_limit = read_u64(sub, "loop/sizelimit");
			}
		}
		free(sub);
	}
	if (d)
		closedir(d);
	free(bdir);
}

int devtree_build(const char *sys, dev_t dev, struct devtree *t)
{
	char *dir = xasprintf("%s/dev/block/%u:%u", sys, major(dev), minor(dev));
	char fallback[32];
	unsigned i;
	struct stat st;
	int ret = stat(dir, &st) ? -ENOENT : 0;

	memset(t, 0, sizeof(*t));
	snprintf(fallback, sizeof(fallback), "%u:%u", major(dev), minor(dev));
	add(t, dir, fallback, dev, -1, DEVTREE_SELF);
	free(dir);
	for (i = 0; !ret && i < t->n; i++) {
		dir = xasprintf("%s/dev/block/%u:%u", sys, major(t->v[i].dev), minor(t->v[i].dev));
		add_partitions(t, i, dir);
		add_holders(t, i, dir);
		add_loops(t, i, sys);
		free(dir);
	}
	return ret;
}

void devtree_free(struct devtree *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const char *devtree_path(const struct devtree *t, unsigned i, char *buf, size_t len)
{
	char *p;

	/* sysfs spells a '/' in a name as '!' (cciss!c0d0). */
	snprintf(buf, len, "/dev/%s", t->v[i].name);
	for (p = buf; *p; p++)
		if (*p == '!')
			*p = '/';
	return buf;
}

/* One clause: how node @i is built on its parent. */
static void link_clause(struct strbuf *sb, const struct devtree *t, unsigned i)
{
	const struct devtree_node *nd = &t->v[i];
	char me[96], up[96];

	devtree_path(t, i, me, sizeof(me));
	devtree_path(t, (unsigned)nd->parent, up, sizeof(up));
	switch (nd->rel) {
	case DEVTREE_PARTITION:
		strbuf_addf(sb, "%s is a partition of %s", me, up);
		break;
	case DEVTREE_LOOP:
		strbuf_addf(sb, "%s is a loop device on %s from byte %llu", me, up,
			    (unsigned long long)nd->loop_offset);
		if (nd->loop_limit)
			strbuf_addf(sb, " (%llu bytes)", (unsigned long long)nd->loop_limit);
		break;
	case DEVTREE_HOLDER:
		strbuf_addf(sb, "%s", me);
		if (nd->dm_name[0])
			strbuf_addf(sb, " (device-mapper %s)", nd->dm_name);
		strbuf_addf(sb, " is built on %s", up);
		break;
	case DEVTREE_SELF:
		break;
	}
}

char *devtree_chain(const struct devtree *t, unsigned i)
{
	struct strbuf sb = { 0 };
	unsigned path[DEVTREE_MAX], n = 0, k;

	for (k = i; k && n < DEVTREE_MAX; k = (unsigned)t->v[k].parent)
		path[n++] = k;
	while (n--) {
		link_clause(&sb, t, path[n]);
		if (n)
			strbuf_addf(&sb, "; ");
	}
	return strbuf_detach(&sb);
}
