/* SPDX-License-Identifier: MIT */
/*
 * The value kinds of the option table: how each kind of job-file value is
 * parsed into struct job and printed back as a job file would spell it.
 * Bounds come from the table row; rules that involve two options are in
 * job.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/options.h"
#include "jobfile/units.h"
#include "verify/verify.h"

#include "engines/engine.h"

#define FIELD(o, job, type)   ((type *)opt_field(o, job, (o)->off))
#define FIELD2(o, job, type)  ((type *)opt_field(o, job, (o)->off2))
#define CFIELD(o, job, type)  ((const type *)opt_field(o, job, (o)->off))
#define CFIELD2(o, job, type) ((const type *)opt_field(o, job, (o)->off2))

static int check_bounds(const struct opt_def *o, uint64_t v, const char *val, char **cause)
{
	if (v < o->min)
		return set_cause(cause, "'%s' is below the minimum of %llu", val,
				 (unsigned long long)o->min);
	if (o->max && v > o->max)
		return set_cause(cause, "'%s' is above the maximum of %llu", val,
				 (unsigned long long)o->max);
	return 0;
}

/* Splits @s at @sep into a NULL-terminated array of fresh strings. */
static char **split(const char *s, char sep, unsigned *n)
{
	char **v = NULL;
	const char *p;

	*n = 0;
	for (;;) {
		p = strchr(s, sep);
		v = xrealloc(v, sizeof(*v) * (*n + 2));
		v[(*n)++] = p ? xstrndup(s, (size_t)(p - s)) : xstrdup(s);
		if (!p)
			break;
		s = p + 1;
	}
	v[*n] = NULL;
	return v;
}

static void free_split(char **v)
{
	char **p;

	for (p = v; p && *p; p++)
		free(*p);
	free(v);
}

/* ---- strings ---- */

static int str_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	char **f = FIELD(o, job, char *);

	(void)cause;
	free(*f);
	*f = xstrdup(val);
	return 0;
}

static void str_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const char *s = *CFIELD(o, job, char *);

	if (s)
		strbuf_adds(sb, s);
}

static void str_own(const struct opt_def *o, struct job *job)
{
	char **f = FIELD(o, job, char *);

	if (*f)
		*f = xstrdup(*f);
}

static void str_release(const struct opt_def *o, struct job *job)
{
	char **f = FIELD(o, job, char *);

	free(*f);
	*f = NULL;
}

const struct opt_kind opt_kind_str = { .syntax = "str",
				       .parse = str_parse,
				       .format = str_format,
				       .own = str_own,
				       .release = str_release };

/* "a:b\:c" -> { "a", "b:c" }: fio's filename and directory lists. */
static int str_list_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	struct str_list *l = FIELD(o, job, struct str_list);
	struct str_list nl = { NULL, 0 };
	struct strbuf cur = { 0 };
	const char *p;

	for (p = val;; p++) {
		if (*p == '\\' && p[1] == ':') {
			strbuf_addc(&cur, ':');
			p++;
			continue;
		}
		if (*p == ':' || !*p) {
			if (!cur.len) {
				strbuf_free(&cur);
				str_list_clear(&nl);
				return set_cause(cause, "'%s': empty name in the list", val);
			}
			str_list_push(&nl, strbuf_detach(&cur));
			if (!*p)
				break;
			continue;
		}
		strbuf_addc(&cur, *p);
	}
	str_list_clear(l);
	*l = nl;
	return 0;
}

static void str_list_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct str_list *l = CFIELD(o, job, struct str_list);
	const char *p;
	unsigned i;

	for (i = 0; i < l->n; i++) {
		if (i)
			strbuf_addc(sb, ':');
		for (p = l->v[i]; *p; p++) {
			if (*p == ':')
				strbuf_addc(sb, '\\');
			strbuf_addc(sb, *p);
		}
	}
}

static void str_list_own(const struct opt_def *o, struct job *job)
{
	struct str_list *l = FIELD(o, job, struct str_list), shared = *l;

	str_list_copy(l, &shared);
}

static void str_list_release(const struct opt_def *o, struct job *job)
{
	str_list_clear(FIELD(o, job, struct str_list));
}

const struct opt_kind opt_kind_str_list = { .syntax = "name[:name...]",
					    .parse = str_list_parse,
					    .format = str_list_format,
					    .own = str_list_own,
					    .release = str_list_release };

/* ---- booleans and integers ---- */

static int bool_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	bool b;
	int ret = units_parse_bool(val, &b, cause);

	if (ret)
		return ret;
	*FIELD(o, job, bool) = (o->flags & OPTF_INVERT) ? !b : b;
	return 0;
}

static void bool_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	bool b = *CFIELD(o, job, bool);

	strbuf_addc(sb, ((o->flags & OPTF_INVERT) ? !b : b) ? '1' : '0');
}

const struct opt_kind opt_kind_bool = { .syntax = "bool",
					.parse = bool_parse,
					.format = bool_format };

static int uint_value(const struct opt_def *o, const char *val, uint64_t *v, char **cause)
{
	int ret = units_parse_uint(val, v, cause);

	if (ret)
		return ret;
	if (*v > UINT32_MAX)
		return set_cause(cause, "'%s' is too large", val);
	return check_bounds(o, *v, val, cause);
}

static int uint_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	uint64_t v;
	int ret = uint_value(o, val, &v, cause);

	if (!ret)
		*FIELD(o, job, unsigned) = (unsigned)v;
	return ret;
}

static void uint_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	strbuf_addu(sb, *CFIELD(o, job, unsigned));
}

const struct opt_kind opt_kind_uint = { .syntax = "int",
					.parse = uint_parse,
					.format = uint_format };

/* A percentage: "70" or "70%". */
static int pct_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	size_t len = strlen(val);
	char *num = xstrdup(val);
	int ret;

	if (len && num[len - 1] == '%')
		num[len - 1] = '\0';
	ret = uint_parse(o, job, num, cause);
	free(num);
	return ret;
}

