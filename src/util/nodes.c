/* SPDX-License-Identifier: MIT */
/*
 * NUMA placement through libnuma (see nodes.h).  The memory policy is set
 * with set_mempolicy() itself rather than libnuma's void setters, so that
 * a failure is an error with its errno, not a line libnuma prints.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/nodes.h"
#include "util/util.h"

#ifdef IOGAUGE_HAVE_LIBNUMA
#include <ctype.h>
#include <numa.h>
#include <numaif.h>

/* libnuma reports a bad node list by printing through these; its
 * callers here say what was wrong themselves, and only main.c prints. */
void numa_warn(int num, char *fmt, ...)
{
	(void)num;
	(void)fmt;
}

void numa_error(char *where)
{
	(void)where;
}

static int need_numa(char **cause)
{
	if (numa_available() < 0)
		return set_cause(cause, "this system has no NUMA support (get_mempolicy fails)");
	return 0;
}

int nodes_check_list(const char *list, char **cause)
{
	struct bitmask *m;
	int ret = need_numa(cause);

	if (ret)
		return ret;
	m = numa_parse_nodestring(list);
	if (!m)
		return set_cause(cause,
				 "'%s' is not a list of this machine's NUMA nodes (0-%d; "
				 "\"all\" for every one)",
				 list, numa_max_node());
	numa_free_nodemask(m);
	return 0;
}

enum { POL_DEFAULT, POL_PREFER, POL_BIND, POL_INTERLEAVE, POL_LOCAL };

static const char *const pol_names[] = { "default", "prefer", "bind", "interleave", "local" };

/* @policy split at its colon: the mode and *@nodes (NULL: none given). */
static int pol_split(const char *policy, const char **nodes)
{
	const char *colon = strchr(policy, ':');
	size_t n = colon ? (size_t)(colon - policy) : strlen(policy);
	unsigned i;

	*nodes = colon ? colon + 1 : NULL;
	for (i = 0; i < ARRAY_SIZE(pol_names); i++)
		if (strlen(pol_names[i]) == n && !strncmp(policy, pol_names[i], n))
			return (int)i;
	return -1;
}

int nodes_check_policy(const char *policy, char **cause)
{
	const char *nodes, *p;
	int mode = pol_split(policy, &nodes), ret;

	if (mode < 0)
		return set_cause(cause,
				 "'%s': the policy is default, prefer:NODE, bind:NODES, "
				 "interleave[:NODES] or local",
				 policy);
	switch (mode) {
	case POL_DEFAULT:
	case POL_LOCAL:
		if (nodes)
			return set_cause(cause, "'%s': %s takes no node list", policy,
					 pol_names[mode]);
		return 0;
	case POL_PREFER:
		for (p = nodes; p && isdigit((unsigned char)*p); p++)
			;
		if (!nodes || !*nodes || *p)
			return set_cause(cause, "'%s': prefer takes one node (prefer:0)", policy);
		break;
	case POL_BIND:
		if (!nodes)
			return set_cause(cause, "'%s': bind needs a node list (bind:0-1)", policy);
		break;
	default:
		break;
	}
	ret = nodes_check_list(nodes ? nodes : "all", cause);
	/* fio takes any number for prefer and fails when it runs; a node
	 * this machine lacks is refused here, with the others. */
	if (!ret && mode == POL_PREFER && atoi(nodes) > numa_max_node())
		return set_cause(cause, "'%s': node %s is not one of this machine's (0-%d)", policy,
				 nodes, numa_max_node());
	return ret;
}

static int set_policy(const char *policy, char **cause)
{
	const char *nodes;
	int mode = pol_split(policy, &nodes), kmode, ret = 0;
	struct bitmask *m = NULL;

	switch (mode) {
	case POL_DEFAULT:
		return 0; /* as fio: the policy the process had */
	case POL_LOCAL:
		kmode = MPOL_LOCAL; /* with no node, as libnuma's numa_set_localalloc */
		m = numa_allocate_nodemask();
		break;
	case POL_PREFER:
		kmode = MPOL_PREFERRED;
		m = numa_allocate_nodemask();
		numa_bitmask_setbit(m, (unsigned)atoi(nodes));
		break;
	case POL_BIND:
		kmode = MPOL_BIND;
		m = numa_parse_nodestring(nodes);
		break;
	default:
		kmode = MPOL_INTERLEAVE;
		m = numa_parse_nodestring(nodes ? nodes : "all");
		break;
	}
	if (!m)
		return set_cause(cause, "numa_mem_policy=%s: the node list no longer reads",
				 policy);
	if (set_mempolicy(kmode, m->maskp, m->size + 1) < 0)
		ret = set_cause_errno(cause, errno, "numa_mem_policy=%s: set_mempolicy: %s", policy,
				      strerror(errno));
	numa_free_nodemask(m);
	return ret;
}

int nodes_apply(const char *cpu_nodes, const char *mem_policy, char **cause)
{
	int ret;

	if (cpu_nodes) {
		struct bitmask *m = numa_parse_nodestring(cpu_nodes);

		if (!m)
			return set_cause(cause, "numa_cpu_nodes=%s: the node list no longer reads",
					 cpu_nodes);
		ret = numa_run_on_node_mask(m) < 0 ? -errno : 0;
		numa_free_nodemask(m);
		if (ret)
			return set_cause_errno(cause, -ret,
					       "numa_cpu_nodes=%s: cannot run on those nodes: %s",
					       cpu_nodes, strerror(-ret));
	}
	return mem_policy ? set_policy(mem_policy, cause) : 0;
}

#else

int nodes_check_list(const char *list, char **cause)
{
	(void)list;
	return set_cause(cause, "this build of iogauge has no libnuma (apt-get install "
				"libnuma-dev, then build again)");
}

int nodes_check_policy(const char *policy, char **cause)
{
	return nodes_check_list(policy, cause);
}

int nodes_apply(const char *cpu_nodes, const char *mem_policy, char **cause)
{
	(void)cpu_nodes;
	(void)mem_policy;
	(void)cause;
	return 0;
}

#endif
