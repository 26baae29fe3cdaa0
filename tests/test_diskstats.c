/* SPDX-License-Identifier: MIT */
/*
 * Tests of diskstats.c on this machine's real devices: a file maps to
 * the whole disk under it (found here another way, by scanning
 * /sys/block), a partition to its parent disk, tmpfs and proc are
 * skipped, a device is added once, a file not there yet takes its
 * directory's disk, and 4 MiB written with O_DIRECT shows in the write
 * counters.  The whole test is skipped (77) when / is not on a block
 * device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/blkpg.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "testloop.h"

#include "stats/diskstats.h"
#include "util/util.h"

#define TMPFS_MAGIC 0x01021994
#define WRITE_SIZE  (4u << 20) /* bytes */

/* The disk expected under a device, as scanned from /sys/block. */
struct want {
	char name[64];
	unsigned major, minor;
};

static struct want root;  /* the disk under / */
static char tmpdir[64];	  /* under /var/tmp */
static char loopdev[64];  /* attached by test_partition_maps_to_disk */
static char backing[128]; /* its backing file */

static bool read_devno(const char *path, unsigned *maj, unsigned *min)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%u:%u", maj, min) == 2;
	fclose(f);
	return ok;
}

/*
 * Finds the disk holding @dev without /sys/dev/block: each /sys/block/DISK
 * is a whole disk, and its partitions are the DISK/PART with a "dev" file.
 */
static bool sys_block_disk(dev_t dev, struct want *w)
{
	DIR *d = opendir("/sys/block"), *pd;
	struct dirent *de, *pe;
	unsigned maj, min;
	bool found = false;
	char path[640];

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dev", de->d_name);
		if (!read_devno(path, &w->major, &w->minor))
			continue;
		found = makedev(w->major, w->minor) == dev;
		snprintf(path, sizeof(path), "/sys/block/%s", de->d_name);
		pd = found ? NULL : opendir(path);
		while (pd && !found && (pe = readdir(pd))) {
			snprintf(path, sizeof(path), "/sys/block/%s/%s/partition", de->d_name,
				 pe->d_name);
			if (pe->d_name[0] == '.' || access(path, F_OK))
				continue;
			snprintf(path, sizeof(path), "/sys/block/%s/%s/dev", de->d_name,
				 pe->d_name);
			found = read_devno(path, &maj, &min) && makedev(maj, min) == dev;
		}
		if (pd)
			closedir(pd);
		if (found && strlen(de->d_name) < sizeof(w->name))
			memcpy(w->name, de->d_name, strlen(de->d_name) + 1);
		else
			found = false;
	}
	closedir(d);
	return found;
}

/* The /proc/diskstats line of @w, parsed here independently of diskstats.c. */
static void proc_line(const struct want *w, struct disk_counters *c)
{
	char line[1024], name[64];
	unsigned maj, min;
	uint64_t f[11];
	FILE *fp = fopen("/proc/diskstats", "re");

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line,
			   "%u %u %63s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
			   &maj, &min, name, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7],
			   &f[8], &f[9], &f[10]) != 14 ||
		    maj != w->major || min != w->minor)
			continue;
		assert_string_equal(name, w->name);
		*c = (struct disk_counters){ { f[0], f[4] }, { f[1], f[5] }, { f[2], f[6] },
					     { f[3], f[7] }, f[9],	     f[10] };
		fclose(fp);
		return;
	}
	fclose(fp);
	fail_msg("%s (%u:%u) is not in /proc/diskstats", w->name, w->major, w->minor);
}

static void assert_entry(const struct disk_entry *e, const struct want *w)
{
	assert_string_equal(e->name, w->name);
	assert_int_equal(e->major, w->major);
	assert_int_equal(e->minor, w->minor);
}

static void want_of(const char *path, struct want *w)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	if (!sys_block_disk(st.st_dev, w))
		skip();
}

/* A file on the root file system maps to the whole disk under /. */
static void test_root_file(void **state)
{
	struct disk_set ds = { 0 };
	struct disk_counters c;
	struct want w;

	(void)state;
	want_of("/etc/passwd", &w);
	assert_int_equal(disks_add_path(&ds, "/etc/passwd"), 0);
	assert_int_equal(ds.n, 1);
	assert_entry(&ds.v[0], &w);
	proc_line(&w, &c); /* and it has a /proc/diskstats line of that name */
	print_message("/etc/passwd is on %s (%u:%u)\n", w.name, w.major, w.minor);
	disks_free(&ds);
	assert_null(ds.v);
	assert_int_equal(ds.n, 0);
}