const struct opt_kind opt_kind_pct = { .syntax = "percent",
				       .parse = pct_parse,
				       .format = uint_format };

static int u64_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	uint64_t v;
	int ret = units_parse_uint(val, &v, cause);

	if (!ret)
		ret = check_bounds(o, v, val, cause);
	if (!ret)
		*FIELD(o, job, uint64_t) = v;
	return ret;
}

static void u64_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	strbuf_addu(sb, *CFIELD(o, job, uint64_t));
}

const struct opt_kind opt_kind_u64 = { .syntax = "int", .parse = u64_parse, .format = u64_format };

/* A signed whole number (nice=-5): the row's min and max are int64_t
 * values stored as uint64_t, and both bound it. */
static int int_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	const char *num = val[0] == '-' ? val + 1 : val;
	int64_t lo = (int64_t)o->min, hi = (int64_t)o->max, v;
	uint64_t u;
	int ret;

	if (!*num || *num == '-' || *num == '+')
		return set_cause(cause, "'%s' is not a whole number", val);
	ret = units_parse_uint(num, &u, cause);
	if (ret)
		return ret;
	if (u > (uint64_t)INT32_MAX + 1)
		return set_cause(cause, "'%s' is out of range (%lld to %lld)", val, (long long)lo,
				 (long long)hi);
	v = num == val ? (int64_t)u : -(int64_t)u;
	if (v < lo || v > hi)
		return set_cause(cause, "'%s' is out of range (%lld to %lld)", val, (long long)lo,
				 (long long)hi);
	*FIELD(o, job, int) = (int)v;
	return 0;
}

static void int_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	strbuf_addf(sb, "%d", *CFIELD(o, job, int));
}

const struct opt_kind opt_kind_int = { .syntax = "int", .parse = int_parse, .format = int_format };

/* ---- enums ---- */

/* @val is none of option @o's choices, listed in @sb (freed here): -EINVAL,
 * with *cause saying so, or what fio means by it when iogauge lacks it. */
static int refuse_choice(const struct opt_def *o, const char *val, struct strbuf *sb, char **cause)
{
	const char *why = fio_value_unsupported(o->name, val);
	const char *other = fio_value_not_built(o->name, val);

	if (other)
		*cause = xasprintf("'%s' is %s, which iogauge does not build (valid: %s)", val,
				   other, sb->buf);
	else if (why)
		*cause = xasprintf("'%s' is %s, which iogauge does not implement (valid: %s)", val,
				   why, sb->buf);
	else
		*cause = xasprintf("'%s' is not a valid %s (valid: %s)", val, o->name, sb->buf);
	strbuf_free(sb);
	return -EINVAL;
}

static void enum_list(const struct opt_def *o, struct strbuf *sb)
{
	const struct opt_enum *e;

	for (e = o->enums; e->name; e++)
		strbuf_addf(sb, "%s%s", e == o->enums ? "" : " ", e->name);
}

static int enum_lookup(const struct opt_def *o, const char *val, int *out, char **cause)
{
	const struct opt_enum *e;
	struct strbuf sb = { 0 };

	for (e = o->enums; e->name; e++) {
		if (!strcmp(e->name, val)) {
			*out = e->value;
			return 0;
		}
	}
	enum_list(o, &sb);
	/* -EINVAL written out: gcc -O3 then sees every success set the value. */
	refuse_choice(o, val, &sb, cause);
	return -EINVAL;
}

static int enum_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	int v;
	int ret = enum_lookup(o, val, &v, cause);

	if (!ret)
		*FIELD(o, job, int) = v;
	return ret;
}

/* The first spelling of a value: the canonical one. */
static const char *enum_name(const struct opt_def *o, int v)
{
	const struct opt_enum *e;

	for (e = o->enums; e->name; e++)
		if (e->value == v)
			return e->name;
	return "?";
}

static void enum_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	strbuf_adds(sb, enum_name(o, *CFIELD(o, job, int)));
}

const struct opt_kind opt_kind_enum = { .syntax = "choice",
					.parse = enum_parse,
					.format = enum_format };

/* ---- engines: a name of engine.c's table ---- */

static int engine_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	const struct engine_ops *ops = engine_named(val);
	struct strbuf sb = { 0 };
	unsigned i;

	if (ops) {
		*FIELD(o, job, const struct engine_ops *) = ops;
		return 0;
	}
	for (i = 0; engine_at(i); i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", engine_at(i)->name);
	/* -EINVAL written out: gcc -O3 then sees every success set the value. */
	refuse_choice(o, val, &sb, cause);
	return -EINVAL;
}

static void engine_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct engine_ops *ops = *FIELD(o, job, const struct engine_ops *);

	strbuf_addf(sb, "%s", ops ? ops->name : "?");
}

const struct opt_kind opt_kind_engine = { .syntax = "engine",
					  .parse = engine_parse,
					  .format = engine_format };

/* ---- sizes ---- */

static int size_value(const struct opt_def *o, const struct job *job, const char *val, uint64_t *v,
		      bool *pct, char **cause)
{
	int ret = units_parse_size(val, job->kb_base, v, pct, cause);

	if (ret || (pct && *pct))
		return ret;
	return check_bounds(o, *v, val, cause);
}

static int size_pct_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	struct size_or_pct *f = FIELD(o, job, struct size_or_pct);
	struct size_or_pct n;
	int ret = size_value(o, job, val, &n.val, &n.pct, cause);

	if (!ret)
		*f = n;
	return ret;
}

static void size_pct_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct size_or_pct *f = CFIELD(o, job, struct size_or_pct);

	strbuf_addf(sb, "%llu%s", (unsigned long long)f->val, f->pct ? "%" : "");
}

const struct opt_kind opt_kind_size_pct = { .syntax = "size|N%",
					    .parse = size_pct_parse,
					    .format = size_pct_format };

