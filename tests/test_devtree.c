/* SPDX-License-Identifier: MIT */
/*
 * devtree: what is built on a block device, read from sysfs trees made
 * here (partitions, holders two deep, a holder of two partitions, a
 * holder loop, loop devices on a region), and the chain told in words.
 * The loop devices' backing file must be a real block device node, so
 * that part takes the first one in /dev (skipped without one).
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "files/devtree.h"
#include "util/util.h"

static char root[64];

/* Writes @text to @rel under the tree, making its folders. */
static void put(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel), *p;
	FILE *f;

	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		fail_msg("%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
	free(path);
}

/* A symlink @rel under the tree to @target. */
static void link_to(const char *target, const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel);

	if (symlink(target, path))
		fail_msg("symlink %s: %s", path, strerror(errno));
	free(path);
}

/* A device folder devices/@name with its dev and uevent, and the
 * dev/block/MAJ:MIN link to it. */
static void device(const char *name, unsigned ma, unsigned mi)
{
	char rel[128], text[64];

	snprintf(rel, sizeof(rel), "devices/%s/dev", name);
	snprintf(text, sizeof(text), "%u:%u\n", ma, mi);
	put(rel, text);
	snprintf(rel, sizeof(rel), "devices/%s/uevent", name);
	snprintf(text, sizeof(text), "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\n", ma, mi, name);
	put(rel, text);
	put("dev/block/.keep", "");
	snprintf(rel, sizeof(rel), "dev/block/%u:%u", ma, mi);
	snprintf(text, sizeof(text), "../../devices/%s", name);
	link_to(text, rel);
}

/* Partition @name of @disk: a sub-folder with a "partition" file. */
static void partition(const char *disk, const char *name, unsigned ma, unsigned mi, int nr)
{
	char rel[128], text[64];

	snprintf(rel, sizeof(rel), "devices/%s/%s/partition", disk, name);
	snprintf(text, sizeof(text), "%d\n", nr);
	put(rel, text);
	snprintf(rel, sizeof(rel), "devices/%s/%s/dev", disk, name);
	snprintf(text, sizeof(text), "%u:%u\n", ma, mi);
	put(rel, text);
	snprintf(rel, sizeof(rel), "devices/%s/%s/uevent", disk, name);
	snprintf(text, sizeof(text), "DEVNAME=%s\n", name);
	put(rel, text);
	snprintf(rel, sizeof(rel), "dev/block/%u:%u", ma, mi);
	snprintf(text, sizeof(text), "../../devices/%s/%s", disk, name);
	link_to(text, rel);
}

/* @holder (a folder under devices/) in the holders/ of folder @under. */
static void holder(const char *under, const char *holder)
{
	char rel[160], text[96];

	snprintf(rel, sizeof(rel), "devices/%s/holders/.keep", under);
	put(rel, "");
	snprintf(rel, sizeof(rel), "devices/%s/holders/%s", under, holder);
	snprintf(text, sizeof(text), "%s/devices/%s", root, holder);
	link_to(text, rel);
}

static int teardown(void **state)
{
	char cmd[96];

	(void)state;
	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			return -1;
	}
	root[0] = '\0';
	return 0;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/iogauge-devtree.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

/* The node named @name, or fails. */
static unsigned find(const struct devtree *t, const char *name)
{
	unsigned i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return i;
	fail_msg("%s is not in the tree", name);
	return 0;
}

static void assert_chain(const struct devtree *t, const char *name, const char *want)
{
	char *chain = devtree_chain(t, find(t, name));

	assert_string_equal(chain, want);
	free(chain);
}

/* sda: sda1 and sda2 under one dm-0 (vg-data), dm-1 on dm-0, and dm-1
 * listing dm-0 as its holder too (a loop in sysfs must end). */
