/* SPDX-License-Identifier: MIT */
/*
 * I/O buffer memory, as fio's iomem= (alias mem=) asks for it: malloc
 * (the default), mmap, mmapshared, mmaphuge, shm, shmhuge; and iogauge's
 * thp, transparent huge pages.
 */
#ifndef IOGAUGE_IOMEM_H
#define IOGAUGE_IOMEM_H

#include <stddef.h>

enum iomem_kind {
	IOMEM_MALLOC,	  /* posix_memalign: ordinary pages, fio's default */
	IOMEM_MMAP,	  /* private anonymous mmap */
	IOMEM_MMAPSHARED, /* shared anonymous mmap */
	IOMEM_MMAPHUGE,	  /* anonymous mmap of hugetlb pages (MAP_HUGETLB) */
	IOMEM_SHM,	  /* System V shared memory */
	IOMEM_SHMHUGE,	  /* ... of hugetlb pages (SHM_HUGETLB) */
	IOMEM_THP,	  /* a private mapping, 2 MiB-aligned, madvised as THP */
};

struct iomem {
	void *buf;  /* aligned as asked; NULL when not allocated */
	void *base; /* what was mapped or allocated */
	size_t len; /* bytes mapped (rounded up to the page size) */
	int shmid;  /* shm kinds: the segment; -1 otherwise */
	enum iomem_kind kind;
};

/* @len bytes of @kind, at @buf aligned to @align (a power of two).  0, or
 * -errno with *cause (not NULL) saying what failed and what to do. */
int iomem_alloc(struct iomem *m, enum iomem_kind kind, size_t len, size_t align, char **cause);
/* Frees what iomem_alloc gave (nothing when it failed or never ran). */
void iomem_free(struct iomem *m);
/* The system's default huge page size (/proc/meminfo's Hugepagesize), or
 * 2 MiB when it is not said. */
size_t iomem_huge_page_size(void);

#endif