/* A size in bytes, no percentage. */
static int size_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	uint64_t v;
	int ret = size_value(o, job, val, &v, NULL, cause);

	if (!ret)
		*FIELD(o, job, uint64_t) = v;
	return ret;
}

const struct opt_kind opt_kind_size = { .syntax = "size",
					.parse = size_parse,
					.format = u64_format };

/*
 * steadystate: "KIND:LIMIT", the limit a percentage ("10%"), or for iops
 * and iops_slope a number of IOPS, for bw and bw_slope a size per second.
 */
static const struct opt_enum steady_enums[] = {
	{ "iops", STEADY_IOPS },
	{ "iops_slope", STEADY_IOPS_SLOPE },
	{ "bw", STEADY_BW },
	{ "bw_slope", STEADY_BW_SLOPE },
	{ NULL, 0 },
};

static int steady_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	struct steady_spec *f = FIELD(o, job, struct steady_spec), n = { 0 };
	const char *colon = strchr(val, ':');
	const struct opt_enum *e;
	size_t klen = colon ? (size_t)(colon - val) : strlen(val);
	char *lim;
	int ret;

	for (e = steady_enums; e->name; e++)
		if (strlen(e->name) == klen && !strncmp(e->name, val, klen))
			break;
	if (!e->name)
		return set_cause(
			cause, "'%s': the criterion is one of iops, iops_slope, bw, bw_slope", val);
	if (!colon || !colon[1])
		return set_cause(cause, "'%s': a limit must follow the criterion (%s:10%%)", val,
				 e->name);
	n.kind = (enum steady_kind)e->value;
	lim = xstrdup(colon + 1);
	n.pct = lim[strlen(lim) - 1] == '%';
	if (n.pct)
		lim[strlen(lim) - 1] = '\0';
	if (n.pct || n.kind == STEADY_IOPS || n.kind == STEADY_IOPS_SLOPE) {
		ret = units_parse_double(lim, &n.limit, cause);
	} else {
		uint64_t v;

		ret = units_parse_size(lim, job->kb_base, &v, NULL, cause);
		n.limit = (double)v;
	}
	free(lim);
	if (!ret && !(n.limit >= 0))
		ret = set_cause(cause, "'%s': the limit must not be negative", val);
	if (!ret)
		*f = n;
	return ret;
}

static void steady_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct steady_spec *f = CFIELD(o, job, struct steady_spec);

	strbuf_addf(sb, "%s:%g%s", steady_enums[f->kind].name, f->limit, f->pct ? "%" : "");
}

const struct opt_kind opt_kind_steady = { .syntax = "kind:limit",
					  .parse = steady_parse,
					  .format = steady_format };

/*
 * Per-direction lists, fio style: "r,w,t".  The last value given applies
 * to its own direction and the ones after it, so one value sets all three
 * and with two, trim takes the write value; a value followed by a comma
 * applies to its direction only ("500k," caps reads alone); an empty
 * piece changes nothing.
 */
typedef int (*ddir_fn)(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
		       char **cause);

static int per_ddir(const struct opt_def *o, struct job *job, const char *val, ddir_fn one,
		    char **cause)
{
	unsigned n, i, d;
	char **pieces = split(val, ',', &n);
	int ret = 0;

	for (i = 0; i < n && !*pieces[i]; i++)
		;
	if (i == n)
		ret = set_cause(cause, "'%s': no value for any direction", val);
	else if (n > DDIR_COUNT)
		ret = set_cause(cause, "'%s': at most %d comma-separated values (read,write,trim)",
				val, DDIR_COUNT);
	for (i = 0; i < n && !ret; i++)
		for (d = i; d < (i + 1 == n ? DDIR_COUNT : i + 1u) && !ret && *pieces[i]; d++)
			ret = one(o, job, pieces[i], (enum ddir)d, cause);
	free_split(pieces);
	return ret;
}

static int size_ddir_one(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
			 char **cause)
{
	return size_value(o, job, piece, &FIELD(o, job, uint64_t)[d], NULL, cause);
}

static int size_ddir_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	return per_ddir(o, job, val, size_ddir_one, cause);
}

static void u64_ddir_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const uint64_t *v = CFIELD(o, job, uint64_t);

	if (v[0] == v[1] && v[1] == v[2])
		strbuf_addf(sb, "%llu", (unsigned long long)v[0]);
	else
		strbuf_addf(sb, "%llu,%llu,%llu", (unsigned long long)v[0],
			    (unsigned long long)v[1], (unsigned long long)v[2]);
}

const struct opt_kind opt_kind_size_ddir = { .syntax = "size[,size[,size]]",
					     .parse = size_ddir_parse,
					     .format = u64_ddir_format };

static int u64_ddir_one(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
			char **cause)
{
	uint64_t v;
	int ret = units_parse_uint(piece, &v, cause);

	if (!ret)
		ret = check_bounds(o, v, piece, cause);
	if (!ret)
		FIELD(o, job, uint64_t)[d] = v;
	return ret;
}

static int u64_ddir_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	return per_ddir(o, job, val, u64_ddir_one, cause);
}

const struct opt_kind opt_kind_u64_ddir = { .syntax = "int[,int[,int]]",
					    .parse = u64_ddir_parse,
					    .format = u64_ddir_format };

/* "LO-HI" or "LO:HI" sizes; one value gives LO == HI. */
static int size_range_value(const struct opt_def *o, const struct job *job, const char *val,
			    uint64_t *lo, uint64_t *hi, char **cause)
{
	long cut = units_range_split(val);
	char *low;
	int ret;

	if (cut < 0) {
		ret = size_value(o, job, val, lo, NULL, cause);
		*hi = *lo;
		return ret;
	}
	low = xstrndup(val, (size_t)cut);
	ret = size_value(o, job, low, lo, NULL, cause);
	free(low);
	if (!ret)
		ret = size_value(o, job, val + cut + 1, hi, NULL, cause);
	if (!ret && *lo > *hi)
		ret = set_cause(cause, "'%s': the low end is above the high end", val);
	return ret;
}

