/* SPDX-License-Identifier: MIT */
/*
 * A rank other than 0 holds its standard error in a memfd: every rank
 * reads the same job, and a bad value would otherwise be told once per
 * rank.  At the end the text is dropped (rank 0 said it, or gathered
 * it), or, when only this rank refused, written out once with the rank
 * and host in front of each line.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mpi/comm.h"
#include "mpi/mpi.h"

static int held = -1;	   /* the memfd */
static int saved_err = -1; /* the real standard error */

void mpi_capture_start(void)
{
	int fd = memfd_create("iogauge-stderr", MFD_CLOEXEC);

	if (fd < 0)
		return; /* then every rank prints: noisy, not wrong */
	fflush(stderr);
	saved_err = dup(STDERR_FILENO);
	if (saved_err < 0 || dup2(fd, STDERR_FILENO) < 0) {
		close(fd);
		if (saved_err >= 0)
			close(saved_err);
		saved_err = -1;
		return;
	}
	held = fd;
}

/* All of @n bytes of @p to @fd; a short write to a closed terminal is let go. */
static void write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	for (; n; p += w, n -= (size_t)w)
		if ((w = write(fd, p, n)) <= 0)
			return;
}

void mpi_capture_end(bool replay)
{
	char prefix[300];
	off_t len;
	char *text, *line, *nl;

	if (held < 0)
		return;
	fflush(stderr);
	len = lseek(held, 0, SEEK_END);
	text = len > 0 ? malloc((size_t)len + 1) : NULL;
	if (replay && text && pread(held, text, (size_t)len, 0) == len) {
		text[len] = '\0';
		snprintf(prefix, sizeof(prefix), "rank %u (%s): ", mpi_rank(), mpi_host());
		for (line = text; *line; line = nl) {
			nl = strchr(line, '\n');
			nl = nl ? nl + 1 : line + strlen(line);
			write_all(saved_err, prefix, strlen(prefix));
			write_all(saved_err, line, (size_t)(nl - line));
		}
	}
	free(text);
	dup2(saved_err, STDERR_FILENO);
	close(saved_err);
	close(held);
	held = saved_err = -1;
}
