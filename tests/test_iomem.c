/* SPDX-License-Identifier: MIT */
/*
 * iomem=: each kind gives aligned memory of the size asked that holds what
 * is written, is the kind of memory it says (the mapping's VmFlags in
 * /proc/self/smaps: hg for a THP hint, ht for hugetlb pages, none for
 * malloc), leaves no shm segment behind, and a failure says what to do.
 * Through a run: bytes written and read back with each kind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/iomem.h"
#include "util/util.h"
#include "testrun.h"

#define LEN   ((size_t)4 << 20)
#define ALIGN ((size_t)4096)

/* The VmFlags line of the mapping that holds @p, or "" (static). */
static const char *vmflags(const void *p)
{
	static char flags[512];
	char line[512];
	FILE *f = fopen("/proc/self/smaps", "re");
	bool in = false;

	flags[0] = '\0';
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
		else if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(flags, sizeof(flags), "%s", line + 8);
			break;
		}
	}
	fclose(f);
	return flags;
}

static bool has_flag(const char *flags, const char *f)
{
	char want[8];

	snprintf(want, sizeof(want), " %s", f);
	return strstr(flags, want) != NULL;
}

static bool thp_kernel(void)
{
	return access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;
}

/* Writes and reads back every byte; checks the alignment. */
static void exercise(const struct iomem *m)
{
	unsigned char *b = m->buf;
	size_t i;

	assert_non_null(b);
	assert_int_equal((uintptr_t)b % ALIGN, 0);
	for (i = 0; i < LEN; i++)
		b[i] = (unsigned char)(i * 7 + 3);
	for (i = 0; i < LEN; i++)
		if (b[i] != (unsigned char)(i * 7 + 3))
			fail_msg("byte %zu", i);
}

static void test_ordinary_kinds(void **state)
{
	static const enum iomem_kind kinds[] = { IOMEM_MALLOC, IOMEM_MMAP, IOMEM_MMAPSHARED,
						 IOMEM_SHM, IOMEM_THP };
	size_t k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct iomem m;
		char *cause = NULL;
		const char *fl;
		int shmid;

		assert_int_equal(iomem_alloc(&m, kinds[k], LEN, ALIGN, &cause), 0);
		exercise(&m);
		fl = vmflags(m.buf);
		/* thp asks for huge pages (a kernel without THP has no such
		 * hint); the others are ordinary pages. */
		assert_true(has_flag(fl, "hg") == (kinds[k] == IOMEM_THP && thp_kernel()));
		assert_false(has_flag(fl, "ht"));
		assert_true(has_flag(fl, "sh") ==
			    (kinds[k] == IOMEM_MMAPSHARED || kinds[k] == IOMEM_SHM));
		if (kinds[k] == IOMEM_THP)
			assert_int_equal((uintptr_t)m.buf % ((size_t)2 << 20), 0);
		shmid = m.shmid;
		iomem_free(&m);
		assert_null(m.base);
		iomem_free(&m); /* twice is nothing */
		if (kinds[k] == IOMEM_SHM) {
			struct shmid_ds ds;

			/* Removed: no segment outlives the buffers. */
			assert_true(shmid >= 0);
			assert_int_equal(shmctl(shmid, IPC_STAT, &ds), -1);
		}
	}
}

/* An alignment above the page size is honoured by the mapped kinds too. */
static void test_large_alignment(void **state)
{
	static const enum iomem_kind kinds[] = { IOMEM_MALLOC, IOMEM_MMAP, IOMEM_SHM };
	size_t k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct iomem m;
		char *cause = NULL;

		assert_int_equal(iomem_alloc(&m, kinds[k], 100000, 65536, &cause), 0);
		assert_int_equal((uintptr_t)m.buf % 65536, 0);
		memset(m.buf, 0xa5, 100000);
		iomem_free(&m);
	}
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static bool write_long(const char *path, long v)
{
	FILE *f = fopen(path, "we");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok;
}

static const char nr_path[] = "/proc/sys/vm/nr_hugepages";
static long nr_before = -1; /* the count to put back; -1: not changed */

static int put_back_huge_pages(void **state)
{
	(void)state;
	if (nr_before >= 0 && !write_long(nr_path, nr_before))
		fprintf(stderr, "test_iomem: could not put %s back to %ld\n", nr_path, nr_before);
	nr_before = -1;
	return 0;
}

/* hugetlb kinds: refused with what to do when no huge page is free; on
 * hugetlb pages (ht) when some are reserved.  As root on a system with
 * none reserved, no overcommit and 2 MiB huge pages, the test reserves 4
 * (16 MiB; each allocation takes 2), and its teardown puts the count back
 * whatever happened. */
static void test_hugetlb_kinds(void **state)
{
	static const enum iomem_kind kinds[] = { IOMEM_MMAPHUGE, IOMEM_SHMHUGE };
	long before = read_long(nr_path);
	size_t k;

	(void)state;
	if (before != 0 || geteuid() != 0 ||
	    read_long("/proc/sys/vm/nr_overcommit_hugepages") != 0 ||
	    iomem_huge_page_size() != (size_t)2 << 20) {
		/* Someone's reservation is not ours to change. */
		skip();
		return;
	}
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct iomem m;
		char *cause = NULL;

		assert_int_equal(iomem_alloc(&m, kinds[k], LEN, ALIGN, &cause), -ENOMEM);
		assert_non_null(strstr(cause, "huge pages must be reserved first: "
					      "/proc/sys/vm/nr_hugepages"));
		free(cause);
	}
	nr_before = before;
	if (!write_long(nr_path, 4) || read_long(nr_path) < 2) {
		skip();
		return;
	}
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct iomem m;
		char *cause = NULL;

		if (iomem_alloc(&m, kinds[k], LEN, ALIGN, &cause))
			fail_msg("%s", cause);
		exercise(&m);
		assert_true(has_flag(vmflags(m.buf), "ht"));
		assert_int_equal(m.len % iomem_huge_page_size(), 0);
		iomem_free(&m);
	}
}

/* Through a run: each kind moves the bytes verify checks. */
static void test_runs_with_each_kind(void **state)
{
	static const char *const kinds[] = { "malloc", "mmap", "mmapshared", "shm", "thp" };
	size_t k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		struct ran r;

		run_text(&r, NULL,
			 "[m]\nfilename=%s/m\nsize=2m\nbs=64k\nrw=randwrite\nverify=crc32c\n"
			 "iodepth=4\nioengine=psync\nmem=%s\n",
			 testrun_dir, kinds[k]);
		assert_int_equal(r.ret, 0);
		if (r.run.results[0].error)
			fail_msg("mem=%s: %s", kinds[k], r.run.results[0].error);
		assert_int_equal(r.run.results[0].stats.dir[STAT_READ].bytes, 2 << 20);
		ran_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ordinary_kinds),
		cmocka_unit_test(test_large_alignment),
		cmocka_unit_test_teardown(test_hugetlb_kinds, put_back_huge_pages),
		cmocka_unit_test(test_runs_with_each_kind),
	};

	return cmocka_run_group_tests(tests, testrun_setup, testrun_teardown);
}