static int range_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	uint64_t lo, hi;
	int ret = size_range_value(o, job, val, &lo, &hi, cause);

	if (!ret) {
		*FIELD(o, job, uint64_t) = lo;
		*FIELD2(o, job, uint64_t) = hi;
	}
	return ret;
}

static void range_print(uint64_t lo, uint64_t hi, struct strbuf *sb)
{
	if (lo == hi)
		strbuf_addf(sb, "%llu", (unsigned long long)lo);
	else
		strbuf_addf(sb, "%llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
}

static void range_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	range_print(*CFIELD(o, job, uint64_t), *CFIELD2(o, job, uint64_t), sb);
}

const struct opt_kind opt_kind_range = { .syntax = "size[-size]",
					 .parse = range_parse,
					 .format = range_format };

static int range_ddir_one(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
			  char **cause)
{
	return size_range_value(o, job, piece, &FIELD(o, job, uint64_t)[d],
				&FIELD2(o, job, uint64_t)[d], cause);
}

static int range_ddir_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	return per_ddir(o, job, val, range_ddir_one, cause);
}

static void range_ddir_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const uint64_t *lo = CFIELD(o, job, uint64_t), *hi = CFIELD2(o, job, uint64_t);
	unsigned d, n = 1;

	if (lo[1] != lo[0] || hi[1] != hi[0] || lo[2] != lo[0] || hi[2] != hi[0])
		n = DDIR_COUNT;
	for (d = 0; d < n; d++) {
		if (d)
			strbuf_addc(sb, ',');
		if (hi[d]) /* a direction left unset ("4k-8k,") prints empty */
			range_print(lo[d], hi[d], sb);
	}
}

const struct opt_kind opt_kind_range_ddir = { .syntax = "size-size[,...]",
					      .parse = range_ddir_parse,
					      .format = range_ddir_format };

/* ---- times ---- */

static int time_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	uint64_t v;
	int ret = units_parse_time(val, o->unit, &v, cause);

	if (!ret)
		ret = check_bounds(o, v, val, cause);
	if (!ret)
		*FIELD(o, job, uint64_t) = v;
	return ret;
}

static void time_print(uint64_t ns, struct strbuf *sb)
{
	char buf[32];

	units_format_time(ns, buf, sizeof(buf));
	strbuf_adds(sb, ns ? buf : "0");
}

static void time_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	time_print(*CFIELD(o, job, uint64_t), sb);
}

const struct opt_kind opt_kind_time = { .syntax = "time",
					.parse = time_parse,
					.format = time_format };

/* A number with a fraction ("99.9"), within max when max is set. */
static int float_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	double v;
	int ret = units_parse_double(val, &v, cause);

	if (!ret && (!(v >= 0) || (o->max && v > (double)o->max)))
		ret = set_cause(cause, "'%s' is outside 0..%llu", val, (unsigned long long)o->max);
	if (!ret)
		*FIELD(o, job, double) = v;
	return ret;
}

static void float_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	strbuf_addf(sb, "%g", *CFIELD(o, job, double));
}

const struct opt_kind opt_kind_float = { .syntax = "number",
					 .parse = float_parse,
					 .format = float_format };

/* A time per direction: "250ms" or "read,write,trim" as per_ddir. */
static int time_ddir_one(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
			 char **cause)
{
	uint64_t v;
	int ret = units_parse_time(piece, o->unit, &v, cause);

	if (!ret)
		ret = check_bounds(o, v, piece, cause);
	if (!ret)
		FIELD(o, job, uint64_t)[d] = v;
	return ret;
}

static int time_ddir_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	return per_ddir(o, job, val, time_ddir_one, cause);
}

static void time_ddir_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const uint64_t *v = CFIELD(o, job, uint64_t);
	unsigned d, n = v[1] != v[0] || v[2] != v[0] ? DDIR_COUNT : 1;

	for (d = 0; d < n; d++) {
		if (d)
			strbuf_addc(sb, ',');
		time_print(v[d], sb);
	}
}

const struct opt_kind opt_kind_time_ddir = { .syntax = "time[,time[,time]]",
					     .parse = time_ddir_parse,
					     .format = time_ddir_format };

static int time_range_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	long cut = units_range_split(val);
	uint64_t lo, hi;
	char *low;
	int ret;

	if (cut < 0) {
		ret = units_parse_time(val, o->unit, &lo, cause);
		hi = lo;
	} else {
		low = xstrndup(val, (size_t)cut);
		ret = units_parse_time(low, o->unit, &lo, cause);
		free(low);
		if (!ret)
			ret = units_parse_time(val + cut + 1, o->unit, &hi, cause);
		if (!ret && lo > hi)
			ret = set_cause(cause, "'%s': the low end is above the high end", val);
	}
	if (!ret) {
		*FIELD(o, job, uint64_t) = lo;
		*FIELD2(o, job, uint64_t) = hi;
	}
	return ret;
}

static void time_range_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	uint64_t lo = *CFIELD(o, job, uint64_t), hi = *CFIELD2(o, job, uint64_t);

	time_print(lo, sb);
	if (hi != lo) {
		strbuf_addc(sb, '-');
		time_print(hi, sb);
	}
}

const struct opt_kind opt_kind_time_range = { .syntax = "time[-time]",
					      .parse = time_range_parse,
					      .format = time_range_format };

/* ---- rw=MODE[:N] ---- */