static void test_partitions_and_holders(void **state)
{
	struct devtree t;

	(void)state;
	device("sda", 8, 0);
	partition("sda", "sda1", 8, 1, 1);
	partition("sda", "sda2", 8, 2, 2);
	device("dm-0", 253, 0);
	put("devices/dm-0/dm/name", "vg-data\n");
	device("dm-1", 253, 1);
	holder("sda/sda1", "dm-0");
	holder("sda/sda2", "dm-0");
	holder("dm-0", "dm-1");
	holder("dm-1", "dm-0");
	device("sdb", 8, 16);

	assert_int_equal(devtree_build(root, makedev(8, 0), &t), 0);
	assert_int_equal(t.n, 5);
	assert_string_equal(t.v[0].name, "sda");
	assert_int_equal(t.v[0].parent, -1);
	assert_int_equal(t.v[find(&t, "sda2")].rel, DEVTREE_PARTITION);
	assert_int_equal(t.v[find(&t, "dm-0")].rel, DEVTREE_HOLDER);
	assert_string_equal(t.v[find(&t, "dm-0")].dm_name, "vg-data");
	assert_string_equal(t.v[find(&t, "dm-1")].dm_name, "");
	assert_true(t.v[find(&t, "dm-1")].dev == makedev(253, 1));
	assert_chain(&t, "sda", "");
	assert_chain(&t, "dm-1",
		     "/dev/sda1 is a partition of /dev/sda; /dev/dm-0 (device-mapper vg-data) is "
		     "built on /dev/sda1; /dev/dm-1 is built on /dev/dm-0");
	devtree_free(&t);

	/* A partition's tree: what is built on it, not its siblings. */
	assert_int_equal(devtree_build(root, makedev(8, 2), &t), 0);
	assert_int_equal(t.n, 3);
	assert_chain(&t, "dm-0", "/dev/dm-0 (device-mapper vg-data) is built on /dev/sda2");
	devtree_free(&t);

	/* Nothing on it. */
	assert_int_equal(devtree_build(root, makedev(8, 16), &t), 0);
	assert_int_equal(t.n, 1);
	devtree_free(&t);

	/* Not in this sysfs: node 0 alone, named by its number. */
	assert_int_equal(devtree_build(root, makedev(9, 9), &t), -ENOENT);
	assert_int_equal(t.n, 1);
	assert_string_equal(t.v[0].name, "9:9");
	devtree_free(&t);
}

/* The first block device node in /dev, into @path; false for none. */
static bool some_blkdev(char *path, size_t len, dev_t *rdev)
{
	DIR *d = opendir("/dev");
	struct dirent *e;
	struct stat st;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		snprintf(path, len, "/dev/%.200s", e->d_name);
		found = !lstat(path, &st) && S_ISBLK(st.st_mode);
		*rdev = st.st_rdev;
	}
	if (d)
		closedir(d);
	return found;
}

/* Loop devices whose backing file is the device, at an offset and with
 * a size limit; one on a regular file and an unbound one are not. */
static void test_loops(void **state)
{
	char node[256], text[300];
	struct devtree t;
	dev_t rdev = 0; /* set by some_blkdev; skip() is not known not to return */
	unsigned i;

	(void)state;
	if (!some_blkdev(node, sizeof(node), &rdev))
		skip();
	device("disk", major(rdev), minor(rdev));
	put("block/.keep", "");
	device("loop90", 7, 90);
	snprintf(text, sizeof(text), "%s\n", node);
	put("devices/loop90/loop/backing_file", text);
	put("devices/loop90/loop/offset", "1048576\n");
	put("devices/loop90/loop/sizelimit", "8388608\n");
	link_to("../devices/loop90", "block/loop90");
	device("loop91", 7, 91);
	put("devices/loop91/loop/backing_file", "/etc/hostname\n");
	link_to("../devices/loop91", "block/loop91");
	device("loop92", 7, 92); /* unbound: no loop/ */
	link_to("../devices/loop92", "block/loop92");
	device("loop93", 7, 93); /* on loop90, whose node is not in /dev */
	put("devices/loop93/loop/backing_file", "/dev/loop90\n");
	link_to("../devices/loop93", "block/loop93");
	device("dm-5", 253, 5);
	holder("loop90", "dm-5");

	assert_int_equal(devtree_build(root, rdev, &t), 0);
	assert_int_equal(t.n, 3);
	i = find(&t, "loop90");
	assert_int_equal(t.v[i].rel, DEVTREE_LOOP);
	assert_int_equal(t.v[i].loop_offset, 1048576);
	assert_int_equal(t.v[i].loop_limit, 8388608);
	snprintf(text, sizeof(text),
		 "/dev/loop90 is a loop device on /dev/disk from byte 1048576 (8388608 bytes); "
		 "/dev/dm-5 is built on /dev/loop90");
	assert_chain(&t, "dm-5", text);
	devtree_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_partitions_and_holders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loops, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
