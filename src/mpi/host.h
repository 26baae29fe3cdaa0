/* SPDX-License-Identifier: MIT */
/*
 * This rank's host name, kept once for $hostname and the report: both
 * builds share it.
 */
#ifndef IOGAUGE_MPI_HOST_H
#define IOGAUGE_MPI_HOST_H

/* Keeps @name, or gethostname()'s when @name is NULL or empty. */
void mpi_host_init(const char *name);
/* The name kept; gethostname()'s if mpi_host_init was not called. */
const char *mpi_host_name(void);

#endif