static int rw_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	const char *colon = strchr(val, ':');
	char *mode = colon ? xstrndup(val, (size_t)(colon - val)) : xstrdup(val);
	const char *suf = colon ? colon + 1 : NULL;
	uint64_t v;
	int rw, ret;

	ret = enum_lookup(o, mode, &rw, cause);
	free(mode);
	if (ret)
		return ret;
	job->rw = (enum rw_mode)rw;
	job->rw_seq_add = 0;
	job->rw_rand_nr = 1;
	if (!suf)
		return 0;
	if (job_is_random(job->rw)) {
		ret = units_parse_size(suf, job->kb_base, &v, NULL, cause);
		if (!ret && (v < 1 || v > UINT32_MAX))
			ret = set_cause(cause, "'%s': I/Os per random offset must be 1 to %u", suf,
					UINT32_MAX);
		if (!ret)
			job->rw_rand_nr = (unsigned)v;
	} else {
		bool back = *suf == '-';

		ret = units_parse_size(suf + back, job->kb_base, &v, NULL, cause);
		if (!ret && v > INT64_MAX)
			ret = set_cause(cause, "'%s': the gap is too large", suf);
		if (!ret)
			job->rw_seq_add = back ? -(int64_t)v : (int64_t)v;
	}
	if (ret) {
		char *inner = *cause;

		*cause = xasprintf("'%s': bad :N suffix: %s", val, inner);
		free(inner);
	}
	return ret;
}

static void rw_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	strbuf_adds(sb, enum_name(o, (int)job->rw));
	if (job->rw_seq_add)
		strbuf_addf(sb, ":%lld", (long long)job->rw_seq_add);
	else if (job->rw_rand_nr > 1)
		strbuf_addf(sb, ":%u", job->rw_rand_nr);
}

const struct opt_kind opt_kind_rw = { .syntax = "mode[:N]",
				      .parse = rw_parse,
				      .format = rw_format };

/* ---- bssplit=bs/pct:bs/pct[,...] ---- */

static int bssplit_one(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
		       char **cause)
{
	struct bssplit_entry *e = job->bssplit[d];
	unsigned n, i, missing = 0;
	char **ent = split(piece, ':', &n);
	double sum = 0;
	int ret = 0;

	(void)o;
	if (n > JOB_MAX_BSSPLIT) {
		ret = set_cause(cause, "'%s': at most %d block sizes", piece, JOB_MAX_BSSPLIT);
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		char *slash = strchr(ent[i], '/');

		if (slash)
			*slash = '\0';
		ret = units_parse_size(ent[i], job->kb_base, &e[i].bs, NULL, cause);
		if (!ret && !e[i].bs)
			ret = set_cause(cause, "'%s': a block size of 0", piece);
		if (ret)
			break;
		e[i].pct = -1;
		if (slash && slash[1]) {
			char *num = slash + 1;
			size_t len = strlen(num);

			if (num[len - 1] == '%')
				num[len - 1] = '\0';
			ret = units_parse_double(num, &e[i].pct, cause);
			if (!ret && (e[i].pct < 0 || e[i].pct > 100))
				ret = set_cause(cause, "'%s': a weight of %s%%", piece, num);
			if (!ret)
				sum += e[i].pct;
		} else {
			missing++;
		}
	}
	if (ret)
		goto out;
	if (sum > 100.0 + 1e-6) { /* 1e-6: what prints at 10 digits reads back */
		ret = set_cause(cause, "'%s': the weights add up to %g%%, more than 100%%", piece,
				sum);
		goto out;
	}
	if (!missing && sum < 100.0 - 1e-6) {
		ret = set_cause(cause, "'%s': the weights add up to %g%%, not 100%%", piece, sum);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (e[i].pct < 0)
			e[i].pct = (100.0 - sum) / missing;
	job->nr_bssplit[d] = n;
out:
	free_split(ent);
	return ret;
}

static int bssplit_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	if (!job->bssplit)
		job->bssplit = xcalloc(DDIR_COUNT, sizeof(*job->bssplit));
	return per_ddir(o, job, val, bssplit_one, cause);
}

static void bssplit_print(const struct job *job, unsigned d, struct strbuf *sb)
{
	unsigned i;

	for (i = 0; i < job->nr_bssplit[d]; i++)
		strbuf_addf(sb, "%s%llu/%.10g", i ? ":" : "",
			    (unsigned long long)job->bssplit[d][i].bs, job->bssplit[d][i].pct);
}

static bool bssplit_same(const struct job *job, unsigned a, unsigned b)
{
	return job->nr_bssplit[a] == job->nr_bssplit[b] &&
	       (!job->nr_bssplit[a] || !memcmp(job->bssplit[a], job->bssplit[b],
					       job->nr_bssplit[a] * sizeof(job->bssplit[a][0])));
}

static void bssplit_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	unsigned d, n = DDIR_COUNT;

	(void)o;
	if (bssplit_same(job, 0, 1) && bssplit_same(job, 0, 2))
		n = 1;
	for (d = 0; d < n; d++) {
		if (d)
			strbuf_addc(sb, ',');
		bssplit_print(job, d, sb);
	}
}

/* A per-direction array that a copied job still shares: its own now. */
static void *own_per_ddir(const void *shared, size_t each)
{
	void *p;

	if (!shared)
		return NULL;
	p = xmalloc(DDIR_COUNT * each);
	memcpy(p, shared, DDIR_COUNT * each);
	return p;
}

static void bssplit_own(const struct opt_def *o, struct job *job)
{
	(void)o;
	job->bssplit = own_per_ddir(job->bssplit, sizeof(*job->bssplit));
}

static void bssplit_release(const struct opt_def *o, struct job *job)
{
	(void)o;
	free(job->bssplit);
	job->bssplit = NULL;
}

const struct opt_kind opt_kind_bssplit = { .syntax = "bs/pct:bs/pct...[,...]",
					   .parse = bssplit_parse,
					   .format = bssplit_format,
					   .own = bssplit_own,
					   .release = bssplit_release };

/* ---- random_distribution ---- */

static const struct {
	const char *name;
	enum rand_dist_kind kind;
} rdist_names[] = {
	{ "random", RDIST_RANDOM }, { "zipf", RDIST_ZIPF },   { "pareto", RDIST_PARETO },
	{ "normal", RDIST_NORMAL }, { "zoned", RDIST_ZONED }, { "zoned_abs", RDIST_ZONED_ABS },
};