/* tmpfs and proc have no block device: skipped, not an error. */
static void test_no_block_device(void **state)
{
	struct disk_set ds = { 0 };
	struct statfs sf;

	(void)state;
	if (statfs("/dev/shm", &sf) || sf.f_type != TMPFS_MAGIC)
		skip();
	assert_int_equal(disks_add_path(&ds, "/dev/shm"), 0);
	assert_int_equal(disks_add_path(&ds, "/dev/shm/iogauge-no-such-file"), 0);
	assert_int_equal(disks_add_path(&ds, "/proc/self/stat"), 0);
	assert_int_equal(ds.n, 0);
	assert_null(ds.v);
}

/* The same disk through a directory, files and its own node: added once. */
static void test_duplicates(void **state)
{
	struct disk_set ds = { 0 };
	struct want loop0 = { "loop0", 0, 0 };
	char node[128];
	struct stat st;

	(void)state;
	assert_int_equal(disks_add_path(&ds, "/"), 0);
	assert_int_equal(disks_add_path(&ds, "/etc"), 0);
	assert_int_equal(disks_add_path(&ds, "/"), 0);
	assert_int_equal(ds.n, 1);
	assert_entry(&ds.v[0], &root);
	snprintf(node, sizeof(node), "/dev/%s", root.name);
	if (stat(node, &st) == 0 && S_ISBLK(st.st_mode)) {
		assert_int_equal(disks_add_path(&ds, node), 0);
		assert_int_equal(ds.n, 1);
	}
	/* Another disk's node is another entry. */
	if (strcmp(root.name, "loop0") && stat("/dev/loop0", &st) == 0 && S_ISBLK(st.st_mode) &&
	    read_devno("/sys/block/loop0/dev", &loop0.major, &loop0.minor)) {
		assert_int_equal(disks_add_path(&ds, "/dev/loop0"), 0);
		assert_int_equal(disks_add_path(&ds, "/dev/loop0"), 0);
		assert_int_equal(ds.n, 2);
		assert_entry(&ds.v[1], &loop0);
	}
	disks_free(&ds);
}

/* A file the run will create takes its directory's disk; a missing directory is an error. */
static void test_not_there_yet(void **state)
{
	struct disk_set ds = { 0 };
	char path[128];
	struct stat st;
	struct want w;

	(void)state;
	want_of(tmpdir, &w);
	snprintf(path, sizeof(path), "%s/not-yet", tmpdir);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(disks_add_path(&ds, path), 0);
	assert_int_equal(ds.n, 1);
	assert_entry(&ds.v[0], &w);
	assert_int_equal(disks_add_path(&ds, tmpdir), 0);
	assert_int_equal(ds.n, 1);
	snprintf(path, sizeof(path), "%s/no-such-dir/file", tmpdir);
	assert_int_equal(disks_add_path(&ds, path), -ENOENT);
	assert_int_equal(disks_add_path(&ds, ""), -ENOENT);
	snprintf(path, sizeof(path), "/etc/passwd/file");
	assert_int_equal(disks_add_path(&ds, path), -ENOTDIR);
	assert_int_equal(ds.n, 1);
	disks_free(&ds);
}

static void loop_undo(void)
{
	testloop_detach(loopdev);
	if (backing[0]) {
		unlink(backing);
		backing[0] = '\0';
	}
}

/*
 * A partition maps to its parent: loopN's partition 1, added with
 * BLKPG (as partx does, so no partition-table parser is needed in the
 * kernel), is reported as loopN.
 */
