/* SPDX-License-Identifier: MIT */
/*
 * A swept option's values: a comma list of values and ranges (see
 * sweep.h).  A range's values are written back as the job file would
 * take them: with a k/m/g suffix when the range used units and the value
 * is a whole number of them, else in decimal.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/units.h"
#include "sweep/sweep.h"

/* More points than anyone would wait for is a typo. */
#define AXIS_MAX_VALUES 4096

static void axis_push(struct sweep_axis *a, char *v)
{
	a->vals = xrealloc(a->vals, (a->n + 1) * sizeof(*a->vals));
	a->vals[a->n++] = v;
}

static char *size_text(uint64_t v, bool units)
{
	static const char suffix[] = "kmgtp";
	unsigned s = 0;

	if (!units || !v)
		return xasprintf("%llu", (unsigned long long)v);
	while (s < 5 && !(v % 1024)) {
		v /= 1024;
		s++;
	}
	if (!s)
		return xasprintf("%llu", (unsigned long long)v);
	return xasprintf("%llu%c", (unsigned long long)v, suffix[s - 1]);
}

static int range_end(const char *name, const char *item, const char *s, uint64_t *v, bool *units,
		     char **cause)
{
	char *why = NULL;

	if (units_parse_size(s, 1024, v, NULL, &why)) {
		free(why);
		return set_cause(cause, "--%s: range '%s': '%s' is not a number", name, item, s);
	}
	if (strspn(s, "0123456789") != strlen(s))
		*units = true;
	return 0;
}

/* A..BxF or A..B+S. */
static int axis_range(struct sweep_axis *a, const char *item, const char *dots, char **cause)
{
	char *lo_s = xstrndup(item, (size_t)(dots - item)), *hi_s, *step_s;
	const char *op = strpbrk(dots + 2, "x+");
	uint64_t lo, hi, step = 1, v;
	bool units = false, mul = false;
	int ret = 0;

	if (op) {
		hi_s = xstrndup(dots + 2, (size_t)(op - dots - 2));
		step_s = xstrdup(op + 1);
		mul = *op == 'x';
	} else {
		hi_s = xstrdup(dots + 2);
		step_s = xstrdup("1");
	}
	ret = range_end(a->name, item, lo_s, &lo, &units, cause);
	if (!ret)
		ret = range_end(a->name, item, hi_s, &hi, &units, cause);
	if (!ret && !mul)
		ret = range_end(a->name, item, step_s, &step, &units, cause);
	if (!ret && mul) {
		char *why = NULL;

		if (units_parse_uint(step_s, &step, &why) || step < 2) {
			free(why);
			ret = set_cause(cause,
					"--%s: range '%s': the factor after x is a whole "
					"number of 2 or more",
					a->name, item);
		}
	}
	if (!ret && !mul && !step)
		ret = set_cause(cause, "--%s: range '%s': a step of 0 never ends", a->name, item);
	if (!ret && mul && !lo)
		ret = set_cause(cause, "--%s: range '%s': a range that multiplies starts above 0",
				a->name, item);
	if (!ret && lo > hi)
		ret = set_cause(cause, "--%s: range '%s' is empty (%s is above %s)", a->name, item,
				lo_s, hi_s);
	for (v = lo; !ret && v <= hi;) {
		if (a->n >= AXIS_MAX_VALUES) {
			ret = set_cause(cause, "--%s: more than %d values", a->name,
					AXIS_MAX_VALUES);
			break;
		}
		axis_push(a, size_text(v, units));
		if ((mul && v > UINT64_MAX / step) || (!mul && v > UINT64_MAX - step))
			break;
		v = mul ? v * step : v + step;
	}
	free(lo_s);
	free(hi_s);
	free(step_s);
	return ret;
}

int sweep_axis_parse(struct sweep_axis *a, const char *name, const char *spec, char **cause)
{
	const char *p = spec;
	unsigned i;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	a->name = xstrdup(name);
	while (!ret) {
		size_t len = strcspn(p, ",");
		char *item = xstrndup(p, len);
		const char *dots = strstr(item, "..");

		if (!len)
			ret = set_cause(cause, "--%s '%s': an empty value in the list", name, spec);
		else if (dots)
			ret = axis_range(a, item, dots, cause);
		else if (a->n >= AXIS_MAX_VALUES)
			ret = set_cause(cause, "--%s: more than %d values", name, AXIS_MAX_VALUES);
		else
			axis_push(a, xstrdup(item));
		free(item);
		if (!p[len])
			break;
		p += len + 1;
	}
	if (ret) {
		sweep_axis_free(a);
		return ret;
	}
	a->x = xcalloc(a->n, sizeof(*a->x));
	a->numeric = true;
	for (i = 0; i < a->n; i++) {
		char *why = NULL;
		uint64_t v;

		if (!units_parse_size(a->vals[i], 1024, &v, NULL, &why)) {
			a->x[i] = (double)v;
		} else {
			free(why);
			why = NULL;
			if (units_parse_double(a->vals[i], &a->x[i], &why)) {
				free(why);
				a->numeric = false;
			}
		}
	}
	if (!a->numeric)
		for (i = 0; i < a->n; i++)
			a->x[i] = i;
	return 0;
}

void sweep_axis_free(struct sweep_axis *a)
{
	unsigned i;

	for (i = 0; i < a->n; i++)
		free(a->vals[i]);
	free(a->vals);
	free(a->x);
	free(a->name);
	memset(a, 0, sizeof(*a));
}