/*
 * One direction's zones: "60/10:30/20:10/70" (zoned) or "60/20g:40/80g"
 * (zoned_abs).  As fio 3.33: an empty entry ends the list; a zoned size
 * that is missing, empty or 0 takes an equal share of what the others
 * leave of 100% (rounded down; nothing when it is the only zone), and the
 * sizes may add up to less than 100% (the rest is not accessed); a
 * zoned_abs zone without a size has none.
 */
static int zones_one(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
		     char **cause)
{
	struct rand_dist *rd = &job->random_distribution;
	struct rand_zone *z = rd->zones[d];
	unsigned n, i, nr, missing = 0;
	char **ent = split(piece, ':', &n);
	double access = 0, size = 0;
	int ret = 0;

	(void)o;
	for (nr = 0; nr < n && *ent[nr]; nr++)
		;
	for (i = nr; i < n; i++)
		if (*ent[i]) {
			ret = set_cause(cause,
					"'%s': an empty zone ends fio's list, so '%s' after it "
					"would be ignored",
					piece, ent[i]);
			goto out;
		}
	if (nr > JOB_MAX_ZONES) {
		ret = set_cause(cause, "'%s': at most %d zones", piece, JOB_MAX_ZONES);
		goto out;
	}
	for (i = 0; i < nr && !ret; i++) {
		char *slash = strchr(ent[i], '/');

		if (slash)
			*slash = '\0';
		memset(&z[i], 0, sizeof(z[i]));
		ret = units_parse_double(ent[i], &z[i].access_pct, cause);
		if (ret)
			break;
		if (rd->kind == RDIST_ZONED) {
			z[i].size_pct = -1; /* missing until it is given */
			if (slash && slash[1])
				ret = units_parse_double(slash + 1, &z[i].size_pct, cause);
			if (!ret && z[i].size_pct == 0)
				z[i].size_pct = -1;
		} else if (slash) {
			ret = units_parse_size(slash + 1, job->kb_base, &z[i].size, NULL, cause);
		}
		if (ret)
			break;
		if (z[i].access_pct < 0 || z[i].access_pct > 100 || z[i].size_pct > 100 ||
		    (z[i].size_pct < 0 && z[i].size_pct != -1))
			ret = set_cause(cause, "'%s': zone percentages must be 0 to 100", piece);
		access += z[i].access_pct;
		if (z[i].size_pct == -1)
			missing++;
		else
			size += z[i].size_pct;
	}
	if (ret)
		goto out;
	if (access < 100.0 - 1e-6 || access > 100.0 + 1e-6)
		ret = set_cause(cause, "'%s': the access percentages add up to %g%%, not 100%%",
				piece, access);
	else if (rd->kind == RDIST_ZONED && size > 100.0 + 1e-6)
		ret = set_cause(cause, "'%s': the size percentages add up to %g%%, more than 100%%",
				piece, size);
	if (ret)
		goto out;
	for (i = 0; i < nr && missing; i++)
		if (z[i].size_pct == -1)
			z[i].size_pct = nr == 1 ? 0 : floor((100.0 - size) / missing);
	rd->nr_zones[d] = nr;
out:
	free_split(ent);
	return ret;
}

static int rand_dist_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	struct rand_dist *rd = &job->random_distribution;
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	char **params = NULL;
	unsigned i, n = 0;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(rdist_names); i++)
		if (strlen(rdist_names[i].name) == len && !strncmp(rdist_names[i].name, val, len))
			break;
	if (i == ARRAY_SIZE(rdist_names))
		return set_cause(
			cause,
			"'%s' is not a valid random_distribution (valid: random zipf:THETA "
			"pareto:H normal:SIGMA zoned:A/S:... zoned_abs:A/SIZE:...)",
			val);
	/* fio 3.33 matches the name up to the first ',' (before any ':'), so a
	 * comma, per-direction zones included, never parses in fio. */
	if (strchr(val, ','))
		return set_cause(cause,
				 "'%s': fio 3.33 refuses a comma here (it reads the name up to the "
				 "first comma), so per-direction lists, though its documentation "
				 "shows them, are refused too",
				 val);
	memset(rd->nr_zones, 0, sizeof(rd->nr_zones));
	rd->kind = rdist_names[i].kind;
	rd->param = rd->center = 0;
	rd->has_center = false;
	if (rd->kind == RDIST_RANDOM)
		return colon ? set_cause(cause, "'%s': random takes no parameters", val) : 0;
	if (!colon || !colon[1])
		return set_cause(cause, "'%s': %s needs parameters after ':'", val,
				 rdist_names[i].name);
	if (rd->kind == RDIST_ZONED || rd->kind == RDIST_ZONED_ABS) {
		if (!rd->zones)
			rd->zones = xcalloc(DDIR_COUNT, sizeof(*rd->zones));
		ret = per_ddir(o, job, colon + 1, zones_one, cause);
		if (!ret && !rd->nr_zones[DDIR_READ])
			ret = set_cause(cause, "'%s': no zones for reads", val);
		/* An empty piece gives a direction the zones of the one before. */
		for (i = 1; !ret && i < DDIR_COUNT; i++) {
			if (rd->nr_zones[i])
				continue;
			rd->nr_zones[i] = rd->nr_zones[i - 1];
			memcpy(rd->zones[i], rd->zones[i - 1], sizeof(rd->zones[i]));
		}
		return ret;
	}

	params = split(colon + 1, ':', &n);
	if (n > 2) {
		ret = set_cause(cause, "'%s': %s takes a value and an optional center", val,
				rdist_names[i].name);
		goto out;
	}
	ret = units_parse_double(params[0], &rd->param, cause);
	if (!ret && n == 2) {
		ret = units_parse_double(params[1], &rd->center, cause);
		rd->has_center = true;
	}
	if (ret)
		goto out;
	if (rd->center < 0 || rd->center > 1)
		ret = set_cause(cause, "'%s': the center must be 0.0 to 1.0", val);
	else if (rd->kind == RDIST_ZIPF && (rd->param <= 0 || rd->param == 1.0))
		ret = set_cause(cause, "'%s': zipf theta must be above 0 and not 1.0", val);
	else if (rd->kind == RDIST_PARETO && (rd->param <= 0 || rd->param >= 1))
		ret = set_cause(cause, "'%s': pareto h must be between 0 and 1", val);
	else if (rd->kind == RDIST_NORMAL && (rd->param < 0 || rd->param > 100))
		ret = set_cause(cause, "'%s': normal sigma must be 0 to 100 (%%)", val);