static void test_partition_maps_to_disk(void **state)
{
	struct blkpg_partition bp = { .start = 1 << 20, .length = 2 << 20, .pno = 1 };
	struct blkpg_ioctl_arg arg = { .op = BLKPG_ADD_PARTITION,
				       .datalen = sizeof(bp),
				       .data = &bp };
	struct disk_set ds = { 0 };
	char part[80];
	struct stat st, dst;
	struct want w;
	int fd, i, ret;

	(void)state;
	if (geteuid())
		skip();
	snprintf(backing, sizeof(backing), "%s/parted", tmpdir);
	fd = open(backing, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4 << 20), 0);
	close(fd);
	if (!testloop_attach(backing, true, loopdev, sizeof(loopdev))) {
		loop_undo();
		skip();
	}
	fd = open(loopdev, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	ret = ioctl(fd, BLKPG, &arg);
	close(fd);
	snprintf(part, sizeof(part), "%sp1", loopdev);
	for (i = 0; !ret && i < 200 && stat(part, &st); i++)
		usleep(10000); /* devtmpfs makes the node soon after */
	if (ret || stat(part, &st) || !S_ISBLK(st.st_mode)) {
		loop_undo();
		skip();
	}
	assert_int_equal(stat(loopdev, &dst), 0);
	assert_true(sys_block_disk(st.st_rdev, &w));
	assert_string_equal(w.name, strrchr(loopdev, '/') + 1);
	assert_int_equal(makedev(w.major, w.minor), dst.st_rdev);
	assert_true(st.st_rdev != dst.st_rdev);

	assert_int_equal(disks_add_path(&ds, part), 0);
	assert_int_equal(ds.n, 1);
	assert_entry(&ds.v[0], &w);
	assert_int_equal(disks_add_path(&ds, loopdev), 0);
	assert_int_equal(ds.n, 1);
	print_message("%s (%u:%u) maps to %s (%u:%u)\n", part, major(st.st_rdev), minor(st.st_rdev),
		      ds.v[0].name, ds.v[0].major, ds.v[0].minor);
	disks_free(&ds);
	loop_undo();
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

#define ASSERT_BETWEEN(lo, x, hi)         \
	do {                              \
		assert_true((lo) <= (x)); \
		assert_true((x) <= (hi)); \
	} while (0)

/* 4 MiB written with O_DIRECT and fsynced shows in the disk's write counters. */
static void test_direct_write(void **state)
{
	struct disk_set ds = { 0 };
	struct disk_counters lo, hi, d;
	const struct disk_counters *a;
	uint64_t t0, elapsed;
	char path[128];
	size_t done = 0;
	double util;
	struct want w;
	void *buf;
	ssize_t n;
	int fd, i;

	(void)state;
	want_of(tmpdir, &w);
	snprintf(path, sizeof(path), "%s/direct", tmpdir);
	assert_int_equal(disks_add_path(&ds, path), 0);
	assert_int_equal(ds.n, 1);
	assert_entry(&ds.v[0], &w);
	assert_int_equal(posix_memalign(&buf, 4096, WRITE_SIZE), 0);
	memset(buf, 0x5a, WRITE_SIZE);

	t0 = now_ms();
	assert_int_equal(disks_snapshot(&ds, false), 0);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_DIRECT, 0600);
	if (fd < 0 && errno == EINVAL) {
		free(buf);
		skip(); /* no O_DIRECT on this file system */
	}
	assert_true(fd >= 0);
	while (done < WRITE_SIZE) {
		n = pwrite(fd, (char *)buf + done, WRITE_SIZE - done, (off_t)done);
		assert_true(n > 0);
		done += (size_t)n;
	}
	assert_int_equal(fsync(fd), 0);
	close(fd);
	unlink(path);
	free(buf);

	/* The snapshot reads the same fields as this test's own parse of the line. */
	proc_line(&w, &lo);
	assert_int_equal(disks_snapshot(&ds, true), 0);
	proc_line(&w, &hi);
	elapsed = now_ms() - t0 + 1;
	a = &ds.v[0].after;
	for (i = 0; i < 2; i++) {
		ASSERT_BETWEEN(lo.ios[i], a->ios[i], hi.ios[i]);
		ASSERT_BETWEEN(lo.merges[i], a->merges[i], hi.merges[i]);
		ASSERT_BETWEEN(lo.sectors[i], a->sectors[i], hi.sectors[i]);
		ASSERT_BETWEEN(lo.ticks[i], a->ticks[i], hi.ticks[i]);
	}
	ASSERT_BETWEEN(lo.io_ticks, a->io_ticks, hi.io_ticks);
	ASSERT_BETWEEN(lo.in_queue, a->in_queue, hi.in_queue);

	disks_delta(&ds.v[0], elapsed, &d, &util);
	assert_true(d.ios[1] >= 1);
	assert_true(d.sectors[1] >= WRITE_SIZE / 512);
	assert_int_equal(d.ios[1], a->ios[1] - ds.v[0].before.ios[1]);
	assert_int_equal(d.sectors[1], a->sectors[1] - ds.v[0].before.sectors[1]);
	assert_int_equal(d.io_ticks, a->io_ticks - ds.v[0].before.io_ticks);
	assert_true(util >= 0.0 && util <= 100.0);
	print_message("%s: %" PRIu64 " writes, %" PRIu64 " sectors, %" PRIu64 " ms busy in %" PRIu64
		      " ms, util %.2f%%\n",
		      w.name, d.ios[1], d.sectors[1], d.io_ticks, elapsed, util);
	disks_free(&ds);
}

