/* SPDX-License-Identifier: MIT */
/*
 * NUMA placement of a clone, as fio's numa_cpu_nodes and numa_mem_policy
 * say: node lists read by libnuma (fio's reader, so "0-1", "all", "+0",
 * "!1" mean what they mean there), checked when the job is read and
 * applied in the clone's own thread before its buffers are made.  Not
 * the CPU list of cpus_allowed (worker_pin).  Without libnuma in the
 * build, a job that sets either option is refused.
 */
#ifndef IOGAUGE_NODES_H
#define IOGAUGE_NODES_H

/* Whether @list names nodes of this machine.  0, or -EINVAL with *cause
 * (what is wrong, without the option's name). */
int nodes_check_list(const char *list, char **cause);
/* Whether @policy reads as fio's numa_mem_policy: default, local,
 * prefer:NODE, bind:LIST, interleave[:LIST].  0, or -EINVAL with *cause. */
int nodes_check_policy(const char *policy, char **cause);
/* The calling thread moved onto the CPUs of @cpu_nodes (NULL: left as it
 * is) and its memory policy set from @mem_policy (NULL: left as it is),
 * both checked before.  0, or -errno with *cause naming the call. */
int nodes_apply(const char *cpu_nodes, const char *mem_policy, char **cause);

#endif