out:
	free_split(params);
	return ret;
}

static void zones_print(const struct rand_dist *rd, unsigned d, struct strbuf *sb)
{
	unsigned i;

	for (i = 0; i < rd->nr_zones[d]; i++) {
		const struct rand_zone *z = &rd->zones[d][i];

		if (rd->kind == RDIST_ZONED)
			strbuf_addf(sb, "%s%.10g/%.10g", i ? ":" : "", z->access_pct, z->size_pct);
		else
			strbuf_addf(sb, "%s%.10g/%llu", i ? ":" : "", z->access_pct,
				    (unsigned long long)z->size);
	}
}

static bool zones_same(const struct rand_dist *rd, unsigned a, unsigned b)
{
	return rd->nr_zones[a] == rd->nr_zones[b] &&
	       (!rd->nr_zones[a] ||
		!memcmp(rd->zones[a], rd->zones[b], rd->nr_zones[a] * sizeof(rd->zones[a][0])));
}

static void rand_dist_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct rand_dist *rd = &job->random_distribution;
	unsigned i, d, n = DDIR_COUNT;

	(void)o;
	for (i = 0; i < ARRAY_SIZE(rdist_names); i++)
		if (rdist_names[i].kind == rd->kind)
			strbuf_addf(sb, "%s", rdist_names[i].name);
	switch (rd->kind) {
	case RDIST_RANDOM:
		break;
	case RDIST_ZONED:
	case RDIST_ZONED_ABS:
		strbuf_addc(sb, ':');
		if (zones_same(rd, 0, 1) && zones_same(rd, 0, 2))
			n = 1;
		for (d = 0; d < n; d++) {
			if (d)
				strbuf_addc(sb, ',');
			zones_print(rd, d, sb);
		}
		break;
	default:
		strbuf_addf(sb, ":%g", rd->param);
		if (rd->center)
			strbuf_addf(sb, ":%g", rd->center);
	}
}

static void rand_dist_own(const struct opt_def *o, struct job *job)
{
	struct rand_dist *rd = &job->random_distribution;

	(void)o;
	rd->zones = own_per_ddir(rd->zones, sizeof(*rd->zones));
}

static void rand_dist_release(const struct opt_def *o, struct job *job)
{
	(void)o;
	free(job->random_distribution.zones);
	job->random_distribution.zones = NULL;
}

const struct opt_kind opt_kind_rand_dist = { .syntax = "distribution",
					     .parse = rand_dist_parse,
					     .format = rand_dist_format,
					     .own = rand_dist_own,
					     .release = rand_dist_release };

/* ---- file_service_type=KIND[:N] or DIST[:PARAM[:CENTER]] ---- */

static const struct {
	const char *name;
	enum file_service_kind kind;
	double def; /* the distribution's parameter when none is given (fio's) */
} fsrv_names[] = {
	{ "roundrobin", FSRV_ROUNDROBIN, 0 }, { "sequential", FSRV_SEQUENTIAL, 0 },
	{ "random", FSRV_RANDOM, 0 },	      { "zipf", FSRV_ZIPF, 1.1 },
	{ "pareto", FSRV_PARETO, 0.2 },	      { "normal", FSRV_NORMAL, 0 },
	{ "gauss", FSRV_NORMAL, 0 },
};

static int file_service_parse(const struct opt_def *o, struct job *job, const char *val,
			      char **cause)
{
	struct file_service *fs = FIELD(o, job, struct file_service);
	const char *colon = strchr(val, ':');
	size_t len = colon ? (size_t)(colon - val) : strlen(val);
	char **params = NULL;
	unsigned i, n = 0;
	uint64_t nr;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(fsrv_names); i++)
		if (strlen(fsrv_names[i].name) == len && !strncmp(fsrv_names[i].name, val, len))
			break;
	if (i == ARRAY_SIZE(fsrv_names))
		return set_cause(cause,
				 "'%s' is not a valid file_service_type (valid: roundrobin[:N] "
				 "sequential[:N] random[:N] zipf[:THETA] pareto[:H] normal[:DEV] "
				 "gauss[:DEV])",
				 val);
	memset(fs, 0, sizeof(*fs));
	fs->kind = fsrv_names[i].kind;
	fs->nr = 1;
	fs->param = fsrv_names[i].def;
	if (!colon)
		return 0;
	if (fs->kind <= FSRV_RANDOM) {
		ret = units_parse_uint(colon + 1, &nr, cause);
		if (!ret && (nr < 1 || nr > UINT32_MAX))
			ret = set_cause(cause, "'%s': the I/Os per file must be 1 to %u", val,
					UINT32_MAX);
		fs->nr = (unsigned)nr;
		return ret;
	}
	params = split(colon + 1, ':', &n);
	if (n > 2) {
		ret = set_cause(cause, "'%s': %s takes a value and an optional center", val,
				fsrv_names[i].name);
		goto out;
	}
	ret = units_parse_double(params[0], &fs->param, cause);
	if (!ret && n == 2) {
		ret = units_parse_double(params[1], &fs->center, cause);
		fs->has_center = true;
	}
	if (ret)
		goto out;
	if (fs->center < 0 || fs->center > 1)
		ret = set_cause(cause, "'%s': the center must be 0.0 to 1.0", val);
	else if (fs->kind == FSRV_ZIPF && (fs->param <= 0 || fs->param == 1.0))
		ret = set_cause(cause, "'%s': zipf theta must be above 0 and not 1.0", val);
	else if (fs->kind == FSRV_PARETO && (fs->param <= 0 || fs->param >= 1))
		ret = set_cause(cause, "'%s': pareto h must be between 0 and 1", val);
	else if (fs->kind == FSRV_NORMAL && (fs->param < 0 || fs->param >= 100))
		ret = set_cause(cause, "'%s': the normal deviation must be 0 to below 100 (%%)",
				val);
