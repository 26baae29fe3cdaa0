/* SPDX-License-Identifier: MIT */
/*
 * iogauge slo's latency targets, "p99<=2ms": a percentile, a bound and
 * whether the bound itself is allowed.  Pure.
 */
#ifndef IOGAUGE_SWEEP_SLO_H
#define IOGAUGE_SWEEP_SLO_H

#include <stdbool.h>

struct slo_target {
	double pct;  /* in (0, 100) */
	double ns;   /* the bound */
	bool strict; /* '<': the bound itself misses */
};

/* Reads "pP<=T" or "pP<T": P a percentile above 0 and below 100 (99,
 * 99.9), T a time with a unit (2ms, 500us; a bare number is in
 * microseconds).  0, or -EINVAL with *cause quoting @s and what is wrong. */
int slo_target_parse(const char *s, struct slo_target *t, char **cause);

/* Whether a latency of @ns meets @t. */
bool slo_target_met(const struct slo_target *t, double ns);

#endif
