/* SPDX-License-Identifier: MIT */
/*
 * I/O buffer memory by kind.  The mapped kinds are mapped a little larger
 * than asked when the alignment is above their page size, and the buffer
 * starts at the first aligned address inside; shm segments are removed
 * (IPC_RMID) as soon as they are attached, so none outlives the run.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#include "util/iomem.h"
#include "util/util.h"

size_t iomem_huge_page_size(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	unsigned long kb = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Hugepagesize: %lu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb ? (size_t)kb << 10 : (size_t)2 << 20;
}

static const char *const kind_names[] = {
	[IOMEM_MALLOC] = "malloc",     [IOMEM_MMAP] = "mmap", [IOMEM_MMAPSHARED] = "mmapshared",
	[IOMEM_MMAPHUGE] = "mmaphuge", [IOMEM_SHM] = "shm",   [IOMEM_SHMHUGE] = "shmhuge",
	[IOMEM_THP] = "thp",
};

static int failed(const struct iomem *m, const char *call, size_t len, int err, char **cause)
{
	bool huge = m->kind == IOMEM_MMAPHUGE || m->kind == IOMEM_SHMHUGE;
	const char *hint = "";

	if (huge && (err == ENOMEM || err == EINVAL))
		hint = " (huge pages must be reserved first: /proc/sys/vm/nr_hugepages)";
	else if (huge && err == EPERM)
		hint = " (SHM_HUGETLB needs CAP_IPC_LOCK or the group in "
		       "/proc/sys/vm/hugetlb_shm_group)";
	set_cause(cause, "iomem=%s: %s of %zu bytes: %s%s", kind_names[m->kind], call, len,
		  strerror(err), hint);
	return -err;
}

int iomem_alloc(struct iomem *m, enum iomem_kind kind, size_t len, size_t align, char **cause)
{
	const size_t two_mib = (size_t)2 << 20;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), map_page = page;
	int flags = MAP_ANONYMOUS | MAP_PRIVATE;

	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->shmid = -1;
	if (kind == IOMEM_MALLOC) {
		int r = posix_memalign(&m->base, align, len);

		if (r)
			return failed(m, "posix_memalign", len, r, cause);
		m->buf = m->base;
		m->len = len;
		return 0;
	}
	/* thp: from 2 MiB up, 2 MiB-aligned and madvised; a mapping of its
	 * own, so that the hint goes with it when it is unmapped. */
	if (kind == IOMEM_THP && len >= two_mib && align < two_mib)
		align = two_mib;
	if (kind == IOMEM_MMAPHUGE || kind == IOMEM_SHMHUGE)
		map_page = iomem_huge_page_size();
	if (len > SIZE_MAX - align - map_page)
		return failed(m, "mmap", len, ENOMEM, cause);
	m->len = (len + (align > map_page ? align : 0) + map_page - 1) / map_page * map_page;
	if (kind == IOMEM_SHM || kind == IOMEM_SHMHUGE) {
		m->shmid = shmget(IPC_PRIVATE, m->len,
				  IPC_CREAT | 0600 | (kind == IOMEM_SHMHUGE ? SHM_HUGETLB : 0));
		if (m->shmid < 0)
			return failed(m, "shmget", m->len, errno, cause);
		m->base = shmat(m->shmid, NULL, 0);
		if (m->base == (void *)-1) {
			int err = errno;

			shmctl(m->shmid, IPC_RMID, NULL);
			m->shmid = -1;
			m->base = NULL;
			return failed(m, "shmat", m->len, err, cause);
		}
		/* Gone once detached, whatever happens to this process. */
		shmctl(m->shmid, IPC_RMID, NULL);
	} else {
		if (kind == IOMEM_MMAPSHARED)
			flags = MAP_ANONYMOUS | MAP_SHARED;
		if (kind == IOMEM_MMAPHUGE)
			flags |= MAP_HUGETLB;
		m->base = mmap(NULL, m->len, PROT_READ | PROT_WRITE, flags, -1, 0);
		if (m->base == MAP_FAILED) {
			m->base = NULL;
			return failed(m, "mmap", m->len, errno, cause);
		}
	}
	m->buf = (void *)(((uintptr_t)m->base + align - 1) & ~(uintptr_t)(align - 1));
	if (kind == IOMEM_THP && len >= two_mib)
		(void)madvise(m->buf, len / two_mib * two_mib, MADV_HUGEPAGE); /* a hint */
	return 0;
}

void iomem_free(struct iomem *m)
{
	if (!m->base)
		return;
	if (m->kind == IOMEM_MALLOC)
		free(m->base);
	else if (m->kind == IOMEM_SHM || m->kind == IOMEM_SHMHUGE)
		shmdt(m->base);
	else
		munmap(m->base, m->len);
	m->base = m->buf = NULL;
}