/* disks_delta on counters known by hand. */
static void test_delta(void **state)
{
	struct disk_entry e = {
		.before = { { 10, 20 }, { 1, 2 }, { 80, 160 }, { 5, 6 }, 100, 50 },
		.after = { { 15, 32 }, { 1, 7 }, { 120, 1184 }, { 9, 60 }, 600, 950 },
	};
	struct disk_counters d;
	double util;

	(void)state;
	disks_delta(&e, 1000, &d, &util);
	assert_int_equal(d.ios[0], 5);
	assert_int_equal(d.ios[1], 12);
	assert_int_equal(d.merges[0], 0);
	assert_int_equal(d.merges[1], 5);
	assert_int_equal(d.sectors[0], 40);
	assert_int_equal(d.sectors[1], 1024);
	assert_int_equal(d.ticks[0], 4);
	assert_int_equal(d.ticks[1], 54);
	assert_int_equal(d.io_ticks, 500);
	assert_int_equal(d.in_queue, 900);
	assert_true(util == 50.0);
	disks_delta(&e, 2000, &d, &util);
	assert_true(util == 25.0);
	disks_delta(&e, 250, &d, &util); /* 200%: capped */
	assert_true(util == 100.0);
	disks_delta(&e, 0, &d, &util);
	assert_true(util == 0.0);
	e.after.io_ticks = 99; /* gone backwards */
	e.after.ios[0] = 9;
	disks_delta(&e, 1000, &d, &util);
	assert_int_equal(d.io_ticks, 0);
	assert_int_equal(d.ios[0], 0);
	assert_true(util == 0.0);
}

/* A device gone from /proc/diskstats: -ENODEV, and the others still read. */
static void test_snapshot_gone(void **state)
{
	struct disk_set ds = { 0 };
	struct disk_counters c;

	(void)state;
	assert_int_equal(disks_add_path(&ds, "/"), 0);
	assert_int_equal(ds.n, 1);
	ds.v = xrealloc(ds.v, 2 * sizeof(*ds.v));
	ds.v[1] = (struct disk_entry){ .name = "gone", .major = 4095, .minor = 1048575 };
	ds.n = 2;
	memset(&ds.v[0].after, 0, sizeof(ds.v[0].after));
	assert_int_equal(disks_snapshot(&ds, true), -ENODEV);
	proc_line(&root, &c);
	assert_true(ds.v[0].after.ios[0] > 0);
	assert_true(ds.v[0].after.ios[0] <= c.ios[0]);
	assert_true(ds.v[0].after.sectors[0] <= c.sectors[0]);
	disks_free(&ds);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/var/tmp/iogauge-diskstats.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[128];

	(void)state;
	loop_undo();
	snprintf(path, sizeof(path), "%s/direct", tmpdir); /* left by a failed test */
	unlink(path);
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root_file),
		cmocka_unit_test(test_no_block_device),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_not_there_yet),
		cmocka_unit_test(test_partition_maps_to_disk),
		cmocka_unit_test(test_direct_write),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_snapshot_gone),
	};
	struct stat st;

	if (stat("/", &st) || !sys_block_disk(st.st_dev, &root)) {
		fprintf(stderr, "/ is not on a block device: skipped\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
