/* SPDX-License-Identifier: MIT */
/*
 * Parsing and judging iogauge slo's latency targets (slo.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/units.h"
#include "sweep/slo.h"
#include "util/util.h"

int slo_target_parse(const char *s, struct slo_target *t, char **cause)
{
	const char *op = strchr(s, '<');
	char *pct = NULL, *why = NULL;
	uint64_t ns;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (s[0] != 'p' || !op)
		return set_cause(cause,
				 "--target '%s': a percentile and a bound, as 'p99<=2ms' or "
				 "'p99.9<10ms'",
				 s);
	pct = xstrndup(s + 1, (size_t)(op - s - 1));
	if (units_parse_double(pct, &t->pct, &why) || !(t->pct > 0 && t->pct < 100)) {
		ret = set_cause(cause,
				"--target '%s': the percentile '%s' is not a number above 0 and "
				"below 100",
				s, pct);
		goto out;
	}
	t->strict = op[1] != '=';
	op += t->strict ? 1 : 2;
	free(why);
	why = NULL;
	if (!*op || units_parse_time(op, NSEC_PER_USEC, &ns, &why)) {
		ret = set_cause(cause, "--target '%s': '%s' is not a time (2ms, 500us, 1s)", s, op);
		goto out;
	}
	if (!ns) {
		ret = set_cause(cause, "--target '%s': no latency is below 0", s);
		goto out;
	}
	t->ns = (double)ns;
out:
	free(why);
	free(pct);
	return ret;
}

bool slo_target_met(const struct slo_target *t, double ns)
{
	return t->strict ? ns < t->ns : ns <= t->ns;
}