out:
	free_split(params);
	return ret;
}

static void file_service_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct file_service *fs = CFIELD(o, job, struct file_service);
	unsigned i;

	for (i = 0; i < ARRAY_SIZE(fsrv_names) && fsrv_names[i].kind != fs->kind; i++)
		;
	strbuf_adds(sb, i < ARRAY_SIZE(fsrv_names) ? fsrv_names[i].name : "?");
	if (fs->kind <= FSRV_RANDOM && fs->nr != 1)
		strbuf_addf(sb, ":%u", fs->nr);
	else if (fs->kind > FSRV_RANDOM)
		strbuf_addf(sb, ":%.10g", fs->param);
	if (fs->has_center)
		strbuf_addf(sb, ":%.10g", fs->center);
}

const struct opt_kind opt_kind_file_service = { .syntax = "kind[:N]",
						.parse = file_service_parse,
						.format = file_service_format };

/* ---- percentile_list=p:p:... ---- */

static int percentiles_parse(const struct opt_def *o, struct job *job, const char *val,
			     char **cause)
{
	double v[JOB_MAX_PERCENTILES];
	unsigned n, i;
	char **ent = split(val, ':', &n);
	int ret = 0;

	(void)o;
	if (n > JOB_MAX_PERCENTILES) {
		ret = set_cause(cause, "'%s': at most %d percentiles (got %u)", val,
				JOB_MAX_PERCENTILES, n);
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		ret = units_parse_double(ent[i], &v[i], cause);
		if (!ret && (v[i] < 0 || v[i] > 100))
			ret = set_cause(cause, "'%s': percentile %s is not 0 to 100", val, ent[i]);
	}
	if (!ret) {
		memcpy(job->percentile_list, v, n * sizeof(v[0]));
		job->nr_percentiles = n;
	}
out:
	free_split(ent);
	return ret;
}

static void percentiles_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	unsigned i;

	(void)o;
	for (i = 0; i < job->nr_percentiles; i++) {
		double p = job->percentile_list[i];

		if (i)
			strbuf_addc(sb, ':');
		/* Whole ones as %g prints them, without its cost (--parse-only). */
		if (p >= 0 && p <= 100 && p == (double)(unsigned)p)
			strbuf_addu(sb, (unsigned)p);
		else
			strbuf_addf(sb, "%g", p);
	}
}

const struct opt_kind opt_kind_percentiles = { .syntax = "p:p:...",
					       .parse = percentiles_parse,
					       .format = percentiles_format };

/* ---- cpus_allowed=0,5,8-15 ---- */

static int cpus_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	uint64_t set[JOB_MAX_CPUS / 64] = { 0 };
	unsigned n, i;
	char **ent = split(val, ',', &n);
	int ret = 0;

	(void)o;
	for (i = 0; i < n && !ret; i++) {
		char *dash = strchr(ent[i], '-');
		uint64_t lo, hi, c;

		if (dash)
			*dash = '\0';
		ret = units_parse_uint(ent[i], &lo, cause);
		hi = lo;
		if (!ret && dash)
			ret = units_parse_uint(dash + 1, &hi, cause);
		if (ret)
			break;
		if (lo > hi || hi >= JOB_MAX_CPUS) {
			ret = set_cause(cause, "'%s': bad CPU range (CPUs are 0 to %d, low first)",
					val, JOB_MAX_CPUS - 1);
			break;
		}
		for (c = lo; c <= hi; c++)
			set[c / 64] |= 1ull << (c % 64);
	}
	if (!ret) {
		memcpy(job->cpus_allowed, set, sizeof(set));
		job->cpus_allowed_set = true;
	}
	free_split(ent);
	return ret;
}

static bool cpu_isset(const struct job *job, unsigned c)
{
	return c < JOB_MAX_CPUS && (job->cpus_allowed[c / 64] >> (c % 64) & 1);
}

static void cpus_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	unsigned c = 0, end;
	bool first = true;

	(void)o;
	if (!job->cpus_allowed_set)
		return;
	while (c < JOB_MAX_CPUS) {
		if (!cpu_isset(job, c)) {
			c++;
			continue;
		}
		for (end = c; cpu_isset(job, end + 1); end++)
			;
		strbuf_addf(sb, first ? "%u" : ",%u", c);
		if (end > c)
			strbuf_addf(sb, "-%u", end);
		first = false;
		c = end + 1;
	}
}

const struct opt_kind opt_kind_cpus = { .syntax = "cpu-list",
					.parse = cpus_parse,
					.format = cpus_format };

/* ---- verify_pattern=0x..."str"%o... ---- */

static int pattern_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	return verify_pattern_parse(val, FIELD(o, job, struct verify_pattern), cause);
}

/* Back as hex, with the %o places: the same bytes whatever was written. */
static void pattern_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const struct verify_pattern *vp = CFIELD(o, job, struct verify_pattern);
	unsigned i = 0, k = 0;

	while (i < vp->len) {
		unsigned end = k < vp->nr_off ? vp->off_at[k] : vp->len;

		if (i == end) {
			strbuf_addf(sb, "%%o");
			i += 8;
			k++;
			continue;
		}
		strbuf_addf(sb, "0x");
		for (; i < end; i++)
			strbuf_addf(sb, "%02x", vp->bytes[i]);
	}
}

const struct opt_kind opt_kind_pattern = { .syntax = "pattern",
					   .parse = pattern_parse,
					   .format = pattern_format };
