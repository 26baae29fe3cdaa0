/* SPDX-License-Identifier: MIT */
/* This rank's host name (host.h). */
#include <string.h>
#include <unistd.h>

#include "mpi/host.h"

static char host[256];

void mpi_host_init(const char *name)
{
	if (name && *name) {
		strncpy(host, name, sizeof(host) - 1);
		return;
	}
	if (gethostname(host, sizeof(host) - 1) || !*host)
		strcpy(host, "localhost");
}

const char *mpi_host_name(void)
{
	if (!*host)
		mpi_host_init(NULL);
	return host;
}
