/* SPDX-License-Identifier: MIT */
/*
 * What is built on a block device, as sysfs tells it: its partitions,
 * its holders (device-mapper, md, bcache...) and the loop devices whose
 * backing file is it (or a region of it), and, recursively, what is
 * built on those.  Reads sysfs only; says nothing about mounts.
 */
#ifndef IOGAUGE_DEVTREE_H
#define IOGAUGE_DEVTREE_H

#include <stdint.h>
#include <sys/types.h>

enum devtree_rel {
	DEVTREE_SELF,	   /* the device asked about: node 0 */
	DEVTREE_PARTITION, /* a partition of its parent */
	DEVTREE_HOLDER,	   /* listed in its parent's holders/ */
	DEVTREE_LOOP,	   /* a loop device backed by its parent */
};

struct devtree_node {
	dev_t dev;
	char name[64];	      /* the kernel's name: sda1, dm-0, loop1 */
	char dm_name[64];     /* a device-mapper device's name, or "" */
	int parent;	      /* index of the node it is built on; -1 for node 0 */
	enum devtree_rel rel; /* how it is built on its parent */
	uint64_t loop_offset; /* bytes: where a loop device's region starts */
	uint64_t loop_limit;  /* bytes: its size limit, 0 for to the end */
};

/* Node 0 is the device; each other node comes after its parent. */
struct devtree {
	struct devtree_node *v;
	unsigned n;
};

/* Fills @t with device @dev and all that is built on it, read from the
 * sysfs mounted at @sys ("/sys").  0, or -ENOENT when @sys has no entry
 * for @dev (then @t holds node 0 alone).  Free with devtree_free(). */
int devtree_build(const char *sys, dev_t dev, struct devtree *t);
void devtree_free(struct devtree *t);

/* "/dev/NAME" of node @i, in @buf of @len bytes; @buf is returned. */
const char *devtree_path(const struct devtree *t, unsigned i, char *buf, size_t len);
/* How node @i is built on node 0, one clause a link from node 0 out:
 * "/dev/loop1 is a loop device on /dev/loop0 from byte 1048576; /dev/dm-0
 * (device-mapper x) is built on /dev/loop1".  Never NULL; "" for node 0. */
char *devtree_chain(const struct devtree *t, unsigned i);

#endif
