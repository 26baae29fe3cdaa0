/* SPDX-License-Identifier: MIT */
/*
 * The value kinds of the option table: how each kind of job-file value is
 * parsed into struct job and printed back as a job file would spell it.
 * Bounds come from the table row; rules that involve two options are in
 * job.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/options.h"
#include "jobfile/optvals.h"
#include "jobfile/units.h"

#include "engines/engine.h"

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
char **optval_split(const char *s, char sep, unsigned *n)
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

void optval_free_split(char **v)
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

int optval_enum_lookup(const struct opt_def *o, const char *val, int *out, char **cause)
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
	int ret = optval_enum_lookup(o, val, &v, cause);

	if (!ret)
		*FIELD(o, job, int) = v;
	return ret;
}

/* The first spelling of a value: the canonical one. */
const char *optval_enum_name(const struct opt_def *o, int v)
{
	const struct opt_enum *e;

	for (e = o->enums; e->name; e++)
		if (e->value == v)
			return e->name;
	return "?";
}

static void enum_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	strbuf_adds(sb, optval_enum_name(o, *CFIELD(o, job, int)));
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
int optval_per_ddir(const struct opt_def *o, struct job *job, const char *val, optval_ddir_fn one,
		    char **cause)
{
	unsigned n, i, d;
	char **pieces = optval_split(val, ',', &n);
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
	optval_free_split(pieces);
	return ret;
}

static int size_ddir_one(const struct opt_def *o, struct job *job, const char *piece, enum ddir d,
			 char **cause)
{
	return size_value(o, job, piece, &FIELD(o, job, uint64_t)[d], NULL, cause);
}

static int size_ddir_parse(const struct opt_def *o, struct job *job, const char *val, char **cause)
{
	return optval_per_ddir(o, job, val, size_ddir_one, cause);
}

/* A 0 below the row's minimum is "not set" (cmdprio_class: fio's
 * realtime default): printed as an empty piece, which leaves it unset
 * when read again. */
static void u64_ddir_piece(const struct opt_def *o, uint64_t v, struct strbuf *sb)
{
	if (v || !o->min)
		strbuf_addf(sb, "%llu", (unsigned long long)v);
	else
		strbuf_add(sb, "", 0); /* still a string where the buffer was reused */
}

static void u64_ddir_format(const struct opt_def *o, const struct job *job, struct strbuf *sb)
{
	const uint64_t *v = CFIELD(o, job, uint64_t);
	int d;

	if (v[0] == v[1] && v[1] == v[2]) {
		u64_ddir_piece(o, v[0], sb);
		return;
	}
	for (d = 0; d < DDIR_COUNT; d++) {
		if (d)
			strbuf_addf(sb, ",");
		u64_ddir_piece(o, v[d], sb);
	}
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
	return optval_per_ddir(o, job, val, u64_ddir_one, cause);
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
	return optval_per_ddir(o, job, val, range_ddir_one, cause);
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
	return optval_per_ddir(o, job, val, time_ddir_one, cause);
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
